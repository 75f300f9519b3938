//! The lock services as slices: each one a folder holding its server, its client protocol and
//! its narration (its labels are `LockKind`'s: `title`, `lock_word`, `server_label`). Its messages and events, as data, are on the ground floor
//! ([`crate::wire`]), so that the envelope can carry them. `lock.rs` dispatches to them.
//!
//! Kubernetes leader election is the first service built this way; Redis, Redlock, the
//! consensus service and ZooKeeper are still top-level modules.

pub mod kubernetes;
