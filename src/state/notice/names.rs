//! A setting's name in a reader's words, from its path in the scenario: whose it is and what it
//! is ("client1's work", "the lock's TTL", "A's pause starts"), and its value with its unit
//! ("12 s", "3 ms", "on"). A declared setting (sim::scenario::settings) is named as declared. The notice after a change is made of these ([`super::change`]).

use sim::json::Value;
use sim::scenario::settings::{self, Kind};
use sim::scenario::Scenario;
use sim::time::{fmt, from_ms};

/// How a setting's value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds, as a time ("10 s", "3 ms").
    Time,
    /// A clock step: forward or back.
    Step,
    /// Parts per million of a clock's rate.
    Ppm,
    /// A switch whose two sides have names: (off, on).
    Either(&'static str, &'static str),
    /// One of a setting's choices, by its label ("atomically", not "atomic").
    Choice(&'static [(&'static str, &'static str)]),
    /// A count or a name, as it is.
    Plain,
}

/// A setting's name in words, and how its value is written. `sc` is the scenario it is in
/// (a fault or a client is named by its actor; one that is not there any more by its number).
pub fn name(path: &str, sc: &Scenario) -> (String, Unit) {
    let parts: Vec<&str> = path.split('.').collect();
    let index = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
    let client = || {
        let c = index(1).unwrap_or(0);
        sc.clients.get(c).map_or(format!("client {}", c + 1), |c| c.name.clone())
    };
    let fault = || index(1).map_or("a fault".to_string(), |i| fault_name(sc, i));
    use Unit::*;
    // A declared setting is named as its declaration says it (sim::scenario::settings).
    // (One the scenario no longer has after the change, as the first that has its path.)
    if let Some(s) = settings::setting(sc, path).or_else(|| settings::all().find(|s| s.path == path)) {
        let unit = match s.kind {
            Kind::Ms { .. } => Time,
            Kind::SignedMs => Step,
            Kind::Ppm => Ppm,
            Kind::Switch(off, on) => Either(off, on),
            Kind::Choice(choices) => Choice(choices),
            Kind::Count { .. } | Kind::Decimal => Plain,
        };
        return (s.said.to_string(), unit);
    }
    let (words, unit) = match parts.as_slice() {
        ["lock", field] => (format!("the lock's {}", words(field)), unit_of(field)),
        ["token", "start"] => ("the first token".into(), Plain),
        ["network", "links", i, "latency_ms", end] => {
            let link = i.parse::<usize>().ok().and_then(|i| sc.network.links.get(i));
            let between = link.map_or("a link".to_string(), |l| format!("{} → {}", l.from, l.to));
            (format!("the latency of {between}, {}", if *end == "0" { "at least" } else { "at most" }), Time)
        }
        ["clients", _, "start_ms"] => (format!("{}'s start", client()), Time),
        ["clients", _, "steps", _, "work", "ms"] => (format!("{}'s work", client()), Time),
        ["clients", _, "steps", _, step, field] => (format!("{}'s {} {}", client(), words(step), words(field)), unit_of(field)),
        ["clients", _, "steps", _] | ["clients", _, "steps", _, _] => (format!("{}'s step {}", client(), index(3).unwrap_or(0) + 1), Plain),
        ["clients", _, "steps"] => (format!("{}'s steps", client()), Plain),
        ["clients", _, field] => (format!("{}'s {}", client(), words(field)), unit_of(field)),
        ["faults", _, kind, "at_ms"] => {
            let verb = if matches!(*kind, "pause" | "partition" | "drift" | "delay" | "drop") { "starts" } else { "comes at" };
            (format!("{} {verb}", fault()), Time)
        }
        ["faults", _, _, "duration_ms"] => (format!("{} lasts", fault()), Time),
        ["faults", _, _, "by_ms"] => (fault(), Step),
        ["faults", _, _, "ppm"] => (fault(), Ppm),
        ["faults", _, _, "extra_ms"] => (fault(), Time),
        ["faults", _, _, "count"] => (format!("{}: how many messages", fault()), Plain),
        ["faults", _, kind, "actor" | "isolate" | "from" | "to"] => (format!("who the {} strikes", words(kind)), Plain),
        ["faults", ..] => (fault(), Plain),
        _ => {
            let last = parts.iter().rev().find(|p| p.parse::<usize>().is_err()).copied().unwrap_or(path);
            (words(last), unit_of(last))
        }
    };
    (words, unit)
}

/// A fault in words, by whom it strikes ("A's pause", "the partition cutting off A"), with its
/// number when another fault has the same words.
pub fn fault_name(sc: &Scenario, i: usize) -> String {
    let Some(f) = sc.faults.get(i) else { return format!("fault {}", i + 1) };
    let said = f.name();
    if sc.faults.iter().filter(|g| g.name() == said).count() > 1 {
        format!("{said} (fault {})", i + 1)
    } else {
        said
    }
}

/// A value in words, in its unit.
pub fn value(v: &Value, unit: Unit) -> String {
    match (v, unit) {
        (Value::Number(n), Unit::Time) => n.as_i64().map_or(n.to_string(), |ms| fmt(from_ms(ms))),
        (Value::Number(n), Unit::Step) => match n.as_i64() {
            Some(ms) if ms < 0 => format!("{} back", fmt(from_ms(-ms))),
            Some(ms) => format!("{} forward", fmt(from_ms(ms))),
            None => n.to_string(),
        },
        (Value::Number(n), Unit::Ppm) => format!("{n} ppm"),
        (Value::Bool(b), Unit::Either(off, on)) => if *b { on } else { off }.into(),
        (Value::Bool(b), _) => if *b { "on" } else { "off" }.into(),
        (Value::String(s), Unit::Choice(choices)) => {
            choices.iter().find(|(v, _)| v == s).map_or_else(|| s.replace('-', " "), |(_, label)| (*label).to_string())
        }
        (Value::String(s), _) => s.replace('-', " "),
        (Value::Array(items), _) => items.iter().map(|i| value(i, unit)).collect::<Vec<_>>().join(" and "),
        (Value::Null, _) => "none".into(),
        (Value::Object(map), _) if map.len() == 1 => map.keys().next().map(|k| words(k)).unwrap_or_default(),
        (other, _) => other.to_string(),
    }
}

/// A field's name as words: `check_write_gap_ms` is "check write gap".
fn words(field: &str) -> String {
    field.trim_end_matches("_ms").replace('_', " ")
}

/// A field's unit by its name: `_ms` is a time.
fn unit_of(field: &str) -> Unit {
    if field.ends_with("_ms") || field == "ms" {
        Unit::Time
    } else {
        Unit::Plain
    }
}
