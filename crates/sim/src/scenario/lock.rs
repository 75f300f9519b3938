//! The lock service and the token source of a scenario.

use serde::{Deserialize, Serialize};

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
    /// ZooKeeper: `nodes` servers (an ensemble with a leader), sessions kept alive by pings
    /// and expired by the leader after `ttl_ms` (the session timeout), and the lock recipe of
    /// ephemeral sequential znodes.
    #[serde(rename = "zookeeper")]
    ZooKeeper,
    /// Kubernetes leader election: a `Lease` object (coordination.k8s.io/v1) on an API server
    /// whose updates are optimistic (resourceVersion), and candidates that follow client-go's
    /// `leaderelection`: `ttl_ms` is its LeaseDuration, with `renew_deadline_ms` and
    /// `retry_period_ms` (`service::kubernetes`).
    Kubernetes,
    /// No lock service at all (the clients rely on the resource alone).
    None,
}

impl LockKind {
    /// What the lab calls the service, over its settings.
    pub fn title(self) -> &'static str {
        match self {
            LockKind::Redis => "Lock service (Redis)",
            LockKind::Redlock => "Redlock",
            LockKind::Consensus => "Lock service (etcd-like consensus)",
            LockKind::ZooKeeper => "Lock service (ZooKeeper)",
            LockKind::Kubernetes => "Lock service (Kubernetes Lease)",
            LockKind::None => "No lock service",
        }
    }

    /// What the service's lock is called on a server's lane: a key, a znode, the Lease.
    pub fn lock_word(self) -> &'static str {
        match self {
            LockKind::ZooKeeper => "znode",
            LockKind::Kubernetes => "Lease",
            _ => "key",
        }
    }

    /// The words under a server's lane (`leads`: it is the leader now); `None` for a Redis lane.
    pub fn server_label(self, leads: bool) -> Option<&'static str> {
        Some(match self {
            LockKind::ZooKeeper if leads => "ZooKeeper · leader",
            LockKind::ZooKeeper => "ZooKeeper server",
            LockKind::Kubernetes => "API server (Lease)",
            LockKind::Consensus if leads => "member · leader",
            LockKind::Consensus => "etcd-like member",
            _ => return None,
        })
    }
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
    /// Consensus: Chubby's lock-delay (Burrows, OSDI '06, §2.4): after a holder is lost (its
    /// lease expired; not a release), the lock is granted to no one else for this long. etcd
    /// has none; 0, the default, is its behaviour. At most 60,000 (Chubby's bound, one minute).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lock_delay_ms: u64,
    /// Kubernetes: how long a leader keeps trying to renew before it stops leading (client-go's
    /// RenewDeadline; core clients use 10 s).
    #[serde(default = "default_renew_deadline", skip_serializing_if = "is_default_renew_deadline")]
    pub renew_deadline_ms: u64,
    /// Kubernetes: how long a candidate or leader waits between tries (client-go's RetryPeriod;
    /// core clients use 2 s).
    #[serde(default = "default_retry_period", skip_serializing_if = "is_default_retry_period")]
    pub retry_period_ms: u64,
    /// Redis: the client is Redisson's, whose lock watchdog renews the lock in the background
    /// while its program works (a lock taken without a leaseTime): `ttl_ms` is then its
    /// `lockWatchdogTimeout`, renewed every third of it (SEMANTICS §2.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub watchdog: bool,
}

pub(super) fn default_renew_deadline() -> u64 {
    10_000
}
pub(super) fn is_default_renew_deadline(n: &u64) -> bool {
    *n == 10_000
}
pub(super) fn default_retry_period() -> u64 {
    2_000
}
pub(super) fn is_default_retry_period(n: &u64) -> bool {
    *n == 2_000
}

/// The lane of the Kubernetes API server that keeps the `Lease`.
pub const APISERVER: &str = "apiserver";

pub(super) fn default_election() -> u64 {
    1000
}
pub(super) fn is_default_election(n: &u64) -> bool {
    *n == 1000
}
pub(super) fn is_zero(n: &u64) -> bool {
    *n == 0
}
/// Chubby's bound on a lock-delay: one minute (Burrows, OSDI '06, §2.4).
pub const LOCK_DELAY_MS_MAX: u64 = 60_000;
pub(super) fn yes() -> bool {
    true
}
pub(super) fn is_yes(b: &bool) -> bool {
    *b
}

/// etcd's minimum lease TTL: ceil((3 × electionTicks / 2) × heartbeat) seconds, that is 1.5 ×
/// the election timeout rounded up to whole seconds (2 s with the defaults). Shorter requests are
/// raised to it (SEMANTICS §4.1).
pub fn min_lease_ttl_ms(election_timeout_ms: u64) -> u64 {
    (election_timeout_ms * 3 / 2).div_ceil(1000) * 1000
}

/// The name of ZooKeeper server `i`: zk1, zk2, …
pub fn zk_name(i: usize) -> String {
    format!("zk{}", i + 1)
}

/// ZooKeeper's bounds on a session timeout: 2 to 20 ticks of the sample configuration's
/// `tickTime=2000` (SEMANTICS §5.1).
pub const ZK_SESSION_TIMEOUT_MS: [u64; 2] = [4_000, 40_000];

/// The name of consensus member `i`: m1, m2, …
pub fn member_name(i: usize) -> String {
    format!("m{}", i + 1)
}

pub(super) fn default_nodes() -> u8 {
    5
}
pub(super) fn is_default_nodes(n: &u8) -> bool {
    *n == 5
}
pub(super) fn default_node_timeout() -> u64 {
    50
}
pub(super) fn is_default_node_timeout(n: &u64) -> bool {
    *n == 50
}
pub(super) fn default_drift_factor() -> f64 {
    0.01
}
pub(super) fn is_default_drift_factor(f: &f64) -> bool {
    *f == 0.01
}

/// The name of Redlock node `i`: A, B, C, …
pub fn node_name(i: usize) -> String {
    char::from(b'A' + i as u8).to_string()
}

pub(super) fn default_ttl() -> u64 {
    10_000
}
pub(super) fn default_release() -> ReleaseStyle {
    ReleaseStyle::CompareAndDelete
}
pub(super) fn default_renew() -> RenewStyle {
    RenewStyle::CompareAndExtend
}
pub(super) fn default_persistence() -> Persistence {
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

pub(super) fn default_token_start() -> u64 {
    1
}
pub(super) fn default_store() -> CounterStore {
    CounterStore::Durable
}

impl Default for TokenSource {
    fn default() -> Self {
        TokenSource { source: TokenKind::None, start: 1, store: CounterStore::Durable }
    }
}
