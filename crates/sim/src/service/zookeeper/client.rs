//! The client side of ZooKeeper's lock recipe (SEMANTICS §5.1): open a session, create an
//! ephemeral sequential znode under `/lock`, list the children; the lowest holds the lock;
//! otherwise `exists` on the predecessor with a watch, and list again when it is deleted.
//! Pings every third of the session timeout keep the session. Like code that uses the recipe
//! without watching for `Expired` (or Curator's `LOST`), the client goes on after its session
//! ends until its own checks stop it. A retry after a lost reply picks up where the recipe was:
//! the same session and znode (the GUID in the znode's name does this for real clients). A
//! program that ends closes its session (`zk.close()`), rather than fall silent.

use super::Msg;
use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, Lease, Outcome, TimerKind, Wait, SCRIPT_TIMEOUT_MS};
use crate::scenario::TokenKind;
use crate::service::LockClient;
use crate::time::{Micros, Millis};
use crate::trace::{EventKind, QuorumEvent, Why};

/// A client's session and its place in the recipe.
#[derive(Clone, Debug, Default)]
pub struct Recipe {
    session: Option<u64>,
    /// Its znode's sequence number and creation zxid.
    znode: Option<(u64, u64)>,
    /// How long each request of an attempt waits for its reply.
    timeout_ms: Millis,
    /// When the last request or ping the session answered was sent, on the client's clock.
    heard_local: Micros,
    /// Pings not yet answered: (request, when sent on the client's clock).
    pings: Vec<(u64, Micros)>,
    pinging: bool,
    releasing: bool,
    /// The ensemble said the session expired (in answer to a ping): the next attempt opens a
    /// new one; a release still asks, and learns its znode is gone.
    expired: bool,
}

impl Recipe {
    fn next_request(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        let t = Some(self.timeout_ms);
        let msg = match (self.session, self.znode) {
            (None, _) => {
                let timeout_ms = cx.ttl_ms;
                k.send(Dest::Leader, |req| Payload::ZooKeeper(Msg::Connect { req, timeout_ms }), t, cx, out);
                return;
            }
            (Some(session), None) => move |req| Msg::Create { req, session },
            (Some(session), Some(_)) => {
                k.send(Dest::Leader, |req| Payload::ZooKeeper(Msg::GetChildren { req, session }), t, cx, out);
                return;
            }
        };
        k.send(Dest::Leader, |req| Payload::ZooKeeper(msg(req)), t, cx, out);
    }

    /// The children of `/lock`: the lowest holds the lock; otherwise watch the predecessor.
    fn listed(&mut self, children: &[u64], grant: Option<usize>, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Outcome {
        let (Some(session), Some((seq, czxid))) = (self.session, self.znode) else { return Outcome::Waiting };
        if !children.contains(&seq) {
            self.znode = None;
            return Outcome::Lost(Why::ZnodeGone);
        }
        match children.iter().copied().filter(|&c| c < seq).max() {
            None => {
                let until_local = self.heard_local + cx.ttl_ms.to_micros();
                let token = (cx.token == TokenKind::Counter).then_some(czxid);
                let grant = grant.unwrap_or(cx.next_grant);
                k.lease = Some(Lease { owner: 0, token, grant, until_local });
                out.push(Effect::Event(EventKind::Acquired { token, until_local_us: until_local, grant }));
                Outcome::Acquired
            }
            Some(pred) => {
                let t = Some(self.timeout_ms);
                k.send(Dest::Leader, |req| Payload::ZooKeeper(Msg::Exists { req, session, seq: pred }), t, cx, out);
                Outcome::Waiting
            }
        }
    }
}

/// A session renews itself with pings (validation refuses a renew step).
impl LockClient for Recipe {
    /// One attempt at the lock: the next step of the recipe from where it stands.
    fn acquire(&mut self, timeout_ms: Millis, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        self.timeout_ms = timeout_ms;
        self.releasing = false;
        if self.expired {
            (self.session, self.znode, self.expired) = (None, None, false);
        }
        self.next_request(k, cx, out);
    }

    /// Deletes its znode; `false` without one.
    fn release(&mut self, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let (Some(session), Some((seq, _))) = (self.session, self.znode) else { return false };
        self.releasing = true;
        out.push(Effect::Event(EventKind::Releasing));
        k.send(Dest::Leader, |req| Payload::ZooKeeper(Msg::Delete { req, session, seq }), Some(SCRIPT_TIMEOUT_MS), cx, out);
        true
    }

    /// The program has ended: it closes its session (`zk.close()`), which deletes any znode
    /// it still has, rather than fall silent and leave the session to expire a timeout later
    /// (SEMANTICS §5). The answer is not awaited. A session the ensemble said had expired is
    /// not closed again.
    fn close(&mut self, k: &mut Core, out: &mut Vec<Effect>) {
        let Some(session) = self.session.take() else { return };
        self.znode = None;
        if !self.expired {
            let req = k.request();
            out.push(Effect::Send(Dest::Leader, Payload::ZooKeeper(Msg::Close { req, session })));
        }
    }

    /// The next ping.
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        if kind != TimerKind::KeepAlive {
            return None;
        }
        let Some(session) = self.session else {
            self.pinging = false;
            return Some(Outcome::Waiting);
        };
        let req = k.request();
        self.pings.push((req, cx.local));
        out.push(Effect::Send(Dest::Leader, Payload::ZooKeeper(Msg::Ping { req, session })));
        out.push(Effect::Timer(cx.ttl_ms.to_micros() / 3, TimerKind::KeepAlive));
        Some(Outcome::Waiting)
    }

    /// The ensemble's messages; `None` for any other.
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let Payload::ZooKeeper(msg) = p else { return None };
        let answers = msg.req().is_some_and(|r| k.waits_for(r));
        let sent_local = match k.wait {
            Wait::Reply { sent_local, .. } => sent_local,
            _ => self.heard_local,
        };
        Some(match msg {
            Msg::Pong { req } => {
                // The session lives on from when the answered ping was sent.
                let Some(i) = self.pings.iter().position(|p| p.0 == *req) else { return Some(Outcome::Waiting) };
                let sent = self.pings[i].1;
                self.pings.drain(..=i);
                self.heard_local = self.heard_local.max(sent);
                if let Some(l) = &mut k.lease {
                    l.until_local = self.heard_local + cx.ttl_ms.to_micros();
                    out.push(Effect::Event(EventKind::Renewed { until_local_us: l.until_local }));
                }
                Outcome::Waiting
            }
            Msg::SessionExpired { .. } | Msg::NoNode { .. } if answers && self.releasing => {
                (self.znode, self.releasing) = (None, false);
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: false }));
                Outcome::Released
            }
            Msg::SessionExpired { .. } if answers => {
                (self.session, self.znode) = (None, None);
                Outcome::Lost(Why::ExpiredBeforeLock)
            }
            Msg::SessionExpired { .. } => {
                // A ping's answer: the client knows, but its program goes on until its own
                // checks stop it (it does not watch for the Expired event).
                if !self.expired {
                    out.push(Effect::Event(EventKind::NoticeIgnored { holding: k.lease.is_some() }));
                }
                self.expired = true;
                Outcome::Waiting
            }
            _ if !answers && !matches!(msg, Msg::Deleted { .. }) => Outcome::Waiting,
            Msg::Connected { session, .. } => {
                self.session = Some(*session);
                self.heard_local = sent_local;
                if !self.pinging {
                    self.pinging = true;
                    out.push(Effect::Timer(cx.ttl_ms.to_micros() / 3, TimerKind::KeepAlive));
                }
                self.next_request(k, cx, out);
                Outcome::Waiting
            }
            Msg::Created { seq, zxid, .. } => {
                self.znode = Some((*seq, *zxid));
                self.heard_local = sent_local;
                self.next_request(k, cx, out);
                Outcome::Waiting
            }
            Msg::Children { children, grant, .. } => {
                self.heard_local = sent_local;
                self.listed(children, *grant, k, cx, out)
            }
            Msg::ExistsReply { exists: true, .. } => {
                k.wait = Wait::Queued;
                let czxid = self.znode.map_or(0, |z| z.1);
                out.push(Effect::Event(EventKind::Quorum(QuorumEvent::Queued { rev: czxid })));
                Outcome::Waiting
            }
            // The predecessor went between the list and the exists: list again.
            Msg::ExistsReply { exists: false, .. } => {
                self.next_request(k, cx, out);
                Outcome::Waiting
            }
            Msg::Deleted { .. } if k.wait == Wait::Queued => {
                self.next_request(k, cx, out);
                Outcome::Waiting
            }
            Msg::DeleteOk { .. } => {
                self.znode = None;
                self.releasing = false;
                k.lease = None;
                out.push(Effect::Event(EventKind::Released { removed: true }));
                Outcome::Released
            }
            _ => Outcome::Waiting,
        })
    }
}

#[cfg(test)]
mod tests;
