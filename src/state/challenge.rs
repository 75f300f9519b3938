//! The lesson's challenge ("your turn: fix it", "break it") and its one-click fix: whether the
//! reader met the goal by their own change, or it was reached for them.

use super::{ByPtr, FieldError, Screen};
use crate::edit;
use sim::Scenario;

/// What reached a challenge's goal when the reader did not ([`Screen::goal_given`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    Fix,
    Search,
}

impl Screen {
    /// The challenge's goal reached for the reader rather than by their own change: the
    /// one-click fix is on, or a schedule the search found is on screen.
    pub fn goal_given(&self) -> Option<Given> {
        let c = self.original.challenge.as_ref()?;
        if self.as_written || self.run.verdict.verdict != c.goal {
            return None;
        }
        if self.fixed() {
            Some(Given::Fix)
        } else if self.searched.as_ref() == Some(&self.scenario) {
            Some(Given::Search)
        } else {
            None
        }
    }

    /// The challenge's goal is reached by the reader's own change (not the one-click fix).
    pub fn challenge_met(&self) -> bool {
        let by_search = self.searched.as_ref() == Some(&self.scenario);
        self.original
            .challenge
            .as_ref()
            .is_some_and(|c| !self.as_written && !self.fixed() && !by_search && self.run.verdict.verdict == c.goal)
    }

    /// Whether the run is the lesson's own with its fix and nothing else, the run the fix's
    /// explanation was written for (issue 49): on any other, the explanation is said to be the
    /// lesson's.
    pub fn fixed_as_written(&self) -> bool {
        // `Scenario::fixed` drops the fix itself; the lab keeps it, for its card.
        self.fixed()
            && self
                .original
                .fixed()
                .and_then(Result::ok)
                .is_some_and(|f| Scenario { fix: self.scenario.fix.clone(), ..f } == *self.scenario)
    }

    pub(crate) fn toggle_fix(&self) -> Screen {
        let Some(fix) = &self.original.fix else { return self.clone() };
        let next = match &self.fix_undo {
            None => {
                let saved = edit::current_settings(&self.scenario, &fix.set);
                self.scenario.with_settings(&fix.set).map(|s| (s, Some(saved))).map_err(|e| e.to_string())
            }
            Some(saved) => edit::restore(&self.scenario, saved).map(|s| (s, None)),
        };
        match next {
            Ok((sc, undo)) => {
                let mut s = self.rerun(sc, None);
                if s.error.is_none() {
                    s.fix_undo = undo.map(ByPtr::new);
                }
                s
            }
            Err(message) => Screen {
                error: Some(FieldError { field: "fix".into(), message: format!("The fix does not apply: {message}"), raw: None }),
                ..self.clone()
            },
        }
    }
}
