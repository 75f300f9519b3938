//! The ZooKeeper ensemble as an actor: the leader commits creates, deletes and session changes
//! on a majority, each with the next zxid; it tracks sessions and expires one when it has heard
//! nothing from its client for the session timeout, by its own monotonic clock (ZooKeeper's
//! session tracker counts `Time.currentElapsedTime()`, `System.nanoTime`), deleting the session's
//! ephemeral znodes in the same transaction; it answers reads and sets watches, and a delete
//! fires the watches on that znode. With a lock-delay (Chubby's, which ZooKeeper does not have),
//! an expired holder's znode is kept for the delay (`server/delay.rs`).

use crate::flat::{Map, Set};

use super::Msg;
use crate::actor::{Effect, Env, Gate, Out, Record, ServerFault};
use crate::msg::{Dest, Payload};
use crate::service::LockServer;
use crate::quorum::{self, Change};
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, Grant, Proposal, QuorumEvent};

mod commit;
mod delay;

/// The ensemble's settings, from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub election_timeout_ms: Millis,
    /// Whether grants carry the znode's czxid as a token.
    pub tokens: bool,
    /// Chubby's lock-delay (`server/delay.rs`); 0 (ZooKeeper's behaviour) for none.
    pub lock_delay_ms: Millis,
}

/// The ensemble's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Election,
    /// Has this session gone silent for its timeout, by the leader's monotonic clock?
    SessionCheck {
        session: u64,
        gen: u64,
    },
    /// Has the lock-delay passed on the leader's monotonic clock?
    LockDelay {
        gen: u64,
    },
}

/// A proposal's effect once committed.
#[derive(Clone, Debug)]
enum Op {
    CreateSession {
        client: ActorId,
        req: u64,
        timeout_ms: Millis,
        session: u64,
    },
    Create {
        client: ActorId,
        req: u64,
        session: u64,
        seq: u64,
    },
    Delete {
        client: ActorId,
        req: u64,
        seq: u64,
    },
    /// On expiry (no reply), or at the client's `closeSession` (the reply to send).
    CloseSession {
        session: u64,
        reply: Option<(ActorId, u64)>,
    },
    /// The lock-delay has passed: the expired holder's znode it kept is deleted.
    EndDelay {
        seq: u64,
    },
}

#[derive(Clone, Debug)]
struct Session {
    client: ActorId,
    timeout_ms: Millis,
    /// When it expires on the leader's monotonic clock, unless the client is heard from first.
    expires_mono: Micros,
    closing: bool,
}

#[derive(Clone, Debug)]
struct Znode {
    session: u64,
    client: ActorId,
    czxid: u64,
}

/// The ensemble's state (committed state is kept once: every leader has it).
#[derive(Clone, Debug)]
pub struct Ensemble {
    cfg: Settings,
    /// The servers, who leads, and the proposals.
    q: quorum::Leadership<Op>,
    zxid: u64,
    next_session: u64,
    next_seq: u64,
    sessions: Map<u64, Session>,
    /// The children of `/lock`, by sequence number.
    znodes: Map<u64, Znode>,
    /// Per znode, the sessions watching it, and their clients.
    watches: Map<u64, Set<(u64, ActorId)>>,
    /// Per znode, the grant made when its client learned it was the lowest.
    grant_of: Map<u64, usize>,
    session_gen: Map<u64, u64>,
    /// The expired holder's znode kept for the lock-delay, if any (`server/delay.rs`).
    held: Option<delay::Held>,
    hold_gen: u64,
}

type Fx = Out<Timer>;

impl Ensemble {
    pub fn new(members: Vec<ActorId>, cfg: Settings) -> Ensemble {
        Ensemble {
            q: quorum::Leadership::new(members, cfg.election_timeout_ms.to_micros()),
            cfg,
            zxid: 0,
            next_session: 1,
            next_seq: 0,
            sessions: Map::new(),
            znodes: Map::new(),
            watches: Map::new(),
            grant_of: Map::new(),
            session_gen: Map::new(),
            held: None,
            hold_gen: 0,
        }
    }

    /// The server clients talk to: the leader, or (with none) the first server.
    pub fn contact(&self) -> Option<ActorId> {
        self.q.contact()
    }

    fn recheck_sessions(&mut self, env: &dyn Env, out: &mut Fx) {
        let ids: Vec<u64> = self.sessions.keys().copied().collect();
        for id in ids {
            self.schedule_check(id, env, out);
        }
        self.schedule_hold(env, out);
    }

    fn election(&mut self, env: &dyn Env, out: &mut Fx) {
        match self.q.elect(env) {
            // The leader may have been down when a session's check fell due (a crash and a
            // restart within the election timeout): check every session again.
            Change::Stays => self.recheck_sessions(env, out),
            Change::Elected(l) => {
                // The new leader's session tracker starts every session's timeout afresh.
                let now_mono = env.mono(l);
                let ids: Vec<u64> = self.sessions.keys().copied().collect();
                for s in self.sessions.values_mut() {
                    s.expires_mono = now_mono + s.timeout_ms.to_micros();
                    s.closing = false;
                }
                out.push(Effect::Event { actor: l, kind: EventKind::Quorum(QuorumEvent::LeaderElected { leases: ids.len() }) });
                for id in ids {
                    self.schedule_check(id, env, out);
                }
                self.restart_hold(now_mono, env, out);
            }
            // The leader has not been silent for an election timeout yet.
            Change::Waits { .. } => {}
            Change::NoQuorum { say_at, since_us } => {
                if let Some(at) = say_at {
                    out.push(Effect::Event { actor: at, kind: EventKind::Quorum(QuorumEvent::NoQuorum { since_us }) });
                }
            }
        }
    }

    /// The client was heard from: its session lives another timeout, and so does its grant.
    fn touch(&mut self, session: u64, env: &dyn Env, out: &mut Fx) {
        let Some(l) = self.q.leader else { return };
        let mono = env.mono(l);
        if let Some(s) = self.sessions.get_mut(&session) {
            s.expires_mono = mono + s.timeout_ms.to_micros();
        }
        self.schedule_check(session, env, out);
    }

    fn schedule_check(&mut self, session: u64, env: &dyn Env, out: &mut Fx) {
        let (Some(leader), Some(expires)) = (self.q.leader, self.sessions.get(&session).map(|s| s.expires_mono)) else { return };
        let gen = self.session_gen.entry(session).or_insert(0);
        *gen += 1;
        let gen = *gen;
        let at = env.when_mono_reads(leader, expires);
        if let Some(at) = at {
            out.push(Effect::Timer { actor: leader, at, timer: Timer::SessionCheck { session, gen }, gate: Gate::Always });
        }
        let until_us = at.unwrap_or(env.end());
        for (seq, z) in &self.znodes {
            if let (true, Some(&grant)) = (z.session == session, self.grant_of.get(seq)) {
                out.push(Effect::Record(Record::GrantTerm { grant, until_us }));
            }
        }
    }

    fn session_check(&mut self, session: u64, gen: u64, env: &dyn Env, out: &mut Fx) {
        if self.session_gen.get(&session) != Some(&gen) {
            return;
        }
        let Some((leader, mono)) = self.q.judge_now(env) else { return };
        let Some(s) = self.sessions.get_mut(&session) else { return };
        if s.closing || mono < s.expires_mono {
            return;
        }
        s.closing = true;
        let client = s.client;
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LeaseExpired { client }) });
        self.propose(Op::CloseSession { session, reply: None }, env, out);
    }

    /// Whether `session` is open (known and not being closed).
    fn alive(&self, session: u64) -> bool {
        self.sessions.get(&session).is_some_and(|s| !s.closing)
    }

    fn request(&mut self, m: ActorId, from: ActorId, msg: Msg, env: &dyn Env, out: &mut Fx) {
        let reply = |msg| Effect::Send { from: m, to: from, payload: Payload::ZooKeeper(msg) };
        let session = match msg {
            Msg::Create { session, .. }
            | Msg::GetChildren { session, .. }
            | Msg::Exists { session, .. }
            | Msg::Ping { session, .. }
            | Msg::Delete { session, .. }
            | Msg::Close { session, .. } => Some(session),
            _ => None,
        };
        if let (Some(s), Some(req)) = (session, msg.req()) {
            if !self.alive(s) {
                out.push(reply(Msg::SessionExpired { req }));
                return;
            }
            self.touch(s, env, out);
        }
        match msg {
            Msg::Connect { req, timeout_ms } => {
                let session = self.next_session;
                self.next_session += 1;
                self.propose(Op::CreateSession { client: from, req, timeout_ms, session }, env, out);
            }
            Msg::Create { req, session } => {
                if let Some((&seq, z)) = self.znodes.iter().find(|(_, z)| z.session == session) {
                    // A session has one lock znode: a repeated create (after a lost reply) finds
                    // it, as real clients do by the GUID in its name.
                    out.push(reply(Msg::Created { req, seq, zxid: z.czxid }));
                    return;
                }
                // The leader names the znode as it takes the request (the sequence suffix).
                let seq = self.next_seq;
                self.next_seq += 1;
                self.propose(Op::Create { client: from, req, session, seq }, env, out);
            }
            // A delete of a missing znode is a transaction too: ZooKeeper's request processor
            // turns the failed check into an error transaction, which takes the next zxid and
            // is committed like any other (a real server's reply to it carries that zxid).
            Msg::Delete { req, seq, .. } => self.propose(Op::Delete { client: from, req, seq }, env, out),
            Msg::Close { req, session } => {
                if let Some(s) = self.sessions.get_mut(&session) {
                    s.closing = true;
                }
                self.propose(Op::CloseSession { session, reply: Some((from, req)) }, env, out);
            }
            Msg::Ping { req, .. } => out.push(reply(Msg::Pong { req })),
            Msg::Exists { req, seq, session } => {
                let exists = self.znodes.contains_key(&seq);
                if exists {
                    self.watches.entry(seq).or_default().insert((session, from));
                }
                out.push(reply(Msg::ExistsReply { req, exists }));
            }
            Msg::GetChildren { req, session } => {
                let children: Vec<u64> = self.znodes.keys().copied().collect();
                let lowest = children.first().copied();
                let grant = match lowest {
                    Some(seq) if self.znodes[&seq].session == session => self.grant(seq, env, out),
                    _ => None,
                };
                out.push(reply(Msg::Children { req, children, grant }));
            }
            _ => {}
        }
    }

    /// The client of the lowest znode learns it is the lowest: by the recipe, it holds the lock.
    fn grant(&mut self, seq: u64, env: &dyn Env, out: &mut Fx) -> Option<usize> {
        if let Some(&g) = self.grant_of.get(&seq) {
            return Some(g);
        }
        let leader = self.q.leader?;
        let z = self.znodes.get(&seq)?.clone();
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LockGranted { client: z.client, rev: z.czxid, key_exists: true }) });
        let token = self.cfg.tokens.then_some(z.czxid);
        if let Some(t) = token {
            out.push(Effect::Record(Record::Token { client: z.client, token: t, durable: false }));
        }
        let g = crate::actor::next_grant(env, out);
        let expires = self.sessions.get(&z.session).map(|s| s.expires_mono);
        let term_end_us = expires.and_then(|e| env.when_mono_reads(leader, e)).unwrap_or(env.end());
        let now = env.now();
        let grant =
            Grant { client: z.client, node: leader, at_us: now, token, event: 0, term_end_us, released_us: None, votes: vec![leader], extended: Vec::new() };
        out.push(Effect::Record(Record::Grant(Box::new(grant))));
        self.grant_of.insert(seq, g);
        Some(g)
    }

    fn propose(&mut self, op: Op, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let what = self.proposal(&op);
        let id = self.q.log.propose(op);
        for &f in self.q.members.iter().filter(|&&m| m != leader) {
            out.push(Effect::Send { from: leader, to: f, payload: Payload::Append { id, what } });
        }
        self.commit_ready(env, out);
    }

    /// The transaction as the log holds it, as of now.
    fn proposal(&self, op: &Op) -> Proposal {
        match *op {
            Op::CreateSession { timeout_ms, session, .. } => Proposal::CreateSession { session, timeout_ms },
            Op::Create { seq, .. } => Proposal::Create { seq },
            Op::Delete { seq, .. } => Proposal::Delete { seq, missing: !self.znodes.contains_key(&seq) },
            Op::CloseSession { session, .. } => Proposal::CloseSession { session },
            Op::EndDelay { seq } => Proposal::Delete { seq, missing: false },
        }
    }

    /// Applies what a majority now has, in log order.
    fn commit_ready(&mut self, env: &dyn Env, out: &mut Fx) {
        for op in self.q.log.committed(&self.q.members) {
            self.apply(op, env, out);
        }
    }
}

/// The servers run the lock service: elections, sessions and the lock's znodes, on a quorum.
impl LockServer for Ensemble {
    type Timer = Timer;

    /// Where a client's message goes: to the member it believes leads.
    fn route(&self, dest: Dest) -> Option<ActorId> {
        crate::service::to_leader(dest, self.contact())
    }

    fn start(&mut self, out: &mut Fx) {
        out.push(self.q.first_election(Timer::Election));
    }

    fn on_timer(&mut self, _at: ActorId, timer: Timer, env: &dyn Env, out: &mut Fx) {
        match timer {
            Timer::Election => self.election(env, out),
            Timer::SessionCheck { session, gen } => self.session_check(session, gen, env, out),
            Timer::LockDelay { gen } => self.hold_check(gen, env, out),
        }
    }

    /// Any fault to a server: who leads is decided again after the election timeout.
    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Fx) {
        if self.q.on_fault(fault, env, Timer::Election, out) {
            self.recheck_sessions(env, out);
        }
    }

    /// Server `m` handles a message.
    fn on_message(&mut self, m: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Fx) {
        let leader = self.q.leader;
        match payload {
            Payload::Append { id, .. } => out.push(Effect::Send { from: m, to: from, payload: Payload::AppendAck { id } }),
            Payload::AppendAck { id } if leader == Some(m) => {
                self.q.log.ack(id, from);
                self.commit_ready(env, out);
            }
            Payload::ZooKeeper(msg) if leader == Some(m) => self.request(m, from, msg, env, out),
            _ => {} // not the leader: requests go unanswered
        }
    }
}

#[cfg(test)]
mod tests;
