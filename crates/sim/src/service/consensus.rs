//! The consensus lock service (SEMANTICS §4): an etcd-like cluster of members with one leader,
//! as an actor: members' messages, timers and faults in, effects out.
//!
//! A write (a lock's key, an unlock, a lease revocation) is a proposal: the leader sends it to
//! every follower and applies it once a majority, itself included, has acknowledged it; each
//! applied write takes the next revision. Leases live on the leader and expire by its monotonic
//! clock, as etcd's lessor measures them with Go's monotonic reading (SEMANTICS §4, "Which
//! clock"): a step of the leader's wall clock does not end a lease, a fast clock does; keepalives go to the leader only. The lock is the key with the lowest create revision under
//! the prefix; a waiter waits for its predecessor to go; the create revision is the fencing token.
//! A new leader refreshes every lease to its full TTL plus the election timeout. A leader that
//! goes silent (crashed or paused) is replaced after the election timeout; a paused one steps
//! down when it resumes, and one that stays leader judges expiries again only after what reached
//! it during its pause (a keepalive). Without a majority there is no leader: nothing is granted
//! and nothing expires.
//!
//! Simplifications, said in the scenarios: the committed state is kept once (committed entries
//! are on a majority, so every leader has them); the leader is the lowest-numbered live member
//! that reaches a majority; clients always know the current leader.

use crate::flat::Map;

use crate::actor::{Effect, Env, Gate, Out, Record, ServerFault};
use crate::msg::{Dest, Payload};
use crate::service::LockServer;
use crate::quorum::{self, Change};
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, Proposal, QuorumEvent};
use crate::wire::consensus::Msg;

pub mod client;
mod commit;
mod slice;
mod words;

/// The service's settings, from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub ttl_ms: Millis,
    pub election_timeout_ms: Millis,
    /// etcd's minimum lease TTL ([`crate::scenario::consensus::min_lease_ttl_ms`]).
    pub min_ttl_ms: Millis,
    pub recheck_after_wait: bool,
    /// Whether grants carry the revision as a token.
    pub tokens: bool,
    /// Chubby's lock-delay ([`Cluster::hold`]); 0 (etcd's behaviour) for none.
    pub lock_delay_ms: Millis,
}

/// The cluster's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Decide who leads.
    Election,
    /// Has this lease run out on the leader's monotonic clock?
    LeaseCheck { lease: u64, gen: u64 },
    /// Has the lock-delay passed on the leader's monotonic clock?
    LockDelay { gen: u64 },
}

/// A proposal's effect once committed.
#[derive(Clone, Debug)]
enum Op {
    Lock { client: ActorId, req: u64, ttl_ms: Millis },
    Unlock { client: ActorId, req: u64, lease: u64 },
    Revoke { lease: u64 },
}

/// A session lease: whose it is, its TTL, and when it expires on the leader's monotonic clock.
#[derive(Clone, Debug)]
struct Lease {
    client: ActorId,
    ttl_ms: Millis,
    expires_mono: Micros,
    revoking: bool,
}

#[derive(Clone, Debug)]
struct Waiter {
    client: ActorId,
    lease: u64,
    rev: u64,
    req: u64,
}

/// The cluster's state.
#[derive(Clone, Debug)]
pub struct Cluster {
    cfg: Settings,
    /// The members, who leads, and the proposals.
    q: quorum::Leadership<Op>,
    revision: u64,
    next_lease: u64,
    /// The lock keys under the prefix, by lease: (create revision, client).
    keys: Map<u64, (u64, ActorId)>,
    leases: Map<u64, Lease>,
    waiters: Vec<Waiter>,
    /// Each lease's grant, to move its promised term.
    grant_of: Map<u64, usize>,
    lease_gen: Map<u64, u64>,
    /// The end of the lock-delay under way, if any, on the leader's monotonic clock, and the
    /// generation of its timer.
    held_back: Option<Micros>,
    hold_gen: u64,
}

type Fx = Out<Timer>;

impl Cluster {
    pub fn new(members: Vec<ActorId>, cfg: Settings) -> Cluster {
        Cluster {
            q: quorum::Leadership::new(members, cfg.election_timeout_ms.to_micros()),
            cfg,
            revision: 1,
            next_lease: 1,
            keys: Map::new(),
            leases: Map::new(),
            waiters: Vec::new(),
            grant_of: Map::new(),
            lease_gen: Map::new(),
            held_back: None,
            hold_gen: 0,
        }
    }

    /// The member clients send to: the leader, or (with none) the first member.
    pub fn contact(&self) -> Option<ActorId> {
        self.q.contact()
    }

    pub fn leader(&self) -> Option<ActorId> {
        self.q.leader
    }

    fn recheck_leases(&mut self, env: &dyn Env, out: &mut Fx) {
        let ids: Vec<u64> = self.leases.keys().copied().collect();
        for id in ids {
            self.schedule_lease_check(id, env, out);
        }
        self.schedule_hold(env, out);
    }

    /// Re-evaluates leadership (after the election timeout that follows any member fault).
    fn election(&mut self, env: &dyn Env, out: &mut Fx) {
        match self.q.elect(env) {
            // The leader may have been down when a lease's check fell due (a crash and a
            // restart within the election timeout): check every lease again.
            Change::Stays => self.recheck_leases(env, out),
            Change::Elected(l) => {
                let election_us = self.cfg.election_timeout_ms.to_micros();
                let now_mono = env.mono(l);
                // etcd's Promote: every lease gets its full TTL again, plus the election timeout.
                let leases: Vec<u64> = self.leases.keys().copied().collect();
                for id in &leases {
                    let lease = self.leases.get_mut(id).expect("listed");
                    lease.expires_mono = now_mono + lease.ttl_ms.to_micros() + election_us;
                    lease.revoking = false;
                }
                out.push(Effect::Event { actor: l, kind: EventKind::Quorum(QuorumEvent::LeaderElected { leases: leases.len() }) });
                for id in leases {
                    self.schedule_lease_check(id, env, out);
                    self.update_grant_term(id, env, out);
                }
                // A lock-delay under way starts again, whole, on the new leader's clock (it
                // cannot read the old leader's): longer, never shorter, as the leases are.
                if let Some(until) = self.held_back.as_mut() {
                    *until = now_mono + self.cfg.lock_delay_ms.to_micros();
                    self.schedule_hold(env, out);
                }
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

    fn schedule_lease_check(&mut self, lease: u64, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let Some(expires) = self.leases.get(&lease).map(|l| l.expires_mono) else { return };
        let gen = self.lease_gen.entry(lease).or_insert(0);
        *gen += 1;
        let gen = *gen;
        if let Some(at) = env.when_mono_reads(leader, expires) {
            out.push(Effect::Timer { actor: leader, at, timer: Timer::LeaseCheck { lease, gen }, gate: Gate::Always });
        }
    }

    fn update_grant_term(&mut self, lease: u64, env: &dyn Env, out: &mut Fx) {
        let (Some(&g), Some(l), Some(leader)) = (self.grant_of.get(&lease), self.leases.get(&lease), self.q.leader) else { return };
        let until_us = env.when_mono_reads(leader, l.expires_mono).unwrap_or(env.end());
        out.push(Effect::Record(Record::GrantTerm { grant: g, until_us }));
    }

    fn lease_check(&mut self, lease: u64, gen: u64, env: &dyn Env, out: &mut Fx) {
        if self.lease_gen.get(&lease) != Some(&gen) {
            return;
        }
        let Some((leader, mono)) = self.q.judge_now(env) else { return };
        let Some(l) = self.leases.get_mut(&lease) else { return };
        if l.revoking || mono < l.expires_mono {
            return;
        }
        l.revoking = true;
        let client = l.client;
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LeaseExpired { client }) });
        self.propose(Op::Revoke { lease }, env, out);
    }

    /// Chubby's lock-delay (Burrows, OSDI '06, §2.4; SEMANTICS §5.4): when a holder is lost
    /// (its lease expired while it held the lock; a release is not a loss), the lock is granted
    /// to no one for `lock_delay_ms`, timed like the leases on the leader's monotonic clock, so
    /// that what the lost holder sent before it went quiet can land first. etcd has no
    /// lock-delay; the model adds it as a setting to show what it buys and what it does not (a
    /// holder silent for longer than the TTL plus the delay).
    fn hold(&mut self, client: ActorId, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let until_mono = env.mono(leader) + self.cfg.lock_delay_ms.to_micros();
        self.held_back = Some(until_mono);
        let until_us = env.when_mono_reads(leader, until_mono).unwrap_or(env.end());
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LockDelayed { client, until_us }) });
        self.schedule_hold(env, out);
    }

    fn schedule_hold(&mut self, env: &dyn Env, out: &mut Fx) {
        let (Some(leader), Some(until_mono)) = (self.q.leader, self.held_back) else { return };
        self.hold_gen += 1;
        if let Some(at) = env.when_mono_reads(leader, until_mono) {
            out.push(Effect::Timer { actor: leader, at, timer: Timer::LockDelay { gen: self.hold_gen }, gate: Gate::Always });
        }
    }

    /// The lock-delay has passed if the leader can judge it now: the waiters are woken.
    fn hold_check(&mut self, gen: u64, env: &dyn Env, out: &mut Fx) {
        if gen != self.hold_gen {
            return;
        }
        let Some((_, mono)) = self.q.judge_now(env) else { return };
        if self.held_back.is_some_and(|until| mono >= until) {
            self.held_back = None;
            self.wake_waiters(env, out);
        }
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

    /// The proposal as the log holds it, as of now.
    fn proposal(&self, op: &Op) -> Proposal {
        match *op {
            Op::Lock { client, .. } => Proposal::Lock { client, has_key: self.keys.values().any(|k| k.1 == client) },
            Op::Unlock { client, .. } => Proposal::Unlock { client },
            Op::Revoke { lease } => Proposal::Revoke { client: self.leases.get(&lease).map(|l| l.client) },
        }
    }

    /// Applies what a majority now has, in log order.
    fn commit_ready(&mut self, env: &dyn Env, out: &mut Fx) {
        for op in self.q.log.committed(&self.q.members) {
            self.apply(op, env, out);
        }
    }
}

/// The members run the lock service: elections, leases and the lock keys, on a quorum.
impl LockServer for Cluster {
    type Timer = Timer;

    /// Where a client's message goes: to the member it believes leads.
    fn route(&self, dest: Dest) -> Option<ActorId> {
        crate::service::to_leader(dest, self.contact())
    }

    /// The first election, as the run starts.
    fn start(&mut self, out: &mut Fx) {
        out.push(self.q.first_election(Timer::Election));
    }

    fn on_timer(&mut self, _at: ActorId, timer: Timer, env: &dyn Env, out: &mut Fx) {
        match timer {
            Timer::Election => self.election(env, out),
            Timer::LeaseCheck { lease, gen } => self.lease_check(lease, gen, env, out),
            Timer::LockDelay { gen } => self.hold_check(gen, env, out),
        }
    }

    /// Any fault to a member: leadership is decided again after the election timeout.
    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Fx) {
        if self.q.on_fault(fault, env, Timer::Election, out) {
            self.recheck_leases(env, out);
        }
    }

    /// Member `m` handles a message.
    fn on_message(&mut self, m: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Fx) {
        let leader = self.q.leader;
        let reply = |payload| Effect::Send { from: m, to: from, payload };
        match payload {
            Payload::Append { id, .. } => out.push(reply(Payload::AppendAck { id })),
            Payload::AppendAck { id } if leader == Some(m) => {
                self.q.log.ack(id, from);
                self.commit_ready(env, out);
            }
            _ if leader != Some(m) => {} // not the leader: client requests go unanswered
            Payload::Consensus(Msg::Lock { req, ttl_ms }) => self.propose(Op::Lock { client: from, req, ttl_ms }, env, out),
            Payload::Consensus(Msg::Unlock { req, lease }) => self.propose(Op::Unlock { client: from, req, lease }, env, out),
            Payload::Consensus(Msg::KeepAlive { req, lease }) => {
                let mono = env.mono(m);
                match self.leases.get_mut(&lease) {
                    Some(l) if !l.revoking => {
                        l.expires_mono = mono + l.ttl_ms.to_micros();
                        self.schedule_lease_check(lease, env, out);
                        self.update_grant_term(lease, env, out);
                        out.push(reply(Payload::Consensus(Msg::KeepAliveOk { req })));
                    }
                    _ => out.push(reply(Payload::Consensus(Msg::LeaseNotFound { req }))),
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
