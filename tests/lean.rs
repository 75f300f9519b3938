//! What the download must not pull in (issue 14): code in `src/`, `crates/sim/src` and
//! `crates/draw/src` (tests aside) names none of the parts of the standard library and of serde
//! that each cost the WebAssembly module kilobytes for little: B-tree maps and sets (their node code is compiled
//! for every key and value type: use `sim::flat`), Unicode case conversion and classes (tables:
//! the ASCII forms do for this program's words), the decimal parser of `str::parse::<f64>`
//! (tables: read numbers as JSON does), a second sort (use `sim::sort`), serde's
//! deserializers and its serializer into values (the derived ones cost 89 and 20 KB: use
//! `sim::from_value` and `sim::to_value`), and serde_json (its parser, serializers and B-tree
//! objects cost 36 KB: use `sim::json`), and Debug formatting (the release build leaves it out,
//! so `{:?}` would show nothing). The names are matched as text, so this catches the
//! usual spellings, not every way of reaching them.

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

const BANNED: &[(&str, &str)] = &[
    ("BTreeMap", "sim::flat::Map"),
    ("BTreeSet", "sim::flat::Set"),
    (".to_lowercase()", "to_ascii_lowercase"),
    (".to_uppercase()", "to_ascii_uppercase"),
    ("is_alphanumeric()", "is_ascii_alphanumeric"),
    ("is_alphabetic()", "is_ascii_alphabetic"),
    ("parse::<f64>", "sim::json::parse(..).as_f64()"),
    ("parse::<f32>", "sim::json::parse(..).as_f64()"),
    ("sort_unstable", "sim::sort"),
    ("DeserializeOwned", "sim::from_value::FromValue"),
    ("serde_json", "sim::json"),
    ("Deserialize::deserialize", "sim::from_value::deserialize"),
    ("Serialize::serialize", "sim::to_value::ToValue"),
    // The release build formats no Debug (-Zfmt-debug=none: `{:?}` writes nothing there).
    (":?}", "words of its own, or Display"),
    (":#?}", "words of its own, or Display"),
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() && name != "tests" {
            sources(&path, out);
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

#[test]
fn the_app_names_none_of_the_costly_parts_of_the_standard_library_and_serde() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates/sim/src", "crates/draw/src"] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files found", files.len());
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // A file's unit tests come last, after `#[cfg(test)]`; they are not in the download.
        let shipped = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in shipped.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            for (name, instead) in BANNED {
                if code.contains(name) {
                    found.push(format!("{}:{}: {name} (use {instead})", path.strip_prefix(root).unwrap().display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "kept out of the download (tests/lean.rs):\n{}", found.join("\n"));
}
