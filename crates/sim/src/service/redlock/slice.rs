//! Redlock joined to a run: its independent Redis masters (the servers Redis runs, each on
//! its own) and the client side of the algorithm, from the scenario.

use super::Redlock;
use crate::scenario::redlock::node_name;
use crate::scenario::{Persistence, Scenario};
use crate::service::redis::client::Scripts;
use crate::service::redis::server::Servers;
use crate::service::Slice;
use crate::trace::{ActorId, QuorumEvent, Role};

impl Slice for crate::service::Redlock {
    type Server = Servers;
    type Client = Redlock;

    fn roles(sc: &Scenario) -> Vec<Role> {
        vec![Role::Redis; sc.lock.nodes as usize]
    }

    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Servers {
        let l = &sc.lock;
        let nodes = (0..l.nodes as usize).map(|i| id(&node_name(i))).collect();
        Servers::independent(nodes, l.ttl_ms, l.persistence == Persistence::Always)
    }

    fn client(sc: &Scenario) -> Redlock {
        let l = &sc.lock;
        Redlock::new(l.nodes as usize, l.node_timeout_ms, l.parallel, l.clock_drift_factor, Scripts { release: l.release, renew: l.renew })
    }

    /// It records no event of the consensus family.
    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, _name: &dyn Fn(ActorId) -> String) -> String {
        crate::service::not_recorded(sc, e, me)
    }
}
