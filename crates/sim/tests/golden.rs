//! Golden traces: every library scenario (and its fix) rendered as text and compared with the
//! reviewed file in `tests/golden/`. After an intended change, regenerate with
//! `UPDATE_GOLDEN=1 cargo test -p leaselab-sim --test golden` and review the diff.

use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn library_traces_match_the_reviewed_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for s in sim::library::all() {
        let mut variants = vec![(format!("{}.txt", s.id), s.clone())];
        if let Some(Ok(f)) = s.fixed() {
            variants.push((format!("{}.fix.txt", s.id), f));
        }
        for (file, sc) in variants {
            let run = sim::run(&sc).unwrap_or_else(|e| panic!("{file} (seed {}): {e}", sc.seed));
            let text = sim::render::trace_text(&run, &sc);
            let path = golden_dir().join(&file);
            if update {
                std::fs::write(&path, &text).expect("write golden file");
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == text => {}
                Ok(want) => {
                    let line = want.lines().zip(text.lines()).position(|(a, b)| a != b).map(|i| i + 1).unwrap_or(0);
                    failures.push(format!("{file} (seed {}): differs from line {line}", sc.seed));
                }
                Err(_) => failures.push(format!("{file}: missing")),
            }
        }
    }
    assert!(failures.is_empty(), "golden traces differ (rerun with UPDATE_GOLDEN=1 and review the diff):\n{}", failures.join("\n"));
}
