//! The menu that opens where a lane is clicked: faults to add to that actor at that time.

use sim::scenario::fault_kinds::{Lane, FAULTS};
use sim::scenario::{Fault, Scenario};
use sim::time::{fmt, Micros};
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
    // Each kind of fault offers what fits the lane (its declaration, `FaultKind::menu`), in
    // the order of the kinds.
    let sends_to = p.run.sends_to(m.actor);
    let lane = Lane { name: &name, role: p.run.lane_role(m.actor), at_ms, sc: &p.scenario, sends_to: &sends_to };
    let mut offered = Vec::new();
    for kind in FAULTS {
        (kind.menu)(&lane, &mut offered);
    }
    let items: Vec<Html> = offered.into_iter().map(|(label, fault)| item(label, fault)).collect();
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
