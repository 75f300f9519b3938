//! Size limits for the app and the drawing crate (issue 12): no source file under `src/` or
//! `crates/draw/src` over 400 lines, no function over 120 lines. A function is measured from the
//! line of its `fn` to the line of the brace that closes its body, found by counting braces
//! outside comments, strings and character literals.

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

const FILE_LINES_MAX: usize = 400;
const FN_LINES_MAX: usize = 120;

/// Every `.rs` file below `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The character `k` places after `i`.
fn at(c: &[char], i: usize, k: usize) -> Option<char> {
    c.get(i + k).copied()
}

/// The code of `text` with comments, strings and character literals blanked (newlines kept), so
/// that braces can be counted.
fn code_only(text: &str) -> Vec<char> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(c.len());
    let mut i = 0;
    let blank = |ch: char| if ch == '\n' { '\n' } else { ' ' };
    while i < c.len() {
        if c[i] == '/' && at(&c, i, 1) == Some('/') {
            while i < c.len() && c[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c[i] == '/' && at(&c, i, 1) == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(&c, i, 1) == Some('*') {
                    depth += 1;
                    out.extend(['/', '*']);
                    i += 2;
                } else if c[i] == '*' && at(&c, i, 1) == Some('/') {
                    depth -= 1;
                    out.extend(['*', '/']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(c[i]));
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (at(&c, i, 1) == Some('"') || (at(&c, i, 1) == Some('#') && !c[..i].last().is_some_and(|p| p.is_alphanumeric())))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() && !(c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#'))) {
                j += 1;
            }
            let end = (j + 1 + hashes).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else if c[i] == '\''
            && (at(&c, i, 2) == Some('\'') || (at(&c, i, 1) == Some('\\') && c[i + 2..].iter().take(10).any(|&x| x == '\'')))
        {
            // A character literal ('{', '\n', '\u{7b}'); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if c[j] == '\\' {
                j += 2;
            } else {
                j += 1;
            }
            while j < c.len() && c[j] != '\'' {
                j += 1;
            }
            let end = (j + 1).min(c.len());
            out.extend(c[i..end].iter().map(|&ch| blank(ch)));
            i = end;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Each function's name and length in lines, in `text`.
fn functions(text: &str) -> Vec<(String, usize)> {
    let code: String = code_only(text).into_iter().collect();
    // Line of each character offset.
    let mut starts = vec![0usize];
    for (i, ch) in code.char_indices() {
        if ch == '\n' {
            starts.push(i + 1);
        }
    }
    let line_of = |off: usize| starts.partition_point(|&s| s <= off) - 1;
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(k) = code[search..].find("fn ") {
        let at = search + k;
        search = at + 3;
        let word_start = at == 0 || !(bytes[at - 1] as char).is_alphanumeric() && bytes[at - 1] != b'_';
        if !word_start {
            continue;
        }
        let name: String = code[at + 3..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            continue;
        }
        // The body opens at the first `{` before any `;` (a declaration without a body has none).
        let Some(open) = code[at..].find(['{', ';']).map(|o| at + o) else { continue };
        if bytes[open] == b';' {
            continue;
        }
        let mut depth = 0i64;
        let mut close = None;
        for (o, ch) in code[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + o);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.unwrap_or_else(|| panic!("the body of fn {name} never closes"));
        out.push((name, line_of(close) - line_of(at) + 1));
    }
    out
}

/// What is over the limits in one file: messages naming the file, or the function.
fn over_limits(name: &str, text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let n = text.lines().count();
    if n > FILE_LINES_MAX {
        bad.push(format!("{name}: {n} lines (at most {FILE_LINES_MAX}); split it into modules by concern"));
    }
    for (f, len) in functions(text) {
        if len > FN_LINES_MAX {
            bad.push(format!("{name}: fn {f} is {len} lines (at most {FN_LINES_MAX})"));
        }
    }
    bad
}

#[test]
fn no_file_of_the_app_or_the_drawing_crate_is_too_long_and_no_function_either() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("crates/draw/src"), &mut files);
    assert!(files.len() > 20, "the scan found the sources ({})", files.len());
    let mut bad = Vec::new();
    let mut measured = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        measured += functions(&text).len();
        bad.extend(over_limits(&f.strip_prefix(root).unwrap_or(f).display().to_string(), &text));
    }
    assert!(measured > 100, "the scan found the functions ({measured})");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_scan_measures_functions_past_braces_in_strings_chars_and_comments() {
    let text = "fn a() {\n    let s = \"}}}\";\n    let c = '}';\n    // }\n    let r = r#\"}\"#;\n    x::<'static>();\n}\nfn b(x: &'a str) -> &'a str { x }\n";
    assert_eq!(functions(text), vec![("a".to_string(), 7), ("b".to_string(), 1)]);
}

#[test]
fn the_scan_fails_a_long_function_and_a_long_file() {
    let long_fn = format!("fn long() {{\n{}}}\n", "    step();\n".repeat(FN_LINES_MAX));
    let bad = over_limits("long.rs", &long_fn);
    assert_eq!(bad, vec![format!("long.rs: fn long is {} lines (at most {FN_LINES_MAX})", FN_LINES_MAX + 2)]);
    let long_file = "// a line\n".repeat(FILE_LINES_MAX + 1);
    assert_eq!(over_limits("big.rs", &long_file).len(), 1);
    assert!(over_limits("ok.rs", &"// a line\n".repeat(FILE_LINES_MAX)).is_empty());
}
