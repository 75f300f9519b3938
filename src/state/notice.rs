//! The notice after a change: what changed, in words, and what it did to the verdict ("TTL
//! 10 s → 30 s: unsafe → safe"), or that the run is the same. Shown in the bar above the
//! timeline (always in place, so nothing moves).

use sim::json::Value;
use sim::scenario::Scenario;

mod names;

use names::Unit;

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
        format!("{}{}", self.what, self.did())
    }

    /// What the change did, the end of the sentence (": unsafe → safe."): shown whole however
    /// narrow the bar, where the words of what changed may be cut short.
    pub fn did(&self) -> String {
        let word = |safe: bool| if safe { "safe" } else { "unsafe" };
        if self.same_run {
            ": the run is the same.".into()
        } else if self.was_safe == self.safe {
            format!(": still {}.", word(self.safe))
        } else {
            format!(": {} → {}.", word(self.was_safe), word(self.safe))
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

/// What turned `a` into `b`, in words: the first two settings that differ, each named by whose
/// it is and with its unit ("client1's work 12 s → 5 s", "A's pause starts 3 s → 4.2 s").
pub fn change(a: &Scenario, b: &Scenario) -> String {
    let mut out = Vec::new();
    let (wa, wb) = (whole(a), whole(b));
    // A search that changed the faults retells the story, the setup and the title, and drops the
    // notices, questions and challenge: the change is its faults ("A's pause starts 1.5 s →
    // 2.008 s"), not its words.
    let (ta, tb) = (untold(&wa), untold(&wb));
    if ta != tb {
        diff(&Sides { a, b }, "", &ta, &tb, &mut out);
    } else {
        diff(&Sides { a, b }, "", &wa, &wb, &mut out);
    }
    let n = out.len();
    let mut words: Vec<String> = out.into_iter().take(2).collect();
    if n > 2 {
        words.push(format!("{} more", n - 2));
    }
    if words.is_empty() {
        return "Nothing changed".into();
    }
    let mut s = words.join(", ");
    // A sentence starts with a capital, but a name ("client1's work") stays as it is written.
    let first = s.split(' ').next().unwrap_or_default();
    if !first.ends_with("'s") {
        s[..1].make_ascii_uppercase();
    }
    s
}

/// A scenario as JSON without the words a search retells.
fn untold(v: &Value) -> Value {
    let mut v = v.clone();
    if let Value::Object(o) = &mut v {
        for k in ["title", "setup", "story", "notice", "questions", "challenge"] {
            o.remove(k);
        }
    }
    v
}

/// A scenario as JSON with the lock's settings that are left out at their defaults written in,
/// so that a change from a default says what it was ("5 → 3", not "none → 3"): each as its
/// declaration reads it (`sim::scenario::settings::all`).
fn whole(sc: &Scenario) -> Value {
    let mut v = sc.to_value();
    if let Some(Value::Object(lock)) = v.pointer_mut("/lock") {
        for s in sim::scenario::settings::all() {
            let Some(key) = s.path.strip_prefix("lock.").filter(|k| !k.contains('.') && !lock.contains_key(k)) else { continue };
            let text = (s.get)(sc);
            lock.insert(key.into(), sim::json::parse(&text).unwrap_or(Value::String(text)));
        }
    }
    v
}

/// The scenarios before and after: a setting is named from the one it is in (a fault that was
/// removed, from the one before).
struct Sides<'a> {
    a: &'a Scenario,
    b: &'a Scenario,
}

fn diff(sides: &Sides, path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    if a == b {
        return;
    }
    let at = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match (a, b) {
        // One kind of thing became another (a fault, a step: `{"pause": …}` to `{"crash": …}`).
        (Value::Object(x), Value::Object(y)) if x.len() == 1 && y.len() == 1 && x.keys().ne(y.keys()) => {
            let (was, is) = (names::name(path, sides.a).0, names::name(path, sides.b).0);
            out.push(if path.starts_with("faults.") {
                format!("{was} replaced by {is}")
            } else {
                format!("{is} {} → {}", names::value(a, Unit::Plain), names::value(b, Unit::Plain))
            });
        }
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                diff(sides, &at(k), va, y.get(k).unwrap_or(&Value::Null), out);
            }
            for (k, vb) in y.iter().filter(|(k, _)| !x.contains_key(k)) {
                diff(sides, &at(k), &Value::Null, vb, out);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(sides, &at(&i.to_string()), va, vb, out);
            }
        }
        (Value::Array(_), Value::Array(_)) if path == "faults" => out.push(faults_added_or_removed(sides.a, sides.b)),
        (Value::Array(x), Value::Array(y)) => {
            let (n, what) = (x.len().abs_diff(y.len()), names::name(path, sides.b).0);
            let verb = if y.len() > x.len() { "added to" } else { "removed from" };
            out.push(if n == 1 { format!("one item {verb} {what}") } else { format!("{n} items {verb} {what}") });
        }
        _ => {
            let (name, unit) = names::name(path, sides.b);
            // A choice is said by its labels, after a colon ("Fencing at the resource: no →
            // atomically"), where its JSON values were internal words ("none → atomic").
            let sep = if matches!(unit, names::Unit::Choice(_)) { ": " } else { " " };
            out.push(format!("{name}{sep}{} → {}", names::value(a, unit), names::value(b, unit)));
        }
    }
}

/// The faults one scenario has and the other has not, in words: "A's pause added".
fn faults_added_or_removed(a: &Scenario, b: &Scenario) -> String {
    let only = |x: &Scenario, y: &Scenario| -> Vec<String> {
        let mut rest = y.faults.clone();
        x.faults
            .iter()
            .enumerate()
            .filter(|(_, f)| match rest.iter().position(|g| g == *f) {
                Some(i) => {
                    rest.remove(i);
                    false
                }
                None => true,
            })
            .map(|(i, _)| names::fault_name(x, i))
            .collect()
    };
    let said = |v: Vec<String>, verb: &str| match v.len() {
        0 => None,
        1 | 2 => Some(format!("{} {verb}", v.join(" and "))),
        n => Some(format!("{n} faults {verb}")),
    };
    let parts: Vec<String> = [said(only(b, a), "added"), said(only(a, b), "removed")].into_iter().flatten().collect();
    if parts.is_empty() {
        "the faults reordered".into()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use crate::edit::Field;
    use crate::state::{Action, Screen};
    use sim::time::Millis;
    use std::rc::Rc;
    use yew::Reducible;

    fn gc() -> Rc<Screen> {
        Rc::new(Screen::new(sim::library::get("gc-pause-unfenced").unwrap(), false).unwrap())
    }

    #[test]
    fn a_change_says_what_it_changed_and_what_it_did_to_the_verdict() {
        let s = gc().reduce(Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into()));
        assert_eq!(s.notice.as_ref().unwrap().text(), "The lock's TTL 10 s → 30 s: unsafe → safe.");
        let s = gc().reduce(Action::Edit(Field::FaultField(0, "duration_ms"), "24000".into()));
        assert_eq!(s.notice.as_ref().unwrap().text(), "A's pause lasts 25 s → 24 s: still unsafe.");
    }

    /// Every field the Change panel edits, and what a drag changes, is named by whose it is and
    /// written with its unit (issue 34, item 1: "Ms 12000 → 5000", "Latency 3 → 5").
    #[test]
    fn every_field_is_named_in_words_with_its_unit() {
        use Field::*;
        let cases: &[(&str, Field, &str, &str)] = &[
            ("gc-pause-unfenced", Setting("lock.ttl_ms"), "5000", "The lock's TTL 10 s → 5 s"),
            ("gc-pause-unfenced", Setting("lock.release"), "del", "How the lock is released: compare-and-delete → plain DEL"),
            ("gc-pause-unfenced", Setting("lock.renew"), "pexpire", "How the lock is renewed: compare-and-extend → plain PEXPIRE"),
            (
                "gc-pause-unfenced",
                Setting("lock.persistence"),
                "always",
                "The lock servers' persistence: none: lost on restart → fsync always",
            ),
            ("failover-lost-lock", Setting("lock.replica.lag_ms"), "50", "The replica's lag behind the primary 1 s → 50 ms"),
            ("gc-pause-unfenced", Setting("token.source"), "none", "Where tokens come from: a counter → none"),
            ("gc-pause-unfenced", Setting("token.store"), "redis", "Where the token counter is kept: durably → on the Redis node"),
            ("gc-pause-unfenced", Setting("resource.kind"), "database", "The resource's kind: storage service → database"),
            ("gc-pause-unfenced", Setting("resource.fencing"), "atomic", "Fencing at the resource: no → atomically"),
            ("gc-pause-unfenced", Setting("resource.idempotency"), "true", "Idempotent writes at the resource off → on"),
            (
                "check-then-write",
                Setting("resource.check_write_gap_ms"),
                "300",
                "The resource's time between its check and its write 500 ms → 300 ms",
            ),
            ("gc-pause-unfenced", Setting("network.latency_ms.0"), "2", "The network's latency, at least 1 ms → 2 ms"),
            ("gc-pause-unfenced", Setting("network.latency_ms.1"), "5", "The network's latency, at most 3 ms → 5 ms"),
            ("gc-pause-unfenced", Setting("seed"), "8", "The random seed 7 → 8"),
            ("gc-pause-unfenced", Setting("duration_ms"), "30000", "The run's length 40 s → 30 s"),
            ("redlock-happy", Setting("lock.nodes"), "3", "The number of Redis masters 5 → 3"),
            ("redlock-happy", Setting("lock.node_timeout_ms"), "20", "Redlock's timeout per master 50 ms → 20 ms"),
            ("redlock-happy", Setting("lock.parallel"), "true", "Redlock's SETs to the masters one after another → all at once"),
            ("redlock-happy", Setting("lock.clock_drift_factor"), "0.02", "Redlock's clock drift factor 0.01 → 0.02"),
            ("k8s-lease-paused-leader", Setting("lock.ttl_ms"), "20000", "The Lease's duration 15 s → 20 s"),
            ("k8s-lease-paused-leader", Setting("lock.renew_deadline_ms"), "12000", "The leader's renew deadline 10 s → 12 s"),
            ("k8s-lease-paused-leader", Setting("lock.retry_period_ms"), "1000", "The time between tries 2 s → 1 s"),
            ("gc-pause-unfenced", ClientStart(1), "6000", "B's start 5 s → 6 s"),
            ("gc-pause-unfenced", WorkMs(0, 2), "500", "A's work 1 s → 500 ms"),
            ("gc-pause-unfenced", FaultAt(0), "4200", "A's pause starts 1.5 s → 4.2 s"),
            ("gc-pause-unfenced", FaultField(0, "duration_ms"), "5000", "A's pause lasts 25 s → 5 s"),
            ("redlock-clock-jump", FaultField(4, "by_ms"), "-2000", "The jump of C's clock 15 s forward → 2 s back"),
            ("delayed-write", FaultField(0, "extra_ms"), "5000", "The delay of A's messages to resource 90 s → 5 s"),
        ];
        let mut wrong = Vec::new();
        for (id, field, raw, want) in cases {
            let sc = sim::library::get(id).unwrap();
            let s = Rc::new(Screen::new(sc, false).unwrap()).reduce(Action::Edit(field.clone(), raw.to_string()));
            let said = s.notice.as_ref().map(|n| n.what.clone()).or(s.error.as_ref().map(|e| e.message.clone()));
            if said.as_deref() != Some(*want) {
                wrong.push(format!("{id} {field:?}: {said:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn faults_added_moved_or_removed_say_whose() {
        let s = gc();
        let late = sim::scenario::Fault::Crash(sim::scenario::fault::Crash { actor: "B".into(), at_ms: Millis::new(12_000) });
        let added = s.clone().reduce(Action::AddFault(late));
        assert_eq!(added.notice.as_ref().unwrap().what, "B's crash added");
        let removed = added.reduce(Action::RemoveFault(0));
        assert_eq!(removed.notice.as_ref().unwrap().what, "A's pause removed");
        // Two faults of one kind by one actor are told apart by their number.
        let sc = sim::library::get("gc-pause-unfenced").unwrap();
        let two = sim::scenario::Fault::Pause(sim::scenario::fault::Pause {
            actor: "A".into(),
            at_ms: Millis::new(30_000),
            duration_ms: Millis::new(100),
        });
        let s = Rc::new(Screen::new(sc, false).unwrap()).reduce(Action::AddFault(two));
        assert_eq!(s.notice.as_ref().unwrap().what, "A's pause (fault 2) added");
        let s = s.reduce(Action::Edit(Field::FaultAt(1), "31000".into()));
        assert_eq!(s.notice.as_ref().unwrap().what, "A's pause (fault 2) starts 30 s → 31 s");
    }

    #[test]
    fn the_verdict_part_is_apart_from_the_words_of_the_change() {
        let s = gc().reduce(Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into()));
        let n = s.notice.as_ref().unwrap();
        assert_eq!((n.what.as_str(), n.did().as_str()), ("The lock's TTL 10 s → 30 s", ": unsafe → safe."));
    }

    #[test]
    fn a_change_that_changes_nothing_in_the_run_says_so() {
        // A pause long after everyone has finished.
        let s = gc();
        let late = sim::scenario::Fault::Pause(sim::scenario::fault::Pause {
            actor: "B".into(),
            at_ms: Millis::new(39_000),
            duration_ms: Millis::new(500),
        });
        let s = s.reduce(Action::AddFault(late));
        let n = s.notice.as_ref().unwrap();
        assert!(n.same_run, "{n:?}");
        assert!(n.text().starts_with("B's pause added: the run is the same"), "{}", n.text());
    }

    #[test]
    fn a_challenge_met_another_way_is_told_apart_from_its_own_way() {
        // gc-pause-unfenced's challenge: shorten the pause until A finishes inside its lease.
        let short = gc().reduce(Action::Edit(Field::FaultField(0, "duration_ms"), "3000".into()));
        assert!(short.challenge_met() && short.met_its_way());
        let longer_ttl = gc().reduce(Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into()));
        assert!(longer_ttl.challenge_met() && !longer_ttl.met_its_way());
    }

    #[test]
    fn a_search_s_change_is_said_by_its_faults_not_by_the_story_it_retells() {
        let s = gc();
        let sim::search::Outcome::Found(f, _) = sim::search::search(&s.scenario, sim::search::Options::default()).unwrap() else {
            panic!()
        };
        let words = super::change(&s.scenario, &f.scenario);
        assert!(!words.starts_with("Story") && !words.contains("story"), "{words}");
        assert!(words.contains("pause"), "{words}");
    }
}
