//! The etcd-like consensus service joined to a run: its members, their cluster and its clients'
//! sessions, from the scenario.

use super::client::Session;
use super::{Cluster, Settings};
use crate::scenario::consensus::{member_name, min_lease_ttl_ms};
use crate::scenario::{Scenario, TokenKind};
use crate::service::{Consensus, Slice};
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
