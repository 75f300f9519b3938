//! Plain-text renderings of a [`Run`]: [`trace_text`] for people and golden files, and
//! [`run_json`] for `leaselab run --json`.

use std::fmt::Write;

use serde::Serialize;

use crate::checker::words;
use crate::narrate::Cx;
use crate::scenario::Scenario;
use crate::time::{fmt, fmt_column, to_ms_f64};
use crate::trace::{Actor, EventKind, Run};
use crate::verdict::{Finding, Property};

/// The narrated trace and the verdict, one event a line.
pub fn trace_text(run: &Run, sc: &Scenario) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {} — {} (seed {})", run.scenario, sc.title, run.seed);
    let tell = Cx::new(sc, run);
    let _ = writeln!(s, "#      true time  actor     own clock  what happened");
    let width = run.actors.iter().map(|a| a.name.len()).max().unwrap_or(5).max(5);
    for e in &run.events {
        let _ =
            writeln!(s, "{:>4} {} {:<width$} {}  {}", e.id, fmt_column(e.at_us), run.name(e.actor), fmt_column(e.local_us), tell.event(e));
        if let Some(m) = run.moment(e.id) {
            let _ = writeln!(s, "{:>width2$}» {m}", "", width2 = 16 + width + 13);
        }
    }
    s.push('\n');
    s.push_str(&verdict_text(run));
    s
}

/// The verdict alone, as text.
pub fn verdict_text(run: &Run) -> String {
    let mut s = String::new();
    let v = &run.verdict;
    let _ = writeln!(s, "verdict: {}", if v.is_safe() { "SAFE" } else { "UNSAFE" });
    let _ = writeln!(s, "final value: {}", final_value(run));
    let section = |s: &mut String, name: &str, items: &[Finding]| {
        if items.is_empty() {
            return;
        }
        let _ = writeln!(s, "{name}:");
        for f in items {
            let _ = writeln!(s, "  - {}", finding(run, f));
        }
    };
    section(&mut s, "violations", &v.violations);
    section(&mut s, "hazards", &v.hazards);
    section(&mut s, "notes", &v.notes);
    s
}

/// A finding of `run` in one line: "out-of-order-write at 27.01 s (A, B): the resource
/// accepted …".
pub fn finding(run: &Run, f: &Finding) -> String {
    format!("{} at {} ({}): {}", f.property, fmt(f.at_us), words::actors(run, f).join(", "), words::explanation(run, f))
}

/// What the protected value ended as: "1 after 2 accepted writes" (the verdict's line in the
/// app, the text above and `leaselab walkthrough`).
pub fn final_value(run: &Run) -> String {
    format!("{} after {} accepted writes", run.final_value, run.applied.len())
}

/// The heading of the findings that explain a verdict: "How it came about: 2 hazards and 1
/// note", or "Notes: 1 note" when there are only notes.
pub fn how_it_came_about(hazards: usize, notes: usize) -> String {
    let count = |n: usize, what: &str| if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") };
    match (hazards, notes) {
        (h, 0) => format!("How it came about: {}", count(h, "hazard")),
        (0, n) => format!("Notes: {}", count(n, "note")),
        (h, n) => format!("How it came about: {} and {}", count(h, "hazard"), count(n, "note")),
    }
}

/// A finding as `leaselab run --json` prints it: its actors by name, and its sentence.
#[derive(Serialize)]
pub struct FindingJson<'a> {
    property: &'a str,
    at_ms: f64,
    actors: Vec<&'a str>,
    explanation: String,
    event: Option<usize>,
}

impl<'a> FindingJson<'a> {
    /// `f`, a finding of `run`, worded.
    pub fn new(run: &'a Run, f: &Finding) -> Self {
        FindingJson {
            property: f.property.as_str(),
            at_ms: to_ms_f64(f.at_us),
            actors: words::actors(run, f),
            explanation: words::explanation(run, f),
            event: f.event,
        }
    }
}

/// An event as `leaselab run --json` prints it.
#[derive(Serialize)]
pub struct EventJson<'a> {
    id: usize,
    at_ms: f64,
    actor: &'a str,
    local_ms: f64,
    kind: &'a EventKind,
    cause: Option<usize>,
    text: String,
    moment: Option<&'a str>,
}

/// The run as one JSON object (the verdict, violations, hazards, notes and the trace),
/// borrowed from the run so that a large trace is written out without being copied first.
#[derive(Serialize)]
pub struct RunJson<'a> {
    verdict: &'static str,
    scenario: &'a str,
    seed: u64,
    properties: &'a [Property],
    violations: Vec<FindingJson<'a>>,
    hazards: Vec<FindingJson<'a>>,
    notes: Vec<FindingJson<'a>>,
    final_value: i64,
    actors: &'a [Actor],
    events: Vec<EventJson<'a>>,
}

/// The run as `leaselab run --json` prints it.
pub fn run_json<'a>(run: &'a Run, sc: &Scenario) -> RunJson<'a> {
    let findings = |f: &[Finding]| f.iter().map(|f| FindingJson::new(run, f)).collect();
    let v = &run.verdict;
    let tell = Cx::new(sc, run);
    RunJson {
        verdict: if v.is_safe() { "safe" } else { "unsafe" },
        scenario: &run.scenario,
        seed: run.seed,
        properties: &v.properties,
        violations: findings(&v.violations),
        hazards: findings(&v.hazards),
        notes: findings(&v.notes),
        final_value: run.final_value,
        actors: &run.actors,
        events: run
            .events
            .iter()
            .map(|e| EventJson {
                id: e.id,
                at_ms: to_ms_f64(e.at_us),
                actor: run.name(e.actor),
                local_ms: to_ms_f64(e.local_us),
                kind: &e.kind,
                cause: e.cause,
                text: tell.event(e),
                moment: run.moment(e.id),
            })
            .collect(),
    }
}
