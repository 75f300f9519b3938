//! What a ZooKeeper client and the ensemble send each other, as data: the requests, replies
//! and watch notifications of the lock recipe (the model is `zookeeper.rs`).

use crate::time::Millis;

/// A message between a client and the ensemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Open a session with this timeout.
    Connect {
        req: u64,
        timeout_ms: Millis,
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
