//! The rest of a scenario's world: the resource, the network, clocks, the clients' programs
//! and the faults.

use serde::{Deserialize, Serialize};

/// What kind of thing the resource is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResourceKind {
    /// A storage service holding a counter.
    Store,
    /// A database: like a store, and it can run a conditional update as one transaction.
    Database,
    /// An external API (an email, a payment) that ignores tokens.
    External,
}

/// How the resource treats tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fencing {
    /// Tokens are ignored.
    None,
    /// Reject a token lower than the highest accepted; accept and record it in the same step.
    Atomic,
    /// Check the token in one step and write in a later one.
    CheckThenWrite,
}

/// The protected resource.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resource {
    pub kind: ResourceKind,
    pub fencing: Fencing,
    /// Remember request ids and apply each at most once.
    #[serde(default)]
    pub idempotency: bool,
    /// With `check-then-write`: the time between the check and the write.
    #[serde(default = "default_gap")]
    pub check_write_gap_ms: u64,
}

pub(super) fn default_gap() -> u64 {
    200
}

impl Default for Resource {
    fn default() -> Self {
        Resource { kind: ResourceKind::Store, fencing: Fencing::None, idempotency: false, check_write_gap_ms: 200 }
    }
}

/// Latency between actors: a default range and per-link overrides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// `[min, max]` one-way latency of every link.
    pub latency_ms: [u64; 2],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
}

impl Default for Network {
    fn default() -> Self {
        Network { latency_ms: [1, 3], links: Vec::new() }
    }
}

/// A one-way link with its own latency range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub from: String,
    pub to: String,
    pub latency_ms: [u64; 2],
}

/// An actor's clock.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    #[serde(default)]
    pub offset_ms: i64,
    #[serde(default)]
    pub drift_ppm: i64,
}

/// A client and its program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Client {
    pub name: String,
    /// True time at which the program starts.
    #[serde(default)]
    pub start_ms: u64,
    pub steps: Vec<Step>,
}

/// What a write does to the resource's counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteOp {
    /// Write back the value read plus one (a read-modify-write).
    #[default]
    Set,
    /// Add one, whatever the value is (a charge, an email, a ledger entry): not idempotent.
    Add,
    /// Rebuild a derived entry (a cache) from the source: the same content whoever writes it,
    /// so a second rebuild harms nothing; it is only wasted work.
    Rebuild,
}

/// What a client does when its renewal gets no answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnTimeout {
    /// It cannot know it still holds the lock: it stops (the safe choice).
    #[default]
    GiveUp,
    /// It carries on as if the lease were renewed, as code does whose background renewal only
    /// logs a failure (a watchdog thread that gives up quietly).
    KeepWorking,
}

impl OnTimeout {
    pub fn is_give_up(&self) -> bool {
        *self == OnTimeout::GiveUp
    }
}

/// One step of a client's program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// `SET lock <random> NX PX <ttl>`, retrying while the lock is held.
    Acquire {
        /// Wait between attempts.
        #[serde(default = "default_retry")]
        retry_ms: u64,
        /// Give up after this many attempts.
        #[serde(default = "default_attempts")]
        attempts: u32,
        /// Treat a missing reply as a failed attempt after this long.
        #[serde(default = "default_timeout")]
        timeout_ms: u64,
    },
    /// Read the resource's value. With `activate`, present the token so that the resource
    /// advances its generation before any work starts.
    Read {
        #[serde(default)]
        activate: bool,
    },
    /// Compute for a while (true time).
    Work { ms: u64 },
    /// Send a write to the resource.
    Write {
        #[serde(default)]
        op: WriteOp,
        /// The logical request id; defaults to `<client>-<step>`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
        /// Resend the same request if no reply comes within this long.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u64>,
        /// How many times to resend after a timeout.
        #[serde(default)]
        retries: u32,
        /// Make the write conditional on the version read (a database transaction); on a
        /// conflict the client reads again and retries.
        #[serde(default)]
        conditional: bool,
        /// An external effect (an email) sent from inside the write's transaction, keyed by
        /// this id: it goes out every time the transaction runs, whether or not it commits.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    /// Renew the lease (compare-and-extend or plain PEXPIRE, per `lock.renew`).
    Renew {
        /// What the client does when its renewal gets no answer.
        #[serde(default, skip_serializing_if = "OnTimeout::is_give_up")]
        on_timeout: OnTimeout,
    },
    /// Release the lock (compare-and-delete or plain DEL, per `lock.release`).
    Release {},
    /// Give up unless the lease has more than `margin_ms` left on the client's own clock.
    CheckDeadline {
        #[serde(default)]
        margin_ms: u64,
    },
}

pub(super) fn default_retry() -> u64 {
    500
}
pub(super) fn default_attempts() -> u32 {
    100
}
pub(super) fn default_timeout() -> u64 {
    1_000
}

/// A fault, at a true time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Fault {
    /// A stop-the-world pause: the actor keeps its state, receives nothing, and resumes
    /// believing what it believed.
    Pause { actor: String, at_ms: u64, duration_ms: u64 },
    /// The actor stops; its timers and in-flight work are gone.
    Crash { actor: String, at_ms: u64 },
    /// A crashed actor starts again. A Redis node keeps its keys only with
    /// `lock.persistence: always`; a client runs its program from the start.
    Restart { actor: String, at_ms: u64 },
    /// The actor's clock is stepped by `by_ms` (negative steps back).
    ClockJump { actor: String, at_ms: u64, by_ms: i64 },
    /// From `at_ms` the actor's clock drifts at `ppm`.
    Drift { actor: String, at_ms: u64, ppm: i64 },
    /// The actors named are cut off from all others for `duration_ms`.
    Partition { isolate: Vec<String>, at_ms: u64, duration_ms: u64 },
    /// The next `count` messages sent from `from` to `to` at or after `at_ms` are held
    /// `extra_ms` longer in the network.
    Delay {
        from: String,
        to: String,
        at_ms: u64,
        extra_ms: u64,
        #[serde(default = "one")]
        count: u32,
    },
    /// The next `count` messages sent from `from` to `to` at or after `at_ms` are lost.
    Drop {
        from: String,
        to: String,
        at_ms: u64,
        #[serde(default = "one")]
        count: u32,
    },
    /// The Redis primary fails and the replica is promoted.
    Failover { at_ms: u64 },
    /// A lock server's disk stalls: every write to its log takes until `at_ms + duration_ms`.
    /// A server that waits for its log before it answers (a consensus member or ZooKeeper
    /// server, which persist each proposal; Redis with `appendfsync always`; the API server,
    /// through etcd) stops answering meanwhile; Redis without persistence does not notice.
    DiskStall { actor: String, at_ms: u64, duration_ms: u64 },
}

pub(super) fn one() -> u32 {
    1
}

impl Fault {
    /// When the fault happens.
    pub fn at_ms(&self) -> u64 {
        match self {
            Fault::Pause { at_ms, .. }
            | Fault::Crash { at_ms, .. }
            | Fault::Restart { at_ms, .. }
            | Fault::ClockJump { at_ms, .. }
            | Fault::Drift { at_ms, .. }
            | Fault::Partition { at_ms, .. }
            | Fault::Delay { at_ms, .. }
            | Fault::Drop { at_ms, .. }
            | Fault::Failover { at_ms }
            | Fault::DiskStall { at_ms, .. } => *at_ms,
        }
    }
    /// When the fault happens, to change it.
    pub fn at_ms_mut(&mut self) -> &mut u64 {
        match self {
            Fault::Pause { at_ms, .. }
            | Fault::Crash { at_ms, .. }
            | Fault::Restart { at_ms, .. }
            | Fault::ClockJump { at_ms, .. }
            | Fault::Drift { at_ms, .. }
            | Fault::Partition { at_ms, .. }
            | Fault::Delay { at_ms, .. }
            | Fault::Drop { at_ms, .. }
            | Fault::Failover { at_ms }
            | Fault::DiskStall { at_ms, .. } => at_ms,
        }
    }

    /// The fault in words, for a list of faults: `Pause A at 1.5 s for 25 s`.
    pub fn describe(&self) -> String {
        let t = |ms: u64| crate::time::fmt(ms as i64 * 1000);
        match self {
            Fault::Pause { actor, at_ms, duration_ms } => format!("Pause {actor} at {} for {}", t(*at_ms), t(*duration_ms)),
            Fault::Crash { actor, at_ms } => format!("Crash {actor} at {}", t(*at_ms)),
            Fault::Restart { actor, at_ms } => format!("Restart {actor} at {}", t(*at_ms)),
            Fault::ClockJump { actor, at_ms, by_ms } => {
                format!("Jump {actor}'s clock by {} at {}", crate::time::fmt(*by_ms * 1000), t(*at_ms))
            }
            Fault::Drift { actor, at_ms, ppm } => format!("{actor}'s clock drifts {ppm} ppm from {}", t(*at_ms)),
            Fault::Partition { isolate, at_ms, duration_ms } => {
                format!("Cut off {} at {} for {}", isolate.join(", "), t(*at_ms), t(*duration_ms))
            }
            Fault::Delay { from, to, at_ms, extra_ms, count } => {
                let what = if *count == 1 { "next message".to_string() } else { format!("next {count} messages") };
                format!("Hold {from}'s {what} to {to} by {} (from {})", t(*extra_ms), t(*at_ms))
            }
            Fault::Drop { from, to, at_ms, count } => {
                let what = if *count == 1 { "next message".to_string() } else { format!("next {count} messages") };
                format!("Drop {from}'s {what} to {to} (from {})", t(*at_ms))
            }
            Fault::Failover { at_ms } => format!("Fail over at {}", t(*at_ms)),
            Fault::DiskStall { actor, at_ms, duration_ms } => format!("Stall {actor}'s disk at {} for {}", t(*at_ms), t(*duration_ms)),
        }
    }
}
