//! ZooKeeper as a lock service (SEMANTICS §5.1): an ensemble of servers with a leader that
//! commits every change on a majority and numbers it with the next zxid; sessions kept alive by
//! the client's pings and expired by the leader when it has heard nothing for the session
//! timeout, which deletes the session's ephemeral znodes; and the lock recipe: each client
//! creates an ephemeral sequential znode under `/lock`, lists the children, holds the lock if
//! its znode is the lowest, and otherwise watches its predecessor (`exists` with a watch) and
//! lists again when it is deleted. The znode's creation zxid (`czxid`) is the fencing token.
//! Chubby's lock-delay, which ZooKeeper does not have, is a setting (`server/delay.rs`).
//!
//! The messages are data on the ground floor (`wire/zookeeper.rs`, re-exported as [`Msg`]); the
//! ensemble is `zookeeper/server.rs`, the client side of the recipe `zookeeper/client.rs`.
//!
//! Simplifications, said in the scenarios: one counter numbers the transactions (a real zxid is
//! the leader's epoch and a counter in one 64-bit number, ordered the same way); the leader is
//! the lowest-numbered live server that reaches a majority; clients always talk to the leader.

pub mod client;
pub mod server;
mod slice;
mod words;

pub use crate::wire::zookeeper::{znode, Msg};
