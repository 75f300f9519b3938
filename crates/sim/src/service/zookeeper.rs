//! ZooKeeper as a lock service (SEMANTICS §5.1): an ensemble of servers with a leader that
//! commits every change on a majority and numbers it with the next zxid; sessions kept alive by
//! the client's pings and expired by the leader when it has heard nothing for the session
//! timeout, which deletes the session's ephemeral znodes; and the lock recipe: each client
//! creates an ephemeral sequential znode under `/lock`, lists the children, holds the lock if
//! its znode is the lowest, and otherwise watches its predecessor (`exists` with a watch) and
//! lists again when it is deleted. The znode's creation zxid (`czxid`) is the fencing token.
//! Chubby's lock-delay, which ZooKeeper does not have, is a setting (`server/delay.rs`).
//!
//! The messages are data on the ground floor (`wire/zookeeper.rs`, re-exported as [`Msg`]); the
//! ensemble is `zookeeper/server.rs`, the client side of the recipe `zookeeper/client.rs`.
//!
//! Simplifications, said in the scenarios: one counter numbers the transactions (a real zxid is
//! the leader's epoch and a counter in one 64-bit number, ordered the same way); the leader is
//! the lowest-numbered live server that reaches a majority; clients always talk to the leader.

use crate::time::{fmt, from_ms};
use crate::trace::{ActorId, EventKind};

pub mod client;
pub mod server;
mod slice;

pub use crate::wire::zookeeper::{znode, Msg};

/// The narration of the events a ZooKeeper run words its own way.
pub fn narrate(me: &str, kind: &EventKind, name: &dyn Fn(ActorId) -> String, session_timeout_ms: u64) -> Option<String> {
    let n = name;
    Some(match kind {
        EventKind::Committed { what, revision } => {
            format!("{me} commits `{}` as zxid {revision}: a majority of the ensemble has it.", crate::msg::proposal_words(what, n))
        }
        EventKind::LockGranted { client, rev, .. } => format!(
            "{me} lists /lock for {}: its znode (czxid {rev}) is the lowest, so by the recipe {} holds the lock.",
            n(*client),
            n(*client)
        ),
        EventKind::LeaseExpired { client } => format!(
            "{me} has heard nothing from {} for its session timeout ({}): it proposes to close the session, which deletes the session's ephemeral znodes.",
            n(*client),
            fmt(from_ms(session_timeout_ms as i64))
        ),
        EventKind::LockDelayed { client, until_us } => format!(
            "{} held the lock when its session expired: {me} keeps its znode until {}, its lock-delay, and then deletes it, so no waiter's watch fires before then (Chubby's lock-delay; ZooKeeper has no such setting, the model adds it).",
            n(*client),
            fmt(*until_us)
        ),
        EventKind::Queued { rev } => {
            format!("{me}'s znode (czxid {rev}) is not the lowest: it watches its predecessor and waits for it to be deleted.")
        }
        EventKind::Acquired { token, until_local_us, .. } => {
            let t = token.map(|t| format!(" with token {t}, its znode's czxid")).unwrap_or_default();
            format!(
                "{me} holds the lock{t}. By its own clock its session lasts until {} unless a ping is answered first.",
                fmt(*until_local_us)
            )
        }
        EventKind::Renewed { until_local_us } => {
            format!("{me}'s ping was answered: by its own clock its session now lasts until {}.", fmt(*until_local_us))
        }
        EventKind::Released { removed: false } => {
            format!("{me}'s delete removed nothing: its session had expired, and its znode had gone with it.")
        }
        EventKind::NoticeIgnored { holding } => format!(
            "{me} is told its session has expired (its watcher gets the Expired event); its code does not check for it, {}.",
            EventKind::goes_on(*holding)
        ),
        EventKind::LeaderElected { leases: 0 } => format!("{me} is the leader."),
        EventKind::LeaderElected { leases: 1 } => format!("{me} becomes the leader and gives the one session a fresh timeout."),
        EventKind::LeaderElected { leases } => format!("{me} becomes the leader and gives all {leases} sessions a fresh timeout."),
        EventKind::NoQuorum { since_us } => format!(
            "No server has reached a majority since {}: there is no leader. Nothing can be created or deleted, and no session can expire.",
            fmt(*since_us)
        ),
        _ => return None,
    })
}
