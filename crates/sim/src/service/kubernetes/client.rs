//! A candidate of Kubernetes leader election, as client-go's `LeaderElector` runs it
//! (`tools/leaderelection/leaderelection.go`): `tryAcquireOrRenew` reads the Lease, and takes it
//! if it has no holder, or if the record has not changed for LeaseDuration by the candidate's
//! own clock since the candidate first saw it so (`observedTime`); otherwise it waits
//! RetryPeriod with jitter and tries again. The leader renews every RetryPeriod with a `PUT`
//! naming the version it last saw, falling back to a read after a conflict; if it has not
//! renewed by RenewDeadline after its last renewal's period, it stops leading
//! (`OnStoppedLeading`), and its program stops. A write already sent is not called back.

use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Lease, Outcome, TimerKind, SCRIPT_TIMEOUT_MS};
use crate::rng::Rng;
use crate::scenario::TokenKind;
use crate::time::{fmt, Micros, MS};
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
    /// When, by its own clock, it first saw that record (client-go's `observedTime`).
    observed_local: Micros,
    /// The record it last asked the API server to write.
    sent: Option<Record>,
    leading: bool,
    /// When, by its own clock, the leader stops leading unless it renews first.
    deadline_local: Micros,
    /// The request of the leader's try under way.
    renewing: Option<u64>,
    ticking: bool,
    releasing: bool,
}

impl Elector {
    pub fn new(t: Timing) -> Elector {
        Elector {
            t,
            observed: None,
            observed_local: 0,
            sent: None,
            leading: false,
            deadline_local: 0,
            renewing: None,
            ticking: false,
            releasing: false,
        }
    }

    /// How long a candidate waits between tries: RetryPeriod, plus up to `JITTER_FACTOR` of it
    /// (client-go's `wait.JitterUntil`).
    pub fn retry_delay(&self, rng: &mut Rng) -> Micros {
        let jitter_ms = (self.t.retry_us / MS) as f64 * super::JITTER_FACTOR;
        self.t.retry_us + rng.range_inclusive(0, (jitter_ms as i64 - 1).max(0)) * MS
    }

    /// One try (`tryAcquireOrRenew`): read the Lease.
    pub fn acquire(&mut self, timeout_ms: u64, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        k.send(Dest::Lock, |req| Payload::Kubernetes(Msg::Get { req }), Some(timeout_ms), cx, out);
    }

    /// Gives the Lease up (client-go's `release`, with `ReleaseOnCancel`): an empty holder.
    pub fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some((r, rv)) = self.observed.clone().filter(|_| self.leading) else { return false };
        self.leading = false;
        self.releasing = true;
        let record = Record { holder: String::new(), renew_local: cx.local, ..r };
        out.push(Effect::Event(EventKind::Releasing));
        k.send(Dest::Lock, |req| Payload::Kubernetes(Msg::Update { req, rv, record }), Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
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
            self.observed_local = cx.local;
        }
        self.observed = Some((r.clone(), rv));
    }

    fn write(
        &mut self,
        k: &mut Core,
        make: impl FnOnce(u64, Record) -> Msg,
        record: Record,
        timeout: Option<u64>,
        cx: &Cx,
        out: &mut Vec<Effect>,
    ) {
        self.sent = Some(record.clone());
        k.send(Dest::Lock, |req| Payload::Kubernetes(make(req, record)), timeout, cx, out);
    }

    /// The leader's next try at renewing, or the end of its leadership.
    pub fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if kind != TimerKind::KeepAlive {
            return None;
        }
        if !self.leading {
            self.ticking = false;
            return Some(Outcome::Waiting);
        }
        let left = self.deadline_local - cx.local;
        if left <= 0 {
            self.leading = false;
            self.ticking = false;
            return Some(Outcome::Lost(format!(
                "it has not renewed its Lease within the renew deadline ({}, by its own clock), so it stops leading",
                fmt(self.t.renew_deadline_us)
            )));
        }
        if self.renewing.is_some() {
            out.push(Effect::Event(EventKind::Kubernetes(Event::RenewFailed { holder: String::new(), left_us: left })));
        }
        let Some((r, rv)) = self.observed.clone() else { return Some(Outcome::Waiting) };
        let req = k.request();
        let record = self.mine(Some(&r), cx);
        self.sent = Some(record.clone());
        self.renewing = Some(req);
        out.push(Effect::Send(Dest::Lock, Payload::Kubernetes(Msg::Update { req, rv, record })));
        out.push(Effect::Timer(self.t.retry_us.min(left), TimerKind::KeepAlive));
        Some(Outcome::Waiting)
    }

    /// The API server's answers; `None` for any other message.
    pub fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let Payload::Kubernetes(m) = p else { return None };
        let renewal = |req: u64| self.renewing == Some(req);
        Some(match m {
            Msg::Done { req, rv, grant } if renewal(*req) => {
                self.renewing = None;
                self.renewed(*rv, *grant, cx, k, out);
                Outcome::Waiting
            }
            Msg::Conflict { req } if renewal(*req) => {
                // The slow path: read the Lease, then decide.
                let req = k.request();
                self.renewing = Some(req);
                out.push(Effect::Send(Dest::Lock, Payload::Kubernetes(Msg::Get { req })));
                Outcome::Waiting
            }
            Msg::Got { req, lease } if renewal(*req) => {
                self.renewing = None;
                match lease {
                    Some((r, rv)) if r.holder == cx.name => {
                        self.observe(r, *rv, cx);
                        let req = k.request();
                        let record = self.mine(Some(r), cx);
                        self.sent = Some(record.clone());
                        self.renewing = Some(req);
                        out.push(Effect::Send(Dest::Lock, Payload::Kubernetes(Msg::Update { req, rv: *rv, record })));
                    }
                    Some((r, rv)) => {
                        self.observe(r, *rv, cx);
                        let left_us = self.deadline_local - cx.local;
                        out.push(Effect::Event(EventKind::Kubernetes(Event::RenewFailed { holder: r.holder.clone(), left_us })));
                    }
                    None => {}
                }
                Outcome::Waiting
            }
            Msg::Got { req, lease } if k.waits_for(*req) && !self.releasing => match lease {
                None => {
                    let record = self.mine(None, cx);
                    self.write(k, |req, record| Msg::Create { req, record }, record, Some(SCRIPT_TIMEOUT_MS), cx, out);
                    Outcome::Waiting
                }
                Some((r, rv)) => {
                    self.observe(r, *rv, cx);
                    let unchanged_us = cx.local - self.observed_local;
                    if !r.holder.is_empty() && r.holder != cx.name && unchanged_us < self.t.lease_us {
                        out.push(Effect::Event(EventKind::Kubernetes(Event::Held { holder: r.holder.clone(), unchanged_us })));
                        return Some(Outcome::Refused);
                    }
                    let (record, rv) = (self.mine(Some(r), cx), *rv);
                    self.write(k, |req, record| Msg::Update { req, rv, record }, record, Some(SCRIPT_TIMEOUT_MS), cx, out);
                    Outcome::Waiting
                }
            },
            Msg::Done { req, rv, grant } if k.waits_for(*req) && !self.releasing => {
                self.leading = true;
                self.renewed(*rv, *grant, cx, k, out);
                let token = (cx.token == TokenKind::Counter).then(|| self.sent.as_ref().map_or(0, |r| r.transitions));
                let grant = grant.unwrap_or(cx.next_grant);
                let until_local = self.deadline_local;
                out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                k.lease = Some(Lease { owner: String::new(), token, grant, until_local });
                if !self.ticking {
                    self.ticking = true;
                    out.push(Effect::Timer(self.t.retry_us, TimerKind::KeepAlive));
                }
                Outcome::Acquired
            }
            Msg::Conflict { req } if k.waits_for(*req) && !self.releasing => Outcome::Refused,
            Msg::Done { req, .. } | Msg::Conflict { req } if k.waits_for(*req) => {
                self.releasing = false;
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: matches!(m, Msg::Done { .. }) }));
                Outcome::Released
            }
            _ => Outcome::Waiting,
        })
    }

    /// Its write went through: the record it sent is what it has seen, and its deadline moves.
    fn renewed(&mut self, rv: u64, _grant: Option<usize>, cx: &Cx, k: &mut Core, out: &mut Vec<Effect>) {
        if let Some(r) = self.sent.clone() {
            self.observed = Some((r, rv));
            self.observed_local = cx.local;
        }
        self.deadline_local = cx.local + self.t.retry_us + self.t.renew_deadline_us;
        if let Some(l) = &mut k.lease {
            l.until_local = self.deadline_local;
            out.push(Effect::Event(EventKind::Renewed { until_local_us: self.deadline_local }));
        }
    }
}

#[cfg(test)]
mod tests;
