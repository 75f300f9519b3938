//! The lane names, as a sticky HTML column beside the timeline (so they stay in view when it
//! scrolls): each lane's name, its role (a consensus member says when it leads), and its clock
//! when it differs from true time.

use draw::glyph;
use draw::layout::Layout;
use sim::facts::Facts;
use sim::scenario::LockKind;
use sim::time::{fmt, Micros, MS};
use sim::Run;
use yew::prelude::*;

use crate::state::ByPtr;

#[derive(Properties, PartialEq)]
pub struct LabelsProps {
    pub layout: ByPtr<Layout>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    pub lock: LockKind,
    pub t_us: Micros,
}

#[component]
pub fn LaneLabels(p: &LabelsProps) -> Html {
    crate::view::probe::rendered("LaneLabels");
    let t = p.t_us;
    let leader = p.facts.leader_at(t);
    let labels = p.layout.lanes.iter().map(|l| {
        let role = glyph::role_label(l.role, p.lock, leader == Some(l.actor));
        let local = p.run.local_at(l.actor, t);
        let clock = ((local - t).abs() >= MS).then(|| format!("clock {}", fmt(local)));
        html! {
            <div class={classes!("lane-label", glyph::color_class(l.color))} style={format!("top:{}px;height:{}px", l.y, l.h)}>
                <strong>{ &l.name }</strong>
                <span class="role">{ role }</span>
                if let Some(c) = clock { <span class="skew">{ c }</span> }
            </div>
        }
    });
    html! { <div class="lane-labels">{ for labels }</div> }
}
