//! The checker's result: [`Verdict`], its [`Finding`]s, their [`Kind`]s and [`Cause`]s.
//!
//! These are output types, beside the trace ([`crate::trace::Run::verdict`]); the checker
//! ([`crate::checker`]) produces them and the renderings, the app and the course read them. A
//! finding is data: its sentence is made when it is shown (`checker::words::explanation`).

use std::fmt;

use serde::Serialize;

use crate::time::Micros;

mod cause;
pub use cause::{Cause, Conflict, Forgot, KeyGone, Reason, Stale, Twice, Unfenced};

/// Safe or unsafe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Safety {
    #[default]
    Safe,
    Unsafe,
}

/// What a finding is about: a violated property, a hazard, or a note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    // Violations: they decide the verdict.
    LostUpdate,
    OutOfOrderWrite,
    DuplicateEffect,
    // Hazards: they explain it.
    DoubleGrant,
    ForeignRelease,
    ForeignRenew,
    BeliefOverlap,
    TokenRegression,
    // Notes.
    Liveness,
    /// The same derived entry was built more than once: harmless, only wasted work.
    WastedWork,
    Incomplete,
    InFlight,
    /// The run went on past its duration while a client's update was under way.
    Overrun,
    /// The run ended (it could go on no longer) with a client's update still under way.
    CutShort,
    /// More findings of one kind than a verdict lists.
    Omitted,
}

impl Kind {
    /// The name people read and tests match: `lost-update`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::LostUpdate => "lost-update",
            Kind::OutOfOrderWrite => "out-of-order-write",
            Kind::DuplicateEffect => "duplicate-effect",
            Kind::DoubleGrant => "double-grant",
            Kind::ForeignRelease => "foreign-release",
            Kind::ForeignRenew => "foreign-renew",
            Kind::BeliefOverlap => "belief-overlap",
            Kind::TokenRegression => "token-regression",
            Kind::Liveness => "liveness",
            Kind::WastedWork => "wasted-work",
            Kind::Incomplete => "incomplete",
            Kind::InFlight => "in-flight",
            Kind::Overrun => "overrun",
            Kind::CutShort => "cut-short",
            Kind::Omitted => "omitted",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A named property and whether the run kept it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Property {
    pub name: &'static str,
    pub holds: bool,
    pub meaning: &'static str,
}

/// A violation, hazard or note, with where it happened and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The property violated, or the hazard's kind.
    pub property: Kind,
    pub at_us: Micros,
    /// The actors concerned, by id (`trace::ActorId`).
    pub actors: Vec<usize>,
    /// Why: the data its sentence (one or two) is made from.
    pub cause: Cause,
    /// The event where it shows.
    pub event: Option<usize>,
}

/// The checker's result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub verdict: Safety,
    pub properties: Vec<Property>,
    pub violations: Vec<Finding>,
    pub hazards: Vec<Finding>,
    pub notes: Vec<Finding>,
}

impl Verdict {
    pub fn is_safe(&self) -> bool {
        self.verdict == Safety::Safe
    }

    /// The verdict in one line that is true of this run: what was harmed, data or effects.
    pub fn headline(&self) -> &'static str {
        let has = |k: Kind| self.violations.iter().any(|v| v.property == k);
        let data = has(Kind::LostUpdate) || has(Kind::OutOfOrderWrite);
        let cut_short = self.notes.iter().any(|n| n.property == Kind::CutShort);
        match (self.is_safe(), data, has(Kind::DuplicateEffect)) {
            (true, ..) if cut_short => "Safe so far: the protected data is intact, but the run ended before an update under way did",
            (true, ..) => "Safe: the protected data is intact",
            (false, true, true) => "Unsafe: the protected data was corrupted, and an effect took place twice",
            (false, false, true) => "Unsafe: an effect took place twice",
            (false, ..) => "Unsafe: the protected data was corrupted",
        }
    }
}

/// The safety properties, with what each means.
pub const PROPERTIES: [(Kind, &str); 3] = [
    (Kind::LostUpdate, "no client's write overwrote an update it had not read"),
    (Kind::OutOfOrderWrite, "no write made under an older grant overwrote one made under a newer grant"),
    (Kind::DuplicateEffect, "no logical request took effect twice"),
];
