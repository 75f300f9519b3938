//! The legend under the timeline: each kind of glyph this run draws, drawn by the same glyph
//! code at a small size, with its meaning in words. Always there (no hover needed), and only
//! what the run shows, so that it stays one or two lines.

use draw::glyph::{self, Glyph};
use draw::layout::{Arrow, ArrowKind, Bar, BarKind, Layout, Mark, MarkKind, PauseBlock};
use yew::prelude::*;

use super::shape::inside;

/// Which kinds of glyph a run draws, in the legend's order, and the colour its first holder's
/// bars have: all the legend depends on, so that an edit that changes none of it does not draw
/// the legend again ([`kinds`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Kinds {
    bits: u32,
    client: Option<usize>,
    /// The run has leases, drawn as rings beside the lane names.
    leases: bool,
}

/// The bars, in the clients' colour first; `None` is a pause block.
const BARS: [(Option<BarKind>, &str); 6] = [
    (Some(BarKind::Belief), "holds the lock"),
    (Some(BarKind::Stale), "lease run out, still believed held"),
    (Some(BarKind::Key), "lock key on a server"),
    (None, "paused (GC): runs nothing"),
    (Some(BarKind::Down), "down"),
    (Some(BarKind::Partition), "cut off from the network"),
];
const MARKS: [(MarkKind, bool, &str); 9] = [
    (MarkKind::Grant, false, "granted (its token)"),
    (MarkKind::Expired, false, "key expired"),
    (MarkKind::Accepted, false, "write accepted"),
    (MarkKind::Accepted, true, "stale write accepted"),
    (MarkKind::Rejected, false, "write rejected"),
    (MarkKind::Violation, false, "harm done (see the verdict)"),
    (MarkKind::Jump, false, "clock jump"),
    (MarkKind::Crash, false, "crash"),
    (MarkKind::Restart, false, "restart or failover"),
];
const ARROWS: [(ArrowKind, &str); 3] =
    [(ArrowKind::Delayed, "held by the network"), (ArrowKind::Lost, "lost"), (ArrowKind::InFlight, "still in flight at the end")];

/// What the legend of this layout shows.
pub fn kinds(l: &Layout, leases: bool) -> Kinds {
    let has_mark = |k: MarkKind, harm: bool| l.marks.iter().any(|m| m.kind == k && (k != MarkKind::Accepted || m.harm == harm));
    let has_bar = |k: BarKind| l.bars.iter().any(|b| b.kind == k);
    let flags = BARS
        .iter()
        .map(|(k, _)| k.map_or(!l.pauses.is_empty(), has_bar))
        .chain(MARKS.iter().map(|(k, harm, _)| has_mark(*k, *harm)))
        .chain([l.arrows.iter().any(|a| a.count > 1)])
        .chain(ARROWS.iter().map(|(k, _)| l.arrows.iter().any(|a| a.kind == *k)));
    let bits = flags.enumerate().fold(0, |bits, (i, on)| if on { bits | 1 << i } else { bits });
    let client = l.bars.iter().find(|b| b.kind == BarKind::Belief).and_then(|b| b.color).or(Some(0));
    Kinds { bits, client, leases }
}

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub kinds: Kinds,
}

/// One entry: a glyph in a small box and its meaning.
fn entry(g: Glyph, width: f64, text: &str) -> Html {
    html! {
        <li>
            <svg class="legend-glyph" width={width.to_string()} height="22" viewBox={format!("0 0 {width} 22")} aria-hidden="true">
                <g class={g.class.clone()}>{ inside(&Glyph { title: None, ..g }) }</g>
            </svg>
            <span>{ text.to_string() }</span>
        </li>
    }
}

fn mark(kind: MarkKind, harm: bool) -> Glyph {
    // A violation's triangle hangs below its y; the others are centred on it.
    let y = if kind == MarkKind::Violation { 4.0 } else { 12.0 };
    let m = Mark { kind, x: 11.0, y, event: None, label: String::new(), title: String::new(), harm, edge: 22.0 };
    glyph::mark(&m, 22.0)
}

fn bar(kind: BarKind, color: Option<usize>) -> Glyph {
    glyph::bar(&Bar { kind, x0: 2.0, x1: 28.0, y: 6.0, h: 10.0, color, label: String::new(), title: String::new() })
}

fn arrow(kind: ArrowKind, count: usize) -> Glyph {
    let a = Arrow {
        msg: 0,
        x0: 3.0,
        y0: 18.0,
        x1: 25.0,
        y1: 5.0,
        sent_us: 0,
        arrived_us: 1,
        kind,
        bow: 0.0,
        label: None,
        count,
        last_sent_us: 0,
    };
    glyph::arrow(&a, None)
}

/// What this run draws, in words.
#[component]
pub fn Legend(p: &LegendProps) -> Html {
    crate::view::probe::rendered("Legend");
    let Kinds { bits, client, leases } = p.kinds;
    let on = |i: usize| bits & (1 << i) != 0;
    let mut items = Vec::new();
    for (i, (k, text)) in BARS.iter().enumerate().filter(|(i, _)| on(*i)) {
        let g = match *k {
            None => glyph::pause(&PauseBlock { fault: 0, actor: 0, x0: 2.0, x1: 28.0, y: 6.0, h: 10.0, title: String::new() }),
            Some(k) if i < 3 => bar(k, client),
            Some(k) => bar(k, None),
        };
        items.push(entry(g, 30.0, text));
    }
    for (_, (k, harm, text)) in MARKS.iter().enumerate().filter(|(i, _)| on(BARS.len() + i)) {
        items.push(entry(mark(*k, *harm), 22.0, text));
    }
    items.push(entry(arrow(ArrowKind::Normal, 1), 28.0, "message"));
    let burst = BARS.len() + MARKS.len();
    if on(burst) {
        items.push(entry(arrow(ArrowKind::Normal, 2), 28.0, "burst of messages (zoom in)"));
    }
    for (_, (k, text)) in ARROWS.iter().enumerate().filter(|(i, _)| on(burst + 1 + i)) {
        items.push(entry(arrow(*k, 1), 28.0, text));
    }
    if leases {
        let c = draw::lease::Countdown { left_us: 6, ttl_us: 10, holder: true };
        const SAID: &str = "lease left, by the holder's clock or the key's server's";
        items.push(html! {
            <li>
                <span class="legend-ring" aria-hidden="true">{ super::labels::ring(&c, SAID.into()) }</span>
                <span>{ SAID }</span>
            </li>
        });
    }
    html! {
        // Folded on a phone, where it would push the controls off the screen.
        <details class="legend" open={!crate::view::narrow()}>
            <summary>{ "Legend" }</summary>
            <ul>{ for items }</ul>
        </details>
    }
}
