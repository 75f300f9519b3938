//! Every setting a reader can change, declared once: where it is in the scenario (its path, as
//! a fix's `set` and a link's `set=` name it), what it is called, what kind of value it takes,
//! (each lock service lists its own in its declaration, `scenario/lock/<module>.rs`; every
//! scenario's are [`COMMON`]; every kind of fault, with its fields, is declared beside it
//! in `fault_kinds.rs`). The lab's editor is made from these lists, so that a setting the
//! engine has is one the lab can change.
//!
//! Reading, writing and validating a scenario stay with its types (`read.rs`, `write.rs`,
//! `validate.rs`): a value set through a path is checked by validation like any other.

use super::{LockKind, Scenario};

/// What kind of value a setting takes, and how it is typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number of milliseconds, at least `min`.
    Ms { min: crate::time::Millis },
    /// A whole number of milliseconds that may be negative (a clock stepped back).
    SignedMs,
    /// Parts per million of a clock's rate, either way.
    Ppm,
    /// A whole number from `min` to `max`.
    Count { min: u64, max: u64 },
    /// A decimal number (Redlock's drift factor).
    Decimal,
    /// One of these values: (as the scenario writes it, as the lab says it).
    Choice(&'static [(&'static str, &'static str)]),
    /// On or off, with what each side is called: (off, on).
    Switch(&'static str, &'static str),
}

/// Which part of the editor a setting is shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The lock service's own settings (a fieldset titled by the service).
    Lock,
    /// Fencing tokens and the resource.
    Resource,
    /// The network and the run.
    Run,
}

/// One setting.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// Its place in the scenario: `lock.ttl_ms`.
    pub path: &'static str,
    /// The stable part of its field's id in the page (`f-ttl`), which links and tests name.
    pub id: &'static str,
    /// What the editor calls it: "Lease TTL".
    pub label: &'static str,
    /// What a notice of its change calls it: "the lock's TTL".
    pub said: &'static str,
    pub kind: Kind,
    pub section: Section,
    /// Its value in `sc`, as the editor shows it (a choice as the scenario writes it).
    pub get: fn(&Scenario) -> String,
    /// Whether `sc` has it beyond its lock service (a replica's lag: only with a replica).
    pub present: fn(&Scenario) -> bool,
}

pub(crate) mod list;
pub use list::COMMON;

/// The settings scenario `sc` has, in the editor's order: its lock service's own (its
/// declaration's), then every scenario's ([`COMMON`]).
pub fn settings_of(sc: &Scenario) -> impl Iterator<Item = &'static Setting> + '_ {
    sc.lock.kind.declaration().settings.iter().copied().chain(COMMON).filter(|s| (s.present)(sc))
}

/// Every setting declared, each service's in the order of the list and then [`COMMON`]: a path
/// several services have is here once for each (the first says what a link's `set=` calls it).
pub fn all() -> impl Iterator<Item = &'static Setting> {
    LockKind::ALL.iter().flat_map(|k| k.declaration().settings.iter().copied()).chain(COMMON)
}

/// The setting at `path` that `sc` has.
pub fn setting(sc: &Scenario, path: &str) -> Option<&'static Setting> {
    settings_of(sc).find(|s| s.path == path)
}
