//! What a client of the etcd-like consensus service and its leader send each other, as data:
//! the lock, keepalive and unlock requests of `concurrency.Mutex` and a session, and their
//! answers (SEMANTICS §4). The model is `service/consensus.rs`.

use crate::time::Millis;

/// A message between a client and the consensus service's leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Ask the leader for the lock (a session lease, and a key under the prefix).
    Lock {
        req: u64,
        ttl_ms: Millis,
    },
    /// The key is in place at `rev`, but an earlier key holds the lock: wait.
    Queued {
        req: u64,
        rev: u64,
        lease: u64,
    },
    /// You hold the lock; your key's create revision is the fencing token.
    Locked {
        req: u64,
        rev: u64,
        lease: u64,
        grant: usize,
    },
    /// Your session ended while you waited (etcd's ErrSessionExpired).
    SessionExpired {
        req: u64,
    },
    KeepAlive {
        req: u64,
        lease: u64,
    },
    KeepAliveOk {
        req: u64,
    },
    LeaseNotFound {
        req: u64,
    },
    Unlock {
        req: u64,
        lease: u64,
    },
    Unlocked {
        req: u64,
        /// Whether the delete removed a key (etcd's `deleted` count was 1).
        deleted: bool,
    },
}

impl Msg {
    /// The message as a short command line, for arrows and narration.
    pub fn describe(&self) -> String {
        match self {
            Msg::Lock { ttl_ms, .. } => format!("lock (lease {ttl_ms} ms)"),
            Msg::Queued { rev, .. } => format!("queued at revision {rev}"),
            Msg::Locked { rev, .. } => format!("locked, revision {rev}"),
            Msg::SessionExpired { .. } => "session expired".into(),
            Msg::KeepAlive { lease, .. } => format!("keepalive lease {lease}"),
            Msg::KeepAliveOk { .. } => "keepalive ok".into(),
            Msg::LeaseNotFound { .. } => "lease not found".into(),
            Msg::Unlock { lease, .. } => format!("unlock (lease {lease})"),
            Msg::Unlocked { deleted: true, .. } => "unlocked".into(),
            Msg::Unlocked { deleted: false, .. } => "unlocked, 0 keys deleted".into(),
        }
    }
}
