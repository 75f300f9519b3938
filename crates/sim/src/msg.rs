//! What travels between actors: [`Payload`], and the Redis commands and replies inside it.

use crate::scenario::WriteOp;
use crate::time::Micros;
use crate::trace::WriteOutcome;
use crate::wire::redis::Entry;
pub use crate::wire::redis::{RedisCmd, RedisReply};

/// Where a client sends a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// The current Redis primary.
    Lock,
    /// Redlock node `i`.
    Node(usize),
    /// The consensus service's current leader.
    Leader,
    Resource,
}

/// A write to the resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    pub req: u64,
    pub token: Option<u64>,
    /// Ground truth for the checker: the grant the client believed it held.
    pub grant: Option<usize>,
    pub op: WriteOp,
    pub value: i64,
    pub request: String,
    pub read_version: Option<u64>,
    pub read_at_us: Option<Micros>,
    pub conditional: bool,
    /// The external effect the transaction sends, by its key.
    pub effect: Option<String>,
}

/// The first eight characters of a value, for narration.
pub fn short(value: &str) -> &str {
    crate::trace::Short::of(value).len_of(value)
}

/// The first eight of an owner value's 16 hex digits (as Redis holds it: [`Entry::text`]).
fn short_owner(owner: u64) -> String {
    format!("{:08x}", owner >> 32)
}

/// The primary's replication stream applying a key's new state: the value set (its first
/// bytes), or a delete. One wording for the message and for the replica's event.
pub fn replicate_words(key: &str, set: Option<&str>) -> String {
    match set {
        Some(v) => format!("replicate SET {key} {}", short(v)),
        None => format!("replicate DEL {key}"),
    }
}

/// A proposal as the quorum's log shows it (`put lock/A with a new lease`, `create
/// /lock/lock-0000000001 (ephemeral)`), for its `append` message and its commit's event; `name`
/// names an actor.
pub fn proposal_words(p: &crate::trace::Proposal, name: &dyn Fn(crate::trace::ActorId) -> String) -> String {
    use crate::trace::Proposal;
    use crate::wire::zookeeper::znode;
    match *p {
        Proposal::Lock { client, has_key: true } => format!("put lock/{} if absent, else get it", name(client)),
        Proposal::Lock { client, has_key: false } => format!("put lock/{} with a new lease", name(client)),
        Proposal::Unlock { client } => format!("delete lock/{}", name(client)),
        Proposal::Revoke { client: Some(c) } => format!("revoke {}'s lease", name(c)),
        Proposal::Revoke { client: None } => "revoke a lease".into(),
        Proposal::CreateSession { session, timeout_ms } => format!("createSession 0x{session:x} ({timeout_ms} ms)"),
        Proposal::Create { seq } => format!("create {} (ephemeral)", znode(seq)),
        Proposal::Delete { seq, missing: true } => format!("delete {}: no node (an error transaction)", znode(seq)),
        Proposal::Delete { seq, missing: false } => format!("delete {}", znode(seq)),
        Proposal::CloseSession { session } => format!("closeSession 0x{session:x}"),
    }
}

/// The payloads of a run's messages, by message: how the trace's messages are worded, when
/// shown ([`crate::trace::Run::what`]).
pub struct Payloads {
    pub payloads: Vec<Payload>,
    /// The run's actors' names, by lane.
    pub names: Vec<String>,
}

impl crate::trace::Wording for Payloads {
    fn word(&self, msg: usize) -> String {
        let name = |a: usize| self.names.get(a).cloned().unwrap_or_default();
        self.payloads.get(msg).map(|p| p.describe(&name)).unwrap_or_default()
    }

    fn count(&self) -> usize {
        self.payloads.len()
    }
}

/// [`Payload`] and its words: the common messages, and one arm per lock service that sends
/// its own (`sends` in the list, `registry::services!`).
macro_rules! payload {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        /// A message's content.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Payload {
            Redis {
                req: u64,
                cmd: RedisCmd,
            },
            RedisReply {
                req: u64,
                reply: RedisReply,
            },
            Read {
                req: u64,
                token: Option<u64>,
                activate: bool,
            },
            ReadReply {
                req: u64,
                value: i64,
                version: u64,
                refused_by: Option<u64>,
                /// For the record only (the client's logic never reads it): when the resource served
                /// the read, in true time. It travels with the write so the checker knows what was read
                /// when.
                served_us: Micros,
            },
            /// Boxed: a write is the largest message, and every message is stored as large as the
            /// largest (the run keeps each one's payload for its wording).
            Write(Box<Write>),
            WriteReply {
                req: u64,
                outcome: WriteOutcome,
                highest: u64,
            },
            /// The primary's replication stream: the key's new state (`None`: deleted).
            Replicate {
                key: &'static str,
                entry: Option<Box<Entry>>,
            },
            $($(
                #[doc = concat!("The `", $json, "` lock service's own messages (`wire::", stringify!($module), "`).")]
                $arm(crate::wire::$module::$msg),
            )?)*
            /// Consensus: the leader replicates proposal `id` to a follower.
            Append {
                id: u64,
                what: crate::trace::Proposal,
            },
            AppendAck {
                id: u64,
            },
        }

        impl Payload {
            /// The message as a short command line, for arrows and narration; `name` names an actor.
            pub fn describe(&self, name: &dyn Fn(crate::trace::ActorId) -> String) -> String {
                match self {
                    Payload::Redis { cmd, .. } => match cmd {
                        RedisCmd::Acquire { owner, ttl_ms, incr } => {
                            let base = format!("SET lock {} NX PX {ttl_ms}", short_owner(*owner));
                            if *incr {
                                format!("{base} + INCR lock:fence")
                            } else {
                                base
                            }
                        }
                        RedisCmd::Release { owner, compare: true } => format!("compare-and-delete lock {}", short_owner(*owner)),
                        RedisCmd::Release { compare: false, .. } => "DEL lock".into(),
                        RedisCmd::Renew { owner, ttl_ms, compare: true } => {
                            format!("compare-and-extend lock {} {ttl_ms}", short_owner(*owner))
                        }
                        RedisCmd::Renew { ttl_ms, compare: false, .. } => format!("PEXPIRE lock {ttl_ms}"),
                    },
                    Payload::RedisReply { reply, .. } => match reply {
                        RedisReply::Ok { token: Some(t), incr: true, .. } => format!("OK; INCR lock:fence = {t}"),
                        RedisReply::Ok { token: Some(t), incr: false, .. } => format!("OK; the counter's token {t}"),
                        RedisReply::Ok { token: None, .. } => "OK".into(),
                        RedisReply::Nil => "nil".into(),
                        RedisReply::Int(n) => format!("{n}"),
                        RedisReply::ReadOnly => "READONLY".into(),
                    },
                    Payload::Read { token: Some(t), activate: true, .. } => format!("read with token {t}"),
                    Payload::Read { .. } => "read".into(),
                    Payload::ReadReply { refused_by: Some(h), .. } => format!("refused: token below {h}"),
                    Payload::ReadReply { value, version, .. } => {
                        format!("value {value} (version {version})")
                    }
                    Payload::Write(w) => {
                        let Write { token, op, value, request, conditional, read_version, .. } = &**w;
                        let what = match op {
                            WriteOp::Set => format!("write {value}"),
                            WriteOp::Add => format!("add 1 ({request})"),
                            WriteOp::Rebuild => format!("rebuilt entry ({request})"),
                        };
                        let cond = match (conditional, read_version) {
                            (true, Some(v)) => format!(" if version = {v}"),
                            _ => String::new(),
                        };
                        match token {
                            Some(t) => format!("{what}{cond}, token {t}"),
                            None => format!("{what}{cond}"),
                        }
                    }
                    Payload::WriteReply { outcome, highest, .. } => match outcome {
                        WriteOutcome::Accepted => "ok".into(),
                        WriteOutcome::Rejected => format!("rejected: token below {highest}"),
                        WriteOutcome::Duplicate => "already done".into(),
                        WriteOutcome::Conflict => "conflict: version changed".into(),
                    },
                    Payload::Replicate { key, entry } => replicate_words(key, entry.as_ref().map(|e| e.text(key)).as_deref()),
                    $($(Payload::$arm(m) => {
                        let m: &crate::wire::$module::$msg = m;
                        m.describe()
                    })?)*
                    Payload::Append { id, what } => format!("append #{id}: {}", proposal_words(what, name)),
                    Payload::AppendAck { id } => format!("ack #{id}"),
                }
            }
        }
    };
}
crate::registry::services!(payload);
