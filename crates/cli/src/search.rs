//! `leaselab search`: the search's outcome as text for people and as JSON for scripts.

use serde_json::{json, Value};
use sim::scenario::Scenario;
use sim::search::{thousands, Coverage, Origin, Outcome};

fn origin(o: Origin) -> &'static str {
    match o {
        Origin::AsWritten => "as written",
        Origin::Changed => "changed from the scenario's own",
        Origin::Added => "added by the search",
    }
}

/// Schedules per kind of fault, and the pace: `pauses 520, delays 96 … in 0.41 s (1,950 schedules/s)`.
fn tried(c: &Coverage, secs: f64) -> String {
    let kinds: Vec<String> = c.by_kind.iter().map(|(k, n)| format!("{} {n}", k.plural())).collect();
    let per_kind = if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) };
    let pace = if secs > 0.0 && c.schedules > 0 {
        format!(", {} schedules/s", thousands((c.schedules as f64 / secs) as usize))
    } else {
        String::new()
    };
    let t = thousands;
    format!(
        "Ran {} schedules{per_kind}: {} of one fault (of {}), {} pairs, {} random; in {secs:.2} s{pace}.\n",
        t(c.schedules),
        t(c.singles),
        t(c.singles_total),
        t(c.pairs),
        t(c.random)
    )
}

/// The outcome for people.
pub fn text(sc: &Scenario, outcome: &Outcome, secs: f64) -> String {
    let mut out = format!("Can {} break?\n", sc.id);
    match outcome {
        Outcome::Found(f, c) => {
            if f.after == 0 {
                out.push_str("It is unsafe as written: no fault needs adding.\n");
            } else {
                out.push_str(&format!("Yes: schedule {} of the search was unsafe.\n", f.after));
            }
            out.push_str(&tried(c, secs));
            let n = f.faults.len();
            let faults = if n == 1 { "1 fault".to_string() } else { format!("{n} faults") };
            out.push_str(&format!("Shrunk in {} runs to {faults}: {}.\n", f.shrink_runs, f.headline));
            if n == 0 {
                out.push_str("  (no fault at all: the design is unsafe on an ordinary schedule)\n");
            }
            for (fault, o) in &f.faults {
                out.push_str(&format!("  {}  [{}]\n", fault.describe(), origin(*o)));
            }
            out.push_str(&format!("See it: leaselab search {} --json | jq .found > found.json && leaselab run found.json\n", sc.id));
        }
        Outcome::NotFound(c) => {
            out.push_str(&format!("Nothing found. {}\n", c.statement()));
            out.push_str(&tried(c, secs));
        }
    }
    out
}

/// The outcome for scripts: `found` is a scenario `leaselab run` accepts, or null.
pub fn json(outcome: &Outcome, secs: f64) -> Value {
    let c = outcome.coverage();
    let mut v = json!({
        "found": null,
        "schedules": c.schedules,
        "coverage": c,
        "statement": c.statement(),
        "seconds": secs,
    });
    if let Outcome::Found(f, _) = outcome {
        v["found"] = f.standalone().to_value();
        v["after"] = json!(f.after);
        v["shrink_runs"] = json!(f.shrink_runs);
        v["headline"] = json!(f.headline);
        v["faults"] = f.faults.iter().map(|(fault, o)| json!({ "fault": fault.describe(), "origin": o })).collect();
        v["statement"] = Value::Null;
    }
    v
}
