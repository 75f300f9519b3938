//! The timeline as a standalone SVG: [`render`], and two runs one above the other on one time
//! axis: [`render_compare`]. The same geometry as the app's timeline ([`crate::layout`]) and the
//! same glyphs, class names and words ([`crate::glyph`]), so that the two can be compared element
//! by element; its styles are inlined in a `<style>` element (light and dark).

use std::fmt::Write;

use sim::facts::Facts;
use sim::scenario::Scenario;
use sim::time::Micros;
use sim::trace::{Event, Run};

use crate::glyph::{self, Glyph, Shape};
use crate::layout::{layout, layout_until, Layout};
use crate::legend::{self, Beside, Kinds, Sample};

/// The width the export is drawn at unless asked otherwise: a page's column (GitHub's is about
/// 760 pixels wide at most), so that shown there its labels keep their 11 pixels rather than
/// shrink (an image twice as wide would show them at half that).
pub const WIDTH: f64 = 760.0;
/// One row of the legend.
const LEGEND_ROW: f64 = 24.0;

/// Height of the caption above the axis.
const CAPTION: f64 = 34.0;
/// Height of each caption in a comparison, with a row under it for the "first difference" label.
const COMPARE_CAPTION: f64 = 50.0;
/// Space between the two halves of a comparison.
const GAP: f64 = 12.0;

/// What a comparison adds to [`STYLE`]: the first difference in ink (red is for harm, blue for
/// the cursor), and the line between the halves.
const COMPARE_STYLE: &str = r#"
.first-diff line { stroke: #1b2330; stroke-width: 1.5; stroke-dasharray: 7 4; } .first-diff circle { fill: none; stroke: #1b2330; stroke-width: 2; }
.first-diff text { text-anchor: middle; font-weight: 700; fill: #1b2330; } .divider { stroke: #9aa4b2; stroke-width: 1; }
@media (prefers-color-scheme: dark) { .first-diff line, .first-diff circle { stroke: #e6eaf0; } .first-diff text { fill: #e6eaf0; } }
"#;

const STYLE: &str = r#"
svg { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
.bg { fill: #ffffff; } text { font-size: 11px; fill: #5b6472; }
.caption { font-size: 14px; font-weight: 700; fill: #1b2330; } .verdict.safe { fill: #0b7a4b; } .verdict.unsafe { fill: #c0392b; }
.grid { stroke: #dde1e7; } .axis text { text-anchor: middle; }
.lane-bg { fill: #fbfcfd; stroke: #dde1e7; } .lane-name { font-size: 13px; font-weight: 700; fill: #1b2330; } .lane-role { font-size: 11px; }
.c0 { --c: #0072b2; color: #0072b2; } .c1 { color: #e69f00; } .c2 { color: #009e73; } .c3 { color: #cc79a7; }
.c4 { color: #56b4e9; } .c5 { color: #d55e00; } .c6 { color: #8a7b00; } .c7 { color: #444444; } .srv { color: #6b7785; }
.bar rect { fill: currentColor; } .bar.key rect { fill-opacity: .28; stroke: currentColor; stroke-width: 1.5; }
.bar.stale rect { fill-opacity: .22; stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 5 3; }
.bar.down rect { fill: #c7ccd4; fill-opacity: .55; } .bar.partition rect { fill: none; stroke: #a15c00; stroke-dasharray: 5 3; }
.bar-label { font-size: 11px; fill: #ffffff; font-weight: 600; } .bar.key .bar-label, .bar.stale .bar-label { fill: #1b2330; }
.pause rect { fill: #7b5ea7; fill-opacity: .82; } .pause-label { fill: #ffffff; font-weight: 600; }
.msg path { fill: none; stroke: #5b6472; stroke-width: 1; opacity: .65; } .msg.delayed path { stroke: #a15c00; stroke-width: 2; stroke-dasharray: 6 3; opacity: 1; }
.msg.lost path { stroke: #c0392b; stroke-dasharray: 3 3; opacity: 1; } .msg.inflight path { stroke: #a15c00; stroke-dasharray: 2 4; } .msg.burst path { stroke-width: 3; opacity: .5; } .msg-label { font-size: 11px; font-weight: 600; fill: #1b2330; } .head { fill: #5b6472; } .lost-x { stroke: #c0392b; stroke-width: 2; }
.mark.accepted circle { fill: #0b7a4b; } .mark.rejected circle { fill: #1b2330; } .mark.accepted.harm circle { fill: #c0392b; stroke: #fbe9e7; stroke-width: 3; } .mark.harm .mark-label { fill: #c0392b; } .mark .tick, .mark .cross { stroke: #ffffff; stroke-width: 2; fill: none; }
.mark-label { text-anchor: middle; font-weight: 700; fill: #1b2330; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; } .mark-label.start { text-anchor: start; } .msg-label.end, .mark-label.end { text-anchor: end; } .mark.grant rect { fill: #1b2330; }
.mark .bang { fill: #ffffff; font-weight: 800; text-anchor: middle; font-size: 11px; }
.legend-head { font-size: 12px; font-weight: 700; fill: #1b2330; } .legend-text { font-size: 12px; }
.mark.expired circle { fill: none; stroke: #1b2330; stroke-width: 1.5; } .mark.violation path { fill: #c0392b; }
.vline { stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 4 3; } .mark .jump { stroke: #a15c00; stroke-width: 2; fill: none; }
.mark.crash path { stroke: #c0392b; stroke-width: 3; } .mark.restart path { fill: #0b7a4b; }
.veil { fill: #ffffff; fill-opacity: .6; fill-rule: evenodd; } .cursor line { stroke: #1f6feb; stroke-width: 2; } .cursor text { fill: #1f6feb; text-anchor: middle; font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #161c25; } text { fill: #9aa4b2; } .caption, .lane-name, .mark-label, .msg-label, .legend-head { fill: #e6eaf0; }
  .lane-bg { fill: #141a22; stroke: #2a3340; } .grid { stroke: #2a3340; } .veil { fill: #161c25; }
  .mark.rejected circle { fill: #e6eaf0; } .mark.rejected .cross { stroke: #161c25; }
  .mark.harm .mark-label { fill: #ff7b6b; } .mark-label { stroke: #161c25; }
  .bar.key .bar-label, .bar.stale .bar-label { fill: #e6eaf0; } .mark.grant rect { fill: #e6eaf0; } .mark.expired circle { stroke: #e6eaf0; }
  .msg path { stroke: #9aa4b2; } .head { fill: #9aa4b2; }
}
"#;

/// The arrowheads and the dot that messages are drawn with: in each picture, or once in a page
/// that holds several ([`walk::page_defs`]).
const DEFS: &str = r#"<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="head"/></marker><marker id="head-burst" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="2.5" markerHeight="2.5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="head"/></marker><marker id="lost" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8"><path d="M1 1 L9 9 M9 1 L1 9" class="lost-x"/></marker><marker id="dot" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="4" markerHeight="4" markerUnits="userSpaceOnUse"><circle cx="2" cy="2" r="2" class="head"/></marker></defs>"#;

/// XML-escapes text (names, titles and narration can come from a user's scenario).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // XML 1.0 has no way to write these, not even as a character reference.
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Writes one shape as an SVG element.
fn shape(s: &mut String, sh: &Shape) {
    let class = |c: Option<&str>| c.filter(|c| !c.is_empty()).map(|c| format!(r#" class="{c}""#)).unwrap_or_default();
    let title = |t: &Option<String>| t.as_ref().map(|t| format!("<title>{}</title>", esc(t)));
    let close = |s: &mut String, name: &str, t: Option<String>| match t {
        Some(t) => {
            let _ = write!(s, ">{t}</{name}>");
        }
        None => s.push_str("/>"),
    };
    let n = |v: &f64| crate::glyph::num(*v);
    match sh {
        Shape::Rect { x, y, w, h, rx, transform, class: c, title: t } => {
            let (x, y, w, h) = (n(x), n(y), n(w), n(h));
            let _ = write!(s, r#"<rect{} x="{x}" y="{y}" width="{w}" height="{h}""#, class(*c));
            if let Some(rx) = rx {
                let _ = write!(s, r#" rx="{}""#, n(rx));
            }
            if let Some(tr) = transform {
                let _ = write!(s, r#" transform="{tr}""#);
            }
            close(s, "rect", title(t));
        }
        Shape::Circle { cx, cy, r } => {
            let _ = write!(s, r#"<circle cx="{}" cy="{}" r="{}"/>"#, n(cx), n(cy), n(r));
        }
        Shape::Path { d, class: c, marker_end, dot_start, title: t } => {
            let _ = write!(s, r#"<path{} d="{d}""#, class(*c));
            if *dot_start {
                s.push_str(r#" marker-start="url(#dot)""#);
            }
            if let Some(m) = marker_end {
                let _ = write!(s, r#" marker-end="{m}""#);
            }
            close(s, "path", title(t));
        }
        Shape::Line { x1, y1, x2, y2, class: c, marker_end, title: t } => {
            let _ = write!(s, r#"<line{} x1="{}" y1="{}" x2="{}" y2="{}""#, class(*c), n(x1), n(y1), n(x2), n(y2));
            if let Some(m) = marker_end {
                let _ = write!(s, r#" marker-end="{m}""#);
            }
            close(s, "line", title(t));
        }
        Shape::Text { x, y, class: c, text } => {
            let _ = write!(s, r#"<text{} x="{}" y="{}">{}</text>"#, class(Some(c)), n(x), n(y), esc(text));
        }
    }
}

/// Writes a glyph as a group.
fn group(s: &mut String, g: &Glyph) {
    let _ = write!(s, r#"<g class="{}">"#, g.class);
    if let Some(t) = &g.title {
        let _ = write!(s, "<title>{}</title>", esc(t));
    }
    for sh in &g.shapes {
        shape(s, sh);
    }
    s.push_str("</g>");
}

/// The run as an SVG document, `width` pixels wide, with the cursor at step `cursor` (an index
/// into the events) if given.
pub fn render(run: &Run, sc: &Scenario, width: f64, cursor: Option<usize>) -> String {
    let l = layout(run, sc, width);
    let kinds = legend::kinds(&l, Beside::default(), None);
    let mut s =
        open(l.width, l.height + CAPTION + legend_height(kinds, l.width), &format!("Lease Lab timeline of {}", sc.title), &sc.title, "");
    caption(&mut s, &sc.title, run.verdict.is_safe(), l.width, 0.0);
    let at = cursor.and_then(|c| run.events.get(c)).map(|e| e.at_us);
    body(&mut s, run, sc, &l, CAPTION, at, None);
    draw_legend(&mut s, kinds, l.width, CAPTION + l.height);
    s.push_str("</svg>\n");
    s
}

/// The legend's height: its heading and its rows.
fn legend_height(kinds: Kinds, width: f64) -> f64 {
    LEGEND_ROW * (1 + legend::rows(kinds, width).len()) as f64 + 6.0
}

/// Writes the legend under the timeline, from `y`: the same entries as the app's legend.
fn draw_legend(s: &mut String, kinds: Kinds, width: f64, y: f64) {
    let _ = write!(
        s,
        r#"<g class="legend" transform="translate(0 {})"><text class="legend-head" x="10" y="17">Legend</text>"#,
        crate::glyph::num(y)
    );
    for (r, row) in legend::rows(kinds, width).into_iter().enumerate() {
        let top = LEGEND_ROW * (r + 1) as f64;
        for (x, e) in row {
            let Sample::Glyph(g, w) = &e.sample else { continue };
            let _ = write!(s, r#"<g transform="translate({} {})">"#, crate::glyph::num(x), crate::glyph::num(top));
            group(s, g);
            let _ = write!(
                s,
                r#"</g><text class="legend-text" x="{}" y="{}">{}</text>"#,
                crate::glyph::num(x + w + 6.0),
                crate::glyph::num(top + 15.0),
                esc(e.text)
            );
        }
    }
    s.push_str("</g>");
}

/// Two runs as one SVG document, one above the other on one time axis (Kleppmann's pair of
/// figures): each half is a run with its label (`"As written"`, `"With the fix: …"`) and its
/// verdict, drawn as [`render`] draws it, and the first event where the two differ
/// ([`sim::compare::first_difference`]) is marked in both. The cursor, if given, is at true
/// time `cursor_us` in both.
pub fn render_compare(top: (&Run, &Scenario, &str), bottom: (&Run, &Scenario, &str), width: f64, cursor_us: Option<Micros>) -> String {
    // Both halves run to the later end, so one x means one true time in both.
    let end_us = top.0.end_us.max(bottom.0.end_us);
    let diff = sim::compare::parting((top.0, top.1), (bottom.0, bottom.1));
    let halves = [(top, diff.map(|d| (d.0, d.1))), (bottom, diff.map(|d| (d.0, d.2)))];
    let layouts = halves.map(|((run, sc, _), _)| layout_until(run, sc, width, end_us));
    let width = layouts[0].width;
    let beside = Beside::default();
    let kinds = legend::kinds(&layouts[0], beside, None).and(legend::kinds(&layouts[1], beside, None));
    let height = layouts.iter().map(|l| COMPARE_CAPTION + l.height).sum::<f64>() + GAP + legend_height(kinds, width);
    let title = format!("{} / {}", top.2, bottom.2);
    let mut s = open(width, height, &format!("Lease Lab: two runs compared: {title}"), &title, COMPARE_STYLE);
    let mut y = 0.0;
    for (((run, sc, label), diff), l) in halves.iter().zip(&layouts) {
        if y > 0.0 {
            let _ = write!(s, r#"<line class="divider" x1="0" y1="{r}" x2="{width}" y2="{r}"/>"#, r = y - GAP / 2.0);
        }
        caption(&mut s, label, run.verdict.is_safe(), width, y);
        body(&mut s, run, sc, l, y + COMPARE_CAPTION, cursor_us, diff.and_then(|(t, i)| Some((t, run.events.get(i)?))));
        y += COMPARE_CAPTION + l.height + GAP;
    }
    draw_legend(&mut s, kinds, width, y - GAP);
    s.push_str("</svg>\n");
    s
}

/// Opens the document: its size, title, styles (`STYLE` and `extra_style`), arrowheads and
/// background.
fn open(width: f64, height: f64, label: &str, title: &str, extra_style: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
        w = width,
        h = height,
        label = esc(label)
    );
    let _ = write!(s, "<title>{}</title><style>{STYLE}{extra_style}</style>", esc(title));
    s.push_str(DEFS);
    let _ = write!(s, r#"<rect class="bg" width="{width}" height="{height}"/>"#);
    s
}

/// Writes a caption line at `y`: the text on the left, the verdict on the right.
fn caption(s: &mut String, text: &str, safe: bool, width: f64, y: f64) {
    let _ = write!(
        s,
        r#"<text class="caption" x="10" y="{y}">{}</text><text class="caption verdict {}" x="{}" y="{y}" text-anchor="end">{}</text>"#,
        esc(text),
        if safe { "safe" } else { "unsafe" },
        width - 12.0,
        if safe { "✓ safe" } else { "✗ unsafe" },
        y = y + 20.0,
    );
}

/// Writes a run's timeline (axis, lanes, bars, pauses, messages, marks), moved down by `y`: the
/// first difference from another run marked (when they part, and this run's differing event),
/// and the cursor at `at`.
fn body(s: &mut String, run: &Run, sc: &Scenario, l: &Layout, y: f64, at: Option<Micros>, diff: Option<(Micros, &Event)>) {
    let _ = write!(s, r#"<g transform="translate(0 {y})">"#);
    s.push_str(r#"<g class="axis">"#);
    for sh in glyph::axis(l) {
        shape(s, &sh);
    }
    s.push_str("</g>");
    let leader = at.and_then(|t| Facts::of(run).leader_at(t));
    for lane in &l.lanes {
        let role = glyph::role_label(lane.role, sc.lock.kind, leader == Some(lane.actor));
        let _ = write!(
            s,
            r#"<g class="lane {c}"><rect class="lane-bg" x="{}" y="{}" width="{}" height="{}"/><text class="lane-name" x="10" y="{}" fill="currentColor">{}</text><text class="lane-role" x="10" y="{}">{role}</text></g>"#,
            l.x0,
            lane.y,
            l.x1 - l.x0,
            lane.h,
            lane.mid - if lane.compact { 1.0 } else { 2.0 },
            esc(&lane.name),
            lane.mid + if lane.compact { 10.0 } else { 12.0 },
            c = glyph::color_class(lane.color),
        );
    }
    // Under everything the lanes hold, as the grid is, so that the two events it points at
    // stay readable.
    if let Some((t, e)) = diff {
        group(s, &glyph::first_difference(l, t, e, &sim::narrate::text(sc, run, e), -6.0));
    }
    for b in &l.bars {
        group(s, &glyph::bar(b));
    }
    for p in &l.pauses {
        group(s, &glyph::pause(p));
    }
    s.push_str(r#"<g class="msgs">"#);
    for a in &l.arrows {
        group(s, &glyph::arrow(a, Some(a.title(run))));
    }
    s.push_str("</g>");
    for m in &l.marks {
        group(s, &glyph::mark(m, l.height));
    }
    if let Some(t) = at {
        let x = l.x(t);
        let upto = run.events.partition_point(|e| e.at_us <= t).saturating_sub(1);
        shape(s, &glyph::veil(l, t, upto, false));
        group(s, &glyph::cursor(l, x, t));
    }
    s.push_str("</g>");
}

pub mod walk;

#[cfg(test)]
mod tests;
