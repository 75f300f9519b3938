//! A partition: the actors named are cut off from all others for a while, then the network
//! heals.

use serde::{Deserialize, Serialize};

use super::{t, us, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, FaultKind, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{Scenario, ScenarioError};

/// The actors in `isolate` are cut off from all others at `at_ms` for `duration_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    pub isolate: Vec<String>,
    pub at_ms: u64,
    pub duration_ms: u64,
}

fields_io!(Partition, "struct variant Fault::Partition", { isolate, at_ms, duration_ms });

impl Kind for Partition {
    const KIND: FaultKind = FaultKind {
        tag: "partition",
        label: "a partition",
        target: Target::Isolate,
        fields: &[field("duration_ms", "duration", "For", Value::Ms { min: 0 }, 5_000)],
        fits: always,
    };

    fn describe(&self) -> String {
        format!("Cut off {} at {} for {}", self.isolate.join(", "), t(self.at_ms), t(self.duration_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        if self.isolate.is_empty() {
            return c.err("isolate", "name at least one actor".into());
        }
        for (k, a) in self.isolate.iter().enumerate() {
            c.actor_at(format!("{}[{k}]", c.path("isolate")), a)?;
        }
        c.length("duration_ms", self.duration_ms)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Isolate { actors: &self.isolate, for_us: us(self.duration_ms) }
    }

    fn name(&self) -> String {
        format!("the partition cutting off {}", self.isolate.join(" and "))
    }

    fn struck(&self) -> Option<&str> {
        self.isolate.first().map(String::as_str)
    }

    fn who(&self) -> String {
        self.isolate.join(",")
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "duration_ms").then_some(self.duration_ms as i64)
    }

    fn family(&self) -> Family {
        Family::Partition
    }

    /// A client cut off for a tenth more than the TTL and for twice the TTL.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Client { name, at_ms } = *slot {
            for duration_ms in [tries.lengths[1], tries.lengths[2]] {
                out.push(vec![Fault::Partition(Partition { isolate: vec![name.to_string()], at_ms, duration_ms })]);
            }
        }
    }

    fn size(&self) -> Option<u64> {
        Some(self.duration_ms)
    }

    fn resize(&mut self, n: u64) {
        self.duration_ms = n;
    }

    fn shrink_size(&self) -> Option<i64> {
        Some(self.duration_ms as i64)
    }

    fn shrink_to(&mut self, v: i64) {
        self.duration_ms = v as u64;
    }
}
