//! Kubernetes leader election joined to a run: the API server that keeps the Lease and the
//! candidates' `LeaderElector`, from the scenario.

use super::client::{Elector, Timing};
use super::server::{ApiServer, Settings};
use crate::scenario::kubernetes::APISERVER;
use crate::scenario::{Scenario, TokenKind};
use crate::service::{Kubernetes, Slice};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

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
            lease_us: l.ttl_ms.to_micros(),
            renew_deadline_us: l.renew_deadline_ms.to_micros(),
            retry_us: l.retry_period_ms.to_micros(),
        })
    }

    fn narrate(sc: &Scenario, me: &str, kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        super::words::narrate(sc, me, kind)
    }

    /// It records no event of the consensus family.
    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, _name: &dyn Fn(ActorId) -> String) -> String {
        crate::service::not_recorded(sc, e, me)
    }
}
