use super::*;

const SITE: Output<'static> = Output::Html { site: Some("https://example.org/lab/") };

#[test]
fn blocks_are_found_with_their_lines_and_a_fence_inside_a_longer_one_is_text() {
    let md = "# Locks\n\nText.\n```leaselab scenario=gc-pause-fenced step=3\n```\n\n````markdown\n```leaselab scenario=shown-not-run\n```\n````\n\n~~~leaselab\n{\"a\": 1}\n~~~\n\n```rust\nfn main() {}\n```\n";
    let found = blocks(md);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!((found[0].line, found[0].info.as_str(), found[0].body.as_str()), (4, "leaselab scenario=gc-pause-fenced step=3", ""));
    assert_eq!((found[1].line, found[1].info.as_str(), found[1].body.as_str()), (12, "leaselab", "{\"a\": 1}\n"));
    assert!(md[found[0].range.clone()].starts_with("```leaselab") && md[found[0].range.clone()].trim_end().ends_with("```"));
}

#[test]
fn html_gets_the_element_with_the_picture_and_the_script_once() {
    let md = "Before.\n```leaselab scenario=redlock-clock-jump fix compare=fix step=key:3 height=420 loading=lazy controls=play edit\n```\nAfter, *emphasised*.\n\n```leaselab scenario=gc-pause-unfenced\n```\n";
    let out = rewrite(md, SITE).unwrap().unwrap();
    assert!(
        out.starts_with("Before.\n<div class=\"leaselab\"><lease-lab scenario=\"redlock-clock-jump\" fix compare=\"fix\" step=\""),
        "{}",
        &out[..200]
    );
    assert!(out.contains("\" height=\"420\" loading=\"lazy\" controls=\"play\" edit><svg style="));
    assert_eq!(out.matches("<lease-lab ").count(), 2);
    assert_eq!(out.matches("</svg></lease-lab></div>\n\n").count(), 2);
    // What follows a block is Markdown again: the blank line ends the HTML block.
    assert!(out.contains("</lease-lab></div>\n\nAfter, *emphasised*.\n"), "{out}");
    assert!(out.ends_with("\n\n<script src=\"https://example.org/lab/embed.js\" async></script>\n"));
    assert_eq!(out.matches("<script").count(), 1);
    assert_eq!(out.lines().filter(|l| l.contains("<svg")).count(), 2);
}

#[test]
fn html_without_a_site_has_the_elements_and_no_script() {
    let out = rewrite("```leaselab scenario=gc-pause-unfenced\n```\n", Output::Html { site: None }).unwrap().unwrap();
    assert!(out.starts_with("<div class=\"leaselab\"><lease-lab scenario=\"gc-pause-unfenced\"><svg"));
    assert!(!out.contains("<script"));
}

#[test]
fn other_renderers_get_the_picture_alone() {
    let out = rewrite("```leaselab scenario=gc-pause-unfenced step=key:1\n```\ntail\n", Output::Other).unwrap().unwrap();
    assert!(out.starts_with("<div class=\"leaselab\"><svg style="), "{}", &out[..80]);
    assert!(!out.contains("lease-lab") && !out.contains("<script"));
    assert!(out.ends_with("</svg></div>\n\ntail\n"));
}

#[test]
fn a_json_block_becomes_an_element_with_its_scenario_as_src() {
    let json = sim::library::get("gc-pause-fenced").unwrap().to_json();
    let md = format!("```leaselab step=2\n{json}\n```\n");
    let out = rewrite(&md, SITE).unwrap().unwrap();
    let src = format!(" src=\"{}\" step=\"2\"><svg", crate::html::data_url(json.trim()));
    assert!(out.starts_with(&format!("<div class=\"leaselab\"><lease-lab{src}")), "{}", &out[..120]);
}

#[test]
fn a_block_in_a_quote_ends_with_a_quoted_blank_line() {
    let out = rewrite("> Look:\n> ```leaselab scenario=gc-pause-unfenced\n> ```\n> more\n", Output::Other).unwrap().unwrap();
    assert!(out.starts_with("> Look:\n> <div class=\"leaselab\"><svg"));
    assert!(out.ends_with("</svg></div>\n>\n> more\n"), "{}", &out[out.len() - 40..]);
}

#[test]
fn a_chapter_without_blocks_is_left_alone() {
    assert_eq!(rewrite("# Nothing\n\n```sh\nleaselab list\n```\n", SITE), Ok(None));
}

#[test]
fn every_bad_block_is_said_at_its_line() {
    let md = "# Bad\n\n```leaselab scenario=redlock-clok-jump\n```\n\n```leaselab scenario=gc-pause-unfenced\n```\n\n```leaselab step=1\n{\n  \"title\": \"x\"\n  \"seed\": 2\n}\n```\n";
    let problems = rewrite(md, SITE).unwrap_err();
    assert_eq!(
        problems,
        vec![
            Problem {
                line: 3,
                message: "scenario=redlock-clok-jump: there is no such scenario in the library (did you mean `redlock-clock-jump`?)".into()
            },
            Problem { line: 12, message: "the scenario's JSON, column 3: invalid JSON: expected `,` or `}`".into() },
        ]
    );
}

#[test]
fn a_block_at_the_end_without_a_closing_fence_or_newline_is_read() {
    let out = rewrite("text\n\n```leaselab scenario=gc-pause-unfenced", Output::Other).unwrap().unwrap();
    assert!(out.starts_with("text\n\n<div class=\"leaselab\"><svg") && out.ends_with("</svg></div>\n\n"));
    let out = rewrite("```leaselab scenario=gc-pause-unfenced\n```", Output::Other).unwrap().unwrap();
    assert!(out.ends_with("</svg></div>\n\n"));
}
