//! A client process: [`Client`], running its program of [`Step`]s.
//!
//! The client never touches the world. [`Client::handle`] takes an [`Input`] (start, a reply,
//! a timer) and the moment it happens ([`Cx`]), and returns [`Effect`]s: messages to send,
//! timers to arm, events to record. The driver delivers them.
//!
//! A client judges its lease by its own clock: it counts the lease from the moment it sent the
//! acquire (as Redlock's step 1 does), so its deadline is conservative. Work, retry delays and
//! timeouts are measured as elapsed time (a monotonic clock), so only lease deadlines see a
//! clock jump.

pub use crate::lock::Dest;
use crate::msg::{Payload, RedisCmd, RedisReply};
use crate::rng::Rng;
use crate::scenario::{ReleaseStyle, RenewStyle, Step, TokenKind};
use crate::time::{Micros, MS};
use crate::trace::{EventKind, WriteOutcome};

/// Redlock's settings, when the lock service is Redlock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedlockCx {
    pub nodes: usize,
    pub node_timeout_ms: u64,
    pub parallel: bool,
    pub drift_factor: f64,
    /// The grant this client's lock will be if its round wins now: the driver numbers grants.
    pub next_grant: usize,
    /// The token the durable counter would issue with that grant (`None` without a counter).
    pub next_token: Option<u64>,
}

/// What a client's timer is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerKind {
    WorkDone,
    Retry,
    Timeout(u64),
    /// Consensus: time to send the session's next keepalive.
    KeepAlive,
}

/// Something a client asks the driver to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Send(Dest, Payload),
    Timer(Micros, TimerKind),
    Event(EventKind),
}

/// What happens to a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Start,
    Message(Payload),
    Timer(TimerKind),
}

/// The moment and settings a handler sees.
#[derive(Clone, Copy, Debug)]
pub struct Cx<'a> {
    /// The client's own clock reading now.
    pub local: Micros,
    pub name: &'a str,
    pub ttl_ms: u64,
    pub release: ReleaseStyle,
    pub renew: RenewStyle,
    pub token: TokenKind,
    /// Whether the acquire script increments a counter on the Redis node.
    pub incr_on_node: bool,
    /// Redlock's settings, when the lock service is Redlock.
    pub redlock: Option<RedlockCx>,
    /// Whether the lock service is the consensus service.
    pub consensus: bool,
}

/// The lease a client believes it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub owner: String,
    pub token: Option<u64>,
    pub grant: usize,
    /// When the lease runs out, on the client's own clock.
    pub until_local: Micros,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Wait {
    Nothing,
    Reply {
        req: u64,
        sent_local: Micros,
    },
    Timer,
    /// A Redlock round is under way.
    Round,
    /// Consensus: queued behind an earlier key, waiting to be told it holds the lock.
    Queued,
}

/// What a Redlock round does on every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundOp {
    Lock,
    Unlock,
    Extend,
}

/// A Redlock round: one request per node, answered or timed out.
#[derive(Clone, Debug)]
struct Round {
    op: RoundOp,
    /// The client's clock when the round started (Redlock's T1).
    t1: Micros,
    reqs: Vec<u64>,
    replies: Vec<Option<bool>>,
    parallel: bool,
}

/// A client's state.
#[derive(Clone, Debug)]
pub struct Client {
    steps: Vec<Step>,
    pc: usize,
    rng: Rng,
    next_req: u64,
    wait: Wait,
    /// The lease it believes it holds.
    pub lease: Option<Lease>,
    /// The last value read, its version, and when the resource served it.
    read: Option<(i64, u64, Micros)>,
    read_pc: Option<usize>,
    attempt: u32,
    resends: u32,
    conflicts: u32,
    owner: String,
    /// The last message sent for the current step, kept for resends.
    last_payload: Option<Payload>,
    round: Option<Round>,
    /// Consensus: the session's lease id, while it has one.
    session: Option<u64>,
    /// Consensus: when the last keepalive (or lock request) that renewed the lease was sent.
    renewed_local: Micros,
    ka_sent_local: Micros,
    keepalives: bool,
    /// Set when the program has ended.
    pub done: bool,
}

/// How many times a conditional write may conflict before the client gives up.
const MAX_CONFLICTS: u32 = 10;
/// How long a renewal or release waits for its reply.
const SCRIPT_TIMEOUT_MS: u64 = 1_000;

impl Client {
    pub fn new(steps: Vec<Step>, rng: Rng) -> Client {
        Client {
            steps,
            pc: 0,
            rng,
            next_req: 1,
            wait: Wait::Nothing,
            lease: None,
            read: None,
            read_pc: None,
            attempt: 0,
            resends: 0,
            conflicts: 0,
            owner: String::new(),
            last_payload: None,
            round: None,
            session: None,
            renewed_local: 0,
            ka_sent_local: 0,
            keepalives: false,
            done: false,
        }
    }

    /// The token this client presents to the resource, by the scenario's token source.
    fn token(&self, cx: &Cx) -> Option<u64> {
        let lease = self.lease.as_ref()?;
        match cx.token {
            TokenKind::None => None,
            TokenKind::Counter => lease.token,
            TokenKind::RandomOwner => u64::from_str_radix(&lease.owner, 16).ok(),
        }
    }

    /// Handles one input and returns what the driver must do.
    pub fn handle(&mut self, input: Input, cx: &Cx) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.done {
            return out;
        }
        match input {
            Input::Start => {
                out.push(Effect::Event(EventKind::Start));
                self.advance(cx, &mut out);
            }
            Input::Timer(kind) => self.on_timer(kind, cx, &mut out),
            Input::Message(p) => self.on_message(p, cx, &mut out),
        }
        out
    }

    fn send(&mut self, dest: Dest, make: impl FnOnce(u64) -> Payload, timeout_ms: Option<u64>, cx: &Cx, out: &mut Vec<Effect>) {
        let req = self.next_req;
        self.next_req += 1;
        let p = make(req);
        self.last_payload = Some(p.clone());
        out.push(Effect::Send(dest, p));
        if let Some(t) = timeout_ms {
            out.push(Effect::Timer(t as Micros * MS, TimerKind::Timeout(req)));
        }
        self.wait = Wait::Reply { req, sent_local: cx.local };
    }

    fn finish(&mut self, completed: bool, out: &mut Vec<Effect>) {
        self.done = true;
        self.wait = Wait::Nothing;
        out.push(Effect::Event(EventKind::Done { completed }));
    }

    fn lose(&mut self, why: String, out: &mut Vec<Effect>) {
        self.lease = None;
        out.push(Effect::Event(EventKind::LostLock { why }));
        self.finish(false, out);
    }

    fn next(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        self.pc += 1;
        self.advance(cx, out);
    }

    /// Runs steps until one has to wait for a reply or a timer.
    fn advance(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        loop {
            let Some(step) = self.steps.get(self.pc).cloned() else {
                self.finish(true, out);
                return;
            };
            match step {
                Step::Acquire { timeout_ms, .. } => {
                    self.attempt = 0;
                    self.owner = format!("{:016x}", self.rng.next_u64());
                    self.try_acquire(timeout_ms, cx, out);
                    return;
                }
                Step::Read { activate } => {
                    let token = if activate { self.token(cx) } else { None };
                    self.read_pc = Some(self.pc);
                    self.send(Dest::Resource, |req| Payload::Read { req, token, activate }, None, cx, out);
                    return;
                }
                Step::Work { ms } => {
                    out.push(Effect::Event(EventKind::Work { ms }));
                    out.push(Effect::Timer(ms as Micros * MS, TimerKind::WorkDone));
                    self.wait = Wait::Timer;
                    return;
                }
                Step::Write { op, request, timeout_ms, conditional, .. } => {
                    self.resends = 0;
                    let request = request.unwrap_or_else(|| format!("{}-{}", cx.name, self.pc));
                    let value = self.read.map(|r| r.0).unwrap_or(0) + 1;
                    let token = self.token(cx);
                    let grant = self.lease.as_ref().map(|l| l.grant);
                    let (read_version, read_at_us) = match self.read {
                        Some((_, v, at)) => (Some(v), Some(at)),
                        None => (None, None),
                    };
                    self.send(
                        Dest::Resource,
                        |req| Payload::Write { req, token, grant, op, value, request, read_version, read_at_us, conditional },
                        timeout_ms,
                        cx,
                        out,
                    );
                    return;
                }
                Step::Release {} if cx.consensus => {
                    let Some(lease) = self.session else {
                        self.pc += 1;
                        continue;
                    };
                    out.push(Effect::Event(EventKind::Releasing));
                    self.send(Dest::Leader, |req| Payload::CUnlock { req, lease }, Some(SCRIPT_TIMEOUT_MS), cx, out);
                    return;
                }
                Step::Renew {} if cx.redlock.is_some() => {
                    if self.lease.is_none() {
                        self.pc += 1;
                        continue;
                    }
                    self.start_round(RoundOp::Extend, cx, out);
                    return;
                }
                Step::Release {} if cx.redlock.is_some() => {
                    if self.lease.is_none() {
                        self.pc += 1;
                        continue;
                    }
                    out.push(Effect::Event(EventKind::Releasing));
                    self.start_round(RoundOp::Unlock, cx, out);
                    return;
                }
                Step::Renew {} => {
                    let Some(lease) = &self.lease else {
                        self.pc += 1;
                        continue;
                    };
                    let cmd = RedisCmd::Renew {
                        owner: lease.owner.clone(),
                        ttl_ms: cx.ttl_ms,
                        compare: cx.renew == RenewStyle::CompareAndExtend,
                    };
                    self.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(SCRIPT_TIMEOUT_MS), cx, out);
                    return;
                }
                Step::Release {} => {
                    let Some(lease) = &self.lease else {
                        self.pc += 1;
                        continue;
                    };
                    let cmd = RedisCmd::Release { owner: lease.owner.clone(), compare: cx.release == ReleaseStyle::CompareAndDelete };
                    out.push(Effect::Event(EventKind::Releasing));
                    self.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(SCRIPT_TIMEOUT_MS), cx, out);
                    return;
                }
                Step::CheckDeadline { margin_ms } => {
                    let Some(lease) = &self.lease else {
                        self.lose("it holds no lease".into(), out);
                        return;
                    };
                    let left = lease.until_local - cx.local;
                    if left > margin_ms as Micros * MS {
                        out.push(Effect::Event(EventKind::DeadlineOk { left_us: left }));
                        self.pc += 1;
                        continue;
                    }
                    self.lose(format!("its deadline is {} away on its own clock", crate::time::fmt(left.max(0))), out);
                    return;
                }
            }
        }
    }

    /// One attempt at the lock, by whichever lock service the scenario has.
    fn try_acquire(&mut self, timeout_ms: u64, cx: &Cx, out: &mut Vec<Effect>) {
        self.attempt += 1;
        if cx.redlock.is_some() {
            self.start_round(RoundOp::Lock, cx, out);
        } else if cx.consensus {
            let ttl_ms = cx.ttl_ms;
            self.send(Dest::Leader, |req| Payload::CLock { req, ttl_ms }, Some(timeout_ms), cx, out);
        } else {
            self.send_acquire(timeout_ms, cx, out);
        }
    }

    fn send_acquire(&mut self, timeout_ms: u64, cx: &Cx, out: &mut Vec<Effect>) {
        let cmd = RedisCmd::Acquire { owner: self.owner.clone(), ttl_ms: cx.ttl_ms, incr: cx.incr_on_node };
        self.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(timeout_ms), cx, out);
    }

    /// After a refused or unanswered attempt: wait and try again, or give up.
    fn retry_acquire(&mut self, out: &mut Vec<Effect>) {
        let Some(Step::Acquire { retry_ms, attempts, .. }) = self.steps.get(self.pc).cloned() else {
            return;
        };
        if self.attempt >= attempts {
            out.push(Effect::Event(EventKind::GaveUp));
            self.finish(false, out);
            return;
        }
        out.push(Effect::Timer(retry_ms as Micros * MS, TimerKind::Retry));
        self.wait = Wait::Timer;
    }

    fn on_timer(&mut self, kind: TimerKind, cx: &Cx, out: &mut Vec<Effect>) {
        match kind {
            TimerKind::WorkDone if self.wait == Wait::Timer => self.next(cx, out),
            TimerKind::Retry if self.wait == Wait::Timer => {
                if let Some(Step::Acquire { timeout_ms, .. }) = self.steps.get(self.pc).cloned() {
                    self.try_acquire(timeout_ms, cx, out);
                }
            }
            TimerKind::KeepAlive => {
                let Some(lease) = self.session else {
                    self.keepalives = false;
                    return;
                };
                let req = self.next_req;
                self.next_req += 1;
                self.ka_sent_local = cx.local;
                out.push(Effect::Send(Dest::Leader, Payload::CKeepAlive { req, lease }));
                out.push(Effect::Timer(cx.ttl_ms as Micros * MS / 3, TimerKind::KeepAlive));
            }
            TimerKind::Timeout(req) if self.wait == Wait::Round => self.round_answer(req, false, cx, out),
            TimerKind::Timeout(req) => {
                let Wait::Reply { req: waiting, .. } = self.wait else {
                    return;
                };
                if waiting != req {
                    return;
                }
                match self.steps.get(self.pc).cloned() {
                    Some(Step::Acquire { .. }) => {
                        out.push(Effect::Event(EventKind::Timeout { what: "its lock request".into() }));
                        self.retry_acquire(out);
                    }
                    Some(Step::Write { retries, timeout_ms, .. }) => {
                        if self.resends < retries {
                            self.resends += 1;
                            out.push(Effect::Event(EventKind::Timeout { what: "its write; it sends it again".into() }));
                            // The same request again, under a new request number.
                            if let Some(mut copy @ Payload::Write { .. }) = self.last_payload.clone() {
                                self.send(
                                    Dest::Resource,
                                    |req| {
                                        if let Payload::Write { req: r, .. } = &mut copy {
                                            *r = req;
                                        }
                                        copy
                                    },
                                    timeout_ms,
                                    cx,
                                    out,
                                );
                            }
                        } else {
                            out.push(Effect::Event(EventKind::Timeout { what: "its write; it gives up".into() }));
                            self.finish(false, out);
                        }
                    }
                    Some(Step::Renew {}) => {
                        out.push(Effect::Event(EventKind::Timeout { what: "its renewal".into() }));
                        self.lose("its renewal got no reply".into(), out);
                    }
                    Some(Step::Release {}) => {
                        out.push(Effect::Event(EventKind::Timeout { what: "its release".into() }));
                        self.lease = None;
                        out.push(Effect::Event(EventKind::Released { removed: false }));
                        self.next(cx, out);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn on_message(&mut self, p: Payload, cx: &Cx, out: &mut Vec<Effect>) {
        if cx.consensus && self.on_consensus(&p, cx, out) {
            return;
        }
        if self.wait == Wait::Round {
            if let Payload::RedisReply { req, reply } = p {
                let ok = match self.round.as_ref().map(|r| r.op) {
                    Some(RoundOp::Lock) => matches!(reply, RedisReply::Ok { .. }),
                    _ => reply == RedisReply::Int(1),
                };
                self.round_answer(req, ok, cx, out);
            }
            return;
        }
        let Wait::Reply { req: waiting, sent_local } = self.wait else {
            return;
        };
        let req = match &p {
            Payload::RedisReply { req, .. } | Payload::ReadReply { req, .. } | Payload::WriteReply { req, .. } => *req,
            _ => return,
        };
        // A write resent after a timeout accepts the reply to any copy of it.
        let is_resend_reply = matches!(p, Payload::WriteReply { .. }) && req < waiting && self.resends > 0;
        if req != waiting && !is_resend_reply {
            return; // a late reply to an earlier request
        }
        let step = self.steps.get(self.pc).cloned();
        match (step, p) {
            (Some(Step::Acquire { .. }), Payload::RedisReply { reply, .. }) => match reply {
                RedisReply::Ok { token, grant } => {
                    let until_local = sent_local + cx.ttl_ms as Micros * MS;
                    self.lease = Some(Lease { owner: self.owner.clone(), token, grant, until_local });
                    let token = self.token(cx);
                    out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                    self.next(cx, out);
                }
                _ => {
                    out.push(Effect::Event(EventKind::Refused { attempt: self.attempt }));
                    self.retry_acquire(out);
                }
            },
            (Some(Step::Renew {}), Payload::RedisReply { reply, .. }) => {
                if reply == RedisReply::Int(1) {
                    let until_local = sent_local + cx.ttl_ms as Micros * MS;
                    if let Some(l) = &mut self.lease {
                        l.until_local = until_local;
                    }
                    out.push(Effect::Event(EventKind::Renewed { until_local_us: until_local }));
                    self.next(cx, out);
                } else {
                    self.lose("its renewal was refused: the key is gone or holds another owner's value".into(), out);
                }
            }
            (Some(Step::Release {}), Payload::RedisReply { reply, .. }) => {
                self.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: reply == RedisReply::Int(1) }));
                self.next(cx, out);
            }
            (Some(Step::Read { .. }), Payload::ReadReply { value, version, refused_by, .. }) => {
                if let Some(h) = refused_by {
                    self.lose(format!("the resource has already seen token {h}"), out);
                    return;
                }
                // The resource's serving time is not known to the client; the driver records it.
                self.read = Some((value, version, 0));
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
                    WriteOutcome::Rejected => self.lose(format!("the resource has already seen token {highest}"), out),
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

    // ----- Consensus ----------------------------------------------------------------------

    fn start_keepalives(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        if !self.keepalives {
            self.keepalives = true;
            out.push(Effect::Timer(cx.ttl_ms as Micros * MS / 3, TimerKind::KeepAlive));
        }
    }

    /// Handles the consensus service's messages; `false` if this is not one of them.
    fn on_consensus(&mut self, p: &Payload, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let waiting_for = |req: u64| matches!(self.wait, Wait::Reply { req: w, .. } if w == req);
        match *p {
            Payload::CKeepAliveOk { .. } => {
                self.renewed_local = self.ka_sent_local;
                if let Some(l) = &mut self.lease {
                    l.until_local = self.renewed_local + cx.ttl_ms as Micros * MS;
                    out.push(Effect::Event(EventKind::Renewed { until_local_us: l.until_local }));
                }
            }
            Payload::CLeaseNotFound { .. } => {
                // The session is over. Like code that uses etcd's Mutex and never watches
                // session.Done(), the client goes on until its own checks stop it.
                self.session = None;
            }
            Payload::CQueued { req, rev, lease } if waiting_for(req) => {
                if let Wait::Reply { sent_local, .. } = self.wait {
                    self.renewed_local = sent_local;
                }
                self.session = Some(lease);
                self.start_keepalives(cx, out);
                self.wait = Wait::Queued;
                out.push(Effect::Event(EventKind::Queued { rev }));
            }
            Payload::CLocked { req, rev, lease, grant } if waiting_for(req) || self.wait == Wait::Queued => {
                if let Wait::Reply { sent_local, .. } = self.wait {
                    self.renewed_local = sent_local;
                }
                self.session = Some(lease);
                self.start_keepalives(cx, out);
                let until_local = self.renewed_local + cx.ttl_ms as Micros * MS;
                let token = (cx.token == TokenKind::Counter).then_some(rev);
                self.lease = Some(Lease { owner: String::new(), token, grant, until_local });
                out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                self.next(cx, out);
            }
            Payload::CSessionExpired { req } if waiting_for(req) || self.wait == Wait::Queued => {
                self.session = None;
                self.lose("its session expired while it waited for the lock".into(), out);
            }
            Payload::CUnlocked { req } if waiting_for(req) => {
                self.session = None;
                self.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: true }));
                self.next(cx, out);
            }
            Payload::CQueued { .. } | Payload::CLocked { .. } | Payload::CSessionExpired { .. } | Payload::CUnlocked { .. } => {}
            _ => return false,
        }
        true
    }

    // ----- Redlock ------------------------------------------------------------------------

    fn start_round(&mut self, op: RoundOp, cx: &Cx, out: &mut Vec<Effect>) {
        let Some(rl) = cx.redlock else { return };
        // Unlocking and extending go to every node at once; locking follows the setting.
        let parallel = rl.parallel || op != RoundOp::Lock;
        self.round = Some(Round { op, t1: cx.local, reqs: vec![0; rl.nodes], replies: vec![None; rl.nodes], parallel });
        self.wait = Wait::Round;
        let first: Vec<usize> = if parallel { (0..rl.nodes).collect() } else { vec![0] };
        for i in first {
            self.round_send(i, cx, out);
        }
    }

    fn round_send(&mut self, i: usize, cx: &Cx, out: &mut Vec<Effect>) {
        let (Some(rl), Some(op)) = (cx.redlock, self.round.as_ref().map(|r| r.op)) else { return };
        let owner = self.owner.clone();
        let cmd = match op {
            RoundOp::Lock => RedisCmd::Acquire { owner, ttl_ms: cx.ttl_ms, incr: false },
            RoundOp::Unlock => RedisCmd::Release { owner, compare: cx.release == ReleaseStyle::CompareAndDelete },
            RoundOp::Extend => RedisCmd::Renew { owner, ttl_ms: cx.ttl_ms, compare: cx.renew == RenewStyle::CompareAndExtend },
        };
        let req = self.next_req;
        self.next_req += 1;
        if let Some(r) = &mut self.round {
            r.reqs[i] = req;
        }
        out.push(Effect::Send(Dest::Node(i), Payload::Redis { req, cmd }));
        out.push(Effect::Timer(rl.node_timeout_ms as Micros * MS, TimerKind::Timeout(req)));
    }

    /// A node answered (or timed out: `ok` false).
    fn round_answer(&mut self, req: u64, ok: bool, cx: &Cx, out: &mut Vec<Effect>) {
        let Some(r) = &mut self.round else { return };
        let Some(i) = r.reqs.iter().position(|&q| q == req) else { return };
        if r.replies[i].is_some() {
            return;
        }
        r.replies[i] = Some(ok);
        if !r.parallel && i + 1 < r.replies.len() {
            self.round_send(i + 1, cx, out);
            return;
        }
        if r.replies.iter().all(Option::is_some) {
            self.finish_round(cx, out);
        }
    }

    fn finish_round(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        let (Some(r), Some(rl)) = (self.round.take(), cx.redlock) else { return };
        let votes: Vec<usize> = r.replies.iter().enumerate().filter(|(_, v)| **v == Some(true)).map(|(i, _)| i).collect();
        let quorum = rl.nodes / 2 + 1;
        let elapsed_us = cx.local - r.t1;
        // redlock-rb: drift = int(ttl * factor) + 2 ms (1 ms for Redis's expiry precision, 1 ms of drift).
        let drift_us = ((cx.ttl_ms as f64 * rl.drift_factor) as Micros + 2) * MS;
        let validity_us = cx.ttl_ms as Micros * MS - elapsed_us - drift_us;
        let ok = votes.len() >= quorum && validity_us > 0;
        match r.op {
            RoundOp::Lock | RoundOp::Extend => {
                let extend = r.op == RoundOp::Extend;
                out.push(Effect::Event(EventKind::Tally {
                    votes: votes.clone(),
                    nodes: rl.nodes,
                    elapsed_us,
                    drift_us,
                    validity_us,
                    ok,
                    extend,
                }));
                match (ok, extend) {
                    (true, false) => {
                        let until_local = r.t1 + validity_us;
                        // The grant and its token are known before the client's next step sends anything.
                        let (grant, token) = (rl.next_grant, rl.next_token);
                        self.lease = Some(Lease { owner: self.owner.clone(), token, grant, until_local });
                        out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                        self.next(cx, out);
                    }
                    (true, true) => {
                        let until_local = r.t1 + validity_us;
                        if let Some(l) = &mut self.lease {
                            l.until_local = until_local;
                        }
                        out.push(Effect::Event(EventKind::Renewed { until_local_us: until_local }));
                        self.next(cx, out);
                    }
                    (false, true) => self.lose(format!("its extension reached {} of {} nodes in time", votes.len(), rl.nodes), out),
                    (false, false) => {
                        // Unlock every node, even those it believes it failed on; do not wait.
                        for i in 0..rl.nodes {
                            let req = self.next_req;
                            self.next_req += 1;
                            out.push(Effect::Send(
                                Dest::Node(i),
                                Payload::Redis { req, cmd: RedisCmd::Release { owner: self.owner.clone(), compare: true } },
                            ));
                        }
                        let Some(Step::Acquire { retry_ms, attempts, .. }) = self.steps.get(self.pc).cloned() else { return };
                        if self.attempt >= attempts {
                            out.push(Effect::Event(EventKind::GaveUp));
                            self.finish(false, out);
                            return;
                        }
                        // A random delay, as redlock-rb's rand(retry_delay), desynchronises contenders.
                        let delay_ms = self.rng.range_inclusive(0, retry_ms.max(1) as i64 - 1);
                        out.push(Effect::Timer(delay_ms * MS, TimerKind::Retry));
                        self.wait = Wait::Timer;
                    }
                }
            }
            RoundOp::Unlock => {
                self.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: !votes.is_empty() }));
                self.next(cx, out);
            }
        }
    }

    /// Records when the resource served this client's last read (ground truth for the checker).
    pub fn set_read_time(&mut self, at: Micros) {
        if let Some(r) = &mut self.read {
            r.2 = at;
        }
    }
}
