//! A failover of a Redis primary to its replica, and with Sentinel the old primary's demotion
//! once it can be reached again.

use super::{Fx, Servers};
use crate::actor::{Effect, Env};
use crate::service::redis::LOCK_KEY;
use crate::trace::{EventKind, KeyEnd};

impl Servers {
    /// The replica becomes the primary: the old primary goes down, clients follow the new one,
    /// and it starts expiring keys itself. With Sentinel the old primary is not stopped: it
    /// is demoted when Sentinel can reach it (at once, if nothing separates them).
    pub(super) fn failover(&mut self, env: &dyn Env, out: &mut Fx) {
        let (Some(old), Some(r)) = (self.primary, self.replica) else { return };
        if self.promoted {
            return;
        }
        if self.sentinel {
            self.stale = Some(old);
        } else if !env.is_down(old) {
            out.push(Effect::Crash(old));
        }
        self.primary = Some(r);
        self.promoted = true;
        out.push(Effect::Event { actor: r, kind: EventKind::Promoted });
        self.expire(r, env, out);
        self.schedule_expiry(r, env, out);
        self.demote(true, env, out);
    }

    /// With Sentinel: once the old primary is up and can reach the new one, Sentinel makes it a
    /// replica of it, and it resyncs in full, discarding what it acknowledged since the
    /// failover ("This data will be lost forever since when the partition will heal, the master
    /// will be reconfigured as a replica of the new master, discarding its data set": the
    /// Sentinel docs, Example 2; Jepsen, "Call me maybe: Redis", 2013).
    pub(super) fn demote(&mut self, at_once: bool, env: &dyn Env, out: &mut Fx) {
        let (Some(old), Some(new)) = (self.stale, self.primary) else { return };
        if env.is_down(old) || env.cut(old, new) {
            return;
        }
        self.stale = None;
        self.demoted = Some(old);
        let discarded = self.nodes.get(&old).and_then(|n| n.keys.get(LOCK_KEY)).and_then(|e| e.owner);
        let copy = self.nodes.get(&new).cloned().unwrap_or_default();
        let owner = copy.keys.get(LOCK_KEY).map(|e| e.owner);
        // What the resync keeps is not discarded: the new primary may hold the same key.
        let discarded = discarded.filter(|&d| owner.flatten() != Some(d));
        self.nodes.insert(old, copy);
        // Its expiry timers are void: a replica waits for its primary's DEL.
        let gen = self.expiry_gen.get(&old).copied().unwrap_or(0) + 1;
        self.expiry_gen.insert(old, gen);
        out.push(Effect::Event { actor: old, kind: EventKind::Demoted { to: new, discarded, at_once } });
        self.close_key(old, KeyEnd::Lost, out);
        if let Some(owner) = owner {
            self.open_key(old, owner, out);
        }
    }
}
