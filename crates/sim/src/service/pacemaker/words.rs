//! The sentences of a Pacemaker pair, made when an event is shown.

use crate::scenario::Scenario;
use crate::time::fmt;
use crate::trace::{ActorId, EventKind};
use crate::wire::pacemaker::Event;

/// The sentence for an event a pair words its own way (`None`: a common one).
pub fn narrate(_sc: &Scenario, me: &str, kind: &EventKind) -> Option<String> {
    Some(match kind {
        EventKind::Acquired { .. } => format!(
            "{me} becomes active: it runs the pair's resource and writes its data. Nothing ends that but its own choice or a cut to its power: a node of a pair holds no lease."
        ),
        EventKind::Releasing => format!("{me} gives the resource up: its next heartbeats say standby."),
        EventKind::Released { .. } => format!("{me} is standby now."),
        _ => return None,
    })
}

/// Its own events, in its words.
impl crate::service::Words for Event {
    fn words(&self, sc: &Scenario, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        let l = &sc.lock;
        let (deadtime, stonith) = (fmt(l.ttl_ms.to_micros()), fmt(l.stonith_timeout_ms.to_micros()));
        match *self {
            Event::PeerDead { peer, silent_us, active } => {
                let p = name(peer);
                let then = match (active, l.fence_first) {
                    (true, _) => format!("{me} is active and stays so"),
                    (false, true) => format!("{me} will take over only once {p}'s power cut is confirmed"),
                    (false, false) => format!("{me} takes over now if its program asks, without waiting for the answer"),
                };
                format!(
                    "{me} has heard nothing from {p} for {}, its deadtime ({deadtime}) or more: it declares {p} dead and asks {p}'s fence device to cut {p}'s power (STONITH). A timeout is all it knows: {p} may be running. {then}.",
                    fmt(silent_us)
                )
            }
            Event::FenceAgain { peer } => format!(
                "{me}'s request to power {} off has gone unanswered for the stonith timeout ({stonith}): it asks again.",
                name(peer)
            ),
            Event::PeerBack { peer, active } => {
                let p = name(peer);
                let state = if active { "active" } else { "standby" };
                format!("{me} hears {p} again ({state}), but it has declared {p} dead: it goes on asking for {p}'s power to be cut.")
            }
            Event::PeerLeft { peer } => format!("{} has left the cluster cleanly: {me} need not fence it.", name(peer)),
            Event::PoweredOff { node } => {
                format!("{me} cuts {}'s power: whatever {} was doing stops, and it holds nothing any more.", name(node), name(node))
            }
            Event::Fenced { peer } => format!("{me} learns that {}'s power is cut: {} cannot write any more.", name(peer), name(peer)),
        }
    }
}
