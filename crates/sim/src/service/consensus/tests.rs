//! The consensus cluster as inputs → effects.

use super::*;
use crate::actor::testing::{events, records, sends, FakeEnv};
use crate::time::{Micros, Millis};

// Actors: 0 = c1, 1 = c2, 2..=4 = m1..m3.
const C1: ActorId = 0;
const C2: ActorId = 1;
const M1: ActorId = 2;
const M2: ActorId = 3;
const M3: ActorId = 4;

fn cluster() -> Cluster {
    let cfg = Settings {
        ttl_ms: Millis::new(10_000),
        election_timeout_ms: Millis::new(1_000),
        min_ttl_ms: Millis::new(2_000),
        recheck_after_wait: true,
        tokens: true,
        lock_delay_ms: Millis::new(0),
    };
    Cluster::new(vec![M1, M2, M3], cfg)
}

fn env() -> FakeEnv {
    FakeEnv::new(&["c1", "c2", "m1", "m2", "m3"])
}

/// Elects m1 and returns the cluster.
fn elected(e: &FakeEnv) -> Cluster {
    let mut c = cluster();
    let mut out = Vec::new();
    c.on_timer(0, Timer::Election, e, &mut out);
    assert_eq!(events(&out), vec![(M1, EventKind::Quorum(QuorumEvent::LeaderElected { leases: 0 }))]);
    c
}

/// Sends `payload` from `from` to the leader and delivers every append to the followers and
/// their acks back, returning every effect along the way.
fn commit(c: &mut Cluster, from: ActorId, payload: Payload, e: &FakeEnv) -> Fx {
    let mut all = Vec::new();
    c.on_message(M1, from, payload, e, &mut all);
    let appends: Vec<_> = sends(&all).into_iter().filter(|s| matches!(s.2, Payload::Append { .. })).collect();
    for (_, to, p) in appends {
        let mut acks = Vec::new();
        c.on_message(to, M1, p, e, &mut acks);
        for (_, _, ack) in sends(&acks) {
            c.on_message(M1, to, ack, e, &mut all);
        }
    }
    all
}

#[test]
fn the_first_election_happens_at_the_start() {
    let mut out = Vec::new();
    cluster().start(&mut out);
    assert_eq!(out, vec![Effect::Timer { actor: M1, at: Micros::ZERO, timer: Timer::Election, gate: Gate::Always }]);
}

#[test]
fn a_lock_commits_on_a_majority_and_grants_the_lowest_key() {
    let e = env();
    let mut c = elected(&e);
    let mut out = Vec::new();
    c.on_message(M1, C1, Payload::Consensus(Msg::Lock { req: 7, ttl_ms: Millis::new(10_000) }), &e, &mut out);
    // Proposed, not yet committed: the leader alone is not a majority of three.
    assert!(events(&out).is_empty());
    assert_eq!(sends(&out).len(), 2);
    let out = commit(&mut elected(&e), C1, Payload::Consensus(Msg::Lock { req: 7, ttl_ms: Millis::new(10_000) }), &e);
    let ev = events(&out);
    assert!(matches!(&ev[0].1, EventKind::Quorum(QuorumEvent::Committed { revision: 2, .. })));
    assert_eq!(ev[1], (M1, EventKind::Quorum(QuorumEvent::LockGranted { client: C1, rev: 2, key_exists: true })));
    assert!(records(&out).iter().any(|r| matches!(r, Record::Grant(g) if g.client == C1 && g.token == Some(2))));
    assert!(sends(&out).iter().any(|s| s.1 == C1 && matches!(s.2, Payload::Consensus(Msg::Locked { req: 7, rev: 2, grant: 0, .. }))));
}

#[test]
fn a_second_client_waits_for_its_predecessor() {
    let mut e = env();
    let mut c = elected(&e);
    commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    e.grants = 1;
    let out = commit(&mut c, C2, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    assert!(sends(&out).iter().any(|s| s.1 == C2 && matches!(s.2, Payload::Consensus(Msg::Queued { rev: 3, lease: 2, .. }))));
    // c1 unlocks: c2's key is now the lowest.
    let out = commit(&mut c, C1, Payload::Consensus(Msg::Unlock { req: 2, lease: 1 }), &e);
    assert!(events(&out).contains(&(M1, EventKind::Quorum(QuorumEvent::LockGranted { client: C2, rev: 3, key_exists: true }))));
    assert!(records(&out).contains(&Record::GrantReleased { grant: 0 }));
}

#[test]
fn a_lease_that_runs_out_on_the_leader_is_revoked() {
    let mut e = env();
    let mut c = elected(&e);
    let out = commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    let check = out
        .iter()
        .find_map(|x| match x {
            Effect::Timer { at, timer: t @ Timer::LeaseCheck { .. }, .. } => Some((*at, t.clone())),
            _ => None,
        })
        .expect("a lease check is armed");
    assert_eq!(check.0, Micros::us(10_000_000));
    e.now = check.0;
    let out = {
        let mut out = Vec::new();
        c.on_timer(0, check.1, &e, &mut out);
        out
    };
    assert_eq!(events(&out)[0], (M1, EventKind::Quorum(QuorumEvent::LeaseExpired { client: C1 })));
}

#[test]
fn a_keepalive_moves_the_lease_and_an_unknown_lease_is_not_found() {
    let mut e = env();
    let mut c = elected(&e);
    commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    e.now = Micros::us(3_000_000);
    let mut out = Vec::new();
    c.on_message(M1, C1, Payload::Consensus(Msg::KeepAlive { req: 2, lease: 1 }), &e, &mut out);
    assert!(records(&out).contains(&Record::GrantTerm { grant: 0, until_us: Micros::us(13_000_000) }));
    assert!(sends(&out).contains(&(M1, C1, Payload::Consensus(Msg::KeepAliveOk { req: 2 }))));
    let mut out = Vec::new();
    c.on_message(M1, C1, Payload::Consensus(Msg::KeepAlive { req: 3, lease: 9 }), &e, &mut out);
    assert_eq!(sends(&out), vec![(M1, C1, Payload::Consensus(Msg::LeaseNotFound { req: 3 }))]);
}

#[test]
fn without_a_majority_there_is_no_leader_and_followers_ignore_clients() {
    let mut e = env();
    e.down = vec![M2, M3];
    let mut c = cluster();
    let mut out = Vec::new();
    c.on_timer(0, Timer::Election, &e, &mut out);
    assert_eq!(events(&out), vec![(M1, EventKind::Quorum(QuorumEvent::NoQuorum { since_us: Micros::ZERO }))]);
    let mut out = Vec::new();
    c.on_message(M1, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e, &mut out);
    assert!(out.is_empty(), "no leader, no answer: {out:?}");
    // A member fault calls an election after the timeout.
    let mut out = Vec::new();
    c.on_fault(ServerFault::Restarted(M2), &e, &mut out);
    assert_eq!(out, vec![Effect::Timer { actor: M1, at: Micros::us(1_000_000), timer: Timer::Election, gate: Gate::Always }]);
}

#[test]
fn a_paused_leader_is_replaced_and_steps_down_when_it_resumes() {
    let mut e = env();
    let mut c = elected(&e);
    commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    e.now = Micros::us(2_000_000);
    e.paused = vec![(M1, Micros::us(14_000_000))];
    let mut out = Vec::new();
    c.on_fault(ServerFault::Paused(M1), &e, &mut out);
    let election = out.iter().find_map(|x| match x {
        Effect::Timer { at, timer: Timer::Election, .. } => Some(*at),
        _ => None,
    });
    assert_eq!(election, Some(Micros::us(3_000_000)), "the followers wait one election timeout");
    e.now = Micros::us(3_000_000);
    let mut out = Vec::new();
    c.on_timer(0, Timer::Election, &e, &mut out);
    assert_eq!(events(&out)[0], (M2, EventKind::Quorum(QuorumEvent::LeaderElected { leases: 1 })));
    // The lease is refreshed: its full TTL plus the election timeout from the new leader's now.
    assert!(records(&out).contains(&Record::GrantTerm { grant: 0, until_us: Micros::us(14_000_000) }));
    // A lease check armed by the old leader judges nothing.
    e.now = Micros::us(14_000_000);
    e.paused.clear();
    let mut out = Vec::new();
    c.on_fault(ServerFault::Resumed(M1), &e, &mut out);
    assert_eq!(events(&out), vec![(M1, EventKind::Quorum(QuorumEvent::SteppedDown { leader: M2 }))]);
    let mut out = Vec::new();
    c.on_message(M1, C2, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e, &mut out);
    assert!(out.is_empty(), "the old leader answers no client");
}

/// consensus-quorum-loss said "no quorum from 3 s" when m2 and m3 crashed at 2 s: the leader
/// notices after the election timeout, but the majority is gone from the crash that took it.
/// The election timeout counts from that crash too: the timer m2's crash armed finds m1
/// without a majority for half of it, and changes nothing.
#[test]
fn no_quorum_is_dated_from_the_fault_that_took_the_majority_away() {
    let mut e = env();
    let mut c = elected(&e);
    let mut out = Vec::new();
    e.now = Micros::us(2_000_000);
    e.down = vec![M2];
    c.on_fault(ServerFault::Crashed(M2), &e, &mut out);
    e.now = Micros::us(2_500_000);
    e.down = vec![M2, M3];
    c.on_fault(ServerFault::Crashed(M3), &e, &mut out);
    e.now = Micros::us(3_000_000);
    let mut out = Vec::new();
    c.on_timer(0, Timer::Election, &e, &mut out);
    assert!(out.is_empty(), "m1 has been without a majority for 0.5 s: {out:?}");
    assert_eq!(c.leader(), Some(M1));
    e.now = Micros::us(3_500_000);
    c.on_timer(0, Timer::Election, &e, &mut out);
    assert_eq!(events(&out), vec![(M1, EventKind::Quorum(QuorumEvent::NoQuorum { since_us: Micros::us(2_500_000) }))], "m1 and m2 were a majority until m3 went");
}

/// Chubby's lock-delay (SEMANTICS §5.4): a holder whose lease runs out holds the lock back for
/// the delay; a waiter is woken only when it has passed, and a release is no loss.
#[test]
fn a_lost_holder_holds_the_lock_back_for_the_lock_delay_and_a_release_does_not() {
    let mut e = env();
    let mut c = elected(&e);
    c.cfg.lock_delay_ms = Millis::new(5_000);
    commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    e.grants = 1;
    commit(&mut c, C2, Payload::Consensus(Msg::Lock { req: 1, ttl_ms: Millis::new(10_000) }), &e);
    // c2 keeps its lease alive; c1's runs out at 10 s.
    e.now = Micros::us(9_000_000);
    c.on_message(M1, C2, Payload::Consensus(Msg::KeepAlive { req: 2, lease: 2 }), &e, &mut Vec::new());
    e.now = Micros::us(10_000_000);
    let mut out = Vec::new();
    c.on_timer(0, Timer::LeaseCheck { lease: 1, gen: 1 }, &e, &mut out);
    let mut all = Vec::new();
    for (_, to, p) in sends(&out) {
        let mut acks = Vec::new();
        c.on_message(to, M1, p, &e, &mut acks);
        for (_, _, ack) in sends(&acks) {
            c.on_message(M1, to, ack, &e, &mut all);
        }
    }
    let ev = events(&all);
    assert!(ev.contains(&(M1, EventKind::Quorum(QuorumEvent::LockDelayed { client: C1, until_us: Micros::us(15_000_000) }))), "{ev:?}");
    assert!(!ev.iter().any(|x| matches!(x.1, EventKind::Quorum(QuorumEvent::LockGranted { .. }))), "nobody is granted during the delay: {ev:?}");
    let timer = all.iter().find_map(|x| match x {
        Effect::Timer { at, timer: t @ Timer::LockDelay { .. }, .. } => Some((*at, t.clone())),
        _ => None,
    });
    let (at, timer) = timer.expect("the delay's end is armed");
    assert_eq!(at, Micros::us(15_000_000));
    e.now = at;
    let mut out = Vec::new();
    c.on_timer(0, timer, &e, &mut out);
    assert_eq!(events(&out), vec![(M1, EventKind::Quorum(QuorumEvent::LockGranted { client: C2, rev: 3, key_exists: true }))]);
    // c2 releases: no delay, and a new client is granted at once.
    commit(&mut c, C2, Payload::Consensus(Msg::Unlock { req: 3, lease: 2 }), &e);
    e.grants = 2;
    let out = commit(&mut c, C1, Payload::Consensus(Msg::Lock { req: 4, ttl_ms: Millis::new(10_000) }), &e);
    assert!(events(&out).iter().any(|x| matches!(x.1, EventKind::Quorum(QuorumEvent::LockGranted { client: C1, .. }))));
    assert!(!events(&out).iter().any(|x| matches!(x.1, EventKind::Quorum(QuorumEvent::LockDelayed { .. }))));
}
