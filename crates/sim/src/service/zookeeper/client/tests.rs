//! The client side of the recipe as inputs → effects.

use super::*;
use crate::time::{Micros, Millis};

fn cx(local: Micros) -> Cx<'static> {
    Cx { local, mono: local, name: "B", ttl_ms: Millis::new(6_000), token: TokenKind::Counter, next_grant: 0, next_token: None }
}

/// The last request sent, as (req, message).
fn last(out: &[Effect]) -> (u64, Msg) {
    out.iter()
        .rev()
        .find_map(|e| match e {
            Effect::Send(Dest::Leader, Payload::ZooKeeper(m)) => Some((msg_req(m), m.clone())),
            _ => None,
        })
        .expect("a request")
}

fn msg_req(m: &Msg) -> u64 {
    m.req().unwrap_or(0)
}

fn feed(r: &mut Recipe, k: &mut Core, msg: Msg, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = r.on_message(&Payload::ZooKeeper(msg), k, &cx(at), &mut out);
    (o, out)
}

/// Runs the recipe up to its first list of the children; returns the znode's seq.
fn created(r: &mut Recipe, k: &mut Core, seq: u64, zxid: u64) -> Vec<Effect> {
    let mut out = Vec::new();
    r.acquire(Millis::new(1_000), k, &cx(Micros::ZERO), &mut out);
    let (req, msg) = last(&out);
    assert_eq!(msg, Msg::Connect { req, timeout_ms: Millis::new(6_000) });
    let (_, out) = feed(r, k, Msg::Connected { req, session: 7 }, Micros::us(10));
    assert!(out.contains(&Effect::Timer(Micros::us(2_000_000), TimerKind::KeepAlive)), "pings every third of the timeout");
    let (req, msg) = last(&out);
    assert_eq!(msg, Msg::Create { req, session: 7 });
    let (_, out) = feed(r, k, Msg::Created { req, seq, zxid }, Micros::us(20));
    assert!(matches!(last(&out).1, Msg::GetChildren { session: 7, .. }));
    out
}

/// A client whose znode (3, czxid 9) is the only one: it holds the lock.
fn holding() -> (Recipe, Core) {
    let (mut r, mut k) = (Recipe::default(), Core::default());
    let out = created(&mut r, &mut k, 3, 9);
    let (req, _) = last(&out);
    feed(&mut r, &mut k, Msg::Children { req, children: vec![3], grant: Some(0) }, Micros::us(30));
    (r, k)
}

#[test]
fn the_lowest_znode_holds_the_lock_with_its_czxid_as_token() {
    let (mut r, mut k) = (Recipe::default(), Core::default());
    let out = created(&mut r, &mut k, 3, 9);
    let (req, _) = last(&out);
    let (o, out) = feed(&mut r, &mut k, Msg::Children { req, children: vec![3, 5], grant: Some(2) }, Micros::us(30));
    assert_eq!(o, Some(Outcome::Acquired));
    // The session is counted from the send of the last request the ensemble answered (the
    // list, sent at 20 µs), on the client's clock: conservative.
    assert_eq!(out, vec![Effect::Event(EventKind::Acquired { token: Some(9), until_local_us: Micros::us(6_000_020), grant: 2 })]);
}

#[test]
fn a_later_znode_watches_its_predecessor_and_lists_again_when_it_goes() {
    let (mut r, mut k) = (Recipe::default(), Core::default());
    let out = created(&mut r, &mut k, 5, 11);
    let (req, _) = last(&out);
    let (_, out) = feed(&mut r, &mut k, Msg::Children { req, children: vec![1, 3, 5], grant: None }, Micros::us(30));
    let (req, msg) = last(&out);
    assert_eq!(msg, Msg::Exists { req, session: 7, seq: 3 }, "the znode just below its own");
    let (_, out) = feed(&mut r, &mut k, Msg::ExistsReply { req, exists: true }, Micros::us(40));
    assert_eq!(out, vec![Effect::Event(EventKind::Quorum(QuorumEvent::Queued { rev: 11 }))]);
    assert_eq!(k.wait, Wait::Queued);
    let (_, out) = feed(&mut r, &mut k, Msg::Deleted { seq: 3 }, Micros::us(50));
    assert!(matches!(last(&out).1, Msg::GetChildren { .. }));
}

#[test]
fn a_session_that_expires_before_the_lock_loses_it_and_a_late_one_is_only_noted() {
    let (mut r, mut k) = (Recipe::default(), Core::default());
    let out = created(&mut r, &mut k, 5, 11);
    let (req, _) = last(&out);
    let (o, _) = feed(&mut r, &mut k, Msg::SessionExpired { req }, Micros::us(30));
    assert_eq!(o, Some(Outcome::Lost(crate::trace::Why::ExpiredBeforeLock)));
    // An answer to a ping (not awaited) only ends the session: the program goes on, and the
    // trace says it was told and did not check (once).
    let (mut r, mut k) = (Recipe::default(), Core::default());
    created(&mut r, &mut k, 5, 11);
    let (o, out) = feed(&mut r, &mut k, Msg::SessionExpired { req: 999 }, Micros::us(30));
    assert_eq!((o, out), (Some(Outcome::Waiting), vec![Effect::Event(EventKind::NoticeIgnored { holding: false })]));
    let (o, out) = feed(&mut r, &mut k, Msg::SessionExpired { req: 998 }, Micros::us(31));
    assert_eq!((o, out), (Some(Outcome::Waiting), vec![]));
    // A release still asks, and learns the znode went with the session.
    let mut out = Vec::new();
    assert!(r.release(&mut k, &cx(Micros::us(40)), &mut out));
    let (req, _) = last(&out);
    let (o, out) = feed(&mut r, &mut k, Msg::SessionExpired { req }, Micros::us(50));
    assert_eq!(o, Some(Outcome::Released));
    assert_eq!(out, vec![Effect::Event(EventKind::Released { removed: false })]);
    // The next attempt opens a new session.
    let mut out = Vec::new();
    r.acquire(Millis::new(1_000), &mut k, &cx(Micros::us(60)), &mut out);
    assert!(matches!(last(&out).1, Msg::Connect { .. }));
}

#[test]
fn a_pong_renews_from_the_ping_it_answers() {
    let (mut r, mut k) = holding();
    let mut first = Vec::new();
    r.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(2_000_000)), &mut first);
    let mut second = Vec::new();
    r.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(4_000_000)), &mut second);
    // The first ping's answer arrives late, after the second was sent: it renews from 2 s.
    let (_, out) = feed(&mut r, &mut k, Msg::Pong { req: last(&first).0 }, Micros::us(4_500_000));
    assert_eq!(out, vec![Effect::Event(EventKind::Renewed { until_local_us: Micros::us(8_000_000) })]);
    let (_, out) = feed(&mut r, &mut k, Msg::Pong { req: last(&second).0 }, Micros::us(4_600_000));
    assert_eq!(out, vec![Effect::Event(EventKind::Renewed { until_local_us: Micros::us(10_000_000) })]);
}

#[test]
fn a_program_that_ends_closes_its_session_and_pings_no_more() {
    let (mut r, mut k) = holding();
    let mut out = Vec::new();
    r.close(&mut k, &mut out);
    assert!(matches!(last(&out).1, Msg::Close { session: 7, .. }), "{out:?}");
    let mut out = Vec::new();
    assert_eq!(r.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(2_000_000)), &mut out), Some(Outcome::Waiting));
    assert!(out.is_empty(), "no session, no ping: {out:?}");
    // A session the ensemble said had expired is not closed again.
    let (mut r, mut k) = (Recipe::default(), Core::default());
    created(&mut r, &mut k, 3, 9);
    feed(&mut r, &mut k, Msg::SessionExpired { req: 999 }, Micros::us(30));
    let mut out = Vec::new();
    r.close(&mut k, &mut out);
    assert!(out.is_empty(), "{out:?}");
}
