//! A clock jump: the actor's wall clock is stepped (an NTP correction, an operator), forward or
//! back. Its monotonic clock does not move.

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, FaultKind, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{limits, Scenario, ScenarioError};
use crate::time::Millis;

/// The actor's clock is stepped by `by_ms` at `at_ms` (negative steps back).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockJump {
    pub actor: String,
    pub at_ms: Millis,
    pub by_ms: i64,
}

fields_io!(ClockJump, "struct variant Fault::ClockJump", { actor, at_ms, by_ms });

impl Kind for ClockJump {
    const KIND: FaultKind = FaultKind {
        tag: "clock_jump",
        label: "a clock jump",
        target: Target::Actor,
        fields: &[field("by_ms", "by", "By", Value::SignedMs, 10_000)],
        fits: always,
        menu: |l, out| {
            let fault = ClockJump { actor: l.name.to_string(), at_ms: l.at_ms, by_ms: 10_000 };
            out.push((format!("Jump {}'s clock forward 10 s here", l.name), Fault::ClockJump(fault)));
        },
    };

    fn describe(&self) -> String {
        format!("Jump {}'s clock by {} at {}", self.actor, crate::time::fmt(crate::time::from_ms(self.by_ms)), t(self.at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        use limits::CLOCK_MS;
        c.actor("actor", &self.actor)?;
        if self.by_ms.unsigned_abs() > CLOCK_MS as u64 {
            return c.err("by_ms", format!("must be within ±{CLOCK_MS}"));
        }
        Ok(())
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::JumpClock { actor: &self.actor, by_us: crate::time::from_ms(self.by_ms) }
    }

    fn name(&self) -> String {
        format!("the jump of {}'s clock", self.actor)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.actor)
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "by_ms").then_some(self.by_ms)
    }

    fn family(&self) -> Family {
        Family::Clock
    }

    /// A lock server's clock stepped forward by half the TTL and by the TTL.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Server { name, at_ms } = *slot {
            for by_ms in [(tries.ttl_ms.get() / 2) as i64, tries.ttl_ms.get() as i64] {
                out.push(vec![Fault::ClockJump(ClockJump { actor: name.to_string(), at_ms, by_ms })]);
            }
        }
    }

    fn size(&self) -> Option<Millis> {
        Some(Millis::new(self.by_ms.unsigned_abs()))
    }

    fn resize(&mut self, n: Millis) {
        self.by_ms = n.get().min(i64::MAX as u64) as i64 * self.by_ms.signum();
    }

    fn shrink_size(&self) -> Option<i64> {
        Some(self.by_ms.abs())
    }

    fn shrink_to(&mut self, v: i64) {
        self.by_ms = v * self.by_ms.signum();
    }
}
