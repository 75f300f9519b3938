//! [`Verb`]: what a fault asks of the world, the driver's whole fault vocabulary (as turmoil's
//! `crash`, `partition`, `hold`). A fault kind says which verb it is; the driver (`world`) does
//! it, by the verb alone, so that a new kind made of these verbs changes nothing there.

use crate::time::Micros;

/// One thing the world does to its actors, its clocks or its network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb<'a> {
    /// The actor's process stops for a while, keeping its state; what reaches it waits.
    Pause { actor: &'a str, for_us: Micros },
    /// The actor stops; its timers and buffered work are gone.
    Crash { actor: &'a str },
    /// A crashed actor starts again.
    Restart { actor: &'a str },
    /// The actor's clock is stepped. Clocks are known before the run, so at its time the world
    /// only records it.
    JumpClock { actor: &'a str, by_us: Micros },
    /// The actor's clock drifts at a new rate (known before the run, recorded at its time).
    Drift { actor: &'a str, ppm: i64 },
    /// The actors are cut off from all others (or from those in `from`, if any) for a while.
    Isolate { actors: &'a [String], from: &'a [String], for_us: Micros },
    /// The next `count` messages from one actor to another, sent from the fault's time on, are
    /// held `extra_us` longer: armed in the network from the start.
    Hold { from: &'a str, to: &'a str, extra_us: Micros, count: u32 },
    /// The next `count` messages from one actor to another, sent from the fault's time on, are
    /// lost: armed in the network from the start.
    Drop { from: &'a str, to: &'a str, count: u32 },
    /// The lock service is told to fail over (the Redis primary fails, the replica is
    /// promoted).
    FailOver,
    /// A server's disk stalls for a while; how the server notices is [`Disk`].
    StallDisk { actor: &'a str, for_us: Micros, disk: Disk },
}

/// How a server meets a stalled disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disk {
    /// It waits for its log before it answers: it stops now.
    Now,
    /// It writes in memory and waits for the disk before it replies: it stops at its next write.
    NextWrite,
    /// It does not write to disk: it does not notice.
    Never,
}

impl Verb<'_> {
    /// Whether the network arms it from the start rather than the world doing it at its time.
    pub fn in_network(&self) -> bool {
        matches!(self, Verb::Hold { .. } | Verb::Drop { .. })
    }
}
