//! Issue 51's soundness test: on six library scenarios, one for each family of lock service, a
//! brute-force sweep of one added pause on a 1 ms grid (every start and every length in a
//! window over the client's first steps and past its lease) gives no behaviour that the order
//! classes walked in the same window (`Classes::within`) did not give. The figures, with wider
//! windows, come from `cargo run --release -p leaselab-sim --example classes_grid ID ACTOR S0 S1
//! L0 L1`.

use std::collections::HashSet;

use sim::scenario::Fault;
use sim::search::classes::{templates, Shape};
use sim::search::enumerate::Classes;
use sim::time::Millis;

/// The behaviours of the grid that the classes missed, with the first schedule that gave each.
fn missed(id: &str, who: &str, starts: std::ops::Range<u64>, lengths: std::ops::Range<u64>) -> (usize, usize, Vec<(u64, u64)>) {
    let s = sim::library::get(id).expect("in the library");
    let run = sim::run(&s).expect("runs");
    let pause = |t: &sim::search::classes::Template| matches!(&t.faults[..], [Fault::Pause(p)] if p.actor == who);
    let ts: Vec<_> = templates(&s, &run, &[]).into_iter().filter(pause).collect();
    assert_eq!(ts.len(), 1, "{id}: one template of a pause of {who}");
    let mut c = Classes::new(ts, s.duration_ms).within(Millis::new(starts.end - 1), Millis::new(lengths.end - 1));
    let mut sc = s.clone();
    let mut classes = HashSet::new();
    while let Some(p) = c.propose() {
        sc.faults = s.faults.iter().cloned().chain(c.faults(p)).collect();
        let shape = sim::judge_within(&sc, 10_000).ok().map(|r| Shape::of(&r));
        if let Some(sh) = &shape {
            classes.insert(sh.behaviour);
        }
        c.tell(shape);
    }
    let mut grid = HashSet::new();
    let mut missing = Vec::new();
    for st in starts {
        for l in lengths.clone() {
            sc.faults = s.faults.iter().cloned().chain(c.templates[0].at(Millis::new(st), Millis::new(l))).collect();
            if let Ok(r) = sim::judge_within(&sc, 10_000) {
                let b = Shape::of(&r).behaviour;
                if grid.insert(b) && !classes.contains(&b) {
                    missing.push((st, l));
                }
            }
        }
    }
    (grid.len(), classes.len(), missing)
}

#[test]
fn every_behaviour_of_a_pause_on_a_millisecond_grid_is_one_the_order_classes_gave() {
    let cases: [(&str, &str, std::ops::Range<u64>, std::ops::Range<u64>); 6] = [
        ("lease-basics", "A", 0..10, 1..6_000),
        ("redlock-happy", "client1", 0..6, 1..4_000),
        ("consensus-fenced", "client1", 0..6, 1..11_000),
        ("zookeeper-fenced", "A", 17..25, 1..7_000),
        ("k8s-lease-fenced", "A", 0..4, 1..16_000),
        // Pauses that begin inside A's 48 s of work, where the start and the length matter apart.
        ("github-fileserver-pair", "A", 0..20, 1..3_000),
    ];
    for (id, who, starts, lengths) in cases {
        let (grid, classes, missing) = missed(id, who, starts.clone(), lengths.clone());
        assert!(missing.is_empty(), "{id}: a pause of {who} at (start, length) {missing:?} behaves in a way no order class gave");
        assert!(grid > 1 && classes >= grid, "{id}: the window {starts:?} × {lengths:?} gives {grid} behaviours, the classes {classes}");
    }
}
