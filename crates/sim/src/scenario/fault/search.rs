//! What the kinds tell a search and the timeline: [`Slot`] (where a search tries adding a
//! fault) and [`Tries`] (the lengths it tries), [`Family`] (how its coverage counts a fault),
//! and [`Block`] (a fault drawn as a block that can be dragged).

use crate::time::Millis;
use serde::Serialize;

/// Where a search tries adding faults, from the run as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot<'a> {
    /// A client just after one of its events, or halfway between two.
    Client { name: &'a str, at_ms: Millis },
    /// A message a client sends to a lock server or the resource, when it is sent.
    Message { from: &'a str, to: &'a str, at_ms: Millis },
    /// A lock server near a grant: the moments a lock service's state matters.
    Server { name: &'a str, at_ms: Millis },
    /// The lock service as a whole near a grant; `replicated` when it has a replica.
    Service { at_ms: Millis, replicated: bool },
}

/// The sizes a search tries.
#[derive(Clone, Copy, Debug)]
pub struct Tries {
    /// The lease's TTL (at least 1).
    pub ttl_ms: Millis,
    /// The run's end.
    pub end_ms: Millis,
    /// Lengths around the TTL: a third, a tenth more, twice, three times.
    pub lengths: [Millis; 4],
}

impl Tries {
    pub fn new(ttl_ms: Millis, end_ms: Millis) -> Tries {
        let ttl = ttl_ms.get().max(1);
        let lengths = [ttl / 3, ttl + ttl / 10, 2 * ttl, 3 * ttl].map(|l| Millis::new(l.max(1)));
        Tries { ttl_ms: Millis::new(ttl), end_ms, lengths }
    }
}

/// The families of fault a search tries, for its coverage statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Pause,
    Delay,
    Clock,
    Crash,
    Failover,
    Partition,
}

impl Family {
    pub const ALL: [Family; 6] = [Family::Pause, Family::Delay, Family::Clock, Family::Crash, Family::Failover, Family::Partition];

    /// The family in the plural, as the coverage statement lists it: `clock jumps`.
    pub fn plural(self) -> &'static str {
        match self {
            Family::Pause => "pauses",
            Family::Delay => "delays",
            Family::Clock => "clock jumps",
            Family::Crash => "crashes",
            Family::Failover => "failovers",
            Family::Partition => "partitions",
        }
    }
}

/// A fault the timeline draws as a block on its actor's lane, which can be dragged to move it
/// and resized by its right edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block<'a> {
    pub actor: &'a str,
    pub at_ms: Millis,
    pub duration_ms: Millis,
    /// The block's label: "paused".
    pub label: &'static str,
    /// What its title says after the actor's name: " paused", "'s disk stalled".
    pub what: &'static str,
}
