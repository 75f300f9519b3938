//! Runs "Can this break?" on every library scenario (or those named), as written and fixed,
//! with up to two faults and at most SECONDS each (`LEASELAB_SECONDS`, 60 unless given), and
//! prints what each search found or covered, how many schedules it ran, and how fast:
//! `cargo run --release -p leaselab-sim --example search_all [id…]`.

use std::time::Instant;

use sim::search::{Options, Outcome, Search};

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    let limit: f64 = std::env::var("LEASELAB_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60.0);
    for sc in sim::library::all() {
        if !ids.is_empty() && !ids.contains(&sc.id) {
            continue;
        }
        for (label, sc) in [("", Some(sc.clone())), (" (fixed)", sc.fixed().and_then(Result::ok))] {
            let Some(sc) = sc else { continue };
            let t = Instant::now();
            let mut s = Search::new(&sc, Options { budget: usize::MAX, ..Options::default() }).expect("library scenarios run");
            let mut stopped = false;
            while !s.step(256) {
                if t.elapsed().as_secs_f64() > limit {
                    stopped = true;
                    break;
                }
            }
            let secs = t.elapsed().as_secs_f64();
            let out = s.so_far();
            let c = out.coverage();
            let rate = c.schedules as f64 / secs;
            let how = if stopped { "stopped at the time limit" } else { "ended" };
            println!("{}{label}: {how}, {} schedules in {secs:.2} s ({rate:.0}/s)", sc.id, c.schedules);
            match &out {
                Outcome::Found(f, _) => {
                    println!("  FOUND after {} ({} shrink runs): {}", f.after, f.shrink_runs, f.headline);
                    for (fault, o) in &f.faults {
                        println!("    {} [{}]", fault.describe(), o.label());
                    }
                }
                Outcome::NotFound(c) if stopped => println!("  {}", c.stopped_statement()),
                Outcome::NotFound(c) => println!("  {}", c.statement()),
            }
        }
    }
}
