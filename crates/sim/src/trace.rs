//! The output of a run: [`Run`], holding the trace ([`Event`], [`EventKind`]), the intervals a
//! timeline draws ([`Intervals`]) and the verdict ([`crate::verdict::Verdict`]).
//!
//! Everything here is derived from a scenario by [`crate::run`]; none of it is ever stored or
//! shared (share the scenario instead).

use serde::Serialize;

use crate::time::Micros;
use crate::verdict::Verdict;

mod event;
mod holds;
mod outcome;
mod quorum;
mod services;
mod why;
mod words;
pub use event::*;
pub use quorum::QuorumEvent;
pub use services::ServiceEvent;
pub use words::{Wording, Words};

/// An index into [`Run::actors`].
pub type ActorId = usize;
/// An index into [`Run::events`].
pub type EventId = usize;
/// An index into [`Intervals::messages`].
pub type MsgId = usize;

/// What part an actor plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Client,
    Redis,
    Replica,
    /// A member of the consensus service.
    Member,
    Resource,
}

impl Role {
    /// A server of the lock service (told of its own faults).
    pub fn is_lock_server(self) -> bool {
        matches!(self, Role::Redis | Role::Replica | Role::Member)
    }
}

/// An actor of the run, in lane order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Actor {
    pub name: String,
    pub role: Role,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Its index in the trace.
    pub id: EventId,
    /// True time.
    pub at_us: Micros,
    /// Where it happened.
    pub actor: ActorId,
    /// What the actor's own clock read at that moment.
    pub local_us: Micros,
    pub kind: EventKind,
    /// For a receipt, the event that sent the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cause: Option<EventId>,
}

/// The scenario's key moments that hold in a run, each with the event it is attached to, in
/// the order of the events (`crate::moments::attach`). An event may carry several moments'
/// texts, joined by a space.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Moments(Vec<(EventId, String)>);

impl Moments {
    /// The moments' texts by event; sorted here (stably, by the program's one sort), as
    /// [`Run::moment`] searches them.
    pub fn new(mut by_event: Vec<(EventId, String)>) -> Moments {
        crate::sort::by_key(&mut by_event, |&(id, _)| id);
        Moments(by_event)
    }

    /// Each event with a moment, and its text, in the order of the events.
    pub fn iter(&self) -> impl Iterator<Item = &(EventId, String)> {
        self.0.iter()
    }

    /// The texts, to be rewritten in place (the CLI escapes them for a terminal).
    pub fn texts_mut(&mut self) -> impl Iterator<Item = &mut String> {
        self.0.iter_mut().map(|(_, t)| t)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A span of true time on one actor's lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Span {
    pub actor: ActorId,
    pub from_us: Micros,
    pub to_us: Micros,
}

/// What a client believed about one lease, from the grant to when it stopped believing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Belief {
    pub client: ActorId,
    /// Index into [`Run::grants`].
    pub grant: usize,
    pub token: Option<u64>,
    /// When the client learned of the grant.
    pub from_us: Micros,
    /// When it stopped believing (released, learned it lost the lock, crashed, finished).
    pub to_us: Micros,
    /// When its lease ran out by its own clock (after its last renewal), in true time.
    pub valid_until_us: Micros,
}

/// How a key's life ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyEnd {
    Expired,
    Deleted,
    /// The node crashed or restarted without persistence.
    Lost,
    /// Still there when the run ended.
    RunEnd,
}

/// A lock key's life on one node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeySpan {
    pub node: ActorId,
    pub owner: Option<ActorId>,
    pub from_us: Micros,
    pub to_us: Micros,
    pub end: KeyEnd,
}

/// What became of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MsgFate {
    Delivered,
    Lost,
    /// Still in flight when the run ended.
    InFlight,
}

/// A message from send to receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    pub from: ActorId,
    pub to: ActorId,
    pub sent_us: Micros,
    /// When it arrived or was lost (the run's end if still in flight).
    pub arrived_us: Micros,
    /// When the network meant to deliver it (the same as `arrived_us` unless it was lost or
    /// still in flight).
    pub due_us: Micros,
    pub fate: MsgFate,
    /// A delay fault held it.
    pub delayed: bool,
    pub send_event: EventId,
}

/// A clock jump, for the timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Jump {
    pub actor: ActorId,
    pub at_us: Micros,
    pub by_us: Micros,
}

/// The spans a timeline draws.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Intervals {
    pub beliefs: Vec<Belief>,
    pub keys: Vec<KeySpan>,
    pub pauses: Vec<Span>,
    /// From a crash to the restart (or the run's end).
    pub downs: Vec<Span>,
    pub partitions: Vec<Span>,
    pub messages: Vec<Message>,
    pub jumps: Vec<Jump>,
    /// When each timer was due, fired or not: deadlines the search's order classes take in.
    #[serde(skip)]
    pub timers: Vec<Micros>,
}

/// A grant of the lock by the lock service: the ground truth the checker reasons from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grant {
    pub client: ActorId,
    pub node: ActorId,
    pub at_us: Micros,
    pub token: Option<u64>,
    pub event: EventId,
    /// When the grant's promised term ends in true time: the grant (or its last renewal) plus
    /// the TTL, or earlier if its owner released it.
    pub term_end_us: Micros,
    pub released_us: Option<Micros>,
    /// The nodes whose votes made the grant (one for a single Redis; a majority for Redlock).
    pub votes: Vec<ActorId>,
    /// Each time its term was extended (a renewal), and the term's end before it: what was
    /// promised at a moment before the renewal ([`Grant::term_at`]).
    #[serde(skip)]
    pub extended: Vec<(Micros, Micros)>,
}

impl Grant {
    /// The first renewal after true time `t`: when it was made, and the term's end before it.
    pub fn renewal_after(&self, t: Micros) -> Option<(Micros, Micros)> {
        self.extended.iter().find(|(when, _)| *when > t).copied()
    }

    /// When the grant's term ended as promised at true time `t` (a later renewal not yet made).
    pub fn term_at(&self, t: Micros) -> Micros {
        self.renewal_after(t).map_or(self.term_end_us, |(_, before)| before)
    }

    /// Its term extended at `now` to `until`.
    pub fn extend(&mut self, now: Micros, until: Micros) {
        self.extended.push((now, self.term_end_us));
        self.term_end_us = until;
    }
}

/// A write the resource applied, with what the checker needs to judge it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Applied {
    pub at_us: Micros,
    pub client: ActorId,
    /// The grant the client believed it held when it made the write.
    pub grant: Option<usize>,
    pub token: Option<u64>,
    pub op: crate::scenario::WriteOp,
    pub request: String,
    /// The version the client had read, for a read-modify-write.
    pub read_version: Option<u64>,
    /// When the resource served that read.
    pub read_at_us: Option<Micros>,
    pub version_before: u64,
    pub value_after: i64,
    pub event: EventId,
    /// The message that carried it.
    pub msg: MsgId,
}

/// The resource's state after a change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResourceState {
    pub at_us: Micros,
    pub event: EventId,
    pub value: i64,
    pub version: u64,
    /// The highest token it has accepted (0: none).
    pub highest: u64,
}

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Run {
    pub scenario: String,
    pub seed: u64,
    pub actors: Vec<Actor>,
    pub events: Vec<Event>,
    pub intervals: Intervals,
    pub grants: Vec<Grant>,
    pub applied: Vec<Applied>,
    /// Tokens in the order they were issued: (true time, token, client).
    pub tokens: Vec<(Micros, u64, ActorId)>,
    /// The resource's value at the end.
    pub final_value: i64,
    /// The resource's state after each change, in order.
    pub resource_log: Vec<ResourceState>,
    /// Each actor's clock over the whole run, to read it at any true time.
    #[serde(skip)]
    pub clocks: Vec<crate::clock::Clock>,
    /// The end of the run: the scenario's duration, or later if a client's update was under
    /// way then (`world::overrun_us` says how much later at most).
    pub end_us: Micros,
    /// The scenario's duration.
    pub due_us: Micros,
    /// The clients whose update was still under way when the run ended (it could go on no
    /// longer): what their writes would have done is not judged.
    pub unfinished: Vec<ActorId>,
    pub verdict: Verdict,
    /// The scenario's key moments, where they hold (none for a run judged alone).
    pub moments: Moments,
    /// How each message is worded ([`Run::what`]).
    #[serde(skip)]
    pub words: Words,
}

impl Run {
    /// The words of message `msg`, e.g. `SET lock 3f2a… NX PX 10000`.
    pub fn what(&self, msg: MsgId) -> String {
        self.words.of(msg)
    }

    /// An actor's name.
    pub fn name(&self, a: ActorId) -> &str {
        &self.actors[a].name
    }

    /// What actor `a` is, as the lab's lane menu tells faults apart.
    pub fn lane_role(&self, a: ActorId) -> crate::scenario::fault_kinds::LaneRole {
        use crate::scenario::fault_kinds::LaneRole;
        match self.actors[a].role {
            Role::Client => LaneRole::Client,
            Role::Resource => LaneRole::Resource,
            r => LaneRole::LockServer { primary: r == Role::Redis },
        }
    }

    /// The actors other than clients that `a` sends messages to in this run (a client's lock
    /// servers and the resource; a consensus client talks to the leader alone), in lane order.
    pub fn sends_to(&self, a: ActorId) -> Vec<String> {
        let sent = |to: ActorId| self.intervals.messages.iter().any(|m| m.from == a && m.to == to);
        self.actors.iter().enumerate().filter(|&(i, x)| x.role != Role::Client && sent(i)).map(|(_, x)| x.name.clone()).collect()
    }

    /// The id of an actor by name.
    pub fn actor_id(&self, name: &str) -> Option<ActorId> {
        self.actors.iter().position(|a| a.name == name)
    }

    /// What `actor`'s own clock reads at true time `at_us`.
    pub fn local_at(&self, actor: ActorId, at_us: Micros) -> Micros {
        self.clocks.get(actor).map_or(at_us, |c| c.local_at(at_us))
    }

    /// The resource's state at true time `at_us` (after every change up to then).
    pub fn resource_at(&self, at_us: Micros) -> Option<&ResourceState> {
        let n = self.resource_log.partition_point(|s| s.at_us <= at_us);
        n.checked_sub(1).map(|i| &self.resource_log[i])
    }

    /// The lease deadline `client` knows of once event `upto` has happened: the end of its last
    /// grant or renewal so far, on its own clock. (A belief's `valid_until_us` is the deadline
    /// after its last renewal, which may still be ahead.)
    pub fn lease_deadline(&self, client: ActorId, upto: EventId) -> Option<Micros> {
        self.events[..=upto.min(self.events.len().saturating_sub(1))].iter().rev().filter(|e| e.actor == client).find_map(|e| {
            match e.kind {
                EventKind::Acquired { until_local_us, .. } | EventKind::Renewed { until_local_us } => Some(until_local_us),
                _ => None,
            }
        })
    }

    /// The event named by `spec`, written `"<tag> [actor] [#n]"` like a key moment
    /// (`"paused A"`, `"accepted A"`, `"expired"`, `"acquired B #2"`; see [`EventKind::tag`]).
    pub fn find(&self, spec: &str) -> Option<EventId> {
        let mut words = spec.split_whitespace();
        let tag = words.next()?;
        let mut who = None;
        let mut nth = 1usize;
        for w in words {
            if let Some(n) = w.strip_prefix('#') {
                nth = n.parse().ok()?;
            } else {
                who = Some(self.actor_id(w)?);
            }
        }
        self.events
            .iter()
            .filter(|e| {
                let (t, subject) = e.kind.tag(e.actor);
                t == tag && who.is_none_or(|w| w == subject)
            })
            .nth(nth.checked_sub(1)?)
            .map(|e| e.id)
    }

    /// The resource's value once event `id` has happened (0 before any change).
    pub fn value_after(&self, id: EventId) -> i64 {
        let n = self.resource_log.partition_point(|s| s.event <= id);
        n.checked_sub(1).map_or(0, |i| self.resource_log[i].value)
    }

    /// The events that carry a key moment (their texts: [`Run::moment`]).
    pub fn moments(&self) -> impl Iterator<Item = &Event> {
        self.moments.0.iter().map(|&(id, _)| &self.events[id])
    }

    /// The scenario's narration of event `id`, when it is one of the run's key moments.
    pub fn moment(&self, id: EventId) -> Option<&str> {
        let m = &self.moments.0;
        m.binary_search_by_key(&id, |&(e, _)| e).ok().map(|i| m[i].1.as_str())
    }
}
