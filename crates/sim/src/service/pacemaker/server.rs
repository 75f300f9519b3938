//! The pair's fence devices (STONITH): one per node, able to cut that node's power (a power
//! switch or a management board such as IPMI). Asked by the other node, a device cuts the
//! power at once, whatever the node is doing, and answers; the node's hold on the resource
//! ends with its power. A device is an actor on the network like the nodes: a request that
//! cannot reach it is lost, as GitHub's STONITH requests were in the network freeze (2012).

use crate::actor::{Effect, Env, Out};
use crate::msg::{Dest, Payload};
use crate::service::LockServer;
use crate::trace::ActorId;
use crate::wire::pacemaker::{Event, Msg};

/// The fence devices have no timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Timer {}

/// The two fence devices, and the nodes whose power each cuts.
#[derive(Clone, Debug)]
pub struct Fences {
    /// The nodes' lanes, in pair order.
    pub nodes: [ActorId; 2],
    /// Their fence devices' lanes, in the same order.
    pub devices: [ActorId; 2],
}

/// The fence devices keep nothing: a crash or pause of one loses nothing but its answers.
impl LockServer for Fences {
    type Timer = Timer;

    /// Where a node's message goes: `Node(i)` is node `i` of the pair, `Node(2 + i)` its fence
    /// device.
    fn route(&self, dest: Dest) -> Option<ActorId> {
        match dest {
            Dest::Node(i) if i < 2 => Some(self.nodes[i]),
            Dest::Node(i) if i < 4 => Some(self.devices[i - 2]),
            _ => None,
        }
    }

    /// Device `at` is asked to cut its node's power.
    fn on_message(&mut self, at: ActorId, from: ActorId, payload: Payload, _env: &dyn Env, out: &mut Out<Timer>) {
        let Payload::Pacemaker(Msg::PowerOff { req }) = payload else { return };
        let Some(i) = self.devices.iter().position(|&d| d == at) else { return };
        let node = self.nodes[i];
        out.push(Effect::Event { actor: at, kind: Event::PoweredOff { node }.into() });
        out.push(Effect::Crash(node));
        out.push(Effect::Send { from: at, to: from, payload: Payload::Pacemaker(Msg::Off { req }) });
    }
}

#[cfg(test)]
mod tests;
