//! The reducer's stories: stepping, moments, playing, the fix, edits, refusals, predict mode
//! and the challenge.

use std::rc::Rc;

use sim::scenario::{fault, Fault};
use yew::Reducible;

use super::*;
use sim::time::Millis;

fn gc() -> Rc<Screen> {
    Rc::new(Screen::new(sim::library::get("gc-pause-unfenced").unwrap(), false).unwrap())
}

fn go(s: &Rc<Screen>, a: Action) -> Rc<Screen> {
    s.clone().reduce(a)
}

#[test]
fn stepping_stays_in_range_and_noops_return_the_same_rc() {
    let s = gc();
    let back = go(&s, Action::Step(-1));
    assert!(Rc::ptr_eq(&s, &back), "stepping back from the start changes nothing");
    let s2 = go(&s, Action::Step(3));
    assert_eq!(s2.cursor, 3);
    let end = go(&s2, Action::Last);
    assert_eq!(end.cursor, s.steps() - 1);
    assert_eq!(go(&end, Action::Step(5)).cursor, s.steps() - 1);
}

#[test]
fn key_moments_and_violations_are_reachable() {
    let s = gc();
    let m1 = go(&s, Action::NextMoment);
    assert!(s.run.moment(m1.cursor).is_some());
    let v = go(&s, Action::NextViolation);
    assert!(matches!(s.run.events[v.cursor].kind, sim::EventKind::Accepted { token: Some(33), .. }));
    let back = go(&v, Action::PrevMoment);
    assert!(back.cursor < v.cursor);
    // Past the last key moment, the next one is the end of the run (where the reader's turn is).
    let last = *s.moments().last().unwrap();
    assert!(last < s.last(), "gc-pause-unfenced goes on after its last key moment");
    let end = go(&go(&s, Action::Seek(last)), Action::NextMoment);
    assert_eq!(end.cursor, s.last());
    assert!(Rc::ptr_eq(&end, &go(&end, Action::NextMoment)), "at the end, nothing moves");
}

#[test]
fn playing_advances_and_stops_at_the_end() {
    let s = go(&gc(), Action::TogglePlay);
    assert!(s.playing);
    let s = go(&s, Action::Tick(STEP_MS * 2.5));
    assert_eq!(s.cursor, 2);
    assert!(s.phase > 0.4 && s.phase < 0.6);
    let s = go(&s, Action::Tick(STEP_MS * 10_000.0));
    assert!(!s.playing);
    assert_eq!(s.cursor, s.steps() - 1);
    let fast = go(&go(&gc(), Action::Faster), Action::Faster);
    assert_eq!(SPEEDS[fast.speed], 4.0);
}

#[test]
fn the_fix_flips_the_verdict_and_undoes() {
    let s = gc();
    assert!(!s.run.verdict.is_safe());
    let f = go(&s, Action::ToggleFix);
    assert!(f.fixed() && f.run.verdict.is_safe());
    let u = go(&f, Action::ToggleFix);
    assert!(!u.fixed() && !u.run.verdict.is_safe());
    assert_eq!(*u.scenario, *s.scenario, "undoing the fix restores the scenario");
}

/// Issue 49: the fix's explanation tells the lesson's run with the fix; with another change as
/// well, the card says so.
#[test]
fn the_fix_is_as_written_only_on_the_lesson_s_own_run() {
    let f = go(&gc(), Action::ToggleFix);
    assert!(f.fixed_as_written());
    let e = go(&f, Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into()));
    assert!(e.fixed() && !e.fixed_as_written());
    assert!(!gc().fixed_as_written());
}

#[test]
fn an_edit_reruns_and_keeps_the_cursor_time() {
    let s = go(&gc(), Action::Seek(60));
    let t = s.time_us();
    let e = go(&s, Action::Edit(Field::Setting("resource.fencing"), "atomic".into()));
    assert!(e.run.verdict.is_safe());
    // The same instant, and the same place among its events (the resource receives B's read).
    assert_eq!((e.time_us(), e.cursor), (t, 60));
}

/// Regression (issue 34, item 2): V then F put the cursor on the step after the rejection (the
/// last event of that instant), so the narration did not explain it.
#[test]
fn the_fix_at_the_harm_puts_the_cursor_on_the_rejection() {
    let s = go(&gc(), Action::NextViolation);
    assert!(matches!(s.run.events[s.cursor].kind, sim::EventKind::Accepted { token: Some(33), .. }));
    let f = go(&s, Action::ToggleFix);
    let e = &f.run.events[f.cursor];
    assert!(matches!(e.kind, sim::EventKind::Rejected { .. }), "{:?}", e.kind);
    assert!(f.run.moment(f.cursor).is_some_and(|m| m.contains("rejects A's token 33")), "{:?}", f.run.moment(f.cursor));
    // And back: the cursor is on the accepted stale write again.
    let u = go(&f, Action::ToggleFix);
    assert_eq!(u.cursor, s.cursor);
    // Among several events of one instant with no key moment, the cursor keeps its place.
    let at = s.cursor + 1;
    let next = go(&go(&gc(), Action::Seek(at)), Action::ToggleFix);
    assert_eq!(next.cursor, at, "{:?}", next.run.events[next.cursor].kind);
}

#[test]
fn a_bad_value_is_refused_and_the_last_good_run_stays() {
    let s = gc();
    let e = go(&s, Action::Edit(Field::Setting("lock.ttl_ms"), "-3".into()));
    assert_eq!(e.error.as_ref().unwrap().field, "f-ttl");
    assert!(e.run == s.run);
    assert_eq!(e.scenario, s.scenario);
    let ok = go(&e, Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into()));
    assert!(ok.error.is_none() && ok.scenario.lock.ttl_ms == Millis::new(30_000));
}

#[test]
fn a_run_too_big_to_draw_is_refused_and_the_last_good_run_stays() {
    let s = gc();
    let e = go(&s, Action::Edit(Field::Setting("duration_ms"), "3600000".into()));
    assert!(e.error.is_none(), "an hour of gc-pause-unfenced is small");
    // Contention for an hour with 1 ms retries: far more events than the timeline draws.
    let mut sc = (*s.scenario).clone();
    sc.duration_ms = Millis::new(3_600_000);
    for c in &mut sc.clients {
        c.steps = vec![sim::scenario::Step::Acquire { retry_ms: Millis::new(1), attempts: 10_000, timeout_ms: Millis::new(1) }];
    }
    let big = go(&s, Action::Import(sc.to_json().into_bytes()));
    let err = big.error.as_ref().expect("refused");
    assert!(
        err.message.contains("more than the 10000 the timeline can show") || err.message.contains("needs more than"),
        "{}",
        err.message
    );
    assert!(big.run == s.run);
}

#[test]
fn importing_json_opens_it_or_says_why_not() {
    let s = gc();
    let other = sim::library::get("token-reset").unwrap();
    let ok = go(&s, Action::Import(other.to_json().into_bytes()));
    assert_eq!(ok.scenario.id, "token-reset");
    let bad = go(&s, Action::Import(b"{\"version\": 1, \"id\": 5}".to_vec()));
    let e = bad.error.as_ref().unwrap();
    assert_eq!(e.field, "import");
    assert!(e.message.contains("id: expected a string, found 5"), "{}", e.message);
    assert!(bad.run == s.run, "the current run stays");
}

/// Regression (../shared/repro/turn3/import-big-file.md): a file over 1 MB was "unknown field
/// too large", and a file that is not UTF-8 opened with "�" in its title; the command line
/// refuses both, and so does the app, in its words.
#[test]
fn a_file_is_refused_as_the_command_line_refuses_it() {
    let s = gc();
    let said = |bytes: &[u8]| go(&s, Action::Import(bytes.to_vec())).error.clone().map(|e| (e.field, e.message));
    let message = |why: &str| Some(("import".to_string(), format!("This is not a scenario Lease Lab can open: {why}")));
    // The title's bytes as in import-invalid-utf8.json: C3 28 FF.
    let json = s.scenario.to_json();
    let title = json.find(&format!("\"{}\"", s.scenario.title)).unwrap() + 1;
    let invalid = [&json.as_bytes()[..title], &[0xc3, 0x28, 0xff], &json.as_bytes()[title + s.scenario.title.len()..]].concat();
    let at = title + 1;
    assert_eq!(said(&invalid), message(&format!("not UTF-8 text (byte {at} is not); a scenario is JSON")));
    let utf16: Vec<u8> = [0xff, 0xfe].into_iter().chain(s.scenario.to_json().encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert_eq!(said(&utf16), message("not UTF-8 text (byte 1 is not); a scenario is JSON"));
    // What the file box reads of a larger file: the limit and one byte more.
    assert_eq!(said(&[b' '; 1_000_001]), message("larger than 1 MB; a scenario is a few KB of JSON"));
    let bom = [&[0xef, 0xbb, 0xbf][..], s.scenario.to_json().as_bytes()].concat();
    assert_eq!(said(&bom), None, "a byte-order mark is accepted, as the command line accepts it");
}

#[test]
fn dragging_the_pause_shorter_than_the_ttl_makes_it_safe() {
    let s = gc();
    let d = go(&s, Action::MovePause { fault: 0, at_ms: Millis::new(1500), duration_ms: Millis::new(3000) });
    assert!(d.run.verdict.is_safe(), "{:?}", d.run.verdict.violations);
    let r = go(&d, Action::RemoveFault(0));
    assert!(r.scenario.faults.is_empty());
    let a = go(&r, Action::AddFault(Fault::Crash(fault::Crash { actor: "B".into(), at_ms: Millis::new(12_000) })));
    assert_eq!(a.scenario.faults.len(), 1);
    let bad = go(&a, Action::AddFault(Fault::Crash(fault::Crash { actor: "Z".into(), at_ms: Millis::new(1) })));
    assert!(bad.error.is_some() && bad.scenario.faults.len() == 1);
}

#[test]
fn predict_mode_stops_at_each_question_until_it_is_answered() {
    let s = go(&go(&gc(), Action::Step(5)), Action::TogglePredict);
    assert!(s.asking() && s.cursor == 0, "predict mode starts from the first step");
    let first = s.quiz[0].answer.asked;
    let at_q = go(&s, Action::Last);
    assert_eq!(at_q.cursor, first, "End stops at the first question");
    assert_eq!(at_q.pending(), Some(0));
    assert!(at_q.hides_future());
    assert_eq!(go(&at_q, Action::Step(1)).cursor, first, "no step past an unanswered question");
    let played = go(&go(&s, Action::TogglePlay), Action::Tick(STEP_MS * 10_000.0));
    assert_eq!((played.cursor, played.playing), (first, false), "playing stops at the question");
    assert!(Rc::ptr_eq(&at_q, &go(&at_q, Action::Answer(0, 99))), "a choice that does not exist is ignored");
    let answered = go(&at_q, Action::Answer(0, 0));
    assert_eq!(answered.picked[0], Some(0));
    assert_eq!(answered.revealed(), vec![0]);
    let on = go(&answered, Action::Step(1));
    assert_eq!(on.cursor, first + 1);
    let proof = go(&answered, Action::Seek(answered.quiz[0].answer.proof));
    assert!(proof.revealed().contains(&0), "the proof shows the answer too");
}

#[test]
fn two_questions_at_one_step_are_asked_one_after_the_other() {
    let s = go(&gc(), Action::TogglePredict);
    let s = go(&go(&s, Action::Last), Action::Choose(1));
    let s = go(&s, Action::Last);
    assert_eq!(s.pending(), Some(1));
    let s = go(&s, Action::Choose(0));
    assert_eq!(s.picked[1], Some(0));
    assert_eq!(s.pending(), Some(2), "the second question at the same step comes next");
    let s = go(&s, Action::Choose(0));
    assert_eq!(s.picked[2], Some(0));
    assert_eq!(s.revealed(), vec![1, 2]);
}

#[test]
fn questions_apply_only_to_the_scenario_as_written() {
    let s = go(&gc(), Action::TogglePredict);
    let fixed = go(&s, Action::ToggleFix);
    assert!(!fixed.asking());
    assert_eq!(go(&fixed, Action::Last).cursor, fixed.steps() - 1);
    let back = go(&fixed, Action::ToggleFix);
    assert!(back.asking(), "undoing the fix returns to the scenario as written");
    let edited = go(&s, Action::Edit(Field::Setting("lock.ttl_ms"), "12000".into()));
    assert!(edited.error.is_none() && !edited.asking());
}

#[test]
fn the_challenge_is_met_by_its_solution_and_not_by_the_fix() {
    let s = gc();
    assert!(!s.challenge_met());
    let fixed = go(&s, Action::ToggleFix);
    assert!(!fixed.challenge_met(), "the one-click fix does not count");
    // ... and the challenge says the goal was reached for the reader, rather than ask for it.
    assert_eq!((s.goal_given(), fixed.goal_given()), (None, Some(crate::state::Given::Fix)));
    // Undo takes the fix off, as the challenge then says.
    let undone = go(&fixed, Action::Undo);
    assert!(!undone.fixed() && undone.goal_given().is_none() && *undone.scenario == *s.scenario);
    let solved = go(&s, Action::ShowSolution);
    assert!(solved.error.is_none() && solved.challenge_met(), "{:?}", solved.error);
    assert_eq!(solved.goal_given(), None);
}

#[test]
fn the_facts_are_computed_once_with_each_run() {
    let s = gc();
    let stepped = go(&s, Action::Step(3));
    assert!(stepped.facts == s.facts, "moving the cursor keeps the run's facts");
    let edited = go(&s, Action::Edit(Field::Setting("lock.ttl_ms"), "12000".into()));
    assert!(edited.run != s.run && edited.facts != s.facts, "a new run comes with its own facts");
    assert_eq!(edited.moments(), edited.run.moments().map(|e| e.id).collect::<Vec<_>>());
}

#[test]
fn screens_differing_in_any_field_are_unequal() {
    // Equality is derived, so a field cannot be left out; this checks the derive is there and
    // that the shared parts compare by identity.
    let s = gc();
    assert_eq!(*s, (*s).clone());
    assert_ne!(*s, Screen { cursor: 1, ..(*s).clone() });
    assert_ne!(*s, Screen { phase: 0.5, ..(*s).clone() });
    assert_ne!(*s, Screen { run: ByPtr::new((*s.run).clone()), ..(*s).clone() }, "an equal run in a new allocation is a new run");
}

#[test]
fn undo_takes_back_each_change_and_a_drag_is_one_change() {
    let s = gc();
    let fixed = go(&s, Action::ToggleFix);
    let Fault::Pause(fault::Pause { at_ms, duration_ms, .. }) = fixed.scenario.faults[0].clone() else { panic!() };
    let mut d = fixed.clone();
    for k in 1..=5 {
        d = go(&d, Action::MovePause { fault: 0, at_ms, duration_ms: Millis::new(duration_ms.get() - 1000 * k) });
    }
    assert_eq!(d.undo.len(), 2, "the fix, then one drag");
    let u = go(&d, Action::Undo);
    assert_eq!(*u.scenario, *fixed.scenario, "the whole drag is undone at once");
    assert!(u.fixed(), "the fix is still on");
    let u = go(&u, Action::Undo);
    assert_eq!(*u.scenario, *s.scenario);
    assert!(!u.fixed() && u.as_written, "back to the scenario as written");
    assert!(Rc::ptr_eq(&u, &go(&u, Action::Undo)), "nothing left to undo");
}

#[test]
fn a_search_s_schedule_is_shown_at_its_harm_and_undone() {
    let s = Rc::new(Screen::new(sim::library::get("gc-pause-fenced").unwrap(), false).unwrap());
    assert!(s.run.verdict.is_safe());
    let sim::search::Outcome::Found(f, _) = sim::search::search(&s.scenario, sim::search::Options::default()).unwrap() else { panic!() };
    let found = go(&s, Action::SearchFound(Rc::new(f.scenario.clone())));
    assert!(!found.run.verdict.is_safe());
    assert_eq!(Some(&found.cursor), found.violations().first(), "the cursor is at the harm");
    let back = go(&found, Action::Undo);
    assert_eq!(*back.scenario, *s.scenario);
    assert!(back.run.verdict.is_safe() && back.as_written);
}

#[test]
fn two_runs_compare_on_one_axis_and_follow_the_changes() {
    let s = gc();
    assert_eq!(s.comparable(), vec![Against::Fix]);
    let c = go(&s, Action::Compare(Some(Against::Fix)));
    let other = c.compare.clone().expect("comparing");
    assert!(other.run.verdict.is_safe() && !c.run.verdict.is_safe());
    let (_, mine, theirs) = other.parting.expect("they differ");
    assert_eq!(c.run.events[mine].at_us, other.run.events[theirs].at_us);
    // Turning the fix on: the comparison is now with the run as written (or before the change).
    let f = go(&c, Action::ToggleFix);
    let o = f.compare.clone().expect("still comparing");
    assert_eq!(o.against, Against::Before, "the run before the change: as written");
    assert!(!o.run.verdict.is_safe(), "the other run is the unfixed one");
    assert!(go(&f, Action::Compare(None)).compare.is_none());
}

#[test]
fn two_drags_are_two_changes_and_a_search_s_change_meets_no_challenge() {
    let s = gc();
    let Fault::Pause(fault::Pause { at_ms, duration_ms, .. }) = s.scenario.faults[0].clone() else { panic!() };
    let a = go(
        &go(&s, Action::MovePause { fault: 0, at_ms, duration_ms: Millis::new(duration_ms.get() - 1000) }),
        Action::MovePause { fault: 0, at_ms, duration_ms: Millis::new(duration_ms.get() - 2000) },
    );
    let a = go(&a, Action::EndDrag);
    let b = go(&a, Action::MovePause { fault: 0, at_ms, duration_ms: Millis::new(duration_ms.get() - 3000) });
    assert_eq!(b.undo.len(), 2, "two drags, two changes");
    assert_eq!(*go(&b, Action::Undo).scenario, *a.scenario);
    // The search's schedule turns the verdict, but the challenge is the reader's to meet.
    let fenced = Rc::new(Screen::new(sim::library::get("gc-pause-fenced").unwrap(), false).unwrap());
    let sim::search::Outcome::Found(f, _) = sim::search::search(&fenced.scenario, sim::search::Options::default()).unwrap() else {
        panic!()
    };
    let found = go(&fenced, Action::SearchFound(Rc::new(f.scenario.clone())));
    assert!(!found.run.verdict.is_safe() && !found.challenge_met());
    assert_eq!(found.goal_given(), Some(crate::state::Given::Search));
    // The same schedule made by hand would meet it.
    let by_hand = go(&fenced, Action::RemoveFault(0));
    let by_hand = go(&by_hand, Action::AddFault(f.scenario.faults[0].clone()));
    assert!(by_hand.challenge_met(), "{:?}", by_hand.scenario.faults);
}

#[test]
fn comparing_puts_the_one_cursor_at_a_time_of_the_other_run() {
    let s = go(&gc(), Action::Compare(Some(Against::Fix)));
    let other_end = s.compare.as_ref().unwrap().run.events.last().unwrap().at_us;
    let t = go(&s, Action::SeekTime(other_end));
    assert_eq!(t.time_us(), other_end);
    assert_eq!(go(&t, Action::Step(-1)).at_us, None, "a step goes back to this run's events");
    assert!(Rc::ptr_eq(&s, &go(&s, Action::Compare(Some(Against::Fix)))), "the same comparison again changes nothing");
}

/// unsafe-release: the reader sets the TTL to 20 s and the run turns safe (another way than the
/// challenge suggests). Then they change the duration, which the notice says alters nothing:
/// the check credited "Duration 25 s → 30 s". It credits the change that turned the verdict.
#[test]
fn a_challenge_met_another_way_credits_the_change_that_turned_the_verdict() {
    let s = Rc::new(Screen::new(sim::library::get("unsafe-release").unwrap(), false).unwrap());
    assert!(!s.run.verdict.is_safe() && !s.challenge_met());
    let ttl = go(&s, Action::Edit(Field::Setting("lock.ttl_ms"), "20000".into()));
    assert!(ttl.challenge_met() && !ttl.met_its_way(), "{:?}", ttl.error);
    assert_eq!(ttl.credit.as_deref(), Some("The lock's TTL 10 s → 20 s"));
    let longer = format!("{}", ttl.scenario.duration_ms + Millis::new(5000));
    let longer = go(&ttl, Action::Edit(Field::Setting("duration_ms"), longer));
    assert!(
        longer.challenge_met() && longer.notice.as_ref().is_some_and(|n| n.what.starts_with("The run's length")),
        "{:?}",
        longer.notice
    );
    assert_eq!(longer.credit.as_deref(), Some("The lock's TTL 10 s → 20 s"), "the duration changed nothing");
    // Undo of the duration keeps the credit; undo of the TTL takes it back with the verdict.
    let undone = go(&longer, Action::Undo);
    assert_eq!(undone.credit.as_deref(), Some("The lock's TTL 10 s → 20 s"));
    let undone = go(&undone, Action::Undo);
    assert!(!undone.challenge_met() && undone.credit.is_none());
    // A change that turns the verdict back takes the credit from the one before it.
    let back = go(&longer, Action::Edit(Field::Setting("lock.ttl_ms"), "10000".into()));
    assert!(!back.run.verdict.is_safe() && back.credit.as_deref() == Some("The lock's TTL 20 s → 10 s"));
}

mod address;
