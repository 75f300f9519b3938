//! The timeline as a standalone SVG: [`render`]. Same geometry as the app ([`crate::layout`]),
//! its styles inlined in a `<style>` element (light and dark), and the same class names as the
//! app's timeline, so that the two can be compared element by element.

use std::fmt::Write;

use sim::scenario::Scenario;
use sim::time::{fmt, Micros};
use sim::trace::{Role, Run};

use crate::layout::{layout, ArrowKind, BarKind, MarkKind, AXIS};

/// Height of the caption above the axis.
const CAPTION: f64 = 34.0;

const STYLE: &str = r#"
svg { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
.bg { fill: #ffffff; } text { font-size: 11px; fill: #5b6472; }
.caption { font-size: 14px; font-weight: 700; fill: #1b2330; } .verdict.safe { fill: #0b7a4b; } .verdict.unsafe { fill: #c0392b; }
.grid { stroke: #dde1e7; } .axis text { text-anchor: middle; }
.lane-bg { fill: #fbfcfd; stroke: #dde1e7; } .lane-name { font-size: 13px; font-weight: 700; fill: #1b2330; } .lane-role { font-size: 10px; }
.c0 { --c: #0072b2; color: #0072b2; } .c1 { color: #e69f00; } .c2 { color: #009e73; } .c3 { color: #cc79a7; }
.c4 { color: #56b4e9; } .c5 { color: #d55e00; } .c6 { color: #8a7b00; } .c7 { color: #444444; } .srv { color: #6b7785; }
.bar rect { fill: currentColor; } .bar.key rect { fill-opacity: .28; stroke: currentColor; stroke-width: 1.5; }
.bar.stale rect { fill-opacity: .22; stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 5 3; }
.bar.down rect { fill: #c7ccd4; fill-opacity: .55; } .bar.partition rect { fill: none; stroke: #a15c00; stroke-dasharray: 5 3; }
.bar-label { font-size: 10.5px; fill: #ffffff; font-weight: 600; } .bar.key .bar-label, .bar.stale .bar-label { fill: #1b2330; }
.pause rect { fill: #7b5ea7; fill-opacity: .82; } .pause-label { fill: #ffffff; font-weight: 600; }
.msg line { stroke: #5b6472; stroke-width: 1; opacity: .65; } .msg.delayed line { stroke: #a15c00; stroke-width: 2; stroke-dasharray: 6 3; opacity: 1; }
.msg.lost line { stroke: #c0392b; stroke-dasharray: 3 3; opacity: 1; } .head { fill: #5b6472; } .lost-x { stroke: #c0392b; stroke-width: 2; }
.mark.accepted circle { fill: #0b7a4b; } .mark.rejected circle { fill: #c0392b; } .mark .tick, .mark .cross { stroke: #ffffff; stroke-width: 2; fill: none; }
.mark-label { text-anchor: middle; font-weight: 700; fill: #1b2330; } .mark.grant rect { fill: #1b2330; }
.mark.expired circle { fill: none; stroke: #1b2330; stroke-width: 1.5; } .mark.violation path { fill: #c0392b; }
.vline { stroke: #c0392b; stroke-width: 1.5; stroke-dasharray: 4 3; } .mark .jump { stroke: #a15c00; stroke-width: 2; fill: none; }
.mark.crash path { stroke: #c0392b; stroke-width: 3; } .mark.restart path { fill: #0b7a4b; }
.veil { fill: #ffffff; fill-opacity: .6; } .cursor line { stroke: #1f6feb; stroke-width: 2; } .cursor text { fill: #1f6feb; text-anchor: middle; font-weight: 700; }
@media (prefers-color-scheme: dark) {
  .bg { fill: #161c25; } text { fill: #9aa4b2; } .caption, .lane-name, .mark-label { fill: #e6eaf0; }
  .lane-bg { fill: #141a22; stroke: #2a3340; } .grid { stroke: #2a3340; } .veil { fill: #161c25; }
}
"#;

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

fn color_class(i: Option<usize>) -> String {
    match i {
        Some(i) if i != usize::MAX => format!("c{}", i % 8),
        _ => "srv".into(),
    }
}

/// The run as an SVG document, `width` pixels wide, with the cursor at step `cursor` (an index
/// into the events) if given.
pub fn render(run: &Run, sc: &Scenario, width: f64, cursor: Option<usize>) -> String {
    let l = layout(run, sc, width);
    let height = l.height + CAPTION;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">"#,
        w = l.width,
        h = height,
        label = esc(&format!("Lease Lab timeline of {}", sc.title))
    );
    let _ = write!(s, "<title>{}</title><style>{STYLE}</style>", esc(&sc.title));
    s.push_str(r#"<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="head"/></marker><marker id="lost" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8"><path d="M1 1 L9 9 M9 1 L1 9" class="lost-x"/></marker></defs>"#);
    let _ = write!(s, r#"<rect class="bg" width="{}" height="{height}"/>"#, l.width);
    let safe = run.verdict.is_safe();
    let _ = write!(
        s,
        r#"<text class="caption" x="10" y="20">{}</text><text class="caption verdict {}" x="{}" y="20" text-anchor="end">{}</text>"#,
        esc(&sc.title),
        if safe { "safe" } else { "unsafe" },
        l.width - 12.0,
        if safe { "✓ safe" } else { "✗ unsafe" }
    );
    let _ = write!(s, r#"<g transform="translate(0 {CAPTION})">"#);
    s.push_str(r#"<g class="axis">"#);
    for t in &l.ticks {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{x}" y1="{}" x2="{x}" y2="{}"/><text x="{x}" y="{}">{}</text>"#,
            AXIS - 6.0,
            l.height,
            AXIS - 12.0,
            esc(&t.label),
            x = t.x
        );
    }
    s.push_str("</g>");
    for lane in &l.lanes {
        let role = match lane.role {
            Role::Client => "client",
            Role::Redis => "Redis",
            Role::Replica => "Redis replica",
            Role::Member => "consensus member",
            Role::Resource => "protected resource",
        };
        let _ = write!(
            s,
            r#"<g class="lane {c}"><rect class="lane-bg" x="{}" y="{}" width="{}" height="{}"/><text class="lane-name" x="10" y="{}" fill="currentColor">{}</text><text class="lane-role" x="10" y="{}">{role}</text></g>"#,
            l.x0,
            lane.y,
            l.x1 - l.x0,
            lane.h,
            lane.mid - 2.0,
            esc(&lane.name),
            lane.mid + 12.0,
            c = color_class(Some(lane.color)),
        );
    }
    for b in &l.bars {
        let kind = match b.kind {
            BarKind::Belief => "belief",
            BarKind::Stale => "stale",
            BarKind::Key => "key",
            BarKind::Down => "down",
            BarKind::Partition => "partition",
        };
        let _ = write!(
            s,
            r#"<g class="bar {kind} {}"><rect x="{}" y="{}" width="{}" height="{}" rx="3"><title>{}</title></rect>"#,
            color_class(b.color),
            b.x0,
            b.y,
            (b.x1 - b.x0).max(1.0),
            b.h,
            esc(&b.title)
        );
        if b.x1 - b.x0 > 70.0 && b.h >= 10.0 && !matches!(b.kind, BarKind::Down | BarKind::Partition) {
            let dx = if b.kind == BarKind::Key { 12.0 } else { 5.0 };
            let _ = write!(s, r#"<text class="bar-label" x="{}" y="{}">{}</text>"#, b.x0 + dx, b.y + b.h / 2.0 + 4.0, esc(&b.label));
        }
        s.push_str("</g>");
    }
    for p in &l.pauses {
        let _ = write!(
            s,
            r#"<g class="pause"><rect x="{}" y="{}" width="{}" height="{}" rx="3"><title>{}</title></rect>"#,
            p.x0,
            p.y,
            p.x1 - p.x0,
            p.h,
            esc(&p.title)
        );
        if p.x1 - p.x0 > 50.0 {
            let _ = write!(s, r#"<text class="pause-label" x="{}" y="{}">paused</text>"#, p.x0 + 6.0, p.y + p.h / 2.0 + 4.0);
        }
        s.push_str("</g>");
    }
    s.push_str(r#"<g class="msgs">"#);
    for a in &l.arrows {
        let (kind, marker) = match a.kind {
            ArrowKind::Normal => ("msg", "url(#head)"),
            ArrowKind::Delayed => ("msg delayed", "url(#head)"),
            ArrowKind::Lost => ("msg lost", "url(#lost)"),
            ArrowKind::InFlight => ("msg inflight", "url(#head)"),
        };
        let _ = write!(
            s,
            r#"<g class="{kind}"><line x1="{}" y1="{}" x2="{}" y2="{}" marker-end="{marker}"><title>{}</title></line></g>"#,
            a.x0,
            a.y0,
            a.x1,
            a.y1,
            esc(&a.title)
        );
    }
    s.push_str("</g>");
    for m in &l.marks {
        let (x, y) = (m.x, m.y);
        let kind = format!("{:?}", m.kind).to_lowercase();
        let _ = write!(s, r#"<g class="mark {kind}"><title>{}</title>"#, esc(&m.title));
        match m.kind {
            MarkKind::Accepted => {
                let _ = write!(
                    s,
                    r#"<circle cx="{x}" cy="{y}" r="8"/><text class="mark-label" x="{x}" y="{}">{}</text><path class="tick" d="M{} {y} l3 3 l5 -6"/>"#,
                    y - 12.0,
                    esc(&m.label),
                    x - 4.0
                );
            }
            MarkKind::Rejected => {
                let _ = write!(
                    s,
                    r#"<circle cx="{x}" cy="{y}" r="8"/><text class="mark-label" x="{x}" y="{}">{}</text><path class="cross" d="M{} {} l7 7 M{} {} l-7 7"/>"#,
                    y - 12.0,
                    esc(&m.label),
                    x - 3.5,
                    y - 3.5,
                    x + 3.5,
                    y - 3.5
                );
            }
            MarkKind::Grant => {
                let _ = write!(s, r#"<rect x="{}" y="{}" width="8" height="8" transform="rotate(45 {x} {y})"/>"#, x - 4.0, y - 4.0);
                if !m.label.is_empty() {
                    let _ = write!(
                        s,
                        r#"<text class="mark-label" text-anchor="start" x="{}" y="{}">token {}</text>"#,
                        x + 7.0,
                        y - 14.0,
                        esc(&m.label)
                    );
                }
            }
            MarkKind::Expired => {
                let _ = write!(s, r#"<circle cx="{x}" cy="{y}" r="4"/>"#);
            }
            MarkKind::Violation => {
                let _ = write!(
                    s,
                    r#"<line class="vline" x1="{x}" y1="{AXIS}" x2="{x}" y2="{}"/><path d="M{x} {} l9 15 h-18 z"/>"#,
                    l.height,
                    y - 2.0
                );
            }
            MarkKind::Jump => {
                let _ = write!(
                    s,
                    r#"<path class="jump" d="M{x} {} v-10 m-4 4 l4 -4 l4 4"/><text class="mark-label" text-anchor="start" x="{}" y="{}">{}</text>"#,
                    y + 6.0,
                    x + 6.0,
                    y - 6.0,
                    esc(&m.label)
                );
            }
            MarkKind::Crash => {
                let _ = write!(s, r#"<path d="M{} {} l10 10 M{} {} l-10 10"/>"#, x - 5.0, y - 5.0, x + 5.0, y - 5.0);
            }
            MarkKind::Restart => {
                let _ = write!(s, r#"<path d="M{x} {} l6 10 h-12 z"/>"#, y - 6.0);
            }
        }
        s.push_str("</g>");
    }
    if let Some(e) = cursor.and_then(|c| run.events.get(c)) {
        let t: Micros = e.at_us;
        let x = l.x(t);
        let _ = write!(s, r#"<rect class="veil" x="{x}" y="{AXIS}" width="{}" height="{}"/>"#, (l.x1 - x).max(0.0), l.height - AXIS);
        let _ = write!(
            s,
            r#"<g class="cursor"><line x1="{x}" y1="{}" x2="{x}" y2="{}"/><text x="{x}" y="12">{}</text></g>"#,
            AXIS - 4.0,
            l.height,
            esc(&fmt(t))
        );
    }
    s.push_str("</g></svg>\n");
    s
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn the_svg_has_the_app_s_lanes_and_marks_and_escapes_text() {
        let mut sc = sim::library::get("gc-pause-unfenced").unwrap();
        sc.title = "A <b>bold</b> & \"quoted\" title".into();
        let run = sim::run(&sc).unwrap();
        let svg = render(&run, &sc, 1000.0, Some(40));
        let l = layout(&run, &sc, 1000.0);
        assert_eq!(svg.matches(r#"class="lane-bg""#).count(), l.lanes.len());
        assert_eq!(svg.matches(r#"<g class="mark "#).count(), l.marks.len());
        assert!(svg.contains("A &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; title"));
        assert!(!svg.contains("<b>"));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains(r#"class="cursor""#));
    }

    #[test]
    fn text_with_control_characters_stays_well_formed_xml() {
        assert_eq!(super::esc("a\u{1}b<\u{ffff}>\t&"), "a\u{fffd}b&lt;\u{fffd}&gt;\t&amp;");
    }
}
