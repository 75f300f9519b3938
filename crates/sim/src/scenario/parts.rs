//! The rest of a scenario's world: the resource, the network, clocks, the clients' programs
//! (the faults are in `fault.rs`).

use serde::{Deserialize, Serialize};

use crate::time::Millis;

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
    pub check_write_gap_ms: Millis,
}

pub(super) fn default_gap() -> Millis {
    Millis::new(200)
}

impl Default for Resource {
    fn default() -> Self {
        Resource { kind: ResourceKind::Store, fencing: Fencing::None, idempotency: false, check_write_gap_ms: default_gap() }
    }
}

/// Latency between actors: a default range and per-link overrides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Network {
    /// `[min, max]` one-way latency of every link.
    pub latency_ms: [Millis; 2],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Link>,
}

impl Default for Network {
    fn default() -> Self {
        Network { latency_ms: [Millis::new(1), Millis::new(3)], links: Vec::new() }
    }
}

/// A one-way link with its own latency range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub from: String,
    pub to: String,
    pub latency_ms: [Millis; 2],
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
    pub start_ms: Millis,
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
        retry_ms: Millis,
        /// Give up after this many attempts.
        #[serde(default = "default_attempts")]
        attempts: u32,
        /// Treat a missing reply as a failed attempt after this long.
        #[serde(default = "default_timeout")]
        timeout_ms: Millis,
    },
    /// Read the resource's value. With `activate`, present the token so that the resource
    /// advances its generation before any work starts.
    Read {
        #[serde(default)]
        activate: bool,
    },
    /// Compute for a while (true time).
    Work { ms: Millis },
    /// Send a write to the resource.
    Write {
        #[serde(default)]
        op: WriteOp,
        /// The logical request id; defaults to `<client>-<step>`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
        /// Resend the same request if no reply comes within this long.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<Millis>,
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
        margin_ms: Millis,
    },
}

pub(super) fn default_retry() -> Millis {
    Millis::new(500)
}
pub(super) fn default_attempts() -> u32 {
    100
}
pub(super) fn default_timeout() -> Millis {
    Millis::new(1_000)
}
