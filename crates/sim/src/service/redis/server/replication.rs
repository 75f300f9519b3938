//! The primary's replication stream to its replica: a key's new state shipped after the lag,
//! applied by the replica, and a replica that missed writes in a partition catching up.

use super::{Event, Fx, Servers, Timer, FENCE_KEY, LOCK_KEY};
use crate::actor::{Effect, Env, Gate};
use crate::service::redis::Entry;
use crate::trace::{ActorId, EventKind, KeyEnd};

impl Servers {
    pub(super) fn apply_replicated(&mut self, node: ActorId, key: &'static str, entry: Option<Entry>, out: &mut Fx) {
        let set = entry.as_ref().map(|e| crate::trace::Short::of(&e.text(key)));
        let is_lock = key == LOCK_KEY;
        let owner = entry.as_ref().and_then(|e| e.owner);
        let Some(n) = self.nodes.get_mut(&node) else { return };
        match entry {
            Some(e) => {
                n.keys.insert(key, e);
            }
            None => {
                n.keys.remove(key);
            }
        }
        out.push(Effect::Event { actor: node, kind: EventKind::Replicated { set, counter: !is_lock } });
        if is_lock {
            if owner.is_some() {
                if !self.open_keys.contains(&node) {
                    self.open_key(node, owner, out);
                }
            } else {
                self.close_key(node, KeyEnd::Deleted, out);
            }
        }
    }

    /// Where `node`'s writes are shipped: from the primary to its replica (after a Sentinel
    /// failover, to the demoted old primary); from anywhere else, nowhere.
    pub(super) fn ship_to(&self, node: ActorId) -> Option<ActorId> {
        if Some(node) != self.primary {
            return None;
        }
        self.demoted.or(self.replica.filter(|&r| r != node))
    }

    /// Ships the key's new state to the replica after the replication lag.
    pub(super) fn replicate(&mut self, node: ActorId, key: &'static str, env: &dyn Env, out: &mut Fx) {
        let (Some(_), Some(lag)) = (self.ship_to(node), self.lag) else { return };
        let entry = self.nodes.get(&node).and_then(|n| n.keys.get(key)).cloned();
        out.push(Effect::Timer {
            actor: node,
            at: env.now() + lag,
            timer: Timer::Ship(Box::new((key, entry))),
            gate: Gate::Process,
        });
    }

    /// A partition that cuts the primary off from its replica breaks the replication stream:
    /// what was in flight on it may be lost (issue 49: a renewal shipped at the instant a 1 ms
    /// partition began was lost, never sent again, and a failover 5 s later lost the lock). Redis
    /// sends it again when the replica reconnects (the stream is a TCP connection, then a partial
    /// resync from the backlog), so the replica is behind until it can reach the primary again.
    pub(super) fn stream_broken(&mut self, env: &dyn Env) {
        let Some(p) = self.primary else { return };
        if let Some(r) = self.ship_to(p) {
            if env.cut(p, r) {
                self.behind = Some(r);
            }
        }
    }

    /// A replica that missed writes in a partition and can reach its primary again catches
    /// up: Redis's replication stream is a connection, and the replica reconnects and asks for
    /// what it missed (a partial resync, PSYNC, from the primary's backlog). The primary ships
    /// the keys' present state.
    pub(super) fn resync(&mut self, env: &dyn Env, out: &mut Fx) {
        let (Some(p), Some(r)) = (self.primary, self.behind) else { return };
        if self.ship_to(p) != Some(r) {
            self.behind = None; // a failover since: the new primary's stream is another
            return;
        }
        if env.is_down(p) || env.is_down(r) || env.cut(p, r) {
            return;
        }
        self.behind = None;
        out.push(Effect::Event { actor: r, kind: Event::Resync { primary: p }.into() });
        self.replicate(p, LOCK_KEY, env, out);
        if self.nodes.get(&p).is_some_and(|n| n.keys.contains_key(FENCE_KEY)) {
            self.replicate(p, FENCE_KEY, env, out);
        }
    }
}
