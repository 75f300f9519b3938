//! A failover: the Redis primary fails and its replica is promoted, without the writes it had
//! not yet shipped.

use serde::{Deserialize, Serialize};

use super::{t, Check, Family, Fault, Kind, Slot, Tries, Verb};
use crate::scenario::fault_kinds::{FaultKind, LaneRole, Target};
use crate::scenario::{LockKind, Scenario, ScenarioError};
use crate::time::Millis;

/// The Redis primary fails over to its replica at `at_ms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failover {
    pub at_ms: Millis,
}

fields_io!(Failover, "struct variant Fault::Failover", { at_ms });

impl Kind for Failover {
    const KIND: FaultKind = FaultKind {
        tag: "failover",
        label: "a failover",
        target: Target::Service,
        fields: &[],
        fits: |s| s.lock.kind == LockKind::Redis && s.lock.replica.is_some(),
        menu: |l, out| {
            if l.role == (LaneRole::LockServer { primary: true }) && (Failover::KIND.fits)(l.sc) {
                out.push(("Fail over to the replica here".into(), Fault::Failover(Failover { at_ms: l.at_ms })));
            }
        },
    };

    fn describe(&self) -> String {
        format!("Fail over at {}", t(self.at_ms))
    }

    fn validate(&self, c: &Check) -> Result<(), ScenarioError> {
        if c.sc.lock.replica.is_none() {
            return Err(ScenarioError::at(format!("faults[{}].failover", c.i), "a failover needs a replica: set lock.replica"));
        }
        Ok(())
    }

    fn verb(&self, _: &Scenario) -> Verb<'_> {
        Verb::FailOver
    }

    fn name(&self) -> String {
        "the failover".into()
    }

    fn family(&self) -> Family {
        Family::Failover
    }

    /// A failover near a grant, when there is a replica to promote.
    fn offer(slot: &Slot, _: &Tries, out: &mut Vec<Vec<Fault>>) {
        if let Slot::Service { at_ms, replicated: true } = *slot {
            out.push(vec![Fault::Failover(Failover { at_ms })]);
        }
    }
}
