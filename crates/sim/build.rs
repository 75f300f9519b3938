//! Prepares the library's scenario files for `library.rs`: each file's JSON with the whitespace
//! between tokens removed (strings untouched), compiled in with the `embedded-library` feature,
//! and each file's entry in the course (`<id>.entry.rs`: its id, chapter and title), compiled in
//! always. Nothing else is read here: the files are checked when the library is read
//! (`library::all`), exactly as written.

use std::path::Path;

fn main() {
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("scenarios");
    std::fs::create_dir_all(&out).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=scenarios");
    for entry in std::fs::read_dir("scenarios").expect("the scenarios directory") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path).expect("a readable scenario file");
            std::fs::write(out.join(path.file_name().expect("a file name")), compact(&text)).expect("OUT_DIR is writable");
            let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
            let field =
                |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or_else(|| panic!("{} has no string `{k}`", path.display())).to_string();
            let entry = format!("Entry {{ id: {:?}, chapter: {:?}, title: {:?} }}", field("id"), field("chapter"), field("title"));
            let stem = path.file_stem().expect("a file name").to_string_lossy().to_string();
            // The app fetches a scenario as `scenarios/<id>.json`.
            assert_eq!(field("id"), stem, "{}: a scenario file is named by its id", path.display());
            std::fs::write(out.join(format!("{stem}.entry.rs")), entry).expect("OUT_DIR is writable");
        }
    }
}

/// JSON text without the whitespace outside its strings.
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}
