use super::*;

fn bad(info: &str, body: &str) -> Bad {
    parse(info, body).expect_err(info)
}

#[test]
fn every_option_is_read() {
    let b = parse(
        "leaselab scenario=redlock-clock-jump fix compare=fix step=key:3 height=420 loading=visible controls=play theme=dark autoplay edit",
        "",
    )
    .unwrap();
    assert_eq!(
        b,
        Block {
            source: Source::Library("redlock-clock-jump".into()),
            fix: true,
            compare_fix: true,
            step: Some(Step::Key(3)),
            height: Some(420),
            live: vec![
                ("loading", Some("visible")),
                ("controls", Some("play")),
                ("theme", Some("dark")),
                ("autoplay", None),
                ("edit", None)
            ],
        }
    );
    let plain = parse("leaselab   scenario=gc-pause-fenced  step=12", "\n").unwrap();
    assert_eq!((plain.fix, plain.compare_fix, plain.step, plain.height, plain.live), (false, false, Some(Step::Number(12)), None, vec![]));
    // Every choice of every live option is taken as it is.
    for (name, choices) in LIVE {
        for (choice, _) in choices {
            assert_eq!(parse(&format!("leaselab {name}={choice} scenario=x"), "").unwrap().live, vec![(name, Some(*choice))]);
        }
    }
}

#[test]
fn a_body_without_scenario_is_the_scenario_json() {
    let b = parse("leaselab step=2", "{\"title\": \"mine\"}\n").unwrap();
    assert_eq!(b.source, Source::Json("{\"title\": \"mine\"}\n".into()));
}

#[test]
fn only_blocks_whose_first_word_is_leaselab_are_ours() {
    assert!(is_ours("leaselab scenario=x") && is_ours("leaselab") && is_ours("  leaselab\tfix"));
    assert!(!is_ours("rust") && !is_ours("leaselabs") && !is_ours("leaselab,ignore") && !is_ours(""));
}

#[test]
fn an_unknown_option_names_the_closest_and_the_options() {
    let e = bad("leaselab scenario=x stpe=3", "");
    assert_eq!(e.line, 0);
    assert_eq!(
        e.message,
        "there is no option `stpe` (did you mean `step`?); the options are scenario, fix, compare, step, height, loading, controls, theme, autoplay, edit"
    );
    assert!(!bad("leaselab colour=red", "").message.contains("did you mean"));
}

#[test]
fn bad_values_say_what_to_write() {
    let cases = [
        ("leaselab scenario=x step=abc", "step=abc: use a step number (step=12; 1 is the first event) or a key moment (step=key:3)"),
        ("leaselab scenario=x step=0", "step=0: steps count from 1 (step=1 is the first event)"),
        ("leaselab scenario=x step=key:0", "step=key:0: key moments count from 1 (key:1 is the first)"),
        ("leaselab scenario=x step=key:", "step=key:: use a step number (step=12; 1 is the first event) or a key moment (step=key:3)"),
        ("leaselab scenario=x step=-2", "step=-2: use a step number (step=12; 1 is the first event) or a key moment (step=key:3)"),
        ("leaselab scenario=x step", "`step` needs a value: a step number (step=12; 1 is the first event) or a key moment (step=key:3)"),
        ("leaselab scenario=", "`scenario=` is empty: a library id such as scenario=gc-pause-fenced (see `leaselab list`)"),
        ("leaselab scenario=x fix=yes", "`fix` takes no value (write `fix`, not `fix=yes`)"),
        ("leaselab scenario=x compare=before", "compare=before: the only comparison is compare=fix (the run with its one-click fix)"),
        ("leaselab scenario=x height=99", "height=99: use a whole number of pixels from 100 to 100000, such as height=420"),
        ("leaselab scenario=x height=12px", "height=12px: use a whole number of pixels from 100 to 100000, such as height=420"),
        ("leaselab scenario=x loading=lazzy", "loading=lazzy (did you mean `lazy`?): use loading=lazy (on a click or focus), loading=eager (at once), loading=visible (when scrolled into view)"),
        ("leaselab scenario=x controls", "`controls` needs a value: controls=full (every control), controls=play (play and step only), controls=none (no controls)"),
        ("leaselab scenario=x theme=drak", "theme=drak (did you mean `dark`?): use theme=page (the page's colours), theme=light (light), theme=dark (dark), theme=system (the reader's system's)"),
        ("leaselab scenario=x edit=1", "`edit` takes no value (write `edit`, not `edit=1`)"),
        ("leaselab scenario=x autoplay autoplay", "`autoplay` is given twice; keep one"),
        ("leaselab scenario=x fix fix", "`fix` is given twice; keep one"),
    ];
    for (info, message) in cases {
        let e = bad(info, "");
        assert_eq!((e.line, e.message.as_str()), (0, message), "{info}");
    }
}

#[test]
fn a_block_needs_one_scenario_not_two() {
    let e = bad("leaselab fix", "  \n");
    assert_eq!(e.line, 0);
    assert!(e.message.starts_with("which run? Give scenario=<library id>"), "{}", e.message);
    // The body's first written line is where the extra scenario is.
    let e = bad("leaselab scenario=gc-pause-fenced", "\n{\"title\": \"x\"}\n");
    assert_eq!(e.line, 2);
    assert!(e.message.starts_with("a block with scenario=gc-pause-fenced has no body"), "{}", e.message);
}
