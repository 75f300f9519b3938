//! The etcd-like consensus service joined to a run: its members, their cluster and its clients'
//! sessions, from the scenario.

use super::client::Session;
use super::{Cluster, Settings, Timer};
use crate::actor::{Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::scenario::consensus::{member_name, min_lease_ttl_ms};
use crate::scenario::{Scenario, TokenKind};
use crate::service::{Consensus, LockClient, LockServer, Slice};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

impl Slice for Consensus {
    type Server = Cluster;
    type Client = Session;

    fn roles(sc: &Scenario) -> Vec<Role> {
        vec![Role::Member; sc.lock.nodes as usize]
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Cluster {
        let l = &sc.lock;
        let members = (0..l.nodes as usize).map(|i| id(&member_name(i))).collect();
        let cfg = Settings {
            ttl_ms: l.ttl_ms,
            election_timeout_ms: l.election_timeout_ms,
            min_ttl_ms: min_lease_ttl_ms(l.election_timeout_ms),
            recheck_after_wait: l.recheck_after_wait,
            tokens: sc.token.source == TokenKind::Counter,
            lock_delay_ms: l.lock_delay_ms,
        };
        Cluster::new(members, cfg)
    }

    fn client(_sc: &Scenario) -> Session {
        Session::default()
    }

    fn narrate(_sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate_client(me, kind)
    }

    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        super::words::quorum(e, me, name, sc.lock.election_timeout_ms)
    }
}

impl LockServer for Cluster {
    type Timer = Timer;

    fn start(&mut self, out: &mut Out<Timer>) {
        Cluster::start(self, out)
    }

    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Leader => self.contact(),
            Dest::Lock | Dest::Node(_) | Dest::Resource => None,
        }
    }

    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        Cluster::on_message(self, at, from, payload, env, out)
    }

    fn on_timer(&mut self, _at: ActorId, timer: Timer, env: &dyn Env, out: &mut Out<Timer>) {
        Cluster::on_timer(self, timer, env, out)
    }

    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Out<Timer>) {
        Cluster::on_fault(self, fault, env, out)
    }
}

/// A session renews itself with keepalives (validation refuses a renew step).
impl LockClient for Session {
    fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        Session::acquire(self, timeout_ms, k, cx, out)
    }

    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Session::release(self, k, cx, out)
    }

    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Session::on_message(self, p, k, cx, out)
    }

    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Session::on_timer(self, kind, k, cx, out)
    }
}
