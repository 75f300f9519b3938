use super::*;
use crate::block::parse;

fn drawn(info: &str) -> Picture {
    draw(&parse(info, "").unwrap()).unwrap()
}

fn bad(info: &str, body: &str) -> Bad {
    draw(&parse(info, body).unwrap()).expect_err(info)
}

/// The library's run of `id` (with its fix), and its key moments as step numbers.
fn moments(id: &str, fix: bool) -> (sim::Run, Vec<usize>) {
    let s = library::get(id).unwrap();
    let s = if fix { s.fixed().unwrap().unwrap() } else { s };
    let run = sim::run(&s).unwrap();
    let steps = Facts::of(&run).moments().iter().map(|&e| e + 1).collect();
    (run, steps)
}

#[test]
fn a_library_block_is_the_svg_export_of_its_run() {
    let p = drawn("leaselab scenario=gc-pause-unfenced step=12");
    let s = library::get("gc-pause-unfenced").unwrap();
    let run = sim::run(&s).unwrap();
    assert_eq!(p.svg, inline(&svg::render(&run, &s, svg::WIDTH, Some(11))));
    assert_eq!(p.step, Some(12));
    assert!(p.svg.contains("class=\"cursor\""));
    // Without a step, no cursor.
    assert!(!drawn("leaselab scenario=gc-pause-unfenced").svg.contains("class=\"cursor\""));
}

#[test]
fn fix_draws_the_run_with_its_fix() {
    let p = drawn("leaselab scenario=gc-pause-unfenced fix");
    let fixed = library::get("gc-pause-unfenced").unwrap().fixed().unwrap().unwrap();
    assert_eq!(p.svg, inline(&svg::render(&sim::run(&fixed).unwrap(), &fixed, svg::WIDTH, None)));
    assert!(p.svg.contains("✓ safe") && !p.svg.contains("✗ unsafe"));
    assert!(drawn("leaselab scenario=gc-pause-unfenced").svg.contains("✗ unsafe"));
}

#[test]
fn key_n_is_the_nth_key_moment_of_the_run_shown() {
    let (_, steps) = moments("redlock-clock-jump", false);
    let (_, fixed_steps) = moments("redlock-clock-jump", true);
    assert!(steps.len() >= 3);
    assert_eq!(drawn("leaselab scenario=redlock-clock-jump step=key:1").step, Some(steps[0]));
    assert_eq!(drawn("leaselab scenario=redlock-clock-jump step=key:3").step, Some(steps[2]));
    assert_eq!(drawn("leaselab scenario=redlock-clock-jump fix step=key:3").step, Some(fixed_steps[2]));
    let last = steps.len();
    assert_eq!(drawn(&format!("leaselab scenario=redlock-clock-jump step=key:{last}")).step, Some(steps[last - 1]));
}

#[test]
fn compare_fix_draws_the_pair_the_app_shows() {
    let p = drawn("leaselab scenario=redlock-clock-jump compare=fix step=key:3");
    assert!(p.svg.contains(">As written: Redlock: a clock jump on one node</text>"), "{}", &p.svg[..400]);
    assert!(p.svg.contains(">With the fix: "));
    let top = p.svg.find("As written:").unwrap();
    assert!(top < p.svg.find("With the fix:").unwrap());
    // With the fix on, the run with the fix is above and the run as written below, as in the app.
    let q = drawn("leaselab scenario=redlock-clock-jump fix compare=fix step=key:3");
    assert!(q.svg.find("With the fix:").unwrap() < q.svg.find("As written:").unwrap());
    assert!(q.svg.contains("first-diff"));
}

#[test]
fn bad_library_blocks_say_what_is_wrong() {
    let e = bad("leaselab scenario=redlock-clok-jump", "");
    assert_eq!(e, Bad::fence("scenario=redlock-clok-jump: there is no such scenario in the library (did you mean `redlock-clock-jump`?)"));
    let e = bad("leaselab scenario=banana", "");
    assert_eq!(e.message, "scenario=banana: there is no such scenario in the library; see `leaselab list` for the library's ids");
    let e = bad("leaselab scenario=gc-pause-fenced fix", "");
    assert_eq!(e.message, "fix: gc-pause-fenced has no one-click fix");
    let e = bad("leaselab scenario=gc-pause-fenced compare=fix", "");
    assert_eq!(e.message, "compare=fix: gc-pause-fenced has no one-click fix");
    let (run, steps) = moments("redlock-clock-jump", false);
    let n = steps.len();
    let e = bad(&format!("leaselab scenario=redlock-clock-jump step=key:{}", n + 1), "");
    assert_eq!(e.message, format!("step=key:{}: redlock-clock-jump has {n} key moments (key:1 to key:{n})", n + 1));
    let past = run.events.len() + 1;
    let e = bad(&format!("leaselab scenario=redlock-clock-jump step={past}"), "");
    assert_eq!(e.message, format!("step={past}: the run has {} steps (step=1 to step={})", past - 1, past - 1));
}

#[test]
fn a_json_body_runs_that_scenario() {
    let mut s = library::get("gc-pause-fenced").unwrap();
    s.title = "My own pause".into();
    let p = draw(&parse("leaselab step=3", &s.to_json()).unwrap()).unwrap();
    assert!(p.svg.contains(">My own pause</text>"));
    assert_eq!(p.scenario.title, "My own pause");
    assert_eq!(p.step, Some(3));
}

#[test]
fn a_json_error_is_placed_at_its_line_in_the_body() {
    // Line 3 of the body lacks a comma.
    let e = bad("leaselab", "{\n  \"title\": \"x\",\n  \"seed\": 1\n  \"clients\": []\n}\n");
    assert_eq!(e.line, 4, "{e:?}");
    assert!(e.message.starts_with("the scenario's JSON, column 3: invalid JSON"), "{}", e.message);
    // A field error has no line of its own: it is said at the fence, with its path.
    let mut v: serde_json::Value = serde_json::from_str(&library::get("gc-pause-fenced").unwrap().to_json()).unwrap();
    v["lock"]["ttl_ms"] = serde_json::json!("ten");
    let e = bad("leaselab", &serde_json::to_string_pretty(&v).unwrap());
    assert_eq!(e.line, 0);
    assert!(e.message.starts_with("the scenario in this block: lock.ttl_ms"), "{}", e.message);
}

#[test]
fn a_picture_inline_is_one_line_and_its_ids_are_its_own() {
    for info in ["leaselab scenario=gc-pause-unfenced step=key:2", "leaselab scenario=redlock-clock-jump compare=fix"] {
        let p = drawn(info);
        assert!(!p.svg.contains('\n'), "{info}");
        assert!(p.svg.starts_with(r#"<svg style="max-width:100%;height:auto" xmlns="http://www.w3.org/2000/svg""#));
        let ids: Vec<&str> = p.svg.split(r#" id=""#).skip(1).map(|s| &s[..s.find('"').unwrap()]).collect();
        assert!(!ids.is_empty() && ids.iter().all(|id| id.starts_with(ID_PREFIX)), "{ids:?}");
        let refs: Vec<&str> = p.svg.split("url(#").skip(1).map(|s| &s[..s.find(')').unwrap()]).collect();
        assert!(!refs.is_empty(), "{info}");
        for r in refs {
            assert!(ids.contains(&r), "{info}: url(#{r}) has no element");
        }
    }
}
