//! The driver: [`simulate`] runs a scenario to a [`Run`].
//!
//! One `World` owns everything: the event queue, ordered by (true time, sequence number);
//! each actor's clock, pause and crash state; the network with its latency streams and link
//! faults; the Redis nodes; the resource; and the trace being written. Actors never act on the
//! world themselves: clients return effects ([`crate::client::Effect`]), the Redis node and the
//! resource return decisions, and only this module sends messages, arms timers and records.
//!
//! A paused actor keeps its state; whatever reaches it (messages, its own timers) waits in a
//! buffer and is handled the moment it resumes. A crashed actor loses its timers and in-flight
//! work; messages sent to it are lost.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

use crate::client::{Client, Cx, Dest, Effect, Input, RedlockCx, TimerKind};
use crate::clock::{Clock, ClockChange};
use crate::msg::{Payload, RedisCmd};
use crate::redis::{Change, Entry, Node, FENCE_KEY, LOCK_KEY};
use crate::resource::{Decision, Store};
use crate::rng::Rng;
use crate::scenario::{CounterStore, Fault, LockKind, Persistence, Scenario, TokenKind, WriteOp};
use crate::time::{fmt, ms, Micros, MS};
use crate::trace::*;
use crate::RunError;

mod consensus;

#[derive(Clone, Debug)]
enum Action {
    Start(ActorId),
    Deliver(MsgId),
    ClientTimer {
        actor: ActorId,
        inc: u32,
        kind: TimerKind,
    },
    Fault(usize),
    Resume(ActorId),
    Heal(usize),
    Expiry {
        node: ActorId,
        gen: u64,
    },
    Ship {
        node: ActorId,
        inc: u32,
        key: String,
        entry: Option<Entry>,
    },
    Commit {
        inc: u32,
        client: ActorId,
        msg: MsgId,
    },
    /// Consensus: decide who leads.
    Election,
    /// Consensus: has this lease run out on the leader's clock?
    LeaseCheck {
        lease: u64,
        gen: u64,
    },
}

impl Action {
    /// The actor whose process does this work (paused: it waits; crashed: it is lost).
    fn worker(&self, msgs: &[Message]) -> Option<ActorId> {
        match self {
            Action::Start(a) | Action::ClientTimer { actor: a, .. } | Action::Ship { node: a, .. } => Some(*a),
            Action::Deliver(m) => Some(msgs[*m].to),
            _ => None,
        }
    }
}

struct Item {
    at: Micros,
    seq: u64,
    action: Action,
}

impl PartialEq for Item {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    // BinaryHeap is a max-heap: the earliest (time, sequence) must compare greatest.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
}

struct Proc {
    clock: Clock,
    paused_until: Option<Micros>,
    down: bool,
    inc: u32,
    deferred: Vec<Action>,
}

struct LinkFault {
    from: ActorId,
    to: ActorId,
    at: Micros,
    /// `None` drops the message.
    extra: Option<Micros>,
    left: u32,
}

struct Partition {
    isolate: Vec<ActorId>,
    active: bool,
}

struct World<'s> {
    sc: &'s Scenario,
    actors: Vec<Actor>,
    procs: Vec<Proc>,
    clients: Vec<Option<Client>>,
    nodes: BTreeMap<ActorId, Node>,
    primary: Option<ActorId>,
    replica: Option<ActorId>,
    /// Redlock's nodes, by index.
    redlock_nodes: Vec<ActorId>,
    /// The consensus service, when there is one.
    cluster: Option<consensus::Cluster>,
    promoted: bool,
    resource: ActorId,
    store: Store,
    durable_next: u64,
    now: Micros,
    seq: u64,
    queue: BinaryHeap<Item>,
    events: Vec<Event>,
    iv: Intervals,
    payloads: Vec<Payload>,
    dropped: Vec<bool>,
    grants: Vec<Grant>,
    applied: Vec<Applied>,
    tokens: Vec<(Micros, u64, ActorId)>,
    resource_log: Vec<ResourceState>,
    /// Per link: its latency range in ms and its random stream.
    link_rng: BTreeMap<(ActorId, ActorId), ([u64; 2], Rng)>,
    link_faults: Vec<LinkFault>,
    /// Per link: when its last ordinary message arrives (links are FIFO, like TCP).
    link_last: BTreeMap<(ActorId, ActorId), Micros>,
    partitions: Vec<Partition>,
    open_belief: Vec<Option<usize>>,
    /// Per client, the Redlock nodes of its last winning tally, until its grant is recorded.
    won_votes: Vec<Vec<ActorId>>,
    open_key: BTreeMap<ActorId, usize>,
    open_down: BTreeMap<ActorId, usize>,
    expiry_gen: BTreeMap<ActorId, u64>,
    end: Micros,
    overflow: bool,
    /// The most events this run may have; one more stops it with `RunError::TooManyEvents`.
    max_events: usize,
}

/// Runs a validated scenario.
pub(crate) fn simulate(sc: &Scenario, max_events: usize) -> Result<Run, RunError> {
    let mut w = World::new(sc);
    w.max_events = max_events;
    w.run_loop()?;
    Ok(w.finish())
}

impl<'s> World<'s> {
    fn new(sc: &'s Scenario) -> World<'s> {
        let names = sc.actor_names();
        let n_clients = sc.clients.len();
        let id_of = |name: &str| names.iter().position(|n| n == name).expect("validated actor name");
        let last = names.len() - 1;
        let actors: Vec<Actor> = names
            .iter()
            .enumerate()
            .map(|(i, n)| Actor {
                name: n.clone(),
                role: if i < n_clients {
                    Role::Client
                } else if i == last {
                    Role::Resource
                } else if n == "replica" {
                    Role::Replica
                } else if sc.lock.kind == LockKind::Consensus {
                    Role::Member
                } else {
                    Role::Redis
                },
            })
            .collect();
        // Clocks are known in advance: every change is a scheduled fault.
        let procs = names
            .iter()
            .map(|name| {
                let spec = sc.clocks.get(name).cloned().unwrap_or_default();
                let changes: Vec<(Micros, ClockChange)> = sc
                    .faults
                    .iter()
                    .filter_map(|f| match f {
                        Fault::ClockJump { actor, at_ms, by_ms } if actor == name => {
                            Some((ms(*at_ms as i64), ClockChange::Jump(ms(*by_ms))))
                        }
                        Fault::Drift { actor, at_ms, ppm } if actor == name => Some((ms(*at_ms as i64), ClockChange::Drift(*ppm))),
                        _ => None,
                    })
                    .collect();
                Proc {
                    clock: Clock::new(ms(spec.offset_ms), spec.drift_ppm, &changes),
                    paused_until: None,
                    down: false,
                    inc: 0,
                    deferred: Vec::new(),
                }
            })
            .collect();
        let clients =
            sc.clients.iter().map(|c| Some(Client::new(c.steps.clone(), Rng::stream(sc.seed, &format!("client:{}", c.name))))).collect();
        let mut nodes = BTreeMap::new();
        let (mut primary, mut replica) = (None, None);
        if sc.lock.kind == LockKind::Redis {
            let p = id_of("redis");
            let mut node = Node::default();
            if sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis {
                // The counter has been running before the scenario starts.
                node.keys.insert(
                    FENCE_KEY.into(),
                    Entry { value: (sc.token.start - 1).to_string(), expires_local: None, owner: None, grant: None },
                );
            }
            if sc.lock.replica.is_some() {
                let r = id_of("replica");
                nodes.insert(r, node.clone());
                replica = Some(r);
            }
            nodes.insert(p, node);
            primary = Some(p);
        }
        let mut redlock_nodes = Vec::new();
        if sc.lock.kind == LockKind::Redlock {
            for i in 0..sc.lock.nodes as usize {
                let id = id_of(&crate::scenario::node_name(i));
                nodes.insert(id, Node::default());
                redlock_nodes.push(id);
            }
        }
        let link_faults = sc
            .faults
            .iter()
            .filter_map(|f| match f {
                Fault::Delay { from, to, at_ms, extra_ms, count } => Some(LinkFault {
                    from: id_of(from),
                    to: id_of(to),
                    at: ms(*at_ms as i64),
                    extra: Some(ms(*extra_ms as i64)),
                    left: *count,
                }),
                Fault::Drop { from, to, at_ms, count } => {
                    Some(LinkFault { from: id_of(from), to: id_of(to), at: ms(*at_ms as i64), extra: None, left: *count })
                }
                _ => None,
            })
            .collect();
        let mut w = World {
            sc,
            resource: names.len() - 1,
            actors,
            procs,
            clients,
            nodes,
            primary,
            replica,
            redlock_nodes,
            cluster: (sc.lock.kind == LockKind::Consensus)
                .then(|| consensus::Cluster::new((0..sc.lock.nodes as usize).map(|i| id_of(&crate::scenario::member_name(i))).collect())),
            promoted: false,
            store: Store::new(sc.resource.clone()),
            durable_next: sc.token.start,
            now: 0,
            seq: 0,
            queue: BinaryHeap::new(),
            events: Vec::new(),
            iv: Intervals::default(),
            payloads: Vec::new(),
            dropped: Vec::new(),
            grants: Vec::new(),
            applied: Vec::new(),
            tokens: Vec::new(),
            resource_log: Vec::new(),
            link_rng: BTreeMap::new(),
            link_faults,
            link_last: BTreeMap::new(),
            partitions: Vec::new(),
            open_belief: vec![None; n_clients],
            won_votes: vec![Vec::new(); n_clients],
            open_key: BTreeMap::new(),
            open_down: BTreeMap::new(),
            expiry_gen: BTreeMap::new(),
            end: ms(sc.duration_ms as i64),
            overflow: false,
            max_events: crate::scenario::limits::EVENTS,
        };
        if w.cluster.is_some() {
            w.push(0, Action::Election);
        }
        for (i, c) in sc.clients.iter().enumerate() {
            w.push(ms(c.start_ms as i64), Action::Start(i));
        }
        for (i, f) in sc.faults.iter().enumerate() {
            if !matches!(f, Fault::Delay { .. } | Fault::Drop { .. }) {
                w.push(ms(f.at_ms() as i64), Action::Fault(i));
            }
        }
        w
    }

    fn push(&mut self, at: Micros, action: Action) {
        self.seq += 1;
        self.queue.push(Item { at, seq: self.seq, action });
    }

    fn local(&self, a: ActorId) -> Micros {
        self.procs[a].clock.local_at(self.now)
    }

    fn name(&self, a: ActorId) -> &str {
        &self.actors[a].name
    }

    fn run_loop(&mut self) -> Result<(), RunError> {
        while let Some(item) = self.queue.pop() {
            if item.at > self.end {
                break;
            }
            self.now = item.at;
            self.dispatch(item.action);
            if self.overflow {
                return Err(RunError::TooManyEvents { limit: self.max_events, at_us: self.now });
            }
        }
        Ok(())
    }

    fn dispatch(&mut self, action: Action) {
        if let Some(a) = action.worker(&self.iv.messages) {
            if self.procs[a].down {
                if let Action::Deliver(m) = action {
                    let why = format!("{} is down", self.name(a));
                    self.lose(m, why);
                }
                return;
            }
            if self.procs[a].paused_until.is_some() {
                self.procs[a].deferred.push(action);
                return;
            }
        }
        match action {
            Action::Start(a) => self.client_input(a, Input::Start, None),
            Action::Deliver(m) => self.deliver(m),
            Action::ClientTimer { actor, inc, kind } => {
                if self.procs[actor].inc == inc {
                    self.client_input(actor, Input::Timer(kind), None);
                }
            }
            Action::Fault(i) => self.fault(i),
            Action::Resume(a) => self.resume(a),
            Action::Heal(i) => self.heal(i),
            Action::Expiry { node, gen } => {
                if self.expiry_gen.get(&node) == Some(&gen) {
                    self.expire(node);
                }
            }
            Action::Ship { node, inc, key, entry } => {
                if self.procs[node].inc == inc {
                    if let Some(r) = self.replica {
                        self.send(node, r, Payload::Replicate { key, entry });
                    }
                }
            }
            Action::Election => self.election(),
            Action::LeaseCheck { lease, gen } => self.lease_check(lease, gen),
            Action::Commit { inc, client, msg } => {
                let r = self.resource;
                if self.procs[r].down || self.procs[r].inc != inc {
                    return;
                }
                if self.procs[r].paused_until.is_some() {
                    self.procs[r].deferred.push(Action::Commit { inc, client, msg });
                    return;
                }
                self.apply_write(client, msg);
            }
        }
    }

    // ----- the trace -------------------------------------------------------------------

    fn emit(&mut self, actor: ActorId, kind: EventKind, cause: Option<EventId>) -> EventId {
        let id = self.events.len();
        if id >= self.max_events {
            self.overflow = true;
        }
        let text = self.narrate(actor, &kind);
        let changes_resource = matches!(kind, EventKind::Accepted { .. } | EventKind::ReadServed { .. });
        self.events.push(Event { id, at_us: self.now, actor, local_us: self.local(actor), kind, cause, text, moment: None });
        if changes_resource {
            let st = &self.store;
            self.resource_log.push(ResourceState { at_us: self.now, event: id, value: st.value, version: st.version, highest: st.highest });
        }
        id
    }

    // ----- the network -----------------------------------------------------------------

    fn latency(&mut self, from: ActorId, to: ActorId) -> Micros {
        if !self.link_rng.contains_key(&(from, to)) {
            let (fname, tname) = (&self.actors[from].name, &self.actors[to].name);
            let range = self
                .sc
                .network
                .links
                .iter()
                .find(|l| &l.from == fname && &l.to == tname)
                .map(|l| l.latency_ms)
                .unwrap_or(self.sc.network.latency_ms);
            let rng = Rng::stream(self.sc.seed, &format!("link:{fname}->{tname}"));
            self.link_rng.insert((from, to), (range, rng));
        }
        let (range, rng) = self.link_rng.get_mut(&(from, to)).expect("inserted above");
        rng.range_inclusive(range[0] as i64 * MS, range[1] as i64 * MS)
    }

    fn cut(&self, a: ActorId, b: ActorId) -> bool {
        self.partitions.iter().any(|p| p.active && (p.isolate.contains(&a) != p.isolate.contains(&b)))
    }

    fn send(&mut self, from: ActorId, to: ActorId, payload: Payload) {
        let what = payload.describe();
        let msg = self.iv.messages.len();
        let mut lat = self.latency(from, to);
        let (mut delayed, mut dropped) = (false, false);
        let now = self.now;
        if let Some(f) = self.link_faults.iter_mut().find(|f| f.from == from && f.to == to && f.at <= now && f.left > 0) {
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
            let last = self.link_last.entry((from, to)).or_insert(0);
            lat = lat.max(*last - now);
            *last = now + lat;
        }
        let ev = self.events.len();
        self.iv.messages.push(Message {
            from,
            to,
            sent_us: now,
            arrived_us: now + lat,
            fate: MsgFate::InFlight,
            delayed,
            what,
            send_event: ev,
        });
        self.emit(from, EventKind::Send { msg, to }, None);
        if delayed {
            self.events[ev].text.push_str(&format!(" The network holds it: it will arrive in {}.", fmt(lat)));
        }
        self.payloads.push(payload);
        self.dropped.push(dropped);
        self.push(now + lat, Action::Deliver(msg));
    }

    fn lose(&mut self, m: MsgId, why: String) {
        let (from, to) = (self.iv.messages[m].from, self.iv.messages[m].to);
        let cause = self.iv.messages[m].send_event;
        self.iv.messages[m].fate = MsgFate::Lost;
        self.iv.messages[m].arrived_us = self.now;
        self.emit(to, EventKind::Lost { msg: m, from, why }, Some(cause));
    }

    fn deliver(&mut self, m: MsgId) {
        let (from, to) = (self.iv.messages[m].from, self.iv.messages[m].to);
        if self.dropped[m] {
            self.lose(m, "the network dropped it".into());
            return;
        }
        if self.cut(from, to) {
            self.lose(m, "a partition separates them".into());
            return;
        }
        self.iv.messages[m].fate = MsgFate::Delivered;
        self.iv.messages[m].arrived_us = self.now;
        let cause = self.iv.messages[m].send_event;
        self.emit(to, EventKind::Receive { msg: m, from }, Some(cause));
        let payload = self.payloads[m].clone();
        match self.actors[to].role {
            Role::Client => {
                let served = matches!(payload, Payload::ReadReply { .. }).then_some(self.iv.messages[m].sent_us);
                self.client_input(to, Input::Message(payload), served);
            }
            Role::Redis | Role::Replica => self.redis_input(to, from, payload),
            Role::Member => self.member_input(to, from, payload),
            Role::Resource => self.resource_input(from, payload, m),
        }
    }

    // ----- clients -----------------------------------------------------------------------

    fn client_input(&mut self, a: ActorId, input: Input, read_served_at: Option<Micros>) {
        let Some(mut c) = self.clients[a].take() else {
            return;
        };
        let name = self.actors[a].name.clone();
        let cx = Cx {
            local: self.local(a),
            name: &name,
            ttl_ms: self.sc.lock.ttl_ms,
            release: self.sc.lock.release,
            renew: self.sc.lock.renew,
            token: self.sc.token.source,
            incr_on_node: self.sc.token.source == TokenKind::Counter && self.sc.token.store == CounterStore::Redis,
            redlock: (self.sc.lock.kind == LockKind::Redlock).then(|| RedlockCx {
                nodes: self.sc.lock.nodes as usize,
                node_timeout_ms: self.sc.lock.node_timeout_ms,
                parallel: self.sc.lock.parallel,
                drift_factor: self.sc.lock.clock_drift_factor,
                next_grant: self.grants.len(),
                next_token: (self.sc.token.source == TokenKind::Counter).then_some(self.durable_next),
            }),
            consensus: self.sc.lock.kind == LockKind::Consensus,
        };
        let effects = c.handle(input, &cx);
        if let Some(at) = read_served_at {
            c.set_read_time(at);
        }
        self.clients[a] = Some(c);
        for e in effects {
            match e {
                Effect::Send(dest, p) => {
                    let to = match dest {
                        Dest::Lock => self.primary,
                        Dest::Node(i) => self.redlock_nodes.get(i).copied(),
                        Dest::Leader => self.cluster.as_ref().and_then(|c| c.leader.or(c.members.first().copied())),
                        Dest::Resource => Some(self.resource),
                    };
                    if let Some(to) = to {
                        self.send(a, to, p);
                    }
                }
                Effect::Timer(after, kind) => {
                    let inc = self.procs[a].inc;
                    self.push(self.now + after, Action::ClientTimer { actor: a, inc, kind });
                }
                Effect::Event(kind) => self.client_event(a, kind),
            }
        }
    }

    fn client_event(&mut self, a: ActorId, mut kind: EventKind) {
        match &mut kind {
            EventKind::Acquired { token, until_local_us, grant } => {
                let valid_until_us = self.procs[a].clock.when_reads(*until_local_us, self.now).unwrap_or(self.end);
                if self.sc.lock.kind == LockKind::Redlock {
                    // A Redlock client decided it holds the lock: the grant is the client's, numbered
                    // and tokened as the driver told it (`RedlockCx::next_grant`, `next_token`).
                    assert_eq!(*grant, self.grants.len(), "a Redlock grant is numbered as the driver told the client");
                    if let Some(t) = *token {
                        self.durable_next = t + 1;
                        self.tokens.push((self.now, t, a));
                    }
                    let votes = std::mem::take(&mut self.won_votes[a]);
                    self.grants.push(Grant {
                        client: a,
                        node: a,
                        at_us: self.now,
                        token: *token,
                        event: self.events.len(),
                        term_end_us: valid_until_us,
                        released_us: None,
                        votes,
                    });
                }
                self.open_belief[a] = Some(self.iv.beliefs.len());
                self.iv.beliefs.push(Belief {
                    client: a,
                    grant: *grant,
                    token: *token,
                    from_us: self.now,
                    to_us: self.end,
                    valid_until_us,
                });
            }
            EventKind::Tally { votes, ok: true, extend: false, .. } => {
                self.won_votes[a] = votes.iter().map(|&i| self.redlock_nodes[i]).collect();
            }
            EventKind::Renewed { until_local_us } => {
                if let Some(b) = self.open_belief[a] {
                    let until = self.procs[a].clock.when_reads(*until_local_us, self.now).unwrap_or(self.end);
                    self.iv.beliefs[b].valid_until_us = until;
                    let g = self.iv.beliefs[b].grant;
                    if self.grants[g].node == a {
                        self.grants[g].term_end_us = until;
                    }
                }
            }
            EventKind::Releasing => {
                if let Some(b) = self.open_belief[a] {
                    let g = self.iv.beliefs[b].grant;
                    if self.grants[g].node == a {
                        self.grants[g].released_us = Some(self.now);
                        self.grants[g].term_end_us = self.grants[g].term_end_us.min(self.now);
                    }
                }
                self.close_belief(a);
            }
            EventKind::Released { .. } | EventKind::LostLock { .. } | EventKind::Done { .. } => self.close_belief(a),
            _ => {}
        }
        self.emit(a, kind, None);
    }

    fn close_belief(&mut self, a: ActorId) {
        if let Some(b) = self.open_belief[a].take() {
            self.iv.beliefs[b].to_us = self.now;
        }
    }

    // ----- Redis -------------------------------------------------------------------------

    fn redis_input(&mut self, node: ActorId, from: ActorId, payload: Payload) {
        match payload {
            Payload::Redis { req, cmd } => {
                self.expire(node);
                let local = self.local(node);
                let grant = self.grants.len();
                let redlock = self.sc.lock.kind == LockKind::Redlock;
                let durable = (!redlock && self.sc.token.source == TokenKind::Counter && self.sc.token.store == CounterStore::Durable)
                    .then_some(self.durable_next);
                let Some(n) = self.nodes.get_mut(&node) else {
                    return;
                };
                let (reply, change) = n.execute(&cmd, from, local, grant, durable);
                let ttl = ms(self.sc.lock.ttl_ms as i64);
                match change {
                    Change::Set { token } => {
                        if durable.is_some() {
                            self.durable_next += 1;
                        }
                        let ev = self.emit(node, EventKind::KeySet { owner: from, token }, None);
                        if redlock {
                            // A Redlock node's OK is one vote; the client decides whether it holds the lock.
                            if let Some(e) = self.nodes.get_mut(&node).and_then(|n| n.keys.get_mut(LOCK_KEY)) {
                                e.grant = None;
                            }
                        } else {
                            if let Some(t) = token {
                                self.tokens.push((self.now, t, from));
                            }
                            self.grants.push(Grant {
                                client: from,
                                node,
                                at_us: self.now,
                                token,
                                event: ev,
                                term_end_us: self.now + ttl,
                                released_us: None,
                                votes: vec![node],
                            });
                        }
                        self.open_key_span(node, Some(from));
                        self.schedule_expiry(node);
                        self.replicate(node, LOCK_KEY);
                        if matches!(cmd, RedisCmd::Acquire { incr: true, .. }) {
                            self.replicate(node, FENCE_KEY);
                        }
                    }
                    Change::Busy { holder } => {
                        self.emit(node, EventKind::KeyBusy { holder }, None);
                    }
                    Change::Deleted { owner, grant, foreign } => {
                        self.emit(node, EventKind::KeyDeleted { owner, by: from, foreign }, None);
                        if let (false, Some(g)) = (foreign, grant) {
                            self.grants[g].released_us = Some(self.now);
                            self.grants[g].term_end_us = self.grants[g].term_end_us.min(self.now);
                        }
                        self.close_key_span(node, KeyEnd::Deleted);
                        self.replicate(node, LOCK_KEY);
                    }
                    Change::Extended { owner, grant, foreign } => {
                        self.emit(node, EventKind::KeyExtended { owner, by: from, foreign }, None);
                        if let Some(g) = grant {
                            self.grants[g].term_end_us = self.now + ttl;
                        }
                        self.schedule_expiry(node);
                        self.replicate(node, LOCK_KEY);
                    }
                    Change::Unchanged { missing } => {
                        self.emit(node, EventKind::KeyUnchanged { by: from, missing }, None);
                    }
                }
                self.send(node, from, Payload::RedisReply { req, reply });
            }
            Payload::Replicate { key, entry } => {
                let what = Payload::Replicate { key: key.clone(), entry: entry.clone() }.describe();
                let is_lock = key == LOCK_KEY;
                let owner = entry.as_ref().and_then(|e| e.owner);
                let Some(n) = self.nodes.get_mut(&node) else {
                    return;
                };
                match entry {
                    Some(e) => {
                        n.keys.insert(key, e);
                    }
                    None => {
                        n.keys.remove(&key);
                    }
                }
                self.emit(node, EventKind::Replicated { what }, None);
                if is_lock {
                    if owner.is_some() {
                        if !self.open_key.contains_key(&node) {
                            self.open_key_span(node, owner);
                        }
                    } else {
                        self.close_key_span(node, KeyEnd::Deleted);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `node` expires keys itself: a primary does; a replica waits for the primary's DEL.
    fn expires_keys(&self, node: ActorId) -> bool {
        Some(node) != self.replica || self.promoted
    }

    fn expire(&mut self, node: ActorId) {
        if self.procs[node].down || !self.expires_keys(node) {
            return;
        }
        let local = self.local(node);
        let Some(n) = self.nodes.get_mut(&node) else {
            return;
        };
        if let Some(e) = n.expire(local) {
            self.emit(node, EventKind::KeyExpired { owner: e.owner }, None);
            self.close_key_span(node, KeyEnd::Expired);
            self.replicate(node, LOCK_KEY);
        }
    }

    fn schedule_expiry(&mut self, node: ActorId) {
        if !self.expires_keys(node) {
            return;
        }
        let Some(at_local) = self.nodes.get(&node).and_then(|n| n.keys.get(LOCK_KEY)).and_then(|e| e.expires_local) else {
            return;
        };
        let gen = self.expiry_gen.get(&node).copied().unwrap_or(0) + 1;
        self.expiry_gen.insert(node, gen);
        if let Some(t) = self.procs[node].clock.when_reads(at_local, self.now) {
            self.push(t, Action::Expiry { node, gen });
        }
    }

    /// Ships the key's new state to the replica after the replication lag.
    fn replicate(&mut self, node: ActorId, key: &str) {
        let (Some(r), Some(lag)) = (self.replica, self.sc.lock.replica.as_ref().map(|r| r.lag_ms)) else {
            return;
        };
        if node == r || Some(node) != self.primary {
            return;
        }
        let entry = self.nodes.get(&node).and_then(|n| n.keys.get(key)).cloned();
        let inc = self.procs[node].inc;
        self.push(self.now + ms(lag as i64), Action::Ship { node, inc, key: key.into(), entry });
    }

    fn open_key_span(&mut self, node: ActorId, owner: Option<ActorId>) {
        self.close_key_span(node, KeyEnd::Deleted);
        self.open_key.insert(node, self.iv.keys.len());
        self.iv.keys.push(KeySpan { node, owner, from_us: self.now, to_us: self.end, end: KeyEnd::RunEnd });
    }

    fn close_key_span(&mut self, node: ActorId, end: KeyEnd) {
        if let Some(k) = self.open_key.remove(&node) {
            self.iv.keys[k].to_us = self.now;
            self.iv.keys[k].end = end;
        }
    }

    // ----- the resource ------------------------------------------------------------------

    fn resource_input(&mut self, from: ActorId, payload: Payload, m: MsgId) {
        let r = self.resource;
        match payload {
            Payload::Read { req, token, activate } => {
                let reply = match self.store.read(token, activate) {
                    Ok((value, version)) => {
                        self.emit(r, EventKind::ReadServed { client: from, value, version }, None);
                        Payload::ReadReply { req, value, version, refused_by: None }
                    }
                    Err(highest) => {
                        self.emit(r, EventKind::Rejected { client: from, token, highest }, None);
                        Payload::ReadReply { req, value: 0, version: 0, refused_by: Some(highest) }
                    }
                };
                self.send(r, from, reply);
            }
            Payload::Write { req, token, ref request, conditional, read_version, .. } => {
                let reply = |outcome, highest| Payload::WriteReply { req, outcome, highest };
                match self.store.decide(token, request, conditional, read_version) {
                    Decision::Apply => self.apply_write(from, m),
                    Decision::Reject => {
                        let highest = self.store.highest;
                        self.emit(r, EventKind::Rejected { client: from, token, highest }, None);
                        self.send(r, from, reply(WriteOutcome::Rejected, highest));
                    }
                    Decision::Duplicate => {
                        self.emit(r, EventKind::Duplicate { client: from, request: request.clone() }, None);
                        self.send(r, from, reply(WriteOutcome::Duplicate, self.store.highest));
                    }
                    Decision::Conflict { actual } => {
                        let expected = read_version.unwrap_or(0);
                        self.emit(r, EventKind::Conflict { client: from, expected, actual }, None);
                        self.send(r, from, reply(WriteOutcome::Conflict, self.store.highest));
                    }
                    Decision::ApplyLater => {
                        self.emit(r, EventKind::Checked { client: from, token }, None);
                        let inc = self.procs[r].inc;
                        let gap = ms(self.sc.resource.check_write_gap_ms as i64);
                        self.push(self.now + gap, Action::Commit { inc, client: from, msg: m });
                    }
                }
            }
            _ => {}
        }
    }

    fn apply_write(&mut self, client: ActorId, m: MsgId) {
        let Payload::Write { req, token, grant, op, value, request, read_version, read_at_us, .. } = self.payloads[m].clone() else {
            return;
        };
        let r = self.resource;
        let (version_before, value_after) = self.store.apply(token, op, value, &request);
        let event = self.emit(r, EventKind::Accepted { client, token, value: value_after }, None);
        self.applied.push(Applied {
            at_us: self.now,
            client,
            grant,
            token,
            add: op == WriteOp::Add,
            request,
            read_version: if op == WriteOp::Set { read_version } else { None },
            read_at_us,
            version_before,
            value_after,
            event,
            msg: m,
        });
        let highest = self.store.highest;
        self.send(r, client, Payload::WriteReply { req, outcome: WriteOutcome::Accepted, highest });
    }

    // ----- faults ------------------------------------------------------------------------

    fn fault(&mut self, i: usize) {
        let f = self.sc.faults[i].clone();
        let id = |w: &World, n: &str| w.actors.iter().position(|a| a.name == n).expect("validated actor");
        match f {
            Fault::Pause { actor, duration_ms, .. } => {
                let a = id(self, &actor);
                if self.procs[a].down {
                    return;
                }
                let until = self.now + ms(duration_ms as i64);
                let until = self.procs[a].paused_until.map_or(until, |u| u.max(until));
                self.procs[a].paused_until = Some(until);
                self.iv.pauses.push(Span { actor: a, from_us: self.now, to_us: until });
                self.emit(a, EventKind::Paused { until_us: until }, None);
                self.push(until, Action::Resume(a));
            }
            Fault::Crash { actor, .. } => {
                let a = id(self, &actor);
                self.crash(a);
            }
            Fault::Restart { actor, .. } => {
                let a = id(self, &actor);
                self.restart(a);
            }
            Fault::ClockJump { actor, by_ms, .. } => {
                let a = id(self, &actor);
                self.iv.jumps.push(Jump { actor: a, at_us: self.now, by_us: ms(by_ms) });
                self.emit(a, EventKind::ClockJumped { by_us: ms(by_ms) }, None);
            }
            Fault::Drift { actor, ppm, .. } => {
                let a = id(self, &actor);
                self.emit(a, EventKind::DriftChanged { ppm }, None);
            }
            Fault::Partition { isolate, duration_ms, .. } => {
                let ids: Vec<ActorId> = isolate.iter().map(|n| id(self, n)).collect();
                let until = self.now + ms(duration_ms as i64);
                for &a in &ids {
                    self.iv.partitions.push(Span { actor: a, from_us: self.now, to_us: until.min(self.end) });
                }
                self.emit(ids[0], EventKind::Isolated { until_us: until }, None);
                self.partitions.push(Partition { isolate: ids, active: true });
                self.push(until, Action::Heal(self.partitions.len() - 1));
                self.member_fault();
            }
            Fault::Failover { .. } => {
                let (Some(old), Some(r)) = (self.primary, self.replica) else {
                    return;
                };
                if self.promoted {
                    return;
                }
                if !self.procs[old].down {
                    self.crash(old);
                }
                self.primary = Some(r);
                self.promoted = true;
                self.emit(r, EventKind::Promoted, None);
                self.expire(r);
                self.schedule_expiry(r);
            }
            Fault::Delay { .. } | Fault::Drop { .. } => {}
        }
    }

    fn crash(&mut self, a: ActorId) {
        if self.procs[a].down {
            return;
        }
        let p = &mut self.procs[a];
        p.down = true;
        p.inc += 1;
        p.deferred.clear();
        if let Some(until) = p.paused_until.take() {
            // A pause ends with the crash.
            if let Some(s) = self.iv.pauses.iter_mut().rev().find(|s| s.actor == a && s.to_us == until) {
                s.to_us = self.now;
            }
        }
        self.emit(a, EventKind::Crashed, None);
        self.open_down.insert(a, self.iv.downs.len());
        self.iv.downs.push(Span { actor: a, from_us: self.now, to_us: self.end });
        match self.actors[a].role {
            Role::Client => {
                self.close_belief(a);
                self.clients[a] = None;
            }
            Role::Redis | Role::Replica => {
                if self.sc.lock.persistence == Persistence::None {
                    if let Some(n) = self.nodes.get_mut(&a) {
                        n.keys.clear();
                    }
                    self.close_key_span(a, KeyEnd::Lost);
                }
            }
            Role::Member => self.member_fault(),
            Role::Resource => {}
        }
    }

    fn restart(&mut self, a: ActorId) {
        if !self.procs[a].down {
            return;
        }
        self.procs[a].down = false;
        if let Some(d) = self.open_down.remove(&a) {
            self.iv.downs[d].to_us = self.now;
        }
        let kept = self.sc.lock.persistence == Persistence::Always;
        self.emit(a, EventKind::Restarted { kept_data: kept }, None);
        match self.actors[a].role {
            Role::Client => {
                let inc = self.procs[a].inc;
                let steps = self.sc.clients[a].steps.clone();
                let rng = Rng::stream(self.sc.seed, &format!("client:{}#{inc}", self.actors[a].name));
                self.clients[a] = Some(Client::new(steps, rng));
                self.push(self.now, Action::Start(a));
            }
            Role::Redis | Role::Replica => {
                self.expire(a);
                self.schedule_expiry(a);
            }
            Role::Member => self.member_fault(),
            Role::Resource => {}
        }
    }

    fn resume(&mut self, a: ActorId) {
        match self.procs[a].paused_until {
            Some(u) if u <= self.now => {}
            _ => return,
        }
        self.procs[a].paused_until = None;
        let deferred = std::mem::take(&mut self.procs[a].deferred);
        self.emit(a, EventKind::Resumed { buffered: deferred.len() }, None);
        for action in deferred {
            self.push(self.now, action);
        }
    }

    fn heal(&mut self, i: usize) {
        self.partitions[i].active = false;
        let a = self.partitions[i].isolate[0];
        self.emit(a, EventKind::Healed, None);
        self.member_fault();
    }

    // ----- the end -----------------------------------------------------------------------

    fn finish(mut self) -> Run {
        self.now = self.end;
        for k in self.open_key.values() {
            self.iv.keys[*k].to_us = self.end;
        }
        for m in &mut self.iv.messages {
            if m.fate == MsgFate::InFlight {
                m.arrived_us = self.end;
            }
        }
        for s in &mut self.iv.pauses {
            s.to_us = s.to_us.min(self.end);
        }
        let mut run = Run {
            scenario: self.sc.id.clone(),
            seed: self.sc.seed,
            actors: self.actors,
            events: self.events,
            intervals: self.iv,
            grants: self.grants,
            applied: self.applied,
            tokens: self.tokens,
            final_value: self.store.value,
            resource_log: self.resource_log,
            clocks: self.procs.into_iter().map(|p| p.clock).collect(),
            end_us: self.end,
            verdict: Default::default(),
        };
        attach_moments(&mut run, &self.sc.moments);
        run.verdict = crate::checker::check(&run, self.sc);
        run
    }

    // ----- narration ---------------------------------------------------------------------

    fn narrate(&self, a: ActorId, kind: &EventKind) -> String {
        use EventKind::*;
        let me = self.name(a);
        let n = |x: ActorId| self.name(x).to_string();
        let opt = |x: &Option<ActorId>| x.map(|x| self.name(x).to_string()).unwrap_or_else(|| "someone".into());
        let ttl = fmt(ms(self.sc.lock.ttl_ms as i64));
        if let Some(text) = consensus::narrate(self, me, kind) {
            return text;
        }
        match kind {
            Start => format!("{me} starts."),
            Send { msg, to } => format!("{me} sends `{}` to {}.", self.iv.messages[*msg].what, n(*to)),
            Receive { msg, from } => format!("{me} receives `{}` from {}.", self.iv.messages[*msg].what, n(*from)),
            Lost { msg, from, why } => format!("`{}` from {} to {me} is lost: {why}.", self.iv.messages[*msg].what, n(*from)),
            Acquired { token, until_local_us, .. } => {
                let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
                format!("{me} holds the lock{t}; by its own clock the lease runs until {}.", fmt(*until_local_us))
            }
            Refused { attempt } => format!("{me}'s attempt {attempt} fails: the lock is held."),
            Tally { votes, nodes, elapsed_us, drift_us, validity_us, ok, extend } => {
                let names: Vec<String> = votes.iter().map(|&i| crate::scenario::node_name(i)).collect();
                let who = if names.is_empty() { String::new() } else { format!(" ({})", names.join(", ")) };
                let ms = |us: Micros| {
                    let v = us as f64 / 1000.0;
                    if us % 1000 == 0 {
                        format!("{}", us / 1000)
                    } else {
                        format!("{v:.1}")
                    }
                };
                let sum = format!("validity {} − {} − {} = {} ms", self.sc.lock.ttl_ms, ms(*elapsed_us), ms(*drift_us), ms(*validity_us));
                let what = if *extend { "extension" } else { "lock" };
                let quorum = nodes / 2 + 1;
                let verdict = match (ok, votes.len() >= quorum) {
                    (true, _) => format!("a majority in time, so the {what} holds until its own clock passes T1 + {} ms", ms(*validity_us)),
                    (false, true) => "a majority, but the time is used up: the lock is not valid (the post-acquisition check)".to_string(),
                    (false, false) => format!("no majority (it needs {quorum})"),
                };
                if votes.len() < quorum {
                    let then = if *extend { "" } else { "; it unlocks every node and retries after a random delay" };
                    format!("{me}'s {what} round: {} of {nodes}{who} in {} ms: {verdict}{then}.", votes.len(), ms(*elapsed_us))
                } else {
                    format!("{me}'s {what} round: {} of {nodes}{who} in {} ms; {sum}: {verdict}.", votes.len(), ms(*elapsed_us))
                }
            }
            GaveUp => format!("{me} gives up on the lock."),
            Renewed { until_local_us } => format!("{me} renewed its lease: by its own clock it now runs until {}.", fmt(*until_local_us)),
            LostLock { why } => format!("{me} learns it no longer holds the lock: {why}."),
            Releasing => format!("{me} is done with the lock and releases it."),
            Released { removed: true } => format!("{me} released the lock."),
            Released { removed: false } => format!("{me}'s release removed nothing: its key was already gone or someone else's."),
            DeadlineOk { left_us } => format!("{me} checks its deadline: {} left on its own clock, so it goes on.", fmt(*left_us)),
            Work { ms } => format!("{me} works for {}.", fmt(*ms as i64 * MS)),
            ReadDone { value, version } => format!("{me} has read {value} (version {version})."),
            WriteDone { outcome } => {
                let o = match outcome {
                    WriteOutcome::Accepted => "accepted",
                    WriteOutcome::Rejected => "rejected",
                    WriteOutcome::Duplicate => "already done (a duplicate)",
                    WriteOutcome::Conflict => "refused: the version changed since its read",
                };
                format!("{me} learns its write was {o}.")
            }
            Timeout { what } => format!("{me} timed out waiting for {what}."),
            Done { completed: true } => format!("{me} has finished its work."),
            Done { completed: false } => format!("{me} stops without finishing its work."),
            KeySet { owner, token } => {
                let t = token.map(|t| format!(" and issues token {t}")).unwrap_or_default();
                format!("{me} sets the lock key for {} to expire in {ttl} by {me}'s own clock{t}.", n(*owner))
            }
            KeyBusy { holder } => format!("{me} refuses: the key is held by {}.", opt(holder)),
            KeyExpired { owner } => format!("{}'s key expires on {me}: {me}'s clock has passed its expiry time.", opt(owner)),
            KeyDeleted { owner, by, foreign: true } => {
                format!("{}'s DEL deletes {}'s key on {me}: {} still believes it holds the lock.", n(*by), opt(owner), opt(owner))
            }
            KeyDeleted { by, .. } => format!("{me} deletes {}'s key.", n(*by)),
            KeyExtended { owner, by, foreign: true } => {
                format!("{}'s PEXPIRE extends {}'s key on {me}, and {} is told its renewal succeeded.", n(*by), opt(owner), n(*by))
            }
            KeyExtended { by, .. } => format!("{me} extends {}'s key to expire in {ttl}.", n(*by)),
            KeyUnchanged { by, missing: true } => format!("{me} finds no key: {}'s script changes nothing (reply -1).", n(*by)),
            KeyUnchanged { by, missing: false } => {
                format!("{me} finds another owner's value: {}'s script changes nothing (reply 0).", n(*by))
            }
            Replicated { what } => format!("{me} applies `{what}` from the primary's replication stream."),
            ReadServed { client, value, version } => format!("{me} serves {}'s read: {value} (version {version}).", n(*client)),
            Accepted { client, token, value } => {
                let t = token.map(|t| format!(" with token {t}")).unwrap_or_default();
                let ignores = if token.is_some() && !self.store.fences() { " (it does not check tokens)" } else { "" };
                format!("{me} accepts {}'s write{t}{ignores}: the value is now {value}.", n(*client))
            }
            Rejected { client, token, highest } => format!(
                "{me} rejects {}'s token {}: it has already accepted {highest}.",
                n(*client),
                token.map(|t| t.to_string()).unwrap_or_else(|| "(none)".into())
            ),
            Duplicate { client, request } => format!("{me} has already applied request {request}: {}'s copy changes nothing.", n(*client)),
            Conflict { client, expected, actual } => {
                format!(
                    "{me} refuses {}'s conditional write: it expected version {expected}, the value is at version {actual}.",
                    n(*client)
                )
            }
            Checked { client, token } => format!(
                "{me} checks {}'s token {}: it is not below the highest seen, so the write will follow in {}.",
                n(*client),
                token.map(|t| t.to_string()).unwrap_or_else(|| "(none)".into()),
                fmt(ms(self.sc.resource.check_write_gap_ms as i64))
            ),
            Paused { until_us } => {
                format!("{me} is paused until {}: it keeps its state, receives nothing, and its clock keeps running.", fmt(*until_us))
            }
            Resumed { buffered } => format!(
                "{me} resumes, believing what it believed before the pause; {buffered} buffered message{} and timer{} are handled now.",
                if *buffered == 1 { "" } else { "s" },
                if *buffered == 1 { "" } else { "s" }
            ),
            Crashed => format!("{me} crashes."),
            Restarted { kept_data } => match self.actors[a].role {
                Role::Redis | Role::Replica if *kept_data => format!("{me} restarts and reloads its keys from the append-only file."),
                Role::Redis | Role::Replica => format!("{me} restarts empty: without persistence its keys are gone."),
                _ => format!("{me} restarts."),
            },
            ClockJumped { by_us } => {
                let dir = if *by_us >= 0 { "forward" } else { "back" };
                format!("{me}'s clock jumps {dir} by {}.", fmt(by_us.abs()))
            }
            DriftChanged { ppm } => format!("{me}'s clock now drifts by {ppm} ppm."),
            Isolated { until_us } => format!("A partition cuts {me} off until {}.", fmt(*until_us)),
            Healed => "The partition heals.".to_string(),
            Promoted => format!("{me} is promoted to primary; clients now send their commands to it."),
            Queued { .. } | Committed { .. } | LockGranted { .. } | LeaseExpired { .. } | LeaderElected { .. } | NoQuorum => {
                unreachable!("narrated by consensus::narrate")
            }
        }
    }
}

/// Attaches each moment's narration to the event it names: `"<tag> [actor] [#n]"`.
fn attach_moments(run: &mut Run, moments: &[crate::scenario::Moment]) {
    for m in moments {
        if let Some(id) = run.find(&m.on) {
            let ev = &mut run.events[id];
            ev.moment = Some(match ev.moment.take() {
                Some(prev) => format!("{prev} {}", m.text),
                None => m.text.clone(),
            });
        }
    }
}
