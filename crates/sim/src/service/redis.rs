//! A Redis node: [`Node`], its keys with absolute expiry times on the node's own clock, and the
//! commands a lock needs ([`Node::execute`]), following SEMANTICS §1.
//!
//! Expiry is passive and exact: a key whose expiry time has passed on the node's clock is
//! absent to every command (Redis 2.6+ expires within 0–1 ms; the model uses 0). Scripts run
//! at one instant, as Lua scripts do (time is frozen during a script).

use crate::flat::Map;

use crate::time::{Micros, MS};
use crate::trace::ActorId;

pub mod client;
pub mod server;
pub(crate) mod slice;
pub mod watchdog;
mod words;

pub use crate::wire::redis::{Entry, Event, Op, RedisCmd, RedisReply, FENCE_KEY, LOCK_KEY};

/// The compare-and-delete script the model follows (redsync's variant of the Redis docs' script:
/// -1 tells "no key" apart from 0, "another owner's key"). Sent with `EVAL … 1 <key> <owner>`.
pub const COMPARE_AND_DELETE_LUA: &str = "local v = redis.call('GET', KEYS[1]) \
if v == ARGV[1] then return redis.call('DEL', KEYS[1]) elseif v == false then return -1 else return 0 end";

/// The compare-and-extend script the model follows (redsync's touchScript: 0 for another
/// owner's key and for none, SEMANTICS §1.3). Sent with `EVAL … 1 <key> <owner> <ttl_ms>`.
pub const COMPARE_AND_EXTEND_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then \
return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";

/// What a command did to the lock key, for the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// `SET NX` set the key; `token` was issued by `INCR` in the same script.
    Set {
        token: Option<u64>,
    },
    /// `SET NX` found the key held.
    Busy {
        holder: Option<ActorId>,
    },
    Deleted {
        owner: Option<ActorId>,
        grant: Option<usize>,
        foreign: bool,
    },
    Extended {
        owner: Option<ActorId>,
        grant: Option<usize>,
        foreign: bool,
    },
    /// A compare-and-X script found another owner's value, or no key.
    Unchanged {
        missing: bool,
    },
}

/// A Redis node's data.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    pub keys: Map<&'static str, Entry>,
}

impl Node {
    /// Removes the lock key if its expiry has passed at `now_local`; returns it if so.
    pub fn expire(&mut self, now_local: Micros) -> Option<Entry> {
        let expired = matches!(self.keys.get(LOCK_KEY), Some(Entry { expires_local: Some(at), .. }) if now_local >= *at);
        if expired {
            self.keys.remove(LOCK_KEY)
        } else {
            None
        }
    }

    /// The live lock key at `now_local`.
    pub fn lock(&self, now_local: Micros) -> Option<&Entry> {
        self.keys.get(LOCK_KEY).filter(|e| e.expires_local.is_none_or(|at| now_local < at))
    }

    /// Whether a replica refuses `cmd` at `now_local` with READONLY: a write command (`SET`,
    /// `DEL`, `PEXPIRE`) always; a compare-and-X script only when it reaches its write, the key
    /// holding the client's value (a replica runs a script, and refuses the write it calls).
    pub fn refuses_as_replica(&self, cmd: &RedisCmd, now_local: Micros) -> bool {
        match *cmd {
            RedisCmd::Release { owner, compare: true } | RedisCmd::Renew { owner, compare: true, .. } => {
                self.lock(now_local).is_some_and(|e| e.value == owner)
            }
            _ => true,
        }
    }

    /// Runs a command from `client` at `now_local`. `grant` is the index the next grant gets.
    /// `durable_token` is the token to hand out when the counter is not kept on this node.
    pub fn execute(
        &mut self,
        cmd: &RedisCmd,
        client: ActorId,
        now_local: Micros,
        grant: usize,
        durable_token: Option<u64>,
    ) -> (RedisReply, Change) {
        self.expire(now_local);
        match cmd {
            RedisCmd::Acquire { owner, ttl_ms, incr } => {
                if let Some(e) = self.keys.get(LOCK_KEY) {
                    return (RedisReply::Nil, Change::Busy { holder: e.owner });
                }
                self.keys.insert(
                    LOCK_KEY,
                    Entry {
                        value: *owner,
                        expires_local: Some(now_local + ttl_ms.to_micros()),
                        owner: Some(client),
                        grant: Some(grant),
                    },
                );
                let token = if *incr { Some(self.incr(FENCE_KEY)) } else { durable_token };
                (RedisReply::Ok { token, grant, incr: *incr }, Change::Set { token })
            }
            RedisCmd::Release { owner, compare } => match self.keys.get(LOCK_KEY) {
                None => (RedisReply::Int(if *compare { -1 } else { 0 }), Change::Unchanged { missing: true }),
                Some(e) if *compare && e.value != *owner => (RedisReply::Int(0), Change::Unchanged { missing: false }),
                Some(e) => {
                    let foreign = e.value != *owner;
                    let (o, g) = (e.owner, e.grant);
                    self.keys.remove(LOCK_KEY);
                    (RedisReply::Int(1), Change::Deleted { owner: o, grant: g, foreign })
                }
            },
            // redsync's touchScript: PEXPIRE's count, or 0 for another value; a key that is
            // gone is neither, and PEXPIRE answers 0 for it too (SEMANTICS §1.3). Only the
            // release script tells a missing key apart (-1, §1.2).
            RedisCmd::Renew { owner, ttl_ms, compare } => match self.keys.get_mut(LOCK_KEY) {
                None => (RedisReply::Int(0), Change::Unchanged { missing: true }),
                Some(e) if *compare && e.value != *owner => (RedisReply::Int(0), Change::Unchanged { missing: false }),
                Some(e) => {
                    e.expires_local = Some(now_local + ttl_ms.to_micros());
                    let foreign = e.value != *owner;
                    (RedisReply::Int(1), Change::Extended { owner: e.owner, grant: e.grant, foreign })
                }
            },
        }
    }

    /// `GET key` at `now_local` (a key past its expiry is absent).
    pub fn get(&self, key: &str, now_local: Micros) -> Option<String> {
        self.keys.get(key).filter(|e| e.expires_local.is_none_or(|at| now_local < at)).map(|e| e.text(key))
    }

    /// `PTTL key` at `now_local`: -2 without the key, -1 without an expiry, else the remaining
    /// milliseconds (rounded as Redis does, to the nearest).
    pub fn pttl(&self, key: &str, now_local: Micros) -> i64 {
        match self.keys.get(key) {
            Some(e) if e.expires_local.is_none_or(|at| now_local < at) => match e.expires_local {
                None => -1,
                Some(at) => (at - now_local + MS / 2) / MS,
            },
            _ => -2,
        }
    }

    /// `INCR key`: a missing key counts as 0.
    pub fn incr(&mut self, key: &'static str) -> u64 {
        let e = self.keys.entry(key).or_insert(Entry { value: 0, expires_local: None, owner: None, grant: None });
        e.value += 1;
        e.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Millis;

    fn acquire(owner: u64) -> RedisCmd {
        RedisCmd::Acquire { owner, ttl_ms: Millis::new(100), incr: false }
    }

    #[test]
    fn set_nx_px_then_expiry() {
        let mut n = Node::default();
        assert!(matches!(n.execute(&acquire(0xa), 0, Micros::ZERO, 0, None).0, RedisReply::Ok { .. }));
        assert_eq!(n.execute(&acquire(0xb), 1, 99 * MS, 1, None).0, RedisReply::Nil);
        // At exactly the expiry time the key is gone.
        assert!(matches!(n.execute(&acquire(0xb), 1, 100 * MS, 1, None).0, RedisReply::Ok { .. }));
    }

    #[test]
    fn compare_and_delete_refuses_a_foreign_value() {
        let mut n = Node::default();
        n.execute(&acquire(0xb), 1, Micros::ZERO, 0, None);
        let (r, c) = n.execute(&RedisCmd::Release { owner: 0xa, compare: true }, 0, Micros::us(1), 1, None);
        assert_eq!(r, RedisReply::Int(0));
        assert_eq!(c, Change::Unchanged { missing: false });
        let (r, c) = n.execute(&RedisCmd::Release { owner: 0xa, compare: false }, 0, Micros::us(1), 1, None);
        assert_eq!(r, RedisReply::Int(1));
        assert!(matches!(c, Change::Deleted { foreign: true, .. }));
    }

    #[test]
    fn plain_pexpire_extends_someone_elses_key() {
        let mut n = Node::default();
        n.execute(&acquire(0xb), 1, Micros::ZERO, 0, None);
        let (r, _) = n.execute(&RedisCmd::Renew { owner: 0xa, ttl_ms: Millis::new(500), compare: true }, 0, 50 * MS, 1, None);
        assert_eq!(r, RedisReply::Int(0));
        let (r, c) = n.execute(&RedisCmd::Renew { owner: 0xa, ttl_ms: Millis::new(500), compare: false }, 0, 50 * MS, 1, None);
        assert_eq!(r, RedisReply::Int(1));
        assert!(matches!(c, Change::Extended { foreign: true, .. }));
        assert_eq!(n.lock(549 * MS).map(|e| e.value), Some(0xb));
    }

    #[test]
    fn missing_key_replies_minus_one_to_scripts() {
        let mut n = Node::default();
        let (r, _) = n.execute(&RedisCmd::Release { owner: 0xa, compare: true }, 0, Micros::ZERO, 0, None);
        assert_eq!(r, RedisReply::Int(-1));
    }

    #[test]
    fn incr_counts_from_zero() {
        let mut n = Node::default();
        assert_eq!(n.incr(FENCE_KEY), 1);
        assert_eq!(n.incr(FENCE_KEY), 2);
    }
}
