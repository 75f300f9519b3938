//! The consensus lock service (SEMANTICS §4): an etcd-like cluster of members with one leader,
//! as an actor: members' messages, timers and faults in, effects out.
//!
//! A write (a lock's key, an unlock, a lease revocation) is a proposal: the leader sends it to
//! every follower and applies it once a majority, itself included, has acknowledged it; each
//! applied write takes the next revision. Leases live on the leader and expire by its clock;
//! keepalives go to the leader only. The lock is the key with the lowest create revision under
//! the prefix; a waiter waits for its predecessor to go; the create revision is the fencing token.
//! A new leader refreshes every lease to its full TTL plus the election timeout. Without a
//! majority there is no leader: nothing is granted and nothing expires.
//!
//! Simplifications, said in the scenarios: the committed state is kept once (committed entries
//! are on a majority, so every leader has them); the leader is the lowest-numbered live member
//! that reaches a majority; clients always know the current leader.

use std::collections::{BTreeMap, BTreeSet};

use crate::actor::{Effect, Env, Gate, Out, Record, ServerFault};
use crate::msg::Payload;
use crate::time::{fmt, ms, Micros};
use crate::trace::{ActorId, EventKind, Grant, KeyEnd};

pub mod client;

/// The service's settings, from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub ttl_ms: u64,
    pub election_timeout_ms: u64,
    /// etcd's minimum lease TTL ([`crate::scenario::min_lease_ttl_ms`]).
    pub min_ttl_ms: u64,
    pub recheck_after_wait: bool,
    /// Whether grants carry the revision as a token.
    pub tokens: bool,
}

/// The cluster's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// Decide who leads.
    Election,
    /// Has this lease run out on the leader's clock?
    LeaseCheck { lease: u64, gen: u64 },
}

/// A proposal's effect once committed.
#[derive(Clone, Debug)]
enum Op {
    Lock { client: ActorId, req: u64, ttl_ms: u64 },
    Unlock { client: ActorId, req: u64, lease: u64 },
    Revoke { lease: u64 },
}

#[derive(Clone, Debug)]
struct Proposal {
    id: u64,
    op: Op,
    acks: BTreeSet<ActorId>,
}

/// A session lease: whose it is, its TTL, and when it expires on the leader's clock.
#[derive(Clone, Debug)]
struct Lease {
    client: ActorId,
    ttl_ms: u64,
    expires_local: Micros,
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
    members: Vec<ActorId>,
    leader: Option<ActorId>,
    revision: u64,
    next_lease: u64,
    next_proposal: u64,
    /// The lock keys under the prefix, by lease: (create revision, client).
    keys: BTreeMap<u64, (u64, ActorId)>,
    leases: BTreeMap<u64, Lease>,
    waiters: Vec<Waiter>,
    pending: Vec<Proposal>,
    /// Each lease's grant, to move its promised term.
    grant_of: BTreeMap<u64, usize>,
    lease_gen: BTreeMap<u64, u64>,
    no_quorum_said: bool,
}

type Fx = Out<Timer>;

/// The index the next grant recorded by these effects will have.
fn next_grant(env: &dyn Env, out: &Fx) -> usize {
    env.next_grant() + out.iter().filter(|e| matches!(e, Effect::Record(Record::Grant(_)))).count()
}

impl Cluster {
    pub fn new(members: Vec<ActorId>, cfg: Settings) -> Cluster {
        Cluster {
            cfg,
            members,
            leader: None,
            revision: 1,
            next_lease: 1,
            next_proposal: 1,
            keys: BTreeMap::new(),
            leases: BTreeMap::new(),
            waiters: Vec::new(),
            pending: Vec::new(),
            grant_of: BTreeMap::new(),
            lease_gen: BTreeMap::new(),
            no_quorum_said: false,
        }
    }

    /// The member clients send to: the leader, or (with none) the first member.
    pub fn contact(&self) -> Option<ActorId> {
        self.leader.or(self.members.first().copied())
    }

    pub fn leader(&self) -> Option<ActorId> {
        self.leader
    }

    /// The first election, as the run starts.
    pub fn start(&mut self, out: &mut Fx) {
        out.push(Effect::Timer { actor: self.members[0], at: 0, timer: Timer::Election, gate: Gate::Always });
    }

    fn majority(&self) -> usize {
        self.members.len() / 2 + 1
    }

    /// Whether member `m` is up and can reach a majority (itself included).
    fn reaches_majority(&self, m: ActorId, env: &dyn Env) -> bool {
        if env.is_down(m) {
            return false;
        }
        let reach = self.members.iter().filter(|&&o| !env.is_down(o) && !env.cut(m, o)).count();
        reach >= self.majority()
    }

    pub fn on_timer(&mut self, timer: Timer, env: &dyn Env, out: &mut Fx) {
        match timer {
            Timer::Election => self.election(env, out),
            Timer::LeaseCheck { lease, gen } => self.lease_check(lease, gen, env, out),
        }
    }

    /// Any fault to a member: leadership is decided again after the election timeout.
    pub fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Fx) {
        if fault != ServerFault::Failover {
            let at = env.now() + ms(self.cfg.election_timeout_ms as i64);
            out.push(Effect::Timer { actor: self.members[0], at, timer: Timer::Election, gate: Gate::Always });
        }
    }

    /// Re-evaluates leadership (after the election timeout that follows any member fault).
    fn election(&mut self, env: &dyn Env, out: &mut Fx) {
        let current = self.leader;
        if current.is_some_and(|l| self.reaches_majority(l, env)) {
            return;
        }
        match self.members.iter().copied().find(|&m| self.reaches_majority(m, env)) {
            Some(l) => {
                let election_us = ms(self.cfg.election_timeout_ms as i64);
                let now_local = env.local(l);
                self.leader = Some(l);
                self.pending.clear();
                self.no_quorum_said = false;
                // etcd's Promote: every lease gets its full TTL again, plus the election timeout.
                let leases: Vec<u64> = self.leases.keys().copied().collect();
                for id in &leases {
                    let lease = self.leases.get_mut(id).expect("listed");
                    lease.expires_local = now_local + ms(lease.ttl_ms as i64) + election_us;
                    lease.revoking = false;
                }
                out.push(Effect::Event { actor: l, kind: EventKind::LeaderElected { leases: leases.len() } });
                for id in leases {
                    self.schedule_lease_check(id, env, out);
                    self.update_grant_term(id, env, out);
                }
            }
            None => {
                self.leader = None;
                self.pending.clear();
                if !self.no_quorum_said {
                    self.no_quorum_said = true;
                    let at = current.unwrap_or(self.members[0]);
                    out.push(Effect::Event { actor: at, kind: EventKind::NoQuorum });
                }
            }
        }
    }

    fn schedule_lease_check(&mut self, lease: u64, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.leader else { return };
        let Some(expires) = self.leases.get(&lease).map(|l| l.expires_local) else { return };
        let gen = self.lease_gen.entry(lease).or_insert(0);
        *gen += 1;
        let gen = *gen;
        if let Some(at) = env.when_reads(leader, expires) {
            out.push(Effect::Timer { actor: leader, at, timer: Timer::LeaseCheck { lease, gen }, gate: Gate::Always });
        }
    }

    fn update_grant_term(&mut self, lease: u64, env: &dyn Env, out: &mut Fx) {
        let (Some(&g), Some(l), Some(leader)) = (self.grant_of.get(&lease), self.leases.get(&lease), self.leader) else { return };
        let until_us = env.when_reads(leader, l.expires_local).unwrap_or(env.end());
        out.push(Effect::Record(Record::GrantTerm { grant: g, until_us }));
    }

    fn lease_check(&mut self, lease: u64, gen: u64, env: &dyn Env, out: &mut Fx) {
        if self.lease_gen.get(&lease) != Some(&gen) {
            return;
        }
        let Some(leader) = self.leader else { return };
        if env.is_down(leader) {
            return;
        }
        if let Some(until) = env.paused_until(leader) {
            // A paused leader expires nothing until it runs again.
            out.push(Effect::Timer { actor: leader, at: until, timer: Timer::LeaseCheck { lease, gen }, gate: Gate::Always });
            return;
        }
        let local = env.local(leader);
        let Some(l) = self.leases.get_mut(&lease) else { return };
        if l.revoking || local < l.expires_local {
            return;
        }
        l.revoking = true;
        let client = l.client;
        out.push(Effect::Event { actor: leader, kind: EventKind::LeaseExpired { client } });
        self.propose(Op::Revoke { lease }, env, out);
    }

    fn propose(&mut self, op: Op, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.leader else { return };
        let what = self.describe_op(&op, env);
        let id = self.next_proposal;
        self.next_proposal += 1;
        self.pending.push(Proposal { id, op, acks: BTreeSet::new() });
        for &f in self.members.iter().filter(|&&m| m != leader) {
            out.push(Effect::Send { from: leader, to: f, payload: Payload::Append { id, what: what.clone() } });
        }
        self.try_commit(id, env, out);
    }

    fn describe_op(&self, op: &Op, env: &dyn Env) -> String {
        match op {
            Op::Lock { client, .. } => format!("put lock/{} with a new lease", env.name(*client)),
            Op::Unlock { client, .. } => format!("delete lock/{}", env.name(*client)),
            Op::Revoke { lease } => {
                let who = self.leases.get(lease).map(|l| env.name(l.client).to_string()).unwrap_or_default();
                format!("revoke {who}'s lease")
            }
        }
    }

    fn try_commit(&mut self, id: u64, env: &dyn Env, out: &mut Fx) {
        let Some(pos) = self.pending.iter().position(|p| p.id == id) else { return };
        if self.pending[pos].acks.len() + 1 < self.majority() {
            return;
        }
        let p = self.pending.remove(pos);
        self.apply(p.op, env, out);
    }

    /// Member `m` handles a message.
    pub fn on_message(&mut self, m: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Fx) {
        let leader = self.leader;
        let reply = |payload| Effect::Send { from: m, to: from, payload };
        match payload {
            Payload::Append { id, .. } => out.push(reply(Payload::AppendAck { id })),
            Payload::AppendAck { id } if leader == Some(m) => {
                if let Some(p) = self.pending.iter_mut().find(|p| p.id == id) {
                    p.acks.insert(from);
                }
                self.try_commit(id, env, out);
            }
            _ if leader != Some(m) => {} // not the leader: client requests go unanswered
            Payload::CLock { req, ttl_ms } => self.propose(Op::Lock { client: from, req, ttl_ms }, env, out),
            Payload::CUnlock { req, lease } => self.propose(Op::Unlock { client: from, req, lease }, env, out),
            Payload::CKeepAlive { req, lease } => {
                let local = env.local(m);
                match self.leases.get_mut(&lease) {
                    Some(l) if !l.revoking => {
                        l.expires_local = local + ms(l.ttl_ms as i64);
                        self.schedule_lease_check(lease, env, out);
                        self.update_grant_term(lease, env, out);
                        out.push(reply(Payload::CKeepAliveOk { req }));
                    }
                    _ => out.push(reply(Payload::CLeaseNotFound { req })),
                }
            }
            _ => {}
        }
    }

    fn apply(&mut self, op: Op, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.leader else { return };
        let what = self.describe_op(&op, env);
        let committed = |revision| Effect::Event { actor: leader, kind: EventKind::Committed { what: what.clone(), revision } };
        match op {
            Op::Lock { client, req, ttl_ms } => {
                // Like etcd's LeaseGrant, a TTL below the minimum is raised to it.
                let ttl_ms = ttl_ms.max(self.cfg.min_ttl_ms);
                let local = env.local(leader);
                let lease = self.next_lease;
                self.next_lease += 1;
                self.revision += 1;
                let rev = self.revision;
                self.leases.insert(lease, Lease { client, ttl_ms, expires_local: local + ms(ttl_ms as i64), revoking: false });
                self.keys.insert(lease, (rev, client));
                out.push(committed(rev));
                out.push(Effect::Record(Record::KeyOpen { handle: lease, node: leader, owner: Some(client) }));
                self.schedule_lease_check(lease, env, out);
                let lowest = self.keys.values().map(|k| k.0).min();
                if lowest == Some(rev) {
                    self.grant(client, lease, rev, req, true, env, out);
                } else {
                    self.waiters.push(Waiter { client, lease, rev, req });
                    out.push(Effect::Event { actor: leader, kind: EventKind::Queued { rev } });
                    out.push(Effect::Send { from: leader, to: client, payload: Payload::CQueued { req, rev, lease } });
                }
            }
            Op::Unlock { client, req, lease } => {
                let rev = self.delete_key(lease, KeyEnd::Deleted, out);
                out.push(committed(rev));
                if let Some(g) = self.grant_of.remove(&lease) {
                    out.push(Effect::Record(Record::GrantReleased { grant: g }));
                }
                out.push(Effect::Send { from: leader, to: client, payload: Payload::CUnlocked { req } });
                self.wake_waiters(env, out);
            }
            Op::Revoke { lease } => {
                let rev = self.delete_key(lease, KeyEnd::Expired, out);
                out.push(committed(rev));
                if let Some(g) = self.grant_of.remove(&lease) {
                    out.push(Effect::Record(Record::GrantEnded { grant: g }));
                }
                self.wake_waiters(env, out);
            }
        }
    }

    /// Deletes a session's key and lease; returns the new revision.
    fn delete_key(&mut self, lease: u64, end: KeyEnd, out: &mut Fx) -> u64 {
        self.revision += 1;
        self.keys.remove(&lease);
        self.leases.remove(&lease);
        out.push(Effect::Record(Record::KeyClose { handle: lease, end }));
        self.revision
    }

    /// A waiter whose predecessor is gone holds the lock, if its own key is still there (or,
    /// with `recheck_after_wait: false`, whether or not it is: etcd#11456).
    fn wake_waiters(&mut self, env: &dyn Env, out: &mut Fx) {
        let waiters = std::mem::take(&mut self.waiters);
        let mut keep = Vec::new();
        for w in waiters {
            let has_predecessor = self.keys.values().any(|k| k.0 < w.rev);
            if has_predecessor {
                keep.push(w);
                continue;
            }
            let exists = self.keys.contains_key(&w.lease);
            if exists || !self.cfg.recheck_after_wait {
                self.grant(w.client, w.lease, w.rev, w.req, exists, env, out);
            } else {
                let leader = self.leader.expect("applying on the leader");
                out.push(Effect::Send { from: leader, to: w.client, payload: Payload::CSessionExpired { req: w.req } });
            }
        }
        self.waiters.extend(keep);
    }

    #[allow(clippy::too_many_arguments)]
    fn grant(&mut self, client: ActorId, lease: u64, rev: u64, req: u64, key_exists: bool, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.leader else { return };
        out.push(Effect::Event { actor: leader, kind: EventKind::LockGranted { client, rev, key_exists } });
        let token = self.cfg.tokens.then_some(rev);
        if let Some(t) = token {
            out.push(Effect::Record(Record::Token { client, token: t, durable: false }));
        }
        let g = next_grant(env, out);
        let term_end_us = match self.leases.get(&lease).map(|l| l.expires_local) {
            Some(exp) => env.when_reads(leader, exp).unwrap_or(env.end()),
            // Granted on an expired session: the client believes it has a whole lease.
            None => env.now() + ms(self.cfg.ttl_ms as i64),
        };
        let now = env.now();
        out.push(Effect::Record(Record::Grant(Grant {
            client,
            node: leader,
            at_us: now,
            token,
            event: 0,
            term_end_us,
            released_us: None,
            votes: vec![leader],
        })));
        if key_exists {
            self.grant_of.insert(lease, g);
        }
        out.push(Effect::Send { from: leader, to: client, payload: Payload::CLocked { req, rev, lease, grant: g } });
    }
}

/// The narration of the consensus events.
pub fn narrate(me: &str, kind: &EventKind, name: &dyn Fn(ActorId) -> String, election_timeout_ms: u64) -> Option<String> {
    let n = name;
    Some(match kind {
        EventKind::Queued { rev } => format!("{me}'s key is in place at revision {rev}, but an earlier key holds the lock: it waits for its predecessor."),
        EventKind::Committed { what, revision } => {
            format!("{me} commits `{what}` at revision {revision}: a majority of the members has it.")
        }
        EventKind::LockGranted { client, rev, key_exists: true } => {
            format!("{me} tells {} it holds the lock: its key (revision {rev}) has the lowest create revision.", n(*client))
        }
        EventKind::LockGranted { client, rev, key_exists: false } => format!(
            "{me} tells {} it holds the lock (revision {rev}) without checking its session: {}'s key is already gone, because its lease expired while it waited.",
            n(*client),
            n(*client)
        ),
        EventKind::LeaseExpired { client } => {
            format!("{}'s lease has run out on {me}'s clock: {me} proposes to revoke it and delete its key.", n(*client))
        }
        EventKind::LeaderElected { leases: 0 } => format!("{me} is the leader."),
        EventKind::LeaderElected { leases } => format!(
            "{me} becomes the leader and refreshes all {leases} lease{} to their full TTL plus the election timeout ({}).",
            if *leases == 1 { "" } else { "s" },
            fmt(ms(election_timeout_ms as i64))
        ),
        EventKind::NoQuorum => {
            "No member can reach a majority: there is no leader. Nothing can be granted, and no lease can expire.".to_string()
        }
        _ => return None,
    })
}
