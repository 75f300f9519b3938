//! A candidate of Kubernetes leader election, as client-go's `LeaderElector` runs it
//! (`tools/leaderelection/leaderelection.go`): `tryAcquireOrRenew` reads the Lease, and takes it
//! if it has no holder, names this candidate, or has not changed for LeaseDuration by the
//! candidate's own monotonic clock since the candidate first saw it so (`observedTime`);
//! otherwise it waits RetryPeriod with jitter and tries again. The leader renews in rounds
//! (`renew`): a round begins when its timer fires, RetryPeriod after the last round, and tries
//! every RetryPeriod (a `PUT` naming the version it last saw while that record names it and is
//! young, else a `GET` and the candidate's check) until one succeeds; if none has by
//! RenewDeadline after the round began, it stops leading (`OnStoppedLeading`) and its program
//! stops. A write already sent is not called back, and a leader paused between rounds begins a
//! fresh round on waking: client-go does not notice the pause.

use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Lease, Outcome, TimerKind, SCRIPT_TIMEOUT_MS};
use crate::rng::Rng;
use crate::scenario::TokenKind;
use crate::service::LockClient;
use crate::time::{Micros, Millis, MS};
use crate::trace::EventKind;
use crate::wire::kubernetes::{Event, Msg, Record};

/// client-go's three durations, in microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub lease_us: Micros,
    pub renew_deadline_us: Micros,
    pub retry_us: Micros,
}

/// A candidate's state.
#[derive(Clone, Debug)]
pub struct Elector {
    t: Timing,
    /// The record it last saw and its `resourceVersion`.
    observed: Option<(Record, u64)>,
    /// When, by its monotonic clock, it first saw that record (client-go's `observedTime`).
    observed_mono: Micros,
    /// The record it last asked the API server to write.
    sent: Option<Record>,
    leading: bool,
    /// While a round of renewal tries is under way, when it ends by the monotonic clock: its
    /// start plus RenewDeadline (client-go's `PollUntilContextTimeout` in `renew`).
    round: Option<Micros>,
    /// The request of the leader's try under way.
    trying: Option<u64>,
    ticking: bool,
    /// When its renew timer fires next, by its own clock: the next round of tries begins then.
    /// The model's ticks come every RetryPeriod from the first round's start, so a renewal
    /// holds until RenewDeadline after that tick, not after its reply. (client-go's `wait.Until`
    /// slides: its next round begins RetryPeriod after the last one ended, a reply's latency
    /// later than the model's.)
    next_tick_local: Micros,
    releasing: bool,
}

impl Elector {
    pub fn new(t: Timing) -> Elector {
        Elector {
            t,
            observed: None,
            observed_mono: Micros::ZERO,
            sent: None,
            leading: false,
            round: None,
            trying: None,
            ticking: false,
            next_tick_local: Micros::ZERO,
            releasing: false,
        }
    }

    /// Whether the record it last saw names it (client-go's `IsLeader`).
    fn is_leader(&self, cx: &Cx) -> bool {
        self.observed.as_ref().is_some_and(|(r, _)| r.holder == cx.name)
    }

    /// Whether the record it last saw is younger than the lease duration, by its own monotonic
    /// clock (client-go's `isLeaseValid`).
    fn lease_valid(&self, cx: &Cx) -> bool {
        self.observed.is_some() && self.observed_mono + self.t.lease_us > cx.mono
    }

    /// The record this candidate writes to hold the Lease, after `old`.
    fn mine(&self, old: Option<&Record>, cx: &Cx) -> Record {
        match old {
            Some(r) if r.holder == cx.name => Record { renew_local: cx.local, ..r.clone() },
            Some(r) => Record { holder: cx.name.into(), transitions: r.transitions + 1, acquire_local: cx.local, renew_local: cx.local },
            None => Record { holder: cx.name.into(), transitions: 0, acquire_local: cx.local, renew_local: cx.local },
        }
    }

    /// Notes the record read; a changed one is timed from now.
    fn observe(&mut self, r: &Record, rv: u64, cx: &Cx) {
        if self.observed.as_ref().map(|o| &o.0) != Some(r) {
            self.observed_mono = cx.mono;
        }
        self.observed = Some((r.clone(), rv));
    }

    /// Sends `m`, made with a new request number, as the leader's try under way.
    fn try_with(&mut self, k: &mut Core, m: impl FnOnce(u64) -> Msg, out: &mut Vec<Effect>) {
        let req = k.request();
        self.trying = Some(req);
        out.push(Effect::Send(Dest::Lock, Payload::Kubernetes(Box::new(m(req)))));
    }

    /// A leader's try: while the Lease it saw names it and is young, the fast path (a `PUT`
    /// naming the version it saw); otherwise a `GET`, then the same check as a candidate's.
    fn renew_try(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        match self.observed.clone() {
            Some((r, rv)) if self.is_leader(cx) && self.lease_valid(cx) => {
                let record = self.mine(Some(&r), cx);
                self.sent = Some(record.clone());
                self.try_with(k, |req| Msg::Update { req, rv, record }, out);
            }
            _ => self.try_with(k, |req| Msg::Get { req }, out),
        }
    }

    fn write(&mut self, k: &mut Core, make: impl FnOnce(u64, Record) -> Msg, record: Record, cx: &Cx, out: &mut Vec<Effect>) {
        self.sent = Some(record.clone());
        k.send(Dest::Lock, |req| Payload::Kubernetes(Box::new(make(req, record))), Some(SCRIPT_TIMEOUT_MS), cx, out);
    }

    /// It has written itself in: it leads, and its renew loop starts at once with a first round
    /// (client-go's `renew` runs its first try immediately).
    fn elected(&mut self, rv: u64, grant: Option<usize>, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Outcome {
        self.leading = true;
        if let Some(r) = self.sent.clone() {
            self.observed = Some((r, rv));
            self.observed_mono = cx.mono;
        }
        let token = (cx.token == TokenKind::Counter).then(|| self.sent.as_ref().map_or(0, |r| r.transitions));
        let grant = grant.unwrap_or(cx.next_grant);
        let until_local = cx.local + self.t.renew_deadline_us;
        out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
        k.lease = Some(Lease { owner: 0, token, grant, until_local });
        self.round = Some(cx.mono + self.t.renew_deadline_us);
        self.renew_try(k, cx, out);
        if !self.ticking {
            self.ticking = true;
            self.next_tick_local = cx.local + self.t.retry_us;
            out.push(Effect::Timer(self.t.retry_us, TimerKind::KeepAlive));
        }
        Outcome::Acquired
    }

    /// A try went through: the record it sent is what it has seen, and the round is over. It
    /// leads until RenewDeadline after the next round begins, at its next tick. If the Lease had
    /// lost its holder meanwhile (a leader paused past its lease, whose renew loop finds the Lease
    /// free and takes it again), it holds a new grant now, but its program keeps the token it
    /// read when it started leading: client-go calls `OnStartedLeading` once, and a silent
    /// re-acquire in the renew loop calls nothing (issue 49: the new leaseTransitions here let a
    /// stale write through the fence).
    fn renewed(&mut self, rv: u64, grant: Option<usize>, cx: &Cx, k: &mut Core, out: &mut Vec<Effect>) {
        if let Some(r) = self.sent.clone() {
            self.observed = Some((r, rv));
            self.observed_mono = cx.mono;
        }
        self.round = None;
        let until_local = self.next_tick_local.max(cx.local) + self.t.renew_deadline_us;
        if let Some(l) = &mut k.lease {
            l.until_local = until_local;
            if let Some(g) = grant.filter(|&g| g != l.grant) {
                l.grant = g;
            }
            out.push(Effect::Event(EventKind::Renewed { until_local_us: until_local }));
        }
    }
}

/// A leader renews its Lease by itself, every retry period (validation refuses a renew step).
impl LockClient for Elector {
    /// How long a candidate waits between tries: RetryPeriod, plus up to `JITTER_FACTOR` of it
    /// (client-go's `wait.JitterUntil`).
    fn retry_delay(&self, _retry_ms: Millis, rng: &mut Rng) -> Micros {
        let jitter_ms = (self.t.retry_us / MS) as f64 * super::JITTER_FACTOR;
        self.t.retry_us + rng.range_inclusive(0, (jitter_ms as i64 - 1).max(0)) * MS
    }

    /// One try (`tryAcquireOrRenew`): read the Lease.
    fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        k.send(Dest::Lock, |req| Payload::Kubernetes(Box::new(Msg::Get { req })), Some(timeout_ms), cx, out);
    }

    /// Gives the Lease up (client-go's `release`, with `ReleaseOnCancel`): an empty holder. A
    /// client that the Lease no longer names has nothing to give up.
    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        if !self.leading || !self.is_leader(cx) {
            return false;
        }
        let Some((r, rv)) = self.observed.clone() else { return false };
        (self.leading, self.round, self.trying, self.releasing) = (false, None, None, true);
        let record = Record { holder: String::new(), renew_local: cx.local, ..r };
        out.push(Effect::Event(EventKind::Releasing));
        k.send(Dest::Lock, |req| Payload::Kubernetes(Box::new(Msg::Update { req, rv, record })), Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
    }

    /// The leader's renew loop (client-go's `renew`): a round of tries every RetryPeriod until
    /// one succeeds or RenewDeadline has passed since the round began, by its monotonic clock;
    /// then it stops leading. A round begins when its timer fires, so a leader that was paused
    /// between rounds begins a fresh one on waking.
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if kind != TimerKind::KeepAlive {
            return None;
        }
        if !self.leading {
            self.ticking = false;
            return Some(Outcome::Waiting);
        }
        let deadline = *self.round.get_or_insert(cx.mono + self.t.renew_deadline_us);
        let left = deadline - cx.mono;
        if !left.is_positive() {
            (self.leading, self.round, self.trying, self.ticking) = (false, None, None, false);
            return Some(Outcome::Lost(crate::trace::Why::RenewDeadline { deadline_us: self.t.renew_deadline_us }));
        }
        if self.trying.is_some() {
            out.push(Effect::Event(Event::RenewFailed { holder: None, left_us: left }.into()));
        }
        self.renew_try(k, cx, out);
        let next = self.t.retry_us.min(left);
        self.next_tick_local = cx.local + next;
        out.push(Effect::Timer(next, TimerKind::KeepAlive));
        Some(Outcome::Waiting)
    }

    /// The API server's answers; `None` for any other message.
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let Payload::Kubernetes(m) = p else { return None };
        let tried = |req: u64| self.trying == Some(req);
        Some(match &**m {
            Msg::Done { req, rv, grant } if tried(*req) => {
                self.trying = None;
                self.renewed(*rv, *grant, cx, k, out);
                Outcome::Waiting
            }
            // The fast path failed: read the Lease, then decide.
            Msg::Conflict { req } if tried(*req) => {
                self.try_with(k, |req| Msg::Get { req }, out);
                Outcome::Waiting
            }
            Msg::Got { req, lease } if tried(*req) => {
                self.trying = None;
                match lease {
                    Some((r, rv)) => {
                        self.observe(r, *rv, cx);
                        if !r.holder.is_empty() && r.holder != cx.name && self.lease_valid(cx) {
                            let left_us = self.round.map_or(Micros::ZERO, |d| d - cx.mono);
                            out.push(Effect::Event(Event::RenewFailed { holder: Some(r.holder.clone()), left_us }.into()));
                        } else {
                            let (record, rv) = (self.mine(Some(r), cx), *rv);
                            self.sent = Some(record.clone());
                            self.try_with(k, |req| Msg::Update { req, rv, record }, out);
                        }
                    }
                    None => {
                        let record = self.mine(None, cx);
                        self.sent = Some(record.clone());
                        self.try_with(k, |req| Msg::Create { req, record }, out);
                    }
                }
                Outcome::Waiting
            }
            Msg::Got { req, lease } if k.waits_for(*req) && !self.releasing => match lease {
                None => {
                    let record = self.mine(None, cx);
                    self.write(k, |req, record| Msg::Create { req, record }, record, cx, out);
                    Outcome::Waiting
                }
                Some((r, rv)) => {
                    self.observe(r, *rv, cx);
                    if !r.holder.is_empty() && r.holder != cx.name && self.lease_valid(cx) {
                        let unchanged_us = cx.mono - self.observed_mono;
                        out.push(Effect::Event(Event::Held { holder: r.holder.clone(), unchanged_us }.into()));
                        return Some(Outcome::Refused);
                    }
                    let (record, rv) = (self.mine(Some(r), cx), *rv);
                    self.write(k, |req, record| Msg::Update { req, rv, record }, record, cx, out);
                    Outcome::Waiting
                }
            },
            Msg::Done { req, rv, grant } if k.waits_for(*req) && !self.releasing => self.elected(*rv, *grant, k, cx, out),
            Msg::Conflict { req } if k.waits_for(*req) && !self.releasing => Outcome::Refused,
            Msg::Done { req, .. } | Msg::Conflict { req } if k.waits_for(*req) => {
                self.releasing = false;
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: matches!(&**m, Msg::Done { .. }) }));
                Outcome::Released
            }
            _ => Outcome::Waiting,
        })
    }
}

#[cfg(test)]
mod tests;
