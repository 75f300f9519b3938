//! The API server that keeps the `Lease`: reads, creates, and updates that name the
//! `resourceVersion` they read (optimistic concurrency: a stale one is refused with 409
//! Conflict). Each successful write takes the next `resourceVersion`. A change of holder is a
//! new grant, numbered by the driver; a renewal extends its term by the lease duration.

use crate::actor::{next_grant, Effect, Env, Out, Record as Fact};
use crate::msg::{Dest, Payload};
use crate::service::LockServer;
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, Grant, KeyEnd};
use crate::wire::kubernetes::{Change, Event, Msg, Record};

/// What the API server is told when the service is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// LeaseDuration: how long a grant's term runs after each write, for the record.
    pub lease_ms: Millis,
    /// Whether `leaseTransitions` is the token the clients present.
    pub tokens: bool,
}

/// The Lease as stored.
#[derive(Clone, Debug)]
struct Stored {
    record: Record,
    rv: u64,
    /// The holder's lane, and the grant its holding stands for.
    holder: Option<(ActorId, usize)>,
}

/// The API server has no timers of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {}

/// The API server and its one `Lease`.
#[derive(Clone, Debug)]
pub struct ApiServer {
    me: ActorId,
    cfg: Settings,
    lease: Option<Stored>,
    /// The last `resourceVersion` given out.
    rv: u64,
}

impl ApiServer {
    pub fn new(me: ActorId, cfg: Settings) -> ApiServer {
        ApiServer { me, cfg, lease: None, rv: 0 }
    }

    /// Stores `record`, written by `client`; the grant the writer now holds, if any.
    fn write(&mut self, client: ActorId, record: Record, env: &dyn Env, out: &mut Out<Timer>) -> Option<usize> {
        self.rv += 1;
        let before = self.lease.take();
        let held = before.as_ref().and_then(|s| s.holder);
        let releasing = record.holder.is_empty();
        let change = match (&before, held) {
            (None, _) => Change::Created,
            _ if releasing => Change::Released,
            (_, Some((h, _))) if h == client => Change::Renewed,
            _ => Change::TookOver,
        };
        out.push(Effect::Event {
            actor: self.me,
            kind: Event::Written { client, change, rv: self.rv, transitions: record.transitions }.into(),
        });
        let term_end = |env: &dyn Env| (env.now() + self.cfg.lease_ms.to_micros()).min(env.end());
        let holder = match change {
            Change::Renewed => {
                let (h, g) = held.expect("a renewal has a holder");
                out.push(Effect::Record(Fact::GrantTerm { grant: g, until_us: term_end(env) }));
                Some((h, g))
            }
            Change::Released => {
                if let Some((_, g)) = held {
                    out.push(Effect::Record(Fact::GrantReleased { grant: g }));
                    out.push(Effect::Record(Fact::KeyClose { handle: g as u64, end: KeyEnd::Deleted }));
                }
                None
            }
            Change::Created | Change::TookOver => {
                if let Some((_, g)) = held {
                    out.push(Effect::Record(Fact::GrantEnded { grant: g }));
                    out.push(Effect::Record(Fact::KeyClose { handle: g as u64, end: KeyEnd::Expired }));
                }
                Some((client, self.grant(client, &record, term_end(env), env, out)))
            }
        };
        self.lease = Some(Stored { record, rv: self.rv, holder });
        holder.map(|(_, g)| g)
    }

    /// Records a new grant to `client`, whose term runs until `until_us`.
    fn grant(&self, client: ActorId, record: &Record, until_us: Micros, env: &dyn Env, out: &mut Out<Timer>) -> usize {
        let token = self.cfg.tokens.then_some(record.transitions);
        if let Some(t) = token {
            out.push(Effect::Record(Fact::Token { client, token: t, durable: false }));
        }
        let g = next_grant(env, out);
        out.push(Effect::Record(Fact::KeyOpen { handle: g as u64, node: self.me, owner: Some(client) }));
        let grant = Grant {
            client,
            node: self.me,
            at_us: env.now(),
            token,
            event: 0,
            term_end_us: until_us,
            released_us: None,
            votes: vec![self.me],
            extended: Vec::new(),
        };
        out.push(Effect::Record(Fact::Grant(Box::new(grant))));
        g
    }
}

/// The Lease is kept in etcd: a crash or pause of the API server loses nothing (no `on_fault`),
/// and the API server has no timers.
impl LockServer for ApiServer {
    type Timer = Timer;

    /// Where a client's request goes.
    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Lock => Some(self.me),
            Dest::Leader | Dest::Node(_) | Dest::Resource => None,
        }
    }

    fn on_message(&mut self, _at: ActorId, from: ActorId, payload: Payload, env: &dyn Env, out: &mut Out<Timer>) {
        let Payload::Kubernetes(msg) = payload else { return };
        let me = self.me;
        let reply = |msg| Effect::Send { from: me, to: from, payload: Payload::Kubernetes(Box::new(msg)) };
        match *msg {
            Msg::Get { req } => {
                let lease = self.lease.as_ref().map(|s| (s.record.clone(), s.rv));
                out.push(reply(Msg::Got { req, lease }));
            }
            Msg::Create { req, record } if self.lease.is_none() => {
                let grant = self.write(from, record, env, out);
                out.push(reply(Msg::Done { req, rv: self.rv, grant }));
            }
            Msg::Update { req, rv, record } if self.lease.as_ref().is_some_and(|s| s.rv == rv) => {
                let grant = self.write(from, record, env, out);
                out.push(reply(Msg::Done { req, rv: self.rv, grant }));
            }
            Msg::Create { req, .. } | Msg::Update { req, .. } => {
                let sent = match *msg {
                    Msg::Update { rv, .. } => Some(rv),
                    _ => None,
                };
                let rv = self.lease.as_ref().map(|s| s.rv);
                out.push(Effect::Event { actor: me, kind: Event::Conflict { client: from, sent, rv }.into() });
                out.push(reply(Msg::Conflict { req }));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
