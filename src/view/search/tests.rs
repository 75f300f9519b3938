//! What the panel shows of a search where it is, natively (the engine's search, no browser).

use super::{shown, Status};
use sim::search::{Options, Search};

fn fenced() -> Search {
    Search::new(&sim::library::get("gc-pause-fenced").unwrap(), Options::default()).unwrap()
}

/// Regression (../shared/repro/edges-2/search-cancel-mid-shrink.mjs): cancelled while it was
/// making a schedule it found smaller, the search said "nothing unsafe among them".
#[test]
fn a_search_cancelled_while_it_shrinks_shows_the_smallest_schedule_so_far() {
    let mut search = fenced();
    assert!(matches!(shown(&search, 0.0), Status::Cancelled { ref coverage, .. } if coverage.schedules == 0), "nothing run yet");
    while search.progress().shrinking.is_none() {
        assert!(!search.step(1), "the search ended before it shrank what it found");
    }
    search.step(1);
    assert!(search.progress().shrinking.is_some() && search.outcome().is_none(), "still shrinking");
    let Status::Found { found, cut: true, .. } = shown(&search, 5.0) else { panic!("cancelled while shrinking: not shown as found") };
    assert!(found.after > 0 && found.shrink_runs >= 1, "schedule {}, {} runs shrinking", found.after, found.shrink_runs);
    assert!(!sim::run(&found.scenario).unwrap().verdict.is_safe(), "the schedule shown is unsafe");
    // Run to its end: found, and not cut short.
    while !search.step(16) {}
    let Status::Found { found: end, cut: false, .. } = shown(&search, 9.0) else { panic!("not found at its end") };
    assert_eq!(end.after, found.after, "the same find, made smaller");
    assert!(end.faults.len() <= found.faults.len());
}

#[test]
fn a_search_that_ends_with_nothing_found_says_what_it_covered() {
    let sc = sim::library::get("db-transaction").unwrap();
    let mut search = Search::new(&sc, Options { budget: 50, ..Options::default() }).unwrap();
    search.step(3);
    assert!(matches!(shown(&search, 1.0), Status::Cancelled { ref coverage, .. } if coverage.schedules == 3));
    while !search.step(16) {}
    assert!(matches!(shown(&search, 1.0), Status::NotFound { ref coverage, .. } if coverage.schedules == 50));
}

#[test]
fn a_search_that_runs_every_class_of_two_faults_says_so_and_lists_the_situations() {
    let sc = sim::library::get("db-transaction").unwrap();
    let mut search = Search::new(&sc, Options { budget: usize::MAX, ..Options::default() }).unwrap();
    while !search.step(256) {}
    let Status::NotFound { coverage: c, .. } = shown(&search, 1.0) else { panic!("found on db-transaction") };
    assert_eq!((c.complete, c.asked), (2, 2));
    let words = c.bounds(false);
    assert!(words.starts_with("No schedule of up to two added faults breaks it within these bounds"), "{words}");
    assert!(!words.contains("Not reached"), "the page lists the situations itself: {words}");
    assert_eq!(c.reached.len(), 1, "{:?}", c.reached);
}
