//! The kinds of events a run records, and how a key moment names them ([`EventKind::tag`]).

use serde::Serialize;

use super::{ActorId, MsgId};
use crate::time::{Micros, Millis};

pub use super::outcome::WriteOutcome;
pub use super::why::{Awaited, Loss, Proposal, Short, Why};
pub use crate::scenario::fault::Stall;
pub use crate::wire::redlock::Votes;

/// The kinds of events. Fields name actors by [`ActorId`] and times in microseconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum EventKind {
    /// A client's program starts.
    Start,
    /// A message leaves (what it says is in [`Intervals::messages`]).
    Send {
        msg: MsgId,
        to: ActorId,
    },
    /// A message arrives and is handled.
    Receive {
        msg: MsgId,
        from: ActorId,
    },
    /// A message never arrives (dropped, partitioned, or its receiver is down).
    Lost {
        msg: MsgId,
        from: ActorId,
        why: Loss,
    },
    /// A client learns it holds the lock, until `until_local_us` on its own clock.
    Acquired {
        token: Option<u64>,
        until_local_us: Micros,
        grant: usize,
    },
    /// A client's attempt found the lock held (or got no reply).
    Refused {
        attempt: u32,
    },
    /// A Redlock round ended: which nodes (by index) voted yes, and the validity arithmetic.
    Tally {
        votes: Votes,
        nodes: usize,
        elapsed_us: Micros,
        drift_us: Micros,
        validity_us: Micros,
        ok: bool,
        extend: bool,
    },
    /// A client ran out of attempts.
    GaveUp,
    /// A client's renewal succeeded.
    Renewed {
        until_local_us: Micros,
    },
    /// A client learns it no longer holds the lock and stops.
    LostLock {
        why: Why,
    },
    /// A client stops on its own judgment, without having learned that it lost the lock: its
    /// deadline is too near, or its renewal got no reply (it cannot know whether it still holds
    /// the lock).
    Abandoned {
        why: Why,
    },
    /// A client is told its session has ended (ZooKeeper's `session expired` in answer to a
    /// ping, etcd's `lease not found` in answer to a keepalive), and its code does not check
    /// for that: its program goes on. `holding` when it still believes it holds the lock.
    NoticeIgnored {
        holding: bool,
    },
    /// A client starts releasing the lock: from now on it no longer believes it holds it.
    Releasing,
    /// A client released the lock (or tried to).
    Released {
        removed: bool,
    },
    /// A client checked its deadline and went on.
    DeadlineOk {
        left_us: Micros,
    },
    /// A client starts computing.
    Work {
        ms: Millis,
    },
    /// A client got the resource's value.
    ReadDone {
        value: i64,
        version: u64,
    },
    /// A client got the reply to its write.
    WriteDone {
        outcome: WriteOutcome,
    },
    /// A client gave up waiting for a reply.
    Timeout {
        what: Awaited,
    },
    /// A client's program ended.
    Done {
        completed: bool,
    },
    /// A Redis node set the lock key.
    KeySet {
        owner: ActorId,
        token: Option<u64>,
    },
    /// A Redis node refused `SET NX` because the key exists.
    KeyBusy {
        holder: Option<ActorId>,
    },
    /// A Redis node's clock passed the key's expiry.
    KeyExpired {
        owner: Option<ActorId>,
    },
    /// A key was deleted by a client; `foreign` when it was not the client's own.
    KeyDeleted {
        owner: Option<ActorId>,
        by: ActorId,
        foreign: bool,
    },
    /// A key's expiry was extended; `foreign` when it was not the client's own.
    KeyExtended {
        owner: Option<ActorId>,
        by: ActorId,
        foreign: bool,
    },
    /// A compare-and-X script found another value (or no key) and did nothing.
    KeyUnchanged {
        by: ActorId,
        missing: bool,
    },
    /// The replica applied a replicated write.
    Replicated {
        /// The value set (its first bytes), or `None` for a delete.
        set: Option<Short>,
        /// Of the fencing counter's key (`lock:fence`), not the lock's.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        counter: bool,
    },
    /// The resource served a read.
    ReadServed {
        client: ActorId,
        value: i64,
        version: u64,
    },
    /// The resource applied a write.
    Accepted {
        client: ActorId,
        token: Option<u64>,
        value: i64,
    },
    /// The resource refused a write (or an activation) because of its token.
    Rejected {
        client: ActorId,
        token: Option<u64>,
        highest: u64,
    },
    /// The resource had already applied this request id.
    Duplicate {
        client: ActorId,
        request: String,
    },
    /// A conditional write found a newer version.
    Conflict {
        client: ActorId,
        expected: u64,
        actual: u64,
    },
    /// Check-then-write: the check passed; the write follows later.
    Checked {
        client: ActorId,
        token: Option<u64>,
    },
    /// A pause starts.
    Paused {
        until_us: Micros,
    },
    /// A pause ends; buffered messages and timers are handled now.
    Resumed {
        buffered: usize,
        /// The end of a disk stall rather than of a pause.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        disk: bool,
    },
    Crashed,
    Restarted {
        kept_data: bool,
    },
    ClockJumped {
        by_us: Micros,
    },
    DriftChanged {
        ppm: i64,
    },
    Isolated {
        until_us: Micros,
    },
    /// A lock server's disk stalls until `until_us`, and what that does to the server.
    DiskStalled {
        until_us: Micros,
        stall: Stall,
    },
    Healed,
    /// The replica became the primary.
    Promoted,
    /// Sentinel made the old primary a replica of `to`, the new one: it resynced in full and
    /// lost what it held, `discarded` naming the owner of the lock key it lost.
    Demoted {
        to: ActorId,
        discarded: Option<ActorId>,
        /// At the failover itself, nothing separating the two: the old primary was never cut off.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        at_once: bool,
    },
    /// The resource's transaction sent an external effect (an email) keyed by `key`;
    /// `deduplicated` when its receiver recognised the key and did nothing.
    EffectSent {
        client: ActorId,
        key: String,
        deduplicated: bool,
    },
    /// The consensus family's events (etcd's and ZooKeeper's), written in the JSON as the
    /// event alone.
    #[serde(untagged)]
    Quorum(super::QuorumEvent),
    /// A lock service's own events, written in the JSON as the
    /// service's event alone.
    #[serde(untagged)]
    Service(super::ServiceEvent),
}

impl EventKind {
    /// Whose key a key event finds, sets, deletes, extends or expires (`None` for other
    /// events, and for a key of no known owner).
    pub fn key_owner(&self) -> Option<ActorId> {
        match *self {
            EventKind::KeySet { owner, .. } => Some(owner),
            EventKind::KeyBusy { holder: owner }
            | EventKind::KeyExpired { owner }
            | EventKind::KeyDeleted { owner, .. }
            | EventKind::KeyExtended { owner, .. }
            | EventKind::Demoted { discarded: owner, .. } => owner,
            _ => None,
        }
    }

    /// The token the event carries: a grant, a write accepted, rejected or checked, a key set.
    pub fn token(&self) -> Option<u64> {
        match self {
            EventKind::Acquired { token, .. }
            | EventKind::Accepted { token, .. }
            | EventKind::Rejected { token, .. }
            | EventKind::Checked { token, .. }
            | EventKind::KeySet { token, .. } => *token,
            EventKind::Service(e) => e.token(),
            _ => None,
        }
    }

    /// The word used to match key moments, and the actor the word is about (the client for
    /// events at the resource or the lock service). See [`crate::scenario::Moment`].
    pub fn tag(&self, actor: ActorId) -> (&'static str, ActorId) {
        use EventKind::*;
        match self {
            Start => ("start", actor),
            Send { .. } => ("send", actor),
            Receive { .. } => ("receive", actor),
            Lost { from, .. } => ("lost", *from),
            Acquired { .. } => ("acquired", actor),
            Refused { .. } => ("refused", actor),
            Tally { ok: true, .. } => ("majority", actor),
            Tally { ok: false, .. } => ("no-majority", actor),
            GaveUp => ("gave-up", actor),
            Renewed { .. } => ("renewed", actor),
            LostLock { .. } => ("lost-lock", actor),
            NoticeIgnored { .. } => ("ignored", actor),
            Abandoned { .. } => ("abandoned", actor),
            Releasing => ("releasing", actor),
            Released { .. } => ("released", actor),
            DeadlineOk { .. } => ("deadline-ok", actor),
            Work { .. } => ("work", actor),
            ReadDone { .. } => ("read", actor),
            WriteDone { .. } => ("write-done", actor),
            Timeout { .. } => ("timeout", actor),
            Done { .. } => ("done", actor),
            KeySet { owner, .. } => ("key-set", *owner),
            KeyBusy { .. } => ("key-busy", actor),
            KeyExpired { owner } => ("expired", owner.unwrap_or(actor)),
            KeyDeleted { by, .. } => ("deleted", *by),
            KeyExtended { by, .. } => ("extended", *by),
            KeyUnchanged { by, .. } => ("unchanged", *by),
            Replicated { .. } => ("replicated", actor),
            ReadServed { client, .. } => ("served", *client),
            Accepted { client, .. } => ("accepted", *client),
            Rejected { client, .. } => ("rejected", *client),
            Duplicate { client, .. } => ("duplicate", *client),
            Conflict { client, .. } => ("conflict", *client),
            Checked { client, .. } => ("checked", *client),
            Paused { .. } => ("paused", actor),
            Resumed { .. } => ("resumed", actor),
            Crashed => ("crashed", actor),
            Restarted { .. } => ("restarted", actor),
            ClockJumped { .. } => ("clock-jump", actor),
            DriftChanged { .. } => ("drift", actor),
            Isolated { .. } => ("isolated", actor),
            DiskStalled { .. } => ("disk-stall", actor),
            Healed => ("healed", actor),
            Promoted => ("promoted", actor),
            Demoted { .. } => ("demoted", actor),
            EffectSent { client, .. } => ("effect", *client),
            Quorum(e) => e.tag(actor),
            Service(e) => e.tag(actor),
        }
    }

    /// How the sentence of [`EventKind::NoticeIgnored`] ends: what the client does next.
    pub fn goes_on(holding: bool) -> &'static str {
        if holding {
            "so it goes on as if it still held the lock"
        } else {
            "so its program goes on"
        }
    }

    /// Whether this event is a fault (drawn as such, and always worth a marker).
    pub fn is_fault(&self) -> bool {
        use EventKind::*;
        matches!(
            self,
            Paused { .. }
                | Crashed
                | Restarted { .. }
                | ClockJumped { .. }
                | DriftChanged { .. }
                | Isolated { .. }
                | DiskStalled { .. }
                | Promoted
        )
    }
}
