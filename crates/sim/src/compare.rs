//! Two runs of the same story side by side: [`first_difference`] finds the first event where
//! they part ways (the run as written and with its fix, or a scenario and an edited copy).
//!
//! Runs are compared event by event, in trace order, by what a timeline shows of each event:
//! when, where (the actor's name: two scenarios may number their lanes differently), what, and
//! the words on its message.

use crate::narrate::Cx;
use crate::scenario::Scenario;
use crate::trace::{Event, EventKind, Run};

/// The indices (into `a.events` and `b.events`) of the first event where the two runs differ,
/// or `None` when their traces are the same.
///
/// Two events are the same when they happen at the same true time, at an actor of the same
/// name, with the same kind, and (for a message sent, received or lost) the same message. The
/// kind's fields name actors by id, so they are compared only when both runs have the same
/// actors in the same order; otherwise the kind's variant is compared and the event's text,
/// which names every actor, stands for the rest. The text is not compared when the kinds can
/// be: it also words settings that change nothing at that event (an unfenced resource "does
/// not check tokens" on every write it accepts), and the difference to show is where the runs
/// do something different (where the fenced resource rejects the stale write).
///
/// When one trace is a prefix of the other, the difference is the longer run's first extra
/// event, and the other index is the shorter run's last event (0 if it has none).
pub fn first_difference((a, sa): (&Run, &Scenario), (b, sb): (&Run, &Scenario)) -> Option<(usize, usize)> {
    let same_actors = a.actors == b.actors;
    let (ta, tb) = (Cx::new(sa, a), Cx::new(sb, b));
    let same = |x: &Event, y: &Event| {
        // The cheap comparisons first: a message's words are built to be compared.
        x.at_us == y.at_us
            && a.name(x.actor) == b.name(y.actor)
            && if same_actors {
                x.kind == y.kind
            } else {
                std::mem::discriminant(&x.kind) == std::mem::discriminant(&y.kind) && ta.event(x) == tb.event(y)
            }
            && message(a, x) == message(b, y)
    };
    let common = a.events.iter().zip(&b.events).position(|(x, y)| !same(x, y));
    match common {
        Some(i) => Some((i, i)),
        None if a.events.len() == b.events.len() => None,
        None => {
            // `n` is the longer run's first extra event and one past the shorter run's last.
            let n = a.events.len().min(b.events.len());
            let at = |r: &Run| n.min(r.events.len().saturating_sub(1));
            Some((at(a), at(b)))
        }
    }
}

/// The words on the message an event sends, receives or loses (`SET lock 3f2a… NX PX 10000`).
fn message(run: &Run, e: &Event) -> Option<String> {
    match e.kind {
        EventKind::Send { msg, .. } | EventKind::Receive { msg, .. } | EventKind::Lost { msg, .. } => Some(run.what(msg)),
        _ => None,
    }
}

/// When the two runs part: the earlier of the two events [`first_difference`] found (one run
/// does something the other does later, or not at all). `None` when they are the same.
pub fn parting(a: (&Run, &Scenario), b: (&Run, &Scenario)) -> Option<(crate::time::Micros, usize, usize)> {
    let (i, j) = first_difference(a, b)?;
    let (a, b) = (a.0, b.0);
    let t = |r: &Run, k: usize| r.events.get(k).map_or(r.end_us, |e| e.at_us);
    Some((t(a, i).min(t(b, j)), i, j))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library;
    use crate::scenario::{Scenario, Setting};
    use crate::time::Millis;

    fn run(sc: &Scenario) -> Run {
        crate::run(sc).unwrap()
    }

    /// The first difference between two runs of one scenario.
    fn first_difference(a: &Run, b: &Run, sc: &Scenario) -> Option<(usize, usize)> {
        super::first_difference((a, sc), (b, sc))
    }

    #[test]
    fn a_run_compared_with_itself_has_no_difference() {
        let sc = library::get("gc-pause-unfenced").unwrap();
        assert_eq!(first_difference(&run(&sc), &run(&sc), &sc), None);
    }

    #[test]
    fn the_fix_for_the_gc_pause_differs_at_the_same_event_in_both_runs() {
        let sc = library::get("gc-pause-unfenced").unwrap();
        let fixed = sc.fixed().unwrap().unwrap();
        let (a, b) = (run(&sc), run(&fixed));
        let (i, j) = super::first_difference((&a, &sc), (&b, &fixed)).expect("fencing changes the run");
        // Nothing has happened differently before the first difference, so it is at the
        // same position in both traces.
        assert_eq!(i, j);
        // Where the runs part is the stale write: accepted as written, rejected with the fix,
        // not B's earlier write, which both accept (only its narration differs).
        assert!(matches!(a.events[i].kind, EventKind::Accepted { token: Some(33), .. }), "{:?}", a.events[i]);
        assert!(matches!(b.events[j].kind, EventKind::Rejected { token: Some(33), .. }), "{:?}", b.events[j]);
        assert_eq!(super::first_difference((&b, &fixed), (&a, &sc)), Some((j, i)));
    }

    #[test]
    fn a_longer_pause_differs_at_the_pause() {
        let sc = library::get("gc-pause-unfenced").unwrap();
        let a = run(&sc);
        let pause = a.events.iter().position(|e| matches!(e.kind, EventKind::Paused { .. })).expect("the story has a pause");
        let longer = sc.with_settings(&[Setting { path: "faults.0.pause.duration_ms".into(), value: 26_000.into() }]).unwrap();
        assert_eq!(super::first_difference((&a, &sc), (&run(&longer), &longer)), Some((pause, pause)));
    }

    #[test]
    fn actors_are_compared_by_name_not_by_lane() {
        let sc = library::get("gc-pause-unfenced").unwrap();
        // The same story with A's and B's lanes swapped: every id that names them changes.
        let mut swapped = sc.clone();
        swapped.clients.swap(0, 1);
        let (a, mut b) = (run(&sc), run(&swapped));
        assert_ne!(a.actors, b.actors);
        assert_eq!(super::first_difference((&a, &sc), (&b, &swapped)), None);
        let work = b.events.iter().position(|e| matches!(e.kind, EventKind::Work { .. })).expect("someone works");
        b.events[work].kind = EventKind::Work { ms: Millis::new(1) };
        assert_eq!(super::first_difference((&a, &sc), (&b, &swapped)), Some((work, work)));
    }

    #[test]
    fn when_one_trace_is_a_prefix_of_the_other_the_difference_is_the_first_extra_event() {
        let sc = library::get("gc-pause-unfenced").unwrap();
        let a = run(&sc);
        let mut b = a.clone();
        b.events.truncate(10);
        assert_eq!(first_difference(&a, &b, &sc), Some((10, 9)));
        assert_eq!(first_difference(&b, &a, &sc), Some((9, 10)));
        b.events.clear();
        assert_eq!(first_difference(&a, &b, &sc), Some((0, 0)));
    }
}
