//! The sentences issue 49's outside reading found false or misleading on reachable runs (ten
//! one-change edits and ten search finds, `examples/reachable_sample.rs`), each on its run, with
//! what the words must say there.

use sim::json::Value;
use sim::scenario::Setting;
use sim::{library, Scenario};

fn set(sc: &Scenario, settings: &[(&str, Value)]) -> Scenario {
    let s: Vec<Setting> = settings.iter().map(|(p, v)| Setting { path: (*p).into(), value: v.clone() }).collect();
    sc.with_settings(&s).unwrap_or_else(|e| panic!("{settings:?}: {e}"))
}

/// The verdict's findings and hazards, and the narration, as one text.
fn words(sc: &Scenario) -> String {
    let run = sim::run(sc).unwrap_or_else(|e| panic!("seed {}: {e}", sc.seed));
    sim::render::trace_text(&run, sc)
}

/// check-then-write as the search shrank it: A's pause ends at 9.524 s, its token is checked at
/// 9.528 s while its lease is valid, and the write is applied at 10.028 s, after the lease ran
/// out and after B read. The words told only the activation lesson (activation alone cannot
/// help: the check was already made), blamed the pause, and a first fix said the check was
/// "stale", where B's token reached the resource only later.
#[test]
fn a_check_then_write_find_names_the_gap_between_the_check_and_the_write() {
    let base = library::get("check-then-write").unwrap();
    let sc = set(&base, &[("faults.0.pause.at_ms", Value::from(1007u64)), ("faults.0.pause.duration_ms", Value::from(8517u64))]);
    let w = words(&sc);
    // The pause did not outlive the lease: the check came before it ran out, the write after.
    let gap = "its lease had run out at 10 s by its own clock; the resource had checked its token at 9.528 s, before then, and applied the write at 10.028 s without checking again";
    assert!(w.contains(gap), "seed {}: {w}", sc.seed);
    // No check could have refused it: activation and a check in the write's step, both.
    let why = "B's newer token had not reached the resource when it checked A's token 33, nor when it applied that write after B had read";
    assert!(w.contains(why) && w.contains("Both are needed"), "seed {}: {w}", sc.seed);
}

/// The same stale write where the pause outlives the lease (check-then-write as written): the
/// check came after the lease ran out, and the words do not claim it came before.
#[test]
fn a_check_made_after_the_lease_ran_out_is_not_told_as_made_before() {
    let sc = library::get("check-then-write").unwrap();
    let w = words(&sc);
    assert!(!w.contains("before then, and applied the write"), "seed {}: {w}", sc.seed);
}

/// token-reset's find: B's token 1 after the reset, A's stale 33 accepted after it. The words
/// said fencing "could not tell them apart"; it told them apart, the wrong way round.
#[test]
fn a_token_that_went_backwards_is_told_as_ranked_the_wrong_way() {
    let base = library::get("token-reset").unwrap();
    let sc = set(
        &base,
        &[
            ("faults.0.pause.at_ms", Value::from(2006u64)),
            ("faults.0.pause.duration_ms", Value::from(6014u64)),
            ("faults.1.crash.at_ms", Value::from(5999u64)),
        ],
    );
    let w = words(&sc);
    assert!(
        w.contains("B's newer grant came with token 1, not greater than A's 33, so the resource took A's stale write"),
        "seed {}: {w}",
        sc.seed
    );
    assert!(!w.contains("could not tell them apart"), "seed {}", sc.seed);
}

/// work-claim-queue without its pause: A finishes and releases, then B claims the job and runs
/// it again. Nobody is stale; the words said "fencing cannot stop the stale owner".
#[test]
fn two_holders_in_turn_are_not_called_a_stale_owner() {
    let mut sc = library::get("work-claim-queue").unwrap();
    sc.faults.clear();
    let w = words(&sc);
    assert!(w.contains("took effect twice"), "seed {}: {w}", sc.seed);
    assert!(!w.contains("stale owner"), "seed {}: {w}", sc.seed);
    // As written, A was stale (paused past its lease), and the sentence stands.
    let sc = library::get("work-claim-queue").unwrap();
    assert!(words(&sc).contains("fencing cannot stop the stale owner"), "seed {}", sc.seed);
}

/// consensus-fenced as the search shrank it: client1 is told its lease is gone after it has
/// written and sent its unlock. It no longer believes it holds the lock; the words said it
/// "goes on as if it still held the lock".
#[test]
fn a_notice_that_comes_while_releasing_does_not_say_the_client_goes_on_holding() {
    let base = library::get("consensus-fenced").unwrap();
    let sc = set(&base, &[("faults.0.pause.at_ms", Value::from(1011u64)), ("faults.0.pause.duration_ms", Value::from(8998u64))]);
    let w = words(&sc);
    let notice = w.lines().find(|l| l.contains("is told its lease is gone")).unwrap_or_else(|| panic!("seed {}: {w}", sc.seed));
    assert!(notice.contains("so its program goes on"), "seed {}: {notice}", sc.seed);
}

/// A Redlock double grant where the first holder released early: its grant held until the
/// release, and "grant of 123.652 ms" read as a length.
#[test]
fn a_double_grant_says_when_the_first_grant_was_made_and_until_when_it_held() {
    let sc = library::get("redlock-drift").unwrap();
    for (sc, label) in [(sc.clone(), "as written"), (sc.fixed().and_then(Result::ok).unwrap_or(sc), "fixed")] {
        let w = words(&sc);
        for line in w.lines().filter(|l| l.contains("double-grant at")) {
            assert!(line.contains("grant made at"), "{label}, seed {}: {line}", sc.seed);
            assert!(!line.contains("grant of"), "{label}, seed {}: {line}", sc.seed);
        }
    }
}

/// redlock-slow-acquire solved, with client1 paused right after the resource served its read:
/// "client1 had read version 0 at 1.007 s" hid that client1 got it 12 s later.
#[test]
fn a_read_received_long_after_it_was_served_says_both() {
    let base = library::get("redlock-slow-acquire").unwrap();
    let mut sc = sim::predict::solved(&base).expect("a challenge").expect("its solution applies");
    let mut pause = sc.faults[0].clone();
    *pause.at_ms_mut() = sim::time::Millis::new(1010);
    sc.faults.push(pause);
    let w = words(&sc);
    assert!(w.contains("had read version 0 at 1.007 s (served then; client1 got it at 13.01 s)"), "seed {}: {w}", sc.seed);
    // The two pauses of the same span are told once.
    assert!(!w.contains("13.01 s; client1 was paused from"), "seed {}: {w}", sc.seed);
}

/// "1 buffered message and timer are handled now" where one timer waited.
#[test]
fn one_thing_that_waited_for_a_pause_is_one() {
    let w = words(&library::get("client-deadline").unwrap());
    assert!(!w.contains("buffered message and timer"), "{w}");
    assert!(w.contains("the one message or timer that waited is handled now"), "{w}");
}

// The third reading (seed 3 of examples/reachable_sample).

/// redis-sentinel-split: B is granted the lock at 6.001 s, and A renews on the old primary at
/// 6.012 s. The double grant said A's grant was "still promised until 16.012 s", the term after
/// that later renewal.
#[test]
fn a_double_grant_says_what_was_promised_when_it_happened() {
    let sc = library::get("redis-sentinel-split").unwrap();
    let w = words(&sc);
    let line = w.lines().find(|l| l.contains("double-grant at 6.001 s")).unwrap_or_else(|| panic!("seed {}: {w}", sc.seed));
    assert!(line.contains("still promised until 11.003 s (A renewed it at 6.012 s, to 16.012 s)"), "seed {}: {line}", sc.seed);
}

/// A compare-and-extend that finds no key answers 0, as redsync's touchScript and PEXPIRE do
/// (SEMANTICS §1.3); only the release script answers -1. The model answered -1, and the
/// narration said "(reply -1)". lease-basics with A paused from the start for 5.998 s: its
/// renewal reaches redis a millisecond after the key expired.
#[test]
fn an_extend_that_finds_no_key_answers_zero() {
    let mut sc = library::get("lease-basics").unwrap();
    sc.faults = vec![sim::scenario::Fault::Pause(sim::scenario::fault::Pause {
        actor: "A".into(),
        at_ms: sim::time::Millis::new(0),
        duration_ms: sim::time::Millis::new(5_998),
    })];
    let w = words(&sc);
    let lines: Vec<&str> = w.lines().collect();
    let i = lines.iter().position(|l| l.contains("receives `compare-and-extend")).unwrap_or_else(|| panic!("seed {}: {w}", sc.seed));
    assert!(lines[i + 1].contains("finds no key: A's script changes nothing."), "seed {}: {}", sc.seed, lines[i + 1]);
    assert!(lines[i + 2].contains("sends `0` to A"), "seed {}: {}", sc.seed, lines[i + 2]);
    assert!(!w.contains("(reply -1)"), "seed {}", sc.seed);
}

/// k8s-lease-clock-rate: A's clock runs 30 % slow. Its RetryPeriod (2 s) is counted on that
/// clock, so its tries come 2 s apart by its own clock and about 2.857 s apart in true time; they
/// came 2 s apart in true time, and its renewals said "leads until 13.408 s at least" where its
/// next round began at 2.808 s by its own clock.
#[test]
fn a_client_s_timers_run_on_its_own_clock() {
    let sc = library::get("k8s-lease-clock-rate").unwrap();
    let run = sim::run(&sc).unwrap();
    let a = run.actor_id("A").unwrap();
    let tries: Vec<&sim::trace::Event> = run
        .events
        .iter()
        .filter(|e| e.actor == a && sim::narrate::Cx::new(&sc, &run).event(e).contains("last try at renewing got no answer"))
        .collect();
    assert!(tries.len() >= 3, "seed {}", sc.seed);
    for w in tries.windows(2) {
        let own = (w[1].local_us - w[0].local_us).get();
        let truth = (w[1].at_us - w[0].at_us).get();
        assert!((own - 2_000_000).abs() < 5_000, "seed {}: {own} µs apart by A's clock", sc.seed);
        assert!((truth - 2_857_143).abs() < 10_000, "seed {}: {truth} µs apart in true time", sc.seed);
    }
}

// The fourth reading (seed 4 of examples/reachable_sample).

/// delayed-write's violation: "Its write was held in the network …" came right after a
/// sentence about B, and read as B's write; the write held was A's.
#[test]
fn a_held_write_names_its_writer() {
    let sc = library::get("delayed-write").unwrap();
    let w = words(&sc);
    assert!(w.contains("A's write was held in the network from 2.009 s"), "seed {}: {w}", sc.seed);
    assert!(!w.contains("Its write was held"), "seed {}: {w}", sc.seed);
}

/// A finding points to another lesson by the title a reader knows, not by its id ("(the lesson
/// fresh-owner-not-yet-seen)": issue 50's scenario ids in prose).
#[test]
fn a_finding_names_a_lesson_by_its_title() {
    let lesson = library::get("fresh-owner-not-yet-seen").unwrap();
    assert_eq!(sim::checker::words::FRESH_OWNER_TITLE, lesson.title);
    // gc-pause-fenced as its search finds it: A's stale write lands after B's read.
    let base = library::get("gc-pause-fenced").unwrap();
    let w = words(&set(&base, &[("faults.0.pause.at_ms", Value::from(2008u64)), ("faults.0.pause.duration_ms", Value::from(9017u64))]));
    assert!(w.contains(&format!("(the lesson “{}”)", lesson.title)), "{w}");
    assert!(!w.contains("fresh-owner-not-yet-seen"), "{w}");
}
