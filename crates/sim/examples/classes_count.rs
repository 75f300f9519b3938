//! How many runs the order classes of one added fault take on each library scenario (or those
//! named), and how many behaviours they give: `cargo run --release -p leaselab-sim --example
//! classes_count [id…]`.
use std::collections::HashSet;
use std::time::Instant;

use sim::search::classes::{templates, Shape};
use sim::search::enumerate::Classes;

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    for s in sim::library::all() {
        if !ids.is_empty() && !ids.contains(&s.id) {
            continue;
        }
        let t0 = Instant::now();
        let run = sim::run(&s).unwrap();
        let own: Vec<usize> = (0..s.faults.len()).collect();
        let mut c = Classes::new(templates(&s, &run, &own), s.duration_ms);
        let places = c.places();
        let mut sc = s.clone();
        let (mut runs, mut unsafe_) = (0usize, 0usize);
        let mut seen = HashSet::new();
        while let Some(p) = c.propose() {
            let t = &c.templates[p.template];
            sc.faults =
                s.faults.iter().enumerate().filter(|(i, _)| Some(*i) != t.replaces).map(|(_, f)| f.clone()).chain(c.faults(p)).collect();
            runs += 1;
            let r = sim::judge_within(&sc, 10_000).ok();
            if r.as_ref().is_some_and(|r| !r.verdict.is_safe()) {
                unsafe_ += 1;
            }
            let sh = r.as_ref().map(Shape::of);
            if let Some(sh) = &sh {
                seen.insert(sh.behaviour);
            }
            c.tell(sh);
            if t0.elapsed().as_secs() > 30 {
                println!("  (stopped at 30 s)");
                break;
            }
        }
        println!(
            "{}: {} templates, {places} places, {runs} runs, {} behaviours, {unsafe_} unsafe, {:.2} s, {} events",
            s.id,
            c.templates.len(),
            seen.len(),
            t0.elapsed().as_secs_f64(),
            run.events.len()
        );
    }
}
