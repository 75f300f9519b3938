//! A Pacemaker pair joined to a run: the scenario's two clients are its nodes, and its lanes
//! are their fence devices.

use super::client::{Node, Timing};
use super::server::Fences;
use crate::scenario::pacemaker::FENCES;
use crate::scenario::Scenario;
use crate::service::{Pacemaker, Slice};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

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
        let t = Timing {
            keepalive_us: l.keepalive_ms.to_micros(),
            deadtime_us: l.ttl_ms.to_micros(),
            stonith_timeout_us: l.stonith_timeout_ms.to_micros(),
            fence_first: l.fence_first,
        };
        Node::new(t, [node_name(sc, 0), node_name(sc, 1)])
    }

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate(sc, me, kind)
    }

    /// It records no event of the consensus family.
    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, _name: &dyn Fn(ActorId) -> String) -> String {
        crate::service::not_recorded(sc, e, me)
    }
}
