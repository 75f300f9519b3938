//! A single Redis primary (with its replica, if any) joined to a run: its lanes' roles, its
//! servers and its clients' protocol, from the scenario.

use super::client::{Scripts, Single};
use super::server::Servers;
use crate::scenario::{CounterStore, Persistence, Scenario, TokenKind};
use crate::service::{Redis, Slice};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

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
                "Sentinel promotes {me} to primary; the clients that can reach it now send their commands to it, and the old primary learns of it only when Sentinel can reach it."
            )),
            _ => None,
        }
    }

    /// It records no event of the consensus family.
    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, _name: &dyn Fn(ActorId) -> String) -> String {
        crate::service::not_recorded(sc, e, me)
    }
}
