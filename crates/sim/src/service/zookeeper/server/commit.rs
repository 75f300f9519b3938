//! What a committed transaction does: a session opened or closed (with its ephemeral znodes,
//! or, with a lock-delay, all but the expired holder's: `delay.rs`), a znode created or
//! deleted, and the watches a delete fires.

use super::{Ensemble, Fx, Op, Session, Znode};
use crate::actor::{Effect, Env, Record};
use crate::msg::Payload;
use crate::service::zookeeper::Msg;
use crate::trace::{ActorId, EventKind, KeyEnd, QuorumEvent};

impl Ensemble {
    pub(super) fn apply(&mut self, op: Op, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let what = self.proposal(&op);
        self.zxid += 1;
        let zxid = self.zxid;
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::Committed { what, revision: zxid }) });
        let reply = |to, msg| Effect::Send { from: leader, to, payload: Payload::ZooKeeper(msg) };
        match op {
            Op::CreateSession { client, req, timeout_ms, session } => {
                let expires_mono = env.mono(leader) + timeout_ms.to_micros();
                self.sessions.insert(session, Session { client, timeout_ms, expires_mono, closing: false });
                self.schedule_check(session, env, out);
                out.push(reply(client, Msg::Connected { req, session }));
            }
            Op::Create { client, req, session, .. } if !self.sessions.contains_key(&session) => {
                out.push(reply(client, Msg::SessionExpired { req }));
            }
            Op::Create { client, req, session, seq } => {
                self.znodes.insert(seq, Znode { session, client, czxid: zxid });
                out.push(Effect::Record(Record::KeyOpen { handle: seq, node: leader, owner: Some(client) }));
                out.push(reply(client, Msg::Created { req, seq, zxid }));
            }
            Op::Delete { client, req, seq } => {
                let done = if self.drop_znode(seq, KeyEnd::Deleted, out) { Msg::DeleteOk { req } } else { Msg::NoNode { req } };
                out.push(reply(client, done));
            }
            Op::CloseSession { session, reply: to } => {
                self.sessions.remove(&session);
                let gone: Vec<(u64, ActorId)> =
                    self.znodes.iter().filter(|(_, z)| z.session == session).map(|(s, z)| (*s, z.client)).collect();
                // A client's own close gives its znode back, as a delete would; an expiry ends it,
                // or, with a lock-delay, ends the holder's grant and keeps its znode (`delay.rs`).
                let end = if to.is_some() { KeyEnd::Deleted } else { KeyEnd::Expired };
                for (seq, client) in gone {
                    if end == KeyEnd::Expired && self.keeps(seq) {
                        let grant = self.grant_of.remove(&seq).expect("a kept znode was granted");
                        out.push(Effect::Record(Record::GrantEnded { grant }));
                        self.hold(seq, client, env, out);
                    } else {
                        self.drop_znode(seq, end, out);
                    }
                }
                // The session's other watches end with it (its own znodes' fired first, as a
                // real server notifies before it answers the close): a real server closes the
                // session's connection, and what fires later reaches no one.
                for w in self.watches.values_mut() {
                    *w = w.iter().copied().filter(|&(s, _)| s != session).collect();
                }
                if let Some((client, req)) = to {
                    out.push(reply(client, Msg::Closed { req }));
                }
            }
            Op::EndDelay { seq } => self.end_delay(seq, out),
        }
    }

    /// Znode `seq` goes (deleted, or its session expired), with its grant, and its watches
    /// fire. Whether it was there.
    pub(super) fn drop_znode(&mut self, seq: u64, end: KeyEnd, out: &mut Fx) -> bool {
        if self.znodes.remove(&seq).is_none() {
            return false;
        }
        out.push(Effect::Record(Record::KeyClose { handle: seq, end }));
        if let Some(grant) = self.grant_of.remove(&seq) {
            out.push(Effect::Record(if end == KeyEnd::Deleted { Record::GrantReleased { grant } } else { Record::GrantEnded { grant } }));
        }
        self.fire_watches(seq, out);
        true
    }

    /// A deleted znode's watches fire once, each to its client.
    fn fire_watches(&mut self, seq: u64, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        for (_, client) in self.watches.remove(&seq).unwrap_or_default() {
            out.push(Effect::Send { from: leader, to: client, payload: Payload::ZooKeeper(Msg::Deleted { seq }) });
        }
    }
}
