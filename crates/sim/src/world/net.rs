//! The network: per-link latency streams, delay and drop faults, FIFO links, partitions.
//! A message is sent now and delivered (or lost) later by the driver's queue.

use super::{Action, World};
use crate::client::Input;
use crate::msg::Payload;
use crate::rng::Rng;
use crate::scenario::fault::Verb;
use crate::scenario::Scenario;
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, Loss, Message, MsgFate, MsgId, Role};

/// A delay or drop fault on one link, for its next `left` messages.
struct LinkFault {
    from: ActorId,
    to: ActorId,
    at: Micros,
    /// `None` drops the message.
    extra: Option<Micros>,
    left: u32,
}

pub(super) struct Partition {
    pub isolate: Vec<ActorId>,
    /// Whom they are cut off from: everyone else when empty.
    pub from: Vec<ActorId>,
    pub active: bool,
}

impl Partition {
    /// Whether it cuts `a` off from `b` (either way).
    fn cuts(&self, a: ActorId, b: ActorId) -> bool {
        crate::scenario::fault::Partition::cuts(&self.isolate, &self.from, &a, &b)
    }
}

/// A link from one actor to another.
#[derive(Clone)]
struct Link {
    /// Its latency range in ms.
    latency: [Millis; 2],
    /// Its random stream, made when its first message is sent.
    rng: Option<Rng>,
    /// When its last ordinary message arrives (links are FIFO, like TCP).
    last: Micros,
}

pub(super) struct Net {
    seed: u64,
    /// How many actors there are: the link from `a` to `b` is `links[a * n + b]`.
    n: usize,
    links: Vec<Link>,
    link_faults: Vec<LinkFault>,
    pub partitions: Vec<Partition>,
    /// Each message's content, and whether the network will drop it.
    pub(super) payloads: Vec<Payload>,
    dropped: Vec<bool>,
}

impl Net {
    pub fn new(sc: &Scenario, n: usize, id: &dyn Fn(&str) -> ActorId) -> Net {
        let link_faults = sc
            .faults
            .iter()
            .filter_map(|f| {
                let at = f.at_ms().to_micros();
                match f.verb(sc) {
                    Verb::Hold { from, to, extra_us, count } => {
                        Some(LinkFault { from: id(from), to: id(to), at, extra: Some(extra_us), left: count })
                    }
                    Verb::Drop { from, to, count } => Some(LinkFault { from: id(from), to: id(to), at, extra: None, left: count }),
                    _ => None,
                }
            })
            .collect();
        let mut links = vec![Link { latency: sc.network.latency_ms, rng: None, last: Micros::ZERO }; n * n];
        for l in sc.network.links.iter().rev() {
            // The first link entry that names a pair wins.
            links[id(&l.from) * n + id(&l.to)].latency = l.latency_ms;
        }
        Net { seed: sc.seed, n, links, link_faults, partitions: Vec::new(), payloads: Vec::new(), dropped: Vec::new() }
    }

    /// Whether a partition separates `a` from `b` now.
    pub fn cut(&self, a: ActorId, b: ActorId) -> bool {
        self.partitions.iter().any(|p| p.active && p.cuts(a, b))
    }

    fn latency(&mut self, from: ActorId, to: ActorId, names: (&str, &str)) -> Micros {
        let seed = self.seed;
        let link = &mut self.links[from * self.n + to];
        let range = link.latency;
        let rng = link.rng.get_or_insert_with(|| Rng::stream(seed, &format!("link:{}->{}", names.0, names.1)));
        Micros::us(rng.range_inclusive(range[0].to_micros().get(), range[1].to_micros().get()))
    }
}

impl World<'_> {
    pub(super) fn send(&mut self, from: ActorId, to: ActorId, payload: Payload) {
        let msg = self.rec.iv.messages.len();
        let names = (self.actors[from].name.as_str(), self.actors[to].name.as_str());
        let mut lat = self.net.latency(from, to, names);
        let (mut delayed, mut dropped) = (false, false);
        let now = self.now;
        if let Some(f) = self.net.link_faults.iter_mut().find(|f| f.from == from && f.to == to && f.at <= now && f.left > 0) {
            f.left -= 1;
            match f.extra {
                Some(extra) => {
                    lat += extra;
                    delayed = true;
                }
                None => dropped = true,
            }
        }
        if !delayed {
            // A link is a connection: ordinary messages arrive in the order they were sent.
            let last = &mut self.net.links[from * self.net.n + to].last;
            lat = lat.max(*last - now);
            *last = now + lat;
        }
        let ev = self.rec.events.len();
        self.rec.iv.messages.push(Message {
            from,
            to,
            sent_us: now,
            arrived_us: now + lat,
            due_us: now + lat,
            fate: MsgFate::InFlight,
            delayed,
            send_event: ev,
        });
        self.emit(from, EventKind::Send { msg, to }, None);
        self.net.payloads.push(payload);
        self.net.dropped.push(dropped);
        self.push(now + lat, Action::Deliver(msg));
    }

    pub(super) fn lose(&mut self, m: MsgId, why: Loss) {
        let (from, to) = (self.rec.iv.messages[m].from, self.rec.iv.messages[m].to);
        let cause = self.rec.iv.messages[m].send_event;
        self.rec.iv.messages[m].fate = MsgFate::Lost;
        self.rec.iv.messages[m].arrived_us = self.now;
        self.emit(to, EventKind::Lost { msg: m, from, why }, Some(cause));
    }

    pub(super) fn deliver(&mut self, m: MsgId) {
        let (from, to) = (self.rec.iv.messages[m].from, self.rec.iv.messages[m].to);
        if self.net.dropped[m] {
            self.lose(m, Loss::Dropped);
            return;
        }
        if self.net.cut(from, to) {
            self.lose(m, Loss::Partitioned);
            return;
        }
        self.rec.iv.messages[m].fate = MsgFate::Delivered;
        self.rec.iv.messages[m].arrived_us = self.now;
        let cause = self.rec.iv.messages[m].send_event;
        self.emit(to, EventKind::Receive { msg: m, from }, Some(cause));
        let payload = self.net.payloads[m].clone();
        match self.actors[to].role {
            Role::Client => self.client_input(to, Input::Message(payload)),
            Role::Redis | Role::Replica | Role::Member => {
                let mut out = std::mem::take(&mut self.fx.lock);
                self.lock.on_message(to, from, payload, &super::view!(self), &mut out);
                self.handled(to, &mut out);
                self.apply(&mut out, super::Timer::Lock);
                self.fx.lock = out;
            }
            Role::Resource => {
                let mut out = std::mem::take(&mut self.fx.resource);
                self.resource.on_message(from, payload, m, &super::view!(self), &mut out);
                self.apply(&mut out, |c| super::Timer::Resource(Box::new(c)));
                self.fx.resource = out;
            }
        }
    }
}
