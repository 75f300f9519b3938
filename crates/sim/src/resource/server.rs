//! The resource as an actor: reads and writes in, the [`Store`]'s decisions out as effects (the
//! event, the reply, the record of an applied write). Check-then-write commits after the gap,
//! on a timer of its own process: a pause delays it, a crash loses it.

use super::{Decision, Store};
use crate::actor::{Effect, Env, Gate, Out, Record};
use crate::msg::Payload;
use crate::scenario::WriteOp;
use crate::time::Micros;
use crate::trace::{ActorId, Applied, EventKind, MsgId, WriteOutcome};

/// The resource's timer: a checked write commits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commit {
    pub client: ActorId,
    pub msg: MsgId,
    pub write: Payload,
}

/// The protected resource.
#[derive(Clone, Debug)]
pub struct Server {
    pub id: ActorId,
    pub store: Store,
    /// Check-then-write: how long after its check a write is applied.
    pub gap: Micros,
}

type Fx = Out<Commit>;

impl Server {
    /// A read or a write arrives (message `msg` from `from`).
    pub fn on_message(&mut self, from: ActorId, payload: Payload, msg: MsgId, env: &dyn Env, out: &mut Fx) {
        let r = self.id;
        let event = |kind| Effect::Event { actor: r, kind };
        let reply = |payload| Effect::Send { from: r, to: from, payload };
        match payload {
            Payload::Read { req, token, activate } => match self.store.read(token, activate) {
                Ok((value, version)) => {
                    out.push(event(EventKind::ReadServed { client: from, value, version }));
                    self.record_state(out);
                    out.push(reply(Payload::ReadReply { req, value, version, refused_by: None }));
                }
                Err(highest) => {
                    out.push(event(EventKind::Rejected { client: from, token, highest }));
                    out.push(reply(Payload::ReadReply { req, value: 0, version: 0, refused_by: Some(highest) }));
                }
            },
            Payload::Write { req, token, ref request, conditional, read_version, .. } => {
                let answer = |outcome, highest| reply(Payload::WriteReply { req, outcome, highest });
                match self.store.decide(token, request, conditional, read_version) {
                    Decision::Apply => self.apply(from, &payload, msg, env, out),
                    Decision::Reject => {
                        let highest = self.store.highest;
                        out.push(event(EventKind::Rejected { client: from, token, highest }));
                        out.push(answer(WriteOutcome::Rejected, highest));
                    }
                    Decision::Duplicate => {
                        out.push(event(EventKind::Duplicate { client: from, request: request.clone() }));
                        out.push(answer(WriteOutcome::Duplicate, self.store.highest));
                    }
                    Decision::Conflict { actual } => {
                        let expected = read_version.unwrap_or(0);
                        out.push(event(EventKind::Conflict { client: from, expected, actual }));
                        out.push(answer(WriteOutcome::Conflict, self.store.highest));
                    }
                    Decision::ApplyLater => {
                        out.push(event(EventKind::Checked { client: from, token }));
                        let commit = Commit { client: from, msg, write: payload.clone() };
                        out.push(Effect::Timer { actor: r, at: env.now() + self.gap, timer: commit, gate: Gate::Process });
                    }
                }
            }
            _ => {}
        }
    }

    /// A checked write's gap has passed: it is applied without a second check.
    pub fn on_timer(&mut self, c: Commit, env: &dyn Env, out: &mut Fx) {
        self.apply(c.client, &c.write, c.msg, env, out);
    }

    fn apply(&mut self, client: ActorId, write: &Payload, msg: MsgId, env: &dyn Env, out: &mut Fx) {
        let Payload::Write { req, token, grant, op, value, request, read_version, read_at_us, .. } = write.clone() else { return };
        let (version_before, value_after) = self.store.apply(token, op, value, &request);
        out.push(Effect::Event { actor: self.id, kind: EventKind::Accepted { client, token, value: value_after } });
        self.record_state(out);
        out.push(Effect::Record(Record::Applied(Applied {
            at_us: env.now(),
            client,
            grant,
            token,
            add: op == WriteOp::Add,
            request,
            read_version: if op == WriteOp::Set { read_version } else { None },
            read_at_us,
            version_before,
            value_after,
            event: 0,
            msg,
        })));
        let highest = self.store.highest;
        out.push(Effect::Send {
            from: self.id,
            to: client,
            payload: Payload::WriteReply { req, outcome: WriteOutcome::Accepted, highest },
        });
    }

    fn record_state(&self, out: &mut Fx) {
        let s = &self.store;
        out.push(Effect::Record(Record::Resource { value: s.value, version: s.version, highest: s.highest }));
    }
}
