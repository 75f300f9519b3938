//! The layout's geometry: lanes stack, time maps to x and back, ticks are readable, keys in a
//! lock queue do not overlap, and the GC-pause story is drawn.

use draw::layout::*;
use sim::scenario::Scenario;
use sim::time::SEC;
use sim::trace::Run;

#[test]
fn a_lock_queue_stacks_its_keys() {
    let s = sim::library::get("consensus-wait-expired").unwrap();
    let r = sim::run(&s).unwrap();
    let l = layout(&r, &s, 1280.0);
    let keys: Vec<&Bar> = l.bars.iter().filter(|b| b.kind == BarKind::Key).collect();
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            let overlap_x = a.x0 < b.x1 && b.x0 < a.x1;
            let overlap_y = a.y < b.y + b.h && b.y < a.y + a.h;
            assert!(!(overlap_x && overlap_y), "{a:?} overlaps {b:?}");
        }
    }
}

fn gc() -> (Scenario, Run) {
    let s = sim::library::get("gc-pause-unfenced").unwrap();
    let r = sim::run(&s).unwrap();
    (s, r)
}

#[test]
fn lanes_stack_without_overlap_in_actor_order() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1000.0);
    let names: Vec<&str> = l.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "redis", "resource"]);
    for w in l.lanes.windows(2) {
        assert!(w[0].y + w[0].h <= w[1].y, "{w:?}");
    }
    assert!(l.height >= l.lanes.last().map(|l| l.y + l.h).unwrap());
}

#[test]
fn time_maps_to_x_and_back() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1000.0);
    assert_eq!(l.x(0), GUTTER);
    assert_eq!(l.x(r.end_us), 1000.0 - PAD);
    assert_eq!(l.t(l.x(12 * SEC)), 12 * SEC);
    assert_eq!(l.t(-50.0), 0);
}

#[test]
fn ticks_are_readable() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1280.0);
    assert!(l.ticks.len() >= 5 && l.ticks.len() <= 17, "{}", l.ticks.len());
    for w in l.ticks.windows(2) {
        assert!(w[1].x - w[0].x >= 60.0, "ticks too close: {w:?}");
    }
    assert_eq!(l.ticks[1].label, "5\u{a0}s");
}

#[test]
fn the_gc_pause_story_is_drawn() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1280.0);
    // A's belief turns stale when its lease runs out during the pause.
    assert!(l.bars.iter().any(|b| b.kind == BarKind::Stale && b.color == Some(0)));
    assert!(l.bars.iter().any(|b| b.kind == BarKind::Belief && b.color == Some(1)));
    // Two keys on redis, A's then B's.
    assert_eq!(l.bars.iter().filter(|b| b.kind == BarKind::Key).count(), 2);
    // The pause is draggable: it points at fault 0.
    assert_eq!(l.pauses.len(), 1);
    assert_eq!(l.pauses[0].fault, 0);
    assert!(l.pauses[0].x1 > l.pauses[0].x0 + 100.0);
    // Both writes accepted, violations marked.
    assert_eq!(l.marks.iter().filter(|m| m.kind == MarkKind::Accepted).count(), 2);
    assert!(l.marks.iter().any(|m| m.kind == MarkKind::Violation));
    // Every arrow goes forward in time.
    assert!(l.arrows.iter().all(|a| a.x1 >= a.x0));
}

#[test]
fn narrow_screens_get_the_minimum_width() {
    let (s, r) = gc();
    let l = layout(&r, &s, 300.0);
    assert_eq!(l.width, MIN_WIDTH);
}
