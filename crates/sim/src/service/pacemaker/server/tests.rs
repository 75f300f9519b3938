//! The fence devices: a request cuts that device's node's power (the crash ends a hold that has
//! no lease: the world's crash) and is answered.

use super::*;
use crate::service::LockServer;
use crate::actor::testing::FakeEnv;
use crate::actor::Effect;

#[test]
fn a_device_cuts_its_own_nodes_power_and_answers() {
    let mut f = Fences { nodes: [0, 1], devices: [2, 3] };
    assert_eq!((f.route(Dest::Node(1)), f.route(Dest::Node(2)), f.route(Dest::Node(4)), f.route(Dest::Lock)), (Some(1), Some(2), None, None));
    let mut out = Vec::new();
    f.on_message(3, 0, Payload::Pacemaker(Msg::PowerOff { req: 7 }), &FakeEnv::new(&["A", "B", "fence-a", "fence-b"]), &mut out);
    assert_eq!(
        out,
        vec![
            Effect::Event { actor: 3, kind: Event::PoweredOff { node: 1 }.into() },
            Effect::Crash(1),
            Effect::Send { from: 3, to: 0, payload: Payload::Pacemaker(Msg::Off { req: 7 }) },
        ]
    );
    let mut out = Vec::new();
    f.on_message(3, 0, Payload::Pacemaker(Msg::Heartbeat { active: true }), &FakeEnv::new(&["A", "B", "fence-a", "fence-b"]), &mut out);
    assert!(out.is_empty(), "a device only cuts power");
}
