//! The timeline's vocabulary: what each lane, bar, pause, message and mark looks like and is
//! called. The app's timeline and the SVG export ([`crate::svg`]) both draw from here, so they
//! cannot disagree.
//!
//! The principal types are [`Shape`] (an SVG element with its attributes) and [`Glyph`] (a
//! group of shapes with its class and tooltip). Functions turn [`crate::layout`] items into
//! glyphs; each renderer only writes shapes out (as Yew `Html`, or as text) and adds what is
//! its own (the app's handlers and the moving message dots).

mod path;
pub use path::{d, num, num_in, push_num, NUM_BYTES};

use std::borrow::Cow;

use sim::scenario::LockKind;
use sim::time::fmt;
use sim::trace::Role;

use crate::layout::{Arrow, ArrowKind, Bar, BarKind, Layout, Mark, MarkKind, PauseBlock, AXIS};

/// One SVG element. Coordinates are in the timeline's own pixels.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        rx: Option<f64>,
        transform: Option<String>,
        class: Option<&'static str>,
        title: Option<String>,
    },
    Circle {
        cx: f64,
        cy: f64,
        r: f64,
    },
    /// `dot_start`: a dot marks where it begins (a message's arrow, by the marker `#dot`: no
    /// element of its own).
    Path {
        d: String,
        class: Option<&'static str>,
        marker_end: Option<&'static str>,
        dot_start: bool,
        title: Option<String>,
    },
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        class: Option<&'static str>,
        marker_end: Option<&'static str>,
        title: Option<String>,
    },
    Text {
        x: f64,
        y: f64,
        class: &'static str,
        text: String,
    },
}

/// A group (`<g>`): its class, its tooltip (a `<title>` first inside it) and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    pub class: Cow<'static, str>,
    pub title: Option<String>,
    pub shapes: Vec<Shape>,
}

/// The palette class of a client (`c0`…`c7`); servers are neutral (`srv`).
pub fn color_class(color: Option<usize>) -> String {
    match color {
        Some(i) => format!("c{}", i % 8),
        None => "srv".into(),
    }
}

/// What a lane is, in words under its name. A Redis lane of a Redlock scenario is one of its
/// nodes; a consensus member or ZooKeeper server says when it leads.
pub fn role_label(role: Role, lock: LockKind, leads: bool) -> &'static str {
    match role {
        Role::Client => "client",
        Role::Redis if lock == LockKind::Redlock => "Redlock node",
        Role::Redis => "Redis (lock)",
        Role::Replica => "Redis replica",
        Role::Member => lock.server_label(leads).unwrap_or("server"),
        Role::Resource => "protected resource",
    }
}

/// The tooltip of a lane's background, which the app makes clickable.
pub fn lane_title(name: &str, role: &str) -> String {
    format!("Click to add a fault to {name} here ({role})")
}

/// The class of a bar's kind.
pub fn bar_class(kind: BarKind) -> &'static str {
    match kind {
        BarKind::Belief => "bar belief",
        BarKind::Stale => "bar stale",
        BarKind::Key => "bar key",
        BarKind::Down => "bar down",
        BarKind::Partition => "bar partition",
    }
}

/// A bar: its span, and its label where there is room for one.
pub fn bar(b: &Bar) -> Glyph {
    let mut g = bar_span(b);
    g.shapes.extend(bar_label(b, b.x0));
    g
}

/// A bar's label, starting from `from` (its start, or where a scrolled view begins, so that a
/// bar begun out of view still says what it is), where there is room for it before its end.
pub fn bar_label(b: &Bar, from: f64) -> Option<Shape> {
    let dx = if b.kind == BarKind::Key { 12.0 } else { 5.0 };
    let from = from.max(b.x0);
    let fits = b.x1 - from >= dx + crate::layout::text_width(&b.label) + 2.0;
    (fits && b.h >= 10.0 && !matches!(b.kind, BarKind::Down | BarKind::Partition)).then(|| Shape::Text {
        x: from + dx,
        y: b.y + b.h / 2.0 + 4.0,
        class: "bar-label",
        text: b.label.clone(),
    })
}

/// A bar without its label (the app draws the labels apart, where the view begins).
pub fn bar_span(b: &Bar) -> Glyph {
    let shapes = vec![Shape::Rect {
        x: b.x0,
        y: b.y,
        w: (b.x1 - b.x0).max(1.0),
        h: b.h,
        rx: Some(3.0),
        transform: None,
        class: None,
        title: Some(b.title.clone()),
    }];
    Glyph { class: format!("{} {}", bar_class(b.kind), color_class(b.color)).into(), title: None, shapes }
}

/// A pause block (the app adds a grip to resize it).
pub fn pause(p: &PauseBlock) -> Glyph {
    let mut shapes = vec![Shape::Rect {
        x: p.x0,
        y: p.y,
        w: p.x1 - p.x0,
        h: p.h,
        rx: Some(3.0),
        transform: None,
        class: None,
        title: Some(p.title.clone()),
    }];
    if p.x1 - p.x0 > 50.0 {
        shapes.push(Shape::Text { x: p.x0 + 6.0, y: p.y + p.h / 2.0 + 4.0, class: "pause-label", text: p.label.into() });
    }
    Glyph { class: "pause".into(), title: None, shapes }
}

/// A message's arrow: a dot where it leaves, a line (a curve, when it would be almost vertical)
/// to its head where it arrives, and what it carries where a label is kept (the app adds a dot
/// travelling along it while the cursor is between its send and its arrival). Its tooltip is
/// `title` (`Arrow::title`), if given: the app gives the one under the pointer instead.
pub fn arrow(a: &Arrow, title: Option<String>) -> Glyph {
    let (class, marker) = match a.kind {
        ArrowKind::Normal if a.count > 1 => ("msg burst", "url(#head-burst)"),
        ArrowKind::Normal => ("msg", "url(#head)"),
        ArrowKind::Delayed => ("msg delayed", "url(#head)"),
        ArrowKind::Lost => ("msg lost", "url(#lost)"),
        ArrowKind::InFlight => ("msg inflight", "url(#head)"),
    };
    let d = if a.bow == 0.0 {
        d(&[("M", &[a.x0, a.y0]), ("L", &[a.x1, a.y1])])
    } else {
        let (cx, cy) = a.control();
        d(&[("M", &[a.x0, a.y0]), ("Q", &[cx, cy, a.x1, a.y1])])
    };
    let mut shapes = vec![Shape::Path { d, class: None, marker_end: Some(marker), dot_start: true, title }];
    if let Some(l) = &a.label {
        let class = if l.anchor == crate::layout::TextAnchor::End { "msg-label end" } else { "msg-label start" };
        shapes.push(Shape::Text { x: l.x, y: l.y, class, text: l.text.clone() });
    }
    Glyph { class: class.into(), title: None, shapes }
}

/// The class of a mark's kind, after `mark`.
pub fn mark_class(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Grant => "grant",
        MarkKind::Expired => "expired",
        MarkKind::Accepted => "accepted",
        MarkKind::Rejected => "rejected",
        MarkKind::Violation => "violation",
        MarkKind::Jump => "jump",
        MarkKind::Crash => "crash",
        MarkKind::Restart => "restart",
    }
}

/// A mark on a lane; a violation's line runs down to `height`.
pub fn mark(m: &Mark, height: f64) -> Glyph {
    let (x, y) = (m.x, m.y);
    let path = |d: String, class: Option<&'static str>| Shape::Path { d, class, marker_end: None, dot_start: false, title: None };
    let mut shapes = match m.kind {
        MarkKind::Accepted => vec![Shape::Circle { cx: x, cy: y, r: 8.0 }, path(format!("M{} {} l3 3 l5 -6", x - 4.0, y), Some("tick"))],
        MarkKind::Rejected => vec![
            Shape::Circle { cx: x, cy: y, r: 8.0 },
            path(format!("M{} {} l7 7 M{} {} l-7 7", x - 3.5, y - 3.5, x + 3.5, y - 3.5), Some("cross")),
        ],
        MarkKind::Grant => vec![Shape::Rect {
            x: x - 4.0,
            y: y - 4.0,
            w: 8.0,
            h: 8.0,
            rx: None,
            transform: Some(format!("rotate(45 {x} {y})")),
            class: None,
            title: None,
        }],
        MarkKind::Expired => vec![Shape::Circle { cx: x, cy: y, r: 4.0 }],
        MarkKind::Violation => vec![
            Shape::Line { x1: x, y1: AXIS, x2: x, y2: height, class: Some("vline"), marker_end: None, title: None },
            path(format!("M{} {} l9 15 h-18 z", x, y - 2.0), None),
        ],
        MarkKind::Jump => vec![path(format!("M{} {} v-10 m-4 4 l4 -4 l4 4", x, y + 6.0), Some("jump"))],
        MarkKind::Crash => vec![path(format!("M{} {} l10 10 M{} {} l-10 10", x - 5.0, y - 5.0, x + 5.0, y - 5.0), Some("crash"))],
        MarkKind::Restart => vec![path(format!("M{} {} l6 10 h-12 z", x, y - 6.0), None)],
    };
    if let Some(l) = m.label_at() {
        let class = match m.kind {
            MarkKind::Violation => "bang",
            _ if l.anchor == crate::layout::TextAnchor::Start => "mark-label start",
            _ if l.anchor == crate::layout::TextAnchor::End => "mark-label end",
            _ => "mark-label",
        };
        shapes.push(Shape::Text { x: l.x, y: l.y, class, text: l.text });
    }
    let harm = if m.harm && m.kind != MarkKind::Violation { " harm" } else { "" };
    Glyph { class: format!("mark {}{harm}", mark_class(m.kind)).into(), title: Some(m.title.clone()), shapes }
}

/// The time axis: a grid line and a label per tick.
pub fn axis(l: &Layout) -> Vec<Shape> {
    axis_between(l, f64::NEG_INFINITY, f64::INFINITY)
}

/// The time axis between two x (the part of a long timeline that is drawn).
pub fn axis_between(l: &Layout, from: f64, to: f64) -> Vec<Shape> {
    l.ticks
        .iter()
        .filter(|t| t.x >= from - 40.0 && t.x <= to + 40.0)
        .flat_map(|t| {
            [
                Shape::Line { x1: t.x, y1: AXIS - 6.0, x2: t.x, y2: l.height, class: Some("grid"), marker_end: None, title: None },
                Shape::Text { x: t.x, y: AXIS - 12.0, class: "", text: t.label.clone() },
            ]
        })
        .collect()
}

/// Half the width of the widest mark (a write's circle, a violation's triangle): how far past
/// the cursor a mark drawn at it reaches.
pub const MARK_HALF: f64 = 10.0;

/// A rectangle as path data.
fn rect_d(x0: f64, y0: f64, x1: f64, y1: f64) -> String {
    d(&[("M", &[x0, y0]), ("H", &[x1]), ("V", &[y1]), ("H", &[x0]), ("Z", &[])])
}

/// The veil over what has not happened yet at true time `t`, when events up to `upto` have:
/// from the cursor to the end, with the marks of those events that the veil's edge would cut,
/// their labels and the labels of arrows arriving by `t` cut out of it (drawn with
/// `fill-rule: evenodd`), so that the event shown is seen whole and nothing after it is (a later
/// event drawn in the same pixel stays veiled). In predict mode (`hide`) the marks at the cursor
/// are what a question asks about: they and their labels are covered instead, and so is any
/// part of a later mark or its label (or a later message's label) that reaches back before the
/// cursor ("2 < 3" ends at its mark, to the left of it); the rest of the past stays uncovered.
pub fn veil(l: &Layout, t: sim::time::Micros, upto: usize, hide: bool) -> Shape {
    let x = l.x(t);
    let mut path = rect_d(x, AXIS, l.x1.max(x), l.height);
    let at_edge = |m: &&Mark| {
        if hide {
            m.x > x - 0.5
        } else {
            (m.x - x).abs() < MARK_HALF && m.event.is_some_and(|e| e <= upto)
        }
    };
    // Boxes around what is drawn at the cursor: (left, top, right, bottom).
    let mut boxes = Vec::new();
    for m in l.marks.iter().filter(at_edge) {
        boxes.push((m.x - MARK_HALF, m.y - MARK_HALF - 4.0, m.x + MARK_HALF, m.y + MARK_HALF + 6.0));
        if let Some(label) = m.label_at() {
            let (a, b) = label.extent();
            boxes.push((a - 1.0, label.y - 11.0, b + 1.0, label.y + 4.0));
        }
    }
    let arrow_labels = l.arrows.iter().filter(|a| if hide { a.arrived_us > t } else { (a.x1 - x).abs() < 0.5 && a.arrived_us <= t });
    for label in arrow_labels.filter_map(|a| a.label.as_ref()) {
        let (a, b) = label.extent();
        boxes.push((a - 1.0, label.y - 11.0, b + 1.0, label.y + 4.0));
    }
    // A hole only inside the veil (not past its right end, where the hole would be a patch),
    // a patch only outside it, and none overlapping another (evenodd would turn an overlap
    // inside out).
    let end = l.x1.max(x);
    let clipped = boxes.into_iter().map(|(x0, y0, x1, y1)| if hide { (x0, y0, x1.min(x), y1) } else { (x0.max(x), y0, x1.min(end), y1) });
    for (x0, y0, x1, y1) in disjoint(clipped.filter(|b| b.2 > b.0).collect()) {
        path.push_str(&rect_d(x0, y0, x1, y1));
    }
    Shape::Path { d: path, class: Some("veil"), marker_end: None, dot_start: false, title: None }
}

/// Sorts a few items by a number (an insertion sort: a handful of boxes at the cursor, and much
/// less code in the download than the standard library's sort for each type).
fn by_key<T>(v: &mut [T], key: impl Fn(&T) -> f64) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && key(&v[j - 1]) > key(&v[j]) {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The union of some rectangles (left, top, right, bottom) as rectangles that do not overlap:
/// for each band between two of their top or bottom edges, the spans of x they cover there.
fn disjoint(boxes: Vec<(f64, f64, f64, f64)>) -> Vec<(f64, f64, f64, f64)> {
    let mut ys: Vec<f64> = boxes.iter().flat_map(|b| [b.1, b.3]).collect();
    by_key(&mut ys, |y| *y);
    ys.dedup();
    let mut out = Vec::new();
    for band in ys.windows(2) {
        let (top, bottom) = (band[0], band[1]);
        let mut spans: Vec<(f64, f64)> = boxes.iter().filter(|b| b.1 <= top && b.3 >= bottom).map(|b| (b.0, b.2)).collect();
        by_key(&mut spans, |s| s.0);
        let mut merged: Vec<(f64, f64)> = Vec::new();
        for (l, r) in spans {
            match merged.last_mut() {
                Some(last) if l <= last.1 => last.1 = last.1.max(r),
                _ => merged.push((l, r)),
            }
        }
        out.extend(merged.into_iter().map(|(l, r)| (l, top, r, bottom)));
    }
    out
}

/// The cursor at `x`, labelled with its true time on the axis's top line (above the ticks'
/// labels, so that it never covers one).
pub fn cursor(l: &Layout, x: f64, t: sim::time::Micros) -> Glyph {
    let line = Shape::Line { x1: x, y1: 16.0, x2: x, y2: l.height, class: None, marker_end: None, title: None };
    // Kept inside the picture near either end.
    let label_x = x.clamp(l.x0 + 24.0, l.width - 30.0);
    Glyph { class: "cursor".into(), title: None, shapes: vec![line, Shape::Text { x: label_x, y: 12.0, class: "", text: fmt(t) }] }
}

/// The first difference between two runs compared, at true time `at_us` (when they part): a
/// dashed line across the run, a ring around `e` if this run's differing event is at that time
/// (in the other run, the same line marks what did not happen then), and a label at height
/// `label_y` (above the axis in the SVG export, below the lanes in the app). `said` is the
/// event's sentence (`sim::narrate`).
pub fn first_difference(l: &Layout, at_us: sim::time::Micros, e: &sim::trace::Event, said: &str, label_y: f64) -> Glyph {
    let x = l.x(at_us);
    let mut shapes =
        vec![Shape::Line { x1: x, y1: label_y.min(0.0) + 3.0, x2: x, y2: l.height, class: None, marker_end: None, title: None }];
    if let Some(lane) = l.lanes.get(e.actor).filter(|_| e.at_us == at_us) {
        shapes.push(Shape::Circle { cx: x, cy: lane.mid, r: 11.0 });
    }
    // The label stays inside the picture when the difference is near either end.
    shapes.push(Shape::Text { x: x.clamp(60.0, l.width - 60.0), y: label_y, class: "", text: "first difference".into() });
    let title = if e.at_us == at_us {
        format!("First difference: {said}")
    } else {
        "First difference: here the other run does something this one does not (yet)".to_string()
    };
    Glyph { class: "first-diff".into(), title: Some(title), shapes }
}

#[cfg(test)]
mod tests {
    #[test]
    fn overlapping_boxes_become_disjoint_ones_covering_the_same_area() {
        let boxes = vec![(0.0, 0.0, 10.0, 10.0), (5.0, 5.0, 15.0, 20.0), (30.0, 0.0, 40.0, 4.0)];
        let out = super::disjoint(boxes.clone());
        let area = |b: &(f64, f64, f64, f64)| (b.2 - b.0) * (b.3 - b.1);
        assert_eq!(out.iter().map(area).sum::<f64>(), 100.0 + 150.0 - 25.0 + 40.0);
        for (i, a) in out.iter().enumerate() {
            for b in &out[i + 1..] {
                assert!(a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1, "{a:?} overlaps {b:?}");
            }
        }
    }
}
