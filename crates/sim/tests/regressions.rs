//! One test per defect found from outside, each on its reproduction (`tests/repro/`, copied
//! from `../shared/repro/`), named after what it must do.

use sim::checker::words::explanation;
use sim::scenario::Scenario;
use sim::time::{Micros, Millis};
use sim::trace::Proposal;
use sim::verdict::{Cause, Kind};
use sim::{EventKind, QuorumEvent, Safety};

fn repro(name: &str) -> Scenario {
    let path = format!("{}/tests/repro/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A write sent in the same step as a Redlock acquisition carried no grant (the driver patched
/// it in afterwards), and the checker indexed the grants with a placeholder and panicked.
#[test]
fn a_write_right_after_a_redlock_acquisition_carries_its_grant() {
    let s = repro("redlock-write-right-after-acquire");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    assert_eq!(run.applied.len(), 2, "seed {}", s.seed);
    for w in &run.applied {
        let g = w.grant.expect("a write made under a Redlock grant");
        assert_eq!(run.grants[g].client, w.client, "seed {}", s.seed);
    }
    // Both charges took effect: the request was not deduplicated.
    assert_eq!(run.verdict.verdict, Safety::Unsafe);
    assert!(run.verdict.violations.iter().any(|v| v.property == Kind::DuplicateEffect));
}

/// With fencing on, the stale holder's tokenless write was accepted after the newer one: a
/// false SAFE. It carries token 1 now, and is rejected.
#[test]
fn a_stale_redlock_write_carries_its_token_and_is_fenced() {
    let s = repro("redlock-tokenless-stale-write");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let alice = run.actors.iter().position(|a| a.name == "alice").unwrap();
    let rejected = run.events.iter().any(|e| matches!(e.kind, EventKind::Rejected { client, token: Some(1), .. } if client == alice));
    assert!(rejected, "alice's token-1 write is rejected (seed {})", s.seed);
    assert_eq!(run.applied.len(), 1);
    assert_eq!(run.applied[0].token, Some(2));
    assert!(run.verdict.is_safe());
    // Turned off, the same stale write is accepted out of order: the check can fail.
    let mut unfenced = s.clone();
    unfenced.resource.fencing = sim::scenario::Fencing::None;
    let run = sim::run(&unfenced).unwrap();
    let late = run.verdict.violations.iter().find(|v| v.property == Kind::OutOfOrderWrite).expect("an out-of-order write");
    assert!(explanation(&run, late).contains("token 1"), "{}", explanation(&run, late));
}

/// The checker built one sentence per pair of overlapping grants: 17.6 s and 4.9 GB.
#[test]
fn the_checker_writes_out_a_bounded_number_of_findings() {
    let s = repro("consensus-many-double-grants");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let v = &run.verdict;
    for list in [&v.violations, &v.hazards, &v.notes] {
        let mut per_kind = std::collections::BTreeMap::new();
        for f in list.iter() {
            *per_kind.entry(f.property.as_str()).or_insert(0) += 1;
        }
        assert!(per_kind.values().all(|&n| n <= sim::checker::LISTED_PER_KIND), "{per_kind:?}");
    }
    let note = v.notes.iter().find(|n| n.property == Kind::Omitted).expect("the rest are counted");
    assert!(matches!(note.cause, Cause::Omitted { kind: Kind::DoubleGrant, more } if more > 0), "{note:?}");
    let text = explanation(&run, note);
    assert!(text.contains("Only the first 32 double-grant findings are listed; "), "{text}");
}

/// The app's event limit stops the engine there, instead of after 150,000 events.
#[test]
fn a_run_stops_at_the_callers_event_limit() {
    let s = repro("consensus-many-double-grants");
    match sim::run_within(&s, 10_000) {
        Err(sim::RunError::TooManyEvents { limit, at_us, .. }) => {
            assert_eq!(limit, 10_000);
            let full = sim::run(&s).unwrap();
            assert_eq!(at_us, full.events[10_000].at_us, "it stopped at the first event past the limit");
        }
        other => panic!("expected TooManyEvents, got {:?}", other.map(|r| r.events.len())),
    }
}

/// A pause in the middle of `work` did not delay it: the work timer ran through the pause, and
/// A wrote at 10.5 s, before B's grant. A pause computes nothing: the 4.5 s of work left take
/// their full time after the resume, and A's write lands after B's read and write.
#[test]
fn a_pause_freezes_the_work_it_interrupts() {
    let s = repro("pause-during-work");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let a = run.actors.iter().position(|x| x.name == "A").unwrap();
    let began = run.events.iter().find(|e| e.actor == a && matches!(e.kind, EventKind::Work { .. })).unwrap().at_us;
    let pause = run.intervals.pauses.iter().find(|p| p.actor == a).unwrap();
    let written = run.applied.iter().find(|w| w.client == a).expect("A's write is applied").at_us;
    // Work of 5 s, of which (pause start − began) was done before the pause.
    let done_at = pause.to_us + (Micros::us(5_000_000) - (pause.from_us - began));
    assert!(
        written >= done_at && written < done_at + Micros::us(10_000),
        "A's write at {written} µs, work done at {done_at} µs (seed {})",
        s.seed
    );
    assert_eq!(run.verdict.verdict, Safety::Unsafe, "seed {}", s.seed);
    assert!(run.verdict.violations.iter().any(|v| v.property == Kind::LostUpdate));
}

/// A 6 s step of the consensus leader's wall clock ended client1's lease at 4 s. etcd's lessor
/// measures TTLs on Go's monotonic clock (SEMANTICS §4): the lease lives its 10 s, and client2
/// is granted only after client1 releases.
#[test]
fn a_wall_clock_jump_on_the_consensus_leader_does_not_end_a_lease() {
    let s = repro("consensus-leader-clock-jump");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    assert!(
        !run.events.iter().any(|e| matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaseExpired { .. }))),
        "no lease expires (seed {})",
        s.seed
    );
    assert!(run.verdict.is_safe(), "seed {}: {:?}", s.seed, run.verdict.violations);
    assert_eq!(run.applied.len(), 2);
    // Drift is still measured: the same clock running 50% fast does end the lease early.
    let mut fast = s.clone();
    fast.faults.retain(|f| !matches!(f, sim::scenario::Fault::ClockJump(_)));
    fast.faults.push(sim::scenario::Fault::Drift(sim::scenario::fault::Drift { actor: "m1".into(), at_ms: Millis::new(0), ppm: 500_000 }));
    let run = sim::run(&fast).unwrap();
    let expired = run
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaseExpired { .. })))
        .expect("a fast clock ends the lease");
    assert!(expired.at_us < Micros::us(9_000_000), "at {} µs", expired.at_us);
}

/// A paused consensus leader was never replaced, and on resume it revoked a lease that its
/// client had kept alive. The followers elect a new leader after the election timeout, which
/// refreshes the lease (SEMANTICS §4); the old leader steps down when it resumes.
#[test]
fn a_paused_consensus_leader_is_replaced() {
    let s = repro("consensus-paused-leader");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let id = |n: &str| run.actors.iter().position(|a| a.name == n).unwrap();
    let elected = run.events.iter().find(|e| e.actor == id("m2") && matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaderElected { .. })));
    assert_eq!(elected.map(|e| e.at_us), Some(Micros::us(3_000_000)), "m2 leads one election timeout after m1's pause (seed {})", s.seed);
    assert!(run.events.iter().any(|e| e.actor == id("m1") && e.kind == EventKind::Quorum(QuorumEvent::SteppedDown { leader: id("m2") })));
    assert!(
        !run.events.iter().any(|e| matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaseExpired { .. }))),
        "client1 kept its lease alive"
    );
    assert!(run.verdict.is_safe(), "seed {}: {:?}", s.seed, run.verdict.violations);
}

/// zookeeper-unfenced: A received "session expired" at 12.507 s and wrote at 13.029 s, and
/// nothing said that its code had ignored the notice (as consensus-fenced's client1 ignored
/// "lease not found"). The model keeps the client going, as code does that never handles the
/// Expired event (or etcd's `session.Done()`); the trace says so where the notice arrives,
/// and the scenario's simplifications say it.
#[test]
fn a_client_that_ignores_its_session_ending_is_told_so_on_the_timeline() {
    for (id, client, notice) in [("zookeeper-unfenced", "A", "session expired"), ("consensus-fenced", "client1", "lease not found")] {
        let s = sim::library::get(id).unwrap();
        let run = sim::run(&s).unwrap_or_else(|e| panic!("{id}, seed {}: {e}", s.seed));
        let c = actor(&run, client);
        let told =
            run.events.iter().position(|e| e.actor == c && matches!(e.kind, EventKind::Receive { msg, .. } if run.what(msg) == notice));
        let told = told.unwrap_or_else(|| panic!("{id}: {client} is told `{notice}`"));
        let next = &run.events[told + 1];
        assert_eq!(next.kind, EventKind::NoticeIgnored { holding: true }, "{id}");
        let text = sim::narrate::text(&s, &run, next);
        assert!(text.starts_with(&format!("{client} is told")) && text.contains("goes on as if it still held the lock"), "{id}: {text}");
        let later_write = run.events[told..]
            .iter()
            .any(|e| matches!(e.kind, EventKind::Accepted { client: w, .. } | EventKind::Rejected { client: w, .. } if w == c));
        assert!(later_write, "{id}: {client} writes after the notice");
        assert!(s.simplifications.iter().any(|t| t.contains("goes on as if it still held the lock")), "{id}: the simplifications say it");
    }
}

/// A Redis node paused from 8 s to 14 s "expired" A's key at 11.002 s, in the middle of its pause.
/// A stopped process runs neither its cron's active expiry nor a lookup's passive one
/// (SEMANTICS §1.4): the key is seen expired when the node runs again, at 14 s.
#[test]
fn a_paused_redis_node_expires_nothing_until_it_runs_again() {
    use sim::scenario::{fault, Fault};
    let mut s = sim::library::get("gc-pause-unfenced").unwrap();
    // A, paused from 1.5 s, holds its key (due to expire at 11.002 s) through the node's pause.
    s.faults.push(Fault::Pause(fault::Pause { actor: "redis".into(), at_ms: Millis::new(8_000), duration_ms: Millis::new(6_000) }));
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let redis = actor(&run, "redis");
    let expired: Vec<Micros> =
        run.events.iter().filter(|e| e.actor == redis && matches!(e.kind, EventKind::KeyExpired { .. })).map(|e| e.at_us).collect();
    assert_eq!(expired.first(), Some(&Micros::us(14_000_000)), "A's key, at the resume (seed {})", s.seed);
    for p in run.intervals.pauses.iter().filter(|p| p.actor == redis) {
        assert!(!expired.iter().any(|&t| p.from_us <= t && t < p.to_us), "expired while paused (seed {})", s.seed);
    }
}

/// "A learns it no longer holds the lock" was said of a client that merely gave up: its renewal
/// timed out against a paused Redis, or its deadline check found too little time left. It
/// learned nothing; it stopped on its own judgment, and the trace says so.
#[test]
fn a_client_that_gives_up_on_its_own_judgment_is_not_said_to_learn_it_lost_the_lock() {
    use sim::scenario::{fault, Fault, Step};
    let mut renew = sim::library::get("lease-basics").unwrap();
    renew.faults = vec![Fault::Pause(fault::Pause { actor: "redis".into(), at_ms: Millis::new(3_000), duration_ms: Millis::new(6_000) })];
    let mut deadline = sim::library::get("client-deadline").unwrap();
    for step in &mut deadline.clients[0].steps {
        if let Step::CheckDeadline { margin_ms } = step {
            *margin_ms = Millis::new(5_000);
        }
    }
    for (s, why) in [(renew, "its renewal got no reply"), (deadline, "its deadline is only")] {
        let run = sim::run(&s).unwrap_or_else(|e| panic!("{}, seed {}: {e}", s.id, s.seed));
        let a = actor(&run, "A");
        assert!(!run.events.iter().any(|e| e.actor == a && matches!(e.kind, EventKind::LostLock { .. })), "{}", s.id);
        let gave_up = run.events.iter().find(|e| e.actor == a && matches!(e.kind, EventKind::Abandoned { .. }));
        let text = sim::narrate::text(&s, &run, gave_up.unwrap_or_else(|| panic!("{}: A gives up", s.id)));
        assert!(text.starts_with("A gives up the lock on its own judgment and stops: ") && text.contains(why), "{}: {text}", s.id);
    }
}

/// zookeeper-unfenced: B finished at 8.055 s and fell silent, and the ensemble expired its
/// session a timeout later. A program that ends closes its session, as `zk.close()` does
/// (SEMANTICS §5): B sends closeSession, pings no more, and no expiry of its session follows.
#[test]
fn a_zookeeper_client_whose_program_ends_closes_its_session() {
    let s = sim::library::get("zookeeper-unfenced").unwrap();
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let b = actor(&run, "B");
    let done = run.events.iter().position(|e| e.actor == b && matches!(e.kind, EventKind::Done { .. })).expect("B finishes");
    let sent: Vec<String> = run.events[done..]
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Send { msg, .. } if e.actor == b => Some(run.what(msg)),
            _ => None,
        })
        .collect();
    assert_eq!(sent, ["closeSession 0x2"], "seed {}", s.seed);
    assert!(
        !run.events.iter().any(|e| e.kind == EventKind::Quorum(QuorumEvent::LeaseExpired { client: b })),
        "B's session is closed, not expired"
    );
}

fn actor(run: &sim::Run, name: &str) -> usize {
    run.actors.iter().position(|a| a.name == name).unwrap_or_else(|| panic!("no actor {name}"))
}

/// Deleting a key that was already gone committed a new revision and said "released the lock".
/// etcd makes no revision for a delete that removes nothing. (The copy adds a drop of two
/// keepalives: with work frozen by the pause, a keepalive's "lease not found" now comes first.)
#[test]
fn an_unlock_of_a_missing_key_makes_no_revision() {
    let s = repro("consensus-unlock-missing-key");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let revoked = run.events.iter().find_map(|e| match &e.kind {
        EventKind::Quorum(QuorumEvent::Committed { what: Proposal::Revoke { .. }, revision }) => Some(*revision),
        _ => None,
    });
    let unchanged = run.events.iter().find_map(|e| match &e.kind {
        EventKind::Quorum(QuorumEvent::Unchanged { what: Proposal::Unlock { .. }, revision }) => Some(*revision),
        _ => None,
    });
    assert!(revoked.is_some() && unchanged == revoked, "the delete leaves the revision at the revoke's (seed {})", s.seed);
    assert!(!run.events.iter().any(|e| matches!(&e.kind, EventKind::Quorum(QuorumEvent::Committed { what: Proposal::Unlock { .. }, .. }))));
    let c1 = actor(&run, "client1");
    assert!(run.events.iter().any(|e| e.actor == c1 && e.kind == EventKind::Released { removed: false }));
    assert!(run
        .events
        .iter()
        .any(|e| sim::narrate::text(&s, &run, e) == "client1's unlock deleted nothing: its key was already gone, revoked with its lease."));
}

/// A lost "queued" reply made client2 retry with a new lease and key; the orphan key (which was
/// even granted the lock) blocked everyone for a whole TTL. etcd's mutex keeps one session and
/// one key per client and re-reads it on retry.
#[test]
fn a_retried_consensus_lock_request_keeps_its_key() {
    let s = repro("consensus-retry-orphan-key");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let c2 = actor(&run, "client2");
    let puts = run
        .events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Quorum(QuorumEvent::Committed { what: Proposal::Lock { client, has_key: false }, .. }) if *client == c2))
        .count();
    assert_eq!(puts, 1, "one key for client2 (seed {})", s.seed);
    assert!(run.events.iter().any(|e| e.kind == EventKind::Quorum(QuorumEvent::Reread { client: c2, rev: 3 })));
    let held = run.events.iter().find(|e| e.actor == c2 && matches!(e.kind, EventKind::Acquired { .. })).expect("client2 gets the lock");
    assert!(held.at_us < Micros::us(4_000_000), "right after its retry, not a TTL later: {} µs", held.at_us);
    assert!(!run.events.iter().any(|e| matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaseExpired { .. }))));
    // Its deadline counts from its first request, which created the lease.
    let EventKind::Acquired { until_local_us, .. } = held.kind else { unreachable!() };
    assert!(until_local_us <= Micros::us(12_000_000), "{until_local_us}");
}

/// A release that got no answer (no quorum) was narrated as "its key was already gone or
/// someone else's". It says that no answer came.
#[test]
fn a_release_without_an_answer_says_so() {
    let s = repro("consensus-release-no-quorum");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let text: Vec<String> = run.events.iter().map(|e| sim::narrate::text(&s, &run, e)).collect();
    assert!(text.iter().any(|t| t.contains("timed out waiting for an answer to its release")), "seed {}", s.seed);
    assert!(!text.iter().any(|t| t.contains("already gone")));
    assert!(!run.events.iter().any(|e| matches!(e.kind, EventKind::Released { .. })));
}

/// The leader's "queued" event said "m1's key is in place": the key is the waiting client's.
#[test]
fn only_the_waiting_client_says_its_key_is_queued() {
    let s = repro("consensus-queued-narration");
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let c2 = actor(&run, "client2");
    let queued: Vec<_> =
        run.events.iter().enumerate().filter(|(_, e)| matches!(e.kind, EventKind::Quorum(QuorumEvent::Queued { .. }))).collect();
    assert_eq!(queued.len(), 1, "seed {}", s.seed);
    assert_eq!(queued[0].1.actor, c2);
    assert!(sim::narrate::text(&s, &run, queued[0].1).starts_with("client2's key is in place"));
}

/// The etcd-like client timed its keepalives from the lock reply: paused from 3 ms for 7 s
/// (under the 10 s TTL), it woke at 7.003 s and sent its first keepalive at 10.336 s, after the
/// leader had revoked its lease at 10.005 s, and client2 took the lock. In etcd the session's
/// keepalive is due from the grant, so the overdue keepalive goes out as the client wakes.
#[test]
fn an_etcd_client_paused_for_less_than_its_ttl_keeps_its_lease() {
    use sim::scenario::{fault, Fault, Fencing, Step};
    let mut s = sim::library::get("consensus-fenced").unwrap();
    s.resource.fencing = Fencing::None;
    s.faults = vec![Fault::Pause(fault::Pause { actor: "client1".into(), at_ms: Millis::new(3), duration_ms: Millis::new(7000) })];
    s.clients[0].steps[2] = Step::Work { ms: Millis::new(5000) };
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let client1 = run.actors.iter().position(|a| a.name == "client1").unwrap();
    let first_keepalive = run
        .intervals
        .messages
        .iter()
        .enumerate()
        .find(|(id, m)| m.from == client1 && run.what(*id).starts_with("keepalive"))
        .map(|(_, m)| m.sent_us);
    assert_eq!(first_keepalive, Some(Micros::us(7_003_000)), "overdue at the wake (seed {})", s.seed);
    assert!(!run.events.iter().any(|e| matches!(e.kind, EventKind::Quorum(QuorumEvent::LeaseExpired { .. }))), "seed {}", s.seed);
    assert!(run.verdict.is_safe(), "seed {}: {:?}", s.seed, run.verdict.violations);
}

/// `search redlock-happy` found nothing: a pause of client1 just after it acquires, for 11 s,
/// was judged SAFE because the 12 s run ended before client1's stale write at 14 s. A run now
/// goes on while a client's update is under way, and says so.
#[test]
fn a_run_is_not_judged_before_a_stale_holder_finishes_its_update() {
    use sim::scenario::{fault, Fault};
    let mut s = sim::library::get("redlock-happy").unwrap();
    s.faults = vec![Fault::Pause(fault::Pause { actor: "client1".into(), at_ms: Millis::new(100), duration_ms: Millis::new(11_000) })];
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    assert_eq!(run.due_us, Micros::us(12_000_000));
    assert!(
        run.end_us > Micros::us(14_000_000) && run.end_us < Micros::us(20_000_000),
        "ends soon after the write: {} (seed {})",
        run.end_us,
        s.seed
    );
    assert!(run.unfinished.is_empty());
    assert_eq!(run.verdict.verdict, Safety::Unsafe, "seed {}", s.seed);
    assert!(run.verdict.notes.iter().any(|n| n.property == Kind::Overrun && explanation(&run, n).contains("past its duration (12 s)")));
}

/// A pause that outlasts what a run may add to its duration: the run ends with the update still
/// under way, and the verdict names who and does not claim the data is safe in silence.
#[test]
fn a_run_cut_short_mid_update_says_by_whom() {
    use sim::scenario::{fault, Fault};
    let mut s = sim::library::get("redlock-happy").unwrap();
    s.faults = vec![Fault::Pause(fault::Pause { actor: "client1".into(), at_ms: Millis::new(100), duration_ms: Millis::new(500_000) })];
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    assert_eq!(run.end_us, run.due_us + sim::overrun_us(run.due_us), "seed {}", s.seed);
    assert_eq!(run.unfinished, vec![run.actor_id("client1").unwrap()]);
    let note = run.verdict.notes.iter().find(|n| n.property == Kind::CutShort).expect("a cut-short note");
    assert_eq!(sim::checker::words::actors(&run, note), vec!["client1"]);
    assert!(run.verdict.headline().starts_with("Safe so far"), "{}", run.verdict.headline());
}

/// The search's break of redlock-clock-jump with its fix blamed the double grant on client2's
/// key on C being deleted at 4.249 s, its release after both grants. The cause: client1 was
/// paused in the middle of its round, C's clock jump expired client1's key on C, C voted for
/// client2, and client1 woke and counted C's old vote.
#[test]
fn a_double_grant_is_explained_by_the_key_the_shared_node_set_first() {
    use sim::scenario::{fault, Fault};
    let mut s = sim::library::get("redlock-clock-jump").unwrap().fixed().unwrap().unwrap();
    s.faults = vec![
        Fault::ClockJump(fault::ClockJump { actor: "C".into(), at_ms: Millis::new(3218), by_ms: 6799 }),
        Fault::Pause(fault::Pause { actor: "client1".into(), at_ms: Millis::new(19), duration_ms: Millis::new(3203) }),
    ];
    let run = sim::run(&s).unwrap_or_else(|e| panic!("seed {}: {e}", s.seed));
    let double = run.verdict.hazards.iter().find(|h| h.property == Kind::DoubleGrant).expect("a double grant");
    let text = explanation(&run, double);
    assert!(text.contains("C's clock jumped forward by 6.799 s at 3.218 s, so client1's key on C expired early"), "{text}");
    assert!(text.contains("client1 still counted C's vote"), "{text}");
    assert!(!text.contains("deleted"), "{text}");
}

/// Any fault armed an election for an election timeout later, and the election looked only at
/// who ran when it fired: a client cut off earlier had a new leader elected at that timer,
/// sooner than an election timeout after the leader went silent, and narrated as the others
/// having heard nothing from it for an election timeout. Checks that `new` leads an election
/// timeout after `old` crashed or its disk stalled, with the client's partition or without it.
fn elected_an_election_timeout_after_the_leader_went_silent(name: &str, old: &str, new: &str) {
    let s = repro(name);
    let elected = |s: &Scenario| {
        let run = sim::run(s).unwrap_or_else(|e| panic!("{name} (seed {}): {e}", s.seed));
        let at = |who: &str, what: &dyn Fn(&EventKind) -> bool| {
            let id = actor(&run, who);
            run.events.iter().find(|e| e.actor == id && what(&e.kind)).map(|e| e.at_us)
        };
        let silent = at(old, &|k| matches!(k, EventKind::Crashed | EventKind::DiskStalled { .. })).expect("the leader goes silent");
        let elected = at(new, &|k| matches!(k, EventKind::Quorum(QuorumEvent::LeaderElected { .. }))).expect("a new leader");
        (silent, elected)
    };
    let (silent, at) = elected(&s);
    let timeout = s.lock.election_timeout_ms.to_micros();
    assert_eq!(at, silent + timeout, "{name} (seed {}): {new} leads an election timeout after {old} went silent", s.seed);
    let mut quiet = s.clone();
    quiet.faults.retain(|f| !matches!(f, sim::scenario::Fault::Partition(_)));
    assert_eq!(quiet.faults.len() + 1, s.faults.len(), "{name}: one partition");
    assert_eq!(elected(&quiet), (silent, at), "{name} (seed {}): the client's partition changes nothing", s.seed);
}

/// d9: client1 cut off at 4.5 s, m1's disk stalled at 5.2 s, m2 elected at 5.5 s.
#[test]
fn a_leader_whose_disk_stalls_after_a_client_is_cut_off_is_replaced_an_election_timeout_later() {
    elected_an_election_timeout_after_the_leader_went_silent("consensus-stall-after-client-cut", "m1", "m2");
}

/// d8: client1 cut off at 4.5 s, m1 crashed at 5.499 s, m2 elected at 5.5 s.
#[test]
fn a_leader_that_crashes_just_before_an_election_timer_is_replaced_an_election_timeout_later() {
    elected_an_election_timeout_after_the_leader_went_silent("consensus-crash-before-election-timer", "m1", "m2");
}

/// z2 (zookeeper-fenced): B cut off at 3 s for 2 s, zk1 crashed at 3.7 s, zk2 elected at 4 s.
#[test]
fn a_zookeeper_leader_that_crashes_after_a_client_is_cut_off_is_replaced_an_election_timeout_later() {
    elected_an_election_timeout_after_the_leader_went_silent("zookeeper-crash-after-client-cut", "zk1", "zk2");
}
