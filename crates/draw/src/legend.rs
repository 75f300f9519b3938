//! The legend: which kinds of glyph a picture of a run draws ([`Kinds`], from [`kinds`]), and
//! for each its sample and its meaning in words ([`entries`]). One list, read by the app's
//! legend under the timeline and by the SVG export ([`crate::svg`]), so that the two cannot
//! disagree; each lists only what its picture shows (the export draws no lease rings and no
//! markers of key moments), and in predict mode only what has been shown so far.

use sim::time::Micros;

use crate::glyph::{self, Glyph, Shape};
use crate::layout::{Arrow, ArrowKind, Bar, BarKind, Layout, Mark, MarkKind, PauseBlock, AXIS};

/// What the picture draws beside the layout's own parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// Rings that drain with each lane's lease, beside its name.
    pub leases: bool,
    /// The run has key moments, marked by triangles on the time axis.
    pub moments: bool,
    /// The run has violations, marked by red triangles on the time axis.
    pub violations: bool,
}

/// Which kinds of glyph a picture draws, and the colour its first holder's bars have: all a
/// legend depends on, so that an edit that changes none of it does not draw it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds {
    bits: u32,
    client: Option<usize>,
}

impl Kinds {
    /// What either of two pictures draws (two runs compared have one legend).
    pub fn and(self, other: Kinds) -> Kinds {
        Kinds { bits: self.bits | other.bits, client: self.client.or(other.client) }
    }
}

/// An entry's sample: a glyph in a box of its width, or a lease ring (drawn by the app beside
/// a lane's name: it has no glyph of its own).
#[derive(Clone, Debug, PartialEq)]
pub enum Sample {
    Glyph(Glyph, f64),
    /// A ring with this fraction of its lease left; at 0 it has run out, ringed in red.
    Ring(f64),
}

/// One line of a legend.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub sample: Sample,
    pub text: &'static str,
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
/// The rings and the markers, after the arrows.
const RINGS: [(f64, &str); 2] = [
    (0.6, "lease left, by the holder's clock or the key's server's"),
    (0.0, "red ring: its lease has run out, but the holder still believes it holds the lock"),
];
const MARKERS: [(bool, &str); 2] =
    [(false, "key moment (on the time axis; click to jump to it)"), (true, "violation (on the time axis; click to jump to it)")];

/// Where each group of flags starts among the bits.
const AFTER_BARS: usize = BARS.len();
const BURST: usize = AFTER_BARS + MARKS.len();
const AFTER_ARROWS: usize = BURST + 1 + ARROWS.len();
const AFTER_RINGS: usize = AFTER_ARROWS + RINGS.len();

/// What the legend of this picture shows. With `upto` (predict mode, which hides the future),
/// only what has been drawn by that true time: a bar or a mark from where it starts, an
/// arrow's kind (held, lost, still in flight) from where it ends, the markers of the key
/// moments up to the cursor and of no violation.
pub fn kinds(l: &Layout, beside: Beside, upto: Option<Micros>) -> Kinds {
    let seen_x = upto.map_or(f64::INFINITY, |t| l.x(t) + 0.5);
    let seen_t = upto.unwrap_or(Micros::MAX);
    let marks = || l.marks.iter().filter(|m| m.x <= seen_x);
    let bars = || l.bars.iter().filter(|b| b.x0 <= seen_x);
    let has_mark = |k: MarkKind, harm: bool| marks().any(|m| m.kind == k && (k != MarkKind::Accepted || m.harm == harm));
    let has_bar = |k: BarKind| bars().any(|b| b.kind == k);
    let pauses = l.pauses.iter().any(|p| p.x0 <= seen_x);
    let flags = BARS
        .iter()
        .map(|(k, _)| k.map_or(pauses, has_bar))
        .chain(MARKS.iter().map(|(k, harm, _)| has_mark(*k, *harm)))
        .chain([l.arrows.iter().any(|a| a.count > 1 && a.sent_us <= seen_t)])
        .chain(ARROWS.iter().map(|(k, _)| l.arrows.iter().any(|a| a.kind == *k && a.arrived_us <= seen_t)))
        .chain([beside.leases, beside.leases && has_bar(BarKind::Stale)])
        .chain([beside.moments, beside.violations && upto.is_none()]);
    let bits = flags.enumerate().fold(0, |bits, (i, on)| if on { bits | 1 << i } else { bits });
    let client = l.bars.iter().find(|b| b.kind == BarKind::Belief).and_then(|b| b.color).or(Some(0));
    Kinds { bits, client }
}

/// The legend's entries in rows across `width`, as the SVG export lays them out (each its
/// sample, then its words in 12-pixel type): also how many rows the app's legend, whose type
/// and gaps are a little smaller, takes at most.
pub fn rows(kinds: Kinds, width: f64) -> Vec<Vec<(f64, Entry)>> {
    let mut rows: Vec<Vec<(f64, Entry)>> = vec![Vec::new()];
    let mut x = 10.0;
    for e in entries(kinds) {
        let w = match &e.sample {
            Sample::Glyph(_, w) => *w,
            Sample::Ring(_) => 18.0,
        };
        // 12-pixel words: a little wider than the layout's 11-pixel estimate.
        let span = w + 6.0 + crate::layout::text_width(e.text) * 12.0 / 11.0;
        if x > 10.0 && x + span > width - 10.0 {
            rows.push(Vec::new());
            x = 10.0;
        }
        rows.last_mut().expect("one row at least").push((x, e));
        x += span + 18.0;
    }
    rows
}

/// The entries of a legend, in its order: bars, marks, messages, rings, markers.
pub fn entries(k: Kinds) -> Vec<Entry> {
    let on = |i: usize| k.bits & (1 << i) != 0;
    let glyph = |g: Glyph, w: f64, text: &'static str| Entry { sample: Sample::Glyph(g, w), text };
    let mut out = Vec::new();
    for (i, (kind, text)) in BARS.iter().enumerate().filter(|(i, _)| on(*i)) {
        let g = match *kind {
            None => {
                glyph::pause(&PauseBlock { fault: 0, label: "paused", actor: 0, x0: 2.0, x1: 28.0, y: 6.0, h: 10.0, title: String::new() })
            }
            // The first three are a holder's: in its colour.
            Some(kind) => bar(kind, if i < 3 { k.client } else { None }),
        };
        out.push(glyph(g, 30.0, text));
    }
    for (_, (kind, harm, text)) in MARKS.iter().enumerate().filter(|(i, _)| on(AFTER_BARS + i)) {
        out.push(glyph(mark(*kind, *harm), 22.0, text));
    }
    out.push(glyph(arrow(ArrowKind::Normal, 1), 28.0, "message"));
    if on(BURST) {
        out.push(glyph(arrow(ArrowKind::Normal, 2), 28.0, "burst of messages (zoom in)"));
    }
    for (_, (kind, text)) in ARROWS.iter().enumerate().filter(|(i, _)| on(BURST + 1 + i)) {
        out.push(glyph(arrow(*kind, 1), 28.0, text));
    }
    for (_, (left, text)) in RINGS.iter().enumerate().filter(|(i, _)| on(AFTER_ARROWS + i)) {
        out.push(Entry { sample: Sample::Ring(*left), text });
    }
    for (_, (bad, text)) in MARKERS.iter().enumerate().filter(|(i, _)| on(AFTER_RINGS + i)) {
        out.push(glyph(marker(*bad), 14.0, text));
    }
    out
}

/// A key moment's marker on the time axis, as the app draws it: a triangle pointing down at
/// `x`, red for a violation.
pub fn marker_at(x: f64, bad: bool) -> Glyph {
    let class = if bad { "marker bad" } else { "marker" };
    let d = format!("M{} {} l5 -7 h-10 z", glyph::num(x), glyph::num(AXIS - 2.0));
    Glyph {
        class: class.into(),
        title: None,
        shapes: vec![Shape::Path { d, class: None, marker_end: None, dot_start: false, title: None }],
    }
}

/// A marker in a legend's box (14 by 22).
fn marker(bad: bool) -> Glyph {
    let mut g = marker_at(7.0, bad);
    // Its tip at the middle of the box rather than on the axis.
    if let Some(Shape::Path { d, .. }) = g.shapes.first_mut() {
        *d = "M7 15 l5 -7 h-10 z".into();
    }
    g
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
        sent_us: Micros::ZERO,
        arrived_us: Micros::us(1),
        kind,
        bow: 0.0,
        label: None,
        count,
        last_sent_us: Micros::ZERO,
    };
    glyph::arrow(&a, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gc() -> (sim::Run, Layout) {
        let sc = sim::library::get("gc-pause-unfenced").unwrap();
        let run = sim::run(&sc).unwrap();
        let l = crate::layout::layout(&run, &sc, 1000.0);
        (run, l)
    }

    fn texts(k: Kinds) -> Vec<&'static str> {
        entries(k).iter().map(|e| e.text).collect()
    }

    #[test]
    fn the_legend_lists_what_the_run_draws_with_the_rings_and_markers_beside_it() {
        let (_, l) = gc();
        let all = texts(kinds(&l, Beside { leases: true, moments: true, violations: true }, None));
        for want in ["holds the lock", "paused (GC): runs nothing", "stale write accepted", "harm done (see the verdict)", "message"] {
            assert!(all.contains(&want), "{want}: {all:?}");
        }
        assert!(all.iter().any(|t| t.starts_with("red ring")), "A's lease runs out while it is paused: {all:?}");
        assert!(all.iter().any(|t| t.starts_with("key moment")) && all.iter().any(|t| t.starts_with("violation")), "{all:?}");
        assert!(!all.contains(&"crash") && !all.contains(&"lost"), "only what the run draws: {all:?}");
        // A picture without rings or markers (the SVG export) does not list them.
        let bare = texts(kinds(&l, Beside::default(), None));
        assert!(!bare.iter().any(|t| t.contains("ring") || t.contains("on the time axis")), "{bare:?}");
    }

    #[test]
    fn in_predict_mode_the_legend_lists_only_what_has_been_shown() {
        let (run, l) = gc();
        let beside = Beside { leases: true, moments: true, violations: true };
        let early = texts(kinds(&l, beside, Some(run.events[1].at_us)));
        for hidden in ["stale write accepted", "harm done (see the verdict)", "lease run out, still believed held"] {
            assert!(!early.contains(&hidden), "{hidden} at step 1: {early:?}");
        }
        assert!(!early.iter().any(|t| t.starts_with("red ring") || t.starts_with("violation")), "{early:?}");
        // By the end, all of it.
        let end = texts(kinds(&l, beside, Some(run.end_us)));
        assert!(end.contains(&"stale write accepted") && end.iter().any(|t| t.starts_with("red ring")), "{end:?}");
    }
}
