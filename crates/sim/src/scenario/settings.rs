//! Every setting a reader can change, declared once: where it is in the scenario (its path, as
//! a fix's `set` and a link's `set=` name it), what it is called, what kind of value it takes,
//! and which lock services have it (every kind of fault, with its fields, is declared beside it
//! in `fault_kinds.rs`). The lab's editor is made from these lists, so that a setting the
//! engine has is one the lab can change.
//!
//! Reading, writing and validating a scenario stay with its types (`read.rs`, `write.rs`,
//! `validate.rs`): a value set through a path is checked by validation like any other.

use super::{LockKind, Scenario};

/// What kind of value a setting takes, and how it is typed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number of milliseconds, at least `min`.
    Ms { min: u64 },
    /// A whole number of milliseconds that may be negative (a clock stepped back).
    SignedMs,
    /// Parts per million of a clock's rate, either way.
    Ppm,
    /// A whole number from `min` to `max`.
    Count { min: u64, max: u64 },
    /// A decimal number (Redlock's drift factor).
    Decimal,
    /// One of these values: (as the scenario writes it, as the lab says it).
    Choice(&'static [(&'static str, &'static str)]),
    /// On or off, with what each side is called: (off, on).
    Switch(&'static str, &'static str),
}

/// Which part of the editor a setting is shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The lock service's own settings (a fieldset titled by the service).
    Lock,
    /// Fencing tokens and the resource.
    Resource,
    /// The network and the run.
    Run,
}

/// One setting.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// Its place in the scenario: `lock.ttl_ms`.
    pub path: &'static str,
    /// The stable part of its field's id in the page (`f-ttl`), which links and tests name.
    pub id: &'static str,
    /// What the editor calls it: "Lease TTL".
    pub label: &'static str,
    /// What a notice of its change calls it: "the lock's TTL".
    pub said: &'static str,
    pub kind: Kind,
    pub section: Section,
    /// The lock services that have it (empty: every scenario has it).
    pub services: &'static [LockKind],
    /// Its value in `sc`, as the editor shows it (a choice as the scenario writes it).
    pub get: fn(&Scenario) -> String,
    /// Whether `sc` has it beyond its lock service (a replica's lag: only with a replica).
    pub present: fn(&Scenario) -> bool,
}

impl Setting {
    /// Whether scenario `sc` has this setting.
    pub fn applies(&self, sc: &Scenario) -> bool {
        (self.services.is_empty() || self.services.contains(&sc.lock.kind)) && (self.present)(sc)
    }
}

fn always(_: &Scenario) -> bool {
    true
}

/// A choice's value as the scenario writes it (`compare-and-delete`).
fn written<T: crate::to_value::ToValue>(v: &T) -> String {
    v.to_value().as_str().unwrap_or_default().to_string()
}

fn on(b: bool) -> String {
    if b { "true" } else { "false" }.to_string()
}

use LockKind::{Consensus, Redis, Redlock, ZooKeeper};

const PERSISTENCE: Kind = Kind::Choice(&[("none", "none: lost on restart"), ("always", "fsync always")]);

/// Every setting, in the editor's order.
pub static SETTINGS: &[Setting] = &[
    // The lock service: the same field is called what its service calls it.
    Setting {
        path: "lock.ttl_ms",
        id: "ttl",
        label: "Lease TTL",
        said: "the lock's TTL",
        kind: Kind::Ms { min: 1 },
        section: Section::Lock,
        services: &[Redis, Redlock, Consensus],
        get: |s| s.lock.ttl_ms.to_string(),
        present: always,
    },
    Setting {
        path: "lock.ttl_ms",
        id: "ttl",
        label: "Session timeout",
        said: "ZooKeeper's session timeout",
        kind: Kind::Ms { min: super::ZK_SESSION_TIMEOUT_MS[0] },
        section: Section::Lock,
        services: &[ZooKeeper],
        get: |s| s.lock.ttl_ms.to_string(),
        present: always,
    },
    Setting {
        path: "lock.nodes",
        id: "nodes",
        label: "Nodes",
        said: "the number of Redis masters",
        kind: Kind::Count { min: 1, max: 9 },
        section: Section::Lock,
        services: &[Redlock],
        get: |s| s.lock.nodes.to_string(),
        present: always,
    },
    Setting {
        path: "lock.nodes",
        id: "nodes",
        label: "Members",
        said: "the number of members",
        kind: Kind::Count { min: 1, max: 9 },
        section: Section::Lock,
        services: &[Consensus],
        get: |s| s.lock.nodes.to_string(),
        present: always,
    },
    Setting {
        path: "lock.nodes",
        id: "nodes",
        label: "Servers",
        said: "the number of ZooKeeper servers",
        kind: Kind::Count { min: 1, max: 9 },
        section: Section::Lock,
        services: &[ZooKeeper],
        get: |s| s.lock.nodes.to_string(),
        present: always,
    },
    Setting {
        path: "lock.node_timeout_ms",
        id: "nodetimeout",
        label: "Per-node timeout",
        said: "Redlock's timeout per master",
        kind: Kind::Ms { min: 1 },
        section: Section::Lock,
        services: &[Redlock],
        get: |s| s.lock.node_timeout_ms.to_string(),
        present: always,
    },
    Setting {
        path: "lock.parallel",
        id: "parallel",
        label: "Send the SETs",
        said: "Redlock's SETs to the masters",
        kind: Kind::Switch("one after another", "all at once"),
        section: Section::Lock,
        services: &[Redlock],
        get: |s| on(s.lock.parallel),
        present: always,
    },
    Setting {
        path: "lock.clock_drift_factor",
        id: "driftfactor",
        label: "Clock drift factor",
        said: "Redlock's clock drift factor",
        kind: Kind::Decimal,
        section: Section::Lock,
        services: &[Redlock],
        get: |s| s.lock.clock_drift_factor.to_string(),
        present: always,
    },
    Setting {
        path: "lock.election_timeout_ms",
        id: "electiontimeout",
        label: "Election timeout",
        said: "the election timeout",
        kind: Kind::Ms { min: 1 },
        section: Section::Lock,
        services: &[Consensus, ZooKeeper],
        get: |s| s.lock.election_timeout_ms.to_string(),
        present: always,
    },
    Setting {
        path: "lock.recheck_after_wait",
        id: "recheck",
        label: "Check its key after the wait",
        said: "the session checked again after the wait",
        kind: Kind::Switch("off", "on"),
        section: Section::Lock,
        services: &[Consensus],
        get: |s| on(s.lock.recheck_after_wait),
        present: always,
    },
    Setting {
        path: "lock.release",
        id: "release",
        label: "Release with",
        said: "how the lock is released",
        kind: Kind::Choice(&[("compare-and-delete", "compare-and-delete"), ("del", "plain DEL")]),
        section: Section::Lock,
        services: &[Redis, Redlock],
        get: |s| written(&s.lock.release),
        present: always,
    },
    Setting {
        path: "lock.renew",
        id: "renew",
        label: "Renew with",
        said: "how the lock is renewed",
        kind: Kind::Choice(&[("compare-and-extend", "compare-and-extend"), ("pexpire", "plain PEXPIRE"), ("none", "none")]),
        section: Section::Lock,
        services: &[Redis, Redlock],
        get: |s| written(&s.lock.renew),
        present: always,
    },
    Setting {
        path: "lock.persistence",
        id: "persistence",
        label: "Persistence",
        said: "the lock servers' persistence",
        kind: PERSISTENCE,
        section: Section::Lock,
        services: &[Redis, Redlock],
        get: |s| written(&s.lock.persistence),
        present: always,
    },
    Setting {
        path: "lock.replica.lag_ms",
        id: "replicalag",
        label: "Replication lag",
        said: "the replica's lag behind the primary",
        kind: Kind::Ms { min: 0 },
        section: Section::Lock,
        services: &[Redis],
        get: |s| s.lock.replica.as_ref().map_or(0, |r| r.lag_ms).to_string(),
        present: |s| s.lock.replica.is_some(),
    },
    // Fencing tokens and the resource.
    Setting {
        path: "token.source",
        id: "tokensource",
        label: "Token",
        said: "where tokens come from",
        kind: Kind::Choice(&[("counter", "a counter"), ("random-owner", "random owner value"), ("none", "none")]),
        section: Section::Resource,
        services: &[Redis, Redlock, LockKind::None],
        get: |s| written(&s.token.source),
        present: always,
    },
    // A consensus lock's token is its key's revision, ZooKeeper's its znode's zxid: a random
    // owner value is no token of theirs (validation says so).
    Setting {
        path: "token.source",
        id: "tokensource",
        label: "Token",
        said: "where tokens come from",
        kind: Kind::Choice(&[("counter", "the service's own"), ("none", "none")]),
        section: Section::Resource,
        services: &[Consensus, ZooKeeper],
        get: |s| written(&s.token.source),
        present: always,
    },
    Setting {
        path: "token.store",
        id: "tokenstore",
        label: "Counter kept",
        said: "where the token counter is kept",
        kind: Kind::Choice(&[("durable", "durably"), ("redis", "on the Redis node")]),
        section: Section::Resource,
        services: &[Redis],
        get: |s| written(&s.token.store),
        present: |s| s.token.source == super::TokenKind::Counter,
    },
    Setting {
        path: "resource.fencing",
        id: "fencing",
        label: "Resource checks tokens",
        said: "fencing at the resource",
        kind: Kind::Choice(&[("none", "no"), ("atomic", "atomically"), ("check-then-write", "check, then write")]),
        section: Section::Resource,
        services: &[],
        get: |s| written(&s.resource.fencing),
        present: always,
    },
    Setting {
        path: "resource.kind",
        id: "resourcekind",
        label: "Resource",
        said: "the resource's kind",
        kind: Kind::Choice(&[("store", "storage service"), ("database", "database"), ("external", "external API")]),
        section: Section::Resource,
        services: &[],
        get: |s| written(&s.resource.kind),
        present: always,
    },
    Setting {
        path: "resource.check_write_gap_ms",
        id: "gap",
        label: "From check to write",
        said: "the resource's time between its check and its write",
        kind: Kind::Ms { min: 0 },
        section: Section::Resource,
        services: &[],
        get: |s| s.resource.check_write_gap_ms.to_string(),
        present: |s| s.resource.fencing == super::Fencing::CheckThenWrite,
    },
    Setting {
        path: "resource.idempotency",
        id: "idempotency",
        label: "Idempotency keys",
        said: "idempotent writes at the resource",
        kind: Kind::Switch("off", "on"),
        section: Section::Resource,
        services: &[],
        get: |s| on(s.resource.idempotency),
        present: always,
    },
    // The network and the run.
    Setting {
        path: "network.latency_ms.0",
        id: "latencymin",
        label: "Latency from",
        said: "the network's latency, at least",
        kind: Kind::Ms { min: 0 },
        section: Section::Run,
        services: &[],
        get: |s| s.network.latency_ms[0].to_string(),
        present: always,
    },
    Setting {
        path: "network.latency_ms.1",
        id: "latencymax",
        label: "to",
        said: "the network's latency, at most",
        kind: Kind::Ms { min: 0 },
        section: Section::Run,
        services: &[],
        get: |s| s.network.latency_ms[1].to_string(),
        present: always,
    },
    Setting {
        path: "seed",
        id: "seed",
        label: "Seed",
        said: "the random seed",
        kind: Kind::Count { min: 0, max: (1 << 53) - 1 },
        section: Section::Run,
        services: &[],
        get: |s| s.seed.to_string(),
        present: always,
    },
    Setting {
        path: "duration_ms",
        id: "duration",
        label: "Duration",
        said: "the run's length",
        kind: Kind::Ms { min: 1 },
        section: Section::Run,
        services: &[],
        get: |s| s.duration_ms.to_string(),
        present: always,
    },
];

/// The settings scenario `sc` has, in the editor's order.
pub fn settings_of(sc: &Scenario) -> impl Iterator<Item = &'static Setting> + '_ {
    SETTINGS.iter().filter(|s| s.applies(sc))
}

/// The setting at `path` that `sc` has.
pub fn setting(sc: &Scenario, path: &str) -> Option<&'static Setting> {
    settings_of(sc).find(|s| s.path == path)
}
