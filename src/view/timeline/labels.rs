//! The lane names, as a sticky HTML column beside the timeline (so they stay in view when it
//! scrolls): each lane's name, its role (a consensus member says when it leads), its clock
//! when it differs from true time, and the lease it holds or keeps as a ring that drains
//! ([`draw::lease`]).

use draw::glyph;
use draw::layout::{Layout, LANE_GAP};
use draw::lease::{Countdown, Leases};
use sim::facts::Facts;
use sim::scenario::LockKind;
use sim::time::{fmt, Micros, MS};
use sim::Run;
use yew::prelude::*;

use crate::state::ByPtr;

/// What the lane labels draw (a plain function's arguments: they follow the cursor, and are
/// drawn again at every step with the timeline).
pub struct LabelsProps {
    pub layout: ByPtr<Layout>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    pub lock: LockKind,
    pub leases: ByPtr<Leases>,
    pub t_us: Micros,
}

/// A lease as a ring: full when granted, empty when it has run out (then ringed in the colour
/// of harm while its holder still believes); `said` is its tooltip and its spoken name.
pub(super) fn ring(c: &Countdown, said: String) -> Html {
    const R: f64 = 6.5;
    let around = 2.0 * std::f64::consts::PI * R;
    html! {
        <svg class={classes!("ring", (c.left_us <= Micros::ZERO).then_some("out"))} width="18" height="18" viewBox="0 0 18 18" role="img" aria-label={said.clone()}>
            <title>{ said }</title>
            <circle class="track" cx="9" cy="9" r={R.to_string()} />
            <circle class="left" cx="9" cy="9" r={R.to_string()} transform="rotate(-90 9 9)"
                    stroke-dasharray={format!("{:.2} {:.2}", c.fraction() * around, around)} />
        </svg>
    }
}

/// The lanes' labels at the cursor's time.
pub fn lane_labels(p: &LabelsProps) -> Html {
    crate::view::probe::rendered("LaneLabels");
    let t = p.t_us;
    let leader = p.facts.leader_at(t);
    let labels = p.layout.lanes.iter().map(|l| {
        let role = glyph::role_label(l.role, p.lock, leader == Some(l.actor));
        let local = p.run.local_at(l.actor, t);
        let clock = ((local - t).abs() >= MS).then(|| format!("clock {}", fmt(local)));
        let lease = p.leases.at(&p.run, l.actor, t);
        html! {
            // Over its lane and half the gap on either side: together the names are one column,
            // with no gap for what is scrolled under them to show through.
            <div class={classes!("lane-label", glyph::color_class(l.color), l.compact.then_some("compact"))} style={format!("top:{}px;height:{}px", l.y - LANE_GAP / 2.0, l.h + LANE_GAP)}>
                <strong>{ &l.name }</strong>
                <span class="role" title={role}>{ role }</span>
                if let Some(c) = clock { <span class="skew">{ c }</span> }
                if let Some(c) = lease { { ring(&c, c.describe(&l.name)) } }
            </div>
        }
    });
    html! { <div class="lane-labels">{ for labels }</div> }
}
