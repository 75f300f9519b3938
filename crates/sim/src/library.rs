//! The built-in scenarios, grouped as a course: [`CHAPTERS`], [`all`], [`get`].
//!
//! Each scenario is a JSON file in `crates/sim/scenarios/`, compiled in without its indentation
//! (`build.rs`). Their verdicts are asserted by `tests/library.rs`, and their traces are kept as
//! golden files.

use crate::scenario::Scenario;

/// The course's chapters, in order: (id, title).
pub const CHAPTERS: [(&str, &str); 7] = [
    ("leases", "Leases: acquire, renew, release"),
    ("gc-pause", "The GC-pause story"),
    ("fencing", "Fencing done right and wrong"),
    ("replication", "Replication and failover"),
    ("redlock", "Redlock and the debate"),
    ("consensus", "Consensus"),
    ("alternatives", "Alternatives to a lock"),
];

macro_rules! scenarios {
    ($($id:literal),* $(,)?) => {
        /// The scenario files, in course order: (id, JSON text without its indentation).
        pub const FILES: &[(&str, &str)] = &[$(($id, include_str!(concat!(env!("OUT_DIR"), "/scenarios/", $id, ".json")))),*];
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
    "consensus-wait-expired",
    "zookeeper-unfenced",
    "zookeeper-fenced",
    "db-transaction",
    "transaction-external-effect",
    "work-claim-queue",
);

/// Every library scenario, in course order, parsed once and kept.
pub fn catalog() -> &'static [Scenario] {
    static CATALOG: std::sync::OnceLock<Vec<Scenario>> = std::sync::OnceLock::new();
    CATALOG.get_or_init(all)
}

/// Every library scenario, in course order (freshly parsed).
pub fn all() -> Vec<Scenario> {
    FILES
        .iter()
        .map(|(id, text)| match Scenario::parse(text) {
            Ok(s) => s,
            // The library is tested; a broken file is a build error, not a user error.
            Err(e) => panic!("library scenario {id} is invalid: {e}"),
        })
        .collect()
}

/// The library scenario with this id.
pub fn get(id: &str) -> Option<Scenario> {
    let (_, text) = FILES.iter().find(|(i, _)| *i == id)?;
    Scenario::parse(text).ok()
}

/// The title of a chapter.
pub fn chapter_title(id: &str) -> &'static str {
    CHAPTERS.iter().find(|(c, _)| *c == id).map(|(_, t)| *t).unwrap_or("Other")
}
