//! The resource as an actor: reads and writes in, the [`Store`]'s decisions out as effects (the
//! event, the reply, the record of an applied write). Check-then-write commits after the gap,
//! on a timer of its own process: a pause delays it, a crash loses it.

use super::{Decision, Store};
use crate::actor::{Effect, Env, Gate, Out, Record};
use crate::msg::{Payload, Write};
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
                    out.push(reply(Payload::ReadReply { req, value, version, refused_by: None, served_us: env.now() }));
                }
                Err(highest) => {
                    out.push(event(EventKind::Rejected { client: from, token, highest }));
                    out.push(reply(Payload::ReadReply { req, value: 0, version: 0, refused_by: Some(highest), served_us: env.now() }));
                }
            },
            Payload::Write(ref w) => {
                let Write { req, token, ref request, conditional, read_version, ref effect, .. } = **w;
                let answer = |outcome, highest| reply(Payload::WriteReply { req, outcome, highest });
                if let Some(key) = effect {
                    // Sent from inside the transaction: it goes out whatever the outcome.
                    let repeat = !self.store.send_effect(key);
                    out.push(event(EventKind::EffectSent { client: from, key: key.clone(), deduplicated: repeat }));
                }
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
        let Payload::Write(w) = write else { return };
        let Write { req, token, grant, op, value, ref request, read_version, read_at_us, .. } = **w;
        let (version_before, value_after) = self.store.apply(token, op, value, request);
        out.push(Effect::Event { actor: self.id, kind: EventKind::Accepted { client, token, value: value_after } });
        self.record_state(out);
        out.push(Effect::Record(Record::Applied(Box::new(Applied {
            at_us: env.now(),
            client,
            grant,
            token,
            op,
            request: request.clone(),
            read_version: if op == WriteOp::Set { read_version } else { None },
            read_at_us,
            version_before,
            value_after,
            event: 0,
            msg,
        }))));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actor::testing::{events, records, sends, FakeEnv};
    use crate::scenario::{Fencing, Resource, ResourceKind};
    use crate::time::Millis;

    const A: ActorId = 0;
    const B: ActorId = 1;
    const R: ActorId = 2;

    fn server(fencing: Fencing) -> Server {
        let cfg = Resource { kind: ResourceKind::Store, fencing, idempotency: false, check_write_gap_ms: Millis::new(10) };
        Server { id: R, store: Store::new(cfg), gap: Micros::us(10_000) }
    }

    fn write(token: u64) -> Payload {
        let request = format!("w{token}");
        Payload::Write(Box::new(Write {
            req: 1,
            token: Some(token),
            grant: Some(0),
            op: WriteOp::Set,
            value: 1,
            request,
            read_version: Some(0),
            read_at_us: Some(Micros::ZERO),
            conditional: false,
            effect: None,
        }))
    }

    #[test]
    fn an_accepted_write_is_recorded_and_answered() {
        let mut s = server(Fencing::Atomic);
        let e = FakeEnv::new(&["A", "B", "resource"]);
        let mut out = Vec::new();
        s.on_message(A, write(34), 5, &e, &mut out);
        assert_eq!(events(&out), vec![(R, EventKind::Accepted { client: A, token: Some(34), value: 1 })]);
        let recs = records(&out);
        assert_eq!(recs[0], Record::Resource { value: 1, version: 1, highest: 34 });
        assert!(matches!(&recs[1], Record::Applied(a) if a.client == A && a.msg == 5 && a.version_before == 0));
        assert!(matches!(sends(&out)[0], (R, A, Payload::WriteReply { outcome: WriteOutcome::Accepted, highest: 34, .. })));
    }

    #[test]
    fn atomic_fencing_rejects_an_older_token() {
        let mut s = server(Fencing::Atomic);
        let e = FakeEnv::new(&["A", "B", "resource"]);
        s.on_message(B, write(34), 0, &e, &mut Vec::new());
        let mut out = Vec::new();
        s.on_message(A, write(33), 1, &e, &mut out);
        assert_eq!(events(&out), vec![(R, EventKind::Rejected { client: A, token: Some(33), highest: 34 })]);
        assert!(records(&out).is_empty());
    }

    #[test]
    fn check_then_write_commits_after_the_gap_without_checking_again() {
        let mut s = server(Fencing::CheckThenWrite);
        let mut e = FakeEnv::new(&["A", "B", "resource"]);
        let mut out = Vec::new();
        s.on_message(A, write(33), 0, &e, &mut out);
        assert_eq!(events(&out), vec![(R, EventKind::Checked { client: A, token: Some(33) })]);
        let Some(Effect::Timer { at, timer, gate: Gate::Process, .. }) = out.pop() else { panic!("a commit timer: {out:?}") };
        assert_eq!(at, Micros::us(10_000));
        // B's newer write lands in the gap; A's commit still goes through.
        s.on_message(B, write(34), 1, &e, &mut Vec::new());
        e.now = Micros::us(10_000);
        let mut out = Vec::new();
        s.on_timer(timer, &e, &mut out);
        assert_eq!(events(&out), vec![(R, EventKind::Accepted { client: A, token: Some(33), value: 1 })]);
    }
}
