//! Key moments that were shown on variants a reader can make (in the lab's editor or by the
//! search) where their text was false, each on that variant: the moment is shown on the library
//! run as written and not on the variant, or the sentence is true of the run.

use sim::scenario::fault::Partition;
use sim::scenario::{Fault, Scenario, When};
use sim::time::{Micros, Millis};
use sim::{library, EventKind, Run};

fn scenario(id: &str) -> Scenario {
    library::get(id).unwrap_or_else(|| panic!("{id} is in the library"))
}

fn run(sc: &Scenario) -> Run {
    sim::run(sc).unwrap_or_else(|e| panic!("{} (seed {}): {e}", sc.id, sc.seed))
}

/// Whether the scenario's moment on `on` that begins with `text` is shown on `run`.
fn shown(sc: &Scenario, run: &Run, on: &str, text: &str) -> bool {
    let m = sc.moments.iter().find(|m| m.on == on && m.text.starts_with(text)).unwrap_or_else(|| panic!("{}: no moment `{on}`", sc.id));
    run.find(on).and_then(|id| run.moment(id)).is_some_and(|t| t.contains(&m.text))
}

fn cut_off(isolate: &[&str], at_ms: u64, duration_ms: u64) -> Fault {
    let isolate = isolate.iter().map(|s| s.to_string()).collect();
    Fault::Partition(Partition { isolate, from: Vec::new(), at_ms: Millis::new(at_ms), duration_ms: Millis::new(duration_ms) })
}

/// zookeeper-fenced with B cut off from 1.029 s for 7.499 s: the watch's NodeDeleted is lost,
/// B's session is closed and B lists /lock with a new znode (czxid 8), so no watch fired; and
/// the resource has accepted 8, not 4, when it refuses A's 2.
#[test]
fn zookeepers_watch_and_fence_are_told_only_when_they_happened() {
    for id in ["zookeeper-fenced", "zookeeper-unfenced"] {
        let mut sc = scenario(id);
        if id == "zookeeper-unfenced" {
            sc = sc.fixed().expect("a fix").expect("the fix applies");
        }
        let watch = "The watch fired";
        let fenced = "The resource has accepted czxid 4";
        let fenced = if id == "zookeeper-unfenced" { "With the fix, the resource has accepted czxid 4" } else { fenced };
        let written = run(&sc);
        assert!(shown(&sc, &written, "granted B", watch) && shown(&sc, &written, "rejected A", fenced), "{id} as written");
        sc.faults.push(cut_off(&["B"], 1029, 7499));
        let cut = run(&sc);
        let rejected = cut.find("rejected A").expect("A's stale write is refused");
        assert!(matches!(cut.events[rejected].kind, EventKind::Rejected { token: Some(2), highest: 8, .. }), "{id}: the variant");
        assert!(!shown(&sc, &cut, "granted B", watch), "{id}: B was never queued; its second znode was the lowest at once");
        assert!(!shown(&sc, &cut, "rejected A", fenced), "{id}: the resource had accepted 8");
    }
}

/// redis-sentinel-split with only redis cut off: A cannot reach redis, so neither "cuts redis
/// and A off" nor "a primary to A, the one client that can reach it" is true; with the
/// partition healed at 3.1 s, the demotion at the failover (5.1 s) is not "the partition heals".
#[test]
fn sentinels_partition_is_told_as_it_cuts_and_heals() {
    let sc = scenario("redis-sentinel-split");
    let cuts = ("isolated redis", "A partition cuts redis and A off");
    let promoted = ("promoted replica", "Sentinel, on the majority's side");
    let heals = ("demoted redis", "The partition heals.");
    let written = run(&sc);
    for (on, text) in [cuts, promoted, heals] {
        assert!(shown(&sc, &written, on, text), "as written: `{on}`");
    }
    let partition = sc.faults.iter().position(|f| matches!(f, Fault::Partition(_))).expect("a partition");
    let Fault::Partition(p) = &sc.faults[partition] else { unreachable!() };
    let mut redis_only = sc.clone();
    redis_only.faults[partition] = cut_off(&["redis"], p.at_ms.get(), p.duration_ms.get());
    let r = run(&redis_only);
    assert!(!shown(&sc, &r, cuts.0, cuts.1) && !shown(&sc, &r, promoted.0, promoted.1), "A cannot reach redis");
    let mut early = sc.clone();
    early.faults[partition] = cut_off(&["redis", "A"], p.at_ms.get(), 2000);
    let r = run(&early);
    let demoted = r.find("demoted redis").expect("Sentinel demotes redis at the failover");
    assert!(r.events[demoted].at_us > Micros::ms(p.at_ms.get() + 2000), "healed before the failover");
    assert!(!shown(&sc, &r, heals.0, heals.1), "the partition had healed seconds before");
}

/// k8s-lease-paused-leader with both faults removed: A releases the Lease and B takes the empty
/// Lease at once, not after seeing one record for the lease duration.
#[test]
fn a_takeover_of_a_released_lease_is_not_told_as_an_expiry() {
    let sc = scenario("k8s-lease-paused-leader");
    let takeover = ("taken B", "B has seen the same record for longer than the lease duration");
    assert!(shown(&sc, &run(&sc), takeover.0, takeover.1), "as written");
    let mut calm = sc.clone();
    calm.faults.clear();
    let r = run(&calm);
    let (released, taken) = (r.find("lease-released A").expect("A releases"), r.find("taken B").expect("B takes over"));
    assert!(released < taken);
    assert!(!shown(&sc, &r, takeover.0, takeover.1), "B took the Lease A had released");
}

/// A Kubernetes leader's renewal says until when, by its own clock, it leads at least: its next
/// round of tries begins on its RetryPeriod tick, not RetryPeriod after the reply, so a leader
/// whose tries all fail from then on stops leading no earlier than that and, with no pause, at
/// that time exactly. k8s-lease-paused-leader with A cut off from 2.5 s for 20 s said 14.018 s
/// and stopped at 14.012 s.
#[test]
fn a_kubernetes_renewal_says_when_the_leader_stops_at_the_latest_failure() {
    let mut cut = scenario("k8s-lease-paused-leader");
    cut.faults = vec![cut_off(&["A"], 2500, 20_000)];
    let mut runs: Vec<(String, Scenario)> = library::all().into_iter().map(|s| (s.id.clone(), s)).collect();
    runs.push(("k8s-lease-paused-leader, A cut off".into(), cut));
    let mut checked = 0;
    for (label, sc) in runs.iter().filter(|(_, s)| s.lock.kind == sim::scenario::LockKind::Kubernetes) {
        let r = run(sc);
        for (i, lost) in r.events.iter().enumerate().filter(|(_, e)| matches!(e.kind, EventKind::LostLock { .. })) {
            let renewed = r.events[..i].iter().rev().filter(|e| e.actor == lost.actor).find_map(|e| match e.kind {
                EventKind::Renewed { until_local_us } => Some(until_local_us),
                EventKind::Acquired { .. } => Some(Micros::ZERO),
                _ => None,
            });
            let Some(until) = renewed.filter(|u| *u > Micros::ZERO) else { continue };
            let stopped = r.local_at(lost.actor, lost.at_us);
            assert!(until <= stopped, "{label}: said it leads until {until} at least, stopped at {stopped}");
            if label.ends_with("cut off") {
                assert_eq!(until, stopped, "{label}: no pause, so it stops at the deadline it was told");
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "a leader stopped after a renewal");
}

/// `reach` and `apart` read the scenario's partitions at the event's time, and a malformed
/// entry is refused with its place.
#[test]
fn the_network_conditions_read_the_partitions_and_refuse_a_bad_entry() {
    let faults = [cut_off(&["redis", "A"], 1000, 2000)];
    let known = |a: &str| ["redis", "A", "B", "replica"].contains(&a);
    let when = |reach: &[&str], apart: &[&str]| When {
        reach: reach.iter().map(|s| s.to_string()).collect(),
        apart: apart.iter().map(|s| s.to_string()).collect(),
        ..When::default()
    };
    let split = when(&["redis / A"], &["redis A / replica B"]);
    assert!(split.network_holds(&faults, Micros::ms(1000), &known));
    assert!(split.network_holds(&faults, Micros::ms(2999), &known));
    assert!(!split.network_holds(&faults, Micros::ms(3000), &known), "healed");
    assert!(!split.network_holds(&faults, Micros::ms(999), &known), "not yet");
    assert!(!when(&["A / B"], &[]).network_holds(&faults, Micros::ms(1500), &known));
    assert!(!when(&[], &["A / nobody"]).network_holds(&faults, Micros::ms(1500), &known), "an unknown name holds nothing");
    assert!(when(&[], &[]).network_holds(&faults, Micros::ms(1500), &known));
    assert_eq!(When::groups("redis A / replica B"), Some((vec!["redis", "A"], vec!["replica", "B"])));
    for bad in ["redis A", "/ B", "A /", "A / B / C"] {
        assert_eq!(When::groups(bad), None, "{bad}");
    }
    let mut sc = scenario("redis-sentinel-split");
    sc.moments[1].when.apart.push("redis A replica".into());
    let e = sim::scenario::Scenario::parse(&sc.to_json()).expect_err("a bad entry is refused").to_string();
    assert!(e.contains("moments[1].when.apart[1]") && e.contains("\"redis A replica\" is not two groups"), "{e}");
}
