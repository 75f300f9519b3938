//! Every key moment of the library carries its witnesses (issue 49): the story's fingerprint at
//! its event on each run it was written for (`Moment::seen`, `sim::witness`), so that it is shown
//! on another run only where that run's story up to it is the same.
//!
//! When the engine or a scenario changes a run the moments were written for, this test fails
//! and names the moments: read each again on the run it names (`leaselab run ID`, `--fix`), and
//! if its words are still true there, write the new fingerprints with
//! `LEASELAB_BLESS=1 cargo test -p leaselab-sim --test witness`.

use sim::{library, witness};

#[test]
fn every_moment_carries_the_witnesses_of_the_runs_it_was_written_for() {
    let bless = std::env::var_os("LEASELAB_BLESS").is_some();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut stale = Vec::new();
    let (mut moments, mut unwitnessed) = (0, Vec::new());
    for s in library::all() {
        let want = witness::witnesses(&s);
        moments += want.len();
        let changed: Vec<usize> = (0..want.len()).filter(|&i| s.moments[i].seen != want[i]).collect();
        for (i, seen) in want.iter().enumerate().filter(|(_, seen)| seen.is_empty()) {
            let _ = seen;
            unwitnessed.push(format!("{} `{}`", s.id, s.moments[i].on));
        }
        if changed.is_empty() {
            continue;
        }
        if bless {
            write_seen(&dir.join(format!("{}.json", s.id)), &want);
        } else {
            for i in changed {
                let m = &s.moments[i];
                stale.push(format!("{} `{}`: seen {:?}, the runs give {:?} — “{}”", s.id, m.on, m.seen, want[i], m.text));
            }
        }
    }
    eprintln!("{moments} moments; {} shown on none of the runs they were written for", unwitnessed.len());
    let not_on = stale_not_on();
    assert!(not_on.is_empty(), "`not_on` names runs where `when` does not show the moment anyway:\n{}", not_on.join("\n"));
    assert!(
        stale.is_empty(),
        "{} moments' witnesses are not those of their runs (read each on its run; if it is still true, \
         LEASELAB_BLESS=1 cargo test -p leaselab-sim --test witness):\n{}",
        stale.len(),
        stale.join("\n")
    );
    // A moment shown on none of its scenario's runs has no witness, so nothing would keep it from
    // being shown wherever its `when` holds: the library has none.
    assert!(unwitnessed.is_empty(), "moments shown on none of the runs they were written for:\n{}", unwitnessed.join("\n"));
}

/// Each moment's `not_on` names a run it was written for on which its `when` alone shows it.
fn stale_not_on() -> Vec<String> {
    let mut out = Vec::new();
    for s in library::all().into_iter().filter(|s| s.moments.iter().any(|m| !m.not_on.is_empty())) {
        let mut bare = s.clone();
        bare.moments.iter_mut().for_each(|m| m.seen.clear());
        let runs: Vec<(&str, Vec<String>)> = witness::authored(&bare).into_iter().map(|(label, sc)| (label, shown(&sc))).collect();
        for m in s.moments.iter() {
            for label in &m.not_on {
                let key = format!("{}: {}", m.on, m.text);
                if !runs.iter().any(|(l, shown)| l == label && shown.contains(&key)) {
                    out.push(format!("{} `{}` not_on {label}", s.id, m.on));
                }
            }
        }
    }
    out
}

/// Writes each moment's `seen` into the scenario file, keeping the rest of it as it is.
fn write_seen(path: &std::path::Path, seen: &[Vec<String>]) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(pretty(&v), text, "{} is not in serde_json's pretty layout: cannot rewrite it safely", path.display());
    let moments = v["moments"].as_array_mut().expect("moments");
    assert_eq!(moments.len(), seen.len());
    for (m, seen) in moments.iter_mut().zip(seen) {
        let m = m.as_object_mut().unwrap();
        m.remove("seen");
        if !seen.is_empty() {
            m.insert("seen".into(), serde_json::json!(seen));
        }
    }
    std::fs::write(path, pretty(&v)).unwrap();
    eprintln!("wrote {}", path.display());
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

// ----- the runs of issue 49: false sentences the words-reading test let through ---------------

use sim::json::Value;
use sim::scenario::Setting;
use sim::Scenario;

fn set(sc: &Scenario, path: &str, value: Value) -> Scenario {
    sc.with_settings(&[Setting { path: path.into(), value }]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The moments shown on a run, by their `on` and the start of their text.
fn shown(sc: &Scenario) -> Vec<String> {
    let run = sim::run(sc).unwrap();
    sc.moments
        .iter()
        .filter(|m| run.find(&m.on).and_then(|id| run.moment(id)).is_some_and(|t| t.contains(m.text.as_str())))
        .map(|m| format!("{}: {}", m.on, m.text))
        .collect()
}

/// The moments with `words` are hidden on `sc` by their witnesses, where their `when` alone
/// shows them (so that this test fails where the witnesses do not do their work).
fn assert_hidden(sc: &Scenario, what: &str, words: &str) {
    let false_: Vec<String> = shown(sc).into_iter().filter(|m| m.contains(words)).collect();
    assert!(false_.is_empty(), "{}, {what}: shown, and false there: {false_:?}", sc.id);
    let mut bare = sc.clone();
    bare.moments.iter_mut().for_each(|m| m.seen.clear());
    assert!(shown(&bare).iter().any(|m| m.contains(words)), "{}, {what}: `when` alone does not show “{words}”", sc.id);
}

#[test]
fn the_paused_leader_s_write_is_not_said_to_land_over_b_s_when_b_s_landed_over_it() {
    let sc = library::get("k8s-lease-paused-leader").unwrap();
    let longer = set(&sc, "faults.1.pause.duration_ms", Value::from(18_900u64));
    assert_hidden(&longer, "the pause 18.9 s long", "over B's update");
    for id in ["k8s-lease-paused-leader", "k8s-lease-clock-rate"] {
        let fixed = library::get(id).unwrap().fixed().unwrap().unwrap();
        let Ok(sim::search::Outcome::Found(f, _)) = sim::search::search(&fixed, Default::default()) else {
            panic!("{id} --fix: the search finds a way to break it")
        };
        assert_hidden(&f.standalone(), "its fix's search find", "over B's update");
    }
}

#[test]
fn a_failover_after_the_key_was_shipped_is_not_said_to_lose_it() {
    let sc = library::get("failover-lost-lock").unwrap();
    let moved = set(&sc, "faults.0.failover.at_ms", Value::from(6_000u64));
    assert_eq!(sim::run(&moved).unwrap().verdict.verdict, sim::Safety::Safe, "the key reached the replica at 1 s");
    assert_hidden(&moved, "the failover at 6 s", "before shipping A's key");
    assert_hidden(&moved, "the failover at 6 s", "without A's key");
}

#[test]
fn a_kubernetes_lesson_switched_to_redis_says_nothing_of_client_go_or_the_lease() {
    let sc = library::get("k8s-lease-paused-leader").unwrap();
    let redis = set(&sc, "lock.kind", Value::from("redis"));
    for words in ["client-go", "the Lease"] {
        assert_hidden(&redis, "switched to Redis", words);
    }
}

#[test]
fn a_moment_s_witnesses_and_runs_are_checked_when_the_scenario_is_read() {
    let mut sc = library::get("lease-basics").unwrap();
    sc.moments[0].seen = vec!["not a fingerprint".into()];
    let e = sim::run(&sc).unwrap_err().to_string();
    assert!(e.contains("moments[0].seen[0]") && e.contains("16 hexadecimal digits"), "{e}");
    let mut sc = library::get("lease-basics").unwrap();
    sc.moments[1].not_on = vec!["solve".into()];
    let e = sim::run(&sc).unwrap_err().to_string();
    assert!(e.contains("moments[1].not_on[0]") && e.contains("\"solved\""), "{e}");
}

/// The moments the outside reading found false on the runs they were written for (issue 49's
/// audit of all 565 shown on them) are not shown there: their `not_on` names the run.
#[test]
fn the_moments_read_false_on_their_own_runs_are_not_shown_there() {
    let cases = [
        ("lease-basics", "A's compare-and-delete removed the key"),
        ("client-deadline", "A resumes exactly where it was"),
        ("failover-lost-lock", "The primary fails before shipping A's key"),
        ("same-owner-retry", "The second copy arrives first"),
        ("random-owner-not-token", "With a counter, B's token is always the larger one"),
        ("redlock-pause-after-acquire", "After the keys expire"),
        ("consensus-wait-expired", "although client2's key is gone"),
    ];
    for (id, words) in cases {
        let solved = sim::predict::solved(&library::get(id).unwrap()).unwrap().unwrap();
        assert_hidden(&solved, "its challenge solved", words);
    }
}
