//! `leaselab search`: the search run in slices against the clock ([`drive`]: a time limit,
//! progress on an interactive terminal, Ctrl-C), and its outcome as text for people and as
//! JSON for scripts.
//!
//! The engine has no clock: the time is measured here, between slices of
//! [`Search::step`](sim::search::Search::step).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sim::scenario::Scenario;
use sim::search::{duration, thousands, Coverage, Outcome, Search};

/// Why a search ended before its budget: what it has so far is its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It ran for the time limit.
    TimeLimit,
    /// Ctrl-C (SIGINT).
    Interrupted,
}

impl Stop {
    /// As `--json` names it.
    fn name(self) -> &'static str {
        match self {
            Stop::TimeLimit => "time-limit",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// Set by Ctrl-C while a search runs.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// From here on, Ctrl-C asks the search to stop and print what it has; a second Ctrl-C ends
/// the program at once (exit status 130), as Ctrl-C does elsewhere.
pub fn catch_interrupt() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Each slice aims at this long, so that a stop waits no longer (a single run can take longer:
/// then a slice is that one run).
const SLICE: Duration = Duration::from_millis(100);

/// Runs the search to its end, its time limit or Ctrl-C, with a line of progress on `progress`
/// (standard error, when it is a terminal); the outcome (so far), why it stopped early, if it
/// did, and the seconds it took.
pub fn drive(search: &mut Search, limit: Duration, mut progress: Option<&mut dyn Write>) -> (Outcome, Option<Stop>, f64) {
    let start = Instant::now();
    let mut runs = 1;
    let mut shown = start;
    let stop = loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            break Some(Stop::Interrupted);
        }
        if start.elapsed() >= limit {
            break Some(Stop::TimeLimit);
        }
        let t = Instant::now();
        if search.step(runs) {
            break None;
        }
        // The next slice sized from this one's pace, never past the time limit by much.
        let per_run = t.elapsed().as_secs_f64() / runs as f64;
        let left = limit.saturating_sub(start.elapsed()).min(SLICE).as_secs_f64();
        runs = ((left / per_run.max(1e-6)) as usize).clamp(1, 4 * runs);
        if let Some(w) = progress.as_deref_mut() {
            if shown.elapsed() >= Duration::from_millis(250) {
                shown = Instant::now();
                let _ = write!(w, "\r\x1b[K{}", progress_line(search, start.elapsed(), limit));
                let _ = w.flush();
            }
        }
    };
    if let Some(w) = progress {
        let _ = write!(w, "\r\x1b[K");
        let _ = w.flush();
    }
    let secs = start.elapsed().as_secs_f64();
    (search.so_far(), stop, secs)
}

/// `searching: 412/2,000 schedules, 6/s, about 4 min 25 s left; Ctrl-C stops`: short, as a
/// line wider than the terminal would not be overwritten.
fn progress_line(search: &Search, elapsed: Duration, limit: Duration) -> String {
    let p = search.progress();
    let secs = elapsed.as_secs_f64();
    if let Some((runs, most)) = p.shrinking {
        return format!("found one; shrinking it: {}/{} runs at most; Ctrl-C stops", thousands(runs), thousands(most));
    }
    let rate = p.schedules as f64 / secs.max(1e-3);
    let left = if rate > 0.0 { (p.budget - p.schedules) as f64 / rate } else { f64::INFINITY };
    let until_limit = limit.saturating_sub(elapsed).as_secs_f64();
    let estimate =
        if left > until_limit { format!("time limit in {}", duration(until_limit)) } else { format!("about {} left", duration(left)) };
    format!(
        "searching: {}/{} schedules, {}/s, {estimate}; Ctrl-C stops",
        thousands(p.schedules),
        thousands(p.budget),
        thousands(rate as usize)
    )
}

/// Schedules per kind of fault, and the pace: `pauses 520, delays 96 … in 0.41 s, 1,950 runs/s`
/// (the runs spent shrinking a find count in the pace: they took part of the time).
fn tried(c: &Coverage, shrink_runs: usize, secs: f64) -> String {
    let per_kind = if c.by_kind.is_empty() {
        String::new()
    } else {
        format!(" (outside the order classes, schedules with each kind of fault: {})", c.tally())
    };
    let runs = c.schedules + shrink_runs;
    let shrinking = if shrink_runs > 0 { format!(" with {} runs to make the find smaller", thousands(shrink_runs)) } else { String::new() };
    let pace = if secs > 0.0 && runs > 0 { format!(", {} runs/s", thousands((runs as f64 / secs) as usize)) } else { String::new() };
    let t = thousands;
    format!(
        "Ran {} schedules{per_kind}: a first round of {} of one fault (of {}) and {} pairs (of {}); {} in order classes ({} different sequences of events){}; in {secs:.2} s{shrinking}{pace}.\n",
        t(c.schedules),
        t(c.singles),
        t(c.singles_total),
        t(c.pairs),
        t(c.pairs_total.min(usize::MAX as u64) as usize),
        t(c.class_runs),
        t(c.behaviours),
        if c.asked > 2 { format!("; {} random of three", t(c.random)) } else { String::new() }
    )
}

/// What was covered: a search stopped early says so, rather than that the budget was too small.
fn statement(c: &sim::search::Coverage, stop: Option<Stop>) -> String {
    if stop.is_some() {
        c.stopped_statement()
    } else {
        c.statement()
    }
}

/// The outcome for people; `again` is the command's arguments, to repeat the search.
pub fn text(sc: &Scenario, outcome: &Outcome, stop: Option<Stop>, secs: f64, again: &str) -> String {
    let mut out = format!("Can {} break?\n", sc.id);
    let how = match stop {
        None => "",
        Some(Stop::TimeLimit) => "Stopped at the time limit (raise it with --time-limit); what it has so far:",
        Some(Stop::Interrupted) => "Stopped by Ctrl-C; what it has so far:",
    };
    if !how.is_empty() {
        let cut = matches!(outcome, Outcome::Found(..)).then_some(" (finding it smaller was cut short)").unwrap_or_default();
        out.push_str(&format!("{how}{cut}\n"));
    }
    match outcome {
        Outcome::NotFound(c) if c.schedules == 0 => {
            out.push_str("Nothing found: no schedule had run yet.\n");
            return out;
        }
        Outcome::Found(f, c) => {
            if f.after == 0 && stop.is_some() {
                out.push_str("It is unsafe as written: no fault needs adding. Its own faults were being made smaller when it stopped.\n");
            } else if f.after == 0 {
                out.push_str("It is unsafe as written: no fault needs adding. Its own faults were made as small as the shrinker could (smaller, not necessarily the smallest).\n");
            } else {
                out.push_str(&format!("Yes: schedule {} of the search was unsafe.\n", f.after));
            }
            out.push_str(&tried(c, f.shrink_runs, secs));
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
            for fault in &f.removed {
                out.push_str(&format!("  {}  [removed]\n", fault.describe()));
            }
            if stop.is_some() {
                // Where a stopped search stops depends on the machine and the moment: running it
                // again may find another schedule.
                out.push_str(&format!("See it: a search run again may stop elsewhere; add --save found.json to keep what it finds (leaselab search {again} --save found.json), then leaselab run found.json\n"));
            } else {
                out.push_str(&format!("See it: leaselab search {again} --save found.json && leaselab run found.json\n"));
            }
        }
        Outcome::NotFound(c) => {
            out.push_str(&format!("{}\n", statement(c, stop)));
            out.push_str(&tried(c, 0, secs));
        }
    }
    out
}

/// The outcome for scripts: `found` is a scenario `leaselab run` accepts, or null.
/// `stopped` says why it ended before its budget (`time-limit`, `interrupted`), or is null.
pub fn json(outcome: &Outcome, stop: Option<Stop>, secs: f64) -> Value {
    let c = outcome.coverage();
    let mut v = json!({
        "found": null,
        "schedules": c.schedules,
        "coverage": c,
        "statement": statement(c, stop),
        "seconds": secs,
        "stopped": stop.map(Stop::name),
        "max_faults": c.asked,
        "exhaustive": c.complete >= c.asked,
        "complete_up_to": c.complete,
        "classes": c.class_runs,
        "behaviours": c.behaviours,
        "reached": c.reached.iter().map(|(s, r)| (s.name().to_string(), json!(r))).collect::<serde_json::Map<_, _>>(),
        "random": { "schedules": c.random, "faults": 3, "one_in": (c.random >= 3).then_some(c.random / 3), "confidence": 0.95 },
    });
    if let Outcome::Found(f, _) = outcome {
        v["found"] = json!(f.standalone().to_value());
        v["after"] = json!(f.after);
        v["shrink_runs"] = json!(f.shrink_runs);
        v["headline"] = json!(f.headline);
        v["faults"] = f.faults.iter().map(|(fault, o)| json!({ "fault": fault.describe(), "origin": o })).collect();
        v["removed"] = f.removed.iter().map(|fault| json!(fault.describe())).collect();
        v["statement"] = Value::Null;
    }
    v
}
