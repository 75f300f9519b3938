//! The `leaselab` binary as a user runs it: output, exit status, and error messages.

use std::process::{Command, Output};

mod common;
use common::{leaselab, stderr, stdout};

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("leaselab-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn list_shows_the_library_by_chapter() {
    let o = leaselab(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("The GC-pause story") && text.contains("gc-pause-unfenced") && text.contains("[fix]"), "{text}");
    let o = leaselab(&["list", "--json"]);
    let v = json(&o);
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), sim::library::all().len());
    assert!(items.iter().any(|i| i["id"] == "zookeeper-unfenced"));
    let gc = items.iter().find(|i| i["id"] == "gc-pause-unfenced").unwrap();
    assert_eq!(gc["chapter"], "gc-pause");
    assert_eq!(gc["has_fix"], true);
    assert_eq!(items.iter().find(|i| i["id"] == "lease-basics").unwrap()["has_fix"], false);
}

#[test]
fn gc_pause_unfenced_is_unsafe_and_names_both_clients() {
    let o = leaselab(&["run", "gc-pause-unfenced", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["verdict"], "unsafe");
    let violations = v["violations"].as_array().unwrap();
    assert!(!violations.is_empty());
    for viol in violations {
        assert!(viol["property"].is_string() && viol["at_ms"].is_number() && viol["actors"].is_array());
        let e = viol["explanation"].as_str().unwrap();
        assert!(e.contains("A's write") && e.contains("B's write") && e.contains("paused"), "{e}");
    }
}

#[test]
fn gc_pause_fenced_shows_the_rejection_and_is_safe() {
    let o = leaselab(&["run", "gc-pause-fenced"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("resource rejects A's token 33: it has already accepted 34."), "{text}");
    assert!(text.contains("verdict: SAFE"), "{text}");
}

#[test]
fn fix_and_seed_flags() {
    let o = leaselab(&["run", "gc-pause-unfenced", "--fix", "--json"]);
    assert_eq!(json(&o)["verdict"], "safe");
    let o = leaselab(&["run", "random-owner-not-token", "--seed", "1", "--json"]);
    assert_eq!(json(&o)["seed"], 1);
    let o = leaselab(&["run", "lease-basics", "--fix"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lease-basics has no one-click fix"));
}

#[test]
fn a_file_edited_from_show_runs() {
    let o = leaselab(&["show", "gc-pause-unfenced"]);
    assert!(o.status.success());
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Make the pause shorter than the TTL: A finishes before its lease runs out.
    v["faults"][0]["pause"]["duration_ms"] = 2000.into();
    let path = temp("short-pause.json", &serde_json::to_string_pretty(&v).unwrap());
    let o = leaselab(&["run", path.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["verdict"], "safe");
    // show --fix gives the fixed scenario, which runs safe.
    let o = leaselab(&["show", "gc-pause-unfenced", "--fix"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resource"]["fencing"], "atomic");
    assert!(v.get("fix").is_none());
}

#[test]
fn bad_input_gets_exit_2_and_a_message_that_says_where() {
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["run".into(), "/nonexistent/x.json".into()], "cannot read the file"),
        (
            vec!["run".into(), temp("syntax.json", "{\n  \"version\": 1,\n  oops\n}").display().to_string()],
            "line 3, column 3: invalid JSON",
        ),
        (
            vec!["run".into(), temp("field.json", &leaselab_show_with(|v| v["lock"]["ttl_ms"] = "ten".into())).display().to_string()],
            "lock.ttl_ms: expected a whole number (0 or more), found the text \"ten\"",
        ),
        (
            vec![
                "run".into(),
                temp("actor.json", &leaselab_show_with(|v| v["faults"][0]["pause"]["actor"] = "Q".into())).display().to_string(),
            ],
            "faults[0].pause.actor: no actor is called `Q`",
        ),
        (vec!["run".into(), "no-such-scenario".into()], "no scenario `no-such-scenario` in the library"),
        (vec!["run".into(), "gc-pause-unfenced".into(), "--seed".into(), "x".into()], "invalid value 'x' for '--seed <N>'"),
        (vec!["run".into(), "gc-pause-unfenced".into(), "--seed".into(), "9007199254740992".into()], "is not in 0..=9007199254740991"),
        (vec!["run".into(), "gc-pause-unfenced".into(), "--colour".into()], "unexpected argument '--colour'"),
        (vec!["frobnicate".into()], "unrecognized subcommand 'frobnicate'"),
        (vec![], "Usage: leaselab <COMMAND>"),
        (vec!["show".into()], "the following required arguments were not provided"),
        (vec!["svg".into(), "gc-pause-fenced".into(), "--step".into(), "0".into()], "invalid value '0' for '--step <N>'"),
        (vec!["run".into(), "/dev/zero".into()], "/dev/zero: not a regular file"),
        (vec!["run".into(), "/tmp".into()], "/tmp: not a regular file"),
    ];
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let o = leaselab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: stderr was {:?}, wanted {want:?}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn svg_writes_the_timeline_at_a_step() {
    let o = leaselab(&["svg", "gc-pause-fenced", "--step", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches(r#"class="lane-bg""#).count(), 4);
    assert!(svg.contains(r#"class="cursor""#));
    let o = leaselab(&["svg", "gc-pause-fenced", "--step", "100000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--step: the run has"), "{}", stderr(&o));
    let o = leaselab(&["svg", "gc-pause-fenced", "--width", "12"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn svg_compare_draws_the_run_above_its_fix_and_marks_where_they_part() {
    let o = leaselab(&["svg", "gc-pause-unfenced", "--compare", "fix", "--step", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.ends_with("</svg>\n"));
    assert!(svg.contains(">As written: A GC pause outlives the lease</text>"), "{svg}");
    assert!(svg.contains(">With the fix: Turn on fencing at the resource</text>"), "{svg}");
    assert!(svg.contains(">✗ unsafe</text>") && svg.contains(">✓ safe</text>"));
    assert_eq!(svg.matches(r#"class="lane-bg""#).count(), 8);
    assert_eq!(svg.matches(">first difference</text>").count(), 2);
    assert_eq!(svg.matches(r#"<g class="cursor">"#).count(), 2);

    // Another scenario file: here the fix written out, so the picture is the same.
    let fixed = temp("fixed.json", &stdout(&leaselab(&["show", "gc-pause-unfenced", "--fix"])));
    let o = leaselab(&["svg", "gc-pause-unfenced", "--compare", fixed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(">first difference</text>").count(), 2);
}

#[test]
fn svg_compare_refuses_what_it_cannot_draw() {
    let cases: [(&[&str], &str); 3] = [
        (&["svg", "db-transaction", "--compare", "fix"], "--compare fix: db-transaction has no one-click fix"),
        (&["svg", "gc-pause-unfenced", "--compare", "/nonexistent/other.json"], "/nonexistent/other.json: cannot read the file"),
        (&["svg", "gc-pause-unfenced", "--compare", "fix", "--fix"], "'--compare <WHAT>' cannot be used with '--fix'"),
    ];
    for (args, want) in cases {
        let o = leaselab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: stderr was {:?}, wanted {want:?}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: nothing on stdout");
    }
}

#[test]
fn pictures_writes_every_scenario_and_its_fix_as_svg_draws_them() {
    let dir = std::env::temp_dir().join(format!("leaselab-cli-pictures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = leaselab(&["pictures", dir.join("deep").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = sim::library::all();
    let fixes = all.iter().filter(|s| s.fix.is_some()).count();
    let names: Vec<String> = std::fs::read_dir(dir.join("deep")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert_eq!(names.len(), all.len() + fixes, "{names:?}");
    assert!(stdout(&o).ends_with(&format!("in {} pictures in {}\n", names.len(), dir.join("deep").display())), "{}", stdout(&o));
    // The same image as `leaselab svg` draws, with and without the fix.
    for (file, args) in [
        ("gc-pause-unfenced.svg", &["svg", "gc-pause-unfenced"][..]),
        ("gc-pause-unfenced.fix.svg", &["svg", "gc-pause-unfenced", "--fix"]),
    ] {
        let picture = std::fs::read_to_string(dir.join("deep").join(file)).unwrap();
        assert_eq!(picture, stdout(&leaselab(args)), "{file}");
    }
    assert!(!names.iter().any(|n| n == "lease-basics.fix.svg"), "lease-basics has no fix");
    // A directory that cannot be made is named, with exit status 1.
    let o = leaselab(&["pictures", "/proc/leaselab/pictures"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot write the output: /proc/leaselab/pictures: "), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_version_and_completions() {
    let o = leaselab(&["--help"]);
    assert!(o.status.success());
    for cmd in ["list", "show", "run", "svg", "pictures", "completions"] {
        assert!(stdout(&o).contains(cmd), "{}", stdout(&o));
        let o = leaselab(&[cmd, "--help"]);
        assert!(o.status.success() && stdout(&o).contains("Usage: leaselab"), "{cmd}: {}", stderr(&o));
    }
    let o = leaselab(&["--version"]);
    assert_eq!(stdout(&o).trim(), format!("leaselab {}", env!("CARGO_PKG_VERSION")));
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef leaselab"), ("fish", "complete -c leaselab")] {
        let o = leaselab(&["completions", shell]);
        assert!(o.status.success() && stdout(&o).contains(marker) && stdout(&o).contains("svg"), "{shell}: {}", stdout(&o));
    }
    let o = leaselab(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_file_name_not_a_crash() {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::OsStr::from_bytes(b"\xff\xfe.json");
    let o = Command::new(env!("CARGO_BIN_EXE_leaselab")).arg("run").arg(name).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read the file"), "{}", stderr(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_leaselab")).arg("list").arg(name).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // And a file with such a name opens.
    let dir = temp("x.json", "").parent().unwrap().to_path_buf();
    let path = dir.join(name);
    std::fs::write(&path, leaselab(&["show", "lease-basics"]).stdout).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_leaselab")).arg("run").arg(&path).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_file_that_is_not_utf8_text_says_so() {
    let dir = temp("x.json", "").parent().unwrap().to_path_buf();
    let path = dir.join("latin1.json");
    std::fs::write(&path, b"{\"title\": \"caf\xe9\"}").unwrap();
    let o = leaselab(&["run", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not UTF-8 text (byte 15"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_and_standard_input_is_read_up_to_the_limit() {
    use std::io::Write;
    let dir = temp("x.json", "").parent().unwrap().to_path_buf();
    let fifo = dir.join("fifo.json");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = leaselab(&["run", fifo.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let run_stdin = |input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args(["run", "-", "--json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The writer may find the pipe closed once the limit is read: that is the point.
        let _ = child.stdin.take().unwrap().write_all(input);
        child.wait_with_output().unwrap()
    };
    let o = run_stdin(&leaselab(&["show", "gc-pause-unfenced"]).stdout);
    assert_eq!(json(&o)["verdict"], "unsafe");
    let o = run_stdin(&vec![b' '; 3_000_000]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("-: larger than 1 MB"), "{}", stderr(&o));
}

/// Regression (../shared/repro/svg-control-characters.json): a title with a control character
/// made `leaselab svg` write XML that does not parse.
#[test]
fn svg_is_well_formed_whatever_the_text() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/svg-control-characters.json");
    let o = leaselab(&["svg", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    let bad = svg.chars().find(|&c| (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{fffe}' || c == '\u{ffff}');
    assert_eq!(bad, None, "a character XML 1.0 forbids");
}

/// Regression (../shared/repro/consensus-many-double-grants.json): the checker built a
/// sentence for every pair of overlapping grants (4.9 GB, 17 s; 11.8 GB with --json).
#[test]
fn many_double_grants_are_counted_not_all_written_out() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/consensus-many-double-grants.json");
    let o = leaselab(&["run", path, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    let grants = v["hazards"].as_array().unwrap().iter().filter(|h| h["property"] == "double-grant").count();
    assert_eq!(grants, 32);
    let omitted = v["notes"].as_array().unwrap().iter().find(|n| n["property"] == "omitted").expect("a note counts the rest");
    assert!(omitted["explanation"].as_str().unwrap().contains("Only the first 32 double-grant findings are listed; "), "{omitted}");
}

fn leaselab_show_with(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let o = leaselab(&["show", "gc-pause-unfenced"]);
    let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    edit(&mut v);
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn search_finds_shrinks_and_prints_a_scenario_run_accepts() {
    let o = leaselab(&["search", "gc-pause-fenced"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("The smallest unsafe schedule found") && text.contains("Pause A at") && text.contains("runs/s"), "{text}");
    assert!(text.contains("--seed 1 --save found.json"), "the hint repeats the search: {text}");
    let text = stdout(&leaselab(&["search", "gc-pause-fenced", "--time-limit", "300"]));
    assert!(text.contains("--seed 1 --time-limit 300 --save found.json"), "with its time limit: {text}");
    // --save writes what the report names, a scenario `run` takes; its fix (whose explanation
    // tells the schedule as written) goes.
    let saved = std::env::temp_dir().join(format!("leaselab-saved-{}.json", std::process::id()));
    let o = leaselab(&["search", "gc-pause-unfenced", "--save", saved.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert!(v.get("fix").is_none() && v["title"].as_str().unwrap().starts_with("A schedule found by search, from “"), "{v}");
    let run = json(&leaselab(&["run", saved.to_str().unwrap(), "--json"]));
    assert_eq!(run["verdict"], "unsafe");
    let _ = std::fs::remove_file(&saved);
    let o = leaselab(&["search", "gc-pause-unfenced", "--save", "/no/such/dir/found.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).contains("The smallest unsafe schedule found"), "the report is printed first");
    assert!(stderr(&o).contains("--save /no/such/dir/found.json: "), "{}", stderr(&o));
    // A find that changes nothing keeps the scenario as it was, story and all.
    let v = json(&leaselab(&["search", "unsafe-release", "--json"]));
    assert_eq!(v["found"]["title"], "A plain DEL releases someone else's lock", "{v}");
    assert!(!v["found"]["story"].as_str().unwrap().contains("changed this scenario's faults"), "{v}");
    let o = leaselab(&["search", "gc-pause-fenced", "--json", "--budget", "300"]);
    let v = json(&o);
    assert!(v["schedules"].as_u64().unwrap() <= 300);
    let found = temp("found.json", &serde_json::to_string(&v["found"]).unwrap());
    let run = json(&leaselab(&["run", found.to_str().unwrap(), "--json"]));
    assert_eq!(run["verdict"], "unsafe", "the scenario found runs unsafe on its own");
}

#[test]
fn search_states_its_coverage_and_refuses_bad_options() {
    let o = leaselab(&["search", "db-transaction", "--json", "--faults", "1", "--budget", "50"]);
    let v = json(&o);
    assert!(v["found"].is_null());
    assert_eq!(v["schedules"], 50);
    assert!(v["statement"].as_str().unwrap().starts_with("None of 50 schedules corrupted the data. Faults tried: pauses"), "{v}");
    assert_eq!((v["exhaustive"].as_bool(), v["max_faults"].as_u64()), (Some(false), Some(1)), "{v}");
    let text = stdout(&leaselab(&["search", "db-transaction", "--budget", "50"]));
    assert!(text.contains("None of 50 schedules corrupted the data."), "{text}");
    // Unbounded but for time: every order class of up to two faults, and the situations reached.
    let v = json(&leaselab(&["search", "db-transaction", "--json"]));
    assert_eq!((v["exhaustive"].as_bool(), v["complete_up_to"].as_u64()), (Some(true), Some(2)), "{v}");
    assert!(v["classes"].as_u64().unwrap() > 10_000 && v["behaviours"].as_u64().unwrap() > 100, "{v}");
    assert_eq!(v["reached"], serde_json::json!({ "older-token": false }), "{v}");
    assert!(v["statement"].as_str().unwrap().starts_with("No schedule of up to two added faults breaks it within these bounds"), "{v}");
    for bad in [
        &["search", "db-transaction", "--faults", "0"][..],
        &["search", "db-transaction", "--budget", "0"],
        &["search", "no-such-id"],
        &["search", "db-transaction", "--time-limit", "0"],
    ] {
        let o = leaselab(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(!stderr(&o).is_empty());
    }
}

/// Regression (../shared/repro/turn3/cli-terminal-escape.sh): a scenario's title and moment
/// text, and a JSON key in an error message, reached the terminal raw: the file set the
/// window's title, coloured the text and cleared the screen.
#[test]
fn what_a_file_says_reaches_the_terminal_escaped() {
    let raw = |s: &str| s.chars().find(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/cli-terminal-escape.json");
    let o = leaselab(&["run", path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(raw(&text), None, "{text}");
    assert!(text.starts_with("# gc-pause-unfenced — T\\x1b]0;PWNED\\x07\\x1b[31mRED\\x1b[0m (seed 7)\n"), "{text}");
    assert!(text.contains("» M\\x1b[2J\\x1b[31mCLEARED\n"), "{text}");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/cli-terminal-escape-in-error.json");
    let o = leaselab(&["run", path]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(raw(&stderr(&o)), None);
    assert!(stderr(&o).contains(": clocks.\\x1b]0;PWNED\\x07: no actor is called `\\x1b]0;PWNED\\x07`"), "{}", stderr(&o));
    // A line break or a right-to-left override in a moment stays on the moment's one line.
    let file =
        temp("moment-lines.json", &leaselab_show_with(|v| v["moments"][0]["text"] = "line one\nline two \u{202e}owt\u{9b}2J".into()));
    let o = leaselab(&["run", file.to_str().unwrap()]);
    assert!(stdout(&o).contains("» line one\\nline two \\u{202e}owt\\x9b2J\n"), "{}", stdout(&o));
    // JSON escapes control characters itself, and keeps the text: it reads back the same.
    let o = leaselab(&["run", file.to_str().unwrap(), "--json"]);
    assert_eq!(json(&o)["events"][6]["moment"], "line one\nline two \u{202e}owt\u{9b}2J");
}

/// Regression (../shared/repro/turn3/cli-write-error.sh): output that could not be written (a
/// full disk) was dropped without a word and the command exited 0.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_an_error_a_closed_pipe_is_not() {
    use std::process::Stdio;
    let bin = env!("CARGO_BIN_EXE_leaselab");
    for args in [
        &["show", "gc-pause-unfenced"][..],
        &["run", "gc-pause-unfenced"],
        &["run", "gc-pause-unfenced", "--json"],
        &["svg", "gc-pause-unfenced"],
        &["list"],
        &["search", "gc-pause-unfenced", "--json"],
        &["completions", "bash"],
    ] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let o = Command::new(bin).args(args).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&o), "leaselab: cannot write the output: No space left on device (os error 28)\n", "{args:?}");
    }
    // `leaselab run … | head`: the reader goes away; no message, and not a failure.
    let mut child = Command::new(bin).args(["run", "zookeeper-unfenced"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), String::new()));
}

/// Regression (../shared/repro/turn3/search-slow.sh): on a heavy scenario (ZooKeeper, 126,151
/// events a run) the search ran a few schedules a second for as long as its budget took (the
/// largest, about 46 hours), and Ctrl-C left nothing. Now a time limit stops it, and so does
/// Ctrl-C, each with what it has so far.
#[test]
fn a_search_stops_at_its_time_limit_or_at_ctrl_c_and_shows_what_it_has() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/search-slow-zookeeper.json");
    let heavy = ["search", path, "--faults", "3", "--budget", "1000000"];
    let o = leaselab(&[&heavy[..], &["--time-limit", "1", "--json"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["stopped"], "time-limit");
    let (secs, schedules) = (v["seconds"].as_f64().unwrap(), v["schedules"].as_u64().unwrap());
    assert!((1.0..30.0).contains(&secs) && schedules < 1_000, "{secs} s, {schedules} schedules");
    assert_eq!(v["coverage"]["singles"], schedules, "one-fault schedules first");
    let o = leaselab(&[&heavy[..], &["--time-limit", "1"]].concat());
    let text = stdout(&o);
    assert!(text.contains("Stopped at the time limit (raise it with --time-limit); what it has so far:\nNone of "), "{text}");
    assert!(text.contains("the search was stopped before the rest"), "{text}");
    // Not a terminal: no progress line.
    assert_eq!(stderr(&o), "");
    // A search that ends within its limit says nothing of stopping.
    let v = json(&leaselab(&["search", "db-transaction", "--json", "--budget", "50"]));
    assert_eq!(v["stopped"], serde_json::Value::Null);

    #[cfg(unix)]
    {
        use std::process::Stdio;
        let child = Command::new(env!("CARGO_BIN_EXE_leaselab"))
            .args([&heavy[..], &["--json"]].concat())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(kill.success());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["stopped"], "interrupted");
        assert!(v["seconds"].as_f64().unwrap() < 30.0, "{v}");
    }
}

/// Regression (../shared/repro/edges-2/pictures-file-exists.sh, issue 49 D9): `leaselab pictures`
/// given a file said "File exists (os error 17)".
#[test]
fn pictures_into_a_file_says_it_is_not_a_directory() {
    let file = temp("pictures-into-a-file", "");
    let o = leaselab(&["pictures", file.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("File exists"), "{}", stderr(&o));
}

/// Regression (../shared/repro/edges-2/search-time-limit-says-budget.sh, issue 49 D5): a search
/// stopped by its time limit told the reader to raise the budget, which was at its maximum.
#[test]
fn a_search_stopped_by_its_time_limit_does_not_blame_the_budget() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/search-heavy.json");
    let args = ["search", path, "--faults", "3", "--budget", "1000000", "--time-limit", "1"];
    let text = stdout(&leaselab(&args));
    assert!(text.contains("Stopped at the time limit"), "{text}");
    assert!(!text.contains("raise the budget"), "{text}");
    assert!(text.contains("the search was stopped before the rest"), "{text}");
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&leaselab(&with_json));
    assert!(!v["statement"].as_str().unwrap().contains("raise the budget"), "{v}");
}
