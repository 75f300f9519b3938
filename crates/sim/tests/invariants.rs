//! Architecture invariants (ARCHITECTURE.md): the engine imports nothing from the browser
//! stack, reads no real clock, draws no OS randomness, and is deterministic; the checker's
//! findings are data.

use std::path::Path;

const FORBIDDEN_CRATES: &[&str] =
    &["yew", "web-sys", "web_sys", "js-sys", "js_sys", "gloo", "wasm-bindgen", "wasm_bindgen", "rand", "getrandom", "chrono", "time"];
const FORBIDDEN_CODE: &[&str] = &[
    "Instant::now",
    "SystemTime",
    "thread_rng",
    "from_entropy",
    "std::fs",
    "std::net",
    "std::env",
    "std::process",
    "println!",
    "eprintln!",
];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        }
    }
}

#[test]
fn the_engine_depends_on_nothing_from_the_browser_or_the_os() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    for line in deps.lines().filter(|l| l.contains('=')) {
        let name = line.split('=').next().unwrap().trim();
        assert!(!FORBIDDEN_CRATES.contains(&name), "the engine must not depend on `{name}`");
        assert!(["serde"].contains(&name), "new engine dependency `{name}`: check it does no I/O and add it here");
    }
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() >= 10);
    for (path, text) in &files {
        for bad in FORBIDDEN_CODE {
            assert!(!text.contains(bad), "{path} uses `{bad}`: the engine does no I/O and reads no real clock");
        }
        for krate in ["yew", "web_sys", "js_sys", "gloo", "wasm_bindgen"] {
            assert!(!text.contains(&format!("{krate}::")), "{path} uses `{krate}`");
        }
    }
}

#[test]
fn the_same_scenario_gives_the_identical_trace() {
    for s in sim::library::all() {
        let a = sim::run(&s).unwrap();
        let b = sim::run(&s.clone()).unwrap();
        assert_eq!(a, b, "{} (seed {}) is not deterministic", s.id, s.seed);
        // And the trace depends on the seed where there is randomness.
        let mut other = s.clone();
        other.seed += 1;
        let c = sim::run(&other).unwrap();
        assert_eq!(c.seed, s.seed + 1);
    }
}

/// Findings are data, with no English in them: the checker's passes and the verdict's types make
/// no text, and `checker/words.rs` makes each finding's sentence when it is shown.
#[test]
fn the_checker_makes_no_sentence_while_it_checks() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = ["checker.rs", "checker/violations.rs", "checker/hazards.rs", "checker/stalls.rs", "verdict.rs", "verdict/cause.rs"];
    for file in files {
        let text = std::fs::read_to_string(src.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for bad in ["format!", "String", "to_string", "push_str"] {
            assert!(!text.contains(bad), "{file} uses `{bad}`: a finding holds data, and checker/words.rs words it");
        }
    }
    // The words are where the check expects them: it can fail.
    let words = std::fs::read_to_string(src.join("checker/words.rs")).unwrap();
    assert!(words.contains("format!"));
}
