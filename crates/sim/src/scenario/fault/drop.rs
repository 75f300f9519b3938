//! Lost messages: the next messages from one actor to another never arrive.

use serde::{Deserialize, Serialize};

use super::{next_messages, one, t, Check, Family, Kind, Verb};
use crate::scenario::fault_kinds::{always, nowhere, FaultKind, Target, COUNT};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The next `count` messages sent from `from` to `to` at or after `at_ms` are lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drop {
    pub from: String,
    pub to: String,
    pub at_ms: Millis,
    #[serde(default = "one")]
    pub count: u32,
}

fields_io!(Drop, "struct variant Fault::Drop", { from, to, at_ms, count = one() });

impl Kind for Drop {
    const KIND: FaultKind =
        FaultKind { tag: "drop", label: "lost messages", target: Target::Link, fields: &[COUNT], fits: always, menu: nowhere };

    fn describe(&self) -> String {
        let Drop { from, to, at_ms, count } = self;
        format!("Drop {from}'s {} to {to} (from {})", next_messages(*count), t(*at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        c.actor("from", &self.from)?;
        c.actor("to", &self.to)?;
        c.count("count", self.count)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Drop { from: &self.from, to: &self.to, count: self.count }
    }

    fn name(&self) -> String {
        format!("the loss of {}'s messages to {}", self.from, self.to)
    }

    fn struck(&self) -> Option<&str> {
        Some(&self.from)
    }

    fn who(&self) -> String {
        format!("{}>{}", self.from, self.to)
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "count").then_some(i64::from(self.count))
    }

    fn family(&self) -> Family {
        Family::Delay
    }

    /// Lost messages set the scene; a shrinker leaves their start alone.
    fn moves_later(&self) -> bool {
        false
    }
}
