//! A node of the pair, as Heartbeat and Pacemaker run it for the program on it: it sends its
//! peer a heartbeat every `keepalive`, and on each one checks when it last heard the peer. When
//! it has heard nothing for `deadtime` (by its own monotonic clock) it declares the peer dead
//! and asks the peer's fence device to cut the peer's power (STONITH), again every stonith
//! timeout until the device confirms. The first node is the preferred one: it becomes active
//! when its program asks, unless it hears its peer is; the second becomes active when the first
//! has given the resource up, left the cluster, or been declared dead: at once, as GitHub's pairs
//! did (2012), or only once its fence device has confirmed the power cut (`fence_first`, what
//! Pacemaker with `stonith-enabled` and DRBD's `fencing resource-and-stonith` require). A node
//! that is active stays active until it gives the resource up or its power is cut: nothing in a
//! heartbeat takes the resource from it.

use crate::msg::{Dest, Payload};
use crate::proto::{Core, Cx, Effect, GrantFx, Lease, Outcome, TimerKind, NO_LEASE_US};
use crate::service::LockClient;
use crate::time::{Micros, Millis};
use crate::trace::{ActorId, EventKind};
use crate::wire::pacemaker::{Event, Msg};

/// Heartbeat's and Pacemaker's timings, in microseconds, and the takeover rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub keepalive_us: Micros,
    pub deadtime_us: Micros,
    pub stonith_timeout_us: Micros,
    /// Take over only once the peer's power cut is confirmed.
    pub fence_first: bool,
}

/// What a node knows of its peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Peer {
    /// Heard from within the deadtime (or not yet due), active as its last heartbeat said;
    /// `gave_up` once it has said standby after saying active.
    Alive { active: bool, gave_up: bool },
    /// Left the cluster cleanly.
    Left,
    /// Declared dead: fencing under way, last asked at `asked_mono`; `back` once heard again.
    Dead { asked_mono: Micros, back: bool },
    /// Its power is cut: the fence device said so.
    Fenced,
}

/// A node's state.
#[derive(Clone, Debug)]
pub struct Node {
    t: Timing,
    /// The names of the pair's two nodes, in lane order.
    names: [String; 2],
    /// Its own lane and its peer's, once it has started.
    lanes: Option<(ActorId, ActorId)>,
    peer: Peer,
    /// When it last heard its peer, by its monotonic clock.
    heard_mono: Micros,
    active: bool,
    /// Its program waits to become active.
    wants: bool,
    releasing: bool,
}

impl Node {
    pub fn new(t: Timing, names: [String; 2]) -> Node {
        let peer = Peer::Alive { active: false, gave_up: false };
        Node { t, names, lanes: None, peer, heard_mono: Micros::ZERO, active: false, wants: false, releasing: false }
    }

    /// Whether it may become active now.
    fn may_take(&self, me: ActorId) -> bool {
        match self.peer {
            Peer::Fenced | Peer::Left => true,
            Peer::Dead { .. } => !self.t.fence_first,
            Peer::Alive { active, gave_up } => (me == 0 && !active) || gave_up,
        }
    }

    /// Becomes active if its program waits for it and it may; the program's outcome.
    fn decide(&mut self, me: ActorId, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Outcome {
        if !self.wants || self.active || !self.may_take(me) {
            return Outcome::Waiting;
        }
        (self.active, self.wants) = (true, false);
        let (grant, until_local) = (cx.next_grant, cx.local + NO_LEASE_US);
        k.lease = Some(Lease { owner: k.owner, token: None, grant, until_local });
        out.push(Effect::Event(EventKind::Acquired { token: None, until_local_us: until_local, grant }));
        out.push(Effect::Grant(GrantFx::Won { grant, token: None, until_local, votes: Vec::new() }));
        Outcome::Acquired
    }

    /// Asks the peer's fence device (lane 2 + the peer's) to cut the peer's power.
    fn fence(&mut self, peer: ActorId, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        self.peer = Peer::Dead { asked_mono: cx.mono, back: matches!(self.peer, Peer::Dead { back: true, .. }) };
        let req = k.request();
        out.push(Effect::Send(Dest::Node(2 + peer), Payload::Pacemaker(Msg::PowerOff { req })));
    }
}

/// A node sends its heartbeats by itself (validation refuses a renew step).
impl LockClient for Node {
    /// Its program asks to run the resource: the next heartbeat decides (the first, at once).
    fn acquire(&mut self, _timeout_ms: Millis, _k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) {
        self.wants = true;
        if self.lanes.is_none() {
            let me = usize::from(self.names[0] != cx.name);
            self.lanes = Some((me, 1 - me));
            self.heard_mono = cx.mono;
            out.push(Effect::Timer(Micros::ZERO, TimerKind::KeepAlive));
        }
    }

    /// Its program gives the resource up: its next heartbeats say standby.
    fn release(&mut self, k: &mut Core, _cx: &Cx, out: &mut Vec<Effect>) -> bool {
        let Some(lease) = k.lease.take() else { return false };
        (self.active, self.releasing) = (false, true);
        out.push(Effect::Event(EventKind::Releasing));
        out.push(Effect::Grant(GrantFx::Released { grant: lease.grant }));
        out.push(Effect::Timer(Micros::ZERO, TimerKind::Retry));
        true
    }

    /// Its program has ended: it gives the resource up, if it ran it (its grant ends here; it
    /// has no lease to run out later), and leaves the cluster cleanly, so that its peer does not
    /// fence it.
    fn close(&mut self, k: &mut Core, out: &mut Vec<Effect>) {
        if let Some(lease) = k.lease.take() {
            self.active = false;
            out.push(Effect::Grant(GrantFx::Released { grant: lease.grant }));
        }
        if let Some((_, peer)) = self.lanes.take() {
            out.push(Effect::Send(Dest::Node(peer), Payload::Pacemaker(Msg::Leaving)));
        }
    }

    /// Each keepalive: check the peer's silence, decide, send the heartbeat.
    fn on_timer(&mut self, kind: TimerKind, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        match kind {
            TimerKind::Retry if self.releasing => {
                self.releasing = false;
                out.push(Effect::Event(EventKind::Released { removed: true }));
                return Some(Outcome::Released);
            }
            TimerKind::KeepAlive => {}
            _ => return None,
        }
        let (me, peer) = self.lanes?;
        let silent_us = cx.mono - self.heard_mono;
        match self.peer {
            Peer::Alive { .. } if silent_us >= self.t.deadtime_us => {
                out.push(Effect::Event(Event::PeerDead { peer, silent_us, active: self.active }.into()));
                self.fence(peer, k, cx, out);
            }
            Peer::Dead { asked_mono, .. } if cx.mono - asked_mono >= self.t.stonith_timeout_us => {
                out.push(Effect::Event(Event::FenceAgain { peer }.into()));
                self.fence(peer, k, cx, out);
            }
            _ => {}
        }
        let o = self.decide(me, k, cx, out);
        out.push(Effect::Send(Dest::Node(peer), Payload::Pacemaker(Msg::Heartbeat { active: self.active })));
        out.push(Effect::Timer(self.t.keepalive_us, TimerKind::KeepAlive));
        Some(o)
    }

    /// Its peer's heartbeats and farewell, and the fence device's answer.
    fn on_message(&mut self, p: &Payload, k: &mut Core, cx: &Cx, out: &mut Vec<Effect>) -> Option<Outcome> {
        let Payload::Pacemaker(m) = p else { return None };
        let (me, peer) = self.lanes?;
        match (*m, self.peer) {
            (Msg::Heartbeat { active }, Peer::Alive { active: was, gave_up }) => {
                self.heard_mono = cx.mono;
                self.peer = Peer::Alive { active, gave_up: gave_up || (was && !active) };
            }
            (Msg::Heartbeat { active }, Peer::Dead { asked_mono, back: false }) => {
                self.heard_mono = cx.mono;
                self.peer = Peer::Dead { asked_mono, back: true };
                out.push(Effect::Event(Event::PeerBack { peer, active }.into()));
            }
            (Msg::Heartbeat { .. }, Peer::Left) => {
                self.heard_mono = cx.mono;
                self.peer = Peer::Alive { active: false, gave_up: false };
            }
            (Msg::Leaving, Peer::Alive { .. }) => {
                self.peer = Peer::Left;
                out.push(Effect::Event(Event::PeerLeft { peer }.into()));
            }
            (Msg::Off { .. }, Peer::Dead { .. }) => {
                self.peer = Peer::Fenced;
                out.push(Effect::Event(Event::Fenced { peer }.into()));
            }
            (Msg::Heartbeat { .. }, Peer::Dead { .. }) => self.heard_mono = cx.mono,
            _ => return Some(Outcome::Waiting),
        }
        Some(self.decide(me, k, cx, out))
    }
}

#[cfg(test)]
mod tests;
