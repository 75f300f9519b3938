//! The consensus family's events ([`QuorumEvent`]): what the replicated lock services record,
//! the etcd-like one (`service/consensus/`) and ZooKeeper (`service/zookeeper/`), both on
//! `quorum.rs`'s leadership. A run records one as [`EventKind::Quorum`], written in the JSON as
//! the event alone, as before it had an enum of its own. Each of the two services words every
//! one of them in its own terms (a revision, a zxid; a lease, a session), in an exhaustive match
//! (`service::Slice::quorum`), so that a new event here does not compile until both have.

use serde::Serialize;

use super::{ActorId, EventKind, Proposal};
use crate::time::Micros;

/// An event of the consensus family.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum QuorumEvent {
    /// A client's key (etcd) or znode (ZooKeeper) is in place, but an earlier one holds the lock.
    Queued { rev: u64 },
    /// A proposal reached a majority and was applied.
    Committed { what: Proposal, revision: u64 },
    /// A client that already has a key asked for the lock again, and is told about the key it
    /// has (created at revision `rev`).
    Reread { client: ActorId, rev: u64 },
    /// A committed delete found no key: nothing changed, and the revision stays.
    Unchanged { what: Proposal, revision: u64 },
    /// The leader tells a client it holds the lock. `key_exists` is false when the service did
    /// not check that the client's own key still existed (etcd#11456).
    LockGranted { client: ActorId, rev: u64, key_exists: bool },
    /// A lease (a session) ran out on the leader's clock; the leader proposes to revoke it.
    LeaseExpired { client: ActorId },
    /// With a lock-delay (Chubby's, SEMANTICS §5.4): `client` held the lock when its lease or
    /// session expired, so the lock is granted to no one until `until_us`.
    LockDelayed { client: ActorId, until_us: Micros },
    /// A member became leader and refreshed every lease (every session).
    LeaderElected { leases: usize },
    /// No member can reach a majority, so there is no leader; none has since `since_us` (the
    /// fault that took the majority away, an election timeout earlier or more).
    NoQuorum { since_us: Micros },
    /// A leader resumed from a pause to find `leader` elected in its place.
    SteppedDown { leader: ActorId },
}

impl QuorumEvent {
    /// The word a key moment matches, and whose the event is (the client's, for an event about
    /// one). See [`EventKind::tag`].
    pub fn tag(&self, actor: ActorId) -> (&'static str, ActorId) {
        use QuorumEvent::*;
        match *self {
            Queued { .. } => ("queued", actor),
            Committed { .. } => ("committed", actor),
            Unchanged { .. } => ("nothing-deleted", actor),
            Reread { client, .. } => ("reread", client),
            LockGranted { client, .. } => ("granted", client),
            LeaseExpired { client } => ("lease-expired", client),
            LockDelayed { client, .. } => ("lock-delay", client),
            LeaderElected { .. } => ("leader", actor),
            SteppedDown { .. } => ("stepped-down", actor),
            NoQuorum { .. } => ("no-quorum", actor),
        }
    }

    /// The sentence of [`QuorumEvent::SteppedDown`] at `me`, `newer` saying what made the new
    /// leader's claim win (etcd's higher term, ZooKeeper's newer epoch).
    pub fn stepped_down(me: &str, leader: &str, newer: &str) -> String {
        format!("{me} runs again to find {leader} elected leader meanwhile, {newer}: {me} steps down and follows; what reached it while it was stopped goes unanswered.")
    }
}

impl From<QuorumEvent> for EventKind {
    fn from(e: QuorumEvent) -> EventKind {
        EventKind::Quorum(e)
    }
}
