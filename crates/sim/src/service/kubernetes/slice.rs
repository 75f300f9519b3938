//! Kubernetes leader election joined to a run: the API server that keeps the Lease and the
//! candidates' `LeaderElector`, from the scenario.

use super::client::{Elector, Timing};
use super::server::{ApiServer, Settings, Timer};
use crate::actor::{Env, Out};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::rng::Rng;
use crate::scenario::kubernetes::APISERVER;
use crate::scenario::{Scenario, TokenKind};
use crate::service::{Kubernetes, LockClient, LockServer, Slice};
use crate::time::Micros;
use crate::trace::{ActorId, EventKind, Role};

impl Slice for Kubernetes {
    type Server = ApiServer;
    type Client = Elector;

    fn roles(_sc: &Scenario) -> Vec<Role> {
        vec![Role::Member]
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> ApiServer {
        ApiServer::new(id(APISERVER), Settings { lease_ms: sc.lock.ttl_ms, tokens: sc.token.source == TokenKind::Counter })
    }

    fn client(sc: &Scenario) -> Elector {
        let l = &sc.lock;
        Elector::new(Timing {
            lease_us: Micros::ms(l.ttl_ms),
            renew_deadline_us: Micros::ms(l.renew_deadline_ms),
            retry_us: Micros::ms(l.retry_period_ms),
        })
    }

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate(sc, me, kind)
    }
}

/// The Lease is kept in etcd: a crash or pause of the API server loses nothing (no `on_fault`),
/// and the API server has no timers.
impl LockServer for ApiServer {
    type Timer = Timer;

    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Lock => Some(self.contact()),
            Dest::Leader | Dest::Node(_) | Dest::Resource => None,
        }
    }

    fn on_message(&mut self, _at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        ApiServer::on_message(self, from, payload, env, out)
    }
}

/// A leader renews its Lease by itself, every retry period (validation refuses a renew step).
impl LockClient for Elector {
    fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        Elector::acquire(self, timeout_ms, k, cx, out)
    }

    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Elector::release(self, k, cx, out)
    }

    fn retry_delay(&self, _retry_ms: u64, rng: &mut Rng) -> Micros {
        Elector::retry_delay(self, rng)
    }

    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Elector::on_message(self, p, k, cx, out)
    }

    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Elector::on_timer(self, kind, k, cx, out)
    }
}
