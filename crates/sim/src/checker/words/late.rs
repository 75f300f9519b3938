//! Why a write came late, in words: the reasons the checker found (`verdict::Reason`), as the
//! sentences after a finding's first.

use super::{capitalize, Words};
use crate::time::fmt;
use crate::verdict::Reason;

impl Words<'_> {
    /// Why a write came late, as sentences after a finding's first: " A was paused from 1 s
    /// to 2 s; its lease had run out at 1.5 s by its own clock.", or nothing.
    pub(super) fn late(&self, why: &[Reason]) -> String {
        if why.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = why.iter().enumerate().map(|(i, r)| self.reason(i == 0, r)).collect();
        format!(" {}.", capitalize(&parts.join("; ")))
    }

    /// One reason; the `first` names the writer, the ones after it say "its".
    fn reason(&self, first: bool, r: &Reason) -> String {
        match r {
            Reason::Paused { client, from_us, to_us } => {
                format!("{} was paused from {} to {}", self.name(*client), fmt(*from_us), fmt(*to_us))
            }
            Reason::CutOff { client, from_us, to_us, apart } => {
                let names: Vec<&str> = apart.iter().map(|&a| self.name(a)).collect();
                let whom = if names.is_empty() { String::new() } else { format!(" from {}", names.join(" and ")) };
                format!("{} was cut off{whom} by a partition from {} to {}", self.name(*client), fmt(*from_us), fmt(*to_us))
            }
            // The first reason names the writer (issue 49: "Its write was held" after a sentence
            // that named the other client read as that client's).
            Reason::Held { client, from_us, to_us } => {
                let whose = if first { format!("{}'s", self.name(*client)) } else { "its".into() };
                format!("{whose} write was held in the network from {} to {}", fmt(*from_us), fmt(*to_us))
            }
            Reason::CheckedBefore { checked_us, applied_us } => format!(
                "the resource had checked its token at {}, before then, and applied the write at {} without checking again",
                fmt(*checked_us),
                fmt(*applied_us)
            ),
            Reason::LeaseRanOut { client, at_us } => {
                let whose = if first { format!("{}'s", self.name(*client)) } else { "its".into() };
                format!("{whose} lease had run out {}", self.by_own_clock(*client, *at_us))
            }
            Reason::GrantedAgain { client, next, at_us, conflict } => format!(
                "{}'s lease was still valid by its own clock when {} was granted the lock at {}: {}",
                self.name(*client),
                self.name(*next),
                fmt(*at_us),
                self.conflict(conflict)
            ),
        }
    }
}
