//! What a committed proposal does: a lock's key and lease, an unlock, a revocation; waking
//! the waiter whose predecessor is gone.

use super::{Cluster, Fx, Lease, Op, Waiter};
use crate::actor::{Effect, Env, Record};
use crate::msg::Payload;
use crate::trace::{ActorId, EventKind, Grant, KeyEnd, QuorumEvent};
use crate::wire::consensus::Msg;
use crate::time::Millis;

impl Cluster {
    pub(super) fn apply(&mut self, op: Op, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let what = self.proposal(&op);
        let committed = |revision| Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::Committed { what, revision }) };
        match op {
            Op::Lock { client, req, .. } if self.keys.values().any(|k| k.1 == client) => self.reread(client, req, out),
            Op::Lock { client, req, ttl_ms } => {
                // Like etcd's LeaseGrant, a TTL below the minimum is raised to it.
                let ttl_ms = ttl_ms.max(self.cfg.min_ttl_ms);
                let mono = env.mono(leader);
                let lease = self.next_lease;
                self.next_lease += 1;
                self.revision += 1;
                let rev = self.revision;
                self.leases.insert(lease, Lease { client, ttl_ms, expires_mono: mono + ttl_ms.to_micros(), revoking: false });
                self.keys.insert(lease, (rev, client));
                out.push(committed(rev));
                out.push(Effect::Record(Record::KeyOpen { handle: lease, node: leader, owner: Some(client) }));
                self.schedule_lease_check(lease, env, out);
                let lowest = self.keys.values().map(|k| k.0).min();
                // During a lock-delay even the lowest key waits: the delay's end wakes it.
                if lowest == Some(rev) && self.held_back.is_none() {
                    self.grant(client, lease, rev, req, true, env, out);
                } else {
                    self.waiters.push(Waiter { client, lease, rev, req });
                    out.push(Effect::Send { from: leader, to: client, payload: Payload::Consensus(Msg::Queued { req, rev, lease }) });
                }
            }
            Op::Unlock { client, req, lease } if !self.keys.contains_key(&lease) => {
                // etcd's DeleteRange that deletes nothing makes no new revision (SEMANTICS §4).
                let revision = self.revision;
                out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::Unchanged { what, revision }) });
                out.push(Effect::Send { from: leader, to: client, payload: Payload::Consensus(Msg::Unlocked { req, deleted: false }) });
            }
            Op::Unlock { client, req, lease } => {
                let rev = self.delete_key(lease, KeyEnd::Deleted, out);
                out.push(committed(rev));
                if let Some(g) = self.grant_of.remove(&lease) {
                    out.push(Effect::Record(Record::GrantReleased { grant: g }));
                }
                out.push(Effect::Send { from: leader, to: client, payload: Payload::Consensus(Msg::Unlocked { req, deleted: true }) });
                self.wake_waiters(env, out);
            }
            Op::Revoke { lease } => {
                let client = self.leases.get(&lease).map(|l| l.client);
                let rev = self.delete_key(lease, KeyEnd::Expired, out);
                out.push(committed(rev));
                if let Some(g) = self.grant_of.remove(&lease) {
                    out.push(Effect::Record(Record::GrantEnded { grant: g }));
                    // The holder was lost, not released: hold the lock back for the lock-delay.
                    if let (Some(client), true) = (client, self.cfg.lock_delay_ms > Millis::ZERO) {
                        self.hold(client, env, out);
                    }
                }
                self.wake_waiters(env, out);
            }
        }
    }

    /// A client that already has a key asks again (its reply was lost): like etcd's Mutex, which
    /// keeps one session and one key and puts the key only if it is not there yet, it gets the
    /// key it has, holding the lock or still queued behind its predecessor (SEMANTICS §4).
    fn reread(&mut self, client: ActorId, req: u64, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let Some((&lease, &(rev, _))) = self.keys.iter().find(|(_, k)| k.1 == client) else { return };
        let payload = match (self.grant_of.get(&lease), self.waiters.iter_mut().find(|w| w.lease == lease)) {
            (Some(&grant), _) => Payload::Consensus(Msg::Locked { req, rev, lease, grant }),
            (None, Some(w)) => {
                // The wake-up will answer this request.
                w.req = req;
                Payload::Consensus(Msg::Queued { req, rev, lease })
            }
            (None, None) => return,
        };
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::Reread { client, rev }) });
        out.push(Effect::Send { from: leader, to: client, payload });
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
    /// with `recheck_after_wait: false`, whether or not it is: etcd#11456); during a lock-delay
    /// nobody does.
    pub(super) fn wake_waiters(&mut self, env: &dyn Env, out: &mut Fx) {
        if self.held_back.is_some() {
            return;
        }
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
                let leader = self.q.leader.expect("applying on the leader");
                out.push(Effect::Send { from: leader, to: w.client, payload: Payload::Consensus(Msg::SessionExpired { req: w.req }) });
            }
        }
        self.waiters.extend(keep);
    }

    #[allow(clippy::too_many_arguments)]
    fn grant(&mut self, client: ActorId, lease: u64, rev: u64, req: u64, key_exists: bool, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LockGranted { client, rev, key_exists }) });
        let token = self.cfg.tokens.then_some(rev);
        if let Some(t) = token {
            out.push(Effect::Record(Record::Token { client, token: t, durable: false }));
        }
        let g = crate::actor::next_grant(env, out);
        let term_end_us = match self.leases.get(&lease).map(|l| l.expires_mono) {
            Some(exp) => env.when_mono_reads(leader, exp).unwrap_or(env.end()),
            // Granted on an expired session: the client believes it has a whole lease.
            None => env.now() + self.cfg.ttl_ms.to_micros(),
        };
        let now = env.now();
        out.push(Effect::Record(Record::Grant(Box::new(Grant {
            client,
            node: leader,
            at_us: now,
            token,
            event: 0,
            term_end_us,
            released_us: None,
            votes: vec![leader],
            extended: Vec::new(),
        }))));
        if key_exists {
            self.grant_of.insert(lease, g);
        }
        out.push(Effect::Send { from: leader, to: client, payload: Payload::Consensus(Msg::Locked { req, rev, lease, grant: g }) });
    }
}
