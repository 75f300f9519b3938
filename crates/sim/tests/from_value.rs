//! `from_value` reads a scenario as serde_json's `&Value` deserializer does and places each error
//! where `serde_path_to_error` places it: checked on every library scenario with each of its
//! values replaced by a value of each other kind, each object given an unknown key, and each key
//! removed. The one deliberate difference: a list where a struct belongs is refused by name
//! (serde would read it as the struct's fields in order).

use serde_json::{json, Value};
use sim::from_value::deserialize;
use sim::Scenario;

/// Every way of breaking `v` once, found by walking it.
fn mutations(v: &Value, out: &mut Vec<Value>, rebuild: &dyn Fn(Value) -> Value) {
    for other in [json!("nope"), json!(-1), json!(1.5), json!(null), json!([]), json!({}), json!(true), json!([1])] {
        if other != *v {
            out.push(rebuild(other));
        }
    }
    match v {
        Value::Object(map) => {
            let mut extra = map.clone();
            extra.insert("zzz".into(), json!(1));
            out.push(rebuild(Value::Object(extra)));
            for (k, child) in map {
                let mut without = map.clone();
                without.remove(k);
                out.push(rebuild(Value::Object(without)));
                let put = |x: Value| {
                    let mut m = map.clone();
                    m.insert(k.clone(), x);
                    rebuild(Value::Object(m))
                };
                mutations(child, out, &put);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let put = |x: Value| {
                    let mut a = items.clone();
                    a[i] = x;
                    rebuild(Value::Array(a))
                };
                mutations(child, out, &put);
            }
        }
        _ => {}
    }
}

#[test]
fn places_errors_as_serde_path_to_error_does() {
    let (mut checked, mut lists) = (0, 0);
    for sc in sim::library::all() {
        let mut broken = Vec::new();
        mutations(&sc.to_value(), &mut broken, &|v| v);
        for v in broken {
            let ours = sim::from_value::deserialize::<Scenario>(&v).map_err(|(path, e)| format!("{path}: {e}"));
            if let Err(e) = &ours {
                if e.ends_with(sim::from_value::LIST_FOR_OBJECT) {
                    let path = e.split(": ").next().unwrap_or_default();
                    assert!(at(&v, path).is_some_and(|x| x.is_array()), "{}: {e} for {v}", sc.id);
                    lists += 1;
                    continue;
                }
            }
            let theirs = serde_path_to_error::deserialize::<_, Scenario>(&v).map_err(|e| {
                let path = e.path().to_string();
                format!("{}: {}", if path == "." { "" } else { &path }, e.inner())
            });
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{}: {v}", sc.id),
                (Err(a), Err(b)) => assert_eq!(a, b, "{}: {v}", sc.id),
                _ => panic!("{}: ours {:?}, serde_path_to_error {:?}, for {v}", sc.id, ours.map(|_| ()), theirs.map(|_| ())),
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000 && lists > 1_000, "{checked} compared, {lists} lists for structs");
}

/// The value at a path written as `from_value` writes it (`clients[1].steps[0].acquire`).
fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, indices) = part.split_once('[').map_or((part, ""), |(k, rest)| (k, rest));
        if !key.is_empty() {
            cur = cur.get(key)?;
        }
        for i in indices.split('[').filter(|i| !i.is_empty()) {
            cur = cur.get(i.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(cur)
}

/// The app reads its stored progress and the choices of its fields through the same reader.
#[test]
fn reads_what_the_app_stores_and_its_choices() {
    let answers: Vec<Option<bool>> = deserialize(&json!([true, null, false])).unwrap();
    assert_eq!(answers, [Some(true), None, Some(false)]);
    let scores: sim::flat::Map<String, bool> = deserialize(&json!({"b": true, "a": false})).unwrap();
    assert_eq!(scores.iter().collect::<Vec<_>>(), [(&"a".to_string(), &false), (&"b".to_string(), &true)]);
    let fencing: sim::scenario::Fencing = deserialize(&json!("check-then-write")).unwrap();
    assert_eq!(fencing, sim::scenario::Fencing::CheckThenWrite);
    assert!(deserialize::<sim::scenario::Fencing>(&json!("sometimes")).is_err());
}
