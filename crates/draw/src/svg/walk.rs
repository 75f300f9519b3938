//! The pictures of a walkthrough (`leaselab walkthrough`), each a [`Picture`]: the run at one
//! step, what follows veiled, zoomed in where the step is a tangle at the whole run's scale
//! ([`focus`]); the whole run with its verdict; and the legend alone. [`draw`] draws one and
//! [`describe`] says what it shows.
//! Each is drawn by the export's own code ([`super::body`], [`super::draw_legend`]), so that a
//! walkthrough and `leaselab svg` agree. Each is a standalone SVG document, or, for an HTML page
//! that holds the styles and the arrowheads once ([`page_style`], [`page_defs`]), a bare `<svg>`
//! element. Their styles keep the light colours in print.

use std::fmt::Write;

use sim::facts::Facts;
use sim::scenario::Scenario;
use sim::time::{fmt, Micros};
use sim::trace::Run;

use super::{body, caption, draw_legend, esc, legend_height, CAPTION, DEFS, STYLE};
use crate::glyph::{self, num};
use crate::layout::{layout, text_width, Layout, GUTTER, MIN_WIDTH, PAD};
use crate::legend::{self, Beside};

/// A stretch of true time drawn across a picture's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub from_us: Micros,
    pub to_us: Micros,
}

/// A step is a tangle at a scale when at least `CROWD` messages, each sent within `CROWD_PX` of
/// the next, were sent up to it, the last within `NEAR_PX` of it: a Redlock round to five
/// masters is 3 ms of a 30 s run, under one pixel.
const CROWD: usize = 6;
const CROWD_PX: f64 = 6.0;
const NEAR_PX: f64 = 8.0;
/// The narrowest stretch a picture zooms in to (a millisecond is 65 pixels across 650).
pub const NARROWEST_US: Micros = Micros::ms(10);
/// The widest a run is laid out to draw a window of it, in pixels (a 10 ms window of an
/// hour-long run would be 235 million): its ticks alone are a string per few dozen pixels.
const WIDEST_PX: f64 = 4_000_000.0;
/// Where the step stands across a zoomed picture (what led to it is to its left), and how much
/// of the width the tangle that led to it takes.
const CURSOR_AT: f64 = 0.75;
const TANGLE: f64 = 0.65;
/// Height of the strip under a zoomed picture's caption that shows where it lies in the run.
const STRIP: f64 = 24.0;
/// How far a mark's label can reach from its mark, for leaving out what a zoomed picture
/// cannot show.
const LABEL_REACH: f64 = 120.0;

/// What a walkthrough's pictures add to the export's style: the zoomed picture's note and strip.
const WALK_STYLE: &str = r#"
.caption-note { font-size: 12px; text-anchor: end; } .window .lane-name, .window .lane-role { display: none; } .overview .track { fill: #eef1f5; stroke: #c9d0da; }
.overview .view { fill: #1f6feb; fill-opacity: .25; stroke: #1f6feb; stroke-width: 1.5; } .overview .now { stroke: #1f6feb; stroke-width: 2; }
@media screen and (prefers-color-scheme: dark) { .overview .track { fill: #1f2630; stroke: #3a4552; } }
"#;

/// The styles of a walkthrough's pictures: the export's, with its dark colours for screens only
/// (a printed page stays light), and the zoomed picture's strip.
pub fn page_style() -> String {
    let dark = "@media (prefers-color-scheme: dark)";
    debug_assert!(STYLE.contains(dark));
    format!("{}{WALK_STYLE}", STYLE.replace(dark, "@media screen and (prefers-color-scheme: dark)"))
}

/// The arrowheads, once for a page of bare pictures: an `<svg>` that takes no room.
pub fn page_defs() -> String {
    format!(r#"<svg class="defs" width="0" height="0" aria-hidden="true" focusable="false">{DEFS}</svg>"#)
}

/// The stretch of true time a picture of step `cursor` should draw across `width` pixels, when
/// the whole run is a tangle there; `None` when the step reads well in the whole run. The tangle
/// is the messages sent one after another up to the step, each within a few pixels of the
/// next; zoomed in on it, it is looked at again, until it draws apart (or the zoom can go no
/// further). The step stands three quarters of the way across, what led to it before it.
pub fn focus(run: &Run, cursor: usize, width: f64) -> Option<Window> {
    let now = run.events.get(cursor)?.at_us;
    let end = run.end_us.max(Micros::us(1));
    let plot = (width.max(MIN_WIDTH) - GUTTER - PAD).max(1.0);
    let mut sends: Vec<Micros> = run.intervals.messages.iter().map(|m| m.sent_us).filter(|&t| t <= now).collect();
    sim::sort::by_key(&mut sends, |&t| t);
    let narrowest = NARROWEST_US.max(least_span(end, plot));
    let mut span = end;
    while let Some(&last) = sends.last() {
        let us_per_px = span.as_f64() / plot;
        if (now - last).as_f64() > NEAR_PX * us_per_px {
            break;
        }
        let mut first = sends.len() - 1;
        while first > 0 && (sends[first] - sends[first - 1]).as_f64() <= CROWD_PX * us_per_px {
            first -= 1;
        }
        if sends.len() - first < CROWD {
            break;
        }
        let next = Micros::from_f64((now - sends[first]).as_f64() / TANGLE).max(narrowest);
        if next * 2 > span {
            break;
        }
        span = next;
        // Looked at again at this scale: only what is near the step.
        sends.drain(..first);
    }
    (span < end).then(|| {
        let from_us = (now - Micros::from_f64(span.as_f64() * CURSOR_AT)).clamp(Micros::ZERO, end - span);
        Window { from_us, to_us: from_us + span }
    })
}

/// What a walkthrough's picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    /// Step `cursor` of the run (an index into its events), without a legend: the cursor on the
    /// step and what follows veiled, as `leaselab svg --step` draws it; within `window` if given,
    /// with a strip under the caption that shows where the window lies in the run.
    Moment { cursor: usize, window: Option<Window> },
    /// The whole run, without a cursor or a legend, its title and verdict above it.
    Whole,
    /// The legend of the whole run's picture alone.
    Legend,
}

/// What a picture shows, in words: its SVG's description, and an image's alternative text.
pub fn describe(run: &Run, sc: &Scenario, width: f64, picture: Picture) -> String {
    let l = layout(run, sc, width);
    let lanes = lane_names(&l);
    match picture {
        Picture::Moment { cursor, window } => {
            let when = run.events.get(cursor).map(|e| fmt(e.at_us)).unwrap_or_default();
            let zoomed = window.map(|w| format!(", zoomed in on {} to {} of {}", fmt(w.from_us), fmt(w.to_us), fmt(l.end_us)));
            let steps = run.events.len();
            format!(
                "The timeline of {lanes} at step {} of {steps}, {when}{}; what follows is veiled",
                cursor + 1,
                zoomed.unwrap_or_default()
            )
        }
        Picture::Whole => {
            let verdict = if run.verdict.is_safe() { "safe" } else { "unsafe" };
            format!("The timeline of the whole run of {lanes}, 0 to {}: {verdict}", fmt(l.end_us))
        }
        Picture::Legend => {
            let words: Vec<&str> = legend::entries(legend::kinds(&l, Beside::default(), None)).iter().map(|e| e.text).collect();
            format!("Legend: {}", words.join("; "))
        }
    }
}

/// The picture, `width` pixels wide: a standalone SVG document with its own styles, or a bare
/// `<svg>` for a page that has them ([`page_style`], [`page_defs`]).
pub fn draw(run: &Run, sc: &Scenario, width: f64, picture: Picture, standalone: bool) -> String {
    let label = describe(run, sc, width, picture);
    let l = layout(run, sc, width);
    let mut s = match picture {
        Picture::Moment { cursor, window: Some(w) } if w.to_us > w.from_us => zoomed(run, sc, l, cursor, w, &label, standalone),
        Picture::Moment { cursor, .. } => {
            let mut s = open(l.width, CAPTION + l.height, &label, standalone);
            heading(&mut s, &format!("Step {} of {}", cursor + 1, run.events.len()), "", l.width);
            body(&mut s, run, sc, &l, CAPTION, run.events.get(cursor).map(|e| e.at_us), None);
            s
        }
        Picture::Whole => {
            let mut s = open(l.width, CAPTION + l.height, &label, standalone);
            caption(&mut s, &sc.title, run.verdict.is_safe(), l.width, 0.0);
            body(&mut s, run, sc, &l, CAPTION, None, None);
            s
        }
        Picture::Legend => {
            let kinds = legend::kinds(&l, Beside::default(), None);
            let mut s = open(l.width, legend_height(kinds, l.width), &label, standalone);
            draw_legend(&mut s, kinds, l.width, 0.0);
            s
        }
    };
    s.push_str("</svg>\n");
    s
}

/// The narrowest window of a run `end_us` long drawn `plot` pixels wide, by [`WIDEST_PX`].
fn least_span(end_us: Micros, plot: f64) -> Micros {
    Micros::from_f64((end_us.as_f64() * plot / WIDEST_PX).ceil())
}

/// Step `cursor` within window `w`: the run laid out at the window's scale and cut to it, under
/// a caption that says how far it is zoomed in and a strip that shows where it lies in the run
/// (`whole`, the run laid out at the picture's width); the lanes' names in the gutter.
fn zoomed(run: &Run, sc: &Scenario, whole: Layout, cursor: usize, w: Window, label: &str, standalone: bool) -> String {
    let at = run.events.get(cursor).map(|e| e.at_us);
    let leader = at.and_then(|t| Facts::of(run).leader_at(t));
    let roles: Vec<&str> = whole.lanes.iter().map(|lane| glyph::role_label(lane.role, sc.lock.kind, leader == Some(lane.actor))).collect();
    // The gutter as wide as the longest role ("protected resource"), which the whole run's
    // picture lets run on into its lane, and a window cannot.
    let gutter = roles.iter().map(|r| 16.0 + text_width(r)).fold(whole.x0, f64::max);
    let plot = whole.x1 - gutter;
    // A window narrower than the widest layout allows is widened about its middle.
    let least = least_span(whole.end_us, plot);
    let w = if w.to_us - w.from_us >= least {
        w
    } else {
        let from_us = ((w.from_us + w.to_us) / 2 - least / 2).clamp(Micros::ZERO, (whole.end_us - least).max(Micros::ZERO));
        Window { from_us, to_us: from_us + least }
    };
    let span = (w.to_us - w.from_us).as_f64();
    let l = crop(layout(run, sc, GUTTER + PAD + plot * whole.end_us.as_f64() / span), w, plot);
    let top = CAPTION + STRIP;
    let mut s = open(whole.width, top + l.height, label, standalone);
    let zoom = (plot / span) / ((whole.x1 - whole.x0) / whole.end_us.as_f64());
    let note = format!("zoomed in ×{}: {} to {} of {}", zoom.round(), fmt(w.from_us), fmt(w.to_us), fmt(whole.end_us));
    heading(&mut s, &format!("Step {} of {}", cursor + 1, run.events.len()), &note, whole.width);
    strip(&mut s, &whole, w, at, CAPTION);
    // The lanes' names in the gutter (the body's, in the window, are not shown).
    for (lane, role) in whole.lanes.iter().zip(&roles) {
        let _ = write!(
            s,
            r#"<g class="lane {}"><text class="lane-name" x="10" y="{}" fill="currentColor">{}</text><text class="lane-role" x="10" y="{}">{role}</text></g>"#,
            glyph::color_class(lane.color),
            num(top + lane.mid - 2.0),
            esc(&lane.name),
            num(top + lane.mid + 12.0),
        );
    }
    let (w, h) = (num(plot), num(l.height));
    let _ = write!(s, r#"<svg class="window" x="{}" y="{}" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#, num(gutter), num(top));
    body(&mut s, run, sc, &l, 0.0, at, None);
    s.push_str("</svg>");
    s
}

/// The lanes' names, as a sentence says them: "A, B, redis and resource".
fn lane_names(l: &Layout) -> String {
    let names: Vec<&str> = l.lanes.iter().map(|lane| lane.name.as_str()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// Writes a moment's caption: the step on the left, a note (how far it is zoomed in) on the
/// right.
fn heading(s: &mut String, text: &str, note: &str, width: f64) {
    let _ = write!(
        s,
        r#"<text class="caption" x="10" y="20">{}</text><text class="caption-note" x="{}" y="20">{}</text>"#,
        esc(text),
        num(width - 12.0),
        esc(note)
    );
}

/// Opens a picture: `label` is what it shows, for a screen reader and as its title.
fn open(width: f64, height: f64, label: &str, standalone: bool) -> String {
    let (w, h) = (num(width), num(height));
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{}"><title>{}</title>"#,
        esc(label),
        esc(label)
    );
    if standalone {
        let _ = write!(s, "<style>{}</style>{DEFS}", page_style());
    }
    let _ = write!(s, r#"<rect class="bg" width="{w}" height="{h}"/>"#);
    s
}

/// The layout `wide` (the run laid out at the window's scale) cut to `w`, `plot` pixels wide, and
/// moved left so that the window begins at 0: small coordinates, labels near either edge moved
/// in as at a picture's edges, and only what the window shows (a bar begun before it starts at
/// its edge, so that its label is seen).
fn crop(mut l: Layout, w: Window, plot: f64) -> Layout {
    let (a, b) = (l.x(w.from_us), l.x(w.to_us));
    let dx = -a;
    let within = |x0: f64, x1: f64, reach: f64| x0.max(x1) >= a - reach && x0.min(x1) <= b + reach;
    // Only ticks whose labels are whole in the window.
    l.ticks.retain(|t| t.x - text_width(&t.label) / 2.0 >= a && t.x + text_width(&t.label) / 2.0 <= b);
    l.bars.retain(|x| within(x.x0, x.x1, 0.0));
    l.pauses.retain(|p| within(p.x0, p.x1, 0.0));
    l.arrows.retain(|x| within(x.x0, x.x1, x.bow.abs()));
    l.marks.retain(|m| within(m.x, m.x, LABEL_REACH));
    for t in &mut l.ticks {
        t.x += dx;
    }
    for x in &mut l.bars {
        (x.x0, x.x1) = (x.x0.max(a - 4.0) + dx, x.x1.min(b + 4.0) + dx);
    }
    for p in &mut l.pauses {
        (p.x0, p.x1) = (p.x0.max(a - 4.0) + dx, p.x1.min(b + 4.0) + dx);
    }
    for x in &mut l.arrows {
        (x.x0, x.x1) = (x.x0 + dx, x.x1 + dx);
        if let Some(label) = &mut x.label {
            label.x += dx;
        }
    }
    for m in &mut l.marks {
        (m.x, m.edge) = (m.x + dx, plot);
    }
    (l.x0, l.x1, l.width) = (l.x0 + dx, l.x1 + dx, plot);
    l
}

/// The strip under a zoomed picture's caption, at `y`: the whole run as a track, the window on
/// it, and the step.
fn strip(s: &mut String, whole: &Layout, w: Window, at: Option<Micros>, y: f64) {
    let (x0, x1) = (whole.x(w.from_us), whole.x(w.to_us));
    // Widened about its middle to be seen, however narrow.
    let (vx, vw) = if x1 - x0 < 4.0 { ((x0 + x1) / 2.0 - 2.0, 4.0) } else { (x0, x1 - x0) };
    let _ = write!(
        s,
        r#"<g class="overview" transform="translate(0 {})"><text x="10" y="15">in the run</text><rect class="track" x="{}" y="6" width="{}" height="10" rx="2"/><rect class="view" x="{}" y="2" width="{}" height="18"/>"#,
        num(y),
        num(whole.x0),
        num(whole.x1 - whole.x0),
        num(vx),
        num(vw),
    );
    if let Some(t) = at {
        let x = num(whole.x(t));
        let _ = write!(s, r#"<line class="now" x1="{x}" y1="2" x2="{x}" y2="20"/>"#);
    }
    s.push_str("</g>");
}

#[cfg(test)]
mod tests;
