//! The lock service and the token source of a scenario.

use serde::{Deserialize, Serialize};

use super::settings::{self, Setting};
use super::{Scenario, ScenarioError};
use crate::from_value::fields;
use crate::time::Millis;

/// What the scenario's layer knows of a lock service, declared once in its file under
/// `scenario/lock/` (`<module>::DECLARATION`): its labels, its lanes' names, its settings and
/// its own validation. The engine's side of the service is its slice, `service/<module>/`.
pub struct Declaration {
    /// What the lab calls the service, over its settings.
    pub title: &'static str,
    /// What the service's lock is called on a server's lane: a key, a znode, the Lease.
    pub lock_word: &'static str,
    /// The words under a server's lane, as the leader and otherwise (`None` for a Redis lane).
    pub server_label: Option<[&'static str; 2]>,
    /// The names of its servers' lanes, in lane order.
    pub lanes: fn(&LockService) -> Vec<String>,
    /// The lane names it may give a server, which no client may take, whatever the scenario's
    /// lock service (a scenario switched to this service later must still be valid).
    pub reserved: &'static [&'static str],
    /// Its own settings, in the editor's order (every scenario's follow: `settings::COMMON`).
    pub settings: &'static [&'static Setting],
    /// What it refuses of the lock service's settings and the token source, beyond the checks
    /// every scenario has (`scenario/validate/lock.rs`).
    pub validate: fn(&Scenario) -> Result<(), ScenarioError>,
    /// Why a client's `renew` step is refused, when its clients renew by themselves.
    pub renews_itself: Option<&'static str>,
    /// How the inspector shows its servers' lanes.
    pub inspector: Inspector,
    /// The dangerous situations a search on its runs should reach (issue 51's coverage).
    pub situations: &'static [Situation],
}

/// How the inspector shows a lock server's lane at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inspector {
    /// The one holder of its lock: "lock key held by A" (`held`), "lock is free" (`free`).
    Holder { held: &'static str, free: &'static str },
    /// Leader or follower, and the lock's queue, lowest first, each key by its `number`
    /// ("revision", "czxid").
    Queue { number: &'static str },
}

/// No lock service at all: the clients rely on the resource alone.
const NONE: Declaration = Declaration {
    title: "No lock service",
    lock_word: "key",
    server_label: None,
    lanes: |_| Vec::new(),
    reserved: &[],
    settings: &[&settings::list::TOKEN_SOURCE],
    validate: |_| Ok(()),
    renews_itself: None,
    inspector: Inspector::Holder { held: "lock key held by", free: "lock is free" },
    situations: &[Situation::OlderToken],
};

/// [`LockKind`], its JSON names and each service's declaration module, from the list.
macro_rules! kinds {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        $(pub mod $module;)*

        /// Which lock service the clients use (each one's declaration says what it is).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        pub enum LockKind {
            $(
                #[doc = concat!("The `", $json, "` lock service (`scenario::lock::", stringify!($module), "`).")]
                #[serde(rename = $json)]
                $arm,
            )*
            /// No lock service at all (the clients rely on the resource alone).
            #[serde(rename = "none")]
            None,
        }

        impl LockKind {
            /// Every kind, in the order the lab offers them.
            pub const ALL: &'static [LockKind] = &[$(LockKind::$arm,)* LockKind::None];

            /// What the scenario's layer knows of the service.
            pub fn declaration(self) -> &'static Declaration {
                match self {
                    $(LockKind::$arm => &$module::DECLARATION,)*
                    LockKind::None => &NONE,
                }
            }
        }

        crate::from_value::unit_enums! {
            LockKind { $($json => LockKind::$arm,)* "none" => LockKind::None }
        }
    };
}
crate::registry::services!(kinds);

mod situation;
mod strays;
pub use situation::Situation;

impl LockKind {
    /// What the lab calls the service, over its settings.
    pub fn title(self) -> &'static str {
        self.declaration().title
    }

    /// What the service's lock is called on a server's lane: a key, a znode, the Lease.
    pub fn lock_word(self) -> &'static str {
        self.declaration().lock_word
    }

    /// The words under a server's lane (`leads`: it is the leader now); `None` for a Redis lane.
    pub fn server_label(self, leads: bool) -> Option<&'static str> {
        self.declaration().server_label.map(|[leader, other]| if leads { leader } else { other })
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

/// Declares [`LockService`] once: each field with its serde attributes (the specification,
/// `tests/from_value.rs`), then `= default` when it may be left out and `, unless skip` when it
/// is left out of the JSON at its default; its reader and writer are made from the same list,
/// so a new setting is one line here (and its declaration in its service's file).
macro_rules! lock_service {
    ($($(#[$meta:meta])* $field:ident: $ty:ty $(= $default:expr)? $(, unless $skip:path)?;)*) => {
        /// The lock service and its settings (one flat object in the JSON; each service reads
        /// the fields it has, and its declaration lists them).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct LockService {
            $($(#[$meta])* pub $field: $ty,)*
        }

        impl crate::from_value::FromValue for LockService {
            fn read(v: &crate::json::Value, at: &crate::from_value::Path) -> crate::from_value::Read<Self> {
                fields!(v, at, "struct LockService", LockService { $($field $(= $default)?),* })
            }
        }

        impl crate::to_value::ToValue for LockService {
            fn to_value(&self) -> crate::json::Value {
                let o = crate::to_value::Object::new();
                $(let o = o.put_unless(false $(|| $skip(&self.$field))?, stringify!($field), &self.$field);)*
                o.done()
            }
        }
    };
}

lock_service! {
    kind: LockKind;
    /// The lease time given to `SET ... PX`.
    #[serde(default = "default_ttl")]
    ttl_ms: Millis = default_ttl();
    #[serde(default = "default_release")]
    release: ReleaseStyle = default_release();
    #[serde(default = "default_renew")]
    renew: RenewStyle = default_renew();
    #[serde(default = "default_persistence")]
    persistence: Persistence = default_persistence();
    /// An asynchronously replicated replica, promoted by a `failover` fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    replica: Option<Replica> = None, unless Option::is_none;
    /// Redlock: how many independent masters (named A, B, C, …).
    #[serde(default = "default_nodes", skip_serializing_if = "is_default_nodes")]
    nodes: u8 = default_nodes(), unless is_default_nodes;
    /// Redlock: how long the client waits for one node before counting it as failed.
    #[serde(default = "default_node_timeout", skip_serializing_if = "is_default_node_timeout")]
    node_timeout_ms: Millis = default_node_timeout(), unless is_default_node_timeout;
    /// Redlock: send the SETs to all nodes at once (as node-redlock and redsync do) rather than
    /// one after another (as the Redis docs and redlock-rb do).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    parallel: bool = false, unless std::ops::Not::not;
    /// Redlock: drift = TTL × this + 2 ms (redlock-rb, redlock-py, node-redlock).
    #[serde(default = "default_drift_factor", skip_serializing_if = "is_default_drift_factor")]
    clock_drift_factor: f64 = default_drift_factor(), unless is_default_drift_factor;
    /// Consensus: how long a failed leader goes unreplaced (etcd's default is 1000 ms).
    #[serde(default = "default_election", skip_serializing_if = "is_default_election")]
    election_timeout_ms: Millis = default_election(), unless is_default_election;
    /// Consensus: after waiting for its predecessor, check that the waiter's own key (its
    /// session) still exists before saying it holds the lock. `false` reproduces the etcd bug
    /// found by Jepsen (etcd-io/etcd#11456).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    recheck_after_wait: bool = yes(), unless is_yes;
    /// Consensus and ZooKeeper: Chubby's lock-delay (Burrows, OSDI '06, §2.4): after a holder
    /// is lost (its lease or session expired; not a release), the lock is granted to no one else
    /// for this long. Neither etcd nor ZooKeeper has one; 0, the default, is their behaviour. At
    /// most 60,000 (Chubby's bound, one minute).
    #[serde(default, skip_serializing_if = "is_zero")]
    lock_delay_ms: Millis = Millis::ZERO, unless is_zero;
    /// Kubernetes: how long a leader keeps trying to renew before it stops leading (client-go's
    /// RenewDeadline; core clients use 10 s).
    #[serde(default = "default_renew_deadline", skip_serializing_if = "is_default_renew_deadline")]
    renew_deadline_ms: Millis = default_renew_deadline(), unless is_default_renew_deadline;
    /// Kubernetes: how long a candidate or leader waits between tries (client-go's RetryPeriod;
    /// core clients use 2 s).
    #[serde(default = "default_retry_period", skip_serializing_if = "is_default_retry_period")]
    retry_period_ms: Millis = default_retry_period(), unless is_default_retry_period;
    /// Redis: the client is Redisson's, whose lock watchdog renews the lock in the background
    /// while its program works (a lock taken without a leaseTime): `ttl_ms` is then its
    /// `lockWatchdogTimeout`, renewed every third of it (SEMANTICS §2.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    watchdog: bool = false, unless std::ops::Not::not;
    /// Redis with a replica: failovers are Redis Sentinel's (SEMANTICS §1.5). A failover does
    /// not stop a primary that is still up: it goes on answering the clients that can reach it
    /// and not the new primary, until it can reach the new primary again and Sentinel makes it
    /// a replica of it, discarding its data.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    sentinel: bool = false, unless std::ops::Not::not;
    /// Pacemaker pair: how often a node sends its peer a heartbeat (Heartbeat's `keepalive`);
    /// `ttl_ms` is its `deadtime`.
    #[serde(default = "pacemaker::keepalive", skip_serializing_if = "pacemaker::is_keepalive")]
    keepalive_ms: Millis = pacemaker::keepalive(), unless pacemaker::is_keepalive;
    /// Pacemaker pair: how long a node waits for its fencing request's answer before asking
    /// again (Pacemaker's `stonith-timeout`, 60 s by default).
    #[serde(default = "pacemaker::stonith_timeout", skip_serializing_if = "pacemaker::is_stonith_timeout")]
    stonith_timeout_ms: Millis = pacemaker::stonith_timeout(), unless pacemaker::is_stonith_timeout;
    /// Pacemaker pair: a node that declares its peer dead takes over only once the peer's fence
    /// device has confirmed the power cut (Pacemaker with `stonith-enabled`, DRBD's `fencing
    /// resource-and-stonith`); `false` takes over at the deadtime, as GitHub's pairs did (2012).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    fence_first: bool = false, unless std::ops::Not::not;
}

fn default_renew_deadline() -> Millis {
    Millis::new(10_000)
}
fn is_default_renew_deadline(n: &Millis) -> bool {
    *n == default_renew_deadline()
}
fn default_retry_period() -> Millis {
    Millis::new(2_000)
}
fn is_default_retry_period(n: &Millis) -> bool {
    *n == default_retry_period()
}

fn default_election() -> Millis {
    Millis::new(1000)
}
fn is_default_election(n: &Millis) -> bool {
    *n == default_election()
}
fn is_zero(n: &Millis) -> bool {
    *n == Millis::ZERO
}
/// Chubby's bound on a lock-delay: one minute (Burrows, OSDI '06, §2.4).
pub const LOCK_DELAY_MS_MAX: Millis = Millis::new(60_000);
fn yes() -> bool {
    true
}
fn is_yes(b: &bool) -> bool {
    *b
}

fn default_nodes() -> u8 {
    5
}
fn is_default_nodes(n: &u8) -> bool {
    *n == 5
}
fn default_node_timeout() -> Millis {
    Millis::new(50)
}
fn is_default_node_timeout(n: &Millis) -> bool {
    *n == default_node_timeout()
}
fn default_drift_factor() -> f64 {
    0.01
}
fn is_default_drift_factor(f: &f64) -> bool {
    *f == 0.01
}

fn default_ttl() -> Millis {
    Millis::new(10_000)
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
    pub lag_ms: Millis,
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
