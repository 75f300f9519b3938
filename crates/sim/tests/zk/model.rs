//! The engine's ZooKeeper ensemble (`sim::service::zookeeper::server`), one server as the real one is
//! run standalone, driven on the real elapsed time as the engine would drive it: its timers
//! (session checks) fire when their time has come, before the next request is handled.

use sim::actor::{Effect, Env};
use sim::msg::Payload;
use sim::service::zookeeper::server::{Ensemble, Settings, Timer};
use sim::service::zookeeper::Msg;
use sim::service::LockServer;
use sim::time::{Micros, Millis};
use sim::trace::{ActorId, EventKind, QuorumEvent};

const SERVER: ActorId = 0;

/// Perfect clocks read the true time (the suite's elapsed time); nothing is down or cut.
struct Clock(Micros);

impl Env for Clock {
    fn now(&self) -> Micros {
        self.0
    }
    fn local(&self, _: ActorId) -> Micros {
        self.0
    }
    fn when_reads(&self, _: ActorId, local: Micros) -> Option<Micros> {
        Some(local.max(self.0))
    }
    fn mono(&self, _: ActorId) -> Micros {
        self.0
    }
    fn when_mono_reads(&self, _: ActorId, mono: Micros) -> Option<Micros> {
        Some(mono.max(self.0))
    }
    fn is_down(&self, _: ActorId) -> bool {
        false
    }
    fn paused_until(&self, _: ActorId) -> Option<Micros> {
        None
    }
    fn cut(&self, _: ActorId, _: ActorId) -> bool {
        false
    }
    fn name(&self, a: ActorId) -> &str {
        if a == SERVER {
            "zk1"
        } else {
            "client"
        }
    }
    fn next_grant(&self) -> usize {
        0
    }
    fn durable_token(&self) -> Option<u64> {
        None
    }
    fn end(&self) -> Micros {
        Micros::MAX / 4
    }
}

pub struct Model {
    z: Ensemble,
    timers: Vec<(Micros, Timer)>,
    /// The zxid of the last committed transaction.
    pub zxid: u64,
    /// What the ensemble sent each client (by client number, from 1), not yet taken.
    inbox: Vec<Vec<Msg>>,
    req: u64,
}

impl Model {
    /// An elected one-server ensemble, for clients 1..=`clients`.
    pub fn new(clients: usize) -> Model {
        let z = Ensemble::new(vec![SERVER], Settings { election_timeout_ms: Millis::new(1), tokens: true, lock_delay_ms: Millis::new(0) });
        let mut m = Model { z, timers: Vec::new(), zxid: 0, inbox: vec![Vec::new(); clients + 1], req: 0 };
        let mut out = Vec::new();
        m.z.start(&mut out);
        m.absorb(out);
        m.advance(Micros::ZERO);
        m
    }

    fn absorb(&mut self, out: Vec<Effect<Timer>>) {
        for e in out {
            match e {
                Effect::Send { to, payload: Payload::ZooKeeper(msg), .. } => self.inbox[to].push(msg),
                Effect::Event { kind: EventKind::Quorum(QuorumEvent::Committed { revision, .. }), .. } => self.zxid = revision,
                Effect::Timer { at, timer, .. } => self.timers.push((at, timer)),
                _ => {}
            }
        }
    }

    /// Runs every timer due by `to`, in time order, each at its own time.
    fn advance(&mut self, to: Micros) {
        while let Some(i) = (0..self.timers.len()).filter(|&i| self.timers[i].0 <= to).min_by_key(|&i| self.timers[i].0) {
            let (at, timer) = self.timers.remove(i);
            let mut out = Vec::new();
            self.z.on_timer(SERVER, timer, &Clock(at), &mut out);
            self.absorb(out);
        }
    }

    /// Client `client` sends the request `make(req)` at `at`: the ensemble's answer to it.
    pub fn ask(&mut self, client: ActorId, at: Micros, make: impl FnOnce(u64) -> Msg) -> Msg {
        self.advance(at);
        self.req += 1;
        let req = self.req;
        let mut out = Vec::new();
        self.z.on_message(SERVER, client, Payload::ZooKeeper(make(req)), &Clock(at), &mut out);
        self.absorb(out);
        let inbox = &mut self.inbox[client];
        let i = inbox.iter().position(|m| m.req() == Some(req)).expect("the ensemble answers every request of an open connection");
        inbox.remove(i)
    }

    /// The watch notifications client `client` has received and not yet taken: the deleted
    /// znodes' sequence numbers.
    pub fn take_events(&mut self, client: ActorId) -> Vec<u64> {
        let mut seqs = Vec::new();
        self.inbox[client].retain(|m| match m {
            Msg::Deleted { seq } => {
                seqs.push(*seq);
                false
            }
            _ => true,
        });
        seqs
    }
}
