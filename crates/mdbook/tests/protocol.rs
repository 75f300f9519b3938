//! The `mdbook-leaselab` command as mdBook runs it: `supports <renderer>`, then the book as JSON
//! on standard input and back on standard output, its bad blocks on standard error with exit
//! status 1; and `install`. The example book's chapters (examples/book) are the input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::config::Config;
use mdbook_preprocessor::PreprocessorContext;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdbook-leaselab"))
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/book")
}

/// Runs the preprocessor on chapters `(file, content)` of a book with `book.toml` for
/// `renderer`.
fn preprocess(toml: &str, renderer: &str, chapters: &[(&str, String)]) -> (Output, Option<Book>) {
    let config: Config = toml.parse().unwrap();
    let ctx = PreprocessorContext::new(example(), config, renderer.to_string());
    let mut book = Book::new();
    for (file, content) in chapters {
        book.push_item(Chapter::new(file, content.clone(), *file, Vec::new()));
    }
    let mut child = bin().stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    serde_json::to_writer(child.stdin.take().unwrap(), &(&ctx, &book)).unwrap();
    let out = child.wait_with_output().unwrap();
    let back = out.status.success().then(|| serde_json::from_slice(&out.stdout).unwrap());
    (out, back)
}

fn contents(book: &Book) -> Vec<String> {
    book.iter()
        .filter_map(|i| match i {
            BookItem::Chapter(c) => Some(c.content.clone()),
            _ => None,
        })
        .collect()
}

fn example_chapters() -> Vec<(&'static str, String)> {
    ["README.md", "gc-pause.md", "redlock.md", "own.md"]
        .into_iter()
        .map(|f| (f, std::fs::read_to_string(example().join("src").join(f)).unwrap()))
        .collect()
}

const BOOK: &str = "[book]\ntitle = \"t\"\n[preprocessor.leaselab]\nsite = \"https://example.org/leaselab\"\n";

#[test]
fn every_renderer_is_supported() {
    for r in ["html", "markdown", "epub"] {
        assert!(bin().args(["supports", r]).status().unwrap().success(), "{r}");
    }
}

#[test]
fn the_example_book_becomes_elements_for_html_and_pictures_for_markdown() {
    let (out, html) = preprocess(BOOK, "html", &example_chapters());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = contents(&html.unwrap());
    // The introduction has no block and is left as written.
    assert_eq!(html[0], example_chapters()[0].1);
    for (chapter, blocks) in html.iter().zip([0, 2, 1, 1]).skip(1) {
        assert_eq!(chapter.matches("<lease-lab ").count(), blocks, "{chapter}");
        assert_eq!(chapter.matches(r#"<script src="https://example.org/leaselab/embed.js" async></script>"#).count(), 1);
    }
    assert!(html[2].contains(r#"<lease-lab scenario="redlock-clock-jump" fix compare="fix" step="#));
    assert!(html[3].contains("<lease-lab src=\"data:application/json;base64,"));
    // The block shown inside a longer fence stays text.
    assert!(html[1].contains("````markdown\n```leaselab scenario=gc-pause-unfenced step=key:7\n```\n````"));

    let (out, md) = preprocess(BOOK, "markdown", &example_chapters());
    assert!(out.status.success());
    let md = contents(&md.unwrap());
    assert!(md.iter().all(|c| !c.contains("<lease-lab") && !c.contains("<script")));
    assert_eq!(md.iter().map(|c| c.matches("<div class=\"leaselab\"><svg ").count()).sum::<usize>(), 4);
}

#[test]
fn bad_blocks_fail_the_build_with_file_line_and_what_is_wrong() {
    let own = example_chapters()[3].1.replace("\"seed\": 1,", "\"seed\": 1");
    let bad =
        "# Bad\n\n```leaselab scenario=redlock-clock-jump step=key:99\n```\n\n```leaselab scenario=gc-pause-fenced fix\n```\n".to_string();
    let (out, back) = preprocess(BOOK, "html", &[("own.md", own), ("more/bad.md", bad)]);
    assert!(back.is_none());
    assert_eq!(out.status.code(), Some(1));
    let n = example_chapters()[3].1.lines().position(|l| l.contains("\"duration_ms\"")).unwrap() + 1;
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert_eq!(lines[0], format!("src/own.md:{n}: the scenario's JSON, column 3: invalid JSON: expected `,` or `}}`"));
    assert!(lines[1].starts_with("src/more/bad.md:3: step=key:99: redlock-clock-jump has "), "{err}");
    assert_eq!(lines[2], "src/more/bad.md:6: fix: gc-pause-fenced has no one-click fix");
    assert_eq!(lines[3], "mdbook-leaselab: 3 bad leaselab blocks; the book is not built");
}

#[test]
fn a_mistyped_setting_fails_the_build_and_no_site_leaves_the_pictures() {
    let (out, _) = preprocess("[preprocessor.leaselab]\nstie = \"https://example.org/\"\n", "html", &example_chapters());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("book.toml: [preprocessor.leaselab] has no setting `stie` (did you mean `site`?)")
    );
    let (out, book) = preprocess("[preprocessor.leaselab]\n", "html", &example_chapters());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no site in [preprocessor.leaselab]"));
    // Said only to a book that has blocks.
    let (quiet, _) = preprocess("[preprocessor.leaselab]\n", "html", &example_chapters()[..1]);
    assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
    let html = contents(&book.unwrap());
    assert_eq!(html[1].matches("<lease-lab ").count(), 2);
    assert!(!html.iter().any(|c| c.contains("<script")));
}

#[test]
fn install_says_what_it_did_and_is_idempotent() {
    let dir = std::env::temp_dir().join(format!("mdbook-leaselab-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("book.toml"), "[book]\ntitle = \"x\"\n").unwrap();
    let first = bin().args(["install", dir.to_str().unwrap(), "--site", "https://example.org/lab/"]).output().unwrap();
    assert!(first.status.success());
    assert!(String::from_utf8_lossy(&first.stdout).starts_with("mdbook-leaselab: added [preprocessor.leaselab] to "));
    let second = bin().args(["install", dir.to_str().unwrap()]).output().unwrap();
    assert!(String::from_utf8_lossy(&second.stdout)
        .contains("already has [preprocessor.leaselab], with site = \"https://example.org/lab/\"; nothing changed"));
    let none = bin().args(["install", dir.join("nowhere").to_str().unwrap()]).output().unwrap();
    assert_eq!(none.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
    // Started by hand, it says what it is for.
    let mut child = bin().stdin(Stdio::piped()).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"hello").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("run `mdbook-leaselab install <book>`"));
}

/// What the book says (a block's options, a chapter's file, a book.toml key) reaches the
/// terminal as escapes, as `leaselab` writes them: never an escape sequence it would obey.
#[test]
fn escape_sequences_from_the_book_are_written_as_escapes() {
    let block = "```leaselab scenario=\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{202e}red\n```\n".to_string();
    let (in_block, _) = preprocess(BOOK, "html", &[("ch\u{1b}]0;TITLE\u{7}.md", block)]);
    let key = "[preprocessor.leaselab]\n\"s\\u001b]0;KEY\\u0007\" = \"x\"\n";
    let (in_key, _) = preprocess(key, "html", &example_chapters()[..1]);
    for (out, seen) in [
        (in_block, "src/ch\\x1b]0;TITLE\\x07.md:1: scenario=\\x1b]0;PWNED\\x07\\x1b[2J\\u{202e}red: "),
        (in_key, "book.toml: [preprocessor.leaselab] has no setting `s\\x1b]0;KEY\\x07`"),
    ] {
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains(['\u{1b}', '\u{7}', '\u{202e}']), "{err:?}");
        assert!(err.starts_with(seen), "{err}");
    }
}

/// A setting of book.toml that is wrong is said to be one, not counted as a bad block.
#[test]
fn a_bad_setting_is_a_book_toml_error_not_a_bad_block() {
    for (toml, first) in [
        ("[preprocessor.leaselab]\nstie = \"https://example.org/\"\n", "book.toml: [preprocessor.leaselab] has no setting `stie`"),
        (
            "[preprocessor.leaselab]\nsite = \"https://example.org/\\u0001\"\n",
            "book.toml: [preprocessor.leaselab] site = \"https://example.org/\\x01\": an address has no control or bidirectional characters; ",
        ),
    ] {
        let (out, _) = preprocess(toml, "html", &example_chapters());
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!err.contains("block") && err.starts_with(first), "{err}");
        assert_eq!(err.lines().last(), Some("mdbook-leaselab: a bad setting in book.toml; the book is not built"), "{err}");
    }
}

/// `install --site` writes the site as a TOML string that reads back as the same site, or
/// refuses it, and the book.toml it leaves can be read.
#[test]
fn install_writes_the_site_so_that_it_reads_back_as_given() {
    let dir = std::env::temp_dir().join(format!("mdbook-leaselab-protocol-site-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (given, read) in [
        ("https://example.org/lab\\", Some("https://example.org/lab\\/")),
        ("https://example.org/\\u0022x", Some("https://example.org/\\u0022x/")),
        ("https://example.org/lab\u{1}", None),
        ("https://example.org/\u{202e}bal", None),
    ] {
        std::fs::write(dir.join("book.toml"), "[book]\ntitle = \"t\"\n").unwrap();
        let out = bin().args(["install", dir.to_str().unwrap(), "--site", given]).output().unwrap();
        let after = std::fs::read_to_string(dir.join("book.toml")).unwrap();
        let config: Config = after.parse().unwrap_or_else(|e| panic!("{given:?}: {e}\n{after}"));
        let site = config.get::<String>("preprocessor.leaselab.site").unwrap();
        match read {
            Some(read) => {
                assert!(out.status.success(), "{given:?}: {out:?}");
                assert_eq!(site.as_deref(), Some(read), "{after}");
            }
            None => {
                assert_eq!(out.status.code(), Some(2), "{given:?}: {out:?}");
                let err = String::from_utf8(out.stderr).unwrap();
                assert!(err.contains("control or bidirectional") && !err.contains(['\u{1}', '\u{202e}']), "{err}");
                assert!(!after.contains("leaselab"), "{after}");
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}
