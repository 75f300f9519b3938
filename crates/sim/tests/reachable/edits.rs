//! One-change edits of a scenario, the kind a reader makes in the lab: each fault moved earlier
//! and later, lengthened, shortened or removed; each time setting of the lock, the network, the
//! resource and the clients a step up and a step down; each choice the Change panel offers set
//! to each value the library gives it, and each setting it declares for the scenario
//! (sim::scenario::settings) to each of its choices or a step either way; and each kind of fault
//! it can add (sim::scenario::fault_kinds) added as "Add fault" makes it.

use sim::json::Value;
use sim::scenario::fault_kinds::FAULTS;
use sim::scenario::settings::{settings_of, Kind};
use sim::scenario::Setting;
use sim::time::Millis;
use sim::Scenario;

/// Settings the lab's Change panel offers as choices, each tried at every value some library
/// scenario gives it (`choices`).
pub const CHOICES: [&str; 8] =
    ["lock.release", "lock.renew", "lock.persistence", "token.source", "token.store", "resource.fencing", "resource.idempotency", "seed"];

/// The values each of [`CHOICES`] takes across `library`.
pub fn choices(library: &[Scenario]) -> Vec<Setting> {
    let mut out: Vec<Setting> = Vec::new();
    for sc in library {
        let v = sc.to_value();
        for path in CHOICES {
            let Some(x) = path.split('.').try_fold(&v, |v, k| field(v, k)) else { continue };
            if !out.iter().any(|s| s.path == path && s.value == *x) {
                out.push(Setting { path: path.into(), value: x.clone() });
            }
        }
    }
    out
}

/// Every one-change edit of `sc`, each with a label that says what changed: the edits below,
/// and each of `choices` it does not have already.
pub fn one_change(sc: &Scenario, choices: &[Setting]) -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for c in choices {
        if let Ok(s) = sc.with_settings(std::slice::from_ref(c)) {
            if s != *sc {
                out.push((format!("{} = {}", c.path, c.value), s));
            }
        }
    }
    for i in 0..sc.faults.len() {
        let mut s = sc.clone();
        s.faults.remove(i);
        out.push((format!("fault {i} removed"), s));
    }
    let v = sc.to_value();
    let mut set = Vec::new();
    if let Some(Value::Array(faults)) = field(&v, "faults") {
        for (i, f) in faults.iter().enumerate() {
            let Value::Object(o) = f else { continue };
            for (kind, inner) in o.iter() {
                numbers(inner, &format!("faults.{i}.{kind}"), &mut |path, key, n| {
                    if key == "at_ms" {
                        set.push((path.clone(), n.saturating_sub(1000)));
                        set.push((path, n + 1000));
                    } else if key.ends_with("_ms") || key == "ppm" {
                        set.push((path.clone(), n / 2));
                        set.push((path, n * 2));
                    }
                });
            }
        }
    }
    for part in ["lock", "network", "resource", "clients"] {
        if let Some(p) = field(&v, part) {
            numbers(p, part, &mut |path, key, n| {
                if key.ends_with("_ms") || key == "ms" {
                    set.push((path.clone(), (n / 2).max(1)));
                    set.push((path, n + n / 2));
                }
            });
        }
    }
    // Every setting the Change panel shows for this scenario (sim::scenario::settings): each
    // choice and switch at each value, a count one up and one down, a time that the scenario's
    // JSON leaves at its default (an election timeout) halved and half as long again.
    let mut declared = Vec::new();
    for d in settings_of(sc) {
        let now = (d.get)(sc);
        match d.kind {
            Kind::Choice(options) => declared.extend(options.iter().map(|(v, _)| (d.path, Value::String(v.to_string())))),
            Kind::Switch(..) => declared.extend([(d.path, Value::Bool(true)), (d.path, Value::Bool(false))]),
            Kind::Count { min, max } if d.path != "seed" => {
                let n: u64 = now.parse().unwrap_or(min);
                declared.extend([n.saturating_sub(1).max(min), (n + 1).min(max)].map(|n| (d.path, Value::from(n))));
            }
            Kind::Ms { min } if d.path.starts_with("lock.") => {
                let min = min.get();
                let n: u64 = now.parse().unwrap_or(min);
                declared.extend([(n / 2).max(min.max(1)), n + n / 2].map(|n| (d.path, Value::from(n))));
            }
            _ => {}
        }
    }
    for (path, value) in declared {
        if let Ok(s) = sc.with_settings(&[Setting { path: path.into(), value: value.clone() }]) {
            if s != *sc && !out.iter().any(|(_, o)| *o == s) {
                out.push((format!("{path} = {value}"), s));
            }
        }
    }
    // Every kind of fault the panel adds, as "Add fault" makes it without another choice (the
    // first lane; held or lost messages to the resource), where the run's first fault is, or a
    // quarter of the way in.
    let names = sc.actor_names();
    let at = sc.faults.first().map_or(Millis::new(sc.duration_ms.get() / 4), |f| f.at_ms());
    for k in FAULTS.iter().filter(|k| (k.fits)(sc)) {
        let other = names.iter().rev().find(|n| **n != names[0]).unwrap_or(&names[0]);
        if let Ok(f) = k.new_fault(&names[0], other, at) {
            let mut s = sc.clone();
            s.faults.push(f);
            if s.validate().is_ok() {
                out.push((format!("{} added at {at} ms", k.tag), s));
            }
        }
    }
    for (path, n) in set {
        let one = Setting { path: path.clone(), value: Value::from(n) };
        // An edit the scenario's validation refuses is not a run the reader can reach.
        if let Ok(s) = sc.with_settings(&[one]) {
            out.push((format!("{path} = {n}"), s));
        }
    }
    out
}

fn field<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    match v {
        Value::Object(o) => o.get(key),
        _ => None,
    }
}

/// Calls `f(path, key, n)` for every whole number at or below `v` whose key is a name.
fn numbers(v: &Value, path: &str, f: &mut dyn FnMut(String, &str, u64)) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter() {
                let p = format!("{path}.{k}");
                match x {
                    Value::Number(n) => {
                        if let Some(n) = n.as_u64() {
                            f(p, k, n);
                        }
                    }
                    _ => numbers(x, &p, f),
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                numbers(x, &format!("{path}.{i}"), f);
            }
        }
        _ => {}
    }
}
