//! ZooKeeper joined to a run: its ensemble and its clients' lock recipe, from the scenario.

use super::client::Recipe;
use super::server::{Ensemble, Settings, Timer};
use crate::actor::{Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::scenario::zookeeper::zk_name;
use crate::scenario::{Scenario, TokenKind};
use crate::service::{LockClient, LockServer, Slice, ZooKeeper};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

impl Slice for ZooKeeper {
    type Server = Ensemble;
    type Client = Recipe;

    fn roles(sc: &Scenario) -> Vec<Role> {
        vec![Role::Member; sc.lock.nodes as usize]
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Ensemble {
        let l = &sc.lock;
        let servers = (0..l.nodes as usize).map(|i| id(&zk_name(i))).collect();
        let cfg = Settings {
            election_timeout_ms: l.election_timeout_ms,
            tokens: sc.token.source == TokenKind::Counter,
            lock_delay_ms: l.lock_delay_ms,
        };
        Ensemble::new(servers, cfg)
    }

    fn client(_sc: &Scenario) -> Recipe {
        Recipe::default()
    }

    fn narrate(_sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate_client(me, kind)
    }

    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        super::words::quorum(sc, e, me, name)
    }
}

impl LockServer for Ensemble {
    type Timer = Timer;

    fn start(&mut self, out: &mut Out<Timer>) {
        Ensemble::start(self, out)
    }

    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Leader => self.contact(),
            Dest::Lock | Dest::Node(_) | Dest::Resource => None,
        }
    }

    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        Ensemble::on_message(self, at, from, payload, env, out)
    }

    fn on_timer(&mut self, _at: ActorId, timer: Timer, env: &dyn Env, out: &mut Out<Timer>) {
        Ensemble::on_timer(self, timer, env, out)
    }

    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Out<Timer>) {
        Ensemble::on_fault(self, fault, env, out)
    }
}

/// A session renews itself with pings (validation refuses a renew step).
impl LockClient for Recipe {
    fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        Recipe::acquire(self, timeout_ms, k, cx, out)
    }

    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Recipe::release(self, k, cx, out)
    }

    fn close(&mut self, k: &mut Core, out: &mut Vec<Effect>) {
        Recipe::close(self, k, out)
    }

    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Recipe::on_message(self, p, k, cx, out)
    }

    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Recipe::on_timer(self, kind, k, cx, out)
    }
}
