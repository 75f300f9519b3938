//! A crash: the actor stops; its timers and in-flight work are gone.

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Restart, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, FaultKind, Target};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The actor crashes at `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crash {
    pub actor: String,
    pub at_ms: Millis,
}

fields_io!(Crash, "struct variant Fault::Crash", { actor, at_ms });

impl Kind for Crash {
    const KIND: FaultKind = FaultKind {
        tag: "crash",
        label: "a crash",
        target: Target::Actor,
        fields: &[],
        fits: always,
        menu: |l, out| out.push((format!("Crash {} here", l.name), Fault::Crash(Crash { actor: l.name.to_string(), at_ms: l.at_ms }))),
    };

    fn describe(&self) -> String {
        format!("Crash {} at {}", self.actor, t(self.at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        c.actor("actor", &self.actor)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Crash { actor: &self.actor }
    }

    fn name(&self) -> String {
        format!("{}'s crash", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn family(&self) -> Family {
        Family::Crash
    }

    /// A lock server crashed, for good or restarted a fifth of the TTL later.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Server { name, at_ms } = *slot {
            let actor = name.to_string();
            out.push(vec![Fault::Crash(Crash { actor: actor.clone(), at_ms })]);
            let (at, ttl, end) = (at_ms.get(), tries.ttl_ms.get(), tries.end_ms.get());
            let back = Millis::new((at + (ttl / 5).max(1)).min(end.saturating_sub(1)).max(at + 1));
            out.push(vec![Fault::Crash(Crash { actor: actor.clone(), at_ms }), Fault::Restart(Restart { actor, at_ms: back })]);
        }
    }
}
