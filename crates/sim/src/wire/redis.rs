//! What a Redis lock sends and stores, as data: the commands and replies of SEMANTICS §1, and
//! a key's entry (which the primary's replication stream carries). The node is `redis.rs`.

use serde::Serialize;

use crate::time::{Micros, Millis};

/// The lock's key.
pub const LOCK_KEY: &str = "lock";
/// The fencing counter's key (with `token.store: redis`).
pub const FENCE_KEY: &str = "lock:fence";

/// A Redis command as a client sends it. Each is atomic on the node (a command or a Lua script).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedisCmd {
    /// `SET lock <owner> NX PX <ttl>`, and with `incr` also `INCR lock:fence` in the same script.
    /// The owner value is the client's random number, kept as one (Redis holds it as its 16 hex
    /// digits: [`Entry::text`]), so that a request copies no string.
    Acquire { owner: u64, ttl_ms: Millis, incr: bool },
    /// Compare-and-delete (`compare`) or a plain `DEL`.
    Release { owner: u64, compare: bool },
    /// Compare-and-extend (`compare`) or a plain `PEXPIRE`.
    Renew { owner: u64, ttl_ms: Millis, compare: bool },
}

/// A Redis reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedisReply {
    /// `OK`, with the token (`incr`: from `INCR lock:fence` in the acquire script; otherwise
    /// from the durable counter beside the service, handed over with the grant), and (for the
    /// checker only, never read by the client's logic) the index of the grant.
    Ok { token: Option<u64>, grant: usize, incr: bool },
    /// `nil`: `SET NX` found the key.
    Nil,
    /// An integer reply (1 done, 0 not done, -1 no such key: redsync's convention).
    Int(i64),
    /// `-READONLY You can't write against a read only replica.`: the node is a replica (with
    /// Sentinel, an old primary demoted while the command was on its way), and replicas refuse
    /// writes (`replica-read-only yes`, the default).
    ReadOnly,
}

/// What a client's command was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    Acquire,
    Renew,
    Release,
}

impl Op {
    /// What a command is for.
    pub fn of(cmd: &RedisCmd) -> Op {
        match cmd {
            RedisCmd::Acquire { .. } => Op::Acquire,
            RedisCmd::Renew { .. } => Op::Renew,
            RedisCmd::Release { .. } => Op::Release,
        }
    }
}

/// A Redis lock's events of its own (the others are common ones, which Redlock shares).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "redis", rename_all = "kebab-case")]
pub enum Event {
    /// A replica of `primary` refused `client`'s script with READONLY: it would write.
    ReadOnly { client: usize, primary: Option<usize>, op: Op },
    /// A client's command was answered READONLY: its `op` failed (an acquire's `attempt`).
    Answered { op: Op, attempt: u32 },
    /// A watchdog's renewal was answered READONLY, and the watchdog stopped.
    WatchdogStopped,
    /// A replica that missed its primary's writes in a partition reached it again and asked
    /// for them (a partial resync).
    Resync { primary: usize },
}

impl Event {
    /// It carries no token.
    pub fn token(&self) -> Option<u64> {
        None
    }

    /// The word a key moment matches, and whose the event is (`actor` for a client's own).
    pub fn tag(&self, actor: usize) -> (&'static str, usize) {
        match *self {
            Event::ReadOnly { client, .. } => ("read-only", client),
            Event::Answered { .. } | Event::WatchdogStopped => ("read-only-reply", actor),
            Event::Resync { .. } => ("resync", actor),
        }
    }
}

/// A key's value and expiry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value: the lock key's owner value, or the counter's count.
    pub value: u64,
    /// Absolute expiry time on the node's clock (Redis stores absolute Unix ms).
    pub expires_local: Option<Micros>,
    /// Ground truth for the checker and the timeline: the client that set it (by its lane) and its
    /// grant.
    pub owner: Option<usize>,
    pub grant: Option<usize>,
}

impl Entry {
    /// The value as Redis holds it under `key`: the owner value's 16 hex digits, or the
    /// counter's decimal digits.
    pub fn text(&self, key: &str) -> String {
        if key == LOCK_KEY {
            format!("{:016x}", self.value)
        } else {
            self.value.to_string()
        }
    }
}
