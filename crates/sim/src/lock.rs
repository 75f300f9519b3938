//! What a lock service is, in one place: its lanes and their roles, how clients' messages are
//! routed to it, and the servers that run it ([`Service`]), each an actor behind the interface
//! of [`crate::actor`]. The client side of each protocol lives beside its server, in its folder
//! under [`crate::service`].
//!
//! Adding a lock service: a module with its server actor, its client protocol and its
//! narration; an arm in `scenario::LockKind` (with its lane names and validation in
//! `scenario/`), in [`Service`], [`Timer`] and [`Protocol`] here, and in [`narrate`]; its lanes'
//! roles in [`roles`]; its labels in `draw::glyph`.

use crate::actor::{Effect, Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{self, Core, Cx, Outcome, TimerKind};
use crate::rng::Rng;
use crate::scenario::{member_name, min_lease_ttl_ms, node_name, zk_name, CounterStore, LockKind, Persistence, Scenario, TokenKind};
use crate::service::consensus::{self, client::Session, Cluster};
use crate::service::kubernetes::{self, client::Elector, server::ApiServer};
use crate::service::redis::client::{Scripts, Single};
use crate::service::redis::server::{self as redis_server, Servers};
use crate::service::redlock::Redlock;
use crate::service::zookeeper::{self, client::Recipe, server::Ensemble};
use crate::time::{Micros, MS};
use crate::trace::{Actor, ActorId, EventKind, Role};

/// The servers of a run's lock service.
#[derive(Clone, Debug)]
pub enum Service {
    /// No lock service: the clients rely on the resource alone.
    None,
    /// A Redis primary (and replica), or Redlock's independent masters. Each server comes with
    /// a buffer for its handlers' effects, emptied into the driver's by [`wrap`] and reused.
    Redis(Servers, Out<redis_server::Timer>),
    Consensus(Cluster, Out<consensus::Timer>),
    ZooKeeper(Ensemble, Out<zookeeper::server::Timer>),
    Kubernetes(ApiServer, Out<kubernetes::server::Timer>),
}

/// A lock service's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    Redis(redis_server::Timer),
    Consensus(consensus::Timer),
    ZooKeeper(zookeeper::server::Timer),
}

/// The run's lanes, in order: clients, the lock service's servers, the resource.
pub fn lanes(sc: &Scenario) -> Vec<Actor> {
    let names = sc.actor_names();
    let servers = roles(sc);
    let n_clients = sc.clients.len();
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let role = if i < n_clients { Role::Client } else { servers.get(i - n_clients).copied().unwrap_or(Role::Resource) };
            Actor { name, role }
        })
        .collect()
}

/// The roles of the lock service's lanes, in lane order.
fn roles(sc: &Scenario) -> Vec<Role> {
    let n = sc.lock.nodes as usize;
    match sc.lock.kind {
        LockKind::Redis if sc.lock.replica.is_some() => vec![Role::Redis, Role::Replica],
        LockKind::Redis => vec![Role::Redis],
        LockKind::Redlock => vec![Role::Redis; n],
        LockKind::Consensus | LockKind::ZooKeeper => vec![Role::Member; n],
        LockKind::Kubernetes => vec![Role::Member],
        LockKind::None => vec![],
    }
}

impl Service {
    /// The lock service a scenario describes; `id` names an actor by its lane name.
    pub fn build(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Service {
        let l = &sc.lock;
        let keeps_data = l.persistence == Persistence::Always;
        match l.kind {
            LockKind::Redis => {
                let counter = (sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis).then_some(sc.token.start);
                let replica = l.replica.as_ref().map(|r| (id("replica"), r.lag_ms));
                Service::Redis(Servers::primary(id("redis"), replica, counter, l.ttl_ms, keeps_data), Vec::new())
            }
            LockKind::Redlock => {
                let nodes = (0..l.nodes as usize).map(|i| id(&node_name(i))).collect();
                Service::Redis(Servers::independent(nodes, l.ttl_ms, keeps_data), Vec::new())
            }
            LockKind::Consensus => {
                let members = (0..l.nodes as usize).map(|i| id(&member_name(i))).collect();
                let cfg = consensus::Settings {
                    ttl_ms: l.ttl_ms,
                    election_timeout_ms: l.election_timeout_ms,
                    min_ttl_ms: min_lease_ttl_ms(l.election_timeout_ms),
                    recheck_after_wait: l.recheck_after_wait,
                    tokens: sc.token.source == TokenKind::Counter,
                };
                Service::Consensus(Cluster::new(members, cfg), Vec::new())
            }
            LockKind::ZooKeeper => {
                let servers = (0..l.nodes as usize).map(|i| id(&zk_name(i))).collect();
                let cfg = zookeeper::server::Settings {
                    election_timeout_ms: l.election_timeout_ms,
                    tokens: sc.token.source == TokenKind::Counter,
                };
                Service::ZooKeeper(Ensemble::new(servers, cfg), Vec::new())
            }
            LockKind::Kubernetes => {
                let cfg = kubernetes::server::Settings { lease_ms: l.ttl_ms, tokens: sc.token.source == TokenKind::Counter };
                Service::Kubernetes(ApiServer::new(id(crate::scenario::APISERVER), cfg), Vec::new())
            }
            LockKind::None => Service::None,
        }
    }

    /// What the service does as the run starts.
    pub fn start(&mut self, out: &mut Out<Timer>) {
        match self {
            Service::Consensus(c, b) => wrap(out, b, Timer::Consensus, |o| c.start(o)),
            Service::ZooKeeper(z, b) => wrap(out, b, Timer::ZooKeeper, |o| z.start(o)),
            _ => {}
        }
    }

    /// The server a client's message to `dest` goes to now (`None`: nowhere, or the resource).
    pub fn route(&self, dest: Dest) -> Option<ActorId> {
        match (self, dest) {
            (Service::Redis(s, _), Dest::Lock) => s.primary_now(),
            (Service::Redis(s, _), Dest::Node(i)) => s.redlock_nodes.get(i).copied(),
            (Service::Consensus(c, _), Dest::Leader) => c.contact(),
            (Service::ZooKeeper(z, _), Dest::Leader) => z.contact(),
            (Service::Kubernetes(k, _), Dest::Lock) => Some(k.contact()),
            _ => None,
        }
    }

    /// Server `at` handles a message from `from`.
    pub fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        match self {
            Service::Redis(s, b) => wrap(out, b, Timer::Redis, |o| s.on_message(at, from, payload, env, o)),
            Service::Consensus(c, b) => wrap(out, b, Timer::Consensus, |o| c.on_message(at, from, payload, env, o)),
            Service::ZooKeeper(z, b) => wrap(out, b, Timer::ZooKeeper, |o| z.on_message(at, from, payload, env, o)),
            Service::Kubernetes(k, b) => wrap(out, b, |t| match t {}, |o| k.on_message(from, payload, env, o)),
            Service::None => {}
        }
    }

    pub fn on_timer(&mut self, at: ActorId, timer: Timer, env: &dyn Env, out: &mut Out<Timer>) {
        match (self, timer) {
            (Service::Redis(s, b), Timer::Redis(t)) => wrap(out, b, Timer::Redis, |o| s.on_timer(at, t, env, o)),
            (Service::Consensus(c, b), Timer::Consensus(t)) => wrap(out, b, Timer::Consensus, |o| c.on_timer(t, env, o)),
            (Service::ZooKeeper(z, b), Timer::ZooKeeper(t)) => wrap(out, b, Timer::ZooKeeper, |o| z.on_timer(t, env, o)),
            _ => {}
        }
    }

    /// Something happened to one of the servers, or to the service as a whole.
    pub fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Out<Timer>) {
        match self {
            Service::Redis(s, b) => wrap(out, b, Timer::Redis, |o| s.on_fault(fault, env, o)),
            Service::Consensus(c, b) => wrap(out, b, Timer::Consensus, |o| c.on_fault(fault, env, o)),
            Service::ZooKeeper(z, b) => wrap(out, b, Timer::ZooKeeper, |o| z.on_fault(fault, env, o)),
            // The Lease is kept in etcd: a crash or pause of the API server loses nothing.
            Service::Kubernetes(..) | Service::None => {}
        }
    }
}

/// The lock protocol a client speaks, with its client-side state.
#[derive(Clone, Debug)]
pub enum Protocol {
    /// The single-node Redis lock (also what a client of no lock service runs: its requests
    /// go nowhere).
    Redis(Single),
    Redlock(Redlock),
    Consensus(Session),
    ZooKeeper(Recipe),
    Kubernetes(Elector),
}

type Effects = Vec<proto::Effect>;

impl Protocol {
    /// The protocol a scenario's clients speak.
    pub fn of(sc: &Scenario) -> Protocol {
        let l = &sc.lock;
        let scripts = Scripts { release: l.release, renew: l.renew };
        match l.kind {
            LockKind::Redis | LockKind::None => {
                let incr = sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis;
                Protocol::Redis(Single::new(scripts, incr))
            }
            LockKind::Redlock => {
                Protocol::Redlock(Redlock::new(l.nodes as usize, l.node_timeout_ms, l.parallel, l.clock_drift_factor, scripts))
            }
            LockKind::Consensus => Protocol::Consensus(Session::default()),
            LockKind::ZooKeeper => Protocol::ZooKeeper(Recipe::default()),
            LockKind::Kubernetes => Protocol::Kubernetes(Elector::new(kubernetes::client::Timing {
                lease_us: l.ttl_ms as Micros * MS,
                renew_deadline_us: l.renew_deadline_ms as Micros * MS,
                retry_us: l.retry_period_ms as Micros * MS,
            })),
        }
    }

    /// One attempt at the lock.
    pub fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Effects) {
        match self {
            Protocol::Redis(p) => p.acquire(timeout_ms, k, cx, out),
            Protocol::Redlock(p) => p.acquire(k, cx, out),
            Protocol::Consensus(p) => p.acquire(timeout_ms, k, cx, out),
            Protocol::ZooKeeper(p) => p.acquire(timeout_ms, k, cx, out),
            Protocol::Kubernetes(p) => p.acquire(timeout_ms, k, cx, out),
        }
    }

    /// Renews the lease; `false` when there is nothing to renew (the step is skipped).
    pub fn renew(&mut self, k: &mut Core, cx: &Cx, out: &mut Effects) -> bool {
        match self {
            Protocol::Redis(p) => p.renew(k, cx, out),
            Protocol::Redlock(p) => p.renew(k, cx, out),
            // A session renews itself with keepalives or pings (validation refuses the step).
            Protocol::Consensus(_) | Protocol::ZooKeeper(_) | Protocol::Kubernetes(_) => false,
        }
    }

    /// Releases the lock; `false` when there is nothing to release (the step is skipped).
    pub fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Effects) -> bool {
        match self {
            Protocol::Redis(p) => p.release(k, cx, out),
            Protocol::Redlock(p) => p.release(k, cx, out),
            Protocol::Consensus(p) => p.release(k, cx, out),
            Protocol::ZooKeeper(p) => p.release(k, cx, out),
            Protocol::Kubernetes(p) => p.release(k, cx, out),
        }
    }

    /// The program has ended: what the protocol's client library does then (ZooKeeper's
    /// `close()` ends the session at once).
    pub fn close(&mut self, k: &mut Core, out: &mut Effects) {
        if let Protocol::ZooKeeper(p) = self {
            p.close(k, out);
        }
    }

    /// How long to wait before the next attempt.
    pub fn retry_delay(&self, retry_ms: u64, rng: &mut Rng) -> Micros {
        match self {
            Protocol::Redlock(_) => Redlock::retry_delay(retry_ms, rng),
            Protocol::Kubernetes(p) => p.retry_delay(rng),
            _ => retry_ms as Micros * MS,
        }
    }

    /// A message for the protocol; `None` if it is not one (the program handles it).
    pub fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Effects) -> Option<Outcome> {
        match self {
            Protocol::Redis(s) => s.on_message(p, k, cx, out),
            Protocol::Redlock(s) => s.on_message(p, k, cx, out),
            Protocol::Consensus(s) => s.on_message(p, k, cx, out),
            Protocol::ZooKeeper(s) => s.on_message(p, k, cx, out),
            Protocol::Kubernetes(s) => s.on_message(p, k, cx, out),
        }
    }

    /// A timer for the protocol; `None` if it is not one (the program handles it).
    pub fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Effects) -> Option<Outcome> {
        match self {
            Protocol::Redis(_) => None,
            Protocol::Redlock(s) => s.on_timer(kind, k, cx, out),
            Protocol::Consensus(s) => s.on_timer(kind, k, cx, out),
            Protocol::ZooKeeper(s) => s.on_timer(kind, k, cx, out),
            Protocol::Kubernetes(s) => s.on_timer(kind, k, cx, out),
        }
    }
}

/// The sentence for an event the run's lock service words its own way (`None`: the common
/// words, `narrate::sentence`, which give the etcd-like service's words to the consensus
/// family's events).
pub fn narrate(sc: &Scenario, me: &str, kind: &EventKind, name: &dyn Fn(ActorId) -> String) -> Option<String> {
    match sc.lock.kind {
        LockKind::ZooKeeper => zookeeper::narrate(me, kind, name, sc.lock.ttl_ms),
        LockKind::Consensus => consensus::narrate_client(me, kind),
        LockKind::Kubernetes => kubernetes::words::narrate(sc, me, kind, name),
        _ => None,
    }
}

/// Runs a server's handler into its buffer `b`, and moves the effects to `out` with their
/// timers lifted into [`Timer`] (the buffer is kept, so a handler allocates nothing).
fn wrap<T>(out: &mut Out<Timer>, b: &mut Out<T>, lift: fn(T) -> Timer, f: impl FnOnce(&mut Out<T>)) {
    f(b);
    out.extend(b.drain(..).map(|e: Effect<T>| e.map_timer(lift)));
}
