//! The lock services as slices: each one a folder holding its server, its client protocol and
//! its narration, joined to the run through [`Slice`] (implemented by the service's marker
//! type here, [`Redis`], [`Redlock`], [`Consensus`], [`ZooKeeper`], [`Kubernetes`], made from
//! the one list, `registry::services!`, as the modules are). `lock.rs` dispatches to them with
//! enums generated from the same list (no trait objects). A service's messages and events, as
//! data, are on the ground floor ([`crate::wire`]), so that the envelope can carry them; its
//! labels, lanes, settings and validation are in the scenario's layer (`scenario::lock`).

use crate::actor::{Env, Out, ServerFault};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, QuorumEvent, Role};

/// The modules and marker types of the lock services, from the list.
macro_rules! modules {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        $(
            pub mod $module;
            #[doc = concat!("The `", $json, "` lock service, as [`Slice`] joins it to a run.")]
            #[derive(Clone, Copy, Debug)]
            pub struct $arm;
        )*
    };
}
crate::registry::services!(modules);

/// What a lock service is to a run: the roles of its lanes, its servers and the protocol its
/// clients speak, built from the scenario, and the words it gives events its own way.
pub trait Slice {
    /// Its servers, as one actor that handles each of them.
    type Server: LockServer;
    /// Its client protocol, with the client's own state.
    type Client: LockClient;
    /// The roles of its servers' lanes, in lane order (their names are the declaration's,
    /// `scenario::lock::Declaration::lanes`).
    fn roles(sc: &Scenario) -> Vec<Role>;
    /// Its servers; `id` names an actor by its lane name.
    fn server(sc: &Scenario, id: &dyn Fn(&str) -> ActorId) -> Self::Server;
    /// The protocol each client speaks.
    fn client(sc: &Scenario) -> Self::Client;
    /// The sentence for an event it words its own way (`None`: the common words).
    fn narrate(_sc: &Scenario, _me: &str, _kind: &EventKind, _name: &dyn Fn(ActorId) -> String) -> Option<String> {
        None
    }
    /// The sentence for an event of the consensus family ([`QuorumEvent`]) at `me`: for a
    /// service that records them, in its own terms in one exhaustive match (no `Option`, no `_`
    /// arm), so that an event added to the family does not compile until it has words, with
    /// [`not_recorded`] for one it does not record; for a service that records none, that.
    fn quorum(sc: &Scenario, e: &QuorumEvent, me: &str, name: &dyn Fn(ActorId) -> String) -> String;
}

/// The sentence a service gives an event of the consensus family it does not record. It cannot
/// be shown: only the replicated services' servers and clients make a [`QuorumEvent`]
/// (`service/consensus/`, `service/zookeeper/`, and `quorum.rs`, which only they use), each
/// only the events it words, and tests/architecture.rs checks that no library run shows this.
/// Were one recorded, the sentence says what it is and that the service does not record it,
/// rather than passing the bare tag off as words.
pub fn not_recorded(sc: &Scenario, e: &QuorumEvent, me: &str) -> String {
    let (tag, _) = e.tag(0);
    format!("{me}: {tag}, an event of the consensus family, which {} does not record.", sc.lock.kind.title())
}

/// Where a client's message goes in a replicated service (etcd's cluster, ZooKeeper's
/// ensemble): a message for the leader to `contact`, the member the client believes leads.
pub(crate) fn to_leader(dest: Dest, contact: Option<ActorId>) -> Option<ActorId> {
    match dest {
        Dest::Leader => contact,
        Dest::Lock | Dest::Node(_) | Dest::Resource => None,
    }
}

/// A lock service's servers, as an actor: messages, timers and faults in, effects out.
pub trait LockServer {
    /// Its timers.
    type Timer;
    /// What it does as the run starts.
    fn start(&mut self, _out: &mut Out<Self::Timer>) {}
    /// The server a client's message to `dest` goes to now (`None`: nowhere).
    fn route(&self, dest: Dest) -> Option<ActorId>;
    /// The server client `from`'s message to `dest` goes to now, where that depends on what the
    /// client can reach (`cut`: whether two actors are partitioned now); by default, `route`.
    fn route_from(&self, dest: Dest, _from: ActorId, _cut: &dyn Fn(ActorId, ActorId) -> bool) -> Option<ActorId> {
        self.route(dest)
    }
    /// Server `at` handles a message from `from`.
    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Self::Timer>);
    /// Server `at`'s timer fires.
    fn on_timer(&mut self, _at: ActorId, _timer: Self::Timer, _env: &dyn Env, _out: &mut Out<Self::Timer>) {}
    /// Something happened to one of the servers, or to the service as a whole.
    fn on_fault(&mut self, _fault: ServerFault, _env: &dyn Env, _out: &mut Out<Self::Timer>) {}
}

/// A lock service's client protocol: the lock operations a client's program asks for, and the
/// messages and timers that are the protocol's.
pub trait LockClient {
    /// One attempt at the lock.
    fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>);
    /// Renews the lease; `false` when there is nothing to renew (a session renews itself, and
    /// validation refuses the step).
    fn renew(&mut self, _k: &mut Core, _cx: &Cx, _out: &mut Vec<Effect>) -> bool {
        false
    }
    /// Releases the lock; `false` when there is nothing to release.
    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool;
    /// The program has ended: what the client library does then.
    fn close(&mut self, _k: &mut Core, _out: &mut Vec<Effect>) {}
    /// How long to wait before the next attempt.
    fn retry_delay(&self, retry_ms: Millis, _rng: &mut Rng) -> Micros {
        retry_ms.to_micros()
    }
    /// A message for the protocol; `None` if it is not one (the program handles it).
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome>;
    /// A timer for the protocol; `None` if it is not one.
    fn on_timer(&mut self, _kind: TimerKind, _k: &mut Core, _cx: &Cx, _out: &mut Vec<Effect>) -> Option<Outcome> {
        None
    }
}

/// A service's own event ([`crate::trace::ServiceEvent`]) in words, made when it is shown.
pub trait Words {
    /// The sentence for the event at actor `me`, a run of `sc`; `name` names an actor.
    fn words(&self, sc: &Scenario, me: &str, name: &dyn Fn(ActorId) -> String) -> String;
}
