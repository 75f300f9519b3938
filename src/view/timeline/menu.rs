//! The menu that opens where a lane is clicked: faults to add to that actor at that time.

use sim::scenario::{fault, Fault, Scenario};
use sim::time::{fmt, Micros, Millis};
use sim::trace::Role;
use sim::Run;
use yew::prelude::*;

use crate::state::{ms_at, Action, ByPtr};

/// Where a lane was clicked: its actor, the true time there, and the point (for the menu).
#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    pub actor: usize,
    pub t: Micros,
    pub x: f64,
    pub y: f64,
    /// It opens upwards: there was not room for it below the click, in the window.
    pub up: bool,
}

/// What the lane menu draws (a plain function's arguments, as for the zoom bar).
pub struct MenuProps {
    pub menu: Menu,
    pub run: ByPtr<Run>,
    pub scenario: ByPtr<Scenario>,
    pub close: Callback<()>,
    pub dispatch: Callback<Action>,
    /// The menu's element: a press outside it closes it (`dismiss::use_dismiss`).
    pub node: NodeRef,
    /// The timeline's horizontal scroll and visible width: the menu is drawn outside the
    /// scroll box (which would clip it), over the visible part.
    pub scroll_left: f64,
    pub visible_width: f64,
}

/// The menu a click on a lane opens: the faults that can be added there, at that time.
pub fn lane_menu(p: &MenuProps) -> Html {
    let m = &p.menu;
    let actor = &p.run.actors[m.actor];
    let at_ms = ms_at(m.t);
    let item = |label: String, fault: Fault| {
        let (d, close) = (p.dispatch.clone(), p.close.clone());
        html! { <button class="menu-item" onclick={Callback::from(move |_| { d.emit(Action::AddFault(fault.clone())); close.emit(()); })}>{ label }</button> }
    };
    let name = actor.name.clone();
    let mut items = vec![
        item(
            format!("Pause {name} here for 5 s"),
            Fault::Pause(fault::Pause { actor: name.clone(), at_ms, duration_ms: Millis::new(5_000) }),
        ),
        item(format!("Crash {name} here"), Fault::Crash(fault::Crash { actor: name.clone(), at_ms })),
        item(
            format!("Jump {name}'s clock forward 10 s here"),
            Fault::ClockJump(fault::ClockJump { actor: name.clone(), at_ms, by_ms: 10_000 }),
        ),
    ];
    if actor.role != Role::Client {
        items.push(item(format!("Restart {name} here"), Fault::Restart(fault::Restart { actor: name.clone(), at_ms })));
    }
    items.push(item(
        format!("Cut {name} off for 5 s here"),
        Fault::Partition(fault::Partition { isolate: vec![name.clone()], from: Vec::new(), at_ms, duration_ms: Millis::new(5_000) }),
    ));
    // Only where a disk stall does something (not at a pair's fence devices).
    if actor.role.is_lock_server() && (<fault::DiskStall as fault::Kind>::KIND.fits)(&p.scenario) {
        items.push(item(
            format!("Stall {name}'s disk here for 3 s"),
            Fault::DiskStall(fault::DiskStall { actor: name.clone(), at_ms, duration_ms: Millis::new(3_000) }),
        ));
    }
    if actor.role == Role::Redis && p.scenario.lock.replica.is_some() {
        items.push(item("Fail over to the replica here".into(), Fault::Failover(fault::Failover { at_ms })));
    }
    if actor.role == Role::Client {
        // The lanes this client sends to in this run (a consensus client talks to the leader,
        // a ZooKeeper client to its server): a hold on another would hold nothing.
        let sends_to = |to: usize| p.run.intervals.messages.iter().any(|msg| msg.from == m.actor && msg.to == to);
        for peer in p.run.actors.iter().enumerate().filter(|(i, a)| a.role != Role::Client && sends_to(*i)).map(|(_, a)| a) {
            items.push(item(
                format!("Hold {name}'s next message to {} for 30 s", peer.name),
                Fault::Delay(fault::Delay { from: name.clone(), to: peer.name.clone(), at_ms, extra_ms: Millis::new(30_000), count: 1 }),
            ));
        }
    }
    let left = (m.x - p.scroll_left).min(p.visible_width - 260.0).max(0.0);
    let close = p.close.reform(|_: MouseEvent| ());
    html! {
        <div class="lane-menu" ref={p.node.clone()} role="group" aria-label={format!("Add a fault to {name} at {}", fmt(m.t))} data-keys="own"
             style={if m.up { format!("left:{left}px;top:{}px;transform:translateY(-100%)", m.y - 8.0) } else { format!("left:{left}px;top:{}px", m.y + 8.0) }}>
            <div class="menu-title">{ format!("At {} on {name}", fmt(m.t)) }</div>
            { for items }
            <button class="menu-item cancel" onclick={close}>{ "Cancel" }</button>
        </div>
    }
}
