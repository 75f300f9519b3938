//! The client side of the consensus lock, as etcd's `concurrency.Mutex` uses it (SEMANTICS §4):
//! a lock request creates a session lease and a key under the prefix; the reply says the
//! client holds the lock or is queued behind an earlier key; keepalives every TTL/3 keep the
//! session; unlock deletes the key. Like code that uses etcd's Mutex and never watches
//! `session.Done()`, the client goes on after its session ends until its own checks stop it.

use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Lease, Outcome, TimerKind, Wait, SCRIPT_TIMEOUT_MS};
use crate::scenario::TokenKind;
use crate::service::LockClient;
use crate::time::{Micros, Millis};
use crate::trace::{EventKind, QuorumEvent};
use crate::wire::consensus::Msg;

/// A client's session with the consensus service.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The session's lease id, while it has one.
    lease: Option<u64>,
    /// When the last keepalive (or lock request) that renewed the lease was sent.
    renewed_local: Micros,
    ka_sent_local: Micros,
    keepalives: bool,
    /// When it first asked for the lock without a session: a retry may be answered with the
    /// lease its first request created, so the lease is counted from then.
    asked_local: Option<Micros>,
}

impl Session {
    /// Starts the keepalives of a session whose lease was asked for at `renewed_local`.
    ///
    /// They are timed from the session, not from this reply: etcd's `concurrency.NewSession`
    /// starts `KeepAlive` when the lease is granted, before `Mutex.Lock`, and its loop sends a
    /// keepalive as soon as one is due (client/v3/lease.go: a new lease's next keepalive is due
    /// at once; the loop ticks every 500 ms and then waits TTL/3). A reply that reaches a client
    /// after a pause therefore finds its first keepalive overdue, and it goes out at once.
    fn start_keepalives(&mut self, cx: &Cx, out: &mut Vec<Effect>) {
        if !self.keepalives {
            self.keepalives = true;
            let due_local = self.renewed_local + cx.ttl_ms.to_micros() / 3;
            out.push(Effect::Timer((due_local - cx.local).max(Micros::ZERO), TimerKind::KeepAlive));
        }
    }
}

/// A session renews itself with keepalives (validation refuses a renew step).
impl LockClient for Session {
    fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        let ttl_ms = cx.ttl_ms;
        if self.lease.is_none() {
            self.asked_local.get_or_insert(cx.local);
        }
        k.send(Dest::Leader, |req| Payload::Consensus(Msg::Lock { req, ttl_ms }), Some(timeout_ms), cx, out);
    }

    /// Deletes its key; `false` without a session.
    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some(lease) = self.lease else { return false };
        out.push(Effect::Event(EventKind::Releasing));
        k.send(Dest::Leader, |req| Payload::Consensus(Msg::Unlock { req, lease }), Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
    }

    /// The next keepalive.
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if kind != TimerKind::KeepAlive {
            return None;
        }
        let Some(lease) = self.lease else {
            self.keepalives = false;
            return Some(Outcome::Waiting);
        };
        let req = k.request();
        self.ka_sent_local = cx.local;
        out.push(Effect::Send(Dest::Leader, Payload::Consensus(Msg::KeepAlive { req, lease })));
        out.push(Effect::Timer(cx.ttl_ms.to_micros() / 3, TimerKind::KeepAlive));
        Some(Outcome::Waiting)
    }

    /// The service's messages; `None` for any other.
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let queued = k.wait == Wait::Queued;
        let sent_local = match k.wait {
            Wait::Reply { sent_local, .. } => Some(sent_local),
            _ => None,
        };
        Some(match *p {
            Payload::Consensus(Msg::KeepAliveOk { .. }) => {
                self.renewed_local = self.ka_sent_local;
                if let Some(l) = &mut k.lease {
                    l.until_local = self.renewed_local + cx.ttl_ms.to_micros();
                    out.push(Effect::Event(EventKind::Renewed { until_local_us: l.until_local }));
                }
                Outcome::Waiting
            }
            Payload::Consensus(Msg::LeaseNotFound { .. }) => {
                // Its program goes on: it does not watch `session.Done()`.
                if self.lease.take().is_some() {
                    out.push(Effect::Event(EventKind::NoticeIgnored { holding: k.lease.is_some() }));
                }
                Outcome::Waiting
            }
            Payload::Consensus(Msg::Queued { req, rev, lease }) if k.waits_for(req) => {
                self.renewed_local = self.asked_local.take().or(sent_local).unwrap_or(self.renewed_local);
                self.lease = Some(lease);
                self.start_keepalives(cx, out);
                k.wait = Wait::Queued;
                out.push(Effect::Event(EventKind::Quorum(QuorumEvent::Queued { rev })));
                Outcome::Waiting
            }
            Payload::Consensus(Msg::Locked { req, rev, lease, grant }) if k.waits_for(req) || queued => {
                self.renewed_local = self.asked_local.take().or(sent_local).unwrap_or(self.renewed_local);
                self.lease = Some(lease);
                self.start_keepalives(cx, out);
                let until_local = self.renewed_local + cx.ttl_ms.to_micros();
                let token = (cx.token == TokenKind::Counter).then_some(rev);
                k.lease = Some(Lease { owner: 0, token, grant, until_local });
                out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                Outcome::Acquired
            }
            Payload::Consensus(Msg::SessionExpired { req }) if k.waits_for(req) || queued => {
                self.lease = None;
                Outcome::Lost(crate::trace::Why::ExpiredWaiting)
            }
            Payload::Consensus(Msg::Unlocked { req, deleted }) if k.waits_for(req) => {
                self.lease = None;
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: deleted }));
                Outcome::Released
            }
            Payload::Consensus(Msg::Queued { .. })
            | Payload::Consensus(Msg::Locked { .. })
            | Payload::Consensus(Msg::SessionExpired { .. })
            | Payload::Consensus(Msg::Unlocked { .. }) => Outcome::Waiting,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests;
