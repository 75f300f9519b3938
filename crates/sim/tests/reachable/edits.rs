//! One-change edits of a scenario, the kind a reader makes in the lab: each fault moved earlier
//! and later, lengthened, shortened or removed; each time setting of the lock, the network, the
//! resource and the clients a step up and a step down; each choice the Change panel offers
//! (release, renewal, persistence, token source and store, fencing, idempotency, seed) set to
//! each value the library gives it.

use sim::json::Value;
use sim::scenario::Setting;
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
