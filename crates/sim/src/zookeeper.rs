//! ZooKeeper as a lock service (SEMANTICS §5.1): an ensemble of servers with a leader that
//! commits every change on a majority and numbers it with the next zxid; sessions kept alive by
//! the client's pings and expired by the leader when it has heard nothing for the session
//! timeout, which deletes the session's ephemeral znodes; and the lock recipe: each client
//! creates an ephemeral sequential znode under `/lock`, lists the children, holds the lock if
//! its znode is the lowest, and otherwise watches its predecessor (`exists` with a watch) and
//! lists again when it is deleted. The znode's creation zxid (`czxid`) is the fencing token.
//!
//! The messages are here, beside the model ([`Msg`]); the ensemble is `zookeeper/server.rs`,
//! the client side of the recipe `zookeeper/client.rs`.
//!
//! Simplifications, said in the scenarios: one counter numbers the transactions (a real zxid is
//! the leader's epoch and a counter in one 64-bit number, ordered the same way); the leader is
//! the lowest-numbered live server that reaches a majority; clients always talk to the leader.

use crate::time::{fmt, from_ms};
use crate::trace::{ActorId, EventKind};

pub mod client;
pub mod server;

/// A message between a client and the ensemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Open a session with this timeout.
    Connect {
        req: u64,
        timeout_ms: u64,
    },
    Connected {
        req: u64,
        session: u64,
    },
    /// `create /lock/lock- EPHEMERAL|SEQUENTIAL`.
    Create {
        req: u64,
        session: u64,
    },
    /// The znode `/lock/lock-<seq>`, created at `zxid`.
    Created {
        req: u64,
        seq: u64,
        zxid: u64,
    },
    /// `getChildren /lock` (no watch).
    GetChildren {
        req: u64,
        session: u64,
    },
    /// The children of `/lock`, by sequence number; and, for the record only (the client keeps
    /// it with its lease; its logic never reads it), the grant the requester's lowest znode
    /// stands for.
    Children {
        req: u64,
        children: Vec<u64>,
        grant: Option<usize>,
    },
    /// `exists /lock/lock-<seq>` with a watch on it.
    Exists {
        req: u64,
        session: u64,
        seq: u64,
    },
    ExistsReply {
        req: u64,
        exists: bool,
    },
    /// The watch fired: the znode is deleted.
    Deleted {
        seq: u64,
    },
    Ping {
        req: u64,
        session: u64,
    },
    Pong {
        req: u64,
    },
    /// `delete /lock/lock-<seq>`.
    Delete {
        req: u64,
        session: u64,
        seq: u64,
    },
    DeleteOk {
        req: u64,
    },
    /// The znode to delete does not exist (ZooKeeper's `NoNode`).
    NoNode {
        req: u64,
    },
    /// The session has expired: every request on it fails.
    SessionExpired {
        req: u64,
    },
    /// `closeSession`: end the session now, which deletes its ephemeral znodes.
    Close {
        req: u64,
        session: u64,
    },
    Closed {
        req: u64,
    },
}

/// A lock znode's path.
pub fn znode(seq: u64) -> String {
    format!("/lock/lock-{seq:010}")
}

impl Msg {
    /// How the message is written on its arrow.
    pub fn describe(&self) -> String {
        match self {
            Msg::Connect { timeout_ms, .. } => format!("connect (session timeout {timeout_ms} ms)"),
            Msg::Connected { session, .. } => format!("connected: session 0x{session:x}"),
            Msg::Create { .. } => "create /lock/lock- ephemeral sequential".into(),
            Msg::Created { seq, zxid, .. } => format!("created {}, czxid {zxid}", znode(*seq)),
            Msg::GetChildren { .. } => "getChildren /lock".into(),
            Msg::Children { children, .. } => {
                let names: Vec<String> = children.iter().map(|s| format!("lock-{s:010}")).collect();
                if names.is_empty() {
                    "no children".into()
                } else {
                    format!("children: {}", names.join(", "))
                }
            }
            Msg::Exists { seq, .. } => format!("exists {} (watch)", znode(*seq)),
            Msg::ExistsReply { exists: true, .. } => "exists: yes, watch set".into(),
            Msg::ExistsReply { exists: false, .. } => "exists: no node".into(),
            Msg::Deleted { seq } => format!("watch: NodeDeleted {}", znode(*seq)),
            Msg::Ping { .. } => "ping".into(),
            Msg::Pong { .. } => "pong".into(),
            Msg::Delete { seq, .. } => format!("delete {}", znode(*seq)),
            Msg::DeleteOk { .. } => "deleted".into(),
            Msg::NoNode { .. } => "no node".into(),
            Msg::SessionExpired { .. } => "session expired".into(),
            Msg::Close { session, .. } => format!("closeSession 0x{session:x}"),
            Msg::Closed { .. } => "session closed".into(),
        }
    }

    /// The request number a request carries, or that a reply answers (`None`: a watch).
    pub fn req(&self) -> Option<u64> {
        match *self {
            Msg::Connect { req, .. }
            | Msg::Create { req, .. }
            | Msg::GetChildren { req, .. }
            | Msg::Exists { req, .. }
            | Msg::Ping { req, .. }
            | Msg::Delete { req, .. }
            | Msg::Close { req, .. }
            | Msg::Closed { req }
            | Msg::NoNode { req }
            | Msg::Connected { req, .. }
            | Msg::Created { req, .. }
            | Msg::Children { req, .. }
            | Msg::ExistsReply { req, .. }
            | Msg::Pong { req }
            | Msg::DeleteOk { req }
            | Msg::SessionExpired { req } => Some(req),
            _ => None,
        }
    }
}

/// The narration of the events a ZooKeeper run words its own way.
pub fn narrate(me: &str, kind: &EventKind, name: &dyn Fn(ActorId) -> String, session_timeout_ms: u64) -> Option<String> {
    let n = name;
    Some(match kind {
        EventKind::Committed { what, revision } => {
            format!("{me} commits `{what}` as zxid {revision}: a majority of the ensemble has it.")
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
        EventKind::LeaderElected { leases } => format!(
            "{me} becomes the leader and gives all {leases} session{} a fresh timeout.",
            if *leases == 1 { "" } else { "s" }
        ),
        EventKind::NoQuorum { since_us } => format!(
            "No server has reached a majority since {}: there is no leader. Nothing can be created or deleted, and no session can expire.",
            fmt(*since_us)
        ),
        _ => return None,
    })
}
