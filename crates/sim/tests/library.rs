//! The scenario library: every verdict of DESIGN §1, computed by the checker from the run.

use sim::checker::words::{self, explanation};
use sim::library;
use sim::verdict::Kind;
use sim::Safety::{Safe, Unsafe};

/// DESIGN §1: (id, verdict, verdict of the fixed variant if the table has a fix).
const TABLE: &[(&str, sim::Safety, Option<sim::Safety>)] = &[
    ("lease-basics", Safe, None),
    ("holder-crash", Safe, None),
    ("unsafe-release", Unsafe, Some(Safe)),
    ("unchecked-renew", Unsafe, Some(Safe)),
    ("efficiency-lock", Safe, None),
    ("gc-pause-unfenced", Unsafe, Some(Safe)),
    ("gc-pause-fenced", Safe, None),
    ("longer-ttl", Unsafe, Some(Safe)),
    ("client-deadline", Unsafe, Some(Safe)),
    ("delayed-write", Unsafe, Some(Safe)),
    ("lost-contact", Unsafe, Some(Safe)),
    ("random-owner-not-token", Unsafe, Some(Safe)),
    ("check-then-write", Unsafe, Some(Safe)),
    ("fresh-owner-not-yet-seen", Unsafe, Some(Safe)),
    ("token-reset", Unsafe, Some(Safe)),
    ("non-fencing-downstream", Unsafe, Some(Safe)),
    ("same-owner-retry", Unsafe, Some(Safe)),
    ("idempotent-not-fenced", Unsafe, Some(Safe)),
    ("failover-lost-lock", Unsafe, Some(Safe)),
    ("redlock-happy", Safe, None),
    ("redlock-clock-jump", Unsafe, Some(Safe)),
    ("redlock-drift", Unsafe, Some(Safe)),
    ("redlock-restart", Unsafe, Some(Safe)),
    ("redlock-pause-after-acquire", Unsafe, Some(Safe)),
    ("redlock-delayed-write", Unsafe, Some(Safe)),
    ("redlock-slow-acquire", Safe, None),
    ("redlock-split-vote", Safe, None),
    ("consensus-fenced", Safe, None),
    ("consensus-quorum-loss", Safe, None),
    ("consensus-disk-stall", Safe, None),
    ("zookeeper-unfenced", Unsafe, Some(Safe)),
    ("zookeeper-fenced", Safe, None),
    ("k8s-lease-paused-leader", Unsafe, Some(Safe)),
    ("k8s-lease-clock-rate", Unsafe, Some(Safe)),
    ("k8s-lease-fenced", Safe, None),
    ("db-transaction", Safe, None),
    ("transaction-external-effect", Unsafe, Some(Safe)),
    ("work-claim-queue", Unsafe, Some(Safe)),
    ("chubby-lock-delay", Unsafe, Some(Safe)),
    ("etcd-10811", Unsafe, Some(Safe)),
    ("consensus-wait-expired", Unsafe, Some(Safe)),
    ("hbase-gc-pause", Safe, None),
    ("redisson-watchdog", Unsafe, Some(Safe)),
    ("redis-sentinel-split", Unsafe, Some(Safe)),
    ("github-fileserver-pair", Unsafe, Some(Safe)),
];

fn run(s: &sim::Scenario) -> sim::Run {
    sim::run(s).unwrap_or_else(|e| panic!("{} (seed {}) failed to run: {e}", s.id, s.seed))
}

#[test]
fn the_library_is_exactly_the_table() {
    let ids: Vec<String> = library::all().into_iter().map(|s| s.id).collect();
    let table: Vec<&str> = TABLE.iter().map(|t| t.0).collect();
    assert_eq!(ids, table);
}

#[test]
fn every_verdict_is_as_design_says() {
    for &(id, verdict, fixed) in TABLE {
        let s = library::get(id).expect(id);
        let r = run(&s);
        assert_eq!(r.verdict.verdict, verdict, "{id} (seed {}): {:#?}", s.seed, r.verdict.violations);
        match (fixed, s.fixed()) {
            (Some(want), Some(Ok(f))) => {
                let rf = run(&f);
                assert_eq!(rf.verdict.verdict, want, "{id} --fix (seed {}): {:#?}", f.seed, rf.verdict.violations);
            }
            (None, None) => {}
            (want, got) => panic!("{id}: fix expected {want:?}, scenario has {:?}", got.map(|r| r.is_ok())),
        }
    }
}

#[test]
fn unsafe_verdicts_rest_on_named_harm_with_explanations() {
    for &(id, verdict, _) in TABLE {
        let r = run(&library::get(id).expect(id));
        if verdict == Unsafe {
            for v in &r.verdict.violations {
                assert!(["lost-update", "out-of-order-write", "duplicate-effect"].contains(&v.property.as_str()), "{id}: {}", v.property);
                let text = explanation(&r, v);
                assert!(text.len() > 40, "{id}: explanation too thin: {text}");
                for a in words::actors(&r, v) {
                    assert!(text.contains(a), "{id}: the explanation does not name {a}: {text}");
                }
            }
        }
    }
}

#[test]
fn every_moment_narrates_an_event_of_the_default_run_its_fix_or_its_challenge() {
    for s in library::all() {
        let mut runs = vec![run(&s)];
        if let Some(Ok(f)) = s.fixed() {
            runs.push(run(&f));
        }
        if let Some(c) = &s.challenge {
            runs.push(run(&s.with_settings(&c.solution).expect("a challenge's solution is valid")));
        }
        for m in &s.moments {
            let narrated = runs.iter().any(|r| r.moments.iter().any(|(_, t)| t.contains(m.text.as_str())));
            assert!(narrated, "{}: moment `{}` matches no event of the run, its fix or its challenge's solution", s.id, m.on);
        }
    }
}

/// A key moment is shown only where its `when` holds (DESIGN §1; issue 13): on the run as
/// written, with its fix, and as the reader edits it. So a text that claims harm, two holders
/// or a token number carries the condition that makes the claim true, and is never shown on a
/// run where it is false.
#[test]
fn a_moment_that_claims_something_says_when_it_is_true() {
    use sim::verdict::Kind::*;
    let harm = ["update is lost", "overwrit", "twice", "corrupt", "booked again", "accepted after", "same email again"];
    let two = ["two holders", "still holds it", "lock too"];
    for s in library::all() {
        for m in &s.moments {
            let t = m.text.to_lowercase();
            let w = &m.when;
            if harm.iter().any(|h| t.contains(h)) {
                let said = w.finding.iter().any(|k| matches!(k, LostUpdate | OutOfOrderWrite | DuplicateEffect));
                assert!(said, "{}: moment `{}` claims harm: its `when` names the violation", s.id, m.on);
            }
            if two.iter().any(|h| t.contains(h)) {
                let said = w.overlap == Some(true) || w.finding.iter().any(|k| matches!(k, DoubleGrant | BeliefOverlap));
                assert!(said, "{}: moment `{}` claims two holders: its `when` says so", s.id, m.on);
            }
        }
    }
}

/// Every token a shown moment names is one the run issued, on every library run, its fix and
/// the run its challenge's solution makes.
#[test]
fn a_shown_moment_names_only_tokens_of_its_run() {
    for s in library::all() {
        let mut runs = vec![(s.clone(), run(&s))];
        if let Some(Ok(f)) = s.fixed() {
            let r = run(&f);
            runs.push((f, r));
        }
        if let Some(c) = &s.challenge {
            let solved = s.with_settings(&c.solution).unwrap_or_else(|e| panic!("{}: {e}", s.id));
            let r = run(&solved);
            runs.push((solved, r));
        }
        for (sc, r) in &runs {
            for e in r.moments() {
                let text = r.moment(e.id).unwrap_or_default();
                let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
                for pair in words.windows(2) {
                    if let ("token", Ok(n)) = (pair[0], pair[1].parse::<u64>()) {
                        let issued = r.tokens.iter().any(|t| t.1 == n);
                        assert!(issued, "{} (seed {}): a moment names token {n}, which this run never issued: {text}", sc.id, sc.seed);
                    }
                }
            }
        }
    }
}

#[test]
fn a_fixed_run_has_a_key_moment_where_the_fix_acts() {
    for s in library::all() {
        let Some(Ok(f)) = s.fixed() else { continue };
        let r = run(&f);
        assert!(
            r.moments().any(|e| matches!(
                e.kind,
                sim::EventKind::Rejected { .. }
                    | sim::EventKind::Duplicate { .. }
                    | sim::EventKind::KeyUnchanged { .. }
                    | sim::EventKind::LostLock { .. }
                    | sim::EventKind::Abandoned { .. }
                    | sim::EventKind::ReadServed { .. }
                    | sim::EventKind::Tally { ok: false, .. }
                    | sim::EventKind::EffectSent { deduplicated: true, .. }
                    // A node of a pair that declares its peer dead and, fenced first, waits.
                    | sim::EventKind::Service(sim::trace::ServiceEvent::Pacemaker(sim::wire::pacemaker::Event::PeerDead { active: false, .. }))
            )),
            "{}: the fixed run narrates no moment where the fix acts",
            s.id
        );
    }
}

#[test]
fn every_scenario_carries_its_teaching_text() {
    let chapters: Vec<&str> = library::CHAPTERS.iter().map(|c| c.0).collect();
    for s in library::all() {
        assert!(!s.title.is_empty() && s.story.len() > 100, "{}: story", s.id);
        assert!(!s.notice.is_empty(), "{}: notice", s.id);
        assert!(s.moments.len() >= 3, "{}: moments", s.id);
        assert!(!s.sources.is_empty(), "{}: sources", s.id);
        assert!(chapters.contains(&s.chapter.as_str()), "{}: chapter {}", s.id, s.chapter);
        if let Some(f) = &s.fix {
            assert!(!f.label.is_empty() && f.explain.len() > 40, "{}: fix text", s.id);
        }
    }
}

/// A plain `SET NX PX` issues no token: a Redis scenario with tokens says where they come from
/// (the acquire script's `INCR`, or a durable counter beside Redis).
#[test]
fn a_redis_token_is_said_to_come_from_the_acquire_script() {
    use sim::scenario::{CounterStore, LockKind, TokenKind};
    for s in library::all() {
        let counted = s.lock.kind == LockKind::Redis && s.token.source == TokenKind::Counter;
        let scripted = counted && s.token.store == CounterStore::Redis;
        let said = |what: &str| s.simplifications.iter().any(|x| x.contains(what));
        assert_eq!(scripted, said("INCR lock:fence"), "{}: the simplifications say the acquire script issues the token", s.id);
        assert_eq!(
            counted && !scripted,
            said("durable counter beside Redis"),
            "{}: the simplifications say the token comes from a counter",
            s.id
        );
    }
}

#[test]
fn the_gc_pause_story_names_both_clients_and_the_pause() {
    let r = run(&library::get("gc-pause-unfenced").unwrap());
    let v = r.verdict.violations.iter().find(|v| v.property == Kind::OutOfOrderWrite).expect("out-of-order write");
    assert_eq!(words::actors(&r, v), vec!["A", "B"]);
    let text = explanation(&r, v);
    assert!(text.contains("token 33") && text.contains("token 34"), "{text}");
    assert!(text.contains("A was paused from 1.5 s to 26.5 s"), "{text}");
}

#[test]
fn fencing_rejects_the_older_token() {
    let r = run(&library::get("gc-pause-fenced").unwrap());
    let rejected = r.events.iter().find(|e| matches!(e.kind, sim::EventKind::Rejected { token: Some(33), highest: 34, .. }));
    assert!(rejected.is_some(), "the resource must reject A's 33 after 34");
    assert_eq!(r.final_value, 1);
}

#[test]
fn hazards_explain_how_harm_came_about() {
    let cases = [
        ("unsafe-release", "foreign-release"),
        ("unchecked-renew", "foreign-renew"),
        ("token-reset", "token-regression"),
        ("failover-lost-lock", "double-grant"),
        ("gc-pause-unfenced", "belief-overlap"),
    ];
    for (id, hazard) in cases {
        let r = run(&library::get(id).unwrap());
        assert!(r.verdict.hazards.iter().any(|h| h.property.as_str() == hazard), "{id}: no {hazard} hazard in {:#?}", r.verdict.hazards);
    }
    let r = run(&library::get("holder-crash").unwrap());
    assert!(r.verdict.notes.iter().any(|n| n.property == Kind::Liveness), "holder-crash: the wait for expiry is noted");
}

#[test]
fn redlock_clock_jump_names_the_jump_and_both_majorities() {
    let r = run(&library::get("redlock-clock-jump").unwrap());
    assert!(!r.verdict.is_safe());
    let v = &r.verdict.violations[0];
    for needle in ["C's clock jumped forward by 15 s", "client1's majority was A, B, C", "client2's was C, D, E", "C voted for both"] {
        assert!(explanation(&r, v).contains(needle), "missing `{needle}` in: {}", explanation(&r, v));
    }
}

#[test]
fn redlock_narrates_the_validity_arithmetic() {
    let happy = library::get("redlock-happy").unwrap();
    let r = run(&happy);
    let tally = r.events.iter().find(|e| matches!(e.kind, sim::EventKind::Tally { ok: true, .. })).expect("a successful round");
    let tally = sim::narrate::text(&happy, &r, tally);
    // SEMANTICS §2.2: validity = TTL − elapsed − (TTL × 0.01 + 2 ms).
    assert!(tally.contains("5 of 5 (A, B, C, D, E)") && tally.contains("validity 10000 − ") && tally.contains(" − 102 = "), "{}", tally);
    let slow_sc = library::get("redlock-slow-acquire").unwrap();
    let slow = run(&slow_sc);
    let rejected = slow
        .events
        .iter()
        .find(|e| matches!(e.kind, sim::EventKind::Tally { ok: false, ref votes, .. } if votes.len() == 5))
        .expect("five late votes");
    let rejected = sim::narrate::text(&slow_sc, &slow, rejected);
    assert!(rejected.contains("the time is used up"), "{rejected}");
}

#[test]
fn consensus_wait_expired_names_the_unchecked_session() {
    let r = run(&library::get("consensus-wait-expired").unwrap());
    let v = &r.verdict.violations[0];
    let text = explanation(&r, v);
    assert!(text.contains("without checking its session") && text.contains("etcd-io/etcd#11456"), "{text}");
    let q = run(&library::get("consensus-quorum-loss").unwrap());
    assert!(
        q.verdict
            .notes
            .iter()
            .any(|n| explanation(&q, n).starts_with("From 2 s, when a majority of the members could no longer be reached, to 15 s")),
        "{:#?}",
        q.verdict.notes
    );
}

/// Predict mode: every question's right answer, as its author wrote it, is what the engine
/// computes; and it is a prediction (what proves it comes at or after where it is asked).
#[test]
fn every_predict_answer_is_what_the_engine_computes() {
    let mut asked = 0;
    for s in library::catalog() {
        let r = run(s);
        assert!(!s.questions.is_empty(), "{} (seed {}) has no predict question", s.id, s.seed);
        for (i, q) in s.questions.iter().enumerate() {
            let a = sim::predict::answer(&r, q).unwrap_or_else(|e| panic!("{} question {i} (seed {}): {e}", s.id, s.seed));
            let matching: Vec<usize> = q.choices.iter().enumerate().filter(|(_, c)| c.value == a.value).map(|(n, _)| n).collect();
            assert_eq!(
                matching,
                vec![q.answer],
                "{} question {i} (seed {}) “{}”: the engine computes {} (shown at step {}), which is choice(s) {matching:?}; the scenario says choice {}",
                s.id,
                s.seed,
                q.ask,
                a.value,
                a.proof + 1,
                q.answer
            );
            assert!(a.proof >= a.asked, "{} question {i}: asked at step {} but proved at step {}", s.id, a.asked + 1, a.proof + 1);
            let mut values: Vec<String> = q.choices.iter().map(|c| c.value.to_string()).collect();
            values.sort();
            values.dedup();
            assert_eq!(values.len(), q.choices.len(), "{} question {i}: two choices have the same value", s.id);
            asked += 1;
        }
        // Questions are asked in the order of the run.
        let at: Vec<usize> = s.questions.iter().map(|q| r.find(&q.at).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] <= w[1]), "{}: questions out of order: {at:?}", s.id);
    }
    assert!(asked >= 40, "only {asked} questions in the library");
}

/// The check above can fail: change the model's input and a written answer becomes wrong.
/// Predict mode shows the scenario's setup (not its story) with a question, and the question
/// itself: neither may give the answer away. Numbers that are answers must not appear in them,
/// nor the words that tell an outcome.
#[test]
fn no_question_gives_its_answer_away() {
    let outcome_words = ["accept", "reject", "refus", "overwrit", "corrupt", "twice", "duplicate", "unsafe", "stale"];
    for s in library::catalog() {
        assert!(!s.setup.is_empty(), "{}: a scenario with predict questions has a setup", s.id);
        let setup = s.setup.to_lowercase();
        for w in outcome_words {
            assert!(!setup.contains(w), "{}: the setup tells an outcome (“{w}”): {}", s.id, s.setup);
        }
        let r = run(s);
        for (i, q) in s.questions.iter().enumerate() {
            let a = sim::predict::answer(&r, q).unwrap();
            let shown = format!("{} {}", s.setup, q.ask);
            if let Some(n) = a.value.as_u64() {
                // Whole numbers only: the 1 of "client1" is a name.
                let words: Vec<&str> = shown
                    .split(|c: char| !c.is_ascii_alphanumeric() && c != '.')
                    .map(|w| w.trim_end_matches('.'))
                    .filter(|w| !w.is_empty())
                    .collect();
                assert!(
                    !words.contains(&n.to_string().as_str()),
                    "{} question {i}: the answer {n} is written in the setup or the question: {shown}",
                    s.id
                );
            }
        }
    }
}

#[test]
fn a_changed_model_makes_a_written_answer_wrong() {
    let s = library::get("gc-pause-unfenced").unwrap();
    let q = s.questions.iter().find(|q| matches!(q.fact, sim::predict::Fact::Write { .. })).expect("a question about a write");
    let right = sim::predict::answer(&run(&s), q).unwrap();
    assert_eq!(right.right, Some(q.answer));
    let fenced = s.fixed().unwrap().unwrap();
    let wrong = sim::predict::answer(&run(&fenced), q).unwrap();
    assert_ne!(wrong.right, Some(q.answer), "fencing should change what happens to the write");
}

/// The course's challenges: not already done by the default run, done by their solution.
#[test]
fn every_challenge_is_open_and_its_solution_reaches_the_goal() {
    for s in library::catalog() {
        let c = s.challenge.as_ref().unwrap_or_else(|| panic!("{} has no challenge", s.id));
        assert_ne!(run(s).verdict.verdict, c.goal, "{} (seed {}): the default run already meets the challenge", s.id, s.seed);
        let solved = sim::predict::solved(s).unwrap().unwrap_or_else(|e| panic!("{}: the solution does not apply: {e}", s.id));
        let r = run(&solved);
        assert_eq!(
            r.verdict.verdict, c.goal,
            "{} (seed {}): the solution gives {:?}: {:#?}",
            s.id, s.seed, r.verdict.verdict, r.verdict.violations
        );
        if let Some(fix) = &s.fix {
            assert_ne!(c.solution, fix.set, "{}: the challenge's solution is just the one-click fix", s.id);
        }
    }
}

/// The deadline a client knows at a step is its last grant or renewal so far, not one to come.
#[test]
fn the_lease_deadline_at_a_step_ignores_renewals_still_to_come() {
    let s = library::get("lease-basics").unwrap();
    let r = run(&s);
    let a = r.actor_id("A").unwrap();
    let before = r.find("work A").unwrap();
    let after = r.find("renewed A").unwrap();
    let belief_end = r.intervals.beliefs.iter().find(|b| b.client == a).unwrap().valid_until_us;
    assert_eq!(r.lease_deadline(a, before), Some(10 * sim::time::MS * 1000), "seed {}", s.seed);
    assert!(r.lease_deadline(a, after).unwrap() > 10 * sim::time::MS * 1000);
    assert_eq!(r.local_at(a, belief_end), r.lease_deadline(a, after).unwrap(), "the belief ends at the last renewal's deadline");
}

/// Chubby's lock-delay on ZooKeeper's recipe (service/zookeeper/server/delay.rs):
/// chubby-lock-delay with its lock service switched to ZooKeeper, the same 12 s now its session
/// timeout (kept alive by pings every third of it, as the consensus keepalives were), has the
/// consensus run's verdicts: the 90 s pause outlasts the timeout plus the 60 s delay (unsafe),
/// the challenge's 40 s pause does not (safe), and the sequencer (the znode's czxid) fixes it.
/// Without the delay, the 40 s pause is unsafe on ZooKeeper: the delay is what made it safe.
#[test]
fn chubby_lock_delay_on_zookeeper_has_the_consensus_runs_verdicts() {
    use sim::scenario::{LockKind, Setting};
    let set = |path: &str, value: sim::json::Value| Setting { path: path.into(), value };
    let s = library::get("chubby-lock-delay").unwrap();
    let zk = s.with_settings(&[set("lock.kind", "zookeeper".into())]).expect("ZooKeeper takes a lock-delay");
    assert_eq!((zk.lock.kind, zk.lock.ttl_ms.get(), zk.lock.lock_delay_ms.get()), (LockKind::ZooKeeper, 12_000, 60_000));
    let challenge = &s.challenge.as_ref().expect("a challenge").solution;
    for (sc, kind) in [(&s, "consensus"), (&zk, "zookeeper")] {
        let r = run(sc);
        assert_eq!(r.verdict.verdict, Unsafe, "{kind} (seed {}): the 90 s pause outlasts the delay", sc.seed);
        let until = r.events.iter().find_map(|e| match e.kind {
            sim::EventKind::Quorum(sim::QuorumEvent::LockDelayed { until_us, .. }) => Some(until_us),
            _ => None,
        });
        let until = until.unwrap_or_else(|| panic!("{kind}: A's loss holds the lock back"));
        let b = r.actor_id("B").unwrap();
        let b_granted = r.grants.iter().find(|g| g.client == b).expect("B gets the lock").at_us;
        assert!(
            b_granted >= until && until >= 72 * sim::time::MS * 1000,
            "{kind}: B is granted at {b_granted} µs, the delay ends at {until} µs"
        );
        let fixed = sc.fixed().expect("a fix").expect("the fix applies");
        assert_eq!(run(&fixed).verdict.verdict, Safe, "{kind}: the sequencer is the fix");
        let short = sc.with_settings(challenge).expect("the challenge applies");
        assert_eq!(run(&short).verdict.verdict, Safe, "{kind}: the delay covers a 40 s pause");
        let undelayed = short.with_settings(&[set("lock.lock_delay_ms", 0.into())]).unwrap();
        assert_eq!(run(&undelayed).verdict.verdict, Unsafe, "{kind}: without the delay, B writes during A's 40 s pause");
    }
}

/// github-fileserver-pair as a reader edits it: what it shows stays true of the run. A crash of
/// A instead of the freeze ends A's hold (a node has no lease that outlives it), so B's
/// takeover is no double grant; with the challenge's deadtime A's program ends and it leaves
/// cleanly, which ends its grant too; and the moments about the freeze, the heal and the pair
/// going down are shown only where there was a freeze, a heal and two power cuts.
#[test]
fn github_fileserver_pair_says_only_what_each_edited_run_shows() {
    use sim::scenario::Setting;
    let set = |path: &str, json: &str| Setting { path: path.into(), value: sim::json::parse(json).unwrap() };
    let s = library::get("github-fileserver-pair").unwrap();
    let shown = |r: &sim::Run| r.moments.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>().join("\n");
    let edited = |changes: &[Setting]| run(&s.with_settings(changes).expect("a valid edit"));
    let double_grants = |r: &sim::Run| r.verdict.hazards.iter().filter(|f| f.property == sim::verdict::Kind::DoubleGrant).count();

    let default = run(&s);
    assert_eq!(double_grants(&default), 1, "seed {}: B takes over while A runs", s.seed);
    let said = shown(&default);
    assert!(said.contains("The request cannot cross the freeze") && said.contains("the pair is down"), "{said}");

    let crash = edited(&[set("faults", r#"[{"crash": {"actor": "A", "at_ms": 10000}}]"#)]);
    assert_eq!((crash.verdict.verdict, double_grants(&crash)), (Safe, 0), "seed {}: A's hold ended with its crash", s.seed);
    let said = shown(&crash);
    for claim in ["freeze", "get through", "pair is down", "Two nodes are now active"] {
        assert!(!said.contains(claim), "a crash, not a freeze: {claim:?} in\n{said}");
    }

    let challenge = edited(&s.challenge.as_ref().unwrap().solution);
    assert_eq!((challenge.verdict.verdict, double_grants(&challenge)), (Safe, 0), "seed {}: A left cleanly before B took over", s.seed);

    let paused = edited(&[set("faults", r#"[{"pause": {"actor": "B", "at_ms": 10000, "duration_ms": 30000}}]"#)]);
    let said = shown(&paused);
    assert!(paused.find("powered-off B").is_some() && !said.contains("pair is down"), "only B is cut: {said}");

    // A deadtime of 30 s: A writes at 48 s before B's first write, so it overwrites nothing.
    let late = edited(&[set("lock.ttl_ms", "30000")]);
    assert_eq!(late.verdict.verdict, Unsafe, "seed {}", s.seed);
    let said = shown(&late);
    assert!(!said.contains("A writes over what B wrote"), "{said}");
    assert!(!said.contains("Each node hears the other again"), "A is cut before it hears B: {said}");
}
