//! The library as the browser app has it: not compiled in, each file installed as it is fetched.
//! Run with `cargo test -p leaselab-sim --no-default-features --test library_files` (scripts/test
//! does); with the default features the library is compiled in and this file is empty.
#![cfg(not(feature = "embedded-library"))]

use sim::library;

#[test]
fn installed_files_are_found_and_the_catalog_is_whole_once_all_are() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let text = |id: &str| std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap();
    let first = library::INDEX[0].id;
    assert!(library::get(first).is_none() && library::catalog().is_empty(), "nothing is there before it is installed");
    library::install(first, &text(first)).unwrap();
    assert_eq!(library::get(first).unwrap().id, first);
    assert!(library::catalog().is_empty(), "the catalog waits for every file");
    assert!(library::install("holder-crash", &text(first)).unwrap_err().contains("not the library's “holder-crash”"));
    for id in library::missing() {
        library::install(id, &text(id)).unwrap();
    }
    let ids: Vec<&str> = library::catalog().iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, library::INDEX.iter().map(|e| e.id).collect::<Vec<_>>(), "in course order");
    assert!(library::missing().is_empty());
}
