//! Where an edit's time goes natively: the run, its facts and the layout, on a scenario file.
//! Usage: cargo run --release -p leaselab-draw --example edit_cost -- <scenario.json>   (N=iterations, 20 unless given)
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("a scenario file");
    let sc = sim::Scenario::parse(&std::fs::read_to_string(&path).expect("readable")).expect("valid");
    let n: usize = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let t = Instant::now();
    let mut run = None;
    for _ in 0..n {
        run = Some(sim::run(&sc).unwrap());
    }
    let run = run.unwrap();
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1000.0 / n as f64;
    println!("{} events", run.events.len());
    println!("run     {:.2} ms", ms(t));
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sim::facts::Facts::of(&run));
    }
    println!("facts   {:.2} ms", ms(t));
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(draw::layout::layout(&run, &sc, 1000.0));
    }
    println!("layout  {:.2} ms", ms(t));
    let l = draw::layout::layout(&run, &sc, 1000.0);
    println!("{} marks, {} arrows, {} bars", l.marks.len(), l.arrows.len(), l.bars.len());
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(sc.clone() == sc);
    }
    println!("compare {:.3} ms", ms(t));
}
