//! `leaselab search`: the search's outcome as text for people and as JSON for scripts.

use serde_json::{json, Value};
use sim::scenario::Scenario;
use sim::search::{thousands, Coverage, Outcome};

/// Schedules per kind of fault, and the pace: `pauses 520, delays 96 … in 0.41 s (1,950 schedules/s)`.
fn tried(c: &Coverage, secs: f64) -> String {
    let per_kind = if c.by_kind.is_empty() { String::new() } else { format!(" (with each kind of fault: {})", c.tally()) };
    let pace = if secs > 0.0 && c.schedules > 0 {
        format!(", {} schedules/s", thousands((c.schedules as f64 / secs) as usize))
    } else {
        String::new()
    };
    let t = thousands;
    format!(
        "Ran {} schedules{per_kind}: {} of one fault (of {}), {} pairs (of {}), {} random; in {secs:.2} s{pace}.\n",
        t(c.schedules),
        t(c.singles),
        t(c.singles_total),
        t(c.pairs),
        t(c.pairs_total.min(usize::MAX as u64) as usize),
        t(c.random)
    )
}

/// The outcome for people; `again` is the command's arguments, to repeat the search.
pub fn text(sc: &Scenario, outcome: &Outcome, secs: f64, again: &str) -> String {
    let mut out = format!("Can {} break?\n", sc.id);
    match outcome {
        Outcome::Found(f, c) => {
            if f.after == 0 {
                out.push_str("It is unsafe as written: no fault needs adding. Its own faults were made as small as they can be.\n");
            } else {
                out.push_str(&format!("Yes: schedule {} of the search was unsafe.\n", f.after));
            }
            out.push_str(&tried(c, secs));
            let n = f.faults.len();
            let faults = if n == 1 { "1 fault".to_string() } else { format!("{n} faults") };
            out.push_str(&format!(
                "{}. The smallest unsafe schedule found ({} more runs to make it small) has {faults}:\n",
                f.headline, f.shrink_runs
            ));
            if n == 0 {
                out.push_str("  (no fault at all: the design is unsafe on an ordinary schedule)\n");
            }
            for ((fault, o), was) in f.faults.iter().zip(&f.was) {
                let was = was.as_ref().map(|w| format!("; was: {}", w.describe())).unwrap_or_default();
                out.push_str(&format!("  {}  [{}{was}]\n", fault.describe(), o.label()));
            }
            out.push_str(&format!("See it: leaselab search {again} --json | jq .found > found.json && leaselab run found.json\n"));
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
        v["found"] = json!(f.standalone().to_value());
        v["after"] = json!(f.after);
        v["shrink_runs"] = json!(f.shrink_runs);
        v["headline"] = json!(f.headline);
        v["faults"] = f.faults.iter().map(|(fault, o)| json!({ "fault": fault.describe(), "origin": o })).collect();
        v["statement"] = Value::Null;
    }
    v
}
