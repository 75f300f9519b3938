//! The notice after a change: what changed, in words, and what it did to the verdict ("TTL
//! 10 s → 30 s: unsafe → safe"), or that the run is the same. Shown in the bar above the
//! timeline (always in place, so nothing moves).

use sim::json::Value;
use sim::scenario::Scenario;
use sim::time::{fmt, from_ms};

/// The last change and what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// What changed, in words.
    pub what: String,
    /// The verdict before the change (for a drag, before it began) and after it.
    pub was_safe: bool,
    pub safe: bool,
    /// The run is the same as before: the change made no difference to it.
    pub same_run: bool,
}

impl Notice {
    /// The notice as one sentence.
    pub fn text(&self) -> String {
        let word = |safe: bool| if safe { "safe" } else { "unsafe" };
        if self.same_run {
            format!("{}: the run is the same (this change makes no difference to it).", self.what)
        } else if self.was_safe == self.safe {
            format!("{}: still {}.", self.what, word(self.safe))
        } else {
            format!("{}: {} → {}.", self.what, word(self.was_safe), word(self.safe))
        }
    }
}

impl crate::state::Screen {
    /// Whether the reader met the challenge by changing only what its solution changes (then its
    /// explanation applies), rather than some other way.
    pub fn met_its_way(&self) -> bool {
        let Some(c) = self.original.challenge.as_ref() else { return false };
        let orig = self.original.to_value();
        let back: Option<Vec<sim::scenario::Setting>> = c
            .solution
            .iter()
            .map(|st| {
                let pointer = format!("/{}", st.path.replace('.', "/"));
                orig.pointer(&pointer).map(|v| sim::scenario::Setting { path: st.path.clone(), value: v.clone() })
            })
            .collect();
        back.and_then(|b| self.scenario.with_settings(&b).ok()).is_some_and(|sc| sc == *self.original)
    }
}

/// Whether two runs do the same apart from the faults themselves (a pause of a client that has
/// already finished adds its pause and nothing else).
pub fn same_behaviour(a: &sim::Run, b: &sim::Run) -> bool {
    a.actors == b.actors && acts(a).eq(acts(b))
}

/// A run's events apart from its faults: (when, where, what).
fn acts(r: &sim::Run) -> impl Iterator<Item = (sim::time::Micros, usize, &sim::EventKind)> {
    r.events.iter().filter(|e| !e.kind.is_fault() && !matches!(e.kind, sim::EventKind::Resumed { .. })).map(|e| (e.at_us, e.actor, &e.kind))
}

/// What turned `a` into `b`, in words: the first two settings that differ.
pub fn change(a: &Scenario, b: &Scenario) -> String {
    let mut out = Vec::new();
    diff("", &a.to_value(), &b.to_value(), &mut out);
    let n = out.len();
    let mut words: Vec<String> = out.into_iter().take(2).collect();
    if n > 2 {
        words.push(format!("{} more", n - 2));
    }
    if words.is_empty() {
        "Nothing changed".into()
    } else {
        let mut s = words.join(", ");
        s[..1].make_ascii_uppercase();
        s
    }
}

fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let at = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                diff(&at, va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(k)) {
                let at = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                diff(&at, &Value::Null, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(&format!("{path}.{i}"), va, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            let (n, what) = (x.len().abs_diff(y.len()), name(path));
            let verb = if y.len() > x.len() { "added" } else { "removed" };
            out.push(if n == 1 { format!("one of the {what} {verb}") } else { format!("{n} of the {what} {verb}") });
        }
        _ => out.push(format!("{} {} → {}", name(path), value(path, a), value(path, b))),
    }
}

/// A setting's name in words, from its path (`faults.0.pause.duration_ms`: "the length of fault 1").
fn name(path: &str) -> String {
    let parts: Vec<&str> = path.split('.').collect();
    let fault = || parts.get(1).and_then(|i| i.parse::<usize>().ok()).map(|i| format!("fault {}", i + 1)).unwrap_or_default();
    match parts.as_slice() {
        ["lock", "ttl_ms"] => "TTL".into(),
        ["faults"] => "faults".into(),
        ["faults", _, kind, "duration_ms"] => format!("the length of {} ({kind})", fault()),
        ["faults", _, kind, "at_ms"] => format!("the start of {} ({kind})", fault()),
        ["faults", _, kind, field] => format!("{} of {} ({kind})", field.trim_end_matches("_ms").replace('_', " "), fault()),
        ["resource", "fencing"] => "fencing".into(),
        _ => parts
            .iter()
            .rev()
            .find(|p| p.parse::<usize>().is_err())
            .map_or(path.to_string(), |p| p.trim_end_matches("_ms").replace('_', " ")),
    }
}

/// A value in words: milliseconds as a time.
fn value(path: &str, v: &Value) -> String {
    match v {
        Value::Number(n) if path.ends_with("_ms") => n.as_i64().map_or(n.to_string(), |ms| fmt(from_ms(ms))),
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use crate::edit::Field;
    use crate::state::{Action, Screen};
    use std::rc::Rc;
    use yew::Reducible;

    fn gc() -> Rc<Screen> {
        Rc::new(Screen::new(sim::library::get("gc-pause-unfenced").unwrap(), false).unwrap())
    }

    #[test]
    fn a_change_says_what_it_changed_and_what_it_did_to_the_verdict() {
        let s = gc().reduce(Action::Edit(Field::Ttl, "30000".into()));
        assert_eq!(s.notice.as_ref().unwrap().text(), "TTL 10 s → 30 s: unsafe → safe.");
        let s = gc().reduce(Action::Edit(Field::FaultDuration(0), "24000".into()));
        assert_eq!(s.notice.as_ref().unwrap().text(), "The length of fault 1 (pause) 25 s → 24 s: still unsafe.");
    }

    #[test]
    fn a_change_that_changes_nothing_in_the_run_says_so() {
        // A pause long after everyone has finished.
        let s = gc();
        let late = sim::scenario::Fault::Pause { actor: "B".into(), at_ms: 39_000, duration_ms: 500 };
        let s = s.reduce(Action::AddFault(late));
        let n = s.notice.as_ref().unwrap();
        assert!(n.same_run, "{n:?}");
        assert!(n.text().starts_with("One of the faults added: the run is the same"), "{}", n.text());
    }

    #[test]
    fn a_challenge_met_another_way_is_told_apart_from_its_own_way() {
        // gc-pause-unfenced's challenge: shorten the pause until A finishes inside its lease.
        let short = gc().reduce(Action::Edit(Field::FaultDuration(0), "3000".into()));
        assert!(short.challenge_met() && short.met_its_way());
        let longer_ttl = gc().reduce(Action::Edit(Field::Ttl, "30000".into()));
        assert!(longer_ttl.challenge_met() && !longer_ttl.met_its_way());
    }
}
