//! A Pacemaker pair joined to a run: the scenario's two clients are its nodes, and its lanes
//! are their fence devices.

use super::client::{Node, Timing};
use super::server::{Fences, Timer};
use crate::actor::{Env, Out};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::scenario::pacemaker::FENCES;
use crate::scenario::Scenario;
use crate::service::{LockClient, LockServer, Pacemaker, Slice};
use crate::time::{from_ms, Micros};
use crate::trace::{ActorId, EventKind, Role};

/// The name of the pair's node `i` (validation makes sure there are two).
fn node_name(sc: &Scenario, i: usize) -> String {
    sc.clients.get(i).map(|c| c.name.clone()).unwrap_or_default()
}

impl Slice for Pacemaker {
    type Server = Fences;
    type Client = Node;

    fn roles(_sc: &Scenario) -> Vec<Role> {
        vec![Role::Member; FENCES.len()]
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Fences {
        Fences { nodes: [id(&node_name(sc, 0)), id(&node_name(sc, 1))], devices: FENCES.map(id) }
    }

    fn client(sc: &Scenario) -> Node {
        let l = &sc.lock;
        let ms = |n: u64| -> Micros { from_ms(n as i64) };
        let t = Timing {
            keepalive_us: ms(l.keepalive_ms),
            deadtime_us: ms(l.ttl_ms),
            stonith_timeout_us: ms(l.stonith_timeout_ms),
            fence_first: l.fence_first,
        };
        Node::new(t, [node_name(sc, 0), node_name(sc, 1)])
    }

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate(sc, me, kind)
    }
}

/// The fence devices keep nothing: a crash or pause of one loses nothing but its answers.
impl LockServer for Fences {
    type Timer = Timer;

    fn route(&self, dest: Dest) -> Option<ActorId> {
        Fences::route(self, dest)
    }

    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, _env: &dyn Env, out: &mut Out<Timer>) {
        Fences::on_message(self, at, from, payload, out)
    }
}

/// A node sends its heartbeats by itself (validation refuses a renew step).
impl LockClient for Node {
    fn acquire(&mut self, _timeout_ms: u64, _k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        Node::acquire(self, cx, out)
    }

    fn release(&mut self, k: &mut Core, _cx: &Cx, out: &mut Vec<Effect>) -> bool {
        Node::release(self, k, out)
    }

    fn close(&mut self, k: &mut Core, out: &mut Vec<Effect>) {
        Node::close(self, k, out)
    }

    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Node::on_message(self, p, k, cx, out)
    }

    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        Node::on_timer(self, kind, k, cx, out)
    }
}
