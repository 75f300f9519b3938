//! A partition: the actors named are cut off from all others (or from those `from` names) for a
//! while, then the network heals.

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{always, field, FaultKind, Target};
use crate::scenario::settings::Kind as Value;
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Millis;

/// The actors in `isolate` are cut off at `at_ms` for `duration_ms` from all others, or only
/// from the actors in `from` when it names any (two racks cut from each other while both still
/// reach a third place).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Partition {
    pub isolate: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    pub at_ms: Millis,
    pub duration_ms: Millis,
}

impl Partition {
    /// Its fields' names in the JSON.
    pub(crate) const FIELDS: &'static [&'static str] = &["isolate", "from", "at_ms", "duration_ms"];

    /// Whether a partition that isolates `isolate` (from `from`, or from everyone when it is
    /// empty) cuts `a` off from `b`, either way: for the world's actors by id and for a
    /// scenario's by name.
    pub fn cuts<U: PartialEq<T>, T: ?Sized>(isolate: &[U], from: &[U], a: &T, b: &T) -> bool {
        let has = |v: &[U], x: &T| v.iter().any(|u| u == x);
        let (ia, ib) = (has(isolate, a), has(isolate, b));
        match from.is_empty() {
            true => ia != ib,
            false => (ia && has(from, b)) || (ib && has(from, a)),
        }
    }

    /// Whether this partition cuts `a` off from `b` at true time `at_us` (from its start until
    /// it heals).
    pub fn cuts_at(&self, a: &str, b: &str, at_us: crate::time::Micros) -> bool {
        let (from, to) = (self.at_ms.to_micros(), (self.at_ms + self.duration_ms).to_micros());
        from <= at_us && at_us < to && Partition::cuts(&self.isolate, &self.from, a, b)
    }
}

impl crate::from_value::FromValue for Partition {
    fn read(v: &crate::json::Value, at: &crate::from_value::Path) -> crate::from_value::Read<Self> {
        use crate::from_value::fields;
        fields!(v, at, "struct variant Fault::Partition", Partition { isolate, from = Vec::new(), at_ms, duration_ms })
    }
}

impl crate::to_value::ToValue for Partition {
    fn to_value(&self) -> crate::json::Value {
        let o = crate::to_value::Object::new().put("isolate", &self.isolate);
        o.put_unless(self.from.is_empty(), "from", &self.from).put("at_ms", &self.at_ms).put("duration_ms", &self.duration_ms).done()
    }
}

impl Kind for Partition {
    const KIND: FaultKind = FaultKind {
        tag: "partition",
        label: "a partition",
        target: Target::Isolate,
        fields: &[field("duration_ms", "duration", "For", Value::Ms { min: Millis::ZERO }, 5_000)],
        fits: always,
        menu: |l, out| {
            let fault = Partition { isolate: vec![l.name.to_string()], from: Vec::new(), at_ms: l.at_ms, duration_ms: Millis::new(5_000) };
            out.push((format!("Cut {} off for 5 s here", l.name), Fault::Partition(fault)));
        },
    };

    fn describe(&self) -> String {
        let from = if self.from.is_empty() { String::new() } else { format!(" from {}", self.from.join(", ")) };
        format!("Cut off {}{from} at {} for {}", self.isolate.join(", "), t(self.at_ms), t(self.duration_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        if self.isolate.is_empty() {
            return c.err("isolate", "name at least one actor".into());
        }
        for (k, a) in self.isolate.iter().enumerate() {
            c.actor_at(format!("{}[{k}]", c.path("isolate")), a)?;
        }
        for (k, a) in self.from.iter().enumerate() {
            c.actor_at(format!("{}[{k}]", c.path("from")), a)?;
            if self.isolate.contains(a) {
                return c.err("from", format!("{a} is both cut off and among those it is cut off from"));
            }
        }
        c.length("duration_ms", self.duration_ms)
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::Isolate { actors: &self.isolate, from: &self.from, for_us: self.duration_ms.to_micros() }
    }

    fn name(&self) -> String {
        let from = if self.from.is_empty() { String::new() } else { format!(" from {}", self.from.join(" and ")) };
        format!("the partition cutting off {}{from}", self.isolate.join(" and "))
    }

    fn struck(&self) -> Option<&str> {
        self.isolate.first().map(String::as_str)
    }

    fn who(&self) -> String {
        self.isolate.join(",")
    }

    fn field(&self, name: &str) -> Option<i64> {
        (name == "duration_ms").then_some(self.duration_ms.get() as i64)
    }

    fn family(&self) -> Family {
        Family::Partition
    }

    /// A client cut off for a tenth more than the TTL and for twice the TTL.
    fn offer(slot: &Slot, tries: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Client { name, at_ms } = *slot {
            for duration_ms in [tries.lengths[1], tries.lengths[2]] {
                out.push(vec![Fault::Partition(Partition { isolate: vec![name.to_string()], from: Vec::new(), at_ms, duration_ms })]);
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
}
