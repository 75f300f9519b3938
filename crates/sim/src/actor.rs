//! The actor interface every server speaks (a Redis node, a Redis primary and its replica, the
//! consensus members, the resource): an input and what the actor may know of the world
//! ([`Env`]) in, [`Effect`]s out. An actor never touches the world; the driver delivers its
//! effects in order, like a stateright actor's `Out` or a turmoil host's outbox.
//!
//! Time in effects is true time; an actor that wants to wake when its own clock reads some
//! value asks its [`Env`] when that is ([`Env::when_reads`]): the whole clock is known in
//! advance (`clock.rs`).

use crate::msg::Payload;
use crate::time::Micros;
use crate::trace::{ActorId, Applied, EventKind, Grant, KeyEnd};

/// What an actor may know when it handles an input: the true time, clocks, who is up, who can
/// reach whom, names. Read-only; implemented by the driver.
pub trait Env {
    /// True time now.
    fn now(&self) -> Micros;
    /// What `a`'s own clock reads now.
    fn local(&self, a: ActorId) -> Micros;
    /// The true time (not before now) at which `a`'s clock reads `local`, if it ever does
    /// before the run ends.
    fn when_reads(&self, a: ActorId, local: Micros) -> Option<Micros>;
    /// What `a`'s monotonic clock reads now: it ticks at the rate of `a`'s clock (drift
    /// included) but is not stepped by a clock jump, like Go's monotonic reading or Java's
    /// `System.nanoTime`.
    fn mono(&self, a: ActorId) -> Micros;
    /// The true time (not before now) at which `a`'s monotonic clock reads `mono`.
    fn when_mono_reads(&self, a: ActorId, mono: Micros) -> Option<Micros>;
    /// Whether `a` has crashed and not restarted.
    fn is_down(&self, a: ActorId) -> bool;
    /// Until when `a` is paused, if it is.
    fn paused_until(&self, a: ActorId) -> Option<Micros>;
    /// Whether a partition separates `a` from `b`.
    fn cut(&self, a: ActorId, b: ActorId) -> bool;
    fn name(&self, a: ActorId) -> &str;
    /// The index the next recorded grant will have.
    fn next_grant(&self) -> usize;
    /// The next token of the durable counter (`token.store: durable`), when there is one.
    fn durable_token(&self) -> Option<u64>;
    /// When the run ends.
    fn end(&self) -> Micros;
}

/// When a timer may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Whatever the actor's state: its handler checks what it needs.
    Always,
    /// It is the actor's own work: it waits while the actor is paused, and is lost if the actor
    /// crashes before it runs.
    Process,
}

/// A fact of the run for the record (the trace's grants, key spans, tokens and writes).
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    /// A new grant. Its `event` is replaced by the event recorded just before this record.
    /// Boxed, as is [`Record::Applied`]: every effect is as large as the largest.
    Grant(Box<Grant>),
    /// A grant's promised term now ends at `until_us` (true time).
    GrantTerm { grant: usize, until_us: Micros },
    /// The holder gave the grant back now; its term ends now if it had not yet.
    GrantReleased { grant: usize },
    /// The grant's term ends now if it had not yet (revoked, expired).
    GrantEnded { grant: usize },
    /// A token was issued to `client`; `durable` when it came from the durable counter (which
    /// then moves past it).
    Token { client: ActorId, token: u64, durable: bool },
    /// A lock key appears on `node`'s lane. `handle` names it for [`Record::KeyClose`].
    KeyOpen { handle: u64, node: ActorId, owner: Option<ActorId> },
    /// The key named `handle` is gone (no effect if none is open).
    KeyClose { handle: u64, end: KeyEnd },
    /// The resource applied a write. Its `event` is replaced by the event recorded just before.
    Applied(Box<Applied>),
    /// The resource's state after the event recorded just before.
    Resource { value: i64, version: u64, highest: u64 },
}

/// Something an actor asks the driver to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect<T> {
    /// Send a message; the network decides when, and whether, it arrives.
    Send {
        from: ActorId,
        to: ActorId,
        payload: Payload,
    },
    /// Record an event at `actor` (narrated by the driver).
    Event {
        actor: ActorId,
        kind: EventKind,
    },
    /// Hand `timer` back to `actor` at true time `at`.
    Timer {
        actor: ActorId,
        at: Micros,
        timer: T,
        gate: Gate,
    },
    Record(Record),
    /// Crash another actor now (a failover takes the old primary down).
    Crash(ActorId),
}

impl<T> Effect<T> {
    /// The same effect with its timer wrapped in the driver's timer type.
    pub fn map_timer<U>(self, f: impl FnOnce(T) -> U) -> Effect<U> {
        match self {
            Effect::Send { from, to, payload } => Effect::Send { from, to, payload },
            Effect::Event { actor, kind } => Effect::Event { actor, kind },
            Effect::Timer { actor, at, timer, gate } => Effect::Timer { actor, at, timer: f(timer), gate },
            Effect::Record(r) => Effect::Record(r),
            Effect::Crash(a) => Effect::Crash(a),
        }
    }
}

/// An actor's effects, in the order it asked for them.
pub type Out<T> = Vec<Effect<T>>;

/// The index the next grant will have once the grants already among `out` are recorded.
pub fn next_grant<T>(env: &dyn Env, out: &Out<T>) -> usize {
    env.next_grant() + out.iter().filter(|e| matches!(e, Effect::Record(Record::Grant(_)))).count()
}

/// What happened to a server, for its lock service to react to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerFault {
    /// This server crashed.
    Crashed(ActorId),
    /// This server restarted.
    Restarted(ActorId),
    /// This server's process stopped (a stop-the-world pause): it hears and says nothing.
    Paused(ActorId),
    /// This server runs again, after what reached it during the pause has been queued.
    Resumed(ActorId),
    /// A partition began or healed somewhere (members re-evaluate who leads).
    Network,
    /// A `failover` fault: promote the replica.
    Failover,
}

/// A world for unit tests of actors: perfect clocks (every clock reads true time), and the
/// crashes, pauses and partitions a test sets.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    pub struct FakeEnv {
        pub now: Micros,
        pub names: Vec<String>,
        pub down: Vec<ActorId>,
        pub paused: Vec<(ActorId, Micros)>,
        pub cuts: Vec<(ActorId, ActorId)>,
        pub grants: usize,
        pub durable: Option<u64>,
        pub end: Micros,
    }

    impl FakeEnv {
        /// Actors named `names`, at true time 0, the run ending at 60 s.
        pub fn new(names: &[&str]) -> FakeEnv {
            FakeEnv {
                now: Micros::ZERO,
                names: names.iter().map(|n| n.to_string()).collect(),
                down: vec![],
                paused: vec![],
                cuts: vec![],
                grants: 0,
                durable: None,
                end: Micros::us(60_000_000),
            }
        }
    }

    impl Env for FakeEnv {
        fn now(&self) -> Micros {
            self.now
        }
        fn local(&self, _: ActorId) -> Micros {
            self.now
        }
        fn when_reads(&self, _: ActorId, local: Micros) -> Option<Micros> {
            (local <= self.end).then_some(local.max(self.now))
        }
        fn mono(&self, a: ActorId) -> Micros {
            self.local(a)
        }
        fn when_mono_reads(&self, a: ActorId, mono: Micros) -> Option<Micros> {
            self.when_reads(a, mono)
        }
        fn is_down(&self, a: ActorId) -> bool {
            self.down.contains(&a)
        }
        fn paused_until(&self, a: ActorId) -> Option<Micros> {
            self.paused.iter().find(|p| p.0 == a).map(|p| p.1)
        }
        fn cut(&self, a: ActorId, b: ActorId) -> bool {
            self.cuts.iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        }
        fn name(&self, a: ActorId) -> &str {
            &self.names[a]
        }
        fn next_grant(&self) -> usize {
            self.grants
        }
        fn durable_token(&self) -> Option<u64> {
            self.durable
        }
        fn end(&self) -> Micros {
            self.end
        }
    }

    /// The events among `out`, in order.
    pub fn events<T>(out: &Out<T>) -> Vec<(ActorId, EventKind)> {
        out.iter()
            .filter_map(|e| match e {
                Effect::Event { actor, kind } => Some((*actor, kind.clone())),
                _ => None,
            })
            .collect()
    }

    /// The messages among `out`: (from, to, payload).
    pub fn sends<T>(out: &Out<T>) -> Vec<(ActorId, ActorId, Payload)> {
        out.iter()
            .filter_map(|e| match e {
                Effect::Send { from, to, payload } => Some((*from, *to, payload.clone())),
                _ => None,
            })
            .collect()
    }

    /// The records among `out`.
    pub fn records<T>(out: &Out<T>) -> Vec<Record> {
        out.iter()
            .filter_map(|e| match e {
                Effect::Record(r) => Some(r.clone()),
                _ => None,
            })
            .collect()
    }
}
