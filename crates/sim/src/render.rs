//! Plain-text renderings of a [`Run`]: [`trace_text`] for people and golden files, and
//! [`verdict_json`] for `leaselab run --json`.

use std::fmt::Write;

use serde_json::json;

use crate::checker::Finding;
use crate::time::{fmt, fmt_column, to_ms_f64};
use crate::trace::Run;

/// The narrated trace and the verdict, one event a line.
pub fn trace_text(run: &Run, title: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {} — {title} (seed {})", run.scenario, run.seed);
    let _ = writeln!(s, "#      true time  actor     own clock  what happened");
    let width = run.actors.iter().map(|a| a.name.len()).max().unwrap_or(5).max(5);
    for e in &run.events {
        let _ = writeln!(s, "{:>4} {} {:<width$} {}  {}", e.id, fmt_column(e.at_us), run.name(e.actor), fmt_column(e.local_us), e.text);
        if let Some(m) = &e.moment {
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
    let _ = writeln!(s, "final value: {} after {} accepted writes", run.final_value, run.applied.len());
    let section = |s: &mut String, name: &str, items: &[Finding]| {
        if items.is_empty() {
            return;
        }
        let _ = writeln!(s, "{name}:");
        for f in items {
            let _ = writeln!(s, "  - {} at {} ({}): {}", f.property, fmt(f.at_us), f.actors.join(", "), f.explanation);
        }
    };
    section(&mut s, "violations", &v.violations);
    section(&mut s, "hazards", &v.hazards);
    section(&mut s, "notes", &v.notes);
    s
}

fn finding_json(f: &Finding) -> serde_json::Value {
    json!({
        "property": f.property,
        "at_ms": to_ms_f64(f.at_us),
        "actors": f.actors,
        "explanation": f.explanation,
        "event": f.event,
    })
}

/// The run as one JSON object: the verdict, violations, hazards, notes and the trace.
pub fn verdict_json(run: &Run) -> serde_json::Value {
    let v = &run.verdict;
    json!({
        "verdict": if v.is_safe() { "safe" } else { "unsafe" },
        "scenario": run.scenario,
        "seed": run.seed,
        "properties": v.properties,
        "violations": v.violations.iter().map(finding_json).collect::<Vec<_>>(),
        "hazards": v.hazards.iter().map(finding_json).collect::<Vec<_>>(),
        "notes": v.notes.iter().map(finding_json).collect::<Vec<_>>(),
        "final_value": run.final_value,
        "actors": run.actors,
        "events": run.events.iter().map(|e| json!({
            "id": e.id,
            "at_ms": to_ms_f64(e.at_us),
            "actor": run.name(e.actor),
            "local_ms": to_ms_f64(e.local_us),
            "kind": e.kind,
            "cause": e.cause,
            "text": e.text,
            "moment": e.moment,
        })).collect::<Vec<_>>(),
    })
}
