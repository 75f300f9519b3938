//! A restart: a crashed actor starts again. A Redis node keeps its keys only with
//! `lock.persistence: always`; a client runs its program from the start.

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Verb};
use crate::scenario::fault_kinds::{always, FaultKind, LaneRole, Target};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The actor, if crashed, restarts at `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restart {
    pub actor: String,
    pub at_ms: Millis,
}

fields_io!(Restart, "struct variant Fault::Restart", { actor, at_ms });

impl Kind for Restart {
    const KIND: FaultKind = FaultKind {
        tag: "restart",
        label: "a restart",
        target: Target::Actor,
        fields: &[],
        fits: always,
        // A server or the resource (a client starts its steps again: add it from the editor).
        menu: |l, out| {
            if l.role != LaneRole::Client {
                out.push((format!("Restart {} here", l.name), Fault::Restart(Restart { actor: l.name.to_string(), at_ms: l.at_ms })));
            }
        },
    };

    fn describe(&self) -> String {
        format!("Restart {} at {}", self.actor, t(self.at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        c.actor("actor", &self.actor)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Restart { actor: &self.actor }
    }

    fn name(&self) -> String {
        format!("{}'s restart", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn family(&self) -> Family {
        Family::Crash
    }

    /// A restart follows its crash (a search adds the two together).
    fn moves_later(&self) -> bool {
        false
    }
}
