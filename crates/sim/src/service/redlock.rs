//! The client side of Redlock (SEMANTICS §2): the client runs the algorithm itself over N
//! independent Redis masters. A round sends `SET NX PX` to every node (in turn or at once, each
//! with a per-node timeout), counts a quorum of N/2 + 1, and computes validity = TTL − elapsed
//! − (TTL × factor + 2 ms) on its own clock; a lost round unlocks every node and retries after
//! a random delay. Extension and release are rounds too. A won round is a grant the client
//! decides: it says so with [`GrantFx::Won`], numbered as the driver told it.

use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, GrantFx, Lease, Outcome, TimerKind, Wait};
use crate::rng::Rng;
use crate::service::redis::client::Scripts;
use crate::service::LockClient;
use crate::service::redis::{RedisCmd, RedisReply};
use crate::time::{Micros, Millis, MS};
use crate::trace::EventKind;

/// What a round does on every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RoundOp {
    Lock,
    Unlock,
    Extend,
}

/// A round: one request per node, answered or timed out.
#[derive(Clone, Debug)]
struct Round {
    op: RoundOp,
    /// The client's clock when the round started (Redlock's T1).
    t1: Micros,
    reqs: Vec<u64>,
    replies: Vec<Option<bool>>,
    parallel: bool,
}

/// A Redlock client.
#[derive(Clone, Debug)]
pub struct Redlock {
    nodes: usize,
    node_timeout_ms: Millis,
    /// Lock all nodes at once (node-redlock, redsync) rather than in turn (the Redis docs,
    /// redlock-rb).
    parallel: bool,
    drift_factor: f64,
    scripts: Scripts,
    round: Option<Round>,
}

impl Redlock {
    pub fn new(nodes: usize, node_timeout_ms: Millis, parallel: bool, drift_factor: f64, scripts: Scripts) -> Redlock {
        Redlock { nodes, node_timeout_ms, parallel, drift_factor, scripts, round: None }
    }

    fn start_round(&mut self, op: RoundOp, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        // Unlocking and extending go to every node at once; locking follows the setting.
        let parallel = self.parallel || op != RoundOp::Lock;
        self.round = Some(Round { op, t1: cx.local, reqs: vec![0; self.nodes], replies: vec![None; self.nodes], parallel });
        k.wait = Wait::Round;
        let first: Vec<usize> = if parallel { (0..self.nodes).collect() } else { vec![0] };
        for i in first {
            self.send(i, k, cx, out);
        }
    }

    fn send(&mut self, i: usize, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        let Some(op) = self.round.as_ref().map(|r| r.op) else { return };
        let owner = k.owner;
        let cmd = match op {
            RoundOp::Lock => RedisCmd::Acquire { owner, ttl_ms: cx.ttl_ms, incr: false },
            RoundOp::Unlock => self.scripts.release(owner),
            RoundOp::Extend => self.scripts.renew(owner, cx.ttl_ms),
        };
        let req = k.request();
        if let Some(r) = &mut self.round {
            r.reqs[i] = req;
        }
        out.push(Effect::Send(Dest::Node(i), Payload::Redis { req, cmd }));
        out.push(Effect::Timer(self.node_timeout_ms.to_micros(), TimerKind::Timeout(req)));
    }

    /// A node answered (or timed out: `ok` false).
    fn answer(&mut self, req: u64, ok: bool, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Outcome {
        let Some(r) = &mut self.round else { return Outcome::Waiting };
        let Some(i) = r.reqs.iter().position(|&q| q == req) else { return Outcome::Waiting };
        if r.replies[i].is_some() {
            return Outcome::Waiting;
        }
        r.replies[i] = Some(ok);
        if !r.parallel && i + 1 < r.replies.len() {
            self.send(i + 1, k, cx, out);
            return Outcome::Waiting;
        }
        if r.replies.iter().all(Option::is_some) {
            return self.finish_round(k, cx, out);
        }
        Outcome::Waiting
    }

    fn finish_round(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Outcome {
        let Some(r) = self.round.take() else { return Outcome::Waiting };
        let votes: Vec<usize> = r.replies.iter().enumerate().filter(|(_, v)| **v == Some(true)).map(|(i, _)| i).collect();
        let quorum = self.nodes / 2 + 1;
        let elapsed_us = cx.local - r.t1;
        // redlock-rb: drift = int(ttl * factor) + 2 ms (1 ms for Redis's expiry precision, 1 ms of drift).
        let drift_us = crate::time::from_ms((cx.ttl_ms.get() as f64 * self.drift_factor) as i64 + 2);
        let validity_us = cx.ttl_ms.to_micros() - elapsed_us - drift_us;
        let ok = votes.len() >= quorum && validity_us.is_positive();
        if r.op == RoundOp::Unlock {
            k.lease = None;
            out.push(Effect::Event(EventKind::Released { removed: !votes.is_empty() }));
            return Outcome::Released;
        }
        let extend = r.op == RoundOp::Extend;
        let tally =
            EventKind::Tally { votes: crate::trace::Votes::of(&votes), nodes: self.nodes, elapsed_us, drift_us, validity_us, ok, extend };
        out.push(Effect::Event(tally));
        let until_local = r.t1 + validity_us;
        match (ok, extend) {
            (true, false) => {
                // The grant and its token are known before the client's next step sends anything.
                let (grant, token) = (cx.next_grant, cx.next_token);
                k.lease = Some(Lease { owner: k.owner, token, grant, until_local });
                out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                out.push(Effect::Grant(GrantFx::Won { grant, token, until_local, votes }));
                Outcome::Acquired
            }
            (true, true) => {
                let Some(l) = &mut k.lease else { return Outcome::Waiting };
                l.until_local = until_local;
                let grant = l.grant;
                out.push(Effect::Event(EventKind::Renewed { until_local_us: until_local }));
                out.push(Effect::Grant(GrantFx::Extended { grant, until_local }));
                Outcome::Renewed
            }
            (false, true) => Outcome::Lost(crate::trace::Why::ExtensionShort { votes: votes.len() as u8, nodes: self.nodes as u8 }),
            (false, false) => {
                // Unlock every node, even those it believes it failed on; do not wait.
                for i in 0..self.nodes {
                    let req = k.request();
                    let cmd = RedisCmd::Release { owner: k.owner, compare: true };
                    out.push(Effect::Send(Dest::Node(i), Payload::Redis { req, cmd }));
                }
                Outcome::Refused
            }
        }
    }
}

/// Redlock speaks to its nodes itself: a round per acquire, extension and release.
impl LockClient for Redlock {
    fn acquire(&mut self, _timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        self.start_round(RoundOp::Lock, k, cx, out);
    }

    fn renew(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        if k.lease.is_none() {
            return false;
        }
        self.start_round(RoundOp::Extend, k, cx, out);
        true
    }

    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some(lease) = &k.lease else { return false };
        let grant = lease.grant;
        out.push(Effect::Event(EventKind::Releasing));
        out.push(Effect::Grant(GrantFx::Released { grant }));
        self.start_round(RoundOp::Unlock, k, cx, out);
        true
    }

    /// The delay before the next attempt: random, as redlock-rb's `rand(retry_delay)`, to
    /// desynchronise contenders.
    fn retry_delay(&self, retry_ms: Millis, rng: &mut Rng) -> Micros {
        rng.range_inclusive(0, retry_ms.get().max(1) as i64 - 1) * MS
    }

    /// While a round is under way every message is the round's (a node's reply, or ignored).
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if k.wait != Wait::Round {
            return None;
        }
        let Payload::RedisReply { req, reply } = p else { return Some(Outcome::Waiting) };
        let ok = match self.round.as_ref().map(|r| r.op) {
            Some(RoundOp::Lock) => matches!(reply, RedisReply::Ok { .. }),
            _ => *reply == RedisReply::Int(1),
        };
        Some(self.answer(*req, ok, k, cx, out))
    }

    /// A node's timeout counts as a failed vote.
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        match kind {
            TimerKind::Timeout(req) if k.wait == Wait::Round => Some(self.answer(req, false, k, cx, out)),
            _ => None,
        }
    }
}

mod slice;
#[cfg(test)]
mod tests;
