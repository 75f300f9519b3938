//! Simulated events per second on a large generated scenario: 8 clients contending for one
//! lock for ten simulated minutes, with pauses, a delayed link, a clock jump and fencing.
//!
//! Run with `cargo bench -p leaselab-sim --bench engine`; the events-per-second figure is
//! the throughput criterion reports. Before timing, it prints the bytes and allocations per
//! event of one run (counted by the allocator below, which adds two relaxed atomic additions
//! to each allocation).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sim::scenario::*;
use sim::time::Millis;

/// The system allocator, counting what is asked of it.
struct Counting;

static BYTES: AtomicU64 = AtomicU64::new(0);
static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        ALLOCS.fetch_add(1, Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A growth counts as what it adds.
        BYTES.fetch_add(new_size.saturating_sub(layout.size()) as u64, Relaxed);
        ALLOCS.fetch_add(1, Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes and allocations per event of one run of `s`.
fn allocated(s: &Scenario) -> (usize, f64, f64) {
    let (b0, a0) = (BYTES.load(Relaxed), ALLOCS.load(Relaxed));
    let events = sim::run(s).expect("runs").events.len();
    let (b, a) = (BYTES.load(Relaxed) - b0, ALLOCS.load(Relaxed) - a0);
    (events, b as f64 / events as f64, a as f64 / events as f64)
}

pub fn large() -> Scenario {
    let mut s = sim::library::get("gc-pause-fenced").expect("library scenario");
    s.id = "bench-large".into();
    s.moments.clear();
    s.duration_ms = Millis::new(600_000);
    s.lock.ttl_ms = Millis::new(2_000);
    let cycle = |work| {
        vec![
            Step::Acquire { retry_ms: Millis::new(50), attempts: 10_000, timeout_ms: Millis::new(500) },
            Step::Read { activate: false },
            Step::Work { ms: work },
            Step::Renew { on_timeout: Default::default() },
            Step::Write { op: WriteOp::Set, request: None, timeout_ms: None, retries: 0, conditional: false, effect: None },
            Step::Release {},
        ]
    };
    s.clients = (0..8)
        .map(|i| {
            let steps: Vec<Step> = (0..10).flat_map(|_| cycle(Millis::new(300 + 100 * i as u64))).collect();
            Client { name: format!("c{i}"), start_ms: Millis::new(100 * i as u64), steps }
        })
        .collect();
    s.faults = (0..8)
        .map(|i| {
            Fault::Pause(fault::Pause {
                actor: format!("c{i}"),
                at_ms: Millis::new(20_000 + 30_000 * i as u64),
                duration_ms: Millis::new(3_000),
            })
        })
        .chain([
            Fault::Delay(fault::Delay {
                from: "c3".into(),
                to: "resource".into(),
                at_ms: Millis::new(60_000),
                extra_ms: Millis::new(5_000),
                count: 3,
            }),
            Fault::ClockJump(fault::ClockJump { actor: "redis".into(), at_ms: Millis::new(90_000), by_ms: 1_500 }),
        ])
        .collect();
    s
}

/// glibc gives a heap's top back to the system when a free leaves more than its trim threshold
/// there, a threshold it moves with the largest block it has unmapped. A run's vectors sit near
/// that threshold, so whether every run page-faults its 5 MB afresh (+50% a run) turned on an
/// unrelated allocation that happened to sit at the top of the heap. The thresholds are fixed
/// here, far above a run, so that runs reuse their memory as they do in the browser (wasm's
/// memory is never given back) and the figure measures the engine.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn steady_heap() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: mallopt only sets parameters of the allocator, which glibc allows at any time.
    unsafe {
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn steady_heap() {}

fn bench(c: &mut Criterion) {
    steady_heap();
    let s = large();
    let (events, bytes, allocs) = allocated(&s);
    eprintln!("bench-large: {events} events per run; {bytes:.0} bytes in {allocs:.2} allocations per event");
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
