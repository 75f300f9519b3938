//! The etcd-like service's words: the consensus family's events in its terms (revisions,
//! leases, terms), and its client's where they differ from a Redis client's.

use crate::time::{Millis, fmt};
use crate::trace::{ActorId, EventKind, QuorumEvent};

/// The consensus client's own sentences, where they differ from a Redis client's.
pub fn narrate_client(me: &str, kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::Released { removed: false } => {
            Some(format!("{me}'s unlock deleted nothing: its key was already gone, revoked with its lease."))
        }
        EventKind::NoticeIgnored { holding } => Some(format!(
            "{me} is told its lease is gone, revoked with its key (its session's Done channel closes); its code does not watch for that, {}.",
            EventKind::goes_on(*holding)
        )),
        _ => None,
    }
}

/// The sentence for an event of the consensus family at `me`, every one of them in etcd's terms.
pub fn quorum(e: &QuorumEvent, me: &str, n: &dyn Fn(ActorId) -> String, election_timeout_ms: Millis) -> String {
    use QuorumEvent::*;
    match *e {
        Queued { rev } => format!("{me}'s key is in place at revision {rev}, but an earlier key holds the lock: it waits for its predecessor."),
        Committed { ref what, revision } => {
            format!("{me} commits `{}` at revision {revision}: a majority of the members has it.", crate::msg::proposal_words(what, n))
        }
        Reread { client, rev } => format!(
            "{} already has a key (revision {rev}), made by a request whose answer it missed: it keeps that key and its place in the queue, as etcd's mutex does.",
            n(client)
        ),
        Unchanged { ref what, revision } => {
            format!("{me} commits `{}`, which finds no key: nothing is deleted, and the store stays at revision {revision}.", crate::msg::proposal_words(what, n))
        }
        LockGranted { client, rev, key_exists: true } => {
            format!("{me} tells {} it holds the lock: its key (revision {rev}) has the lowest create revision.", n(client))
        }
        LockGranted { client, rev, key_exists: false } => format!(
            "{me} tells {} it holds the lock (revision {rev}) without checking its session: {}'s key is already gone, because its lease expired while it waited.",
            n(client),
            n(client)
        ),
        LeaseExpired { client } => {
            format!("{}'s lease has run out by {me}'s monotonic clock: {me} proposes to revoke it and delete its key.", n(client))
        }
        LockDelayed { client, until_us } => format!(
            "{} held the lock when its lease ran out: {me} grants the lock to no one else until {}, its lock-delay (Chubby's; etcd has no such setting, the model adds it).",
            n(client),
            fmt(until_us)
        ),
        LeaderElected { leases: 0 } => format!("{me} is the leader."),
        LeaderElected { leases: 1 } => format!(
            "{me} becomes the leader and refreshes the one lease to its full TTL plus the election timeout ({}).",
            fmt(election_timeout_ms.to_micros())
        ),
        LeaderElected { leases } => format!(
            "{me} becomes the leader and refreshes all {leases} leases to their full TTL plus the election timeout ({}).",
            fmt(election_timeout_ms.to_micros())
        ),
        SteppedDown { leader } => QuorumEvent::stepped_down(me, &n(leader), "with a higher term"),
        NoQuorum { since_us } => format!(
            "No member has reached a majority since {}: there is no leader. Nothing can be granted, and no lease can expire.",
            fmt(since_us)
        ),
    }
}
