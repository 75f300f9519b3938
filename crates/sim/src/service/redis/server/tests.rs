//! The Redis servers as inputs → effects.

use super::*;
use crate::actor::testing::{events, records, sends, FakeEnv};
use crate::service::redis::RedisReply;
use crate::time::{Micros, Millis};

// Actors: 0 = A, 1 = B, 2 = redis, 3 = replica.
const A: ActorId = 0;
const B: ActorId = 1;
const REDIS: ActorId = 2;
const REPLICA: ActorId = 3;

fn env() -> FakeEnv {
    FakeEnv::new(&["A", "B", "redis", "replica"])
}

fn acquire(owner: u64) -> Payload {
    Payload::Redis { req: 1, cmd: RedisCmd::Acquire { owner, ttl_ms: Millis::new(10_000), incr: false } }
}

fn timers(out: &Fx) -> Vec<(ActorId, Micros, Timer, Gate)> {
    out.iter()
        .filter_map(|e| match e {
            Effect::Timer { actor, at, timer, gate } => Some((*actor, *at, timer.clone(), *gate)),
            _ => None,
        })
        .collect()
}

#[test]
fn set_nx_grants_the_lock_and_arms_the_expiry() {
    let mut s = Servers::primary(REDIS, None, None, Millis::new(10_000), false);
    let (mut e, mut out) = (env(), Vec::new());
    e.now = Micros::us(1_000);
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut out);
    assert_eq!(events(&out), vec![(REDIS, EventKind::KeySet { owner: A, token: None })]);
    let recs = records(&out);
    assert!(matches!(&recs[0], Record::Grant(g) if g.client == A && g.node == REDIS && g.term_end_us == Micros::us(10_001_000)));
    assert_eq!(recs[1], Record::KeyOpen { handle: REDIS as u64, node: REDIS, owner: Some(A) });
    assert_eq!(timers(&out), vec![(REDIS, Micros::us(10_001_000), Timer::Expiry { gen: 1 }, Gate::Process)]);
    assert_eq!(sends(&out), vec![(REDIS, A, Payload::RedisReply { req: 1, reply: RedisReply::Ok { token: None, grant: 0, incr: false } })]);
}

#[test]
fn a_held_key_refuses_the_next_client_until_it_expires() {
    let mut s = Servers::primary(REDIS, None, None, Millis::new(10_000), false);
    let mut e = env();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut Vec::new());
    let mut out = Vec::new();
    s.on_message(REDIS, B, acquire(0xb1), &e, &mut out);
    assert_eq!(events(&out), vec![(REDIS, EventKind::KeyBusy { holder: Some(A) })]);
    assert_eq!(sends(&out)[0].2, Payload::RedisReply { req: 1, reply: RedisReply::Nil });
    // The expiry timer fires: the key is gone, its span ends as expired.
    e.now = Micros::us(10_000_000);
    let mut out = Vec::new();
    s.on_timer(REDIS, Timer::Expiry { gen: 1 }, &e, &mut out);
    assert_eq!(events(&out), vec![(REDIS, EventKind::KeyExpired { owner: Some(A) })]);
    assert_eq!(records(&out), vec![Record::KeyClose { handle: REDIS as u64, end: KeyEnd::Expired }]);
    let mut out = Vec::new();
    s.on_message(REDIS, B, acquire(0xb1), &e, &mut out);
    assert_eq!(events(&out)[0].1, EventKind::KeySet { owner: B, token: None });
}

#[test]
fn a_stale_expiry_timer_does_nothing() {
    let mut s = Servers::primary(REDIS, None, None, Millis::new(10_000), false);
    let mut e = env();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut Vec::new());
    e.now = Micros::us(5_000_000);
    let renew = Payload::Redis { req: 2, cmd: RedisCmd::Renew { owner: 0xa1, ttl_ms: Millis::new(10_000), compare: true } };
    let mut out = Vec::new();
    s.on_message(REDIS, A, renew, &e, &mut out);
    assert_eq!(timers(&out), vec![(REDIS, Micros::us(15_000_000), Timer::Expiry { gen: 2 }, Gate::Process)]);
    assert!(matches!(records(&out)[0], Record::GrantTerm { grant: 0, until_us } if until_us == Micros::us(15_000_000)));
    e.now = Micros::us(10_000_000);
    let mut out = Vec::new();
    s.on_timer(REDIS, Timer::Expiry { gen: 1 }, &e, &mut out);
    assert!(out.is_empty(), "the renewed key must not expire at its old time: {out:?}");
}

#[test]
fn the_primary_ships_writes_to_the_replica_after_the_lag() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(500))), None, Millis::new(10_000), false);
    let e = env();
    let mut out = Vec::new();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut out);
    let ship = timers(&out).into_iter().find(|t| matches!(t.2, Timer::Ship { .. })).expect("shipped");
    assert_eq!((ship.0, ship.1, ship.3), (REDIS, Micros::us(500_000), Gate::Process));
    let mut out = Vec::new();
    s.on_timer(REDIS, ship.2, &e, &mut out);
    let (from, to, payload) = sends(&out).remove(0);
    assert_eq!((from, to), (REDIS, REPLICA));
    let mut out = Vec::new();
    s.on_message(REPLICA, REDIS, payload, &e, &mut out);
    assert!(matches!(events(&out)[0].1, EventKind::Replicated { .. }));
    assert_eq!(records(&out), vec![Record::KeyOpen { handle: REPLICA as u64, node: REPLICA, owner: Some(A) }]);
    // A replica does not expire keys itself.
    assert!(timers(&out).is_empty());
}

#[test]
fn a_crash_without_persistence_loses_the_key_and_failover_promotes_the_replica() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(500))), None, Millis::new(10_000), false);
    let e = env();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut Vec::new());
    let mut out = Vec::new();
    s.on_fault(ServerFault::Failover, &e, &mut out);
    assert_eq!(out[0], Effect::Crash(REDIS));
    assert_eq!(events(&out), vec![(REPLICA, EventKind::Promoted)]);
    assert_eq!(s.primary_now(), Some(REPLICA));
    let mut out = Vec::new();
    s.on_fault(ServerFault::Crashed(REDIS), &e, &mut out);
    assert_eq!(records(&out), vec![Record::KeyClose { handle: REDIS as u64, end: KeyEnd::Lost }]);
    assert!(s.node(REDIS).is_some_and(|n| n.keys.is_empty()));
    // The promoted replica never got the key: B takes the lock.
    let mut out = Vec::new();
    s.on_message(REPLICA, B, acquire(0xb1), &e, &mut out);
    assert_eq!(events(&out)[0].1, EventKind::KeySet { owner: B, token: None });
}

#[test]
fn with_sentinel_the_old_primary_answers_its_side_until_it_is_demoted_and_discards_its_data() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(500))), None, Millis::new(10_000), false).with_sentinel(true);
    let mut e = env();
    // {redis, A} | {replica, B}: A's key never reaches the replica.
    e.cuts = vec![(REDIS, REPLICA), (REDIS, B), (A, REPLICA)];
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut Vec::new());
    let mut out = Vec::new();
    s.on_fault(ServerFault::Failover, &e, &mut out);
    assert!(!out.contains(&Effect::Crash(REDIS)), "Sentinel does not stop the old primary: {out:?}");
    assert_eq!(events(&out), vec![(REPLICA, EventKind::Promoted)]);
    assert_eq!(s.primary_for(A, &|a, b| e.cut(a, b)), Some(REDIS), "A reaches only the old primary");
    assert_eq!(s.primary_for(B, &|a, b| e.cut(a, b)), Some(REPLICA));
    // The old primary still answers A; B locks on the new primary, which never got A's key.
    let mut out = Vec::new();
    s.on_message(REDIS, A, Payload::Redis { req: 2, cmd: RedisCmd::Renew { owner: 0xa1, ttl_ms: Millis::new(10_000), compare: true } }, &e, &mut out);
    assert_eq!(events(&out), vec![(REDIS, EventKind::KeyExtended { owner: Some(A), by: A, foreign: false })]);
    let mut out = Vec::new();
    s.on_message(REPLICA, B, acquire(0xb1), &e, &mut out);
    assert_eq!(events(&out)[0].1, EventKind::KeySet { owner: B, token: None });
    // The partition heals: the old primary becomes a replica of the new one, and A's key is gone.
    e.cuts.clear();
    let mut out = Vec::new();
    s.on_fault(ServerFault::Network, &e, &mut out);
    assert_eq!(events(&out), vec![(REDIS, EventKind::Demoted { to: REPLICA, discarded: Some(A), at_once: false })]);
    assert_eq!(s.node(REDIS).and_then(|n| n.keys.get(LOCK_KEY)).and_then(|k| k.owner), Some(B), "a full resync");
    assert_eq!(s.primary_for(A, &|a, b| e.cut(a, b)), Some(REPLICA));
    // The new primary now ships its writes to the old one.
    let mut out = Vec::new();
    s.on_message(REPLICA, B, Payload::Redis { req: 3, cmd: RedisCmd::Release { owner: 0xb1, compare: true } }, &e, &mut out);
    assert!(timers(&out).iter().any(|t| t.0 == REPLICA && matches!(t.2, Timer::Ship(_))), "{out:?}");
}

#[test]
fn without_a_partition_a_sentinel_failover_demotes_the_old_primary_at_once() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(500))), None, Millis::new(10_000), false).with_sentinel(true);
    let e = env();
    let mut out = Vec::new();
    s.on_fault(ServerFault::Failover, &e, &mut out);
    assert_eq!(events(&out), vec![(REPLICA, EventKind::Promoted), (REDIS, EventKind::Demoted { to: REPLICA, discarded: None, at_once: true })]);
    assert_eq!(s.primary_for(A, &|a, b| e.cut(a, b)), Some(REPLICA));
}

#[test]
fn a_demoted_primary_refuses_a_command_that_was_on_its_way_with_readonly() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(500))), None, Millis::new(10_000), false).with_sentinel(true);
    let e = env();
    s.on_fault(ServerFault::Failover, &e, &mut Vec::new());
    // A's acquire left for redis before the failover, and arrives after its demotion.
    let mut out = Vec::new();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut out);
    let refused = Event::ReadOnly { client: A, primary: Some(REPLICA), op: Op::Acquire };
    assert_eq!(events(&out), vec![(REDIS, refused.into())]);
    assert!(records(&out).is_empty(), "no grant, no key: {out:?}");
    assert_eq!(sends(&out), vec![(REDIS, A, Payload::RedisReply { req: 1, reply: RedisReply::ReadOnly })]);
    // A compare-and-delete that does not reach its write is answered as a primary would.
    let mut out = Vec::new();
    s.on_message(REDIS, A, Payload::Redis { req: 2, cmd: RedisCmd::Release { owner: 0xa1, compare: true } }, &e, &mut out);
    assert_eq!(sends(&out), vec![(REDIS, A, Payload::RedisReply { req: 2, reply: RedisReply::Int(-1) })]);
}

#[test]
fn a_replica_that_missed_writes_in_a_partition_catches_up_when_it_heals() {
    let mut s = Servers::primary(REDIS, Some((REPLICA, Millis::new(200))), None, Millis::new(10_000), false);
    let mut e = env();
    e.cuts = vec![(REDIS, REPLICA)];
    let mut out = Vec::new();
    s.on_message(REDIS, A, acquire(0xa1), &e, &mut out);
    let ship = timers(&out).into_iter().find(|t| matches!(t.2, Timer::Ship(_))).expect("a write to ship");
    let mut out = Vec::new();
    s.on_timer(REDIS, ship.2, &e, &mut out);
    assert_eq!(sends(&out).len(), 1, "shipped, and lost to the partition: {out:?}");
    // Nothing to catch up while the partition lasts; once it heals, the replica resyncs.
    let mut out = Vec::new();
    s.on_fault(ServerFault::Network, &e, &mut out);
    assert!(out.is_empty(), "{out:?}");
    e.cuts.clear();
    let mut out = Vec::new();
    s.on_fault(ServerFault::Network, &e, &mut out);
    assert_eq!(events(&out), vec![(REPLICA, Event::Resync { primary: REDIS }.into())]);
    assert!(timers(&out).iter().any(|t| matches!(&t.2, Timer::Ship(k) if k.0 == LOCK_KEY && k.1.as_ref().is_some_and(|e| e.owner == Some(A)))), "{out:?}");
    let mut out = Vec::new();
    s.on_fault(ServerFault::Network, &e, &mut out);
    assert!(out.is_empty(), "caught up once: {out:?}");
}

#[test]
fn a_redlock_node_votes_but_grants_nothing() {
    let mut s = Servers::independent(vec![REDIS, REPLICA], Millis::new(10_000), false);
    let mut out = Vec::new();
    s.on_message(REDIS, A, acquire(0xa1), &env(), &mut out);
    assert!(!records(&out).iter().any(|r| matches!(r, Record::Grant(_))), "the client decides: {out:?}");
    assert_eq!(sends(&out)[0].2, Payload::RedisReply { req: 1, reply: RedisReply::Ok { token: None, grant: 0, incr: false } });
}
