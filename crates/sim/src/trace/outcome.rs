//! What a write did at the resource, and what a stalled disk did to its server.

use serde::Serialize;

/// What a write did at the resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteOutcome {
    Accepted,
    Rejected,
    Duplicate,
    Conflict,
}

impl WriteOutcome {
    /// Its name, as serde writes it: `accepted`.
    pub fn as_str(self) -> &'static str {
        match self {
            WriteOutcome::Accepted => "accepted",
            WriteOutcome::Rejected => "rejected",
            WriteOutcome::Duplicate => "duplicate",
            WriteOutcome::Conflict => "conflict",
        }
    }
}

/// What a stalled disk does to its server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stall {
    /// Nothing: it never waits for its disk (Redis without persistence).
    None,
    /// It stops now: it persists every change, and its heartbeats with them, before it answers.
    Now,
    /// It answers what changes nothing; its next write (Redis with `appendfsync always`) is
    /// made in memory, then waits for its fsync, with its reply, and the node reads nothing
    /// more until the disk answers.
    NextWrite,
    /// That write has come: the node waits for its fsync.
    Blocked,
}
