//! A Pacemaker/Heartbeat failover pair: the scenario's two clients are its nodes, each
//! watching the other's heartbeats (`keepalive_ms`; `ttl_ms` is Heartbeat's `deadtime`), and a
//! fence device per node (STONITH), asked again after `stonith_timeout_ms`. `fence_first`: a
//! node takes over only once its peer's power cut is confirmed. Its slice is `service/pacemaker/`.

use super::super::settings::{list, Kind, Section, Setting};
use super::super::{limits, Scenario, ScenarioError, Step, TokenKind};
use super::{Declaration, Inspector, Situation};
use crate::time::Millis;

/// The lanes of the two nodes' fence devices, in the nodes' order.
pub const FENCES: [&str; 2] = ["fence-a", "fence-b"];

/// A Pacemaker pair, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Failover pair (Pacemaker, Heartbeat)",
    lock_word: "resource",
    server_label: Some(["fence device (STONITH)", "fence device (STONITH)"]),
    lanes: |_| FENCES.iter().map(|f| f.to_string()).collect(),
    reserved: &FENCES,
    settings: &[
        &list::lock_ms("lock.keepalive_ms", "keepalive", "Heartbeat every", "the heartbeat interval", |s| s.lock.keepalive_ms.to_string()),
        &list::lock_ms("lock.ttl_ms", "ttl", "Deadtime", "the deadtime", |s| s.lock.ttl_ms.to_string()),
        &list::lock_ms("lock.stonith_timeout_ms", "stonithtimeout", "STONITH timeout", "the stonith timeout", |s| s.lock.stonith_timeout_ms.to_string()),
        &Setting {
            path: "lock.fence_first",
            id: "fencefirst",
            label: "Fence before taking over",
            said: "whether a node waits for the power cut before taking over",
            kind: Kind::Switch("off", "on"),
            section: Section::Lock,
            get: |s| list::on(s.lock.fence_first),
            present: list::always,
        },
    ],
    validate,
    renews_itself: Some("a node of a Pacemaker pair sends its heartbeats by itself; remove this step"),
    inspector: Inspector::Holder { held: "cuts its node's power when asked", free: "cuts its node's power when asked" },
    situations: Situation::SERVICE,
};

/// A pair has two nodes, heartbeats more often than its deadtime, and no token to give.
fn validate(sc: &Scenario) -> Result<(), ScenarioError> {
    let l = &sc.lock;
    let bad = if sc.clients.len() != 2 {
        Some(("clients".to_string(), format!("a Pacemaker pair has exactly two nodes, the scenario's two clients; it has {}", sc.clients.len())))
    } else if l.replica.is_some() {
        Some(("lock.replica".into(), "a pair has no lock server to replicate; remove lock.replica".into()))
    } else if l.keepalive_ms == Millis::ZERO || l.keepalive_ms >= l.ttl_ms {
        Some(("lock.keepalive_ms".into(), "must be at least 1 and less than the deadtime (lock.ttl_ms)".into()))
    } else if l.stonith_timeout_ms == Millis::ZERO || l.stonith_timeout_ms > limits::DURATION_MS {
        Some(("lock.stonith_timeout_ms".into(), format!("must be between 1 and {}", limits::DURATION_MS)))
    } else if sc.token.source != TokenKind::None {
        Some(("token.source".into(), "a pair hands out no tokens (nothing counts its takeovers): use none".into()))
    } else {
        sc.clients.iter().enumerate().find_map(|(i, c)| {
            let j = c.steps.iter().position(|s| matches!(s, Step::CheckDeadline { .. }))?;
            Some((format!("clients[{i}].steps[{j}].check_deadline"), "a node of a pair holds no lease, so it has no deadline to check; remove this step".into()))
        })
    };
    match bad {
        Some((path, why)) => Err(ScenarioError::at(path, why)),
        None => Ok(()),
    }
}

/// Heartbeat's `keepalive` unless set: 1 s (the sample of its documentation).
pub(super) fn keepalive() -> Millis {
    Millis::new(1_000)
}
pub(super) fn is_keepalive(n: &Millis) -> bool {
    *n == keepalive()
}
/// Pacemaker's `stonith-timeout` unless set: 60 s, its default.
pub(super) fn stonith_timeout() -> Millis {
    Millis::new(60_000)
}
pub(super) fn is_stonith_timeout(n: &Millis) -> bool {
    *n == stonith_timeout()
}
