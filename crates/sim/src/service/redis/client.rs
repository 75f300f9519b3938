//! The client side of the single-node Redis lock (SEMANTICS §1): `SET lock <owner> NX PX <ttl>`
//! (with `INCR` in the same script when the counter lives on the node), a compare-and-extend
//! script or a plain `PEXPIRE` to renew, a compare-and-delete script or a plain `DEL` to
//! release. Every request goes to the current primary. With `lock.watchdog`, Redisson's
//! watchdog renews the lock in the background while the program works ([`Watchdog`]).

use super::watchdog::Watchdog;
use super::{Event, Op, RedisCmd, RedisReply};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Lease, Outcome, TimerKind, Wait, SCRIPT_TIMEOUT_MS};
use crate::scenario::{ReleaseStyle, RenewStyle};
use crate::service::LockClient;
use crate::time::Millis;
use crate::trace::{EventKind, Why};

/// Which release and renewal a client's code uses: the compare-and-X scripts, or a plain
/// `DEL` and `PEXPIRE` that touch whatever key is there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scripts {
    pub release: ReleaseStyle,
    pub renew: RenewStyle,
}

impl Default for Scripts {
    fn default() -> Scripts {
        Scripts { release: ReleaseStyle::CompareAndDelete, renew: RenewStyle::CompareAndExtend }
    }
}

impl Scripts {
    pub fn release(&self, owner: u64) -> RedisCmd {
        RedisCmd::Release { owner, compare: self.release == ReleaseStyle::CompareAndDelete }
    }

    pub fn renew(&self, owner: u64, ttl_ms: Millis) -> RedisCmd {
        RedisCmd::Renew { owner, ttl_ms, compare: self.renew == RenewStyle::CompareAndExtend }
    }
}

/// A client of the Redis lock.
#[derive(Clone, Debug, Default)]
pub struct Single {
    op: Option<Op>,
    scripts: Scripts,
    /// Whether the acquire script also increments the fencing counter on the node.
    incr: bool,
    /// Redisson's lock watchdog, when the client has one.
    watchdog: Option<Watchdog>,
}

impl Single {
    pub fn new(scripts: Scripts, incr: bool) -> Single {
        Single { op: None, scripts, incr, watchdog: None }
    }

    /// The same client with Redisson's lock watchdog renewing its lock in the background.
    pub fn with_watchdog(self) -> Single {
        Single { watchdog: Some(Watchdog::default()), ..self }
    }

    /// Its command was answered READONLY (it reached a primary that Sentinel demoted while the
    /// command was on its way): an acquire attempt fails, a renewal loses the lock, a release
    /// removes nothing.
    fn answered_read_only(&mut self, k: &mut Core, out: &mut Vec<Effect>) -> Outcome {
        let answered = |op| Effect::Event(Event::Answered { op, attempt: k.attempt }.into());
        match self.op {
            Some(Op::Acquire) => {
                out.push(answered(Op::Acquire));
                Outcome::Refused
            }
            Some(Op::Renew) => Outcome::Lost(Why::RenewalReadOnly),
            Some(Op::Release) => {
                out.push(answered(Op::Release));
                k.lease = None;
                Outcome::Released
            }
            None => Outcome::Waiting,
        }
    }
}

impl LockClient for Single {
    /// One attempt at the lock.
    fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        self.op = Some(Op::Acquire);
        let cmd = RedisCmd::Acquire { owner: k.owner, ttl_ms: cx.ttl_ms, incr: self.incr };
        k.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(timeout_ms), cx, out);
    }

    /// Renews the lease it holds; `false` when it holds none.
    fn renew(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some(lease) = &k.lease else { return false };
        self.op = Some(Op::Renew);
        let cmd = self.scripts.renew(lease.owner, cx.ttl_ms);
        k.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
    }

    /// Releases the lease it holds; `false` when it holds none.
    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some(lease) = &k.lease else { return false };
        if let Some(w) = &mut self.watchdog {
            w.stop(); // unlock() cancels the renewal
        }
        self.op = Some(Op::Release);
        let cmd = self.scripts.release(lease.owner);
        out.push(Effect::Event(EventKind::Releasing));
        k.send(Dest::Lock, |req| Payload::Redis { req, cmd }, Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
    }

    /// A Redis reply; `None` for any other message.
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let Payload::RedisReply { req, reply } = p else { return None };
        if let Some(o) = self.watchdog.as_mut().and_then(|w| w.on_reply(*req, reply, k, cx, out)) {
            return Some(o);
        }
        let Wait::Reply { req: waiting, sent_local } = k.wait else { return Some(Outcome::Waiting) };
        if *req != waiting {
            return Some(Outcome::Waiting); // a late reply to an earlier request
        }
        if *reply == RedisReply::ReadOnly {
            return Some(self.answered_read_only(k, out));
        }
        let until_local = sent_local + cx.ttl_ms.to_micros();
        Some(match self.op {
            Some(Op::Acquire) => match *reply {
                RedisReply::Ok { token, grant, .. } => {
                    k.lease = Some(Lease { owner: k.owner, token, grant, until_local });
                    let token = k.token(cx);
                    out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                    if let Some(w) = &mut self.watchdog {
                        w.start(cx, out);
                    }
                    Outcome::Acquired
                }
                _ => {
                    out.push(Effect::Event(EventKind::Refused { attempt: k.attempt }));
                    Outcome::Refused
                }
            },
            Some(Op::Renew) if *reply == RedisReply::Int(1) => {
                if let Some(l) = &mut k.lease {
                    l.until_local = until_local;
                }
                out.push(Effect::Event(EventKind::Renewed { until_local_us: until_local }));
                Outcome::Renewed
            }
            Some(Op::Renew) => Outcome::Lost(Why::RenewalRefused),
            Some(Op::Release) => {
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: *reply == RedisReply::Int(1) }));
                Outcome::Released
            }
            None => Outcome::Waiting,
        })
    }

    /// The watchdog's timer; `None` for any other (or without a watchdog).
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        self.watchdog.as_mut()?.on_timer(kind, k, cx, out)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::scenario::TokenKind;
    use crate::time::Micros;

    pub(in crate::service::redis) fn cx(local: Micros) -> Cx<'static> {
        Cx { local, mono: local, name: "A", ttl_ms: Millis::new(10_000), token: TokenKind::Counter, next_grant: 0, next_token: None }
    }

    pub(in crate::service::redis) fn holding() -> Core {
        let mut k = Core::default();
        k.owner = 0xa1;
        k.lease = Some(Lease { owner: 0xa1, token: Some(33), grant: 0, until_local: Micros::us(10_000_000) });
        k
    }

    pub(in crate::service::redis) fn sent(out: &[Effect]) -> (u64, RedisCmd) {
        match out.iter().find_map(|e| match e {
            Effect::Send(Dest::Lock, Payload::Redis { req, cmd }) => Some((*req, cmd.clone())),
            _ => None,
        }) {
            Some(s) => s,
            None => panic!("no command in {out:?}"),
        }
    }

    #[test]
    fn the_scripts_follow_the_clients_code() {
        let mut k = holding();
        let mut out = Vec::new();
        let mut plain = Single::new(Scripts { release: ReleaseStyle::Del, renew: RenewStyle::Pexpire }, false);
        assert!(plain.renew(&mut k, &cx(Micros::us(1)), &mut out));
        assert_eq!(sent(&out).1, RedisCmd::Renew { owner: 0xa1, ttl_ms: Millis::new(10_000), compare: false });
        let mut out = Vec::new();
        assert!(Single::default().release(&mut k, &cx(Micros::us(2)), &mut out));
        assert_eq!(out[0], Effect::Event(EventKind::Releasing));
        assert_eq!(sent(&out).1, RedisCmd::Release { owner: 0xa1, compare: true });
    }

    #[test]
    fn a_refused_renewal_loses_the_lock_and_a_late_reply_is_ignored() {
        let (mut s, mut k) = (Single::default(), holding());
        let mut out = Vec::new();
        s.renew(&mut k, &cx(Micros::us(5_000_000)), &mut out);
        let (req, _) = sent(&out);
        let late = Payload::RedisReply { req: req + 7, reply: RedisReply::Int(1) };
        assert_eq!(s.on_message(&late, &mut k, &cx(Micros::us(5_001_000)), &mut Vec::new()), Some(Outcome::Waiting));
        let refused = Payload::RedisReply { req, reply: RedisReply::Int(-1) };
        let o = s.on_message(&refused, &mut k, &cx(Micros::us(5_002_000)), &mut Vec::new());
        assert!(matches!(o, Some(Outcome::Lost(crate::trace::Why::RenewalRefused))));
    }

    /// A command that reached a primary Sentinel demoted on the way: the attempt, the renewal
    /// or the release fails, each told as READONLY.
    #[test]
    fn a_readonly_reply_fails_the_attempt_the_renewal_or_the_release() {
        let read_only = |sent_out: &[Effect]| Payload::RedisReply { req: sent(sent_out).0, reply: RedisReply::ReadOnly };
        let (mut s, mut k, mut asked) = (Single::default(), Core::default(), Vec::new());
        s.acquire(Millis::new(1_000), &mut k, &cx(Micros::ZERO), &mut asked);
        let mut out = vec![];
        assert_eq!(s.on_message(&read_only(&asked), &mut k, &cx(Micros::us(1)), &mut out), Some(Outcome::Refused));
        assert_eq!(out, vec![Effect::Event(Event::Answered { op: Op::Acquire, attempt: k.attempt }.into())]);
        let (mut s, mut k, mut asked) = (Single::default(), holding(), Vec::new());
        s.renew(&mut k, &cx(Micros::us(2)), &mut asked);
        let o = s.on_message(&read_only(&asked), &mut k, &cx(Micros::us(3)), &mut Vec::new());
        assert_eq!(o, Some(Outcome::Lost(Why::RenewalReadOnly)));
        let mut asked = Vec::new();
        s.release(&mut k, &cx(Micros::us(4)), &mut asked);
        let mut out = vec![];
        assert_eq!(s.on_message(&read_only(&asked), &mut k, &cx(Micros::us(5)), &mut out), Some(Outcome::Released));
        assert_eq!(out, vec![Effect::Event(Event::Answered { op: Op::Release, attempt: k.attempt }.into())]);
        assert_eq!(k.lease, None);
    }
}
