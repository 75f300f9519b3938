//! The built-in scenarios, grouped as a course: [`CHAPTERS`], [`INDEX`], [`all`], [`get`].
//!
//! Each scenario is a JSON file in `crates/sim/scenarios/`. With the `embedded-library` feature
//! (the default: the CLI, the tests) the files are compiled in without their indentation
//! (`build.rs`). The browser app leaves them out of its download: it fetches a scenario's file
//! when it first needs it and hands it to [`install`]; until then [`get`] knows only
//! [`INDEX`] (each scenario's id, chapter and title, always compiled in), and [`catalog`] is
//! empty until every file is installed. Their verdicts are asserted by `tests/library.rs`, and
//! their traces are kept as golden files.

use std::sync::{Mutex, OnceLock};

use crate::scenario::Scenario;

/// The course's chapters, in order: (id, title).
pub const CHAPTERS: [(&str, &str); 8] = [
    ("leases", "Leases: acquire, renew, release"),
    ("gc-pause", "The GC-pause story"),
    ("fencing", "Fencing done right and wrong"),
    ("replication", "Replication and failover"),
    ("redlock", "Redlock and the debate"),
    ("consensus", "Consensus"),
    ("alternatives", "Alternatives to a lock"),
    ("incidents", "It happened"),
];

/// A scenario's place in the course, known without its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: &'static str,
    pub chapter: &'static str,
    pub title: &'static str,
}

macro_rules! scenarios {
    ($($id:literal),* $(,)?) => {
        /// The scenario files, in course order: (id, JSON text without its indentation).
        #[cfg(feature = "embedded-library")]
        pub const FILES: &[(&str, &str)] = &[$(($id, include_str!(concat!(env!("OUT_DIR"), "/scenarios/", $id, ".json")))),*];
        /// Every scenario's place in the course, in course order.
        pub const INDEX: &[Entry] = &[$(include!(concat!(env!("OUT_DIR"), "/scenarios/", $id, ".entry.rs"))),*];
    };
}

scenarios!(
    "lease-basics",
    "holder-crash",
    "unsafe-release",
    "unchecked-renew",
    "efficiency-lock",
    "gc-pause-unfenced",
    "gc-pause-fenced",
    "longer-ttl",
    "client-deadline",
    "delayed-write",
    "lost-contact",
    "random-owner-not-token",
    "check-then-write",
    "fresh-owner-not-yet-seen",
    "token-reset",
    "non-fencing-downstream",
    "same-owner-retry",
    "idempotent-not-fenced",
    "failover-lost-lock",
    "redlock-happy",
    "redlock-clock-jump",
    "redlock-drift",
    "redlock-restart",
    "redlock-pause-after-acquire",
    "redlock-delayed-write",
    "redlock-slow-acquire",
    "redlock-split-vote",
    "consensus-fenced",
    "consensus-quorum-loss",
    "consensus-disk-stall",
    "zookeeper-unfenced",
    "zookeeper-fenced",
    "k8s-lease-paused-leader",
    "k8s-lease-clock-rate",
    "k8s-lease-fenced",
    "db-transaction",
    "transaction-external-effect",
    "work-claim-queue",
    "chubby-lock-delay",
    "etcd-10811",
    "consensus-wait-expired",
    "hbase-gc-pause",
    "redisson-watchdog",
    "redis-sentinel-split",
    "github-fileserver-pair",
);

/// Every library scenario, in course order, parsed once and kept.
#[cfg(feature = "embedded-library")]
pub fn catalog() -> &'static [Scenario] {
    CATALOG.get_or_init(all)
}

/// Every library scenario, in course order, once every file is installed; empty until then
/// (a caller that needs the whole course waits for it).
#[cfg(not(feature = "embedded-library"))]
pub fn catalog() -> &'static [Scenario] {
    CATALOG.get().map_or(&[], Vec::as_slice)
}

static CATALOG: OnceLock<Vec<Scenario>> = OnceLock::new();
/// The files installed so far (when the library is not compiled in), each parsed once and kept
/// for the rest of the program, as the compiled-in catalog is. Only what the app has fetched:
/// a run depends on its scenario alone, never on what is installed.
static INSTALLED: Mutex<Vec<&'static Scenario>> = Mutex::new(Vec::new());

/// Every library scenario, in course order: freshly parsed when compiled in, else copies of
/// [`catalog`]'s.
pub fn all() -> Vec<Scenario> {
    #[cfg(feature = "embedded-library")]
    return FILES
        .iter()
        .map(|(id, text)| match Scenario::parse(text) {
            Ok(s) => s,
            // The library is tested; a broken file is a build error, not a user error.
            Err(e) => panic!("library scenario {id} is invalid: {e}"),
        })
        .collect();
    #[cfg(not(feature = "embedded-library"))]
    catalog().to_vec()
}

/// The library scenario with this id (when the library is not compiled in, once its file is
/// installed).
pub fn find(id: &str) -> Option<&'static Scenario> {
    if cfg!(feature = "embedded-library") {
        catalog().iter().find(|s| s.id == id)
    } else {
        installed(|all| all.iter().find(|s| s.id == id).copied())
    }
}

/// A copy of [`find`]'s scenario.
pub fn get(id: &str) -> Option<Scenario> {
    find(id).cloned()
}

/// The entry of the scenario with this id, if the library has one.
pub fn entry(id: &str) -> Option<&'static Entry> {
    INDEX.iter().find(|e| e.id == id)
}

/// Whether [`get`] has the scenario with this id now (a library id not yet installed, or not a
/// library id at all, is not).
pub fn has(id: &str) -> bool {
    find(id).is_some()
}

/// The library's ids whose files [`get`] does not have yet, in course order.
pub fn missing() -> Vec<&'static str> {
    INDEX.iter().map(|e| e.id).filter(|id| !has(id)).collect()
}

/// Adds library scenario `id`'s file (its JSON text) to what [`get`] has; once every file is
/// in, [`catalog`] has them all. Says what is wrong with a file that is not that scenario.
/// (With the library compiled in there is nothing to add: the file is only checked.)
pub fn install(id: &str, text: &str) -> Result<(), String> {
    let s = Scenario::parse(text).map_err(|e| format!("it is not a valid scenario: {e}"))?;
    if s.id != id || entry(id).is_none() {
        return Err(format!("it holds “{}”, not the library's “{id}”", s.id));
    }
    if cfg!(feature = "embedded-library") || has(&s.id) {
        return Ok(());
    }
    let all = installed(|all| {
        all.push(Box::leak(Box::new(s)));
        all.clone()
    });
    if all.len() == INDEX.len() {
        let _ = CATALOG.set(INDEX.iter().filter_map(|e| all.iter().find(|s| s.id == e.id).map(|s| (*s).clone())).collect());
    }
    Ok(())
}

fn installed<T>(f: impl FnOnce(&mut Vec<&'static Scenario>) -> T) -> T {
    f(&mut INSTALLED.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// The title of a chapter.
pub fn chapter_title(id: &str) -> &'static str {
    CHAPTERS.iter().find(|(c, _)| *c == id).map(|(_, t)| *t).unwrap_or("Other")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_that_is_not_a_library_scenario_is_refused_by_name() {
        assert!(super::install("lease-basics", "{").unwrap_err().starts_with("it is not a valid scenario"));
        let mut other = super::get("lease-basics").expect("a library scenario").to_value();
        *other.pointer_mut("/id").expect("an id") = "my-own".into();
        assert_eq!(super::install("lease-basics", &other.to_string()).unwrap_err(), "it holds “my-own”, not the library's “lease-basics”");
        assert_eq!(super::install("my-own", &other.to_string()).unwrap_err(), "it holds “my-own”, not the library's “my-own”");
    }

    #[test]
    fn the_index_lists_every_file_in_course_order_with_its_title() {
        let all = super::all();
        assert_eq!(super::INDEX.len(), all.len());
        for (e, s) in super::INDEX.iter().zip(&all) {
            assert_eq!((e.id, e.chapter, e.title), (s.id.as_str(), s.chapter.as_str(), s.title.as_str()));
        }
    }
}
