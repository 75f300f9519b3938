//! `leaselab walkthrough` as a user runs it: every library scenario as Markdown and as one HTML
//! page, checked: every picture parses as XML and says what it shows, every key moment has its
//! section and its picture, the verdict is the run's, links point at files that exist; and what
//! it refuses, in the words `leaselab svg` uses.

use std::path::PathBuf;
use std::process::Command;

use common::{leaselab, stderr, stdout};
use sim::facts::Facts;
use sim::time::fmt;

mod common;
mod xml;

/// A fresh directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("leaselab-walk-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The text as a scenario's quoted parts read once the quotes are code (the backticks gone).
fn unquoted(text: &str) -> String {
    sim::narrate::code_spans(text).into_iter().map(|(_, part)| part).collect()
}

/// The image links of a Markdown text: (alternative text, target).
fn images(md: &str) -> Vec<(String, String)> {
    md.split("![")
        .skip(1)
        .map(|rest| {
            let (alt, rest) = rest.split_once("](").expect("an image link");
            (alt.replace('\\', ""), rest.split_once(')').expect("a link's end").0.to_string())
        })
        .collect()
}

#[test]
fn every_library_scenario_walks_through_as_markdown_with_its_pictures() {
    let root = scratch("md");
    for sc in sim::library::all() {
        let run = sim::run(&sc).unwrap();
        let moments = Facts::of(&run).moments().to_vec();
        let dir = root.join(&sc.id);
        let o = leaselab(&["walkthrough", &sc.id, "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", sc.id, stderr(&o));
        let md = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let links = images(&md);
        assert_eq!(links.len(), moments.len() + 2, "{}: the legend, each moment, the whole run", sc.id);
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names.len(), links.len() + 1, "{}: {names:?}", sc.id);
        for (alt, target) in &links {
            assert!(!target.contains('/') && target.ends_with(".svg"), "{}: a relative link beside it: {target}", sc.id);
            let svg = std::fs::read_to_string(dir.join(target)).unwrap_or_else(|e| panic!("{}: {target}: {e}", sc.id));
            let elements = xml::parse(&svg).unwrap_or_else(|e| panic!("{}: {target} is not well-formed: {e}", sc.id));
            assert_eq!(elements[0].name, "svg");
            assert_eq!(elements[0].attr("aria-label"), Some(alt.as_str()), "{}: {target}'s alternative text says what it shows", sc.id);
        }
        for (i, &step) in moments.iter().enumerate() {
            let e = &run.events[step];
            let heading = format!("### {}. Step {} of {} · {}", i + 1, step + 1, run.events.len(), fmt(e.at_us));
            let section = md.split(&heading).nth(1).unwrap_or_else(|| panic!("{}: no section {heading}", sc.id));
            let section = section.split("\n### ").next().unwrap().split("\n## ").next().unwrap();
            assert!(section.contains(&format!("](moment-{:02}.svg)", i + 1)), "{}: {heading} has its picture", sc.id);
            assert!(section.contains("\n> "), "{}: {heading} has its moment's words", sc.id);
            let svg = std::fs::read_to_string(dir.join(format!("moment-{:02}.svg", i + 1))).unwrap();
            assert!(svg.contains(&format!(">Step {} of {}</text>", step + 1, run.events.len())) && svg.contains(r#"<g class="cursor">"#));
        }
        assert!(
            md.contains(&format!("## The verdict\n\n**{}.** Final value {}.", run.verdict.headline(), sim::render::final_value(&run))),
            "{}",
            sc.id
        );
        let whole = std::fs::read_to_string(dir.join("run.svg")).unwrap();
        assert!(whole.contains(if run.verdict.is_safe() { ">✓ safe</text>" } else { ">✗ unsafe</text>" }), "{}", sc.id);
    }
}

#[test]
fn every_library_scenario_walks_through_as_one_page_with_and_without_its_fix() {
    for written in sim::library::all() {
        for fix in [false, true] {
            let sc = if fix {
                match written.fixed() {
                    Some(f) => f.unwrap(),
                    None => continue,
                }
            } else {
                written.clone()
            };
            let run = sim::run(&sc).unwrap();
            let moments = Facts::of(&run).moments().to_vec();
            let mut args = vec!["walkthrough", &sc.id, "--format", "html"];
            if fix {
                args.push("--fix");
            }
            let o = leaselab(&args);
            assert!(o.status.success(), "{}: {}", sc.id, stderr(&o));
            let page = stdout(&o);
            let what = format!("{}{}", sc.id, if fix { " --fix" } else { "" });
            let el = xml::parse(&page).unwrap_or_else(|e| panic!("{what}: not well-formed: {e}"));
            // Nothing runs and nothing is fetched: the page is whole.
            assert!(el.iter().all(|e| e.name != "script" && e.attr("src").is_none() && e.attr("href").is_none()), "{what}");
            assert!(el.iter().all(|e| e.attrs.iter().all(|(n, _)| !n.starts_with("on"))), "{what}");
            let svgs: Vec<usize> = (0..el.len()).filter(|&i| el[i].name == "svg" && el[i].attr("role") == Some("img")).collect();
            assert_eq!(svgs.len(), moments.len() + 2, "{what}: the legend, each moment, the whole run");
            let sections: Vec<usize> = (0..el.len()).filter(|&i| el[i].attr("class") == Some("w-moment")).collect();
            assert_eq!(sections.len(), moments.len(), "{what}");
            for (&s, &step) in sections.iter().zip(&moments) {
                let e = &run.events[step];
                let inside = |class: &str| (0..el.len()).find(|&i| xml::within(&el, i, s) && el[i].attr("class") == Some(class));
                let h3 = (0..el.len()).find(|&i| xml::within(&el, i, s) && el[i].name == "h3").unwrap();
                assert!(
                    el[h3].text.contains(&format!("Step {} of {} · {}", step + 1, run.events.len(), fmt(e.at_us))),
                    "{what}: {}",
                    el[h3].text
                );
                let why = inside("w-why").unwrap_or_else(|| panic!("{what}: step {} has no moment's words", step + 1));
                assert_eq!(el[why].text, unquoted(run.moment(e.id).unwrap()), "{what}");
                let pic = (0..el.len()).find(|&i| xml::within(&el, i, s) && el[i].name == "svg").unwrap();
                assert!(el[pic].attr("aria-label").unwrap().contains(&format!("at step {} of", step + 1)), "{what}");
            }
            // With the fix, the page says so, and that the story and the notices tell the
            // scenario as written.
            let label = written.fix.as_ref().map(|f| f.label.as_str()).unwrap_or_default();
            let about = el.iter().find(|e| e.attr("class") == Some("w-about")).unwrap();
            assert_eq!(about.text.ends_with(&format!("with the fix: {label}")), fix, "{what}: {}", about.text);
            assert_eq!(page.contains("What to notice in the run as written"), fix, "{what}");
            let headline = el.iter().find(|e| e.attr("class").is_some_and(|c| c.starts_with("w-headline"))).unwrap();
            assert_eq!(headline.text, format!("{}.", run.verdict.headline()), "{what}");
            for v in &run.verdict.violations {
                let line = sim::render::finding(&run, v);
                assert!(el.iter().any(|e| e.name == "li" && e.text == line), "{what}: {line}");
            }
        }
    }
}

#[test]
fn the_same_scenario_gives_the_same_walkthrough() {
    let a = leaselab(&["walkthrough", "redlock-happy", "--format", "html"]);
    let b = leaselab(&["walkthrough", "redlock-happy", "--format", "html"]);
    assert!(a.status.success() && a.stdout == b.stdout);
}

#[test]
fn a_directory_that_is_not_empty_is_written_into_only_with_force() {
    let dir = scratch("force");
    let out = dir.join("walk");
    let out_s = out.to_str().unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--out", out_s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("walk: not empty; give --force"), "{}", stderr(&o));
    assert!(!out.join("README.md").exists());
    // With --force: its own files are written, a moment picture it no longer has is removed,
    // and the reader's own files stay.
    std::fs::write(out.join("moment-40.svg"), "<svg/>").unwrap();
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--out", out_s, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("README.md").exists() && out.join("moment-07.svg").exists() && !out.join("moment-40.svg").exists());
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
    // The default directory is named after the scenario.
    let o = Command::new(env!("CARGO_BIN_EXE_leaselab"))
        .args(["walkthrough", "gc-pause-unfenced", "--fix"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("gc-pause-unfenced-fixed-walkthrough/README.md").exists());
    // A page is not written over a file without --force.
    let page = dir.join("page.html");
    std::fs::write(&page, "mine").unwrap();
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--format", "html", "--out", page.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("page.html: already exists; give --force"), "{}", stderr(&o));
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--format", "html", "--out", page.to_str().unwrap(), "--force"]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(&page).unwrap().starts_with("<!DOCTYPE html>"));
    // A file where a directory belongs, and the other way round.
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--out", page.to_str().unwrap(), "--force"]);
    assert!(o.status.code() == Some(2) && stderr(&o).contains("page.html: not a directory"), "{}", stderr(&o));
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--format", "html", "--out", out_s, "--force"]);
    assert!(o.status.code() == Some(2) && stderr(&o).contains("walk: is a directory"), "{}", stderr(&o));
}

#[test]
fn bad_input_is_refused_in_the_words_svg_uses() {
    let dir = scratch("bad");
    let missing = dir.join("missing.json");
    let missing = missing.to_str().unwrap();
    for (walk, svg) in [
        (vec!["walkthrough", "lease-basics", "--fix"], vec!["svg", "lease-basics", "--fix"]),
        (vec!["walkthrough", missing, "--format", "html"], vec!["svg", missing]),
        (vec!["walkthrough", "no-such-scenario"], vec!["svg", "no-such-scenario"]),
    ] {
        let (w, s) = (leaselab(&walk), leaselab(&svg));
        assert_eq!(w.status.code(), Some(2), "{walk:?}");
        assert_eq!(stderr(&w), stderr(&s), "{walk:?}");
    }
    assert!(stderr(&leaselab(&["walkthrough", "lease-basics", "--fix"])).contains("lease-basics has no one-click fix"));
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--format", "pdf"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("'pdf'") && stderr(&o).contains("md, html"), "{}", stderr(&o));
    let o = leaselab(&["walkthrough", "gc-pause-unfenced", "--width", "100"]);
    assert_eq!(o.status.code(), Some(2));
    let o = leaselab(&["walkthrough", "--help"]);
    assert!(stdout(&o).contains("Nothing is overwritten without --force"), "{}", stdout(&o));
}

/// A scenario file's words are shown, never obeyed: in the Markdown they cannot become a
/// heading, a link, emphasis or a tag, nor reach a terminal as an escape sequence; in the page
/// and the pictures they are text.
#[test]
fn what_a_file_says_is_written_as_text() {
    let dir = scratch("words");
    let mut v: serde_json::Value = serde_json::from_str(&stdout(&leaselab(&["show", "gc-pause-unfenced"]))).unwrap();
    v["title"] = "# <b>Bold</b> *claims* & [a link](http://x) \u{1b}[2J".into();
    v["story"] = "1. not a list; `SET lock <x>` stays code; _under_".into();
    v["moments"][0]["text"] = "<script>alert(1)</script> > quoted".into();
    let file = dir.join("hostile.json");
    std::fs::write(&file, serde_json::to_string(&v).unwrap()).unwrap();
    let out = dir.join("md");
    let o = leaselab(&["walkthrough", file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(md.starts_with("# \\# \\<b>Bold\\</b> \\*claims\\* & \\[a link\\](http://x) \\\\x1b\\[2J\n"), "{md}");
    assert!(md.contains("\n1\\. not a list; `SET lock <x>` stays code; \\_under\\_\n"), "{md}");
    assert!(md.contains("\n> \\<script>alert(1)\\</script> > quoted\n"), "{md}");
    assert!(md.contains("from the scenario file `hostile.json`") && !md.contains(dir.to_str().unwrap()), "only the file's name");
    let o = leaselab(&["walkthrough", file.to_str().unwrap(), "--format", "html"]);
    let page = stdout(&o);
    let el = xml::parse(&page).unwrap();
    assert!(el.iter().all(|e| e.name != "script" && e.name != "b"));
    assert!(el.iter().any(|e| e.name == "code" && e.text == "SET lock <x>"));
}

/// Regression (../shared/repro/edges-2/walkthrough-bidi.sh, issue 49 D4): `--format html` kept a
/// scenario's right-to-left overrides and escape sequences raw (21 U+202E), where Markdown and
/// every text output write them as escapes.
#[test]
fn the_html_walkthrough_writes_overrides_and_controls_as_escapes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../sim/tests/repro/walkthrough-bidi.json");
    let o = leaselab(&["walkthrough", path, "--format", "html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = stdout(&o);
    let raw = html.chars().find(|&c| (c.is_control() && c != '\n') || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'));
    assert_eq!(raw, None, "a raw {raw:?} in the page");
    assert!(html.contains("\\u{202e}"), "the override is shown as an escape");
}
