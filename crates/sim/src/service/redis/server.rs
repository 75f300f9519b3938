//! Redis servers as actors: a primary with an optional asynchronously replicated replica
//! (promoted by a `failover` fault), or Redlock's independent masters. Each node runs the
//! [`Node`] model; this module adds what happens around it: active expiry by the node's own
//! clock, replication after the lag, crashes that lose keys without persistence (SEMANTICS §1,
//! §3).

use crate::flat::{Map, Set};

use super::{Change, Entry, Event, Node, Op, RedisCmd, RedisReply, FENCE_KEY, LOCK_KEY};
use crate::actor::{Effect, Env, Gate, Out, Record, ServerFault};
use crate::msg::{Dest, Payload};
use crate::service::LockServer;
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind, Grant, KeyEnd};

/// A Redis server's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The lock key's expiry time on the node's clock has come (if `gen` is still current).
    Expiry { gen: u64 },
    /// Ship the key's state, as it was, to the replica.
    /// Boxed: rare, and every queued item is as large as the largest.
    Ship(Box<(&'static str, Option<Entry>)>),
}

/// The Redis nodes of a run and how they relate.
#[derive(Clone, Debug)]
pub struct Servers {
    nodes: Map<ActorId, Node>,
    /// The node clients send to (Redis) and, for Redlock, the nodes by index.
    primary: Option<ActorId>,
    replica: Option<ActorId>,
    pub(crate) redlock_nodes: Vec<ActorId>,
    promoted: bool,
    ttl: Micros,
    /// Whether a crashed node comes back with its keys (`appendfsync always`).
    keeps_data: bool,
    lag: Option<Micros>,
    expiry_gen: Map<ActorId, u64>,
    /// Nodes whose lock key is drawn on the timeline now.
    open_keys: Set<ActorId>,
    /// Failovers are Redis Sentinel's (`lock.sentinel`).
    sentinel: bool,
    /// With Sentinel, the old primary after a failover, until it is demoted: still a primary
    /// for the clients that can reach it and not the new one.
    stale: Option<ActorId>,
    /// The old primary once Sentinel has made it a replica of the new one.
    demoted: Option<ActorId>,
    /// A replica whose primary shipped it a write while a partition separated them: it
    /// catches up once they can reach each other again (`resync`).
    behind: Option<ActorId>,
}

type Fx = Out<Timer>;

impl Servers {
    /// A primary (with the fencing counter already running at `counter_start`, when the counter
    /// lives on Redis) and an optional replica.
    pub fn primary(
        primary: ActorId,
        replica: Option<(ActorId, Millis)>,
        counter_start: Option<u64>,
        ttl_ms: Millis,
        keeps_data: bool,
    ) -> Servers {
        let mut node = Node::default();
        if let Some(start) = counter_start {
            // The counter has been running before the scenario starts.
            node.keys.insert(FENCE_KEY, Entry { value: start - 1, expires_local: None, owner: None, grant: None });
        }
        let mut nodes = Map::new();
        if let Some((r, _)) = replica {
            nodes.insert(r, node.clone());
        }
        nodes.insert(primary, node);
        Servers {
            nodes,
            primary: Some(primary),
            replica: replica.map(|r| r.0),
            redlock_nodes: Vec::new(),
            promoted: false,
            ttl: ttl_ms.to_micros(),
            keeps_data,
            lag: replica.map(|r| r.1.to_micros()),
            expiry_gen: Map::new(),
            open_keys: Set::new(),
            sentinel: false,
            stale: None,
            demoted: None,
            behind: None,
        }
    }

    /// Redlock's independent masters.
    pub fn independent(ids: Vec<ActorId>, ttl_ms: Millis, keeps_data: bool) -> Servers {
        Servers {
            nodes: ids.iter().map(|&i| (i, Node::default())).collect(),
            primary: None,
            replica: None,
            redlock_nodes: ids,
            promoted: false,
            ttl: ttl_ms.to_micros(),
            keeps_data,
            lag: None,
            expiry_gen: Map::new(),
            open_keys: Set::new(),
            sentinel: false,
            stale: None,
            demoted: None,
            behind: None,
        }
    }

    /// The same servers, with failovers by Redis Sentinel when `sentinel` (SEMANTICS §1.5).
    pub fn with_sentinel(self, sentinel: bool) -> Servers {
        Servers { sentinel, ..self }
    }

    /// The node Redis clients send to now.
    pub fn primary_now(&self) -> Option<ActorId> {
        self.primary
    }

    /// The node client `from` sends to now: the primary, or after a Sentinel failover the old
    /// primary, for a client that can reach it and not the new one (`cut`: whether two actors
    /// are partitioned). Jepsen's Redis analysis (2013) and the Sentinel docs' Example 2: the
    /// clients on the old primary's side of a partition go on writing to it.
    pub fn primary_for(&self, from: ActorId, cut: &dyn Fn(ActorId, ActorId) -> bool) -> Option<ActorId> {
        match (self.stale, self.primary) {
            (Some(old), Some(new)) if cut(from, new) && !cut(from, old) => Some(old),
            _ => self.primary,
        }
    }

    /// A node's keys (for tests and the inspector of a run's state).
    pub fn node(&self, id: ActorId) -> Option<&Node> {
        self.nodes.get(&id)
    }

    fn redlock(&self) -> bool {
        !self.redlock_nodes.is_empty()
    }

    fn command(&mut self, node: ActorId, from: ActorId, req: u64, cmd: RedisCmd, env: &dyn Env, out: &mut Fx) {
        let local = env.local(node);
        if self.is_replica(node) && self.nodes.get(&node).is_some_and(|n| n.refuses_as_replica(&cmd, local)) {
            // A replica refuses writes: a command sent to the primary that Sentinel demoted
            // while it was on its way.
            let kind = Event::ReadOnly { client: from, primary: self.primary, op: Op::of(&cmd) }.into();
            out.push(Effect::Event { actor: node, kind });
            out.push(Effect::Send { from: node, to: from, payload: Payload::RedisReply { req, reply: RedisReply::ReadOnly } });
            return;
        }
        self.expire(node, env, out);
        let grant = env.next_grant();
        let redlock = self.redlock();
        let durable = if redlock { None } else { env.durable_token() };
        let ttl = self.ttl;
        let Some(n) = self.nodes.get_mut(&node) else { return };
        let (reply, change) = n.execute(&cmd, from, local, grant, durable);
        let event = |kind| Effect::Event { actor: node, kind };
        match change {
            Change::Set { token } => {
                out.push(event(EventKind::KeySet { owner: from, token }));
                if redlock {
                    // A Redlock node's OK is one vote; the client decides whether it holds the lock.
                    if let Some(e) = n.keys.get_mut(LOCK_KEY) {
                        e.grant = None;
                    }
                } else {
                    if let Some(t) = token {
                        out.push(Effect::Record(Record::Token { client: from, token: t, durable: durable.is_some() }));
                    }
                    let now = env.now();
                    out.push(Effect::Record(Record::Grant(Box::new(Grant {
                        client: from,
                        node,
                        at_us: now,
                        token,
                        event: 0,
                        term_end_us: now + ttl,
                        released_us: None,
                        votes: vec![node],
                        extended: Vec::new(),
                    }))));
                }
                self.open_key(node, Some(from), out);
                self.schedule_expiry(node, env, out);
                self.replicate(node, LOCK_KEY, env, out);
                if matches!(cmd, RedisCmd::Acquire { incr: true, .. }) {
                    self.replicate(node, FENCE_KEY, env, out);
                }
            }
            Change::Busy { holder } => out.push(event(EventKind::KeyBusy { holder })),
            Change::Deleted { owner, grant, foreign } => {
                out.push(event(EventKind::KeyDeleted { owner, by: from, foreign }));
                if let (false, Some(g)) = (foreign, grant) {
                    out.push(Effect::Record(Record::GrantReleased { grant: g }));
                }
                self.close_key(node, KeyEnd::Deleted, out);
                self.replicate(node, LOCK_KEY, env, out);
            }
            Change::Extended { owner, grant, foreign } => {
                out.push(event(EventKind::KeyExtended { owner, by: from, foreign }));
                if let Some(g) = grant {
                    out.push(Effect::Record(Record::GrantTerm { grant: g, until_us: env.now() + ttl }));
                }
                self.schedule_expiry(node, env, out);
                self.replicate(node, LOCK_KEY, env, out);
            }
            Change::Unchanged { missing } => out.push(event(EventKind::KeyUnchanged { by: from, missing })),
        }
        out.push(Effect::Send { from: node, to: from, payload: Payload::RedisReply { req, reply } });
    }

    /// Whether `node` is a replica: the replica before a failover, or the old primary once
    /// Sentinel has demoted it.
    fn is_replica(&self, node: ActorId) -> bool {
        (Some(node) == self.replica && !self.promoted) || Some(node) == self.demoted
    }

    /// Whether `node` expires keys itself: a primary does; a replica waits for the primary's DEL.
    fn expires_keys(&self, node: ActorId) -> bool {
        !self.is_replica(node)
    }

    fn expire(&mut self, node: ActorId, env: &dyn Env, out: &mut Fx) {
        if env.is_down(node) || !self.expires_keys(node) {
            return;
        }
        let local = env.local(node);
        let Some(n) = self.nodes.get_mut(&node) else { return };
        if let Some(e) = n.expire(local) {
            out.push(Effect::Event { actor: node, kind: EventKind::KeyExpired { owner: e.owner } });
            self.close_key(node, KeyEnd::Expired, out);
            self.replicate(node, LOCK_KEY, env, out);
        }
    }

    fn schedule_expiry(&mut self, node: ActorId, env: &dyn Env, out: &mut Fx) {
        if !self.expires_keys(node) {
            return;
        }
        let Some(at_local) = self.nodes.get(&node).and_then(|n| n.keys.get(LOCK_KEY)).and_then(|e| e.expires_local) else {
            return;
        };
        let gen = self.expiry_gen.get(&node).copied().unwrap_or(0) + 1;
        self.expiry_gen.insert(node, gen);
        // Its own work (the cron's active expiry, a lookup's passive one): a paused process
        // does neither, so a key due during a pause is seen expired when it runs again
        // (SEMANTICS §1.4); a crash loses the timer, and a restart schedules it again.
        if let Some(at) = env.when_reads(node, at_local) {
            out.push(Effect::Timer { actor: node, at, timer: Timer::Expiry { gen }, gate: Gate::Process });
        }
    }

    fn open_key(&mut self, node: ActorId, owner: Option<ActorId>, out: &mut Fx) {
        self.close_key(node, KeyEnd::Deleted, out);
        self.open_keys.insert(node);
        out.push(Effect::Record(Record::KeyOpen { handle: node as u64, node, owner }));
    }

    fn close_key(&mut self, node: ActorId, end: KeyEnd, out: &mut Fx) {
        if self.open_keys.remove(&node) {
            out.push(Effect::Record(Record::KeyClose { handle: node as u64, end }));
        }
    }
}

/// The Redis servers, whether a primary and its replica or Redlock's independent masters.
impl LockServer for Servers {
    type Timer = Timer;

    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Lock => self.primary_now(),
            Dest::Node(i) => self.redlock_nodes.get(i).copied(),
            Dest::Leader | Dest::Resource => None,
        }
    }

    fn route_from(&self, dest: Dest, from: ActorId, cut: &dyn Fn(ActorId, ActorId) -> bool) -> Option<ActorId> {
        match dest {
            Dest::Lock => self.primary_for(from, cut),
            _ => self.route(dest),
        }
    }

    /// A node handles a message.
    fn on_message(&mut self, node: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Fx) {
        match payload {
            Payload::Redis { req, cmd } => self.command(node, from, req, cmd, env, out),
            Payload::Replicate { key, entry } => self.apply_replicated(node, key, entry.map(|e| *e), out),
            _ => {}
        }
    }

    fn on_timer(&mut self, node: ActorId, timer: Timer, env: &dyn Env, out: &mut Fx) {
        match timer {
            Timer::Expiry { gen } => {
                if self.expiry_gen.get(&node) == Some(&gen) {
                    self.expire(node, env, out);
                }
            }
            Timer::Ship(ship) => {
                let (key, entry) = *ship;
                if let Some(to) = self.ship_to(node) {
                    if env.cut(node, to) {
                        self.behind = Some(to);
                    }
                    out.push(Effect::Send { from: node, to, payload: Payload::Replicate { key, entry: entry.map(Box::new) } });
                }
            }
        }
    }

    fn on_fault(&mut self, fault: ServerFault, env: &dyn Env, out: &mut Fx) {
        match fault {
            ServerFault::Crashed(node) => {
                if !self.keeps_data {
                    if let Some(n) = self.nodes.get_mut(&node) {
                        n.keys.clear();
                    }
                    self.close_key(node, KeyEnd::Lost, out);
                }
            }
            ServerFault::Restarted(node) => {
                self.expire(node, env, out);
                self.schedule_expiry(node, env, out);
                self.demote(false, env, out);
            }
            // A paused node's expiry timers wait for it (`Gate::Process`); nothing else changes,
            // but Sentinel may now reach an old primary it has to demote.
            ServerFault::Network | ServerFault::Resumed(_) => {
                self.demote(false, env, out);
                self.stream_broken(env);
                self.resync(env, out);
            }
            ServerFault::Paused(_) => {}
            ServerFault::Failover => self.failover(env, out),
        }
    }
}

mod replication;
mod sentinel;

#[cfg(test)]
mod tests;
