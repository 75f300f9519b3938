//! ZooKeeper: `nodes` servers (an ensemble with a leader, zk1, zk2, …), sessions kept alive by
//! pings and expired by the leader after `ttl_ms` (the session timeout), and the lock recipe of
//! ephemeral sequential znodes (SEMANTICS §5); with `lock_delay_ms`, Chubby's lock-delay, which
//! ZooKeeper does not have (`service/zookeeper/server/delay.rs`). Its slice is
//! `service/zookeeper/`.

use super::super::{Scenario, ScenarioError};
use super::super::settings::{list, Kind, Section, Setting};
use super::{Declaration, Inspector, LockService, Situation};
use crate::time::Millis;

/// The name of ZooKeeper server `i`: zk1, zk2, …
pub fn zk_name(i: usize) -> String {
    format!("zk{}", i + 1)
}

/// ZooKeeper's bounds on a session timeout: 2 to 20 ticks of the sample configuration's
/// `tickTime=2000` (SEMANTICS §5.1).
pub const SESSION_TIMEOUT_MS: [Millis; 2] = [Millis::new(4_000), Millis::new(40_000)];

/// ZooKeeper, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Lock service (ZooKeeper)",
    lock_word: "znode",
    server_label: Some(["ZooKeeper · leader", "ZooKeeper server"]),
    lanes: |l: &LockService| (0..l.nodes as usize).map(zk_name).collect(),
    reserved: &[],
    settings: &[
        &Setting {
            path: "lock.ttl_ms",
            id: "ttl",
            label: "Session timeout",
            said: "ZooKeeper's session timeout",
            kind: Kind::Ms { min: SESSION_TIMEOUT_MS[0] },
            section: Section::Lock,
            get: |s| s.lock.ttl_ms.to_string(),
            present: list::always,
        },
        &list::nodes("Servers", "the number of ZooKeeper servers"),
        &list::ELECTION_TIMEOUT,
        &list::LOCK_DELAY,
        &list::OWN_TOKEN,
    ],
    validate,
    renews_itself: Some("a ZooKeeper session renews itself with pings every third of its timeout; remove this step"),
    inspector: Inspector::Queue { number: "czxid" },
    situations: Situation::SERVICE,
};

/// Its ensemble, and a session timeout within ZooKeeper's bounds.
fn validate(sc: &Scenario) -> Result<(), ScenarioError> {
    super::consensus::replicated(sc, "a ZooKeeper ensemble", "servers", "a ZooKeeper lock's token is its znode's creation zxid")?;
    let [lo, hi] = SESSION_TIMEOUT_MS;
    if !(lo..=hi).contains(&sc.lock.ttl_ms) {
        return Err(ScenarioError::at(
            "lock.ttl_ms",
            format!("is ZooKeeper's session timeout: between {lo} and {hi} (2 to 20 ticks of tickTime=2000)"),
        ));
    }
    Ok(())
}
