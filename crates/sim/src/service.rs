//! The lock services as slices: each one a folder holding its server, its client protocol and
//! its narration (its labels are `LockKind`'s: `title`, `lock_word`, `server_label`). Its messages and events, as data, are on the ground floor
//! ([`crate::wire`]), so that the envelope can carry them. `lock.rs` dispatches to them.
//!
//! Redis (a single node, with a replica or not), Redlock (over Redis nodes), the etcd-like
//! consensus service, ZooKeeper and Kubernetes leader election. The events of the consensus
//! family (etcd's and ZooKeeper's) are still arms of `EventKind` themselves.

pub mod consensus;
pub mod kubernetes;
pub mod redis;
pub mod redlock;
pub mod zookeeper;
