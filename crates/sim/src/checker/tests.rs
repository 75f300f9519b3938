//! The checker on small runs: each finding kind from the smallest run that shows it.

use crate::scenario::Scenario;
use crate::time::Micros;
use crate::verdict::{Cause, Kind, Safety};

fn verdict_of(json: &str) -> crate::verdict::Verdict {
    let sc = Scenario::parse(json).expect("a valid scenario");
    crate::run(&sc).expect("it runs").verdict
}

/// A pauses for `pause_ms` holding a 10 s lease; B takes the lock when A's key expires.
fn paused(pause_ms: u64, fencing: &str) -> String {
    format!(
        r#"{{"version": 1, "id": "t", "title": "t", "seed": 1, "duration_ms": 40000,
        "lock": {{"kind": "redis", "ttl_ms": 10000}}, "token": {{"source": "counter", "start": 33}},
        "resource": {{"kind": "store", "fencing": "{fencing}"}},
        "clients": [{{"name": "A", "steps": [{{"acquire": {{}}}}, {{"read": {{}}}}, {{"work": {{"ms": 100}}}}, {{"write": {{}}}}]}},
                    {{"name": "B", "start_ms": 1000, "steps": [{{"acquire": {{"retry_ms": 1000, "attempts": 30}}}}, {{"read": {{}}}}, {{"work": {{"ms": 5000}}}}, {{"write": {{}}}}]}}],
        "faults": [{{"pause": {{"actor": "A", "at_ms": 50, "duration_ms": {pause_ms}}}}}]}}"#
    )
}

#[test]
fn a_short_pause_is_safe() {
    let v = verdict_of(&paused(1000, "none"));
    assert_eq!(v.verdict, Safety::Safe, "{v:#?}");
    assert!(v.violations.is_empty());
}

#[test]
fn a_pause_past_the_lease_is_a_lost_update_and_beliefs_overlap() {
    let v = verdict_of(&paused(15_000, "none"));
    assert_eq!(v.verdict, Safety::Unsafe);
    assert!(v.violations.iter().any(|f| f.property == Kind::LostUpdate), "{v:#?}");
    assert!(v.hazards.iter().any(|f| f.property == Kind::BeliefOverlap), "{v:#?}");
    assert!(v.properties.iter().any(|p| p.name == "lost-update" && !p.holds));
}

#[test]
fn fencing_turns_the_stale_write_away() {
    let v = verdict_of(&paused(15_000, "atomic"));
    assert!(!v.violations.iter().any(|f| f.property == Kind::OutOfOrderWrite), "{v:#?}");
}

/// non-fencing-downstream: A's charge (token 33) reaches the payment API after B's (token 34).
/// A charge adds beside the other and overwrites nothing: the harm is the second charge, a
/// duplicate effect, and there is no out-of-order write to report.
#[test]
fn a_stale_charge_after_a_newer_one_is_a_duplicate_effect_and_overwrites_nothing() {
    for id in ["non-fencing-downstream", "work-claim-queue"] {
        let sc = crate::library::get(id).expect("in the library");
        let v = crate::run(&sc).expect("it runs").verdict;
        let kinds: Vec<Kind> = v.violations.iter().map(|f| f.property).collect();
        assert_eq!(kinds, [Kind::DuplicateEffect], "{id}: {v:#?}");
    }
}

/// The same late write made as a read-modify-write (it sets the value) overwrites B's, and
/// is out of order.
#[test]
fn a_stale_write_that_sets_the_value_after_a_newer_one_is_out_of_order() {
    let mut sc = crate::library::get("non-fencing-downstream").expect("in the library");
    for c in &mut sc.clients {
        for step in &mut c.steps {
            if let crate::scenario::Step::Write { op, .. } = step {
                *op = crate::scenario::WriteOp::Set;
            }
        }
    }
    let v = crate::run(&sc).expect("it runs").verdict;
    assert!(v.violations.iter().any(|f| f.property == Kind::OutOfOrderWrite), "{v:#?}");
}

/// consensus-quorum-loss: m2 and m3 crash at 2 s; m1 says so at 3 s, an election timeout later.
/// The note said "No quorum from 3 s": nothing could commit from 2 s.
#[test]
fn the_quorum_loss_note_starts_when_the_majority_went_not_when_the_leader_noticed() {
    let sc = crate::library::get("consensus-quorum-loss").expect("in the library");
    let run = crate::run(&sc).expect("it runs");
    let note = run.verdict.notes.iter().find(|f| matches!(f.cause, Cause::NoQuorum { .. })).expect("a quorum-loss note");
    assert_eq!(note.at_us, Micros::us(2_000_000), "{note:?}");
    let text = super::words::explanation(&run, note);
    assert!(text.starts_with("From 2 s, when a majority of the members could no longer be reached, to 15 s"), "{text}");
}

/// gc-pause-unfenced: A, paused past its lease, writes after B. The finding says so as data (the
/// writes, the pause, the lease, the unchecked token) and in words when shown.
#[test]
fn a_stale_write_is_explained_by_data_and_worded_when_shown() {
    use crate::verdict::{Reason, Unfenced};
    let sc = crate::library::get("gc-pause-unfenced").expect("in the library");
    let run = crate::run(&sc).expect("it runs");
    let (a, b) = (run.actor_id("A").expect("A"), run.actor_id("B").expect("B"));
    let f = run.verdict.violations.iter().find(|f| f.property == Kind::OutOfOrderWrite).expect("an out-of-order write");
    assert_eq!(f.actors, vec![a, b]);
    let Cause::OutOfOrderWrite { write, newer, late, unfenced } = &f.cause else { panic!("{f:?}") };
    assert_eq!((run.applied[*write].client, run.applied[*newer].client), (a, b));
    let paused = Reason::Paused { client: a, from_us: Micros::us(1_500_000), to_us: Micros::us(26_500_000) };
    assert_eq!(late, &vec![paused, Reason::LeaseRanOut { client: a, at_us: Micros::us(11_000_000) }]);
    assert_eq!(*unfenced, Some(Unfenced::Unchecked));
    let text = super::words::explanation(&run, f);
    assert!(
        text.ends_with(
            ". A was paused from 1.5 s to 26.5 s; its lease had run out at 11 s by its own clock. The resource does not check tokens."
        ),
        "{text}"
    );
}

/// Sentinel's split (redis-sentinel-split, SEMANTICS §1.5): the old primary did not fail, it was
/// cut off and went on answering A, and its counter was not lost: the new primary's never saw
/// its INCR. A failover whose old primary crashed (failover-lost-lock) is still a failure; and
/// with no partition, Sentinel demotes the old primary at once.
#[test]
fn a_sentinel_split_is_two_primaries_not_a_failed_one() {
    use crate::verdict::Conflict;
    let hazards = |sc: &Scenario| {
        let run = crate::run(sc).expect("it runs");
        let text: Vec<String> = run.verdict.hazards.iter().map(|f| super::words::explanation(&run, f)).collect();
        (run.verdict.hazards.iter().map(|f| f.cause.clone()).collect::<Vec<Cause>>(), text.join("\n"))
    };
    let split = crate::library::get("redis-sentinel-split").expect("in the library");
    let (causes, text) = hazards(&split);
    let cut_off = |c: &Cause| matches!(c, Cause::DoubleGrant { conflict: Conflict::Split { demoted_us: None, .. }, .. });
    assert!(causes.iter().any(cut_off), "{causes:#?}");
    assert!(causes.iter().any(|c| matches!(c, Cause::TokenSplit { token: 33, highest: 33, .. })), "{causes:#?}");
    for said in [
        "redis, the old primary, cut off from replica and still answering, kept A's lock while Sentinel promoted replica, which never had A's key.",
        "the counter on replica, the new primary, never saw the INCR that redis, the old primary, made for A; Sentinel had promoted replica while redis was still up.",
    ] {
        assert!(text.contains(said), "{text}");
    }
    assert!(!text.contains("had failed") && !text.contains("counter was lost"), "{text}");
    // Without the partition, a failover at 1.1 s (before A's key is shipped) demotes redis at once.
    let faults = crate::json::parse(r#"[{"failover": {"at_ms": 1100}}]"#).unwrap();
    let demoted = split.with_settings(&[crate::scenario::Setting { path: "faults".into(), value: faults }]).unwrap();
    let (causes, text) = hazards(&demoted);
    let at_once = |c: &Cause| matches!(c, Cause::DoubleGrant { conflict: Conflict::Split { demoted_us: Some(t), .. }, .. } if *t == Micros::us(1_100_000));
    assert!(causes.iter().any(at_once), "{causes:#?}");
    assert!(
        text.contains("Sentinel promoted replica, which never had A's key, and made redis, the old primary, its replica at 1.1 s."),
        "{text}"
    );
    // With a replication lag of 50 ms the replica has A's key; A's renewal reaches only redis,
    // and the copy on replica expires first: the replica is not said never to have had it.
    let lag = crate::json::parse("50").unwrap();
    let copied = split.with_settings(&[crate::scenario::Setting { path: "lock.replica.lag_ms".into(), value: lag }]).unwrap();
    let (causes, text) = hazards(&copied);
    assert!(causes.iter().any(|c| matches!(c, Cause::DoubleGrant { conflict: Conflict::Split { copy: Some(_), .. }, .. })), "{causes:#?}");
    assert!(!text.contains("never had"), "{text}");
    assert!(
        text.contains("Sentinel promoted replica, whose copy of A's key did not last (A's key on replica expired at 11.003 s (true time))"),
        "{text}"
    );
    let (causes, text) = hazards(&crate::library::get("failover-lost-lock").expect("in the library"));
    assert!(causes.iter().any(|c| matches!(c, Cause::DoubleGrant { conflict: Conflict::Failover { .. }, .. })), "{causes:#?}");
    assert!(text.contains("had failed before"), "{text}");
}

/// A holder that crashes under a lock-delay: the note says when the lock was let go (the
/// lock-delay's end), not only when the key expired (chubby-lock-delay with A crashing at 2 s).
#[test]
fn a_crashed_holder_under_a_lock_delay_is_waited_for_until_the_delay_ends() {
    let sc = crate::library::get("chubby-lock-delay").expect("in the library");
    let faults = crate::json::parse(r#"[{"crash": {"actor": "A", "at_ms": 2000}}]"#).unwrap();
    let crashed = sc.with_settings(&[crate::scenario::Setting { path: "faults".into(), value: faults }]).unwrap();
    let run = crate::run(&crashed).expect("it runs");
    let note = run.verdict.notes.iter().find(|f| matches!(f.cause, Cause::CrashedHolding { .. })).expect("a crashed holder's note");
    let text = super::words::explanation(&run, note);
    assert!(text.contains("its key expired at 12.009 s, and the lock-delay kept the lock from everyone until 72.009 s"), "{text}");
}
