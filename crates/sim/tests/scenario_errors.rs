//! Bad scenarios get clear errors that name the field and the reason.

use sim::time::Millis;
use sim::Scenario;

fn base() -> serde_json::Value {
    serde_json::from_str(sim::library::FILES[0].1).unwrap()
}

fn err_of(v: serde_json::Value) -> String {
    Scenario::from_value(serde_json::from_value(v).unwrap()).expect_err("must be refused").to_string()
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
    let mut s = Scenario::parse(sim::library::FILES[0].1).unwrap();
    s.duration_ms = Millis::new(3_600_000);
    s.network.latency_ms = [Millis::new(0), Millis::new(0)];
    for c in &mut s.clients {
        c.steps = vec![sim::scenario::Step::Acquire { retry_ms: Millis::new(1), attempts: 10_000, timeout_ms: Millis::new(1) }];
    }
    s.clients[0].steps.push(sim::scenario::Step::Work { ms: Millis::new(3_600_000) });
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

/// i64::MIN passed the range checks (`abs` overflowed): release builds ran nonsense, debug
/// builds panicked.
#[test]
fn the_most_negative_numbers_are_out_of_range_not_a_panic() {
    let min = i64::MIN;
    let cases = [
        (serde_json::json!({"A": {"offset_ms": min}}), None, "clocks.A.offset_ms: must be within"),
        (serde_json::json!({"A": {"drift_ppm": min}}), None, "clocks.A.drift_ppm: must be within"),
        (
            serde_json::json!({}),
            Some(serde_json::json!({"clock_jump": {"actor": "redis", "at_ms": 1, "by_ms": min}})),
            "by_ms: must be within",
        ),
        (serde_json::json!({}), Some(serde_json::json!({"drift": {"actor": "redis", "at_ms": 1, "ppm": min}})), "ppm: must be within"),
    ];
    for (clocks, fault, want) in cases {
        let mut v = base();
        v["clocks"] = clocks;
        if let Some(f) = fault {
            v["faults"] = serde_json::json!([f]);
        }
        let e = err_of(v);
        assert!(e.contains(want), "{e}");
    }
}

#[test]
fn a_key_twice_is_refused_with_its_path() {
    let text = sim::library::FILES[0].1.replacen("\"ttl_ms\"", "\"ttl_ms\": 1, \"ttl_ms\"", 1);
    let e = Scenario::parse(&text).unwrap_err();
    assert_eq!(e.path, "lock.ttl_ms", "{e}");
    assert!(e.to_string().contains("appears twice") && e.line_col.is_some(), "{e}");
}

#[test]
fn a_list_is_not_read_as_an_object() {
    let mut v = base();
    v["network"] = serde_json::json!([[1, 5], []]);
    let e = err_of(v);
    assert!(e.starts_with("network: expected an object with named fields, not a list"), "{e}");
    let mut v = base();
    v["clients"][1] = serde_json::json!(["B", 5000, []]);
    let e = err_of(v);
    assert!(e.starts_with("clients[1]: expected an object"), "{e}");
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let text = format!("\u{feff}{}", sim::library::FILES[0].1);
    assert_eq!(Scenario::parse(&text).unwrap(), Scenario::parse(sim::library::FILES[0].1).unwrap());
}

/// Regression (../shared/repro/turn3/import-big-file.md): the app opened a file of invalid
/// UTF-8 with "�" in its title and a UTF-16 file, which the command line refuses, and said
/// "unknown field too large" of a file over 1 MB. Both now read files by this one rule.
#[test]
fn a_file_is_utf8_text_of_at_most_1_mb_whoever_reads_it() {
    let lesson = sim::library::FILES[0].1;
    assert_eq!(Scenario::from_bytes(lesson.as_bytes()).unwrap(), Scenario::parse(lesson).unwrap());
    let bom = [b"\xef\xbb\xbf", lesson.as_bytes()].concat();
    assert_eq!(Scenario::from_bytes(&bom).unwrap(), Scenario::parse(lesson).unwrap(), "a UTF-8 byte-order mark is accepted");
    let refused = |bytes: &[u8]| Scenario::from_bytes(bytes).expect_err("must be refused").to_string();
    let bad = b"{\"version\": 1, \"title\": \"\xc3\x28\xff\"}";
    assert_eq!(refused(bad), "not UTF-8 text (byte 26 is not); a scenario is JSON");
    let utf16: Vec<u8> = [0xff, 0xfe].into_iter().chain(lesson.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    assert_eq!(refused(&utf16), "not UTF-8 text (byte 1 is not); a scenario is JSON");
    let big = vec![b' '; sim::scenario::limits::SCENARIO_BYTES + 1];
    assert_eq!(refused(&big), "larger than 1 MB; a scenario is a few KB of JSON");
    // Text in hand (a paste, a link) is held to the same size, in the same words.
    assert_eq!(Scenario::parse(&" ".repeat(sim::scenario::limits::SCENARIO_BYTES + 1)).unwrap_err().to_string(), refused(&big));
}

#[test]
fn a_watchdog_belongs_to_a_single_redis_lock() {
    let mut v = base();
    v["lock"]["watchdog"] = serde_json::json!(true);
    assert!(Scenario::from_value(serde_json::from_value(v.clone()).unwrap()).is_ok(), "a Redis lock may have one");
    v["lock"]["kind"] = serde_json::json!("redlock");
    let e = err_of(v.clone());
    assert!(e.starts_with("lock.watchdog: Redisson's watchdog renews a single Redis lock"), "{e}");
    v["lock"]["watchdog"] = serde_json::json!("yes");
    assert!(err_of(v).starts_with("lock.watchdog: expected"), "a switch is true or false");
}

#[test]
fn sentinel_needs_a_redis_primary_with_a_replica() {
    let mut v = base();
    v["lock"]["sentinel"] = serde_json::json!(true);
    let e = err_of(v.clone());
    assert!(e.starts_with("lock.sentinel: Sentinel fails a Redis primary over to its replica"), "{e}");
    v["lock"]["replica"] = serde_json::json!({ "lag_ms": 100 });
    assert!(Scenario::from_value(serde_json::from_value(v).unwrap()).is_ok(), "with a replica it may");
}

#[test]
fn the_drift_factor_is_checked_whatever_the_lock() {
    let mut v = base();
    v["lock"]["clock_drift_factor"] = serde_json::json!(1e308);
    let e = err_of(v);
    assert!(e.starts_with("lock.clock_drift_factor: must be between 0 and 0.5"), "{e}");
}

#[test]
fn a_fix_is_checked_when_the_scenario_is_loaded() {
    let err_of = |v: serde_json::Value| Scenario::parse(&v.to_string()).expect_err("must be refused").to_string();
    let mut v: serde_json::Value =
        serde_json::from_str(sim::library::FILES.iter().find(|(id, _)| *id == "gc-pause-unfenced").unwrap().1).unwrap();
    v["fix"]["set"][0]["path"] = "resource.fenceing".into();
    let e = err_of(v.clone());
    assert!(e.starts_with("fix.set: the changed scenario would be invalid: resource.fenceing: unknown field"), "{e}");
    v["fix"]["set"][0]["path"] = "clients.9.name".into();
    let e = err_of(v.clone());
    assert!(e.starts_with("fix.set[0].path: no setting at `clients.9.name`"), "{e}");
    v["fix"]["set"][0] = serde_json::json!({"path": "lock.ttl_ms", "value": 0});
    let e = err_of(v.clone());
    assert!(e.contains("lock.ttl_ms: must be between 1"), "{e}");
    v["fix"]["set"][0] = serde_json::json!({"path": "resource.fencing", "value": "atomic"});
    v["challenge"]["solution"][0]["path"] = "nope".into();
    let e = err_of(v);
    assert!(e.starts_with("challenge.solution: the changed scenario would be invalid: nope: unknown field"), "{e}");
}

/// An edit may leave the fix behind (here: the fault it moves is removed); the edit stands, and
/// pressing Fix says why it no longer applies.
#[test]
fn an_edit_that_leaves_the_fix_behind_is_not_refused() {
    let mut s = sim::library::get("redlock-restart").unwrap();
    s.faults.pop();
    let edited = Scenario::from_value(s.to_value()).expect("the edit stands");
    let e = edited.fixed().unwrap().unwrap_err();
    assert!(e.to_string().starts_with("fix.set[0].path: no setting at `faults."), "{e}");
}

/// A scenario of a megabyte's many keys is read in a sort's time, not a scan or a move for
/// each key (it would hang the page that opens such a link), and refused by name.
#[test]
fn objects_of_many_keys_are_refused_without_reading_them_quadratically() {
    let mut v = base();
    let clocks: serde_json::Map<String, serde_json::Value> =
        (0..60_000).rev().map(|i| (format!("c{i:05}"), serde_json::json!({}))).collect();
    v["clocks"] = serde_json::Value::Object(clocks);
    let mut text = v.to_string();
    let e = Scenario::parse(&text).unwrap_err();
    assert!(e.to_string().starts_with("clocks.c"), "{e}");
    text.insert_str(text.len() - 1, ", \"clocks\": {}");
    let e = Scenario::parse(&text).unwrap_err();
    assert!(e.to_string().contains("appears twice"), "{e}");
}

/// A value of the wrong kind is refused in a reader's words, not serde's ("expected u64").
#[test]
fn wrong_kinds_are_said_in_plain_words() {
    let cases: [(&str, serde_json::Value, &str); 10] = [
        ("/lock/ttl_ms", "ten".into(), "lock.ttl_ms: expected a whole number (0 or more), found the text \"ten\""),
        ("/lock/ttl_ms", 1.5e29.into(), "lock.ttl_ms: expected a whole number (0 or more), found 1.5e+29, which is too large"),
        (
            "/seed",
            serde_json::json!(18446744073709551615u64 as f64),
            "seed: expected a whole number (0 or more), found 1.8446744073709552e+19, which is too large",
        ),
        ("/lock/ttl_ms", 2.5.into(), "lock.ttl_ms: expected a whole number (0 or more), found 2.5"),
        (
            "/clients/0/steps/0",
            serde_json::json!({"work": {"ms": 1}, "read": {}}),
            "clients[0].steps[0]: expected an object with just one key (its kind), found an object with another number of keys",
        ),
        (
            "/clients/0/steps/0",
            5.into(),
            "clients[0].steps[0]: expected a kind: its name, or an object with just one key (the kind), found 5",
        ),
        ("/lock", serde_json::Value::Null, "lock: expected an object with named fields, found null"),
        ("/clients", serde_json::json!({}), "clients: expected a list, found an object"),
        ("/resource/idempotency", "yes".into(), "resource.idempotency: expected true or false, found the text \"yes\""),
        ("/seed", (-3).into(), "seed: expected a whole number (0 or more), found -3"),
    ];
    for (at, value, said) in cases {
        let mut v = base();
        // The parent must exist; the field itself may be left out of the file.
        let (parent, key) = at.rsplit_once('/').unwrap();
        match v.pointer_mut(parent).unwrap() {
            serde_json::Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
            parent => parent[key] = value,
        }
        assert_eq!(err_of(v), said);
    }
    // What has no plainer words keeps serde's.
    let mut v = base();
    v["lock"].as_object_mut().unwrap().remove("kind");
    assert_eq!(err_of(v), "lock: missing field `kind`");
    // The text found is said whole, whatever it holds (the words were once made from serde's
    // message and taken apart again, which cut this text at its ", expected struct ").
    let mut v = base();
    v["network"] = "a, expected struct b".into();
    assert_eq!(err_of(v), "network: expected an object with named fields, found the text \"a, expected struct b\"");
}

/// Regression (../shared/repro/turn3/cli-number-1e400.json, cli-number-500k-digits.json): a
/// number too large for any field was refused with a position only, not the field's name.
#[test]
fn a_number_out_of_range_is_named_by_its_field() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/repro/cli-number-1e400.json");
    let e = Scenario::parse(&std::fs::read_to_string(path).unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "lock.ttl_ms (line 1, column 3343): this number is beyond the numbers a scenario can hold");
    let text = serde_json::to_string_pretty(&base()).unwrap();
    let digits = "9".repeat(500_000);
    for number in ["1e400", digits.as_str(), "-1e400"] {
        let mut v = base();
        v["clients"][0]["steps"][2] = serde_json::json!({"work": {"ms": "N"}});
        let text = serde_json::to_string_pretty(&v).unwrap().replace("\"N\"", number);
        let e = Scenario::parse(&text).unwrap_err();
        assert_eq!(e.path, "clients[0].steps[2].work.ms", "{number:.8}: {e}");
        assert!(e.to_string().ends_with("this number is beyond the numbers a scenario can hold"), "{e}");
        assert!(e.line_col.is_some(), "and where: {e}");
    }
    // A list's item, and a document that is only a number.
    let e = Scenario::parse(&text.replacen("\"sources\": [", "\"sources\": [1e999, ", 1)).unwrap_err();
    assert!(e.to_string().starts_with("sources[0] (line "), "{e}");
    assert_eq!(Scenario::parse("1e400").unwrap_err().path, "");
}

/// Chubby's lock-delay is at most a minute (Burrows, OSDI '06, §2.4), on the consensus service
/// and on ZooKeeper's ensemble alike.
#[test]
fn a_lock_delay_over_a_minute_is_refused_by_name_on_consensus_and_zookeeper() {
    for id in ["consensus-fenced", "zookeeper-unfenced"] {
        let scenario = || -> serde_json::Value { serde_json::from_str(&sim::library::get(id).unwrap().to_value().to_string()).unwrap() };
        let mut v = scenario();
        v["lock"]["lock_delay_ms"] = 60_001.into();
        assert_eq!(err_of(v), "lock.lock_delay_ms: is Chubby's lock-delay: at most 60000 (one minute, Chubby's bound)", "{id}");
        let mut v = scenario();
        v["lock"]["lock_delay_ms"] = 60_000.into();
        assert!(Scenario::from_value(serde_json::from_value(v).unwrap()).is_ok(), "{id}: one minute is allowed");
    }
}

#[test]
fn a_setting_of_another_lock_service_is_refused_by_name_not_ignored() {
    let scenario =
        |id: &str| -> serde_json::Value { serde_json::from_str(&sim::library::get(id).unwrap().to_value().to_string()).unwrap() };
    for id in ["gc-pause-unfenced", "redlock-happy", "k8s-lease-fenced", "github-fileserver-pair"] {
        let mut v = scenario(id);
        v["lock"]["lock_delay_ms"] = 1_000.into();
        assert_eq!(
            err_of(v),
            "lock.lock_delay_ms: is Chubby's lock-delay, which only the consensus and ZooKeeper services have here; this lock service has none: remove it",
            "{id}"
        );
    }
    let mut v = scenario("consensus-fenced");
    v["lock"]["fence_first"] = true.into();
    assert!(err_of(v).starts_with("lock.fence_first: says when a node of a Pacemaker pair takes over"));
    let mut v = scenario("github-fileserver-pair");
    v["lock"]["fence_first"] = true.into();
    assert!(Scenario::from_value(serde_json::from_value(v).unwrap()).is_ok());
}

/// A Pacemaker pair's fence devices keep nothing on a disk: a disk stall there is refused (the
/// lane menu offered it, and it did nothing), while a consensus member's disk still stalls.
#[test]
fn a_fence_device_has_no_disk_to_stall() {
    let pair = sim::library::get("github-fileserver-pair").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&pair.to_json()).unwrap();
    v["faults"] = serde_json::json!([{ "disk_stall": { "actor": "fence-a", "at_ms": 15000, "duration_ms": 3000 } }]);
    let e = err_of(v);
    assert!(e.starts_with("faults[0].disk_stall.actor: `fence-a` is a fence device, which keeps nothing on a disk"), "{e}");
    let kind = sim::scenario::fault_kinds::FAULTS.iter().find(|k| k.tag == "disk_stall").unwrap();
    assert!(!(kind.fits)(&pair), "the Change tab does not offer it to a pair");
    assert!((kind.fits)(&sim::library::get("consensus-disk-stall").unwrap()));
}
