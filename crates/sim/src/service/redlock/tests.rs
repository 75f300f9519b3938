//! Redlock's client side as inputs → effects: rounds, the validity arithmetic, unlock-all.

use super::*;
use crate::scenario::TokenKind;
use crate::time::{Micros, Millis};

fn cx(local: Micros) -> Cx<'static> {
    Cx { local, mono: local, name: "A", ttl_ms: Millis::new(10_000), token: TokenKind::None, next_grant: 0, next_token: None }
}

fn core() -> Core {
    let mut k = Core::default();
    k.owner = 0xa1;
    k
}

/// The requests sent, by node index.
fn sent(out: &[Effect]) -> Vec<(usize, u64)> {
    out.iter()
        .filter_map(|e| match e {
            Effect::Send(Dest::Node(i), Payload::Redis { req, .. }) => Some((*i, *req)),
            _ => None,
        })
        .collect()
}

fn ok(req: u64) -> Payload {
    Payload::RedisReply { req, reply: RedisReply::Ok { token: None, grant: 0, incr: false } }
}

#[test]
fn in_turn_the_round_asks_one_node_after_another() {
    let (mut r, mut k) = (Redlock::new(3, Millis::new(50), false, 0.01, Default::default()), core());
    let mut out = Vec::new();
    r.acquire(Millis::new(1_000), &mut k, &cx(Micros::ZERO), &mut out);
    assert_eq!(sent(&out).iter().map(|s| s.0).collect::<Vec<_>>(), vec![0]);
    assert_eq!(k.wait, Wait::Round);
    let req = sent(&out)[0].1;
    let mut out = Vec::new();
    assert_eq!(r.on_message(&ok(req), &mut k, &cx(Micros::us(3_000)), &mut out), Some(Outcome::Waiting));
    assert_eq!(sent(&out).iter().map(|s| s.0).collect::<Vec<_>>(), vec![1]);
}

#[test]
fn a_round_that_takes_too_long_is_not_valid_and_unlocks_every_node() {
    let (mut r, mut k) = (Redlock::new(3, Millis::new(9_000), true, 0.01, Default::default()), core());
    let mut out = Vec::new();
    r.acquire(Millis::new(1_000), &mut k, &cx(Micros::ZERO), &mut out);
    let reqs: Vec<u64> = sent(&out).iter().map(|s| s.1).collect();
    let mut last = None;
    for (i, req) in reqs.iter().enumerate() {
        let mut out = Vec::new();
        // The last vote arrives after 9.95 s: validity 10000 − 9950 − 102 < 0.
        let at = Micros::us(if i == 2 { 9_950_000 } else { 1_000 });
        last = Some((r.on_message(&ok(*req), &mut k, &cx(at), &mut out), out));
    }
    let (outcome, out) = last.unwrap();
    assert_eq!(outcome, Some(Outcome::Refused));
    assert!(matches!(&out[0], Effect::Event(EventKind::Tally { ok: false, validity_us, .. }) if *validity_us == Micros::us(-52_000)));
    assert_eq!(sent(&out).iter().map(|s| s.0).collect::<Vec<_>>(), vec![0, 1, 2], "unlock every node");
    assert!(k.lease.is_none());
}

#[test]
fn an_extension_short_of_a_majority_loses_the_lock() {
    let (mut r, mut k) = (Redlock::new(3, Millis::new(50), true, 0.01, Default::default()), core());
    k.lease = Some(Lease { owner: 0xa1, token: None, grant: 0, until_local: Micros::us(9_000_000) });
    let mut out = Vec::new();
    assert!(r.renew(&mut k, &cx(Micros::us(5_000_000)), &mut out));
    let reqs: Vec<u64> = sent(&out).iter().map(|s| s.1).collect();
    let no = |req| Payload::RedisReply { req, reply: RedisReply::Int(0) };
    let mut res = None;
    for req in reqs {
        res = r.on_message(&no(req), &mut k, &cx(Micros::us(5_001_000)), &mut Vec::new());
    }
    assert_eq!(res, Some(Outcome::Lost(crate::trace::Why::ExtensionShort { votes: 0, nodes: 3 })));
}

#[test]
fn release_is_a_round_that_gives_the_grant_back() {
    let (mut r, mut k) = (Redlock::new(3, Millis::new(50), false, 0.01, Default::default()), core());
    k.lease = Some(Lease { owner: 0xa1, token: None, grant: 4, until_local: Micros::us(9_000_000) });
    let mut out = Vec::new();
    assert!(r.release(&mut k, &cx(Micros::us(1_000)), &mut out));
    assert_eq!(out[0], Effect::Event(EventKind::Releasing));
    assert_eq!(out[1], Effect::Grant(GrantFx::Released { grant: 4 }));
    assert_eq!(sent(&out).len(), 3, "unlocking goes to every node at once");
    // Nothing to release without a lease.
    k.lease = None;
    assert!(!r.release(&mut k, &cx(Micros::us(2_000)), &mut Vec::new()));
}
