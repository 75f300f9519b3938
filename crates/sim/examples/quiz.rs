//! Prints every library question with the engine's answer, and whether each challenge's
//! solution reaches its goal: `cargo run -p leaselab-sim --example quiz [id…]`. For authors.

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    for s in sim::library::catalog().iter().filter(|s| only.is_empty() || only.contains(&s.id)) {
        let r = match sim::run(s) {
            Ok(r) => r,
            Err(e) => {
                println!("{}: cannot run: {e}", s.id);
                continue;
            }
        };
        println!("== {} ({:?})", s.id, r.verdict.verdict);
        for (i, q) in s.questions.iter().enumerate() {
            match sim::predict::answer(&r, q) {
                Ok(a) => {
                    let ok = if a.right == Some(q.answer) { "ok " } else { "BAD" };
                    println!("  {ok} q{i} at step {} → {} (step {}): {}", a.asked + 1, a.value, a.proof + 1, q.ask);
                }
                Err(e) => println!("  ERR q{i}: {e}"),
            }
        }
        match (&s.challenge, sim::predict::solved(s)) {
            (Some(c), Some(Ok(sol))) => match sim::run(&sol) {
                Ok(r2) => println!(
                    "  challenge: default {:?}, solution {:?}, goal {:?} {}",
                    r.verdict.verdict,
                    r2.verdict.verdict,
                    c.goal,
                    if r2.verdict.verdict == c.goal && r.verdict.verdict != c.goal { "ok" } else { "BAD" }
                ),
                Err(e) => println!("  challenge: solution cannot run: {e}"),
            },
            (Some(_), Some(Err(e))) => println!("  challenge: solution does not apply: {e}"),
            _ => println!("  no challenge"),
        }
    }
}
