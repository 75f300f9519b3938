//! A candidate as inputs → effects: client-go's rules, one by one.

use super::*;
use crate::trace::ServiceEvent;
use crate::time::{Micros, Millis};

const S: Micros = Micros::us(1_000_000);

fn t() -> Timing {
    Timing { lease_us: 15 * S, renew_deadline_us: 10 * S, retry_us: 2 * S }
}

fn cx(name: &'static str, local: Micros) -> Cx<'static> {
    Cx { local, mono: local, name, ttl_ms: Millis::new(15_000), token: TokenKind::Counter, next_grant: 3, next_token: None }
}

/// The last message sent to the API server.
fn last(out: &[Effect]) -> Msg {
    out.iter()
        .rev()
        .find_map(|e| match e {
            Effect::Send(Dest::Lock, Payload::Kubernetes(m)) => Some((**m).clone()),
            _ => None,
        })
        .expect("a request")
}

fn req_of(m: &Msg) -> u64 {
    match m {
        Msg::Get { req } | Msg::Create { req, .. } | Msg::Update { req, .. } => *req,
        _ => panic!("not a request: {m:?}"),
    }
}

fn feed(e: &mut Elector, k: &mut Core, m: Msg, cx: &Cx) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = e.on_message(&Payload::Kubernetes(Box::new(m)), k, cx, &mut out);
    (o, out)
}

fn held_by(holder: &str, renew_local: Micros) -> Record {
    Record { holder: holder.into(), transitions: 4, acquire_local: Micros::ZERO, renew_local }
}

/// A tries once and reads `record` at resourceVersion 7, at its own time `at`.
fn try_once(e: &mut Elector, k: &mut Core, record: Record, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    e.acquire(Millis::new(1_000), k, &cx("A", at), &mut out);
    let req = req_of(&last(&out));
    feed(e, k, Msg::Got { req, lease: Some((record, 7)) }, &cx("A", at + Micros::us(5_000)))
}

#[test]
fn a_candidate_waits_while_the_record_keeps_changing() {
    let (mut e, mut k) = (Elector::new(t()), Core::default());
    let (o, out) = try_once(&mut e, &mut k, held_by("B", Micros::us(1)), Micros::ZERO);
    assert_eq!(o, Some(Outcome::Refused));
    assert!(matches!(&out[..], [Effect::Event(EventKind::Service(ServiceEvent::Kubernetes(Event::Held { holder, unchanged_us })))] if holder == "B" && *unchanged_us == Micros::ZERO));
    // 14 s later the record has changed (B renewed): the wait starts again.
    let (o, _) = try_once(&mut e, &mut k, held_by("B", Micros::us(2)), 14 * S);
    assert_eq!(o, Some(Outcome::Refused));
    let (o, _) = try_once(&mut e, &mut k, held_by("B", Micros::us(2)), 28 * S);
    assert_eq!(o, Some(Outcome::Refused), "13.995 s unchanged is less than 15 s");
}

#[test]
fn a_candidate_takes_over_a_record_unchanged_for_the_lease_duration_by_its_own_clock() {
    let (mut e, mut k) = (Elector::new(t()), Core::default());
    try_once(&mut e, &mut k, held_by("B", Micros::us(1)), Micros::ZERO);
    // The record's own times are never compared with A's clock: only its change counts.
    let (o, out) = try_once(&mut e, &mut k, held_by("B", Micros::us(1)), 15 * S);
    assert_eq!(o, Some(Outcome::Waiting));
    let m = last(&out);
    let Msg::Update { req, rv: 7, record } = m else { panic!("an update naming the version read: {m:?}") };
    assert_eq!((record.holder.as_str(), record.transitions), ("A", 5), "leaseTransitions grows at a change of holder");
    let (o, out) = feed(&mut e, &mut k, Msg::Done { req, rv: 8, grant: Some(3) }, &cx("A", 15 * S + Micros::us(9_000)));
    assert_eq!(o, Some(Outcome::Acquired));
    let until = 15 * S + Micros::us(9_000) + 10 * S;
    assert!(out.contains(&Effect::Event(EventKind::Acquired { token: Some(5), until_local_us: until, grant: 3 })), "{out:?}");
    assert!(matches!(last(&out), Msg::Update { rv: 8, .. }), "its renew loop's first try goes out at once");
    assert!(out.contains(&Effect::Timer(2 * S, TimerKind::KeepAlive)), "renews every retry period");
    assert_eq!(k.lease.as_ref().map(|l| l.until_local), Some(until));
}

#[test]
fn a_conflict_is_a_failed_try() {
    let (mut e, mut k) = (Elector::new(t()), Core::default());
    let (_, out) = try_once(&mut e, &mut k, Record { holder: String::new(), ..held_by("B", Micros::us(1)) }, Micros::ZERO);
    let req = req_of(&last(&out));
    assert_eq!(feed(&mut e, &mut k, Msg::Conflict { req }, &cx("A", Micros::us(10_000))).0, Some(Outcome::Refused));
}

/// A leader since its own time 0 (grant 3, token 0), its first round of renewal done: its
/// lease at resourceVersion 1.
fn leader() -> (Elector, Core) {
    let (mut e, mut k) = (Elector::new(t()), Core::default());
    let mut out = Vec::new();
    e.acquire(Millis::new(1_000), &mut k, &cx("A", Micros::ZERO), &mut out);
    let (_, out) = feed(&mut e, &mut k, Msg::Got { req: req_of(&last(&out)), lease: None }, &cx("A", Micros::ZERO));
    let Msg::Create { req, record } = last(&out) else { panic!("creates a missing Lease") };
    assert_eq!(record.transitions, 0);
    let (o, out) = feed(&mut e, &mut k, Msg::Done { req, rv: 0, grant: Some(3) }, &cx("A", Micros::ZERO));
    assert_eq!(o, Some(Outcome::Acquired));
    feed(&mut e, &mut k, Msg::Done { req: req_of(&last(&out)), rv: 1, grant: Some(3) }, &cx("A", Micros::ZERO));
    (e, k)
}

fn tick(e: &mut Elector, k: &mut Core, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = e.on_timer(TimerKind::KeepAlive, k, &cx("A", at), &mut out);
    (o, out)
}

#[test]
fn a_leader_renews_with_the_version_it_last_saw_and_its_deadline_moves() {
    let (mut e, mut k) = leader();
    let (_, out) = tick(&mut e, &mut k, 2 * S);
    let Msg::Update { req, rv: 1, record } = last(&out) else { panic!("the fast path: a PUT at once") };
    assert_eq!((record.transitions, record.renew_local), (0, 2 * S));
    // Its next round begins on the next tick, at 4 s, not 2 s after the reply: it leads until
    // the renew deadline after that, 14 s.
    let (_, out) = feed(&mut e, &mut k, Msg::Done { req, rv: 2, grant: None }, &cx("A", 2 * S + Micros::us(4_000)));
    assert_eq!(out, vec![Effect::Event(EventKind::Renewed { until_local_us: 14 * S })]);
}

#[test]
fn a_leader_that_cannot_renew_stops_at_its_deadline_by_its_own_clock() {
    let (mut e, mut k) = leader();
    // No answer to the tries at 2 s, 4 s, … 10 s; the deadline is 12 s (2 s + 10 s after acquiring).
    for s in [2, 4, 6, 8, 10] {
        let (o, out) = tick(&mut e, &mut k, s * S);
        assert_eq!(o, Some(Outcome::Waiting));
        assert_eq!(s > 2, out.iter().any(|x| matches!(x, Effect::Event(EventKind::Service(ServiceEvent::Kubernetes(Event::RenewFailed { .. }))))));
    }
    let (o, _) = tick(&mut e, &mut k, 12 * S);
    assert!(matches!(o, Some(Outcome::Lost(crate::trace::Why::RenewDeadline { .. }))));
    assert_eq!(tick(&mut e, &mut k, 14 * S), (Some(Outcome::Waiting), vec![]), "it no longer leads: nothing more");
}

#[test]
fn after_a_conflict_a_leader_reads_and_finds_another_holder() {
    let (mut e, mut k) = leader();
    let (_, out) = tick(&mut e, &mut k, 2 * S);
    let (_, out) = feed(&mut e, &mut k, Msg::Conflict { req: req_of(&last(&out)) }, &cx("A", 2 * S));
    let Msg::Get { req } = last(&out) else { panic!("the slow path reads the Lease") };
    let (o, out) = feed(&mut e, &mut k, Msg::Got { req, lease: Some((held_by("B", Micros::us(9)), 5)) }, &cx("A", 2 * S));
    assert_eq!(o, Some(Outcome::Waiting), "its program is not told");
    assert!(
        matches!(&out[..], [Effect::Event(EventKind::Service(ServiceEvent::Kubernetes(Event::RenewFailed { holder, .. })))] if holder.as_deref() == Some("B"))
    );
}

#[test]
fn a_leader_paused_between_rounds_starts_a_fresh_round_and_notices_nothing() {
    let (mut e, mut k) = leader();
    let started_with = k.lease.as_ref().and_then(|l| l.token);
    // Frozen from 1 s to 30 s: its timer fires on waking, and a new round begins.
    let (o, out) = tick(&mut e, &mut k, 30 * S);
    assert_eq!(o, Some(Outcome::Waiting), "not told that it stopped leading");
    let Msg::Get { req } = last(&out) else { panic!("its record is too old for the fast path: it reads") };
    // B took the Lease and gave it up meanwhile: A writes itself back in.
    let (_, out) =
        feed(&mut e, &mut k, Msg::Got { req, lease: Some((Record { holder: String::new(), ..held_by("B", Micros::us(9)) }, 6)) }, &cx("A", 30 * S));
    let Msg::Update { req, rv: 6, record } = last(&out) else { panic!("a PUT") };
    assert_eq!((record.holder.as_str(), record.transitions), ("A", 5));
    feed(&mut e, &mut k, Msg::Done { req, rv: 7, grant: Some(9) }, &cx("A", 30 * S));
    // Its program keeps the token it read in OnStartedLeading, which a re-acquire in the renew
    // loop does not call again (issue 49).
    assert_eq!(k.lease.as_ref().map(|l| (l.grant, l.token)), Some((9, started_with)), "its belief names the grant it holds now");
    assert_ne!(started_with, Some(5));
}

#[test]
fn a_deposed_leader_reads_again_and_never_writes_over_a_young_record() {
    let (mut e, mut k) = leader();
    let (_, out) = tick(&mut e, &mut k, 2 * S);
    let (_, out) = feed(&mut e, &mut k, Msg::Conflict { req: req_of(&last(&out)) }, &cx("A", 2 * S));
    feed(&mut e, &mut k, Msg::Got { req: req_of(&last(&out)), lease: Some((held_by("B", Micros::us(9)), 5)) }, &cx("A", 2 * S));
    for s in [4, 6, 8] {
        let (_, out) = tick(&mut e, &mut k, s * S);
        let Msg::Get { req } = last(&out) else { panic!("the Lease names B: no fast path") };
        let (_, out) = feed(&mut e, &mut k, Msg::Got { req, lease: Some((held_by("B", Micros::us(9)), 5)) }, &cx("A", s * S));
        assert!(sends(&out).is_empty(), "B's record is young by A's clock: A writes nothing");
    }
    let mut out = Vec::new();
    assert!(!e.release(&mut k, &cx("A", 9 * S), &mut out), "a Lease that names B is not A's to give up");
}

fn sends(out: &[Effect]) -> Vec<&Effect> {
    out.iter().filter(|e| matches!(e, Effect::Send(..))).collect()
}

#[test]
fn a_release_writes_an_empty_holder() {
    let (mut e, mut k) = leader();
    let mut out = Vec::new();
    assert!(e.release(&mut k, &cx("A", S), &mut out));
    let Msg::Update { req, rv: 1, record } = last(&out) else { panic!("a PUT") };
    assert!(record.holder.is_empty());
    let (o, out) = feed(&mut e, &mut k, Msg::Done { req, rv: 2, grant: None }, &cx("A", S));
    assert_eq!(o, Some(Outcome::Released));
    assert_eq!(out, vec![Effect::Event(EventKind::Released { removed: true })]);
    assert_eq!(k.lease, None);
}

#[test]
fn the_retry_delay_is_the_period_with_up_to_1_2_of_it_in_jitter() {
    let e = Elector::new(t());
    let mut rng = Rng::new(7);
    let delays: Vec<Micros> = (0..200).map(|_| e.retry_delay(Millis::new(0), &mut rng)).collect();
    assert!(delays.iter().all(|&d| (2 * S..2 * S + Micros::us(2_400_000)).contains(&d)));
    assert!(delays.iter().any(|&d| d > 4 * S), "the jitter reaches past 2 s");
}
