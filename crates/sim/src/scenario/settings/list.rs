//! The settings every scenario has ([`COMMON`]: the resource's, the network's and the run's),
//! and those several lock services share (each service lists its own in its declaration,
//! `scenario/lock/<module>.rs`, these among them).

use super::super::Scenario;
use super::{Kind, Section, Setting};
use crate::time::Millis;

pub(crate) fn always(_: &Scenario) -> bool {
    true
}

/// A choice's value as the scenario writes it (`compare-and-delete`).
pub(crate) fn written<T: crate::to_value::ToValue>(v: &T) -> String {
    v.to_value().as_str().unwrap_or_default().to_string()
}

pub(crate) fn on(b: bool) -> String {
    if b { "true" } else { "false" }.to_string()
}

/// The lease's TTL, as Redis, Redlock and the consensus service call it.
pub(crate) static TTL: Setting = Setting {
    path: "lock.ttl_ms",
    id: "ttl",
    label: "Lease TTL",
    said: "the lock's TTL",
    kind: Kind::Ms { min: Millis::new(1) },
    section: Section::Lock,
    get: |s| s.lock.ttl_ms.to_string(),
    present: always,
};

/// How long a failed leader goes unreplaced (consensus, ZooKeeper).
pub(crate) static ELECTION_TIMEOUT: Setting = Setting {
    path: "lock.election_timeout_ms",
    id: "electiontimeout",
    label: "Election timeout",
    said: "the election timeout",
    kind: Kind::Ms { min: Millis::new(1) },
    section: Section::Lock,
    get: |s| s.lock.election_timeout_ms.to_string(),
    present: always,
};

/// How a Redis client releases the lock.
pub(crate) static RELEASE: Setting = Setting {
    path: "lock.release",
    id: "release",
    label: "Release with",
    said: "how the lock is released",
    kind: Kind::Choice(&[("compare-and-delete", "compare-and-delete"), ("del", "plain DEL")]),
    section: Section::Lock,
    get: |s| written(&s.lock.release),
    present: always,
};

/// How a Redis client renews its lease.
pub(crate) static RENEW: Setting = Setting {
    path: "lock.renew",
    id: "renew",
    label: "Renew with",
    said: "how the lock is renewed",
    kind: Kind::Choice(&[("compare-and-extend", "compare-and-extend"), ("pexpire", "plain PEXPIRE"), ("none", "none")]),
    section: Section::Lock,
    get: |s| written(&s.lock.renew),
    present: always,
};

/// Whether a Redis node keeps its keys across a restart.
pub(crate) static PERSISTENCE: Setting = Setting {
    path: "lock.persistence",
    id: "persistence",
    label: "Persistence",
    said: "the lock servers' persistence",
    kind: Kind::Choice(&[("none", "none: lost on restart"), ("always", "fsync always")]),
    section: Section::Lock,
    get: |s| written(&s.lock.persistence),
    present: always,
};

/// Where tokens come from, when the lock service has none of its own.
pub(crate) static TOKEN_SOURCE: Setting = Setting {
    path: "token.source",
    id: "tokensource",
    label: "Token",
    said: "where tokens come from",
    kind: Kind::Choice(&[("counter", "a counter"), ("random-owner", "random owner value"), ("none", "none")]),
    section: Section::Resource,
    get: |s| written(&s.token.source),
    present: always,
};

/// Chubby's lock-delay (Burrows, OSDI '06, §2.4; SEMANTICS §5.4), which the model adds to the
/// consensus service and to ZooKeeper's ensemble: neither etcd nor ZooKeeper has one.
pub(crate) static LOCK_DELAY: Setting = Setting {
    path: "lock.lock_delay_ms",
    id: "lockdelay",
    label: "Lock-delay (Chubby's)",
    said: "the lock-delay",
    kind: Kind::Ms { min: Millis::ZERO },
    section: Section::Lock,
    get: |s| s.lock.lock_delay_ms.to_string(),
    present: always,
};

/// Where tokens come from, for a service whose token is its own (a consensus lock's key's revision, ZooKeeper's znode's zxid, a Lease's leaseTransitions): a random owner value is no token of theirs (validation says so).
pub(crate) static OWN_TOKEN: Setting = Setting {
    path: "token.source",
    id: "tokensource",
    label: "Token",
    said: "where tokens come from",
    kind: Kind::Choice(&[("counter", "the service's own"), ("none", "none")]),
    section: Section::Resource,
    get: |s| written(&s.token.source),
    present: always,
};

/// Every scenario's settings, in the editor's order, after its lock service's own.
pub static COMMON: &[Setting] = &[
    Setting {
        path: "resource.fencing",
        id: "fencing",
        label: "Resource checks tokens",
        said: "fencing at the resource",
        kind: Kind::Choice(&[("none", "no"), ("atomic", "atomically"), ("check-then-write", "check, then write")]),
        section: Section::Resource,
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
        get: |s| written(&s.resource.kind),
        present: always,
    },
    Setting {
        path: "resource.check_write_gap_ms",
        id: "gap",
        label: "From check to write",
        said: "the resource's time between its check and its write",
        kind: Kind::Ms { min: Millis::ZERO },
        section: Section::Resource,
        get: |s| s.resource.check_write_gap_ms.to_string(),
        present: |s| s.resource.fencing == crate::scenario::Fencing::CheckThenWrite,
    },
    Setting {
        path: "resource.idempotency",
        id: "idempotency",
        label: "Idempotency keys",
        said: "idempotent writes at the resource",
        kind: Kind::Switch("off", "on"),
        section: Section::Resource,
        get: |s| on(s.resource.idempotency),
        present: always,
    },
    // The network and the run.
    Setting {
        path: "network.latency_ms.0",
        id: "latencymin",
        label: "Latency from",
        said: "the network's latency, at least",
        kind: Kind::Ms { min: Millis::ZERO },
        section: Section::Run,
        get: |s| s.network.latency_ms[0].to_string(),
        present: always,
    },
    Setting {
        path: "network.latency_ms.1",
        id: "latencymax",
        label: "to",
        said: "the network's latency, at most",
        kind: Kind::Ms { min: Millis::ZERO },
        section: Section::Run,
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
        get: |s| s.seed.to_string(),
        present: always,
    },
    Setting {
        path: "duration_ms",
        id: "duration",
        label: "Duration",
        said: "the run's length",
        kind: Kind::Ms { min: Millis::new(1) },
        section: Section::Run,
        get: |s| s.duration_ms.to_string(),
        present: always,
    },
];

/// How many servers a service has (1 to 9), by what it calls them: "Members", "the number of
/// members".
pub(crate) const fn nodes(label: &'static str, said: &'static str) -> Setting {
    Setting {
        path: "lock.nodes",
        id: "nodes",
        label,
        said,
        kind: Kind::Count { min: 1, max: 9 },
        section: Section::Lock,
        get: |s| s.lock.nodes.to_string(),
        present: always,
    }
}

/// One of a service's durations in milliseconds (at least 1), at `path`, read by `get`.
pub(crate) const fn lock_ms(
    path: &'static str,
    id: &'static str,
    label: &'static str,
    said: &'static str,
    get: fn(&Scenario) -> String,
) -> Setting {
    Setting { path, id, label, said, kind: Kind::Ms { min: Millis::new(1) }, section: Section::Lock, get, present: always }
}
