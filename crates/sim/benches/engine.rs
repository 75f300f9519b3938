//! Simulated events per second on a large generated scenario: 8 clients contending for one
//! lock for ten simulated minutes, with pauses, a delayed link, a clock jump and fencing.
//!
//! Run with `cargo bench -p leaselab-sim --bench engine`; the events-per-second figure is
//! the throughput criterion reports.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim::scenario::*;

pub fn large() -> Scenario {
    let mut s = sim::library::get("gc-pause-fenced").expect("library scenario");
    s.id = "bench-large".into();
    s.moments.clear();
    s.duration_ms = 600_000;
    s.lock.ttl_ms = 2_000;
    let cycle = |work| {
        vec![
            Step::Acquire { retry_ms: 50, attempts: 10_000, timeout_ms: 500 },
            Step::Read { activate: false },
            Step::Work { ms: work },
            Step::Renew { on_timeout: Default::default() },
            Step::Write { op: WriteOp::Set, request: None, timeout_ms: None, retries: 0, conditional: false, effect: None },
            Step::Release {},
        ]
    };
    s.clients = (0..8)
        .map(|i| {
            let steps: Vec<Step> = (0..10).flat_map(|_| cycle(300 + 100 * i as u64)).collect();
            Client { name: format!("c{i}"), start_ms: 100 * i as u64, steps }
        })
        .collect();
    s.faults = (0..8)
        .map(|i| Fault::Pause { actor: format!("c{i}"), at_ms: 20_000 + 30_000 * i as u64, duration_ms: 3_000 })
        .chain([
            Fault::Delay { from: "c3".into(), to: "resource".into(), at_ms: 60_000, extra_ms: 5_000, count: 3 },
            Fault::ClockJump { actor: "redis".into(), at_ms: 90_000, by_ms: 1_500 },
        ])
        .collect();
    s
}

fn bench(c: &mut Criterion) {
    let s = large();
    let events = sim::run(&s).expect("runs").events.len();
    eprintln!("bench-large: {events} events per run");
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(events as u64));
    g.bench_function("large-8-clients", |b| b.iter(|| sim::run(std::hint::black_box(&s)).expect("runs")));
    let small = sim::library::get("gc-pause-unfenced").expect("library scenario");
    g.throughput(Throughput::Elements(sim::run(&small).unwrap().events.len() as u64));
    g.bench_function("gc-pause-unfenced", |b| b.iter(|| sim::run(std::hint::black_box(&small)).expect("runs")));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
