//! `from_value`, written by hand, reads a scenario as the types' derived `Deserialize` does
//! from serde_json's `&Value`, and places each error where `serde_path_to_error` places it:
//! checked on every library scenario and on generated ones, each with every value replaced by
//! a value of each other kind, each object given an unknown key, and each key removed; and on
//! every name of every enum. The one deliberate difference: a list where a struct belongs is
//! refused by name (serde would read it as the struct's fields in order). `to_value`, written
//! by hand too, gives the value the derived `Serialize` gives, on the same scenarios.

use serde_json::{json, Value};
use sim::from_value::{deserialize, Found, FromValue, ReadError, ReadErrorKind};
use sim::to_value::ToValue;
use sim::Scenario;

#[path = "gen/mod.rs"]
mod gen;

/// A serde_json value as the engine's JSON value (the keys in the same order: this crate's
/// tests turn on serde_json's `preserve_order`).
fn ours(v: &Value) -> sim::json::Value {
    serde_json::from_value(v.clone()).expect("any JSON value")
}

/// The engine's JSON value as serde_json's.
fn theirs(v: &sim::json::Value) -> Value {
    serde_json::to_value(v).expect("any JSON value")
}

/// The error as serde_json words it: the kind's contents given to serde_json's own constructors
/// (`de::Error::invalid_type` and the rest), so that comparing the result with serde's message
/// checks the kind, what it expected and what it found against what serde saw. Where the
/// reader's words are serde's (an unknown or missing field, a name, a length, a value given to
/// a name that takes none), they must be these.
fn serde_words(e: &ReadError) -> String {
    use serde::de::{Error as _, Unexpected};
    fn unexpected(found: &Found) -> Unexpected<'_> {
        match found {
            Found::Null => Unexpected::Unit,
            Found::Bool(b) => Unexpected::Bool(*b),
            Found::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => Unexpected::Unsigned(u),
                (None, Some(i)) => Unexpected::Signed(i),
                _ => Unexpected::Float(n.as_f64().unwrap()),
            },
            Found::String(s) => Unexpected::Str(s),
            Found::List => Unexpected::Seq,
            Found::Object => Unexpected::Map,
            Found::Name => Unexpected::UnitVariant,
        }
    }
    let error = match &e.kind {
        ReadErrorKind::WrongType { expected, found } => serde_json::Error::invalid_type(unexpected(found), &expected.serde_name()),
        ReadErrorKind::OutOfRange { expected, found } => serde_json::Error::invalid_value(unexpected(found), &expected.serde_name()),
        ReadErrorKind::NotOneKey => serde_json::Error::invalid_value(Unexpected::Map, &"map with a single key"),
        ReadErrorKind::ListForObject => panic!("serde reads a list as a struct's fields: {e}"),
        ReadErrorKind::MissingField { name } => serde_json::Error::missing_field(name),
        ReadErrorKind::UnknownField { name, expected } => serde_json::Error::unknown_field(name, expected),
        ReadErrorKind::UnknownVariant { name, expected } => serde_json::Error::unknown_variant(name, expected),
        ReadErrorKind::WrongLength { length: n @ 0..=1 } => serde_json::Error::invalid_length(*n, &"an array of length 2"),
        ReadErrorKind::WrongLength { length } => serde_json::Error::invalid_length(*length, &"fewer elements in array"),
    };
    let words = error.to_string();
    let shown = e.kind.to_string();
    assert!(shown == words || shown.starts_with("expected "), "the reader's words, neither serde's nor its own: {shown} ({words})");
    format!("{}: {words}", e.path)
}

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

/// Compares the two readers on every way of breaking `v` once; counts the comparisons and the
/// lists refused where a struct belongs.
fn compare_broken(v: &Value, label: &str, counts: &mut (usize, usize)) {
    let mut broken = Vec::new();
    mutations(v, &mut broken, &|v| v);
    for v in broken {
        let ours = deserialize::<Scenario>(&ours(&v));
        if let Err(e @ ReadError { kind: ReadErrorKind::ListForObject, .. }) = &ours {
            assert!(at(&v, &e.path).is_some_and(|x| x.is_array()), "{label}: {e} for {v}");
            counts.1 += 1;
            continue;
        }
        let ours = ours.map_err(|e| serde_words(&e));
        let theirs = serde_path_to_error::deserialize::<_, Scenario>(&v).map_err(|e| {
            let path = e.path().to_string();
            format!("{}: {}", if path == "." { "" } else { &path }, e.inner())
        });
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{label}: {v}"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{label}: {v}"),
            _ => panic!("{label}: ours {:?}, serde_path_to_error {:?}, for {v}", ours.map(|_| ()), theirs.map(|_| ())),
        }
        counts.0 += 1;
    }
}

#[test]
fn places_errors_as_serde_path_to_error_does() {
    let mut counts = (0, 0);
    for sc in sim::library::all() {
        assert_eq!(sc.to_value().to_string(), serde_json::to_value(&sc).unwrap().to_string(), "{}", sc.id);
        compare_broken(&theirs(&sc.to_value()), &sc.id, &mut counts);
    }
    let (checked, lists) = counts;
    assert!(checked > 10_000 && lists > 1_000, "{checked} compared, {lists} lists for structs");
}

/// Generated scenarios hold what the library does not (every step, fault and setting).
#[test]
fn reads_generated_scenarios_as_serde_does() {
    let mut counts = (0, 0);
    for seed in 0..400 {
        let sc = gen::scenario(seed);
        let v = sc.to_value();
        assert_eq!(v.to_string(), serde_json::to_value(&sc).unwrap().to_string(), "seed {seed}");
        let serde_read: Scenario = serde_json::from_value(theirs(&v)).unwrap();
        assert_eq!(deserialize::<Scenario>(&v).map_err(|e| e.to_string()), Ok(serde_read), "seed {seed}");
        if seed < 12 {
            compare_broken(&theirs(&v), &format!("seed {seed}"), &mut counts);
        }
    }
    assert!(counts.0 > 1_000, "{counts:?}");
}

/// Every name of every enum: the list in serde's message for a name it does not know (which
/// checks our list, in order), and each name read to the same variant.
#[test]
fn names_every_variant_as_serde_does() {
    fn check<T: FromValue + ToValue + serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug>() {
        let unknown = json!("zzz");
        let ours = deserialize::<T>(&ours(&unknown)).err().unwrap();
        let theirs = serde_json::from_value::<T>(unknown).err().map(|e| e.to_string()).unwrap();
        assert!(matches!(ours.kind, ReadErrorKind::UnknownVariant { .. }), "{ours}");
        assert_eq!(serde_words(&ours), format!(": {theirs}"));
        let names: Vec<&str> = theirs.split('`').skip(3).step_by(2).collect();
        assert!(!names.is_empty(), "{theirs}");
        for name in names {
            for v in [json!(name), json!({ name: null }), json!({ name: {} })] {
                same::<T>(v);
            }
        }
    }
    use sim::scenario::teach::Fact;
    use sim::scenario::*;
    use sim::verdict::{Kind, Safety};
    check::<LockKind>();
    check::<ReleaseStyle>();
    check::<RenewStyle>();
    check::<Persistence>();
    check::<TokenKind>();
    check::<CounterStore>();
    check::<ResourceKind>();
    check::<Fencing>();
    check::<WriteOp>();
    check::<OnTimeout>();
    check::<Safety>();
    check::<Kind>();
    check::<Step>();
    check::<Fault>();
    check::<Fact>();
}

/// Reads `v` as `T` through both readers: the same value or the same error, at the same path.
fn same<T: FromValue + ToValue + serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug>(v: Value) {
    let ours = deserialize::<T>(&ours(&v)).map_err(|e| serde_words(&e));
    let theirs = serde_path_to_error::deserialize::<_, T>(&v).map_err(|e| {
        let path = e.path().to_string();
        format!("{}: {}", if path == "." { "" } else { &path }, e.inner())
    });
    assert_eq!(ours, theirs, "{v}");
    if let Ok(x) = ours {
        assert_eq!(x.to_value().to_string(), serde_json::to_value(&x).unwrap().to_string(), "{v}");
    }
}

/// Every default, from the smallest object of each type: what is left out takes the default
/// its serde attribute names (whether or not a library or generated scenario leaves it out).
#[test]
fn fills_in_every_default_as_serde_does() {
    use sim::scenario::teach::Challenge;
    use sim::scenario::*;
    same::<LockService>(json!({ "kind": "redis" }));
    same::<LockService>(json!({ "kind": "redlock", "nodes": 5, "node_timeout_ms": 50, "clock_drift_factor": 0.01 }));
    same::<LockService>(json!({ "kind": "consensus", "election_timeout_ms": 1000, "recheck_after_wait": true, "parallel": false }));
    same::<TokenSource>(json!({ "source": "counter" }));
    same::<Resource>(json!({ "kind": "store", "fencing": "atomic" }));
    same::<Network>(json!({ "latency_ms": [1, 3] }));
    same::<ClockSpec>(json!({}));
    same::<Client>(json!({ "name": "A", "steps": [] }));
    for step in ["acquire", "read", "write", "renew", "release", "check_deadline"] {
        same::<Step>(json!({ step: {} }));
    }
    same::<Step>(json!({ "renew": { "on_timeout": "give-up" } }));
    same::<Fault>(json!({ "delay": { "from": "A", "to": "redis", "at_ms": 1, "extra_ms": 2 } }));
    same::<Fault>(json!({ "drop": { "from": "A", "to": "redis", "at_ms": 1 } }));
    same::<Moment>(json!({ "on": "paused A", "text": "t" }));
    same::<When>(json!({}));
    same::<Challenge>(json!({ "ask": "a", "goal": "safe", "solution": [], "explain": "e" }));
    let minimal = json!({ "version": 1, "id": "x", "title": "t", "seed": 1, "duration_ms": 1000,
        "lock": { "kind": "redis" }, "clients": [{ "name": "A", "steps": [] }] });
    same::<Scenario>(minimal);
}

/// A variant without content given one (`{"redis": {}}` for a lock kind) is refused at the
/// variant's name, as serde_path_to_error places it (the first reader placed it one step up).
#[test]
fn refuses_the_content_of_a_unit_variant_at_its_name() {
    let v = json!({ "kind": { "redis": {} } });
    let e = deserialize::<sim::scenario::LockService>(&ours(&v)).err().map(|e| e.to_string());
    assert_eq!(e.as_deref(), Some("kind.redis: invalid type: map, expected unit"));
    same::<sim::scenario::LockService>(v);
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
    let answers: Vec<Option<bool>> = deserialize(&ours(&json!([true, null, false]))).unwrap();
    assert_eq!(answers, [Some(true), None, Some(false)]);
    let scores: sim::flat::Map<String, bool> = deserialize(&ours(&json!({"b": true, "a": false}))).unwrap();
    assert_eq!(scores.iter().collect::<Vec<_>>(), [(&"a".to_string(), &false), (&"b".to_string(), &true)]);
    let fencing: sim::scenario::Fencing = deserialize(&ours(&json!("check-then-write"))).unwrap();
    assert_eq!(fencing, sim::scenario::Fencing::CheckThenWrite);
    assert!(deserialize::<sim::scenario::Fencing>(&ours(&json!("sometimes"))).is_err());
}
