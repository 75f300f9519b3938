//! A single Redis primary (optionally with an asynchronously replicated replica): the lock is
//! a key set with `SET NX PX` (SEMANTICS §1). Its slice is `service/redis/`.

use super::super::settings::{list, Kind, Section, Setting};
use super::{Declaration, Inspector, LockService, Situation};
use crate::time::Millis;

/// The Redis service, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Lock service (Redis)",
    lock_word: "key",
    server_label: None,
    lanes: |l: &LockService| if l.replica.is_some() { vec!["redis".into(), "replica".into()] } else { vec!["redis".into()] },
    reserved: &["redis", "replica"],
    settings: &[
        &list::TTL,
        &list::RELEASE,
        &list::RENEW,
        // Redisson's lock watchdog (SEMANTICS §2.5): the TTL is then its lockWatchdogTimeout.
        &Setting {
            path: "lock.watchdog",
            id: "watchdog",
            label: "Watchdog (Redisson)",
            said: "Redisson's lock watchdog",
            kind: Kind::Switch("off", "on"),
            section: Section::Lock,
            get: |s| list::on(s.lock.watchdog),
            present: list::always,
        },
        &list::PERSISTENCE,
        &Setting {
            path: "lock.replica.lag_ms",
            id: "replicalag",
            label: "Replication lag",
            said: "the replica's lag behind the primary",
            kind: Kind::Ms { min: Millis::ZERO },
            section: Section::Lock,
            get: |s| s.lock.replica.as_ref().map_or(Millis::ZERO, |r| r.lag_ms).to_string(),
            present: |s| s.lock.replica.is_some(),
        },
        // Redis Sentinel's failovers (SEMANTICS §1.5), for a primary with a replica.
        &Setting {
            path: "lock.sentinel",
            id: "sentinel",
            label: "Failover by Sentinel",
            said: "failover by Redis Sentinel",
            kind: Kind::Switch("off", "on"),
            section: Section::Lock,
            get: |s| list::on(s.lock.sentinel),
            present: |s| s.lock.replica.is_some(),
        },
        &list::TOKEN_SOURCE,
        &Setting {
            path: "token.store",
            id: "tokenstore",
            label: "Counter kept",
            said: "where the token counter is kept",
            kind: Kind::Choice(&[("durable", "durably"), ("redis", "on the Redis node")]),
            section: Section::Resource,
            get: |s| list::written(&s.token.store),
            present: |s| s.token.source == crate::scenario::TokenKind::Counter,
        },
    ],
    validate: |_| Ok(()),
    renews_itself: None,
    inspector: Inspector::Holder { held: "lock key held by", free: "lock is free" },
    situations: Situation::ALL,
};
