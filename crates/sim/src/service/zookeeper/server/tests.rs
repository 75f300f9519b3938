//! The ensemble as inputs → effects.

use super::*;
use crate::actor::testing::{events, records, sends, FakeEnv};
use crate::time::{Micros, Millis};
use crate::actor::ServerFault;
use crate::trace::KeyEnd;

// Actors: 0 = A, 1 = B, 2..=4 = zk1..zk3.
const A: ActorId = 0;
const B: ActorId = 1;
const ZK1: ActorId = 2;
const ZK2: ActorId = 3;
const ZK3: ActorId = 4;

fn env() -> FakeEnv {
    FakeEnv::new(&["A", "B", "zk1", "zk2", "zk3"])
}

fn elected(e: &FakeEnv) -> Ensemble {
    let mut z = Ensemble::new(vec![ZK1, ZK2, ZK3], Settings { election_timeout_ms: Millis::new(1_000), tokens: true, lock_delay_ms: Millis::new(0) });
    let mut out = Vec::new();
    z.on_timer(0, Timer::Election, e, &mut out);
    assert_eq!(events(&out), vec![(ZK1, EventKind::Quorum(QuorumEvent::LeaderElected { leases: 0 }))]);
    z
}

/// Sends a request to the leader and delivers its proposal to the followers and their acks back.
fn ask(z: &mut Ensemble, from: ActorId, msg: Msg, e: &FakeEnv) -> Fx {
    let mut all = Vec::new();
    z.on_message(ZK1, from, Payload::ZooKeeper(msg), e, &mut all);
    let appends: Vec<_> = sends(&all).into_iter().filter(|s| matches!(s.2, Payload::Append { .. })).collect();
    for (_, to, p) in appends {
        let mut acks = Vec::new();
        z.on_message(to, ZK1, p, e, &mut acks);
        for (_, _, ack) in sends(&acks) {
            z.on_message(ZK1, to, ack, e, &mut all);
        }
    }
    all
}

/// The reply to `to` among the effects.
fn reply(out: &Fx, to: ActorId) -> Msg {
    sends(out)
        .into_iter()
        .find_map(|(_, t, p)| match p {
            Payload::ZooKeeper(m) if t == to => Some(m),
            _ => None,
        })
        .expect("a reply")
}

/// Opens a session and creates a znode for `c`; returns (session, seq).
fn join(z: &mut Ensemble, c: ActorId, e: &FakeEnv) -> (u64, u64) {
    let Msg::Connected { session, .. } = reply(&ask(z, c, Msg::Connect { req: 1, timeout_ms: Millis::new(6_000) }, e), c) else { panic!() };
    let Msg::Created { seq, .. } = reply(&ask(z, c, Msg::Create { req: 2, session }, e), c) else { panic!() };
    (session, seq)
}

#[test]
fn each_change_commits_on_a_majority_with_the_next_zxid() {
    let e = env();
    let mut z = elected(&e);
    let out = ask(&mut z, A, Msg::Connect { req: 1, timeout_ms: Millis::new(6_000) }, &e);
    assert!(matches!(&events(&out)[0].1, EventKind::Quorum(QuorumEvent::Committed { revision: 1, .. })));
    assert_eq!(reply(&out, A), Msg::Connected { req: 1, session: 1 });
    let out = ask(&mut z, A, Msg::Create { req: 2, session: 1 }, &e);
    assert_eq!(reply(&out, A), Msg::Created { req: 2, seq: 0, zxid: 2 });
    assert_eq!(records(&out), vec![Record::KeyOpen { handle: 0, node: ZK1, owner: Some(A) }]);
}

#[test]
fn the_lowest_znode_holds_the_lock_and_the_next_one_watches_it() {
    let mut e = env();
    let mut z = elected(&e);
    let (sa, _) = join(&mut z, A, &e);
    let out = ask(&mut z, A, Msg::GetChildren { req: 3, session: sa }, &e);
    assert_eq!(events(&out), vec![(ZK1, EventKind::Quorum(QuorumEvent::LockGranted { client: A, rev: 2, key_exists: true }))]);
    assert_eq!(reply(&out, A), Msg::Children { req: 3, children: vec![0], grant: Some(0) });
    e.grants = 1;
    let (sb, seq_b) = join(&mut z, B, &e);
    let out = ask(&mut z, B, Msg::GetChildren { req: 3, session: sb }, &e);
    assert!(events(&out).is_empty(), "B is not the lowest: no grant");
    assert_eq!(reply(&out, B), Msg::Children { req: 3, children: vec![0, seq_b], grant: None });
    let out = ask(&mut z, B, Msg::Exists { req: 4, session: sb, seq: 0 }, &e);
    assert_eq!(reply(&out, B), Msg::ExistsReply { req: 4, exists: true });
    // A deletes its znode: B's watch fires.
    let out = ask(&mut z, A, Msg::Delete { req: 5, session: sa, seq: 0 }, &e);
    assert!(records(&out).contains(&Record::GrantReleased { grant: 0 }));
    assert_eq!(reply(&out, B), Msg::Deleted { seq: 0 });
    assert_eq!(reply(&out, A), Msg::DeleteOk { req: 5 });
}

/// The last session check armed for `session` among the effects: (when, timer).
fn check_of(out: &Fx, session: u64) -> (Micros, Timer) {
    out.iter()
        .rev()
        .find_map(|x| match x {
            Effect::Timer { at, timer: t @ Timer::SessionCheck { session: s, .. }, .. } if *s == session => Some((*at, t.clone())),
            _ => None,
        })
        .expect("a session check")
}

/// Fires `client`'s session check, which finds the session silent: the closeSession commits
/// once a follower acks it. The effects of the commit.
fn expire(z: &mut Ensemble, check: Timer, client: ActorId, e: &FakeEnv) -> Fx {
    let mut out = Vec::new();
    z.on_timer(0, check, e, &mut out);
    assert_eq!(events(&out)[0], (ZK1, EventKind::Quorum(QuorumEvent::LeaseExpired { client })));
    acked(z, &out, e)
}

/// The first proposal among `out`, acked by a follower: the effects of its commit.
fn acked(z: &mut Ensemble, out: &Fx, e: &FakeEnv) -> Fx {
    let Some((_, to, Payload::Append { id, .. })) = sends(out).into_iter().next() else { panic!("{out:?}") };
    let mut all = Vec::new();
    z.on_message(ZK1, to, Payload::AppendAck { id }, e, &mut all);
    all
}

#[test]
fn a_silent_session_expires_on_the_leader_and_takes_its_znode_with_it() {
    let mut e = env();
    let mut z = elected(&e);
    let (sa, _) = join(&mut z, A, &e);
    let out = ask(&mut z, A, Msg::GetChildren { req: 3, session: sa }, &e);
    let (at, check) = check_of(&out, sa);
    assert_eq!(at, Micros::us(6_000_000), "A was last heard at 0: its session expires 6 s later");
    let (sb, _) = join(&mut z, B, &e);
    ask(&mut z, B, Msg::Exists { req: 4, session: sb, seq: 0 }, &e);
    e.now = Micros::us(3_000_000);
    let out = ask(&mut z, B, Msg::Ping { req: 5, session: sb }, &e);
    assert_eq!(reply(&out, B), Msg::Pong { req: 5 });
    assert_eq!(check_of(&out, sb).0, Micros::us(9_000_000), "a ping moves B's expiry");
    e.now = at;
    let all = expire(&mut z, check, A, &e);
    assert!(records(&all).contains(&Record::KeyClose { handle: 0, end: KeyEnd::Expired }), "{all:?}");
    assert!(records(&all).contains(&Record::GrantEnded { grant: 0 }));
    assert_eq!(reply(&all, B), Msg::Deleted { seq: 0 });
    // Every later request on A's session fails.
    let out = ask(&mut z, A, Msg::Ping { req: 9, session: sa }, &e);
    assert_eq!(reply(&out, A), Msg::SessionExpired { req: 9 });
}

#[test]
fn followers_do_not_answer_clients_and_no_majority_means_no_leader() {
    let mut e = env();
    let mut z = elected(&e);
    let mut out = Vec::new();
    z.on_message(ZK2, A, Payload::ZooKeeper(Msg::Connect { req: 1, timeout_ms: Millis::new(6_000) }), &e, &mut out);
    assert!(out.is_empty());
    e.down = vec![ZK1, ZK2];
    let mut out = Vec::new();
    z.on_timer(0, Timer::Election, &e, &mut out);
    assert_eq!(events(&out), vec![(ZK1, EventKind::Quorum(QuorumEvent::NoQuorum { since_us: Micros::ZERO }))]);
    assert_eq!(z.contact(), Some(ZK1), "with no leader clients still try the first server");
}

#[test]
fn a_repeated_create_finds_the_sessions_znode() {
    let e = env();
    let mut z = elected(&e);
    let (sa, seq) = join(&mut z, A, &e);
    // The reply to the first create was lost; the client asks again.
    let out = ask(&mut z, A, Msg::Create { req: 7, session: sa }, &e);
    assert_eq!(reply(&out, A), Msg::Created { req: 7, seq, zxid: 2 });
    assert!(events(&out).is_empty(), "no second znode, no transaction: {out:?}");
}

#[test]
fn a_leader_back_within_the_election_timeout_checks_sessions_again() {
    let mut e = env();
    let mut z = elected(&e);
    let (sa, _) = join(&mut z, A, &e);
    let out = ask(&mut z, A, Msg::GetChildren { req: 3, session: sa }, &e);
    let (at, check) = check_of(&out, sa);
    // The leader is down when the check falls due: nothing expires.
    e.now = at;
    e.down = vec![ZK1];
    let mut out = Vec::new();
    z.on_timer(0, check, &e, &mut out);
    assert!(out.is_empty());
    // It restarts and still leads after the election timeout: every session is checked again.
    e.down = vec![];
    e.now = at + Micros::us(1_000_000);
    let mut out = Vec::new();
    z.on_timer(0, Timer::Election, &e, &mut out);
    let (when, check) = check_of(&out, sa);
    assert_eq!(when, e.now, "A's session is overdue: checked at once");
    let mut out = Vec::new();
    z.on_timer(0, check, &e, &mut out);
    assert_eq!(events(&out)[0], (ZK1, EventKind::Quorum(QuorumEvent::LeaseExpired { client: A })));
}

#[test]
fn a_delete_of_a_missing_znode_is_an_error_transaction_with_the_next_zxid() {
    // As a real ZooKeeper 3.8 answers it (zookeeper_conformance.rs): NoNode, and the reply
    // carries a zxid one past the last.
    let e = env();
    let mut z = elected(&e);
    let (sa, seq) = join(&mut z, A, &e);
    let out = ask(&mut z, A, Msg::Delete { req: 3, session: sa, seq: seq + 7 }, &e);
    assert_eq!(reply(&out, A), Msg::NoNode { req: 3 });
    let committed = events(&out);
    assert!(
        matches!(&committed[..], [(ZK1, EventKind::Quorum(QuorumEvent::Committed { revision: 3, what: crate::trace::Proposal::Delete { missing: true, .. } }))]),
        "{committed:?}"
    );
    assert!(records(&out).is_empty(), "nothing is deleted: {out:?}");
    // The next transaction takes the zxid after it.
    let out = ask(&mut z, B, Msg::Connect { req: 1, timeout_ms: Millis::new(6_000) }, &e);
    assert!(matches!(&events(&out)[0].1, EventKind::Quorum(QuorumEvent::Committed { revision: 4, .. })), "{out:?}");
}

#[test]
fn a_closed_session_takes_one_zxid_and_its_ephemeral_znode_and_fires_the_watch() {
    let e = env();
    let mut z = elected(&e);
    let (sa, seq) = join(&mut z, A, &e);
    let (sb, _) = join(&mut z, B, &e);
    ask(&mut z, B, Msg::Exists { req: 3, session: sb, seq }, &e);
    ask(&mut z, A, Msg::Exists { req: 3, session: sa, seq }, &e);
    let out = ask(&mut z, A, Msg::Close { req: 4, session: sa }, &e);
    assert_eq!(events(&out), vec![(ZK1, EventKind::Quorum(QuorumEvent::Committed { what: crate::trace::Proposal::CloseSession { session: sa }, revision: 5 }))]);
    // The client's own close gives the znode back, as a delete would (an expiry ends it).
    assert!(records(&out).contains(&Record::KeyClose { handle: seq, end: KeyEnd::Deleted }), "{out:?}");
    assert_eq!(reply(&out, B), Msg::Deleted { seq });
    // A real server notifies the closing session of its own znode's deletion, then answers.
    let to_a: Vec<Payload> = sends(&out).into_iter().filter(|s| s.1 == A).map(|s| s.2).collect();
    assert_eq!(to_a, vec![Payload::ZooKeeper(Msg::Deleted { seq }), Payload::ZooKeeper(Msg::Closed { req: 4 })]);
    let out = ask(&mut z, A, Msg::Ping { req: 5, session: sa }, &e);
    assert_eq!(reply(&out, A), Msg::SessionExpired { req: 5 });
}

#[test]
fn an_expired_sessions_watch_fires_no_more() {
    // A real server closes an expired session's connection: a later delete of the znode it
    // watched notifies no one (zookeeper_conformance.rs found the model still did).
    let mut e = env();
    let mut z = elected(&e);
    let (sa, seq_a) = join(&mut z, A, &e);
    let Msg::Connected { session: sb, .. } = reply(&ask(&mut z, B, Msg::Connect { req: 1, timeout_ms: Millis::new(3_000) }, &e), B) else { panic!() };
    let (at, check) = check_of(&ask(&mut z, B, Msg::Exists { req: 2, session: sb, seq: seq_a }, &e), sb);
    e.now = at;
    ask(&mut z, A, Msg::Ping { req: 3, session: sa }, &e);
    expire(&mut z, check, B, &e);
    let out = ask(&mut z, A, Msg::Delete { req: 4, session: sa, seq: seq_a }, &e);
    assert_eq!(reply(&out, A), Msg::DeleteOk { req: 4 });
    assert!(sends(&out).iter().all(|(_, to, _)| *to != B), "B's session has expired: no notification: {out:?}");
}

/// The lock-delay's end armed among the effects: (when, timer).
fn delay_end(out: &Fx) -> (Micros, Timer) {
    out.iter()
        .find_map(|x| match x {
            Effect::Timer { at, timer: t @ Timer::LockDelay { .. }, .. } => Some((*at, t.clone())),
            _ => None,
        })
        .expect("the lock-delay's end")
}

/// Chubby's lock-delay applied to the recipe (server/delay.rs, SEMANTICS §5.4): the expired
/// holder's znode is kept until the delay has passed on the leader's clock, so the next
/// waiter's watch fires only then; a holder's own close is a release, and is not delayed.
#[test]
fn an_expired_holders_znode_is_kept_for_the_lock_delay_and_a_close_is_not() {
    let mut e = env();
    let mut z = elected(&e);
    z.cfg.lock_delay_ms = Millis::new(5_000);
    let (sa, seq_a) = join(&mut z, A, &e);
    let (at, check) = check_of(&ask(&mut z, A, Msg::GetChildren { req: 3, session: sa }, &e), sa);
    e.grants = 1;
    let (sb, seq_b) = join(&mut z, B, &e);
    ask(&mut z, B, Msg::Exists { req: 4, session: sb, seq: seq_a }, &e);
    e.now = at;
    ask(&mut z, B, Msg::Ping { req: 5, session: sb }, &e);
    let all = expire(&mut z, check, A, &e);
    assert!(events(&all).contains(&(ZK1, EventKind::Quorum(QuorumEvent::LockDelayed { client: A, until_us: Micros::us(11_000_000) }))), "{all:?}");
    assert_eq!(records(&all), vec![Record::GrantEnded { grant: 0 }], "A's grant ends; its znode stays");
    assert!(sends(&all).iter().all(|(_, to, _)| *to != B), "B's watch does not fire yet: {all:?}");
    // B lists /lock during the delay: A's znode is still the lowest.
    let out = ask(&mut z, B, Msg::GetChildren { req: 6, session: sb }, &e);
    assert_eq!(reply(&out, B), Msg::Children { req: 6, children: vec![seq_a, seq_b], grant: None });
    let (end, timer) = delay_end(&all);
    assert_eq!(end, Micros::us(11_000_000));
    // A's session has gone: it cannot delete the znode kept for it.
    let out = ask(&mut z, A, Msg::Delete { req: 7, session: sa, seq: seq_a }, &e);
    assert_eq!(reply(&out, A), Msg::SessionExpired { req: 7 });
    e.now = end;
    let mut out = Vec::new();
    z.on_timer(0, timer, &e, &mut out);
    let all = acked(&mut z, &out, &e);
    let delete = crate::trace::Proposal::Delete { seq: seq_a, missing: false };
    assert_eq!(events(&all), vec![(ZK1, EventKind::Quorum(QuorumEvent::Committed { what: delete, revision: 6 }))]);
    assert_eq!(records(&all), vec![Record::KeyClose { handle: seq_a, end: KeyEnd::Expired }]);
    assert_eq!(reply(&all, B), Msg::Deleted { seq: seq_a });
    let out = ask(&mut z, B, Msg::GetChildren { req: 8, session: sb }, &e);
    assert_eq!(reply(&out, B), Msg::Children { req: 8, children: vec![seq_b], grant: Some(1) });
    let out = ask(&mut z, B, Msg::Close { req: 9, session: sb }, &e);
    assert!(records(&out).contains(&Record::GrantReleased { grant: 1 }), "{out:?}");
    assert!(!events(&out).iter().any(|x| matches!(x.1, EventKind::Quorum(QuorumEvent::LockDelayed { .. }))), "a release is not delayed");
}

/// Only the holder's loss is delayed: a waiter whose session expires takes its znode with it.
/// And a new leader cannot read the old one's clock: it starts the delay again, whole.
#[test]
fn a_waiters_expiry_is_not_delayed_and_a_new_leader_starts_the_delay_again() {
    let mut e = env();
    let mut z = elected(&e);
    z.cfg.lock_delay_ms = Millis::new(5_000);
    let (sa, seq_a) = join(&mut z, A, &e);
    let (sb, seq_b) = join(&mut z, B, &e);
    let (at, check_b) = check_of(&ask(&mut z, B, Msg::Exists { req: 3, session: sb, seq: seq_a }, &e), sb);
    let (_, check_a) = check_of(&ask(&mut z, A, Msg::GetChildren { req: 4, session: sa }, &e), sa);
    e.now = at;
    let all = expire(&mut z, check_b, B, &e);
    assert!(records(&all).contains(&Record::KeyClose { handle: seq_b, end: KeyEnd::Expired }), "{all:?}");
    assert!(!events(&all).iter().any(|x| matches!(x.1, EventKind::Quorum(QuorumEvent::LockDelayed { .. }))), "B held nothing");
    let all = expire(&mut z, check_a, A, &e);
    assert!(events(&all).contains(&(ZK1, EventKind::Quorum(QuorumEvent::LockDelayed { client: A, until_us: Micros::us(11_000_000) }))), "{all:?}");
    // zk1 fails at 8 s; zk2 leads after the election timeout and holds A's znode back 5 s more.
    e.now = Micros::us(8_000_000);
    e.down = vec![ZK1];
    let mut out = Vec::new();
    z.on_fault(ServerFault::Crashed(ZK1), &e, &mut out);
    e.now = Micros::us(9_000_000);
    let mut out = Vec::new();
    z.on_timer(0, Timer::Election, &e, &mut out);
    assert_eq!(events(&out), vec![(ZK2, EventKind::Quorum(QuorumEvent::LeaderElected { leases: 0 }))]);
    let (end, timer) = delay_end(&out);
    assert_eq!(end, Micros::us(14_000_000), "the delay starts again on zk2, whole");
    e.now = end;
    let mut out = Vec::new();
    z.on_timer(0, timer, &e, &mut out);
    let appended = sends(&out).into_iter().any(|(from, _, p)| from == ZK2 && matches!(p, Payload::Append { .. }));
    assert!(appended, "zk2 proposes to delete A's znode: {out:?}");
}
