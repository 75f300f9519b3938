//! A client process: [`Client`], the interpreter of its program of [`Step`]s.
//!
//! The client never touches the world. [`Client::handle`] takes an [`Input`] (start, a reply,
//! a timer) and the moment it happens ([`Cx`]), and returns [`Effect`]s: messages to send,
//! timers to arm, events to record, grants it decided. The driver delivers them.
//!
//! The program's own steps (read, work, write, the deadline check, retries) are here; the lock
//! operations (acquire, renew, release) belong to the [`Protocol`] the client speaks, which
//! owns its client-side state and tells the program how each ended ([`Outcome`]).

use crate::lock::Protocol;
use crate::msg::{Dest, Payload, Write};
pub use crate::proto::{Core, Cx, Effect, GrantFx, Input, Lease, Outcome, TimerKind, Wait};
use crate::rng::Rng;
use crate::scenario::{OnTimeout, Step};
use crate::time::{Micros, Millis};
use crate::trace::{Awaited, EventKind, Why, WriteOutcome};

/// How many times a conditional write may conflict before the client gives up.
const MAX_CONFLICTS: u32 = 10;

/// A client's state.
#[derive(Clone, Debug)]
pub struct Client {
    steps: Vec<Step>,
    pc: usize,
    rng: Rng,
    core: Core,
    proto: Protocol,
    /// The last value read, its version, and when the resource served it.
    read: Option<(i64, u64, Micros)>,
    read_pc: Option<usize>,
    resends: u32,
    conflicts: u32,
    /// Set when the program has ended.
    pub done: bool,
}

impl Client {
    pub fn new(steps: Vec<Step>, rng: Rng, proto: Protocol) -> Client {
        Client { steps, pc: 0, rng, core: Core::default(), proto, read: None, read_pc: None, resends: 0, conflicts: 0, done: false }
    }

    /// The lease the client believes it holds.
    pub fn lease(&self) -> Option<&Lease> {
        self.core.lease.as_ref()
    }

    /// Whether the program is in the middle of an update: it has read a value it has not yet
    /// written, or it believes it holds the lock, and a write is still ahead of it (or in flight).
    /// A run does not end in silence while one is (`World::run_loop`).
    pub fn update_under_way(&self) -> bool {
        let ahead = self.steps.get(self.pc..).unwrap_or_default();
        let writing = matches!(ahead.first(), Some(Step::Write { .. })) && matches!(self.core.wait, Wait::Reply { .. });
        let holding = self.read.is_some() || self.core.lease.is_some();
        !self.done && (writing || holding && ahead.iter().any(|s| matches!(s, Step::Write { .. })))
    }

    /// Handles one input and returns what the driver must do.
    pub fn handle(&mut self, input: Input, cx: &Cx) -> Vec<Effect> {
        let mut out = Vec::new();
        self.handle_into(input, cx, &mut out);
        out
    }

    /// [`Client::handle`], its effects appended to `out` (the driver reuses one buffer).
    pub fn handle_into(&mut self, input: Input, cx: &Cx, out: &mut Vec<Effect>) {
        if self.done {
            return;
        }
        match input {
            Input::Start => {
                out.push(Effect::Event(EventKind::Start));
                self.advance(cx, out);
            }
            Input::Timer(kind) => self.on_timer(kind, cx, out),
            Input::Message(p) => self.on_message(p, cx, out),
        }
    }

    fn finish(&mut self, completed: bool, out: &mut Vec<Effect>) {
        self.done = true;
        self.core.wait = Wait::Nothing;
        out.push(Effect::Event(EventKind::Done { completed }));
        self.proto.close(&mut self.core, out);
    }

    fn lose(&mut self, why: Why, out: &mut Vec<Effect>) {
        self.stop(EventKind::LostLock { why }, out);
    }

    /// It stops on its own judgment, not because it learned the lock is gone.
    fn give_up(&mut self, why: Why, out: &mut Vec<Effect>) {
        self.stop(EventKind::Abandoned { why }, out);
    }

    fn stop(&mut self, event: EventKind, out: &mut Vec<Effect>) {
        self.core.lease = None;
        out.push(Effect::Event(event));
        self.finish(false, out);
    }

    fn next(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        self.pc += 1;
        self.advance(cx, out);
    }

    /// What the program does when a lock operation ends.
    fn outcome(&mut self, o: Outcome, cx: &Cx, out: &mut Vec<Effect>) {
        match o {
            Outcome::Waiting => {}
            Outcome::Acquired | Outcome::Renewed | Outcome::Released => self.next(cx, out),
            Outcome::Refused => self.retry_acquire(out),
            Outcome::Lost(why) => self.lose(why, out),
        }
    }

    /// Runs steps until one has to wait for a reply or a timer.
    fn advance(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        loop {
            // The step's fields are copied out as it is matched: nothing of it is cloned.
            let Some(step) = self.steps.get(self.pc) else {
                self.finish(true, out);
                return;
            };
            match *step {
                Step::Acquire { timeout_ms, .. } => {
                    self.core.attempt = 0;
                    self.core.owner = self.rng.next_u64();
                    self.try_acquire(timeout_ms, cx, out);
                    return;
                }
                Step::Read { activate } => {
                    let token = if activate { self.core.token(cx) } else { None };
                    self.read_pc = Some(self.pc);
                    self.core.send(Dest::Resource, |req| Payload::Read { req, token, activate }, None, cx, out);
                    return;
                }
                Step::Work { ms } => {
                    out.push(Effect::Event(EventKind::Work { ms }));
                    out.push(Effect::Timer(ms.to_micros(), TimerKind::WorkDone));
                    self.core.wait = Wait::Timer;
                    return;
                }
                Step::Write { .. } => {
                    self.write(cx, out);
                    return;
                }
                Step::Renew { .. } => {
                    if self.proto.renew(&mut self.core, cx, out) {
                        return;
                    }
                    self.pc += 1;
                }
                Step::Release {} => {
                    if self.proto.release(&mut self.core, cx, out) {
                        return;
                    }
                    self.pc += 1;
                }
                Step::CheckDeadline { margin_ms } => {
                    let Some(lease) = &self.core.lease else {
                        self.lose(Why::NoLease, out);
                        return;
                    };
                    let left = lease.until_local - cx.local;
                    if left <= margin_ms.to_micros() {
                        let why =
                            if left.is_negative() { Why::DeadlinePassed { ago_us: -left } } else { Why::DeadlineNear { left_us: left } };
                        self.give_up(why, out);
                        return;
                    }
                    out.push(Effect::Event(EventKind::DeadlineOk { left_us: left }));
                    self.pc += 1;
                }
            }
        }
    }

    /// Sends the write step at `pc`.
    fn write(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        let Some(Step::Write { op, request, timeout_ms, conditional, effect, .. }) = self.steps.get(self.pc) else { return };
        let (op, timeout_ms, conditional, effect) = (*op, *timeout_ms, *conditional, effect.clone());
        let request = request.clone().unwrap_or_else(|| format!("{}-{}", cx.name, self.pc));
        self.resends = 0;
        let value = self.read.map(|r| r.0).unwrap_or(0) + 1;
        let token = self.core.token(cx);
        let grant = self.core.lease.as_ref().map(|l| l.grant);
        let (read_version, read_at_us) = match self.read {
            Some((_, v, at)) => (Some(v), Some(at)),
            None => (None, None),
        };
        let write =
            |req| Payload::Write(Box::new(Write { req, token, grant, op, value, request, read_version, read_at_us, conditional, effect }));
        self.core.send(Dest::Resource, write, timeout_ms, cx, out);
    }

    /// One attempt at the lock, by the protocol the client speaks.
    fn try_acquire(&mut self, timeout_ms: Millis, cx: &Cx, out: &mut Vec<Effect>) {
        self.core.attempt += 1;
        self.proto.acquire(timeout_ms, &mut self.core, cx, out);
    }

    /// After a refused or unanswered attempt: wait and try again, or give up.
    fn retry_acquire(&mut self, out: &mut Vec<Effect>) {
        let Some(&Step::Acquire { retry_ms, attempts, .. }) = self.steps.get(self.pc) else {
            return;
        };
        if self.core.attempt >= attempts {
            out.push(Effect::Event(EventKind::GaveUp));
            self.finish(false, out);
            return;
        }
        let delay = self.proto.retry_delay(retry_ms, &mut self.rng);
        out.push(Effect::Timer(delay, TimerKind::Retry));
        self.core.wait = Wait::Timer;
    }

    fn on_timer(&mut self, kind: TimerKind, cx: &Cx, out: &mut Vec<Effect>) {
        if let Some(o) = self.proto.on_timer(kind, &mut self.core, cx, out) {
            self.outcome(o, cx, out);
            return;
        }
        match kind {
            TimerKind::WorkDone if self.core.wait == Wait::Timer => self.next(cx, out),
            TimerKind::Retry if self.core.wait == Wait::Timer => {
                if let Some(&Step::Acquire { timeout_ms, .. }) = self.steps.get(self.pc) {
                    self.try_acquire(timeout_ms, cx, out);
                }
            }
            TimerKind::Timeout(req) if self.core.waits_for(req) => self.timed_out(cx, out),
            _ => {}
        }
    }

    /// The request the client waits for got no reply in time.
    fn timed_out(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        let timeout = |what| Effect::Event(EventKind::Timeout { what });
        match self.steps.get(self.pc) {
            Some(Step::Acquire { .. }) => {
                out.push(timeout(Awaited::LockRequest));
                self.retry_acquire(out);
            }
            Some(&Step::Write { retries, timeout_ms, .. }) if self.resends < retries => {
                self.resends += 1;
                out.push(timeout(Awaited::WriteResent));
                // The same request again, under a new request number.
                if let Some(w) = self.core.last_write.clone() {
                    self.core.send(Dest::Resource, |req| Payload::Write(Box::new(Write { req, ..*w })), timeout_ms, cx, out);
                }
            }
            Some(Step::Write { .. }) => {
                out.push(timeout(Awaited::WriteAbandoned));
                self.finish(false, out);
            }
            Some(Step::Renew { on_timeout: OnTimeout::KeepWorking }) => {
                out.push(timeout(Awaited::RenewalIgnored));
                self.next(cx, out);
            }
            Some(Step::Renew { .. }) => {
                out.push(timeout(Awaited::Renewal));
                self.give_up(Why::RenewalUnanswered, out);
            }
            Some(Step::Release {}) => {
                // No answer: it cannot know whether its key is gone, and goes on as if released.
                out.push(timeout(Awaited::Release));
                self.core.lease = None;
                self.next(cx, out);
            }
            _ => {}
        }
    }

    fn on_message(&mut self, p: Payload, cx: &Cx, out: &mut Vec<Effect>) {
        if let Some(o) = self.proto.on_message(&p, &mut self.core, cx, out) {
            self.outcome(o, cx, out);
            return;
        }
        let Wait::Reply { req: waiting, .. } = self.core.wait else {
            return;
        };
        let req = match &p {
            Payload::ReadReply { req, .. } | Payload::WriteReply { req, .. } => *req,
            _ => return,
        };
        // A write resent after a timeout accepts the reply to any copy of it.
        let is_resend_reply = matches!(p, Payload::WriteReply { .. }) && req < waiting && self.resends > 0;
        if req != waiting && !is_resend_reply {
            return; // a late reply to an earlier request
        }
        match (self.steps.get(self.pc), p) {
            (Some(Step::Read { .. }), Payload::ReadReply { value, version, refused_by, served_us, .. }) => {
                if let Some(h) = refused_by {
                    self.lose(Why::TokenSeen { highest: h }, out);
                    return;
                }
                self.read = Some((value, version, served_us));
                out.push(Effect::Event(EventKind::ReadDone { value, version }));
                self.next(cx, out);
            }
            (Some(Step::Write { .. }), Payload::WriteReply { outcome, highest, .. }) => {
                out.push(Effect::Event(EventKind::WriteDone { outcome }));
                match outcome {
                    WriteOutcome::Accepted | WriteOutcome::Duplicate => {
                        self.read = None;
                        self.next(cx, out);
                    }
                    WriteOutcome::Rejected => self.lose(Why::TokenSeen { highest }, out),
                    WriteOutcome::Conflict => {
                        self.conflicts += 1;
                        match self.read_pc {
                            Some(pc) if self.conflicts <= MAX_CONFLICTS => {
                                self.pc = pc;
                                self.advance(cx, out);
                            }
                            _ => self.finish(false, out),
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
