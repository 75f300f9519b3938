//! Generated scenarios over the whole format (`crates/sim/tests/gen`) through every stage:
//! validation, the engine, the checker and the layout. Properties: no panic; every stage
//! bounded (events, findings of a kind, layout elements); the same run twice; and with atomic
//! fencing and tokens that only grow, never an out-of-order write.
//!
//! `scripts/test` runs 3,000 scenarios. A longer run is one command:
//! `LEASELAB_FUZZ_COUNT=200000 cargo test --release -p leaselab-draw --test fuzz -- --nocapture`
//! (`LEASELAB_FUZZ_START=N` starts at generator seed N). A failing scenario is written to
//! `target/fuzz-failures/gen-<seed>.json`, ready for `leaselab run`.

#[path = "../../sim/tests/gen/mod.rs"]
mod gen;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use sim::scenario::{CounterStore, Fencing, LockKind, ResourceKind, Scenario, TokenKind};
use sim::verdict::Kind;
use sim::RunError;

/// Layout elements per event, at most (plus a fixed part per actor and for the axis).
const LAYOUT_PER_EVENT: usize = 4;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Whether the resource fences with tokens that only ever grow: then no write made under an
/// older grant can be accepted after one made under a newer grant.
fn fenced_with_growing_tokens(s: &Scenario) -> bool {
    let growing = match s.lock.kind {
        LockKind::Consensus | LockKind::ZooKeeper | LockKind::Kubernetes => s.token.source == TokenKind::Counter,
        LockKind::Redis | LockKind::Redlock => s.token.source == TokenKind::Counter && s.token.store == CounterStore::Durable,
        // A failover pair hands out no tokens.
        LockKind::Pacemaker | LockKind::None => false,
    };
    growing && s.resource.fencing == Fencing::Atomic && s.resource.kind != ResourceKind::External
}

#[derive(Default)]
struct Stats {
    invalid: usize,
    ran: usize,
    too_many: usize,
    fenced: usize,
    max_events: usize,
    slowest: (Duration, String, usize),
}

/// What is wrong with one generated scenario's run, if anything.
fn check(s: &Scenario, stats: &mut Stats) -> Result<(), String> {
    let started = Instant::now();
    let first = catch_unwind(AssertUnwindSafe(|| sim::run(s))).map_err(|_| "the engine panicked".to_string())?;
    let run = match first {
        Ok(run) => run,
        Err(RunError::TooManyEvents { .. }) => {
            stats.too_many += 1;
            return Ok(());
        }
        Err(RunError::Invalid(e)) => return Err(format!("valid when parsed, invalid when run: {e}")),
    };
    let took = started.elapsed();
    stats.ran += 1;
    if took > stats.slowest.0 {
        stats.slowest = (took, s.id.clone(), run.events.len());
    }
    stats.max_events = stats.max_events.max(run.events.len());
    if run.events.len() > sim::scenario::limits::EVENTS {
        return Err(format!("{} events, above the limit", run.events.len()));
    }
    let v = &run.verdict;
    let mut per_kind = BTreeMap::new();
    for f in v.violations.iter().chain(&v.hazards).chain(&v.notes) {
        *per_kind.entry(f.property.as_str()).or_insert(0usize) += 1;
    }
    if let Some((kind, n)) = per_kind.iter().find(|(_, &n)| n > sim::checker::LISTED_PER_KIND) {
        return Err(format!("{n} {kind} findings written out"));
    }
    let again = sim::run(s).map_err(|e| format!("the second run failed: {e}"))?;
    if again != run {
        return Err("two runs of the same scenario differ".into());
    }
    let l = catch_unwind(AssertUnwindSafe(|| draw::layout::layout(&run, s, 1000.0))).map_err(|_| "the layout panicked".to_string())?;
    let elements = l.lanes.len() + l.ticks.len() + l.bars.len() + l.arrows.len() + l.marks.len() + l.pauses.len();
    if elements > LAYOUT_PER_EVENT * run.events.len() + 16 * run.actors.len() + 64 {
        return Err(format!("{elements} layout elements for {} events", run.events.len()));
    }
    if fenced_with_growing_tokens(s) {
        if let Some(w) = v.violations.iter().find(|w| w.property == Kind::OutOfOrderWrite) {
            return Err(format!(
                "atomic fencing with growing tokens let an out-of-order write through: {}",
                sim::checker::words::explanation(&run, w)
            ));
        }
        stats.fenced += 1;
    }
    Ok(())
}

#[test]
fn generated_scenarios_never_break_a_stage() {
    let count = env_u64("LEASELAB_FUZZ_COUNT", 3_000);
    let start = env_u64("LEASELAB_FUZZ_START", 0);
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    let began = Instant::now();
    for seed in start..start + count {
        let generated = gen::any_service(seed);
        // Through the text, as a file or a link would come in.
        let s = match Scenario::parse(&generated.to_json()) {
            Ok(s) => s,
            Err(_) => {
                stats.invalid += 1;
                continue;
            }
        };
        if let Err(why) = check(&s, &mut stats) {
            let file = keep(&format!("fuzz-failures/gen-{seed}.json"), &s.to_json());
            failures.push(format!("generator seed {seed} (scenario seed {}): {why}\n  reproduce: leaselab run {}", s.seed, file.display()));
        }
    }
    println!(
        "{count} generated from seed {start} in {:.1} s: {} invalid, {} ran ({} with atomic fencing and growing tokens), {} stopped at the event limit; most events {}; slowest {} ({} events, {:.0} ms)",
        began.elapsed().as_secs_f64(),
        stats.invalid,
        stats.ran,
        stats.fenced,
        stats.too_many,
        stats.max_events,
        stats.slowest.1,
        stats.slowest.2,
        stats.slowest.0.as_secs_f64() * 1000.0,
    );
    // The slowest, for measuring with `leaselab run` (README: "Bounds").
    if let Some(seed) = stats.slowest.1.strip_prefix("gen-").and_then(|n| n.parse::<u64>().ok()) {
        println!("the slowest written to {}", keep("fuzz-slowest.json", &gen::scenario(seed).to_json()).display());
    }
    assert!(stats.ran > count as usize / 3, "too few generated scenarios are valid: {} of {count}", stats.ran);
    assert!(failures.is_empty(), "{} of {count} generated scenarios failed:\n{}", failures.len(), failures.join("\n"));
}

/// Writes a generated scenario under the workspace's `target/` (`target/fuzz-slowest.json`), as
/// the README says, whatever `CARGO_TARGET_DIR` is (the directory is made if the build's
/// output goes elsewhere); the path written.
fn keep(name: &str, json: &str) -> std::path::PathBuf {
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/draw is two levels down");
    let path = workspace.join("target").join(name);
    let write = std::fs::create_dir_all(path.parent().expect("a directory")).and_then(|()| std::fs::write(&path, json));
    write.unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    path
}

/// The traces of a sample of generated scenarios, as fingerprints in a reviewed file that the
/// wasm tests (`tests/browser.rs`) reproduce in the browser. After an intended change to the
/// engine, regenerate with `UPDATE_GOLDEN=1 cargo test -p leaselab-draw --test fuzz`.
#[test]
fn generated_sample_fingerprints_match_the_reviewed_file() {
    const SAMPLE: usize = 40;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/golden/generated.txt");
    let mut text = String::from("# generator seed, FNV-1a of sim::render::trace_text (see crates/draw/tests/fuzz.rs)\n");
    let mut seed = 0;
    let mut n = 0;
    while n < SAMPLE {
        let s = gen::scenario(seed);
        // Small runs only: the wasm tests run a debug build.
        if let Ok(run) = Scenario::parse(&s.to_json()).map_err(|_| ()).and_then(|s| sim::run(&s).map_err(|_| ())) {
            if run.events.len() <= 5_000 {
                text.push_str(&format!("{seed} {:016x}\n", gen::fingerprint(&sim::render::trace_text(&run, &s))));
                n += 1;
            }
        }
        seed += 1;
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    let differ: Vec<&str> = text.lines().zip(want.lines()).filter(|(a, b)| a != b).map(|(a, _)| a).collect();
    assert!(want == text, "generated traces differ from {} (rerun with UPDATE_GOLDEN=1 and review): {differ:?}", path.display());
}
