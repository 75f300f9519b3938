//! A Pacemaker/Heartbeat failover pair as a lock service: two nodes that run one resource,
//! active on one and standby on the other, each watching the other's heartbeats, and a fence
//! device per node that the other may ask to cut its power (STONITH). There is no lock server:
//! each node judges for itself, from a timeout, that its peer is dead. As GitHub's fileserver
//! pairs ran (Pacemaker, Heartbeat and DRBD, "Downtime last Saturday", December 2012) and as
//! Heartbeat's `ha.cf` (`keepalive`, `deadtime`) and Pacemaker's `stonith-timeout` describe them.
//!
//! The messages and events are in [`crate::wire::pacemaker`]; a node is `pacemaker/client.rs`,
//! the fence devices `pacemaker/server.rs`, their sentences `pacemaker/words.rs`.
//!
//! Simplifications, said in the scenarios: the pair's data is the run's one store (DRBD keeps
//! a copy on each node and the copies diverge in a split brain; here both nodes' writes land
//! in the store, and one overwrites the other); the deadtime is checked at each heartbeat; the
//! first client is the preferred node; a fence device cuts the power the moment a request
//! reaches it.

pub mod client;
pub mod server;
mod slice;
pub mod words;
