//! Prints a sample of the runs a reader can reach from the library, for an outside reading of
//! what is shown on them (issue 49): `n` one-change edits and `n` search finds, each from a
//! different scenario where it can, each as the narrated trace with its shown moments (» lines)
//! and its verdict (`render::trace_text`), a search find also with the search's report. The
//! edits are drawn by `seed` among those that show at least one key moment, the finds among all,
//! so the sample is the same on every machine.
//!
//! `cargo run --release -p leaselab-sim --example reachable_sample [n] [seed]` (10 and 1).

#[path = "../tests/reachable/edits.rs"]
#[allow(dead_code)]
mod edits;

use sim::{library, Scenario};

/// One reachable run: where it came from, and the scenario.
struct Reached {
    id: String,
    label: String,
    sc: Scenario,
    report: Option<String>,
}

fn shows_a_moment(sc: &Scenario) -> bool {
    sim::run(sc).is_ok_and(|r| r.moments().next().is_some())
}

/// `n` of `all`, drawn by `seed`, one per scenario first.
fn draw(mut all: Vec<Reached>, n: usize, seed: u64) -> Vec<Reached> {
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out: Vec<Reached> = Vec::new();
    while out.len() < n && !all.is_empty() {
        // A seed's change moves only the network's jitter: at most two of them.
        let seeds = out.iter().filter(|o| o.label.contains("seed =")).count();
        let fresh: Vec<usize> =
            (0..all.len()).filter(|&i| !out.iter().any(|o| o.id == all[i].id) && (seeds < 2 || !all[i].label.contains("seed ="))).collect();
        let pool = if fresh.is_empty() { (0..all.len()).collect() } else { fresh };
        let pick = pool[(next() % pool.len() as u64) as usize];
        out.push(all.swap_remove(pick));
    }
    out
}

fn print(class: &str, r: &Reached) {
    println!("\n######## {class}: {} [{}]", r.id, r.label);
    if let Some(rep) = &r.report {
        println!("# the search's report: {rep}");
    }
    match sim::run(&r.sc) {
        Ok(run) => print!("{}", sim::render::trace_text(&run, &r.sc)),
        Err(e) => println!("cannot run: {e}"),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let lib = library::all();
    let choices = edits::choices(&lib);
    let mut edited = Vec::new();
    let mut found = Vec::new();
    for s in &lib {
        for (label, sc) in sim::witness::authored(s) {
            for (edit, e) in edits::one_change(&sc, &choices) {
                if shows_a_moment(&e) {
                    edited.push(Reached { id: s.id.clone(), label: format!("{label}, {edit}"), sc: e, report: None });
                }
            }
            if label == "solved" {
                continue;
            }
            if let Ok(sim::search::Outcome::Found(f, _)) = sim::search::search(&sc, Default::default()) {
                let first = match f.after {
                    0 => "it is unsafe as written; its own faults were made as small as they can be".to_string(),
                    n => format!("schedule {n} of the search was unsafe"),
                };
                let report = format!("{first}: {}. What it changed: {}.", f.headline, f.changes());
                let sc = f.standalone();
                found.push(Reached { id: s.id.clone(), label: format!("{label}, search find"), sc, report: Some(report) });
            }
        }
    }
    eprintln!("{} one-change edits show a key moment; {} search finds", edited.len(), found.len());
    for r in draw(edited, n, seed) {
        print("one-change edit", &r);
    }
    for r in draw(found, n, seed) {
        print("search find", &r);
    }
}
