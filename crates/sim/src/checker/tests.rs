//! The checker on small runs: each finding kind from the smallest run that shows it.

use crate::scenario::Scenario;
use crate::verdict::{Kind, Safety};

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
