//! A stop-the-world pause (a GC pause, a VM migration): the actor keeps its state, receives
//! nothing, and resumes believing what it believed.

use serde::{Deserialize, Serialize};

use super::{t, Block, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, FaultKind, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The actor pauses at `at_ms` for `duration_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pause {
    pub actor: String,
    pub at_ms: Millis,
    pub duration_ms: Millis,
}

fields_io!(Pause, "struct variant Fault::Pause", { actor, at_ms, duration_ms });

impl Kind for Pause {
    const KIND: FaultKind = FaultKind {
        tag: "pause",
        label: "a pause",
        target: Target::Actor,
        fields: &[field("duration_ms", "duration", "For", Value::Ms { min: Millis::ZERO }, 5_000)],
        fits: always,
        menu: |l, out| {
            let fault = Pause { actor: l.name.to_string(), at_ms: l.at_ms, duration_ms: Millis::new(5_000) };
            out.push((format!("Pause {} here for 5 s", l.name), Fault::Pause(fault)));
        },
    };

    fn describe(&self) -> String {
        format!("Pause {} at {} for {}", self.actor, t(self.at_ms), t(self.duration_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        c.actor("actor", &self.actor)?;
        c.length("duration_ms", self.duration_ms)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Pause { actor: &self.actor, for_us: self.duration_ms.to_micros() }
    }

    fn name(&self) -> String {
        format!("{}'s pause", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "duration_ms").then_some(self.duration_ms.get() as i64)
    }

    fn family(&self) -> Family {
        Family::Pause
    }

    /// A client paused for each of the lengths tried.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Client { name, at_ms } = *slot {
            for duration_ms in tries.lengths {
                out.push(vec![Fault::Pause(Pause { actor: name.to_string(), at_ms, duration_ms })]);
            }
        }
    }

    fn size(&self) -> Option<Millis> {
        Some(self.duration_ms)
    }

    fn resize(&mut self, n: Millis) {
        self.duration_ms = n;
    }

    fn shrink_size(&self) -> Option<i64> {
        Some(self.duration_ms.get() as i64)
    }

    fn shrink_to(&mut self, v: i64) {
        self.duration_ms = Millis::new(v as u64);
    }

    fn block(&self) -> Option<Block<'_>> {
        Some(Block { actor: &self.actor, at_ms: self.at_ms, duration_ms: self.duration_ms, label: "paused", what: " paused" })
    }

    fn block_mut(&mut self) -> Option<(&mut Millis, &mut Millis)> {
        Some((&mut self.at_ms, &mut self.duration_ms))
    }
}
