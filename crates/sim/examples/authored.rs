//! Prints the runs each library scenario's key moments were written for (issue 49: the authored
//! run as the witness): as written, with its fix, with its challenge's solution, each as the
//! narrated trace with its moments (» lines) and its verdict (`render::trace_text`). For reading every moment against
//! the run it is shown on: a moment whose words are false on one of these runs names it in its
//! `not_on`.
//!
//! `cargo run -p leaselab-sim --example authored [id…]` (every scenario without ids).

fn main() {
    let ids: Vec<String> = std::env::args().skip(1).collect();
    for s in sim::library::all().into_iter().filter(|s| ids.is_empty() || ids.contains(&s.id)) {
        for (label, sc) in sim::witness::authored(&s) {
            println!("\n######## {} [{label}]", s.id);
            if let (Some(c), "solved") = (&s.challenge, label) {
                println!("# the challenge: {}", c.ask);
            }
            match sim::run(&sc) {
                Ok(run) => print!("{}", sim::render::trace_text(&run, &sc)),
                Err(e) => println!("cannot run: {e}"),
            }
        }
    }
}
