//! A single Redis primary (with its replica, if any) joined to a run: its lanes' roles, its
//! servers and its clients' protocol, from the scenario.

use super::client::{Scripts, Single};
use super::server::{Servers, Timer};
use crate::actor::{Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::scenario::{CounterStore, Persistence, Scenario, TokenKind};
use crate::service::{LockClient, LockServer, Redis, Slice};
use crate::trace::{ActorId, EventKind, Role};

/// Whether the clients' tokens come from a counter on the Redis primary (`INCR lock:fence`).
pub(crate) fn counter_on_node(sc: &Scenario) -> bool {
    sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis
}

impl Slice for Redis {
    type Server = Servers;
    type Client = Single;

    fn roles(sc: &Scenario) -> Vec<Role> {
        if sc.lock.replica.is_some() {
            vec![Role::Redis, Role::Replica]
        } else {
            vec![Role::Redis]
        }
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Servers {
        let l = &sc.lock;
        let counter = counter_on_node(sc).then_some(sc.token.start);
        let replica = l.replica.as_ref().map(|r| (id("replica"), r.lag_ms));
        Servers::primary(id("redis"), replica, counter, l.ttl_ms, l.persistence == Persistence::Always).with_sentinel(l.sentinel)
    }

    fn client(sc: &Scenario) -> Single {
        let single = Single::new(Scripts { release: sc.lock.release, renew: sc.lock.renew }, counter_on_node(sc));
        if sc.lock.watchdog {
            single.with_watchdog()
        } else {
            single
        }
    }

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _: &dyn Fn(ActorId) -> String) -> Option<String> {
        match kind {
            EventKind::NoticeIgnored { .. } if sc.lock.watchdog => super::watchdog::narrate(me, kind),
            EventKind::Promoted if sc.lock.sentinel => Some(format!(
                "Sentinel promotes {me} to primary; the clients that can reach it now send their commands to it, and the old primary is not told."
            )),
            _ => None,
        }
    }
}

/// The Redis servers, whether a primary and its replica or Redlock's independent masters.
impl LockServer for Servers {
    type Timer = Timer;

    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Lock => self.primary_now(),
            Dest::Node(i) => self.redlock_nodes.get(i).copied(),
            Dest::Leader | Dest::Resource => None,
        }
    }

    fn route_from(&self, dest: Dest, from: ActorId, cut: &dyn Fn(ActorId, ActorId) -> bool) -> Option<ActorId> {
        match dest {
            Dest::Lock => self.primary_for(from, cut),
            _ => self.route(dest),
        }
    }

    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        Servers::on_message(self, at, from, payload, env, out)
    }

    fn on_timer(&mut self, at: ActorId, timer: Timer, env: &dyn Env, out: &mut Out<Timer>) {
        Servers::on_timer(self, at, timer, env, out)
    }

    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Out<Timer>) {
        Servers::on_fault(self, fault, env, out)
    }
}

impl LockClient for Single {
    fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        Single::acquire(self, timeout_ms, k, cx, out)
    }

    fn renew(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Single::renew(self, k, cx, out)
    }

    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Single::release(self, k, cx, out)
    }

    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Single::on_message(self, p, k, cx, out)
    }
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Single::on_timer(self, kind, k, cx, out)
    }
}
