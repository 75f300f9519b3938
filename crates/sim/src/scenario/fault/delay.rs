//! Held messages: the next messages from one actor to another are held in the network (a
//! congested or retransmitting link) and arrive late, out of order.

use serde::{Deserialize, Serialize};

use super::{next_messages, one, t, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, FaultKind, LaneRole, Target, COUNT};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The next `count` messages sent from `from` to `to` at or after `at_ms` are held `extra_ms`
/// longer in the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delay {
    pub from: String,
    pub to: String,
    pub at_ms: Millis,
    pub extra_ms: Millis,
    #[serde(default = "one")]
    pub count: u32,
}

fields_io!(Delay, "struct variant Fault::Delay", { from, to, at_ms, extra_ms, count = one() });

impl Kind for Delay {
    const KIND: FaultKind = FaultKind {
        tag: "delay",
        label: "held messages",
        target: Target::Link,
        fields: &[field("extra_ms", "extra", "Held for", Value::Ms { min: Millis::ZERO }, 30_000), COUNT],
        fits: always,
        // A client's next message to each lane it sends to in this run: a hold on another would
        // hold nothing.
        menu: |l, out| {
            if l.role != LaneRole::Client {
                return;
            }
            for to in l.sends_to {
                let fault = Delay { from: l.name.to_string(), to: to.clone(), at_ms: l.at_ms, extra_ms: Millis::new(30_000), count: 1 };
                out.push((format!("Hold {}'s next message to {to} for 30 s", l.name), Fault::Delay(fault)));
            }
        },
    };

    fn describe(&self) -> String {
        let Delay { from, to, at_ms, extra_ms, count } = self;
        format!("Hold {from}'s {} to {to} by {} (from {})", next_messages(*count), t(*extra_ms), t(*at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        c.actor("from", &self.from)?;
        c.actor("to", &self.to)?;
        c.length("extra_ms", self.extra_ms)?;
        c.count("count", self.count)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Hold { from: &self.from, to: &self.to, extra_us: self.extra_ms.to_micros(), count: self.count }
    }

    fn name(&self) -> String {
        format!("the delay of {}'s messages to {}", self.from, self.to)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.from)
    }

    fn who(&self) -> String {
        format!("{}>{}", self.from, self.to)
    }

    fn field(&self, name: &str) -> Option<i64> {
        match name {
            "extra_ms" => Some(self.extra_ms.get() as i64),
            "count" => Some(i64::from(self.count)),
            _ => None,
        }
    }

    fn family(&self) -> Family {
        Family::Delay
    }

    /// A message held back for each of the lengths tried.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Message { from, to, at_ms } = *slot {
            for extra_ms in tries.lengths {
                out.push(vec![Fault::Delay(Delay { from: from.to_string(), to: to.to_string(), at_ms, extra_ms, count: 1 })]);
            }
        }
    }

    fn size(&self) -> Option<Millis> {
        Some(self.extra_ms)
    }

    fn resize(&mut self, n: Millis) {
        self.extra_ms = n;
    }

    fn shrink_size(&self) -> Option<i64> {
        Some(self.extra_ms.get() as i64)
    }

    fn shrink_to(&mut self, v: i64) {
        self.extra_ms = Millis::new(v as u64);
    }
}
