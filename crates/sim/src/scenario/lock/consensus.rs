//! An etcd-like consensus service: `nodes` members (m1, m2, …), a leader, majority commit,
//! leases (SEMANTICS §4). Its slice is `service/consensus/`.

use super::super::settings::{list, Kind, Section, Setting};
use super::super::{Scenario, ScenarioError, TokenKind};
use super::{Declaration, Inspector, LockService, Situation};
use crate::time::Millis;

/// The name of consensus member `i`: m1, m2, …
pub fn member_name(i: usize) -> String {
    format!("m{}", i + 1)
}

/// etcd's minimum lease TTL: ceil((3 × electionTicks / 2) × heartbeat) seconds, that is 1.5 ×
/// the election timeout rounded up to whole seconds (2 s with the defaults). Shorter requests are
/// raised to it (SEMANTICS §4.1).
pub fn min_lease_ttl_ms(election_timeout_ms: Millis) -> Millis {
    Millis::new((election_timeout_ms.get() * 3 / 2).div_ceil(1000) * 1000)
}

/// The consensus service, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Lock service (etcd-like consensus)",
    lock_word: "key",
    server_label: Some(["member · leader", "etcd-like member"]),
    lanes: |l: &LockService| (0..l.nodes as usize).map(member_name).collect(),
    reserved: &[],
    settings: &[
        &list::TTL,
        &list::nodes("Members", "the number of members"),
        &list::ELECTION_TIMEOUT,
        &Setting {
            path: "lock.recheck_after_wait",
            id: "recheck",
            label: "Check its key after the wait",
            said: "the session checked again after the wait",
            kind: Kind::Switch("off", "on"),
            section: Section::Lock,
            get: |s| list::on(s.lock.recheck_after_wait),
            present: list::always,
        },
        &list::LOCK_DELAY,
        &list::OWN_TOKEN,
    ],
    validate: |sc| replicated(sc, "a consensus service", "members", "a consensus lock's token is its key's revision"),
    renews_itself: Some("a consensus session renews itself with keepalives every TTL/3; remove this step"),
    inspector: Inspector::Queue { number: "revision" },
    situations: Situation::SERVICE,
};

/// What a replicated service (the consensus service, ZooKeeper) refuses: too few or too many
/// members (`members` is what `what` calls them), a replica, an election timeout out of range,
/// and a random owner value as a token (`token` says what its token is).
pub(super) fn replicated(sc: &Scenario, what: &str, members: &str, token: &str) -> Result<(), ScenarioError> {
    let l = &sc.lock;
    let max = super::super::limits::DURATION_MS;
    if l.nodes == 0 || l.nodes > 9 {
        return Err(ScenarioError::at("lock.nodes", format!("{what} needs between 1 and 9 {members}")));
    }
    if l.replica.is_some() {
        return Err(ScenarioError::at("lock.replica", format!("{what} replicates by itself; remove lock.replica")));
    }
    if l.election_timeout_ms == Millis::ZERO || l.election_timeout_ms > max {
        return Err(ScenarioError::at("lock.election_timeout_ms", format!("must be between 1 and {max}")));
    }
    if sc.token.source == TokenKind::RandomOwner {
        return Err(ScenarioError::at("token.source", format!("{token}: use counter (or none)")));
    }
    Ok(())
}
