//! The client's program with each lock protocol, as inputs → effects.

use super::*;
use crate::scenario::{TokenKind, WriteOp};
use crate::service::redis::{RedisCmd, RedisReply};
use crate::service::redlock::Redlock;
use crate::time::{Micros, Millis};

fn cx(local: Micros) -> Cx<'static> {
    Cx { local, mono: local, name: "A", ttl_ms: Millis::new(10_000), token: TokenKind::Counter, next_grant: 3, next_token: Some(34) }
}

fn steps() -> Vec<Step> {
    let json = r#"[{"acquire": {}}, {"read": {}}, {"work": {"ms": 100}}, {"write": {}}, {"release": {}}]"#;
    serde_json::from_str(json).expect("steps")
}

fn redis_client() -> Client {
    Client::new(steps(), Rng::stream(1, "client:A"), Protocol::Redis(Default::default()))
}

fn sent(out: &[Effect]) -> Vec<Payload> {
    out.iter()
        .filter_map(|e| match e {
            Effect::Send(_, p) => Some(p.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_redis_client_acquires_then_reads_with_its_token() {
    let mut c = redis_client();
    let out = c.handle(Input::Start, &cx(Micros::ZERO));
    assert_eq!(out[0], Effect::Event(EventKind::Start));
    const TTL: Millis = Millis::new(10_000);
    let Some(Payload::Redis { req, cmd: RedisCmd::Acquire { ttl_ms: TTL, .. } }) = sent(&out).pop() else { panic!("{out:?}") };
    assert!(out.contains(&Effect::Timer(Micros::us(1_000_000), TimerKind::Timeout(req))), "the default acquire timeout: {out:?}");
    let reply = Payload::RedisReply { req, reply: RedisReply::Ok { token: Some(34), grant: 0, incr: true } };
    let out = c.handle(Input::Message(reply), &cx(Micros::us(2_000)));
    assert_eq!(out[0], Effect::Event(EventKind::Acquired { token: Some(34), until_local_us: Micros::us(10_000_000), grant: 0 }));
    assert!(matches!(sent(&out)[..], [Payload::Read { token: None, activate: false, .. }]));
    assert_eq!(c.lease().map(|l| l.until_local), Some(Micros::us(10_000_000)), "the lease counts from the send, on its own clock");
}

#[test]
fn a_refused_attempt_waits_and_retries() {
    // The default retry delay is 500 ms.
    let mut c = redis_client();
    let out = c.handle(Input::Start, &cx(Micros::ZERO));
    let Some(Payload::Redis { req, .. }) = sent(&out).pop() else { panic!() };
    let out = c.handle(Input::Message(Payload::RedisReply { req, reply: RedisReply::Nil }), &cx(Micros::us(1_000)));
    assert_eq!(out, vec![Effect::Event(EventKind::Refused { attempt: 1 }), Effect::Timer(Micros::us(500_000), TimerKind::Retry)]);
    let out = c.handle(Input::Timer(TimerKind::Retry), &cx(Micros::us(1_001_000)));
    assert!(matches!(sent(&out)[..], [Payload::Redis { cmd: RedisCmd::Acquire { .. }, .. }]));
}

#[test]
fn work_is_a_timer_and_the_write_carries_the_read_value_and_token() {
    let mut c = redis_client();
    let out = c.handle(Input::Start, &cx(Micros::ZERO));
    let Some(Payload::Redis { req, .. }) = sent(&out).pop() else { panic!() };
    let out = c.handle(
        Input::Message(Payload::RedisReply { req, reply: RedisReply::Ok { token: Some(34), grant: 0, incr: true } }),
        &cx(Micros::us(1)),
    );
    let Some(Payload::Read { req, .. }) = sent(&out).pop() else { panic!() };
    let out = c.handle(
        Input::Message(Payload::ReadReply { req, value: 41, version: 7, refused_by: None, served_us: Micros::ZERO }),
        &cx(Micros::us(2)),
    );
    assert_eq!(
        out,
        vec![
            Effect::Event(EventKind::ReadDone { value: 41, version: 7 }),
            Effect::Event(EventKind::Work { ms: Millis::new(100) }),
            Effect::Timer(Micros::us(100_000), TimerKind::WorkDone)
        ]
    );
    let out = c.handle(Input::Timer(TimerKind::WorkDone), &cx(Micros::us(100_002)));
    let Some(Payload::Write(w)) = sent(&out).pop() else { panic!("{out:?}") };
    assert_eq!((w.token, w.value, w.op, w.read_version), (Some(34), 42, WriteOp::Set, Some(7)));
}

#[test]
fn a_rejected_write_ends_the_program() {
    let mut c = redis_client();
    let out = c.handle(Input::Start, &cx(Micros::ZERO));
    let Some(Payload::Redis { req, .. }) = sent(&out).pop() else { panic!() };
    let out = c.handle(
        Input::Message(Payload::RedisReply { req, reply: RedisReply::Ok { token: Some(33), grant: 0, incr: true } }),
        &cx(Micros::us(1)),
    );
    let Some(Payload::Read { req, .. }) = sent(&out).pop() else { panic!() };
    c.handle(
        Input::Message(Payload::ReadReply { req, value: 0, version: 0, refused_by: None, served_us: Micros::ZERO }),
        &cx(Micros::us(2)),
    );
    let out = c.handle(Input::Timer(TimerKind::WorkDone), &cx(Micros::us(3)));
    let Some(Payload::Write(w)) = sent(&out).pop() else { panic!() };
    let req = w.req;
    let reply = Payload::WriteReply { req, outcome: WriteOutcome::Rejected, highest: 34 };
    let out = c.handle(Input::Message(reply), &cx(Micros::us(4)));
    assert!(out.contains(&Effect::Event(EventKind::LostLock { why: crate::trace::Why::TokenSeen { highest: 34 } })));
    assert_eq!(out.last(), Some(&Effect::Event(EventKind::Done { completed: false })));
    assert!(c.done);
}

#[test]
fn a_redlock_round_that_wins_a_majority_is_a_grant_the_client_decides() {
    let proto = Protocol::Redlock(Redlock::new(3, Millis::new(50), true, 0.01, Default::default()));
    let mut c = Client::new(steps(), Rng::stream(1, "client:A"), proto);
    let out = c.handle(Input::Start, &cx(Micros::ZERO));
    let reqs: Vec<u64> = sent(&out)
        .iter()
        .map(|p| match p {
            Payload::Redis { req, .. } => *req,
            _ => panic!("{p:?}"),
        })
        .collect();
    assert_eq!(reqs.len(), 3, "all nodes at once");
    let ok = |req| Input::Message(Payload::RedisReply { req, reply: RedisReply::Ok { token: None, grant: 0, incr: false } });
    assert!(c.handle(ok(reqs[0]), &cx(Micros::us(1_000))).is_empty());
    assert!(c.handle(ok(reqs[1]), &cx(Micros::us(2_000))).is_empty());
    // The third node times out: two of three is a majority.
    let out = c.handle(Input::Timer(TimerKind::Timeout(reqs[2])), &cx(Micros::us(50_000)));
    // validity = 10000 − 50 − (100 + 2) = 9848 ms
    assert!(
        matches!(&out[0], Effect::Event(EventKind::Tally { votes, ok: true, validity_us, .. }) if votes.iter().eq([0, 1]) && *validity_us == Micros::us(9_848_000))
    );
    assert_eq!(out[1], Effect::Event(EventKind::Acquired { token: Some(34), until_local_us: Micros::us(9_848_000), grant: 3 }));
    assert_eq!(out[2], Effect::Grant(GrantFx::Won { grant: 3, token: Some(34), until_local: Micros::us(9_848_000), votes: vec![0, 1] }));
}
