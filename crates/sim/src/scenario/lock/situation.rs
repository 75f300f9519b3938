//! The dangerous situations a search should reach (issue 51's coverage): the ways a lock's
//! promise breaks, whether or not the data comes to harm. Each service's declaration lists
//! those its runs can reach; `search::reach` finds them in a run.

use serde::Serialize;

/// A way a lock's promise breaks on a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Situation {
    /// A client's write reaches the resource after its lease ran out at the service.
    LateWrite,
    /// Two clients believe they hold the lock at once.
    TwoHolders,
    /// A write with an older token reaches the resource after one with a newer token.
    OlderToken,
    /// The service loses a lock while its holder's lease still runs (a crash without
    /// persistence, a failover to a replica that did not have it).
    KeyLost,
}

impl Situation {
    /// All of them, in the order a report lists them.
    pub const ALL: &'static [Situation] = &[Situation::LateWrite, Situation::TwoHolders, Situation::OlderToken, Situation::KeyLost];
    /// Those of a service that does not lose what it grants (its state is replicated by consensus,
    /// or there is no state to lose).
    pub const SERVICE: &'static [Situation] = &[Situation::LateWrite, Situation::TwoHolders, Situation::OlderToken];

    /// Its words in a report.
    pub fn words(self) -> &'static str {
        match self {
            Situation::LateWrite => "a client's write reaches the resource after its lease ran out at the service",
            Situation::TwoHolders => "two clients believe they hold the lock at once",
            Situation::OlderToken => "a write with an older token reaches the resource after a newer one",
            Situation::KeyLost => "the service loses a lock its holder's lease still covers",
        }
    }

    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Situation::LateWrite => "late-write",
            Situation::TwoHolders => "two-holders",
            Situation::OlderToken => "older-token",
            Situation::KeyLost => "key-lost",
        }
    }
}
