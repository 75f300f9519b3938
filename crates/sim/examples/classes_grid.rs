//! A probe of issue 51's order classes: every schedule of one added pause on a 1 ms grid (starts
//! S0..S1, lengths L0..L1) against the classes walked in the same window (`Classes::within`),
//! printing the behaviours the grid gave that the classes did not.
//!
//! `cargo run --release -p leaselab-sim --example classes_grid ID ACTOR S0 S1 L0 L1`
use sim::scenario::Fault;
use sim::search::classes::{templates, Shape};
use sim::search::enumerate::Classes;
use std::collections::HashSet;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let s = sim::library::get(&a[0]).unwrap();
    let who = &a[1];
    let (s0, s1, l0, l1): (u64, u64, u64, u64) =
        (a[2].parse().unwrap(), a[3].parse().unwrap(), a[4].parse().unwrap(), a[5].parse().unwrap());
    let run = sim::run(&s).unwrap();
    let ts: Vec<_> =
        templates(&s, &run, &[]).into_iter().filter(|t| matches!(&t.faults[..], [Fault::Pause(p)] if &p.actor == who)).collect();
    let mut c = Classes::new(ts, s.duration_ms).within(sim::time::Millis::new(s1 - 1), sim::time::Millis::new(l1 - 1));
    let mut sc = s.clone();
    let mut classes = HashSet::new();
    let mut runs = 0;
    while let Some(p) = c.propose() {
        sc.faults = s.faults.iter().cloned().chain(c.faults(p)).collect();
        runs += 1;
        let sh = sim::judge_within(&sc, 10_000).ok().map(|r| Shape::of(&r));
        if let Some(sh) = &sh {
            classes.insert(sh.behaviour);
        }
        c.tell(sh);
    }
    let mut grid = HashSet::new();
    let mut missing = Vec::new();
    for st in s0..s1 {
        for l in l0..l1 {
            sc.faults = s.faults.iter().cloned().chain(c.templates[0].at(sim::time::Millis::new(st), sim::time::Millis::new(l))).collect();
            if let Ok(r) = sim::judge_within(&sc, 10_000) {
                let b = Shape::of(&r).behaviour;
                if grid.insert(b) && !classes.contains(&b) {
                    missing.push((st, l));
                }
            }
        }
    }
    println!(
        "class runs {runs}, class behaviours {}, grid runs {}, grid behaviours {}, missing {}: {:?}",
        classes.len(),
        (s1 - s0) * (l1 - l0),
        grid.len(),
        missing.len(),
        &missing[..missing.len().min(10)]
    );
}
