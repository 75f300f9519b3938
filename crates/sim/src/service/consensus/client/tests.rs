//! The consensus client's session as inputs → effects.

use super::*;
use crate::time::{Micros, Millis};

fn cx(local: Micros) -> Cx<'static> {
    Cx { local, mono: local, name: "client1", ttl_ms: Millis::new(9_000), token: TokenKind::Counter, next_grant: 0, next_token: None }
}

fn feed(s: &mut Session, k: &mut Core, p: Payload, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = s.on_message(&p, k, &cx(at), &mut out);
    (o, out)
}

/// A lock request at 0: its request number.
fn asked(s: &mut Session, k: &mut Core) -> u64 {
    let mut out = Vec::new();
    s.acquire(Millis::new(1_000), k, &cx(Micros::ZERO), &mut out);
    let Some(Effect::Send(_, Payload::Consensus(Msg::Lock { req, .. }))) = out.first().cloned() else { panic!("{out:?}") };
    req
}

#[test]
fn a_queued_client_keeps_its_session_and_holds_the_lock_when_told() {
    let (mut s, mut k) = (Session::default(), Core::default());
    let mut out = Vec::new();
    s.acquire(Millis::new(1_000), &mut k, &cx(Micros::ZERO), &mut out);
    const TTL: Millis = Millis::new(9_000);
    let Some(Effect::Send(Dest::Leader, Payload::Consensus(Msg::Lock { req, ttl_ms: TTL }))) = out.first().cloned() else {
        panic!("{out:?}")
    };
    let (o, out) = feed(&mut s, &mut k, Payload::Consensus(Msg::Queued { req, rev: 3, lease: 5 }), Micros::us(2_000));
    assert_eq!(o, Some(Outcome::Waiting));
    // Keepalives start with the session, every TTL/3, due from the request that created it (at 0).
    assert_eq!(out, vec![Effect::Timer(Micros::us(2_998_000), TimerKind::KeepAlive), Effect::Event(EventKind::Quorum(QuorumEvent::Queued { rev: 3 }))]);
    assert_eq!(k.wait, Wait::Queued);
    let (o, out) = feed(&mut s, &mut k, Payload::Consensus(Msg::Locked { req, rev: 3, lease: 5, grant: 1 }), Micros::us(4_000_000));
    assert_eq!(o, Some(Outcome::Acquired));
    // The lease counts from the lock request's send (at 0), on the client's clock.
    assert_eq!(out, vec![Effect::Event(EventKind::Acquired { token: Some(3), until_local_us: Micros::us(9_000_000), grant: 1 })]);
    let mut out = Vec::new();
    s.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(6_000_000)), &mut out);
    assert!(matches!(out[0], Effect::Send(Dest::Leader, Payload::Consensus(Msg::KeepAlive { lease: 5, .. }))));
}

#[test]
fn a_reply_that_arrives_after_a_pause_finds_the_first_keepalive_overdue() {
    let (mut s, mut k) = (Session::default(), Core::default());
    let req = asked(&mut s, &mut k);
    // The client was paused from just after its request until 7 s: TTL/3 (3 s) has passed.
    let (_, out) = feed(&mut s, &mut k, Payload::Consensus(Msg::Locked { req, rev: 2, lease: 5, grant: 0 }), Micros::us(7_000_000));
    assert_eq!(out[0], Effect::Timer(Micros::ZERO, TimerKind::KeepAlive), "sent as soon as the client runs");
}

#[test]
fn a_session_that_ends_while_queued_loses_the_lock() {
    let (mut s, mut k) = (Session::default(), Core::default());
    let req = asked(&mut s, &mut k);
    feed(&mut s, &mut k, Payload::Consensus(Msg::Queued { req, rev: 3, lease: 5 }), Micros::us(10));
    let (o, _) = feed(&mut s, &mut k, Payload::Consensus(Msg::SessionExpired { req }), Micros::us(20));
    assert_eq!(o, Some(Outcome::Lost(crate::trace::Why::ExpiredWaiting)));
    assert!(!s.release(&mut k, &cx(Micros::us(30)), &mut Vec::new()), "no session, nothing to release");
}

/// consensus-fenced: client1 wakes from its pause, its keepalive is answered `lease not found`,
/// and it writes anyway, like code that never watches `session.Done()`. The trace says so.
#[test]
fn a_holder_told_its_lease_is_gone_goes_on_and_the_trace_says_it_did_not_check() {
    let (mut s, mut k) = (Session::default(), Core::default());
    let req = asked(&mut s, &mut k);
    feed(&mut s, &mut k, Payload::Consensus(Msg::Locked { req, rev: 2, lease: 5, grant: 0 }), Micros::us(10));
    let (o, out) = feed(&mut s, &mut k, Payload::Consensus(Msg::LeaseNotFound { req: 9 }), Micros::us(20_000_000));
    assert_eq!((o, out), (Some(Outcome::Waiting), vec![Effect::Event(EventKind::NoticeIgnored { holding: true })]));
    assert!(k.lease.is_some(), "it still believes it holds the lock");
    // A second answer (another keepalive was in flight) says nothing new.
    let (_, out) = feed(&mut s, &mut k, Payload::Consensus(Msg::LeaseNotFound { req: 10 }), Micros::us(20_000_001));
    assert!(out.is_empty(), "{out:?}");
}
