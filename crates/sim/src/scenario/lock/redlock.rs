//! Redlock: the client-side algorithm over `nodes` independent Redis masters, named A, B, C, …
//! (SEMANTICS §2). Its slice is `service/redlock/`.

use super::super::{limits, CounterStore, Scenario, ScenarioError, TokenKind};
use super::super::settings::{list, Kind, Section, Setting};
use super::{Declaration, Inspector, LockService, Situation};

/// The name of Redlock node `i`: A, B, C, …
pub fn node_name(i: usize) -> String {
    char::from(b'A' + i as u8).to_string()
}

/// Redlock, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Redlock",
    lock_word: "key",
    server_label: None,
    lanes: |l: &LockService| (0..l.nodes as usize).map(node_name).collect(),
    reserved: &[],
    settings: &[
        &list::TTL,
        &list::nodes("Nodes", "the number of Redis masters"),
        &list::lock_ms("lock.node_timeout_ms", "nodetimeout", "Per-node timeout", "Redlock's timeout per master", |s| s.lock.node_timeout_ms.to_string()),
        &Setting {
            path: "lock.parallel",
            id: "parallel",
            label: "Send the SETs",
            said: "Redlock's SETs to the masters",
            kind: Kind::Switch("one after another", "all at once"),
            section: Section::Lock,
            get: |s| list::on(s.lock.parallel),
            present: list::always,
        },
        &Setting {
            path: "lock.clock_drift_factor",
            id: "driftfactor",
            label: "Clock drift factor",
            said: "Redlock's clock drift factor",
            kind: Kind::Decimal,
            section: Section::Lock,
            get: |s| s.lock.clock_drift_factor.to_string(),
            present: list::always,
        },
        &list::RELEASE,
        &list::RENEW,
        &list::PERSISTENCE,
        &list::TOKEN_SOURCE,
    ],
    validate,
    renews_itself: None,
    inspector: Inspector::Holder { held: "lock key held by", free: "lock is free" },
    situations: Situation::ALL,
};

/// Its nodes, their timeout, and a counter it does not have.
fn validate(sc: &Scenario) -> Result<(), ScenarioError> {
    let l = &sc.lock;
    let err = |p: &str, m: String| Err(ScenarioError::at(p, m));
    if l.nodes == 0 || l.nodes > 9 {
        return err("lock.nodes", "Redlock needs between 1 and 9 nodes".into());
    }
    if l.replica.is_some() {
        return err("lock.replica", "Redlock's nodes are independent masters without replicas".into());
    }
    if l.node_timeout_ms == crate::time::Millis::ZERO || l.node_timeout_ms > limits::DURATION_MS {
        return err("lock.node_timeout_ms", format!("must be between 1 and {}", limits::DURATION_MS));
    }
    if sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis {
        return err("token.store", "Redlock has no counter of its own: a counter on one node is lost with that node; use durable".into());
    }
    Ok(())
}
