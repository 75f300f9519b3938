//! ZooKeeper's words: the consensus family's events in its terms (zxids, znodes, sessions,
//! epochs), and its client's where they differ from a Redis client's.

use crate::scenario::Scenario;
use crate::time::{fmt, Millis};
use crate::trace::{ActorId, EventKind, QuorumEvent};

/// The sentences of a ZooKeeper client's events, where they differ from a Redis client's.
pub fn narrate_client(sc: &Scenario, me: &str, kind: &EventKind) -> Option<String> {
    Some(match kind {
        EventKind::Acquired { token, until_local_us, .. } => {
            let t = token.map(|t| format!(" with token {t}, its znode's czxid")).unwrap_or_default();
            format!(
                "{me} holds the lock{t}. By its own clock its session lasts until {} unless a ping is answered first.",
                fmt(*until_local_us)
            )
        }
        EventKind::Renewed { until_local_us } => {
            format!("{me}'s ping was answered: by its own clock its session now lasts until {}.", fmt(*until_local_us))
        }
        EventKind::Released { removed: false } if sc.lock.lock_delay_ms > Millis::ZERO => format!(
            "{me}'s delete removed nothing: its session had expired, so the ensemble refused it; it keeps an expired session's znode for the lock-delay ({}), then deletes it.",
            fmt(sc.lock.lock_delay_ms.to_micros())
        ),
        EventKind::Released { removed: false } => {
            format!("{me}'s delete removed nothing: its session had expired, and its znode had gone with it.")
        }
        EventKind::NoticeIgnored { holding } => format!(
            "{me} is told its session has expired (its watcher gets the Expired event); its code does not check for it, {}.",
            EventKind::goes_on(*holding)
        ),
        _ => return None,
    })
}

/// The sentence for an event of the consensus family at `me`, in ZooKeeper's terms. The ensemble
/// records no `Reread` and no `Unchanged` (a client's retry resumes its recipe where it was, and
/// a delete that finds no znode is an error transaction that takes a zxid: `Committed` with
/// `Proposal::Delete { missing: true }`): they are worded as not recorded, which no run shows
/// (tests/architecture.rs), so that one recorded some day is seen to need words.
pub fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, n: &dyn Fn(ActorId) -> String) -> String {
    use QuorumEvent::*;
    match *e {
        Committed { ref what, revision } => {
            format!("{me} commits `{}` as zxid {revision}: a majority of the ensemble has it.", crate::msg::proposal_words(what, n))
        }
        LockGranted { client, rev, .. } => format!(
            "{me} lists /lock for {}: its znode (czxid {rev}) is the lowest, so by the recipe {} holds the lock.",
            n(client),
            n(client)
        ),
        LeaseExpired { client } => format!(
            "{me} has heard nothing from {} for its session timeout ({}): it proposes to close the session, which deletes the session's ephemeral znodes.",
            n(client),
            fmt(sc.lock.ttl_ms.to_micros())
        ),
        LockDelayed { client, until_us } => format!(
            "{} held the lock when its session expired: {me} keeps its znode until {}, its lock-delay, and then deletes it, so no waiter's watch fires before then (Chubby's lock-delay; ZooKeeper has no such setting, the model adds it).",
            n(client),
            fmt(until_us)
        ),
        Queued { rev } => format!("{me}'s znode (czxid {rev}) is not the lowest: it watches its predecessor and waits for it to be deleted."),
        Reread { .. } | Unchanged { .. } => crate::service::not_recorded(sc, e, me),
        LeaderElected { leases: 0 } => format!("{me} is the leader."),
        LeaderElected { leases: 1 } => format!("{me} becomes the leader and gives the one session a fresh timeout."),
        LeaderElected { leases } => format!("{me} becomes the leader and gives all {leases} sessions a fresh timeout."),
        SteppedDown { leader } => QuorumEvent::stepped_down(me, &n(leader), "in a newer epoch"),
        NoQuorum { since_us } => format!(
            "No server has reached a majority since {}: there is no leader. Nothing can be created or deleted, and no session can expire.",
            fmt(since_us)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Proposal;

    /// The events the ensemble shares with etcd are said in ZooKeeper's terms, not etcd's; the
    /// two it does not record are said to be not recorded.
    #[test]
    fn the_family_is_worded_in_zookeeper_terms() {
        let sc = crate::library::get("zookeeper-fenced").expect("a ZooKeeper scenario");
        let n = |a: ActorId| ["A", "zk2"][a].to_string();
        let said = |e: QuorumEvent| quorum(&sc, &e, "zk1", &n);
        let stepped = said(QuorumEvent::SteppedDown { leader: 1 });
        assert!(stepped.contains("zk2 elected leader meanwhile, in a newer epoch") && !stepped.contains("term"), "{stepped}");
        let expired = said(QuorumEvent::LeaseExpired { client: 0 });
        assert!(expired.contains(&format!("from A for its session timeout ({})", fmt(sc.lock.ttl_ms.to_micros()))), "{expired}");
        let delete = Proposal::Delete { seq: 3, missing: true };
        for e in [QuorumEvent::Reread { client: 0, rev: 4 }, QuorumEvent::Unchanged { what: delete, revision: 7 }] {
            assert_eq!(said(e.clone()), crate::service::not_recorded(&sc, &e, "zk1"));
        }
    }

    /// Under a lock-delay the ensemble keeps an expired session's znode: a refused delete does
    /// not say the znode had gone with the session.
    #[test]
    fn a_refused_delete_under_a_lock_delay_does_not_say_the_znode_is_gone() {
        let mut sc = crate::library::get("zookeeper-unfenced").expect("in the library");
        let refused = crate::trace::EventKind::Released { removed: false };
        let told = |sc: &crate::Scenario| super::narrate_client(sc, "A", &refused).expect("its words");
        assert!(told(&sc).contains("its znode had gone with it"), "{}", told(&sc));
        sc.lock.lock_delay_ms = Millis::new(20_000);
        assert_eq!(
            told(&sc),
            "A's delete removed nothing: its session had expired, so the ensemble refused it; it keeps an expired session's znode for the lock-delay (20 s), then deletes it."
        );
    }
}
