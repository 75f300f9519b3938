//! The input of a run: [`Scenario`], a serde description with `"version": 1`.
//!
//! A scenario names the lock service ([`LockService`]), the token source ([`TokenSource`]),
//! the protected resource ([`Resource`]), the network ([`Network`]), the clients and their
//! programs ([`Client`], [`Step`]), the faults at their true times ([`Fault`]), a seed, and the
//! teaching text. Unknown fields are errors. [`Scenario::parse`] reports the path of a bad field
//! ([`ScenarioError`]); [`Scenario::validate`] checks references, ranges and the limits
//! ([`limits`]) so that no scenario can make the engine hang.
//!
//! All durations in a scenario are integer milliseconds and their names end in `_ms`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

pub mod teach;

/// The engine's limits: a scenario beyond them is refused with a clear error.
pub mod limits {
    /// Clients in one scenario.
    pub const CLIENTS: usize = 12;
    /// Steps in one client's program.
    pub const STEPS: usize = 64;
    /// Faults in one scenario.
    pub const FAULTS: usize = 128;
    /// Simulated duration of a run, in ms (one hour).
    pub const DURATION_MS: u64 = 3_600_000;
    /// Events in one run; a run that would need more stops with an error.
    pub const EVENTS: usize = 200_000;
    /// Attempts of one acquire step.
    pub const ATTEMPTS: u32 = 10_000;
    /// Largest clock offset or jump, in ms (one day).
    pub const CLOCK_MS: i64 = 86_400_000;
    /// Largest drift, in parts per million (50 %).
    pub const DRIFT_PPM: i64 = 500_000;
    /// Longest text field, in bytes.
    pub const TEXT: usize = 8_000;
    /// Largest scenario text (a file, a paste, a link), in bytes.
    pub const SCENARIO_BYTES: usize = 1_000_000;
    /// Largest seed: seeds must survive a round trip through JavaScript numbers.
    pub const SEED: u64 = (1 << 53) - 1;
}

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The format version; only 1 exists.
    pub version: u32,
    /// A stable identifier (it appears in URLs).
    pub id: String,
    /// A short title.
    pub title: String,
    /// The course chapter this belongs to (see `library::CHAPTERS`).
    #[serde(default)]
    pub chapter: String,
    /// One paragraph: what happens.
    #[serde(default)]
    pub story: String,
    /// What to notice, one point per entry.
    #[serde(default)]
    pub notice: Vec<String>,
    /// Narration of key moments, matched against the run's events.
    #[serde(default)]
    pub moments: Vec<Moment>,
    /// Where the scenario simplifies reality, said plainly.
    #[serde(default)]
    pub simplifications: Vec<String>,
    /// The sources it rests on (names from SEMANTICS.md).
    #[serde(default)]
    pub sources: Vec<String>,
    /// The seed of every random draw in the run.
    pub seed: u64,
    /// The simulated time the run covers.
    pub duration_ms: u64,
    /// The lock service.
    pub lock: LockService,
    /// Where fencing tokens come from.
    #[serde(default)]
    pub token: TokenSource,
    /// The protected resource.
    #[serde(default)]
    pub resource: Resource,
    /// Latencies between actors.
    #[serde(default)]
    pub network: Network,
    /// The clients and what each does.
    pub clients: Vec<Client>,
    /// Clock settings per actor name (clients, `redis`, `replica`, `resource`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub clocks: BTreeMap<String, ClockSpec>,
    /// Faults at their true times.
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// The one-click fix, if the scenario has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Predict mode: questions asked at key moments (see [`crate::predict`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<teach::Question>,
    /// The course's invitation to break or fix the run by changing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<teach::Challenge>,
}

/// Narration for a key moment: `on` names an event as `"<what> [actor] [#n]"`, e.g.
/// `"paused A"`, `"accepted A"`, `"expired"` or `"acquired B #2"`; see `trace::EventKind::tag`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moment {
    pub on: String,
    pub text: String,
}

/// Which lock service the clients use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LockKind {
    /// A single Redis primary (optionally with an asynchronously replicated replica).
    Redis,
    /// Redlock: the client-side algorithm over `nodes` independent Redis masters.
    Redlock,
    /// An etcd-like consensus service: `nodes` members, a leader, majority commit, leases.
    Consensus,
    /// No lock service at all (the clients rely on the resource alone).
    None,
}

/// How a client releases the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReleaseStyle {
    /// The Lua script: delete the key only if it still holds my value.
    CompareAndDelete,
    /// A plain `DEL key`, whoever holds it.
    Del,
}

/// How a client renews its lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RenewStyle {
    /// The Lua script: `PEXPIRE` only if the key still holds my value.
    CompareAndExtend,
    /// A plain `PEXPIRE key ttl`, whoever holds it.
    Pexpire,
    /// Clients never renew.
    None,
}

/// Whether a Redis node keeps its data across a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Persistence {
    /// No persistence (or `appendfsync everysec` losing the last second): a restart forgets keys.
    None,
    /// `appendonly yes` with `appendfsync always`: keys survive a restart.
    Always,
}

/// The lock service and its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockService {
    pub kind: LockKind,
    /// The lease time given to `SET ... PX`.
    #[serde(default = "default_ttl")]
    pub ttl_ms: u64,
    #[serde(default = "default_release")]
    pub release: ReleaseStyle,
    #[serde(default = "default_renew")]
    pub renew: RenewStyle,
    #[serde(default = "default_persistence")]
    pub persistence: Persistence,
    /// An asynchronously replicated replica, promoted by a `failover` fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica: Option<Replica>,
    /// Redlock: how many independent masters (named A, B, C, …).
    #[serde(default = "default_nodes", skip_serializing_if = "is_default_nodes")]
    pub nodes: u8,
    /// Redlock: how long the client waits for one node before counting it as failed.
    #[serde(default = "default_node_timeout", skip_serializing_if = "is_default_node_timeout")]
    pub node_timeout_ms: u64,
    /// Redlock: send the SETs to all nodes at once (as node-redlock and redsync do) rather than
    /// one after another (as the Redis docs and redlock-rb do).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub parallel: bool,
    /// Redlock: drift = TTL × this + 2 ms (redlock-rb, redlock-py, node-redlock).
    #[serde(default = "default_drift_factor", skip_serializing_if = "is_default_drift_factor")]
    pub clock_drift_factor: f64,
    /// Consensus: how long a failed leader goes unreplaced (etcd's default is 1000 ms).
    #[serde(default = "default_election", skip_serializing_if = "is_default_election")]
    pub election_timeout_ms: u64,
    /// Consensus: after waiting for its predecessor, check that the waiter's own key (its
    /// session) still exists before saying it holds the lock. `false` reproduces the etcd bug
    /// found by Jepsen (etcd-io/etcd#11456).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub recheck_after_wait: bool,
}

fn default_election() -> u64 {
    1000
}
fn is_default_election(n: &u64) -> bool {
    *n == 1000
}
fn yes() -> bool {
    true
}
fn is_yes(b: &bool) -> bool {
    *b
}

/// etcd's minimum lease TTL: ceil((3 × electionTicks / 2) × heartbeat) seconds, that is 1.5 ×
/// the election timeout rounded up to whole seconds (2 s with the defaults). Shorter requests are
/// raised to it (SEMANTICS §4.1).
pub fn min_lease_ttl_ms(election_timeout_ms: u64) -> u64 {
    (election_timeout_ms * 3 / 2).div_ceil(1000) * 1000
}

/// The name of consensus member `i`: m1, m2, …
pub fn member_name(i: usize) -> String {
    format!("m{}", i + 1)
}

fn default_nodes() -> u8 {
    5
}
fn is_default_nodes(n: &u8) -> bool {
    *n == 5
}
fn default_node_timeout() -> u64 {
    50
}
fn is_default_node_timeout(n: &u64) -> bool {
    *n == 50
}
fn default_drift_factor() -> f64 {
    0.01
}
fn is_default_drift_factor(f: &f64) -> bool {
    *f == 0.01
}

/// The name of Redlock node `i`: A, B, C, …
pub fn node_name(i: usize) -> String {
    char::from(b'A' + i as u8).to_string()
}

fn default_ttl() -> u64 {
    10_000
}
fn default_release() -> ReleaseStyle {
    ReleaseStyle::CompareAndDelete
}
fn default_renew() -> RenewStyle {
    RenewStyle::CompareAndExtend
}
fn default_persistence() -> Persistence {
    Persistence::None
}

/// A replica of the Redis primary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replica {
    /// How long the primary's writes wait before they are shipped to the replica.
    pub lag_ms: u64,
}

/// What the clients present to the resource as a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenKind {
    /// No token at all.
    None,
    /// A counter incremented on every grant.
    Counter,
    /// The lock's random owner value (which has no order).
    RandomOwner,
}

/// Where a counter lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterStore {
    /// A key on the Redis primary, incremented in the acquire script (as Redisson's
    /// `RFencedLock` does): replicated asynchronously and lost with the node's data.
    Redis,
    /// A counter that is never lost or repeated (fsynced on every increment and ordered, for
    /// example kept by a consensus service).
    Durable,
}

/// The token source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSource {
    pub source: TokenKind,
    /// The first token the counter issues.
    #[serde(default = "default_token_start")]
    pub start: u64,
    #[serde(default = "default_store")]
    pub store: CounterStore,
}

impl TokenSource {
    /// Whether tokens come from the durable counter beside the lock service.
    pub fn durable(&self) -> bool {
        self.source == TokenKind::Counter && self.store == CounterStore::Durable
    }
}

fn default_token_start() -> u64 {
    1
}
fn default_store() -> CounterStore {
    CounterStore::Durable
}

impl Default for TokenSource {
    fn default() -> Self {
        TokenSource { source: TokenKind::None, start: 1, store: CounterStore::Durable }
    }
}

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

fn default_gap() -> u64 {
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
    },
    /// Renew the lease (compare-and-extend or plain PEXPIRE, per `lock.renew`).
    Renew {},
    /// Release the lock (compare-and-delete or plain DEL, per `lock.release`).
    Release {},
    /// Give up unless the lease has more than `margin_ms` left on the client's own clock.
    CheckDeadline {
        #[serde(default)]
        margin_ms: u64,
    },
}

fn default_retry() -> u64 {
    500
}
fn default_attempts() -> u32 {
    100
}
fn default_timeout() -> u64 {
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
}

fn one() -> u32 {
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
            | Fault::Failover { at_ms } => *at_ms,
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
            | Fault::Failover { at_ms } => at_ms,
        }
    }
}

/// The one-click fix: settings to change, each named by its path in the scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fix {
    /// The button's label, e.g. "Turn on fencing".
    pub label: String,
    /// What the fix changes and why it helps.
    pub explain: String,
    pub set: Vec<Setting>,
}

/// One setting of a fix: `path` is dot-separated (`resource.fencing`, `clients.1.steps.1.read.activate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    pub path: String,
    pub value: serde_json::Value,
}

/// Why a scenario was refused: where (a field path, or a line and column) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The field path (`clients[0].steps[2].work.ms`), or empty for the whole document.
    pub path: String,
    /// Line and column in the JSON text, when the error is about the text itself.
    pub line_col: Option<(usize, usize)>,
    pub message: String,
}

impl ScenarioError {
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError { path: path.into(), line_col: None, message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.line_col, self.path.is_empty()) {
            (Some((l, c)), true) => write!(f, "line {l}, column {c}: {}", self.message),
            (Some((l, c)), false) => {
                write!(f, "{} (line {l}, column {c}): {}", self.path, self.message)
            }
            (None, true) => write!(f, "{}", self.message),
            (None, false) => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for ScenarioError {}

/// Turns a serde_json error message into one for people: drop the trailing position, which
/// is reported separately.
fn clean_serde_message(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

impl Scenario {
    /// Parses and validates a scenario from JSON text.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > limits::SCENARIO_BYTES {
            return Err(ScenarioError::at("", "the scenario is larger than 1 MB"));
        }
        // Editors on Windows may start a UTF-8 file with a byte-order mark; it is not JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // First the text itself, so that syntax errors get a line and column.
        let value = crate::strict_json::parse(text).map_err(|e| match e {
            crate::strict_json::Error::Syntax(e) => ScenarioError {
                path: String::new(),
                line_col: Some((e.line(), e.column())),
                message: format!("invalid JSON: {}", clean_serde_message(&e.to_string())),
            },
            crate::strict_json::Error::Duplicate(d) => ScenarioError {
                path: d.path,
                line_col: Some((d.line, d.column)),
                message: "this key appears twice in its object; keep one".into(),
            },
        })?;
        let sc = Scenario::from_value(value)?;
        sc.check_settings()?;
        Ok(sc)
    }

    /// Checks, when a scenario is loaded (not when the reader presses Fix or asks for the
    /// challenge's solution), that its fix and its solution apply: every path exists and the
    /// changed scenario is valid. Not part of [`validate`]: an edit may leave them behind
    /// (remove the fault a fix moves), and pressing Fix then says so.
    ///
    /// [`validate`]: Scenario::validate
    pub fn check_settings(&self) -> Result<(), ScenarioError> {
        let named = |what: &str, e: ScenarioError| {
            if e.path.starts_with("fix.set[") {
                ScenarioError::at(e.path.replacen("fix.set", what, 1), e.message)
            } else {
                ScenarioError::at(what, format!("the changed scenario would be invalid: {e}"))
            }
        };
        if let Some(Err(e)) = self.fixed() {
            return Err(named("fix.set", e));
        }
        if let Some(c) = &self.challenge {
            self.with_settings(&c.solution).map_err(|e| named("challenge.solution", e))?;
        }
        Ok(())
    }

    /// Builds and validates a scenario from a JSON value.
    pub fn from_value(value: serde_json::Value) -> Result<Scenario, ScenarioError> {
        if let Some(v) = value.get("version") {
            if v != &serde_json::json!(1) {
                return Err(ScenarioError::at("version", format!("only version 1 exists, not {v}")));
            }
        }
        let sc: Scenario = serde_path_to_error::deserialize(&value).map_err(|e| {
            let path = e.path().to_string();
            let path = if path == "." { String::new() } else { path };
            ScenarioError::at(path, clean_serde_message(&e.inner().to_string()))
        })?;
        // serde reads a list as a struct's fields in order; a scenario names every field.
        if let Some(path) = list_for_object(&value, &sc.to_value(), String::new()) {
            return Err(ScenarioError::at(path, "expected an object with named fields, not a list"));
        }
        sc.validate()?;
        Ok(sc)
    }

    /// The scenario as pretty JSON.
    pub fn to_json(&self) -> String {
        // Through a Value: one serializer for scenarios in the whole program keeps wasm small.
        serde_json::to_string_pretty(&self.to_value()).expect("a value always prints")
    }

    /// The scenario as a JSON value.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a scenario always serializes")
    }

    /// The scenario with its fix applied (and the fix itself removed), or `None` if it has none.
    pub fn fixed(&self) -> Option<Result<Scenario, ScenarioError>> {
        let fix = self.fix.as_ref()?;
        Some(self.with_settings(&fix.set).map(|mut s| {
            s.fix = None;
            s
        }))
    }

    /// The scenario with the given settings changed, validated.
    pub fn with_settings(&self, set: &[Setting]) -> Result<Scenario, ScenarioError> {
        let mut v = serde_json::to_value(self).expect("a scenario always serializes");
        for (i, s) in set.iter().enumerate() {
            let slot = pointer_mut(&mut v, &s.path)
                .ok_or_else(|| ScenarioError::at(format!("fix.set[{i}].path"), format!("no setting at `{}`", s.path)))?;
            *slot = s.value.clone();
        }
        Scenario::from_value(v)
    }

    /// The names of every actor, in lane order: clients, then `redis` (and `replica`) or the
    /// Redlock nodes `A`, `B`, …, then `resource`.
    pub fn actor_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.clients.iter().map(|c| c.name.clone()).collect();
        match self.lock.kind {
            LockKind::Redis => {
                names.push("redis".into());
                if self.lock.replica.is_some() {
                    names.push("replica".into());
                }
            }
            LockKind::Redlock => names.extend((0..self.lock.nodes as usize).map(node_name)),
            LockKind::Consensus => names.extend((0..self.lock.nodes as usize).map(member_name)),
            LockKind::None => {}
        }
        names.push("resource".into());
        names
    }

    /// Checks references, ranges and limits. Every error names the field.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        if self.version != 1 {
            return err("version".into(), format!("only version 1 exists, not {}", self.version));
        }
        let id_ok =
            !self.id.is_empty() && self.id.len() <= 64 && self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !id_ok {
            return err("id".into(), "use 1 to 64 characters: lowercase letters, digits and '-'".into());
        }
        for (path, text) in [("title", &self.title), ("story", &self.story), ("chapter", &self.chapter)] {
            if text.len() > TEXT {
                return err(path.into(), format!("longer than {TEXT} bytes"));
            }
        }
        for (i, n) in self.notice.iter().enumerate() {
            if n.len() > TEXT {
                return err(format!("notice[{i}]"), format!("longer than {TEXT} bytes"));
            }
        }
        if self.moments.len() > 200 || self.sources.len() > 100 || self.simplifications.len() > 100 {
            return err("moments".into(), "too many moments, sources or simplifications (200, 100, 100 at most)".into());
        }
        for (i, m) in self.moments.iter().enumerate() {
            if m.text.len() > TEXT || m.on.len() > 100 {
                return err(format!("moments[{i}]"), "text too long".into());
            }
        }
        if self.seed > SEED {
            return err("seed".into(), format!("must be at most {SEED} (2^53 - 1)"));
        }
        if self.duration_ms == 0 || self.duration_ms > DURATION_MS {
            return err("duration_ms".into(), format!("must be between 1 and {DURATION_MS} (one hour)"));
        }
        let dur = self.duration_ms;
        let l = &self.lock;
        if l.ttl_ms == 0 || l.ttl_ms > DURATION_MS {
            return err("lock.ttl_ms".into(), format!("must be between 1 and {DURATION_MS}"));
        }
        if let Some(r) = &l.replica {
            if r.lag_ms > DURATION_MS {
                return err("lock.replica.lag_ms".into(), format!("must be at most {DURATION_MS}"));
            }
        }
        if l.kind == LockKind::Consensus {
            if l.nodes == 0 || l.nodes > 9 {
                return err("lock.nodes".into(), "a consensus service needs between 1 and 9 members".into());
            }
            if l.replica.is_some() {
                return err("lock.replica".into(), "a consensus service replicates by itself; remove lock.replica".into());
            }
            if l.election_timeout_ms == 0 || l.election_timeout_ms > DURATION_MS {
                return err("lock.election_timeout_ms".into(), format!("must be between 1 and {DURATION_MS}"));
            }
            if self.token.source == TokenKind::RandomOwner {
                return err("token.source".into(), "a consensus lock's token is its key's revision: use counter (or none)".into());
            }
        }
        // Checked whatever the kind: a scenario switched to Redlock later must still be valid.
        if !(0.0..=0.5).contains(&l.clock_drift_factor) {
            return err("lock.clock_drift_factor".into(), "must be between 0 and 0.5".into());
        }
        if l.kind == LockKind::Redlock {
            if l.nodes == 0 || l.nodes > 9 {
                return err("lock.nodes".into(), "Redlock needs between 1 and 9 nodes".into());
            }
            if l.replica.is_some() {
                return err("lock.replica".into(), "Redlock's nodes are independent masters without replicas".into());
            }
            if l.node_timeout_ms == 0 || l.node_timeout_ms > DURATION_MS {
                return err("lock.node_timeout_ms".into(), format!("must be between 1 and {DURATION_MS}"));
            }
            if self.token.source == TokenKind::Counter && self.token.store == CounterStore::Redis {
                return err(
                    "token.store".into(),
                    "Redlock has no counter of its own: a counter on one node is lost with that node; use durable".into(),
                );
            }
        }
        if self.token.start == 0 || self.token.start > SEED {
            return err("token.start".into(), format!("must be between 1 and {SEED}"));
        }
        if self.resource.check_write_gap_ms > DURATION_MS {
            return err("resource.check_write_gap_ms".into(), format!("must be at most {DURATION_MS}"));
        }
        if self.clients.is_empty() {
            return err("clients".into(), "at least one client is needed".into());
        }
        if self.clients.len() > CLIENTS {
            return err("clients".into(), format!("{} clients; at most {CLIENTS} are allowed", self.clients.len()));
        }
        let names = self.actor_names();
        let mut seen = BTreeSet::new();
        for (i, c) in self.clients.iter().enumerate() {
            let ok =
                !c.name.is_empty() && c.name.len() <= 16 && c.name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
            if !ok {
                return err(format!("clients[{i}].name"), "use 1 to 16 letters, digits, '-' or '_'".into());
            }
            let is_node = (self.lock.kind == LockKind::Redlock && (0..self.lock.nodes as usize).any(|n| node_name(n) == c.name))
                || (self.lock.kind == LockKind::Consensus && (0..self.lock.nodes as usize).any(|n| member_name(n) == c.name));
            if ["redis", "replica", "resource"].contains(&c.name.as_str()) || is_node {
                return err(format!("clients[{i}].name"), format!("`{}` is the name of a server", c.name));
            }
            if !seen.insert(c.name.clone()) {
                return err(format!("clients[{i}].name"), format!("`{}` is used by another client", c.name));
            }
            if c.start_ms > dur {
                return err(format!("clients[{i}].start_ms"), format!("is after the end of the run ({dur} ms)"));
            }
            if c.steps.len() > STEPS {
                return err(format!("clients[{i}].steps"), format!("{} steps; at most {STEPS} are allowed", c.steps.len()));
            }
            for (j, s) in c.steps.iter().enumerate() {
                let p = format!("clients[{i}].steps[{j}]");
                self.validate_step(&p, s)?;
            }
        }
        let actor = |p: String, a: &str| -> Result<(), ScenarioError> {
            if names.iter().any(|n| n == a) {
                Ok(())
            } else {
                Err(ScenarioError::at(p, format!("no actor is called `{a}` (actors: {})", names.join(", "))))
            }
        };
        let range = |p: String, r: [u64; 2]| -> Result<(), ScenarioError> {
            if r[0] > r[1] {
                Err(ScenarioError::at(p, format!("the minimum {} is above the maximum {}", r[0], r[1])))
            } else if r[1] > 600_000 {
                Err(ScenarioError::at(p, "latencies above 600000 ms (ten minutes) are not supported; use a delay fault"))
            } else {
                Ok(())
            }
        };
        range("network.latency_ms".into(), self.network.latency_ms)?;
        if self.network.links.len() > 256 {
            return err("network.links".into(), "at most 256 links".into());
        }
        for (i, link) in self.network.links.iter().enumerate() {
            actor(format!("network.links[{i}].from"), &link.from)?;
            actor(format!("network.links[{i}].to"), &link.to)?;
            range(format!("network.links[{i}].latency_ms"), link.latency_ms)?;
        }
        for (name, c) in &self.clocks {
            actor(format!("clocks.{name}"), name)?;
            // `unsigned_abs`: `abs` of i64::MIN overflows.
            if c.offset_ms.unsigned_abs() > CLOCK_MS as u64 {
                return err(format!("clocks.{name}.offset_ms"), format!("must be within ±{CLOCK_MS}"));
            }
            if c.drift_ppm.unsigned_abs() > DRIFT_PPM as u64 {
                return err(format!("clocks.{name}.drift_ppm"), format!("must be within ±{DRIFT_PPM}"));
            }
        }
        if self.faults.len() > FAULTS {
            return err("faults".into(), format!("{} faults; at most {FAULTS} are allowed", self.faults.len()));
        }
        for (i, f) in self.faults.iter().enumerate() {
            let p = |field: &str| format!("faults[{i}].{}.{field}", fault_name(f));
            if f.at_ms() > dur {
                return err(p("at_ms"), format!("is after the end of the run ({dur} ms)"));
            }
            match f {
                Fault::Pause { actor: a, duration_ms, .. } => {
                    actor(p("actor"), a)?;
                    if *duration_ms > DURATION_MS {
                        return err(p("duration_ms"), format!("must be at most {DURATION_MS}"));
                    }
                }
                Fault::Crash { actor: a, .. } | Fault::Restart { actor: a, .. } => actor(p("actor"), a)?,
                Fault::ClockJump { actor: a, by_ms, .. } => {
                    actor(p("actor"), a)?;
                    if by_ms.unsigned_abs() > CLOCK_MS as u64 {
                        return err(p("by_ms"), format!("must be within ±{CLOCK_MS}"));
                    }
                }
                Fault::Drift { actor: a, ppm, .. } => {
                    actor(p("actor"), a)?;
                    if ppm.unsigned_abs() > DRIFT_PPM as u64 {
                        return err(p("ppm"), format!("must be within ±{DRIFT_PPM}"));
                    }
                }
                Fault::Partition { isolate, duration_ms, .. } => {
                    if isolate.is_empty() {
                        return err(p("isolate"), "name at least one actor".into());
                    }
                    for (k, a) in isolate.iter().enumerate() {
                        actor(format!("{}[{k}]", p("isolate")), a)?;
                    }
                    if *duration_ms > DURATION_MS {
                        return err(p("duration_ms"), format!("must be at most {DURATION_MS}"));
                    }
                }
                Fault::Delay { from, to, extra_ms, count, .. } => {
                    actor(p("from"), from)?;
                    actor(p("to"), to)?;
                    if *extra_ms > DURATION_MS {
                        return err(p("extra_ms"), format!("must be at most {DURATION_MS}"));
                    }
                    if *count == 0 || *count > 1000 {
                        return err(p("count"), "must be between 1 and 1000".into());
                    }
                }
                Fault::Drop { from, to, count, .. } => {
                    actor(p("from"), from)?;
                    actor(p("to"), to)?;
                    if *count == 0 || *count > 1000 {
                        return err(p("count"), "must be between 1 and 1000".into());
                    }
                }
                Fault::Failover { .. } => {
                    if self.lock.replica.is_none() {
                        return err(format!("faults[{i}].failover"), "a failover needs a replica: set lock.replica".into());
                    }
                }
            }
        }
        if let Some(fix) = &self.fix {
            if fix.set.is_empty() || fix.set.len() > 16 {
                return err("fix.set".into(), "a fix changes between 1 and 16 settings".into());
            }
        }
        teach::validate(self)?;
        Ok(())
    }

    fn validate_step(&self, p: &str, s: &Step) -> Result<(), ScenarioError> {
        let no_lock = self.lock.kind == LockKind::None;
        let e = |f: &str, m: String| Err(ScenarioError::at(format!("{p}.{f}"), m));
        let max = limits::DURATION_MS;
        match s {
            Step::Acquire { retry_ms, attempts, timeout_ms } => {
                if no_lock {
                    return e("acquire", "there is no lock service (lock.kind is none)".into());
                }
                if *retry_ms == 0 || *retry_ms > max {
                    return e("acquire.retry_ms", format!("must be between 1 and {max}"));
                }
                if *attempts == 0 || *attempts > limits::ATTEMPTS {
                    return e("acquire.attempts", format!("must be between 1 and {}", limits::ATTEMPTS));
                }
                if *timeout_ms == 0 || *timeout_ms > max {
                    return e("acquire.timeout_ms", format!("must be between 1 and {max}"));
                }
            }
            Step::Work { ms } if *ms > max => return e("work.ms", format!("must be at most {max}")),
            Step::Write { request, timeout_ms, retries, conditional, .. } => {
                if let Some(r) = request {
                    if r.is_empty() || r.len() > 64 {
                        return e("write.request", "use 1 to 64 characters".into());
                    }
                }
                if let Some(t) = timeout_ms {
                    if *t == 0 || *t > max {
                        return e("write.timeout_ms", format!("must be between 1 and {max}"));
                    }
                }
                if *retries > 100 {
                    return e("write.retries", "must be at most 100".into());
                }
                if *retries > 0 && timeout_ms.is_none() {
                    return e("write.retries", "retries need a timeout_ms to decide when to resend".into());
                }
                if *conditional && self.resource.kind != ResourceKind::Database {
                    return e("write.conditional", "conditional writes need a database (resource.kind: database)".into());
                }
            }
            Step::Renew {} if self.lock.kind == LockKind::Consensus => {
                return e("renew", "a consensus session renews itself with keepalives every TTL/3; remove this step".into());
            }
            Step::Renew {} if no_lock || self.lock.renew == RenewStyle::None => {
                return e("renew", "this lock service does not renew (lock.renew is none)".into());
            }
            Step::Release {} if no_lock => return e("release", "there is no lock service (lock.kind is none)".into()),
            Step::CheckDeadline { margin_ms } if *margin_ms > max => {
                return e("check_deadline.margin_ms", format!("must be at most {max}"));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The first place where `input` has a list and the scenario read from it (`output`) has an
/// object: a struct given by position.
fn list_for_object(input: &serde_json::Value, output: &serde_json::Value, path: String) -> Option<String> {
    use serde_json::Value::{Array, Object};
    let join = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    match (input, output) {
        (Array(_), Object(_)) => Some(path),
        (Object(a), Object(b)) => b.iter().find_map(|(k, vb)| a.get(k).and_then(|va| list_for_object(va, vb, join(k)))),
        (Array(a), Array(b)) => a.iter().zip(b).enumerate().find_map(|(i, (va, vb))| list_for_object(va, vb, format!("{path}[{i}]"))),
        _ => None,
    }
}

fn fault_name(f: &Fault) -> &'static str {
    match f {
        Fault::Pause { .. } => "pause",
        Fault::Crash { .. } => "crash",
        Fault::Restart { .. } => "restart",
        Fault::ClockJump { .. } => "clock_jump",
        Fault::Drift { .. } => "drift",
        Fault::Partition { .. } => "partition",
        Fault::Delay { .. } => "delay",
        Fault::Drop { .. } => "drop",
        Fault::Failover { .. } => "failover",
    }
}

/// The slot at a dot-separated path (`clients.1.steps.0.read.activate`), creating a missing
/// last key in an object (a field left at its default is absent from the JSON) or the item
/// just past the end of a list (`faults.2` of two faults appends one).
fn pointer_mut<'a>(v: &'a mut serde_json::Value, path: &str) -> Option<&'a mut serde_json::Value> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut cur = v;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        cur = match cur {
            serde_json::Value::Object(map) => {
                if last && !map.contains_key(*part) {
                    map.insert((*part).to_string(), serde_json::Value::Null);
                }
                map.get_mut(*part)?
            }
            serde_json::Value::Array(items) => {
                let i = part.parse::<usize>().ok()?;
                if last && i == items.len() {
                    items.push(serde_json::Value::Null);
                }
                items.get_mut(i)?
            }
            _ => return None,
        };
    }
    Some(cur)
}
