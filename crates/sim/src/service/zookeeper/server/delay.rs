//! Chubby's lock-delay (Burrows, OSDI '06, §2.4; SEMANTICS §5.4) applied to ZooKeeper's lock
//! recipe. ZooKeeper itself has no lock-delay: an expired session's ephemeral znodes go in the
//! closeSession transaction, and the next waiter's watch fires at once. Chubby, when a holder
//! fails or becomes inaccessible (not when it releases), grants the lock to no one else for the
//! delay. Here the ensemble does it the recipe's way: when a session expires while its client
//! holds the lock (its znode is the lowest and the client has learned so), the leader keeps that
//! znode, owned by no live session, until the delay has passed on its monotonic clock, then
//! deletes it in a transaction of its own; the waiters' watches fire then. A close or a delete
//! by the client is a release, and gives the znode back at once.

use super::{Ensemble, Fx, Op};
use crate::actor::{Effect, Env, Gate};
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, QuorumEvent};

/// The expired holder's znode, kept for the lock-delay.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    seq: u64,
    /// When the delay ends on the leader's monotonic clock.
    until_mono: Micros,
    /// Whether the leader has proposed its deletion.
    deleting: bool,
}

impl Ensemble {
    /// Whether an expired session's znode `seq` is kept for the lock-delay: its client held the
    /// lock, and there is a delay.
    pub(super) fn keeps(&self, seq: u64) -> bool {
        self.cfg.lock_delay_ms > Millis::ZERO && self.grant_of.contains_key(&seq)
    }

    /// Keeps znode `seq` of `client`, whose session has just expired holding the lock, until
    /// the delay has passed, and says so.
    pub(super) fn hold(&mut self, seq: u64, client: ActorId, env: &dyn Env, out: &mut Fx) {
        let Some(leader) = self.q.leader else { return };
        let until_mono = env.mono(leader) + self.cfg.lock_delay_ms.to_micros();
        self.held = Some(Held { seq, until_mono, deleting: false });
        let until_us = env.when_mono_reads(leader, until_mono).unwrap_or(env.end());
        out.push(Effect::Event { actor: leader, kind: EventKind::Quorum(QuorumEvent::LockDelayed { client, until_us }) });
        self.schedule_hold(env, out);
    }

    /// A new leader starts a delay under way again, whole, on its own clock (it cannot read the
    /// old leader's): longer, never shorter, as the sessions' timeouts are.
    pub(super) fn restart_hold(&mut self, now_mono: Micros, env: &dyn Env, out: &mut Fx) {
        if let Some(h) = self.held.as_mut() {
            h.until_mono = now_mono + self.cfg.lock_delay_ms.to_micros();
            h.deleting = false;
            self.schedule_hold(env, out);
        }
    }

    pub(super) fn schedule_hold(&mut self, env: &dyn Env, out: &mut Fx) {
        let (Some(leader), Some(h)) = (self.q.leader, self.held) else { return };
        self.hold_gen += 1;
        if let Some(at) = env.when_mono_reads(leader, h.until_mono) {
            out.push(Effect::Timer { actor: leader, at, timer: super::Timer::LockDelay { gen: self.hold_gen }, gate: Gate::Always });
        }
    }

    /// The delay has passed if the leader can judge it now: it proposes to delete the znode.
    pub(super) fn hold_check(&mut self, gen: u64, env: &dyn Env, out: &mut Fx) {
        if gen != self.hold_gen {
            return;
        }
        let Some((_, mono)) = self.q.judge_now(env) else { return };
        let Some(h) = self.held.as_mut().filter(|h| !h.deleting && mono >= h.until_mono) else { return };
        h.deleting = true;
        let seq = h.seq;
        self.propose(Op::EndDelay { seq }, env, out);
    }

    /// The delay's end is committed: the znode goes, and its watches fire.
    pub(super) fn end_delay(&mut self, seq: u64, out: &mut Fx) {
        self.held = None;
        self.drop_znode(seq, crate::trace::KeyEnd::Expired, out);
    }
}
