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
