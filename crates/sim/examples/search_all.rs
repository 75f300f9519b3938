//! Runs "Can this break?" on every library scenario (or those named) and prints what each
//! search found, how many schedules it ran, and how fast: `cargo run --release -p leaselab-sim
//! --example search_all [id…]`.

use std::time::Instant;

use sim::search::{search, Options, Outcome};

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    for sc in sim::library::all() {
        if !ids.is_empty() && !ids.contains(&sc.id) {
            continue;
        }
        for (label, sc) in [("", Some(sc.clone())), (" (fixed)", sc.fixed().and_then(Result::ok))] {
            let Some(sc) = sc else { continue };
            let t = Instant::now();
            let one = search(&sc, Options { faults: 1, ..Options::default() }).expect("library scenarios run");
            let t1 = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let out = search(&sc, Options::default()).expect("library scenarios run");
            let secs = t.elapsed().as_secs_f64();
            let c = out.coverage();
            let rate = c.schedules as f64 / secs;
            println!(
                "{}{label}: one-fault search {} schedules in {:.2} s; default search {} schedules in {:.2} s ({rate:.0}/s)",
                sc.id,
                one.coverage().schedules,
                t1,
                c.schedules,
                secs
            );
            match &out {
                Outcome::Found(f, _) => {
                    println!("  FOUND after {} ({} shrink runs): {}", f.after, f.shrink_runs, f.headline);
                    for (fault, o) in &f.faults {
                        println!("    {} [{}]", fault.describe(), o.label());
                    }
                }
                Outcome::NotFound(c) => println!("  {}", c.statement()),
            }
        }
    }
}
