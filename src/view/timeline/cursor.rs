//! What moves with the cursor: the dots of messages in flight ([`dots`]), the veil over the
//! future ([`veil`]) and the cursor line ([`cursor_line`]), and the markers of key moments and
//! violations ([`Markers`], which predict mode hides ahead of the cursor). The first three are
//! plain functions: they are drawn again at every step anyway, with the timeline.

use draw::glyph;
use draw::layout::{Layout, AXIS};
use sim::facts::Facts;
use sim::time::Micros;
use sim::Run;
use yew::prelude::*;

use super::shape::{inside, shape};
use crate::state::{Action, ByPtr, ZoomTo};

/// While the cursor (at `t`) is between a message's send and its arrival, a dot travels along it.
pub fn dots(layout: &Layout, t: Micros) -> Html {
    crate::view::probe::rendered("Dots");
    let dots = layout.arrows.iter().filter(|a| a.sent_us <= t && t < a.arrived_us).map(|a| {
        let f = (t - a.sent_us).as_f64() / (a.arrived_us - a.sent_us).max(Micros::us(1)).as_f64();
        let (x, y) = a.point(f);
        html! { <circle class="msg-dot" cx={x.to_string()} cy={y.to_string()} r="4" /> }
    });
    html! { <g class="msg-dots">{ for dots }</g> }
}

/// The veil over what has not happened yet, from the cursor on (at `t`, step `cursor`: the
/// events up to it have happened); the event at the cursor is cut out of it and drawn whole, or
/// in predict mode (`hide`: it is what a question asks about) covered (`glyph::veil`).
pub fn veil(layout: &Layout, t: Micros, cursor: usize, hide: bool) -> Html {
    let veil = glyph::veil(layout, t, cursor, hide);
    html! { <g class="veil-layer" pointer-events="none">{ shape(&veil) }</g> }
}

/// The cursor line at `t`, labelled with its true time.
pub fn cursor_line(layout: &Layout, t: Micros) -> Html {
    crate::view::probe::rendered("Cursor");
    let g = glyph::cursor(layout, layout.x(t), t);
    html! { <g class={g.class.clone()} pointer-events="none">{ inside(&g) }</g> }
}

#[derive(Properties, PartialEq)]
pub struct MarkersProps {
    pub layout: ByPtr<Layout>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    /// Predict mode: only the key moments up to this step, and no violations.
    pub upto: Option<usize>,
    pub dispatch: Callback<Action>,
}

/// Markers above the axis: key moments, and violations; clicking one jumps there, and a
/// double click zooms in around it. A moment and a violation of one event, or of one instant,
/// are one marker. Markers closer than their width are one marker too, drawn as two triangles,
/// which names them all and zooms in at a click, where they stand apart.
#[component]
pub fn Markers(p: &MarkersProps) -> Html {
    crate::view::probe::rendered("Markers");
    let moments = p.facts.moments().iter().filter(|&&i| p.upto.is_none_or(|c| i <= c)).map(|&i| (i, false));
    let violations = p.facts.violations().iter().filter(|_| p.upto.is_none()).map(|&i| (i, true));
    let mut all: Vec<(usize, bool)> = moments.chain(violations).collect();
    // In the order of the events (and so of time), each event once (bad if any of it is).
    sim::sort::by(&mut all, |a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    all.dedup_by_key(|m| m.0);
    // Groups of markers, each within a group's width (two triangles: 14 pixels) of its first.
    let at = |i: usize| p.run.events[i].at_us;
    let mut groups: Vec<(f64, Vec<(usize, bool)>)> = Vec::new();
    for (i, bad) in all {
        let x = p.layout.x(at(i));
        match groups.last_mut() {
            Some((x0, g)) if x - *x0 < 15.0 => g.push((i, bad)),
            _ => groups.push((x, vec![(i, bad)])),
        }
    }
    let markers = groups.into_iter().map(|(x, g)| {
        let said = |&(i, bad): &(usize, bool)| match (bad, p.run.moment(i)) {
            (false, m) => crate::view::unquoted(m.unwrap_or_default()),
            (true, Some(m)) => format!("{}; a violation", crate::view::unquoted(m)),
            (true, None) => "A violation".to_string(),
        };
        let said = g.iter().map(said).collect::<Vec<_>>().join("; ");
        // A group goes to its violation, if it has one; only one of several instants opens up.
        let first = g.iter().find(|m| m.1).unwrap_or(&g[0]).0;
        let many = g.iter().any(|m| at(m.0) != at(g[0].0));
        let title = if many {
            format!("{} moments here (click to zoom in and tell them apart): {said}", g.len())
        } else {
            format!("{said} (click to jump here, double-click to zoom in)")
        };
        let d = p.dispatch.clone();
        let jump = Callback::from(move |_| {
            d.emit(Action::Seek(first));
            if many {
                d.emit(Action::Zoom(ZoomTo::Moment));
            }
        });
        let d = p.dispatch.clone();
        let zoom = Callback::from(move |_| {
            d.emit(Action::Seek(first));
            d.emit(Action::Zoom(ZoomTo::Moment));
        });
        let bad = g.iter().any(|m| m.1);
        // A group is two triangles, one a little behind the other.
        let more = if many { format!("M{} {} l5 -7 h-10 z ", x + 4.0, AXIS - 2.0) } else { String::new() };
        html! {
            <g class={classes!("marker", bad.then_some("bad"), many.then_some("many"))} onclick={jump} ondblclick={zoom}>
                <title>{ title }</title>
                <path d={format!("{more}M{} {} l5 -7 h-10 z", x, AXIS - 2.0)} />
            </g>
        }
    });
    html! { <>{ for markers }</> }
}
