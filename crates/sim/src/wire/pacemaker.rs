//! What a Pacemaker/Heartbeat pair sends and records (the service is `service/pacemaker/`).
//!
//! The two nodes send each other heartbeats (Heartbeat's `keepalive`); a node that has heard
//! nothing from its peer for `deadtime` declares it dead and asks the peer's fence device to
//! cut its power (STONITH: shoot the other node in the head).

use serde::Serialize;

use crate::time::Micros;

/// A message between the two nodes, or between a node and a fence device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    /// A node's heartbeat: whether it runs the pair's resource (is active) now.
    Heartbeat { active: bool },
    /// A node leaves the cluster cleanly (its program has ended): its peer need not fence it.
    Leaving,
    /// STONITH: a node asks its peer's fence device to cut the peer's power.
    PowerOff { req: u64 },
    /// The fence device has cut the power.
    Off { req: u64 },
}

impl Msg {
    /// How the message is written on its arrow.
    pub fn describe(&self) -> String {
        match self {
            Msg::Heartbeat { active: true } => "heartbeat: active".into(),
            Msg::Heartbeat { active: false } => "heartbeat: standby".into(),
            Msg::Leaving => "leaving the cluster".into(),
            Msg::PowerOff { .. } => "STONITH: power off".into(),
            Msg::Off { .. } => "powered off".into(),
        }
    }
}

/// An event of a Pacemaker pair. `node` and `peer` name a node by its lane (the pair's nodes are
/// the scenario's two clients, lanes 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "pacemaker", rename_all = "kebab-case")]
pub enum Event {
    /// The node has heard nothing from `peer` for `silent_us` by its own clock, its deadtime
    /// or more: it declares the peer dead and asks the peer's fence device to power it off.
    /// `active`: whether the node was active then.
    PeerDead { peer: usize, silent_us: Micros, active: bool },
    /// The node asks again: its fencing request has gone unanswered for the stonith timeout.
    FenceAgain { peer: usize },
    /// The node hears `peer` again after declaring it dead: the fencing goes on.
    PeerBack { peer: usize, active: bool },
    /// `peer` has left the cluster cleanly.
    PeerLeft { peer: usize },
    /// The fence device has cut `node`'s power.
    PoweredOff { node: usize },
    /// The fence device confirms that `peer` is off.
    Fenced { peer: usize },
}

impl Event {
    /// A pair hands out no tokens.
    pub fn token(&self) -> Option<u64> {
        None
    }

    /// The word a key moment matches, and whose the event is (`actor` for a node's own).
    pub fn tag(&self, actor: usize) -> (&'static str, usize) {
        match *self {
            Event::PeerDead { .. } => ("peer-dead", actor),
            Event::FenceAgain { .. } => ("fence-again", actor),
            Event::PeerBack { .. } => ("peer-back", actor),
            Event::PeerLeft { .. } => ("peer-left", actor),
            Event::PoweredOff { node } => ("powered-off", node),
            Event::Fenced { .. } => ("fenced", actor),
        }
    }
}
