//! What a Redis lock sends and stores, as data: the commands and replies of SEMANTICS §1, and
//! a key's entry (which the primary's replication stream carries). The node is `redis.rs`.

use crate::time::Micros;

/// A Redis command as a client sends it. Each is atomic on the node (a command or a Lua script).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedisCmd {
    /// `SET lock <owner> NX PX <ttl>`, and with `incr` also `INCR lock:fence` in the same script.
    Acquire { owner: String, ttl_ms: u64, incr: bool },
    /// Compare-and-delete (`compare`) or a plain `DEL`.
    Release { owner: String, compare: bool },
    /// Compare-and-extend (`compare`) or a plain `PEXPIRE`.
    Renew { owner: String, ttl_ms: u64, compare: bool },
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
}

/// A key's value and expiry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The string value (an owner value, or a counter's decimal digits).
    pub value: String,
    /// Absolute expiry time on the node's clock (Redis stores absolute Unix ms).
    pub expires_local: Option<Micros>,
    /// Ground truth for the checker and the timeline: the client that set it (by its lane) and its
    /// grant.
    pub owner: Option<usize>,
    pub grant: Option<usize>,
}
