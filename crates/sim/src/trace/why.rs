//! The reasons and objects events name, as data: why a message was lost, why a client stopped
//! holding the lock, what it waited for, which proposal a consensus service committed. Their
//! words are made when the event is shown (`crate::narrate`, and each service's own words).

use serde::Serialize;

use super::ActorId;
use crate::time::{Micros, Millis};

/// Why a message never arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Loss {
    /// The network dropped it (a `drop` fault).
    Dropped,
    /// A partition separates its sender and receiver.
    Partitioned,
    /// Its receiver is down.
    ReceiverDown,
}

/// Why a client stops believing it holds the lock: it learns it lost it ([`super::EventKind::LostLock`])
/// or gives it up on its own judgment ([`super::EventKind::Abandoned`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Why {
    /// It checked its deadline without holding a lease.
    NoLease,
    /// The resource refused its write: it has seen a higher token.
    TokenSeen { highest: u64 },
    /// Its deadline passed this long ago by its own clock.
    DeadlinePassed { ago_us: Micros },
    /// Its deadline is within its margin: this far away on its own clock.
    DeadlineNear { left_us: Micros },
    /// Its renewal got no reply, so it cannot know whether it still holds the lock.
    RenewalUnanswered,
    /// Redis: its renewal was refused (the key is gone or holds another owner's value).
    RenewalRefused,
    /// Redis: its renewal was answered READONLY: the node it went to had become a replica.
    RenewalReadOnly,
    /// Redlock: its extension reached `votes` of `nodes` nodes in time.
    ExtensionShort { votes: u8, nodes: u8 },
    /// etcd: its session expired while it waited for the lock.
    ExpiredWaiting,
    /// ZooKeeper: its session expired before it got the lock.
    ExpiredBeforeLock,
    /// ZooKeeper: its znode is gone, because its session expired.
    ZnodeGone,
    /// Its tries at renewing failed for its renew deadline (this long by its own clock), so it
    /// stops (a Kubernetes leader stops leading).
    RenewDeadline { deadline_us: Micros },
}

/// What a client waited for when it timed out, and what it does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Awaited {
    /// Its lock request: it retries.
    LockRequest,
    /// Its write: it sends it again.
    WriteResent,
    /// Its write: it gives up.
    WriteAbandoned,
    /// Its renewal: it keeps working as if it still held the lock.
    RenewalIgnored,
    /// Its renewal: it gives up the lock.
    Renewal,
    /// An answer to its release: it goes on without knowing whether the release took effect.
    Release,
}

/// A proposal a consensus service committed, as its log holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Proposal {
    /// etcd: put `client`'s key with a new lease, or (`has_key`: it has one already) put it
    /// if absent, else get it.
    Lock { client: ActorId, has_key: bool },
    /// etcd: delete `client`'s key.
    Unlock { client: ActorId },
    /// etcd: revoke a lease (`client`'s, when it is still known).
    Revoke { client: Option<ActorId> },
    /// ZooKeeper: open a session with this timeout.
    CreateSession { session: u64, timeout_ms: Millis },
    /// ZooKeeper: create the ephemeral sequential znode `seq`.
    Create { seq: u64 },
    /// ZooKeeper: delete znode `seq` (`missing`: there is none, an error transaction).
    Delete { seq: u64, missing: bool },
    /// ZooKeeper: close a session.
    CloseSession { session: u64 },
}

/// The first bytes of a Redis value (an owner's random value, a counter's digits), as the
/// trace shows it: at most eight.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Short {
    bytes: [u8; 8],
    len: u8,
}

impl Short {
    pub fn of(value: &str) -> Short {
        let mut end = value.len().min(8);
        while !value.is_char_boundary(end) {
            end -= 1;
        }
        let mut bytes = [0; 8];
        bytes[..end].copy_from_slice(&value.as_bytes()[..end]);
        Short { bytes, len: end as u8 }
    }

    /// The same prefix of `value` itself (what `Short::of(value)` holds, as a slice of it).
    pub fn len_of<'a>(&self, value: &'a str) -> &'a str {
        &value[..self.len as usize]
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or_default()
    }
}

impl std::fmt::Debug for Short {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\"", self.as_str())
    }
}

impl Serialize for Short {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
