//! A node as inputs → effects: Heartbeat's and Pacemaker's rules, one by one.

use super::*;
use crate::service::LockClient;
use crate::scenario::TokenKind;
use crate::trace::ServiceEvent;
use crate::time::{Micros, Millis};

const S: Micros = Micros::us(1_000_000);

fn t(fence_first: bool) -> Timing {
    Timing { keepalive_us: S, deadtime_us: 10 * S, stonith_timeout_us: 60 * S, fence_first }
}

fn node(fence_first: bool) -> Node {
    Node::new(t(fence_first), ["A".into(), "B".into()])
}

fn cx(name: &'static str, at: Micros) -> Cx<'static> {
    Cx { local: at, mono: at, name, ttl_ms: Millis::new(10_000), token: TokenKind::None, next_grant: 5, next_token: None }
}

/// The node's heartbeat at `at` (its program having asked for the resource first, at 0).
fn tick(n: &mut Node, k: &mut Core, name: &'static str, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = n.on_timer(TimerKind::KeepAlive, k, &cx(name, at), &mut out);
    (o, out)
}

fn hear(n: &mut Node, k: &mut Core, m: Msg, name: &'static str, at: Micros) -> (Option<Outcome>, Vec<Effect>) {
    let mut out = Vec::new();
    let o = n.on_message(&Payload::Pacemaker(m), k, &cx(name, at), &mut out);
    (o, out)
}

fn started(name: &'static str, fence_first: bool) -> (Node, Core) {
    let (mut n, k) = (node(fence_first), Core::default());
    let mut out = Vec::new();
    n.acquire(Millis::new(0), &mut Core::default(), &cx(name, Micros::ZERO), &mut out);
    assert_eq!(out, vec![Effect::Timer(Micros::ZERO, TimerKind::KeepAlive)], "the first heartbeat is at once");
    (n, k)
}

fn events(out: &[Effect]) -> Vec<Event> {
    out.iter()
        .filter_map(|e| match e {
            Effect::Event(EventKind::Service(ServiceEvent::Pacemaker(e))) => Some(*e),
            _ => None,
        })
        .collect()
}

fn power_off_to(out: &[Effect]) -> Option<usize> {
    out.iter().find_map(|e| match e {
        Effect::Send(Dest::Node(d), Payload::Pacemaker(Msg::PowerOff { .. })) => Some(*d),
        _ => None,
    })
}

#[test]
fn the_preferred_node_becomes_active_at_once_and_the_other_waits() {
    let (mut a, mut ka) = started("A", false);
    let (o, out) = tick(&mut a, &mut ka, "A", Micros::ZERO);
    assert_eq!(o, Some(Outcome::Acquired));
    assert!(out.contains(&Effect::Send(Dest::Node(1), Payload::Pacemaker(Msg::Heartbeat { active: true }))));
    assert!(out.contains(&Effect::Timer(S, TimerKind::KeepAlive)));
    assert!(matches!(&out[..], [Effect::Event(EventKind::Acquired { token: None, grant: 5, .. }), Effect::Grant(GrantFx::Won { grant: 5, .. }), ..]));
    let (mut b, mut kb) = started("B", false);
    let (o, out) = tick(&mut b, &mut kb, "B", Micros::ZERO);
    assert_eq!(o, Some(Outcome::Waiting));
    assert!(out.contains(&Effect::Send(Dest::Node(0), Payload::Pacemaker(Msg::Heartbeat { active: false }))));
    // A standby's heartbeat before A's first one: B still waits.
    assert_eq!(hear(&mut b, &mut kb, Msg::Heartbeat { active: true }, "B", S).0, Some(Outcome::Waiting));
}

#[test]
fn a_silent_peer_is_declared_dead_at_the_deadtime_and_taken_over_without_waiting() {
    let (mut b, mut k) = started("B", false);
    hear(&mut b, &mut k, Msg::Heartbeat { active: true }, "B", 2 * S);
    // 9.5 s of silence: not yet.
    assert_eq!(tick(&mut b, &mut k, "B", 2 * S + Micros::us(9_500_000)).0, Some(Outcome::Waiting));
    let (o, out) = tick(&mut b, &mut k, "B", 12 * S);
    assert_eq!(events(&out), vec![Event::PeerDead { peer: 0, silent_us: 10 * S, active: false }]);
    assert_eq!(power_off_to(&out), Some(2), "A's fence device is lane 2 + A's");
    assert_eq!(o, Some(Outcome::Acquired), "it takes over without the answer");
}

#[test]
fn fenced_first_it_takes_over_only_once_the_power_cut_is_confirmed() {
    let (mut b, mut k) = started("B", true);
    hear(&mut b, &mut k, Msg::Heartbeat { active: true }, "B", Micros::ZERO);
    let (o, out) = tick(&mut b, &mut k, "B", 10 * S);
    assert_eq!(o, Some(Outcome::Waiting));
    assert_eq!(power_off_to(&out), Some(2));
    // Heard again: the fencing goes on, and it still waits.
    let (o, out) = hear(&mut b, &mut k, Msg::Heartbeat { active: true }, "B", 11 * S);
    assert_eq!((o, events(&out)), (Some(Outcome::Waiting), vec![Event::PeerBack { peer: 0, active: true }]));
    assert_eq!(hear(&mut b, &mut k, Msg::Heartbeat { active: true }, "B", 12 * S).1, vec![], "said once");
    let (o, out) = hear(&mut b, &mut k, Msg::Off { req: 0 }, "B", 13 * S);
    assert_eq!(events(&out), vec![Event::Fenced { peer: 0 }]);
    assert_eq!(o, Some(Outcome::Acquired));
}

#[test]
fn an_unanswered_fencing_request_is_sent_again_after_the_stonith_timeout() {
    let (mut a, mut k) = started("A", true);
    assert_eq!(tick(&mut a, &mut k, "A", Micros::ZERO).0, Some(Outcome::Acquired));
    let (_, out) = tick(&mut a, &mut k, "A", 10 * S);
    assert_eq!(events(&out), vec![Event::PeerDead { peer: 1, silent_us: 10 * S, active: true }]);
    assert_eq!(power_off_to(&out), Some(3));
    assert_eq!(power_off_to(&tick(&mut a, &mut k, "A", 69 * S).1), None);
    let (o, out) = tick(&mut a, &mut k, "A", 70 * S);
    assert_eq!((events(&out), power_off_to(&out)), (vec![Event::FenceAgain { peer: 1 }], Some(3)));
    assert_eq!(o, Some(Outcome::Waiting), "an active node stays active");
}

#[test]
fn a_peer_that_leaves_cleanly_is_not_fenced_and_a_release_hands_the_resource_over() {
    let (mut a, mut ka) = started("A", false);
    tick(&mut a, &mut ka, "A", Micros::ZERO);
    let mut out = Vec::new();
    assert!(a.release(&mut ka, &cx("A", Micros::ZERO), &mut out));
    assert!(matches!(&out[..], [Effect::Event(EventKind::Releasing), Effect::Grant(GrantFx::Released { grant: 5 }), Effect::Timer(Micros::ZERO, TimerKind::Retry)]));
    let mut out = Vec::new();
    assert_eq!(a.on_timer(TimerKind::Retry, &mut ka, &cx("A", Micros::ZERO), &mut out), Some(Outcome::Released));
    let mut out = Vec::new();
    a.close(&mut ka, &mut out);
    assert_eq!(out, vec![Effect::Send(Dest::Node(1), Payload::Pacemaker(Msg::Leaving))], "nothing left to give up");

    // B saw A active, then standby: it takes over; and a peer that left is never fenced.
    let (mut b, mut kb) = started("B", true);
    hear(&mut b, &mut kb, Msg::Heartbeat { active: true }, "B", S);
    assert_eq!(hear(&mut b, &mut kb, Msg::Heartbeat { active: false }, "B", 2 * S).0, Some(Outcome::Acquired));
    let (mut c, mut kc) = started("B", true);
    let (o, out) = hear(&mut c, &mut kc, Msg::Leaving, "B", S);
    assert_eq!((o, events(&out)), (Some(Outcome::Acquired), vec![Event::PeerLeft { peer: 0 }]));
    assert_eq!(power_off_to(&tick(&mut c, &mut kc, "B", 30 * S).1), None);
}

/// A node whose program ends while it runs the resource gives it up as it leaves: its grant
/// ends then (it has no lease that would end it later), so its peer's takeover is no double grant.
#[test]
fn a_node_that_ends_while_active_gives_the_resource_up_as_it_leaves() {
    let (mut a, mut ka) = started("A", false);
    assert_eq!(tick(&mut a, &mut ka, "A", Micros::ZERO).0, Some(Outcome::Acquired));
    let mut out = Vec::new();
    a.close(&mut ka, &mut out);
    let leaving = Effect::Send(Dest::Node(1), Payload::Pacemaker(Msg::Leaving));
    assert_eq!(out, vec![Effect::Grant(GrantFx::Released { grant: 5 }), leaving]);
    assert!(ka.lease.is_none());
}
