//! What a lock service is to a run, in one place: its lanes and their roles, how clients'
//! messages are routed to it, the servers that run it ([`Service`]), each an actor behind the
//! interface of [`crate::actor`], their timers ([`Timer`]) and the protocol its clients speak
//! ([`Protocol`]). These enums and their dispatch are generated from the one list of services
//! (`registry::services!`): one arm per service, each a plain `match` calling the service's
//! slice ([`crate::service::Slice`]) with static dispatch, so a new service adds no line here.

use crate::actor::{Effect, Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{self, Core, Cx, Outcome, TimerKind};
use crate::rng::Rng;
use crate::scenario::{LockKind, Scenario};
use crate::service::{LockClient, LockServer, Slice};
use crate::time::{Micros, Millis};
use crate::trace::{Actor, ActorId, EventKind, QuorumEvent, Role, ServiceEvent};

/// A service's servers.
type ServerOf<S> = <S as Slice>::Server;
/// A service's timers.
type TimerOf<S> = <<S as Slice>::Server as LockServer>::Timer;
/// A service's client protocol.
type ClientOf<S> = <S as Slice>::Client;

type Effects = Vec<proto::Effect>;

/// [`Service`], [`Timer`], [`Protocol`] and their dispatch, from the list.
macro_rules! dispatch {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        /// The servers of a run's lock service. Each comes with a buffer for its handlers'
        /// effects, emptied into the driver's by [`wrap`] and reused.
        #[derive(Clone, Debug)]
        pub enum Service {
            /// No lock service: the clients rely on the resource alone.
            None,
            $($arm(ServerOf<crate::service::$arm>, Out<TimerOf<crate::service::$arm>>),)*
        }

        /// A lock service's timers.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Timer {
            $($arm(TimerOf<crate::service::$arm>),)*
        }

        /// The lock protocol a client speaks, with its client-side state.
        #[derive(Clone, Debug)]
        pub enum Protocol {
            /// No lock service: validation refuses a client's lock steps, and no message of a
            /// lock protocol reaches it.
            None,
            $($arm(ClientOf<crate::service::$arm>),)*
        }

        /// The roles of the lock service's lanes, in lane order.
        fn roles(sc: &Scenario) -> Vec<Role> {
            match sc.lock.kind {
                $(LockKind::$arm => <crate::service::$arm as Slice>::roles(sc),)*
                LockKind::None => vec![],
            }
        }

        impl Service {
            /// The lock service a scenario describes; `id` names an actor by its lane name.
            pub fn build(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Service {
                match sc.lock.kind {
                    $(LockKind::$arm => Service::$arm(<crate::service::$arm as Slice>::server(sc, id), Vec::new()),)*
                    LockKind::None => Service::None,
                }
            }

            /// What the service does as the run starts.
            pub fn start(&mut self, out: &mut Out<Timer>) {
                match self {
                    $(Service::$arm(s, b) => wrap(out, b, Timer::$arm, |o| LockServer::start(s, o)),)*
                    Service::None => {}
                }
            }

            /// The server a client's message to `dest` goes to now (`None`: nowhere, or the resource).
            pub fn route(&self, dest: Dest) -> Option<ActorId> {
                match self {
                    $(Service::$arm(s, _) => LockServer::route(s, dest),)*
                    Service::None => None,
                }
            }

            /// The server client `from`'s message to `dest` goes to now: as [`Service::route`],
            /// but where that depends on what the client can reach (`cut`: whether two actors
            /// are partitioned now), as for a Redis client cut off from the primary Sentinel
            /// promoted.
            pub fn route_from(&self, dest: Dest, from: ActorId, cut: &dyn Fn(ActorId, ActorId) -> bool) -> Option<ActorId> {
                match self {
                    $(Service::$arm(s, _) => LockServer::route_from(s, dest, from, cut),)*
                    Service::None => None,
                }
            }

            /// Server `at` handles a message from `from`.
            pub fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
                match self {
                    $(Service::$arm(s, b) => wrap(out, b, Timer::$arm, |o| LockServer::on_message(s, at, from, payload, env, o)),)*
                    Service::None => {}
                }
            }

            /// Server `at`'s timer fires.
            pub fn on_timer(&mut self, at: ActorId, timer: Timer, env: &dyn Env, out: &mut Out<Timer>) {
                match (self, timer) {
                    $((Service::$arm(s, b), Timer::$arm(t)) => wrap(out, b, Timer::$arm, |o| LockServer::on_timer(s, at, t, env, o)),)*
                    _ => {}
                }
            }

            /// Something happened to one of the servers, or to the service as a whole.
            pub fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Out<Timer>) {
                match self {
                    $(Service::$arm(s, b) => wrap(out, b, Timer::$arm, |o| LockServer::on_fault(s, fault, env, o)),)*
                    Service::None => {}
                }
            }
        }

        impl Protocol {
            /// The protocol a scenario's clients speak.
            pub fn of(sc: &Scenario) -> Protocol {
                match sc.lock.kind {
                    $(LockKind::$arm => Protocol::$arm(<crate::service::$arm as Slice>::client(sc)),)*
                    LockKind::None => Protocol::None,
                }
            }

            /// One attempt at the lock.
            pub fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Effects) {
                match self {
                    $(Protocol::$arm(p) => LockClient::acquire(p, timeout_ms, k, cx, out),)*
                    Protocol::None => {}
                }
            }

            /// Renews the lease; `false` when there is nothing to renew (the step is skipped).
            pub fn renew(&mut self, k: &mut Core, cx: &Cx, out: &mut Effects) -> bool {
                match self {
                    $(Protocol::$arm(p) => LockClient::renew(p, k, cx, out),)*
                    Protocol::None => false,
                }
            }

            /// Releases the lock; `false` when there is nothing to release (the step is skipped).
            pub fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Effects) -> bool {
                match self {
                    $(Protocol::$arm(p) => LockClient::release(p, k, cx, out),)*
                    Protocol::None => false,
                }
            }

            /// The program has ended: what the protocol's client library does then (ZooKeeper's
            /// `close()` ends the session at once).
            pub fn close(&mut self, k: &mut Core, out: &mut Effects) {
                match self {
                    $(Protocol::$arm(p) => LockClient::close(p, k, out),)*
                    Protocol::None => {}
                }
            }

            /// How long to wait before the next attempt.
            pub fn retry_delay(&self, retry_ms: Millis, rng: &mut Rng) -> Micros {
                match self {
                    $(Protocol::$arm(p) => LockClient::retry_delay(p, retry_ms, rng),)*
                    Protocol::None => retry_ms.to_micros(),
                }
            }

            /// A message for the protocol; `None` if it is not one (the program handles it).
            pub fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Effects) -> Option<Outcome> {
                match self {
                    $(Protocol::$arm(s) => LockClient::on_message(s, p, k, cx, out),)*
                    Protocol::None => None,
                }
            }

            /// A timer for the protocol; `None` if it is not one (the program handles it).
            pub fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Effects) -> Option<Outcome> {
                match self {
                    $(Protocol::$arm(s) => LockClient::on_timer(s, kind, k, cx, out),)*
                    Protocol::None => None,
                }
            }
        }

        /// The sentence for an event the run's lock service words its own way (`None`: the
        /// common words, `narrate::sentence`).
        pub fn narrate(sc: &Scenario, me: &str, kind: &EventKind, name: &dyn Fn(ActorId) -> String) -> Option<String> {
            match sc.lock.kind {
                $(LockKind::$arm => <crate::service::$arm as Slice>::narrate(sc, me, kind, name),)*
                LockKind::None => None,
            }
        }

        /// The sentence for an event of the consensus family, in the words of the service the
        /// scenario runs ([`Slice::quorum`]; a run without a lock service records none,
        /// [`crate::service::not_recorded`]).
        pub fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
            match sc.lock.kind {
                $(LockKind::$arm => <crate::service::$arm as Slice>::quorum(sc, e, me, name),)*
                LockKind::None => crate::service::not_recorded(sc, e, me),
            }
        }

        /// The sentence for a service's own event, in its words ([`crate::service::Words`]).
        pub fn words(sc: &Scenario, e: &ServiceEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
            match *e {
                $($(ServiceEvent::$arm(ref e) => {
                    let e: &crate::wire::$module::$event = e;
                    crate::service::Words::words(e, sc, me, name)
                })?)*
            }
        }
    };
}
crate::registry::services!(dispatch);

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

/// Runs a server's handler into its buffer `b`, and moves the effects to `out` with their
/// timers lifted into [`Timer`] (the buffer is kept, so a handler allocates nothing).
fn wrap<T>(out: &mut Out<Timer>, b: &mut Out<T>, lift: fn(T) -> Timer, f: impl FnOnce(&mut Out<T>)) {
    f(b);
    out.extend(b.drain(..).map(|e: Effect<T>| e.map_timer(lift)));
}
