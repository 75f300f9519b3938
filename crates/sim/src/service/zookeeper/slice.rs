//! ZooKeeper joined to a run: its ensemble and its clients' lock recipe, from the scenario.

use super::client::Recipe;
use super::server::{Ensemble, Settings};
use crate::scenario::zookeeper::zk_name;
use crate::scenario::{Scenario, TokenKind};
use crate::service::{Slice, ZooKeeper};
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

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate_client(sc, me, kind)
    }

    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        super::words::quorum(sc, e, me, name)
    }
}
