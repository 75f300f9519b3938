//! Redisson's lock watchdog (SEMANTICS §2.5): [`Watchdog`], the renewal a Redisson client runs in
//! the background while its program works, for a lock taken without a `leaseTime`.
//!
//! What the model follows (redisson/redisson `renewal/RenewalTask.java`, `renewal/LockTask.java`):
//! - the key is set with a TTL of `lockWatchdogTimeout` (30 000 ms by default), and a timer
//!   renews it every `internalLockLeaseTime / 3` (10 s) until `unlock()` cancels it;
//! - a renewal is a script that extends the key only if it still names this owner (`hexists`,
//!   then `pexpire`): a compare-and-extend, whatever `lock.renew` says of the program's own
//!   renew steps;
//! - a renewal that finds the key gone or another owner's cancels the watchdog
//!   (`cancelExpirationRenewal`), and one that fails (a lost connection, a response timeout)
//!   is logged and the next is scheduled: in neither case is the program told
//!   (redisson/redisson#4698 asks for a callback; `LockRenewalFailureListener` came only in 2026);
//! - the timer runs in the client's process: a GC pause stops it with the program
//!   (redisson/redisson#2665: "If for some reason JVM got freezed for the time interval more
//!   than lockWatchdogTimeout lock will be released"), so its renewal goes out late, on waking.
//!
//! One simplification: Redisson schedules the next renewal when the last one completes (at
//! once when Redis answers, after its response timeout and retries when it does not); the model
//! schedules it a third of the TTL after the last one was sent, answered or not.

use super::{Event, RedisCmd, RedisReply};
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Outcome, TimerKind};
use crate::time::Micros;
use crate::trace::EventKind;

/// The watchdog of one client.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watchdog {
    /// Whether it is renewing (from the grant until the release, or until a renewal finds the
    /// key gone).
    running: bool,
    /// Whether its timer is armed (one chain of timers, however often the lock is taken).
    armed: bool,
    /// The renewal awaiting its reply, and when it was sent by the client's clock.
    pending: Option<(u64, Micros)>,
}

impl Watchdog {
    /// The client has just been granted the lock: renewals start a third of the TTL from now.
    pub fn start(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        self.running = true;
        if !self.armed {
            self.armed = true;
            out.push(Effect::Timer(third(cx), TimerKind::KeepAlive));
        }
    }

    /// The program releases the lock (`unlock()` cancels the renewal).
    pub fn stop(&mut self) {
        self.running = false;
        self.pending = None;
    }

    /// The watchdog's timer: renews the lease the client holds, and arms the next renewal.
    pub fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if kind != TimerKind::KeepAlive {
            return None;
        }
        match (k.lease.as_ref().map(|l| l.owner), self.running) {
            (Some(owner), true) => {
                let req = k.request();
                let cmd = RedisCmd::Renew { owner, ttl_ms: cx.ttl_ms, compare: true };
                out.push(Effect::Send(Dest::Lock, Payload::Redis { req, cmd }));
                out.push(Effect::Timer(third(cx), TimerKind::KeepAlive));
                self.pending = Some((req, cx.local));
            }
            _ => {
                self.stop();
                self.armed = false;
            }
        }
        Some(Outcome::Waiting)
    }

    /// The reply to a renewal; `None` when `req` is not the one it awaits.
    pub fn on_reply(&mut self, req: u64, reply: &RedisReply, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let (awaited, sent_local) = self.pending?;
        if req != awaited {
            return None;
        }
        self.pending = None;
        match &mut k.lease {
            Some(l) if self.running && *reply == RedisReply::Int(1) => {
                l.until_local = sent_local + cx.ttl_ms.to_micros();
                out.push(Effect::Event(EventKind::Renewed { until_local_us: l.until_local }));
            }
            Some(_) if self.running => {
                // cancelExpirationRenewal (or, on an error such as READONLY, the renewal's entry
                // removed): the watchdog stops; the program is not told.
                self.running = false;
                out.push(Effect::Event(match reply {
                    RedisReply::ReadOnly => Event::WatchdogStopped.into(),
                    _ => EventKind::NoticeIgnored { holding: true },
                }));
            }
            _ => {}
        }
        Some(Outcome::Waiting)
    }
}

/// `internalLockLeaseTime / 3`.
fn third(cx: &Cx) -> Micros {
    cx.ttl_ms.to_micros() / 3
}

/// The sentence of a watchdog's event, where the common words would mislead (`None`: the
/// common words). Only a watchdog's client is told of its key that way (`NoticeIgnored`).
pub fn narrate(me: &str, kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::NoticeIgnored { holding } => Some(format!(
            "{me}'s watchdog finds its key gone or someone else's and stops renewing; {me}'s program is not told, {}.",
            EventKind::goes_on(*holding)
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::client::tests::{holding, sent};
    use super::*;
    use crate::time::Millis;

    /// Redisson's default: a 30 s watchdog timeout.
    fn cx(local: Micros) -> Cx<'static> {
        Cx { ttl_ms: Millis::new(30_000), ..super::super::client::tests::cx(local) }
    }

    /// A watchdog started at 0 whose timer has fired at `at`: its renewal's request number.
    fn renewing(at: Micros) -> (Watchdog, Core, u64, Vec<Effect>) {
        let (mut w, mut k) = (Watchdog::default(), holding());
        let mut started = Vec::new();
        w.start(&cx(Micros::ZERO), &mut started);
        assert_eq!(started, vec![Effect::Timer(Micros::us(10_000_000), TimerKind::KeepAlive)], "Redisson: every internalLockLeaseTime / 3");
        let mut out = Vec::new();
        assert_eq!(w.on_timer(TimerKind::KeepAlive, &mut k, &cx(at), &mut out), Some(Outcome::Waiting));
        let (req, _) = sent(&out);
        (w, k, req, out)
    }

    #[test]
    fn it_renews_every_third_of_the_watchdog_timeout_with_a_compare_and_extend() {
        let (mut w, mut k, req, out) = renewing(Micros::us(10_000_000));
        assert_eq!(sent(&out).1, RedisCmd::Renew { owner: 0xa1, ttl_ms: Millis::new(30_000), compare: true });
        assert!(out.contains(&Effect::Timer(Micros::us(10_000_000), TimerKind::KeepAlive)), "the next one is armed: {out:?}");
        let mut out = Vec::new();
        assert_eq!(w.on_reply(req, &RedisReply::Int(1), &mut k, &cx(Micros::us(10_002_000)), &mut out), Some(Outcome::Waiting));
        assert_eq!(out, vec![Effect::Event(EventKind::Renewed { until_local_us: Micros::us(40_000_000) })], "counted from when it was sent");
        assert_eq!(k.lease.as_ref().map(|l| l.until_local), Some(Micros::us(40_000_000)));
    }

    #[test]
    fn a_renewal_that_finds_the_key_gone_stops_the_watchdog_and_the_program_goes_on() {
        let (mut w, mut k, req, _) = renewing(Micros::us(40_000_000));
        assert_eq!(w.on_reply(req + 1, &RedisReply::Int(1), &mut k, &cx(Micros::us(40_001_000)), &mut Vec::new()), None, "not its reply");
        let mut out = Vec::new();
        assert_eq!(w.on_reply(req, &RedisReply::Int(0), &mut k, &cx(Micros::us(40_002_000)), &mut out), Some(Outcome::Waiting), "the program is not told");
        assert_eq!(out, vec![Effect::Event(EventKind::NoticeIgnored { holding: true })]);
        assert!(k.lease.is_some(), "the client still believes it holds the lock");
        let mut out = Vec::new();
        w.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(50_000_000)), &mut out);
        assert_eq!(out, vec![], "stopped: no renewal, no timer");
    }

    #[test]
    fn a_renewal_answered_readonly_stops_the_watchdog_and_says_so() {
        let (mut w, mut k, req, _) = renewing(Micros::us(10_000_000));
        let mut out = Vec::new();
        assert_eq!(w.on_reply(req, &RedisReply::ReadOnly, &mut k, &cx(Micros::us(10_002_000)), &mut out), Some(Outcome::Waiting));
        assert_eq!(out, vec![Effect::Event(Event::WatchdogStopped.into())]);
        let mut out = Vec::new();
        w.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(20_000_000)), &mut out);
        assert_eq!(out, vec![], "stopped");
    }

    #[test]
    fn a_released_lock_is_renewed_no_more() {
        let (mut w, mut k, req, _) = renewing(Micros::us(10_000_000));
        w.stop();
        k.lease = None;
        assert_eq!(w.on_reply(req, &RedisReply::Int(1), &mut k, &cx(Micros::us(10_001_000)), &mut Vec::new()), None, "cancelled with its renewal");
        let mut out = Vec::new();
        w.on_timer(TimerKind::KeepAlive, &mut k, &cx(Micros::us(20_000_000)), &mut out);
        assert_eq!(out, vec![]);
        assert_eq!(w.on_timer(TimerKind::Retry, &mut k, &cx(Micros::us(20_000_000)), &mut out), None, "not its timer");
    }
}
