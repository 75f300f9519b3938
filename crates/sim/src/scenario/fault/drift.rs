//! Clock drift: from its time the actor's clock runs fast or slow at a rate in parts per
//! million (its monotonic clock too).

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, nowhere, FaultKind, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{limits, Scenario, ScenarioError};
use crate::time::Millis;

/// From `at_ms` the actor's clock drifts at `ppm`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drift {
    pub actor: String,
    pub at_ms: Millis,
    pub ppm: i64,
}

fields_io!(Drift, "struct variant Fault::Drift", { actor, at_ms, ppm });

impl Kind for Drift {
    const KIND: FaultKind = FaultKind {
        tag: "drift",
        label: "clock drift",
        target: Target::Actor,
        fields: &[field("ppm", "ppm", "Rate", Value::Ppm, 100_000)],
        fits: always,
        menu: nowhere,
    };

    fn describe(&self) -> String {
        format!("{}'s clock drifts {} ppm from {}", self.actor, self.ppm, t(self.at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        use limits::DRIFT_PPM;
        c.actor("actor", &self.actor)?;
        if self.ppm.unsigned_abs() > DRIFT_PPM as u64 {
            return c.err("ppm", format!("must be within ±{DRIFT_PPM}"));
        }
        Ok(())
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Drift { actor: &self.actor, ppm: self.ppm }
    }

    fn name(&self) -> String {
        format!("the drift of {}'s clock", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "ppm").then_some(self.ppm)
    }

    fn family(&self) -> Family {
        Family::Clock
    }

    /// A lock server's clock running 10 % and 50 % fast.
    fn offer(slot: &Slot, _: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Server { name, at_ms } = *slot {
            for ppm in [100_000, 500_000] {
                out.push(vec![Fault::Drift(Drift { actor: name.to_string(), at_ms, ppm })]);
            }
        }
    }

    fn shrink_size(&self) -> Option<i64> {
        Some(self.ppm.abs())
    }

    fn shrink_to(&mut self, v: i64) {
        self.ppm = v * self.ppm.signum();
    }
}
