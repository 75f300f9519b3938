//! What a kind of fault declares ([`FaultKind`]): its name in the scenario's JSON, whom it
//! strikes, its numbers (with the kind of value each takes, as settings are declared in
//! `settings.rs`, and the value a new one starts with) and the scenarios it fits. Each kind
//! declares itself in its own file under `fault/`; [`FAULTS`] lists them. The lab's editor
//! offers, adds and edits faults from this list.

pub use super::fault::FAULTS;
use super::settings::Kind;
use super::{Fault, Scenario};
use crate::time::Millis;

/// Fits every scenario.
pub(crate) fn always(_: &Scenario) -> bool {
    true
}

/// Offers nothing in the lane menu (a kind added from the editor alone).
pub(crate) fn nowhere(_: &Lane, _: &mut Vec<(String, Fault)>) {}

/// A lane of the lab's timeline where its menu was opened: what a kind needs to offer a fault
/// there ([`FaultKind::menu`]).
pub struct Lane<'a> {
    /// The actor's name.
    pub name: &'a str,
    pub role: LaneRole,
    /// Where on the lane.
    pub at_ms: Millis,
    pub sc: &'a Scenario,
    /// Those it sends messages to in the run shown, other than clients (a client's lock
    /// servers and the resource; a consensus client talks to the leader alone).
    pub sends_to: &'a [String],
}

/// What a lane's actor is, as the lane menu tells faults apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneRole {
    Client,
    /// A lock server: `primary` a Redis node that is not a replica (a Redis primary, which a
    /// failover fails, or a Redlock node), else a replica, a consensus member, a ZooKeeper
    /// server, the API server or a pair's node.
    LockServer {
        primary: bool,
    },
    Resource,
}

/// Whom a fault strikes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// One actor (`actor`).
    Actor,
    /// Actors cut off from the others (`isolate`).
    Isolate,
    /// The messages from one actor to another (`from`, `to`).
    Link,
    /// The lock service itself (a failover).
    Service,
    /// One of the lock service's servers (`actor`).
    Server,
}

/// One of a fault's numbers.
#[derive(Clone, Copy, Debug)]
pub struct FaultField {
    /// Its name in the fault's JSON: `duration_ms`.
    pub name: &'static str,
    /// The stable part of its field's id (`f-fault-0-duration`).
    pub id: &'static str,
    pub label: &'static str,
    pub kind: Kind,
    /// The value a new fault starts with.
    pub start: i64,
}

/// One kind of fault.
#[derive(Clone, Copy, Debug)]
pub struct FaultKind {
    /// Its name in the scenario's JSON: `clock_jump`.
    pub tag: &'static str,
    /// What the lab offers: "a clock jump".
    pub label: &'static str,
    pub target: Target,
    /// Its numbers beside its time (`at_ms`, which every fault has).
    pub fields: &'static [FaultField],
    /// Whether a scenario's lock service has what the fault strikes (a failover needs a
    /// replica to promote).
    pub fits: fn(&Scenario) -> bool,
    /// What the lab's lane menu offers at a lane, in its words (`Pause A here for 5 s`), if
    /// anything: each kind offers what fits the lane's role ([`nowhere`]: nothing).
    pub menu: fn(&Lane, &mut Vec<(String, Fault)>),
}

pub(crate) const fn field(name: &'static str, id: &'static str, label: &'static str, kind: Kind, start: i64) -> FaultField {
    FaultField { name, id, label, kind, start }
}

/// How many messages a fault of a link strikes.
pub(crate) const COUNT: FaultField = field("count", "count", "Messages", Kind::Count { min: 1, max: 1_000 }, 1);

/// The kind of fault `f` is.
pub fn kind_of(f: &Fault) -> &'static FaultKind {
    f.kind()
}

impl FaultKind {
    /// A new fault of this kind at `at_ms`, striking `who` (for a link, the messages from `who`
    /// to `to`), with its fields' starting values.
    pub fn new_fault(&self, who: &str, to: &str, at_ms: crate::time::Millis) -> Result<Fault, String> {
        use crate::json::Value;
        let mut body = vec![("at_ms".to_string(), Value::from(at_ms.get() as i64))];
        match self.target {
            Target::Actor | Target::Server => body.push(("actor".into(), Value::String(who.into()))),
            Target::Isolate => body.push(("isolate".into(), Value::Array(vec![Value::String(who.into())]))),
            Target::Link => {
                body.push(("from".into(), Value::String(who.into())));
                body.push(("to".into(), Value::String(to.into())));
            }
            Target::Service => {}
        }
        body.extend(self.fields.iter().map(|f| (f.name.to_string(), Value::from(f.start))));
        let v = Value::Object(vec![(self.tag.to_string(), Value::Object(body.into_iter().collect()))].into_iter().collect());
        crate::from_value::deserialize(&v).map_err(|e| e.to_string())
    }

    /// The value of field `name` of fault `f` (of this kind).
    pub fn get(&self, f: &Fault, name: &str) -> Option<i64> {
        f.field(name)
    }
}
