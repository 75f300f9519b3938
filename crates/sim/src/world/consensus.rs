//! The consensus lock service (SEMANTICS §4): an etcd-like cluster of members with one leader.
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

use super::{Action, World};
use crate::msg::Payload;
use crate::time::{fmt, ms, Micros};
use crate::trace::*;

/// A proposal's effect once committed.
#[derive(Clone, Debug)]
pub(super) enum Op {
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
#[derive(Clone, Debug, Default)]
pub(super) struct Cluster {
    pub members: Vec<ActorId>,
    pub leader: Option<ActorId>,
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
    /// Each key's span on the timeline.
    span_of: BTreeMap<u64, usize>,
    lease_gen: BTreeMap<u64, u64>,
    no_quorum_said: bool,
}

impl Cluster {
    pub fn new(members: Vec<ActorId>) -> Cluster {
        Cluster { members, revision: 1, next_lease: 1, next_proposal: 1, ..Cluster::default() }
    }
}

impl World<'_> {
    fn cluster(&mut self) -> &mut Cluster {
        self.cluster.as_mut().expect("a consensus scenario")
    }

    fn majority(&self) -> usize {
        self.cluster.as_ref().map_or(1, |c| c.members.len() / 2 + 1)
    }

    /// Whether member `m` is up and can reach a majority (itself included).
    fn reaches_majority(&self, m: ActorId) -> bool {
        let Some(c) = &self.cluster else { return false };
        if self.procs[m].down {
            return false;
        }
        let reach = c.members.iter().filter(|&&o| !self.procs[o].down && !self.cut(m, o)).count();
        reach >= self.majority()
    }

    /// Re-evaluates leadership (after the election timeout that follows any member fault).
    pub(super) fn election(&mut self) {
        let Some(c) = &self.cluster else { return };
        let current = c.leader;
        if current.is_some_and(|l| self.reaches_majority(l)) {
            return;
        }
        let members = c.members.clone();
        let next = members.iter().copied().find(|&m| self.reaches_majority(m));
        match next {
            Some(l) => {
                let election_us = ms(self.sc.lock.election_timeout_ms as i64);
                let now_local = self.local(l);
                let cl = self.cluster();
                cl.leader = Some(l);
                cl.pending.clear();
                cl.no_quorum_said = false;
                // etcd's Promote: every lease gets its full TTL again, plus the election timeout.
                let leases: Vec<u64> = cl.leases.keys().copied().collect();
                for id in &leases {
                    let lease = cl.leases.get_mut(id).expect("listed");
                    lease.expires_local = now_local + ms(lease.ttl_ms as i64) + election_us;
                    lease.revoking = false;
                }
                self.emit(l, EventKind::LeaderElected { leases: leases.len() }, None);
                for id in leases {
                    self.schedule_lease_check(id);
                    self.update_grant_term(id);
                }
            }
            None => {
                let said = self.cluster().no_quorum_said;
                self.cluster().leader = None;
                self.cluster().pending.clear();
                if !said {
                    self.cluster().no_quorum_said = true;
                    let at = current.unwrap_or(members[0]);
                    self.emit(at, EventKind::NoQuorum, None);
                }
            }
        }
    }

    /// Any fault to a member: leadership is decided again after the election timeout.
    pub(super) fn member_fault(&mut self) {
        if self.cluster.is_some() {
            let t = self.now + ms(self.sc.lock.election_timeout_ms as i64);
            self.push(t, Action::Election);
        }
    }

    fn schedule_lease_check(&mut self, lease: u64) {
        let Some(leader) = self.cluster.as_ref().and_then(|c| c.leader) else { return };
        let Some(expires) = self.cluster.as_ref().and_then(|c| c.leases.get(&lease)).map(|l| l.expires_local) else { return };
        let gen = {
            let c = self.cluster();
            let g = c.lease_gen.entry(lease).or_insert(0);
            *g += 1;
            *g
        };
        if let Some(t) = self.procs[leader].clock.when_reads(expires, self.now) {
            self.push(t, Action::LeaseCheck { lease, gen });
        }
    }

    fn update_grant_term(&mut self, lease: u64) {
        let Some(c) = &self.cluster else { return };
        let (Some(&g), Some(l), Some(leader)) = (c.grant_of.get(&lease), c.leases.get(&lease), c.leader) else { return };
        let until = self.procs[leader].clock.when_reads(l.expires_local, self.now).unwrap_or(self.end);
        self.grants[g].term_end_us = until;
    }

    pub(super) fn lease_check(&mut self, lease: u64, gen: u64) {
        let Some(c) = &self.cluster else { return };
        if c.lease_gen.get(&lease) != Some(&gen) {
            return;
        }
        let Some(leader) = c.leader else { return };
        if self.procs[leader].down {
            return;
        }
        if let Some(until) = self.procs[leader].paused_until {
            // A paused leader expires nothing until it runs again.
            self.push(until, Action::LeaseCheck { lease, gen });
            return;
        }
        let local = self.local(leader);
        let Some(l) = self.cluster().leases.get_mut(&lease) else { return };
        if l.revoking || local < l.expires_local {
            return;
        }
        l.revoking = true;
        let client = l.client;
        self.emit(leader, EventKind::LeaseExpired { client }, None);
        self.propose(Op::Revoke { lease });
    }

    fn propose(&mut self, op: Op) {
        let Some(leader) = self.cluster.as_ref().and_then(|c| c.leader) else { return };
        let what = self.describe_op(&op);
        let id = {
            let c = self.cluster();
            let id = c.next_proposal;
            c.next_proposal += 1;
            c.pending.push(Proposal { id, op, acks: BTreeSet::new() });
            id
        };
        let followers: Vec<ActorId> = self.cluster().members.iter().copied().filter(|&m| m != leader).collect();
        for f in followers {
            self.send(leader, f, Payload::Append { id, what: what.clone() });
        }
        self.try_commit(id);
    }

    fn describe_op(&self, op: &Op) -> String {
        match op {
            Op::Lock { client, .. } => format!("put lock/{} with a new lease", self.name(*client)),
            Op::Unlock { client, .. } => format!("delete lock/{}", self.name(*client)),
            Op::Revoke { lease } => {
                let who =
                    self.cluster.as_ref().and_then(|c| c.leases.get(lease)).map(|l| self.name(l.client).to_string()).unwrap_or_default();
                format!("revoke {who}'s lease")
            }
        }
    }

    fn try_commit(&mut self, id: u64) {
        let majority = self.majority();
        let Some(pos) = self.cluster().pending.iter().position(|p| p.id == id) else { return };
        if self.cluster().pending[pos].acks.len() + 1 < majority {
            return;
        }
        let p = self.cluster().pending.remove(pos);
        self.apply(p.op);
    }

    /// A member handles a message.
    pub(super) fn member_input(&mut self, m: ActorId, from: ActorId, payload: Payload) {
        let leader = self.cluster.as_ref().and_then(|c| c.leader);
        match payload {
            Payload::Append { id, .. } => self.send(m, from, Payload::AppendAck { id }),
            Payload::AppendAck { id } if leader == Some(m) => {
                if let Some(p) = self.cluster().pending.iter_mut().find(|p| p.id == id) {
                    p.acks.insert(from);
                }
                self.try_commit(id);
            }
            _ if leader != Some(m) => {} // not the leader: client requests go unanswered
            Payload::CLock { req, ttl_ms } => self.propose(Op::Lock { client: from, req, ttl_ms }),
            Payload::CUnlock { req, lease } => self.propose(Op::Unlock { client: from, req, lease }),
            Payload::CKeepAlive { req, lease } => {
                let local = self.local(m);
                match self.cluster().leases.get_mut(&lease) {
                    Some(l) if !l.revoking => {
                        l.expires_local = local + ms(l.ttl_ms as i64);
                        self.schedule_lease_check(lease);
                        self.update_grant_term(lease);
                        self.send(m, from, Payload::CKeepAliveOk { req });
                    }
                    _ => self.send(m, from, Payload::CLeaseNotFound { req }),
                }
            }
            _ => {}
        }
    }

    fn apply(&mut self, op: Op) {
        let Some(leader) = self.cluster.as_ref().and_then(|c| c.leader) else { return };
        let what = self.describe_op(&op);
        match op {
            Op::Lock { client, req, ttl_ms } => {
                // Like etcd's LeaseGrant, a TTL below the minimum is raised to it.
                let ttl_ms = ttl_ms.max(crate::scenario::min_lease_ttl_ms(self.sc.lock.election_timeout_ms));
                let local = self.local(leader);
                let (lease, rev) = {
                    let c = self.cluster();
                    let lease = c.next_lease;
                    c.next_lease += 1;
                    c.revision += 1;
                    let rev = c.revision;
                    c.leases.insert(lease, Lease { client, ttl_ms, expires_local: local + ms(ttl_ms as i64), revoking: false });
                    c.keys.insert(lease, (rev, client));
                    (lease, rev)
                };
                self.emit(leader, EventKind::Committed { what, revision: rev }, None);
                let span = self.iv.keys.len();
                self.iv.keys.push(KeySpan { node: leader, owner: Some(client), from_us: self.now, to_us: self.end, end: KeyEnd::RunEnd });
                self.cluster().span_of.insert(lease, span);
                self.schedule_lease_check(lease);
                let lowest = self.cluster().keys.values().map(|k| k.0).min();
                if lowest == Some(rev) {
                    self.grant(client, lease, rev, req, true);
                } else {
                    self.cluster().waiters.push(Waiter { client, lease, rev, req });
                    self.emit(leader, EventKind::Queued { rev }, None);
                    self.send(leader, client, Payload::CQueued { req, rev, lease });
                }
            }
            Op::Unlock { client, req, lease } => {
                let rev = self.delete_key(lease, KeyEnd::Deleted);
                self.emit(leader, EventKind::Committed { what, revision: rev }, None);
                if let Some(g) = self.cluster().grant_of.remove(&lease) {
                    self.grants[g].released_us = Some(self.now);
                    self.grants[g].term_end_us = self.grants[g].term_end_us.min(self.now);
                }
                self.send(leader, client, Payload::CUnlocked { req });
                self.wake_waiters();
            }
            Op::Revoke { lease } => {
                let rev = self.delete_key(lease, KeyEnd::Expired);
                self.emit(leader, EventKind::Committed { what, revision: rev }, None);
                if let Some(g) = self.cluster().grant_of.remove(&lease) {
                    self.grants[g].term_end_us = self.grants[g].term_end_us.min(self.now);
                }
                self.wake_waiters();
            }
        }
    }

    /// Deletes a session's key and lease; returns the new revision.
    fn delete_key(&mut self, lease: u64, end: KeyEnd) -> u64 {
        let c = self.cluster();
        c.revision += 1;
        c.keys.remove(&lease);
        c.leases.remove(&lease);
        let rev = c.revision;
        if let Some(span) = self.cluster().span_of.remove(&lease) {
            self.iv.keys[span].to_us = self.now;
            self.iv.keys[span].end = end;
        }
        rev
    }

    /// A waiter whose predecessor is gone holds the lock, if its own key is still there (or,
    /// with `recheck_after_wait: false`, whether or not it is: etcd#11456).
    fn wake_waiters(&mut self) {
        let recheck = self.sc.lock.recheck_after_wait;
        let waiters = std::mem::take(&mut self.cluster().waiters);
        let mut keep = Vec::new();
        for w in waiters {
            let has_predecessor = self.cluster().keys.values().any(|k| k.0 < w.rev);
            if has_predecessor {
                keep.push(w);
                continue;
            }
            let exists = self.cluster().keys.contains_key(&w.lease);
            if exists || !recheck {
                self.grant(w.client, w.lease, w.rev, w.req, exists);
            } else {
                let leader = self.cluster().leader.expect("applying on the leader");
                self.send(leader, w.client, Payload::CSessionExpired { req: w.req });
            }
        }
        self.cluster().waiters.extend(keep);
    }

    fn grant(&mut self, client: ActorId, lease: u64, rev: u64, req: u64, key_exists: bool) {
        let Some(leader) = self.cluster.as_ref().and_then(|c| c.leader) else { return };
        let event = self.emit(leader, EventKind::LockGranted { client, rev, key_exists }, None);
        let token = (self.sc.token.source == crate::scenario::TokenKind::Counter).then_some(rev);
        if let Some(t) = token {
            self.tokens.push((self.now, t, client));
        }
        let g = self.grants.len();
        let term_end_us = match self.cluster().leases.get(&lease).map(|l| l.expires_local) {
            Some(exp) => self.procs[leader].clock.when_reads(exp, self.now).unwrap_or(self.end),
            // Granted on an expired session: the client believes it has a whole lease.
            None => self.now + ms(self.sc.lock.ttl_ms as i64),
        };
        self.grants.push(Grant {
            client,
            node: leader,
            at_us: self.now,
            token,
            event,
            term_end_us,
            released_us: None,
            votes: vec![leader],
        });
        if key_exists {
            self.cluster().grant_of.insert(lease, g);
        }
        self.send(leader, client, Payload::CLocked { req, rev, lease, grant: g });
    }
}

/// The narration of the consensus events, for `World::narrate`.
pub(super) fn narrate(w: &World, me: &str, kind: &EventKind) -> Option<String> {
    let n = |x: ActorId| w.name(x).to_string();
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
            fmt(ms(w.sc.lock.election_timeout_ms as i64))
        ),
        EventKind::NoQuorum => {
            "No member can reach a majority: there is no leader. Nothing can be granted, and no lease can expire.".to_string()
        }
        _ => return None,
    })
}
