//! Issue 49's edges in the engine, each on its reproduction (`tests/repro/`, copied from
//! `../shared/repro/edges-2/`).

use sim::{RunError, Scenario};

fn repro(name: &str) -> Scenario {
    let path = format!("{}/tests/repro/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Scenario::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn refusal(path: &str, text: &str) -> String {
    match Scenario::parse(text) {
        Ok(s) => sim::run(&s).map(|_| String::new()).unwrap_or_else(|e| e.to_string()),
        Err(e) => e.to_string(),
    }
    .replace(path, "")
}

/// D6: lock settings a service does not have were refused for some fields (`watchdog`) and taken
/// silently, at any value, for others (Redlock's `parallel` and `node_timeout_ms`, Pacemaker's
/// timeouts, Kubernetes' on ZooKeeper). Each is refused by name now.
#[test]
fn every_lock_setting_the_service_does_not_have_is_refused_by_name() {
    let path = format!("{}/tests/repro/lock-inapplicable-accepted.json", env!("CARGO_MANIFEST_DIR"));
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let lock = v["lock"].as_object().unwrap().clone();
    let stray = ["parallel", "keepalive_ms", "stonith_timeout_ms", "node_timeout_ms", "renew_deadline_ms", "retry_period_ms"];
    for key in stray {
        // One stray setting at a time: each is refused by its own name.
        let mut one = lock.clone();
        one.retain(|k, _| !stray.contains(&k.as_str()) || k == key);
        v["lock"] = serde_json::Value::Object(one);
        let e = refusal(&path, &v.to_string());
        assert!(e.contains(&format!("lock.{key}: is not a setting of the zookeeper lock service")), "{key}: {e}");
    }
    // Settings the service has, and ones left at their defaults, still run.
    let mut fine = lock.clone();
    fine.retain(|k, _| !stray.contains(&k.as_str()));
    v["lock"] = serde_json::Value::Object(fine);
    assert_eq!(refusal(&path, &v.to_string()), "");
}

/// D7: a run refused at the event limit because of a 1 ms TTL or a 1 ms heartbeat was told to
/// shorten duration_ms or lengthen retry and work times, not the setting that filled it.
#[test]
fn a_run_with_too_many_events_names_the_setting_that_fills_it() {
    for (name, setting) in [("event-limit-ttl", "lock.ttl_ms"), ("event-limit-keepalive", "lock.keepalive_ms")] {
        let sc = repro(name);
        let e = sim::run(&sc).unwrap_err();
        assert!(matches!(e, RunError::TooManyEvents { shortest: Some((p, _)), .. } if p == setting), "{name}: {e:?}");
        assert!(e.to_string().contains(&format!("{setting} is 1 ms, which fills the run with events")), "{name}: {e}");
    }
    // A long run with ordinary settings keeps the general advice.
    let mut sc = sim::library::get("lease-basics").unwrap();
    sc.duration_ms = sim::time::Millis::new(3_600_000);
    let e = sim::run_within(&sc, 50).unwrap_err();
    assert!(e.to_string().ends_with("shorten duration_ms, or lengthen retry and work times"), "{e}");
}
