//! Leases as countdowns: at any true time, how much of each lease is left, by the clock that
//! decides it. A client's lease runs out by the client's own clock (from its last grant or
//! renewal); a lock key runs out by its Redis node's clock (from when it was set or extended).
//! Drawn as rings that drain while the run plays, so that a lease running out while its holder
//! is frozen is seen, not read.

use sim::scenario::Scenario;
use sim::time::{fmt, Micros};
use sim::trace::{EventKind, Role, Run};

/// One lease at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Countdown {
    /// Time left by the deciding clock; negative once it has run out.
    pub left_us: Micros,
    /// The lease's length, for the ring's fraction.
    pub ttl_us: Micros,
    /// A client's belief (else a lock key on a server).
    pub holder: bool,
}

impl Countdown {
    /// How much of the ring is left (0 to 1).
    pub fn fraction(&self) -> f64 {
        (self.left_us.as_f64() / (self.ttl_us.max(Micros::us(1))).as_f64()).clamp(0.0, 1.0)
    }

    /// In words, for the ring's title and for screen readers.
    pub fn describe(&self, actor: &str) -> String {
        match (self.holder, self.left_us > Micros::ZERO) {
            (true, true) => format!("{actor}'s lease: {} left by its own clock", fmt(self.left_us)),
            (true, false) => {
                format!("{actor}'s lease ran out {} ago by its own clock, but {actor} still believes it holds the lock", fmt(-self.left_us))
            }
            (false, true) => format!("the lock key on {actor} expires in {} by {actor}'s clock", fmt(self.left_us)),
            (false, false) => format!("the lock key on {actor} is past its expiry by {actor}'s clock"),
        }
    }
}

/// Each actor's leases, computed once per run, so that a playback tick only looks up its own
/// actor's: the spans it holds (a client's beliefs) or keeps (a Redis node's keys), and its
/// deadlines (true time set, deadline on the actor's own clock), in order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Leases {
    spans: Vec<Vec<(Micros, Micros)>>,
    deadlines: Vec<Vec<(Micros, Micros)>>,
    ttl_us: Micros,
}

impl Leases {
    pub fn of(run: &Run, sc: &Scenario) -> Leases {
        let ttl_us = sc.lock.ttl_ms.to_micros();
        let mut deadlines = vec![Vec::new(); run.actors.len()];
        for e in &run.events {
            let deadline = match e.kind {
                EventKind::Acquired { until_local_us, .. } | EventKind::Renewed { until_local_us } => until_local_us,
                EventKind::KeySet { .. } | EventKind::KeyExtended { .. } if run.actors[e.actor].role == Role::Redis => e.local_us + ttl_us,
                _ => continue,
            };
            deadlines[e.actor].push((e.at_us, deadline));
        }
        let mut spans = vec![Vec::new(); run.actors.len()];
        for b in &run.intervals.beliefs {
            spans[b.client].push((b.from_us, b.to_us));
        }
        for k in run.intervals.keys.iter().filter(|k| run.actors[k.node].role == Role::Redis) {
            spans[k.node].push((k.from_us, k.to_us));
        }
        Leases { spans, deadlines, ttl_us }
    }

    /// Whether the run has any lease to count down.
    pub fn is_empty(&self) -> bool {
        self.deadlines.iter().all(Vec::is_empty)
    }

    /// The lease `actor` holds (a client) or keeps (a Redis node) at true time `t`, if any.
    pub fn at(&self, run: &Run, actor: usize, t: Micros) -> Option<Countdown> {
        let holder = run.actors.get(actor)?.role == Role::Client;
        // Since when it has held (or kept) the lease in force at `t`.
        let since = self.spans.get(actor)?.iter().find(|s| s.0 <= t && t < s.1)?.0;
        let mine = self.deadlines.get(actor)?;
        let (set_at, deadline) = *mine[..mine.partition_point(|d| d.0 <= t)].last()?;
        (set_at >= since).then(|| Countdown { left_us: deadline - run.local_at(actor, t), ttl_us: self.ttl_us, holder })
    }
}
