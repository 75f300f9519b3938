//! Bad scenarios get clear errors that name the field and the reason.

use sim::Scenario;

fn base() -> serde_json::Value {
    serde_json::from_str(sim::library::FILES[0].1).unwrap()
}

fn err_of(v: serde_json::Value) -> String {
    Scenario::from_value(v).expect_err("must be refused").to_string()
}

#[test]
fn syntax_errors_give_line_and_column() {
    let e = Scenario::parse("{\n  \"version\": 1,\n  \"id\": \"x\",,\n}").unwrap_err();
    assert_eq!(e.line_col.map(|lc| lc.0), Some(3), "{e}");
    assert!(e.to_string().starts_with("line 3, column"), "{e}");
}

#[test]
fn unknown_fields_are_named_with_their_path() {
    let mut v = base();
    v["lock"]["ttl"] = 5.into();
    let e = err_of(v);
    assert!(e.starts_with("lock.ttl: unknown field `ttl`, expected one of"), "{e}");

    let mut v = base();
    v["clients"][1]["steps"][2] = serde_json::json!({"work": {"ms": 5, "extra": 1}});
    let e = err_of(v);
    assert!(e.contains("clients[1].steps[2]") && e.contains("unknown field `extra`"), "{e}");
}

#[test]
fn wrong_types_and_values_are_named() {
    let mut v = base();
    v["clients"][0]["steps"][2] = serde_json::json!({"work": {"ms": -5}});
    let e = err_of(v);
    assert!(e.contains("clients[0].steps[2].work.ms"), "{e}");

    let mut v = base();
    v["resource"]["fencing"] = "sometimes".into();
    let e = err_of(v);
    assert!(e.contains("resource.fencing") && e.contains("unknown variant `sometimes`"), "{e}");
}

#[test]
fn references_and_ranges_are_checked() {
    let mut v = base();
    v["faults"] = serde_json::json!([{"pause": {"actor": "Z", "at_ms": 1, "duration_ms": 1}}]);
    let e = err_of(v);
    assert_eq!(e, "faults[0].pause.actor: no actor is called `Z` (actors: A, B, redis, resource)");

    let mut v = base();
    v["network"]["latency_ms"] = serde_json::json!([9, 3]);
    assert_eq!(err_of(v), "network.latency_ms: the minimum 9 is above the maximum 3");

    let mut v = base();
    v["lock"]["ttl_ms"] = 0.into();
    assert!(err_of(v).starts_with("lock.ttl_ms: must be between 1"));

    let mut v = base();
    v["version"] = 2.into();
    assert_eq!(err_of(v), "version: only version 1 exists, not 2");

    let mut v = base();
    v["clients"][1]["name"] = "A".into();
    assert_eq!(err_of(v), "clients[1].name: `A` is used by another client");
}

#[test]
fn limits_give_a_clear_error_instead_of_a_hang() {
    let mut v = base();
    v["duration_ms"] = serde_json::json!(100_000_000_000u64);
    assert!(err_of(v).starts_with("duration_ms: must be between 1 and 3600000"));

    let mut v = base();
    let c = v["clients"][0].clone();
    v["clients"] = serde_json::Value::Array(
        (0..50)
            .map(|i| {
                let mut c = c.clone();
                c["name"] = format!("c{i}").into();
                c
            })
            .collect(),
    );
    assert_eq!(err_of(v), "clients: 50 clients; at most 12 are allowed");

    // Within the limits but needing too many events: refused, not hung.
    let mut s = Scenario::from_value(base()).unwrap();
    s.duration_ms = 3_600_000;
    s.network.latency_ms = [0, 0];
    for c in &mut s.clients {
        c.steps = vec![sim::scenario::Step::Acquire { retry_ms: 1, attempts: 10_000, timeout_ms: 1 }];
    }
    s.clients[0].steps.push(sim::scenario::Step::Work { ms: 3_600_000 });
    let mut more = Vec::new();
    for i in 0..10 {
        let mut c = s.clients[1].clone();
        c.name = format!("x{i}");
        more.push(c);
    }
    s.clients.extend(more);
    match sim::run(&s) {
        Err(sim::RunError::TooManyEvents { .. }) => {}
        other => panic!("expected TooManyEvents, got {:?}", other.map(|r| r.events.len())),
    }
}

#[test]
fn a_fix_that_names_no_setting_is_refused() {
    let s = sim::library::get("gc-pause-unfenced").unwrap();
    let bad = vec![sim::scenario::Setting { path: "resource.nope.deeper".into(), value: 1.into() }];
    let e = s.with_settings(&bad).unwrap_err();
    assert_eq!(e.to_string(), "fix.set[0].path: no setting at `resource.nope.deeper`");
}

#[test]
fn show_output_round_trips() {
    for s in sim::library::all() {
        let back = Scenario::parse(&s.to_json()).unwrap();
        assert_eq!(back, s);
        if let Some(Ok(f)) = s.fixed() {
            assert_eq!(Scenario::parse(&f.to_json()).unwrap(), f);
        }
    }
}

#[test]
fn bad_questions_and_challenges_are_named() {
    let cases = [
        (
            serde_json::json!({"questions": [{"at": "acquired A", "ask": "?", "fact": {"guess": {}}, "choices": [], "answer": 0, "why": ""}]}),
            "questions[0].fact",
        ),
        (
            serde_json::json!({"questions": [{"at": "acquired A", "ask": "Who?", "fact": {"next-holder": {}}, "choices": [{"text": "A", "value": "A"}, {"text": "B", "value": "B"}], "answer": 2, "why": ""}]}),
            "questions[0].answer: must be the index",
        ),
        (serde_json::json!({"challenge": {"ask": "Try", "goal": "unsafe", "solution": [], "explain": ""}}), "challenge.solution"),
        (serde_json::json!({"challenge": {"ask": "Try", "goal": "maybe", "solution": [], "explain": ""}}), "challenge.goal"),
    ];
    for (patch, want) in cases {
        let mut v = base();
        for (k, x) in patch.as_object().unwrap() {
            v[k] = x.clone();
        }
        let e = err_of(v);
        assert!(e.starts_with(want), "{want}: {e}");
    }
}
