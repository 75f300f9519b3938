use sim::search::classes::{templates, Shape};
fn main() {
    let s = sim::library::get("redlock-happy").unwrap();
    let run = sim::run(&s).unwrap();
    let ts: Vec<_> = templates(&s, &run, &[])
        .into_iter()
        .filter(|t| matches!(&t.faults[..], [sim::scenario::Fault::Pause(p)] if p.actor == "client1"))
        .collect();
    let mut sc = s.clone();
    let mut runs = vec![];
    println!("{}", runs.len() as u8 + 0);
    for l in [49u64, 50, 51] {
        sc.faults = ts[0].at(sim::time::Millis::new(0), sim::time::Millis::new(l));
        runs.push(sim::judge_within(&sc, 10_000).unwrap());
    }
    for (i, (a, b)) in runs[0].events.iter().zip(&runs[1].events).enumerate() {
        if std::mem::discriminant(&a.kind) != std::mem::discriminant(&b.kind)
            || a.actor != b.actor
            || (!matches!(a.kind, sim::EventKind::Paused { .. }) && format!("{:?}", a.kind) != format!("{:?}", b.kind))
        {
            println!("49 vs 50 first differ at {i}: {:?} {:?} @{:?} | {:?} {:?} @{:?}", a.actor, a.kind, a.at_us, b.actor, b.kind, b.at_us);
            for e in &runs[1].events[i.saturating_sub(4)..i + 3] {
                println!("   50: {:?} {:?} {:?}", e.at_us, e.actor, e.kind);
            }
            for e in &runs[0].events[i.saturating_sub(4)..i + 3] {
                println!("   49: {:?} {:?} {:?}", e.at_us, e.actor, e.kind);
            }
            break;
        }
    }
}
