//! The layout's geometry: lanes stack, time maps to x and back, ticks are readable, keys in a
//! lock queue do not overlap, and the GC-pause story is drawn.

use draw::layout::*;
use sim::scenario::Scenario;
use sim::time::Micros;
use sim::time::SEC;
use sim::trace::Run;

#[test]
fn a_lock_queue_stacks_its_keys() {
    let s = sim::library::get("consensus-wait-expired").unwrap();
    let r = sim::run(&s).unwrap();
    let l = layout(&r, &s, 1280.0);
    let keys: Vec<&Bar> = l.bars.iter().filter(|b| b.kind == BarKind::Key).collect();
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            let overlap_x = a.x0 < b.x1 && b.x0 < a.x1;
            let overlap_y = a.y < b.y + b.h && b.y < a.y + a.h;
            assert!(!(overlap_x && overlap_y), "{a:?} overlaps {b:?}");
        }
    }
}

fn gc() -> (Scenario, Run) {
    let s = sim::library::get("gc-pause-unfenced").unwrap();
    let r = sim::run(&s).unwrap();
    (s, r)
}

#[test]
fn lanes_stack_without_overlap_in_actor_order() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1000.0);
    let names: Vec<&str> = l.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "redis", "resource"]);
    for w in l.lanes.windows(2) {
        assert!(w[0].y + w[0].h <= w[1].y, "{w:?}");
    }
    assert!(l.height >= l.lanes.last().map(|l| l.y + l.h).unwrap());
}

#[test]
fn time_maps_to_x_and_back() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1000.0);
    assert_eq!(l.x(Micros::ZERO), GUTTER);
    assert_eq!(l.x(r.end_us), 1000.0 - PAD);
    assert_eq!(l.t(l.x(12 * SEC)), 12 * SEC);
    assert_eq!(l.t(-50.0), Micros::ZERO);
}

#[test]
fn ticks_are_readable() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1280.0);
    assert!(l.ticks.len() >= 5 && l.ticks.len() <= 17, "{}", l.ticks.len());
    for w in l.ticks.windows(2) {
        assert!(w[1].x - w[0].x >= 60.0, "ticks too close: {w:?}");
    }
    assert_eq!(l.ticks[1].label, "5\u{a0}s");
}

#[test]
fn the_gc_pause_story_is_drawn() {
    let (s, r) = gc();
    let l = layout(&r, &s, 1280.0);
    // A's belief turns stale when its lease runs out during the pause.
    assert!(l.bars.iter().any(|b| b.kind == BarKind::Stale && b.color == Some(0)));
    assert!(l.bars.iter().any(|b| b.kind == BarKind::Belief && b.color == Some(1)));
    // Two keys on redis, A's then B's.
    assert_eq!(l.bars.iter().filter(|b| b.kind == BarKind::Key).count(), 2);
    // The pause is draggable: it points at fault 0.
    assert_eq!(l.pauses.len(), 1);
    assert_eq!(l.pauses[0].fault, 0);
    assert!(l.pauses[0].x1 > l.pauses[0].x0 + 100.0);
    // Both writes accepted, violations marked.
    assert_eq!(l.marks.iter().filter(|m| m.kind == MarkKind::Accepted).count(), 2);
    assert!(l.marks.iter().any(|m| m.kind == MarkKind::Violation));
    // Every arrow goes forward in time.
    assert!(l.arrows.iter().all(|a| a.x1 >= a.x0));
}

/// Kleppmann's figure: a request and its reply are two arrows even when the zoom draws them in
/// the same pixel, and the write that matters says what it carries where it arrives.
#[test]
fn requests_and_replies_are_two_arrows_and_writes_say_what_they_carry() {
    let (s, r) = gc();
    let l = layout(&r, &s, 640.0);
    let msgs = &r.intervals.messages;
    let first = |a: usize, b: usize| l.arrows.iter().find(|x| msgs[x.msg].from == a && msgs[x.msg].to == b).unwrap();
    let (client, redis) = (r.actor_id("A").unwrap(), r.actor_id("redis").unwrap());
    let (request, reply) = (first(client, redis), first(redis, client));
    assert!((request.x1 - reply.x0).abs() < 1.0, "drawn in the same instant at this width");
    let (rx, _) = request.point(0.5);
    let (px, _) = reply.point(0.5);
    assert!(rx < request.x0 && px > reply.x0, "the request bows left and the reply right: {rx} {px}");
    assert!(request.label.is_none(), "only writes to the resource are labelled");
    let written: Vec<&str> = l.arrows.iter().filter_map(|a| a.label.as_ref()).map(|l| l.text.as_str()).collect();
    assert!(written.contains(&"write, token 33") && written.contains(&"write, token 34"), "{written:?}");
    // Zoomed far in, the same arrows are slanted lines.
    let wide = layout(&r, &s, 400_000.0);
    assert!(wide.arrows.iter().filter(|a| (a.x1 - a.x0).abs() >= 16.0).all(|a| a.bow == 0.0));
}

#[test]
fn narrow_screens_get_the_minimum_width() {
    let (s, r) = gc();
    let l = layout(&r, &s, 300.0);
    assert_eq!(l.width, MIN_WIDTH);
}

/// An arrow's tooltip, worded when asked: who sent what to whom and when, or how many messages a
/// burst stands for.
#[test]
fn an_arrow_says_what_it_carries_when_asked() {
    let sc = sim::library::get("redlock-split-vote").unwrap();
    let run = sim::run(&sc).unwrap();
    let l = layout(&run, &sc, 1000.0);
    for a in &l.arrows {
        let m = &run.intervals.messages[a.msg];
        let title = a.title(&run);
        let from_to = format!("{} → {}: ", run.actors[m.from].name, run.actors[m.to].name);
        assert!(title.starts_with(&from_to), "{title}");
        if a.count > 1 {
            assert!(title.contains(&format!("{} messages, sent from ", a.count)), "{title}");
        } else {
            assert!(
                title.contains(&run.what(a.msg)) && title.contains(", sent ") && (title.contains(" arrived ") || title.contains(" lost ")),
                "{title}"
            );
        }
    }
    assert!(l.arrows.iter().any(|a| a.count > 1), "the full run at 1000 px has bursts");
}

/// Every label a timeline draws (marks, arrows, bars, the axis), as (left, right, baseline,
/// text).
fn labels(l: &Layout) -> Vec<(f64, f64, f64, String)> {
    let mut glyphs: Vec<draw::glyph::Glyph> = l.marks.iter().map(|m| draw::glyph::mark(m, l.height)).collect();
    glyphs.extend(l.arrows.iter().map(|a| draw::glyph::arrow(a, None)));
    glyphs.extend(l.bars.iter().map(draw::glyph::bar));
    let mut out = Vec::new();
    for g in glyphs {
        for s in g.shapes {
            if let draw::glyph::Shape::Text { x, y, class, text } = s {
                let w = text_width(&text);
                let left = if class.contains("start") || class == "bar-label" || class == "pause-label" {
                    x
                } else if class.contains("end") {
                    x - w
                } else {
                    x - w / 2.0
                };
                out.push((left, left + w, y, text));
            }
        }
    }
    out.extend(l.ticks.windows(2).map(|w| (w[0].x - 20.0, w[0].x + 20.0, 0.0, w[0].label.clone())));
    out
}

/// A write's label with no room after its arrow's end (late in the run, on a phone) ends at the
/// arrow instead, beside the write it names, rather than starting somewhere to its left; and
/// it gives way to the labels beside their own arrows (issue 50: at 360 px, A's stale "write,
/// token 33" ended over B's write and took its label, so that it read as B writing with 33).
#[test]
fn a_label_without_room_after_its_arrow_ends_at_it_and_gives_way() {
    let mut ended = 0;
    for sc in sim::library::all() {
        let r = sim::run(&sc).unwrap();
        let l = layout(&r, &sc, 360.0);
        for a in l.arrows.iter().filter(|a| a.label.as_ref().is_some_and(|x| x.anchor == TextAnchor::End)) {
            let label = a.label.as_ref().unwrap();
            assert_eq!(label.x, a.x1 - 5.0, "{}: {label:?}", sc.id);
            assert!(a.x1 + 5.0 + text_width(&label.text) > l.width, "{}: {label:?} had room after its arrow", sc.id);
            ended += 1;
        }
    }
    assert!(ended > 0, "some label ends at its arrow at 360 px");
    let (s, r) = gc();
    let l = layout(&r, &s, 360.0);
    let texts: Vec<&str> = l.arrows.iter().filter_map(|a| a.label.as_ref()).map(|x| x.text.as_str()).collect();
    assert!(texts.contains(&"write, token 34"), "B's write keeps its label: {texts:?}");
    assert!(!texts.contains(&"write, token 33"), "A's, with no room after its arrow, gives way: {texts:?}");
}

/// No two labels overlap, and none runs past either side of the picture, on any scenario of
/// the library, with or without its fix, at any zoom (the narrowest picture, two phones'
/// widths, a desktop's, and zoomed 4× and 32×).
#[test]
fn labels_never_overlap_at_any_zoom() {
    for base in sim::library::all() {
        for sc in [Some(base.clone()), base.fixed().and_then(Result::ok)].into_iter().flatten() {
            let run = sim::run(&sc).unwrap();
            for width in [MIN_WIDTH, 360.0, 640.0, 1000.0, 4000.0, 32000.0] {
                let l = layout(&run, &sc, width);
                let all = labels(&l);
                for a in &all {
                    assert!(a.0 >= 0.0 && a.1 <= l.width, "{} at {width} px: “{}” runs out of the picture ({a:?})", sc.id, a.3);
                }
                for (i, a) in all.iter().enumerate() {
                    for b in &all[i + 1..] {
                        let same_line = (a.2 - b.2).abs() < 11.0;
                        assert!(
                            !(same_line && a.0 < b.1 && b.0 < a.1),
                            "{} at {width} px: “{}” overlaps “{}” ({a:?}, {b:?})",
                            sc.id,
                            a.3,
                            b.3
                        );
                    }
                }
            }
        }
    }
}

/// The veil shows nothing that has not happened: at the first step, the grant drawn in the
/// same pixel a few milliseconds later stays under it; at the stale write, the write's mark and
/// label are cut out of it (seen whole); in predict mode they are covered.
#[test]
fn the_veil_shows_the_event_at_the_cursor_whole_and_nothing_after_it() {
    let (s, r) = gc();
    let l = layout(&r, &s, 640.0);
    let holes = |shape: draw::glyph::Shape| match shape {
        draw::glyph::Shape::Path { d, .. } => d.matches('M').count() - 1,
        other => panic!("the veil is a path: {other:?}"),
    };
    assert_eq!(holes(draw::glyph::veil(&l, r.events[0].at_us, 0, false)), 0, "nothing at the first step is cut out");
    let stale = r.verdict.violations[0].event.unwrap();
    assert!(holes(draw::glyph::veil(&l, r.events[stale].at_us, stale, false)) >= 2, "the stale write and its label are cut out");
    assert!(holes(draw::glyph::veil(&l, r.events[stale].at_us, stale, true)) >= 2, "in predict mode they are covered");
}

/// In predict mode nothing after the cursor shows before it either: the rejection of client1's
/// write on consensus-fenced is labelled "2 < 3" to the left of its mark, which reached back
/// past the veil's edge while the question asked what the resource would do (regression). At
/// every step of three runs, every later mark's label and every later message's label is
/// covered where it lies before the cursor.
#[test]
fn in_predict_mode_no_later_label_shows_before_the_cursor() {
    for id in ["consensus-fenced", "gc-pause-fenced", "zookeeper-fenced"] {
        let s = sim::library::get(id).unwrap();
        let r = sim::run(&s).unwrap();
        for width in [360.0, 1000.0] {
            let l = layout(&r, &s, width);
            for (i, e) in r.events.iter().enumerate() {
                let x = l.x(e.at_us);
                let draw::glyph::Shape::Path { d, .. } = draw::glyph::veil(&l, e.at_us, i, true) else { panic!("the veil is a path") };
                // Each rectangle is "M{x0} {y0}H{x1}V{y1}H{x0}Z"; the first is the veil.
                let rects: Vec<[f64; 4]> = d
                    .split('M')
                    .skip(1)
                    .map(|r| {
                        let n = |t: &str| t.trim().parse::<f64>().unwrap();
                        let (x0, rest) = r.split_once(' ').unwrap();
                        let (y0, rest) = rest.split_once('H').unwrap();
                        let (x1, rest) = rest.split_once('V').unwrap();
                        let y1 = rest.split('H').next().unwrap();
                        [n(x0), n(y0), n(x1), n(y1)]
                    })
                    .collect();
                let covered = |a: f64, b: f64, y: f64| {
                    // The part of [a, b] before the cursor, at height y, lies in patches.
                    let mut spans: Vec<(f64, f64)> = rects[1..].iter().filter(|r| r[1] <= y && y <= r[3]).map(|r| (r[0], r[2])).collect();
                    spans.sort_by(|p, q| p.0.total_cmp(&q.0));
                    let mut reach = a;
                    for (p, q) in spans {
                        if p <= reach + 0.01 {
                            reach = reach.max(q);
                        }
                    }
                    // Up to where the veil begins (the path is written to the half pixel).
                    reach >= b.min(rects[0][0]) - 0.01
                };
                let later = l.marks.iter().filter(|m| m.x > x + 0.5).filter_map(|m| m.label_at());
                let later_arrows = l.arrows.iter().filter(|a| a.arrived_us > e.at_us).filter_map(|a| a.label.clone());
                for label in later.chain(later_arrows) {
                    let (a, b) = label.extent();
                    if a < x - 0.5 {
                        assert!(
                            covered(a, b, label.y - 4.0),
                            "{id} at {width} px, step {}: “{}” shows before the cursor ({a}..{b}, y {}, cursor {x}): {rects:?}",
                            i + 1,
                            label.text,
                            label.y
                        );
                    }
                }
            }
        }
    }
}

/// A hole cut in the veil stays inside it: a label at the cursor near the run's end reaches
/// past the veil's right end, and that part of its hole was painted over the label instead.
#[test]
fn the_veil_holes_stay_inside_it() {
    for id in ["zookeeper-fenced", "gc-pause-unfenced"] {
        let s = sim::library::get(id).unwrap();
        let r = sim::run(&s).unwrap();
        for width in [360.0, 640.0] {
            let l = layout(&r, &s, width);
            for (i, e) in r.events.iter().enumerate() {
                let draw::glyph::Shape::Path { d, .. } = draw::glyph::veil(&l, e.at_us, i, false) else { panic!("the veil is a path") };
                // Each rectangle is "M{x0} {y0}H{x1}V{y1}H{x0}Z"; the first is the veil.
                let rects: Vec<(f64, f64)> = d
                    .split('M')
                    .skip(1)
                    .map(|r| {
                        let x0: f64 = r.split(' ').next().unwrap().parse().unwrap();
                        let x1: f64 = r.split('H').nth(1).unwrap().split('V').next().unwrap().parse().unwrap();
                        (x0, x1)
                    })
                    .collect();
                let (v0, v1) = rects[0];
                for &(a, b) in &rects[1..] {
                    assert!(a >= v0 && b <= v1, "{id} at {width} px, step {i}: hole {a}..{b} outside the veil {v0}..{v1}");
                }
            }
        }
    }
}

/// Issue 50: no label, an arrow's or a mark's, stands over a mark of another event (on a phone,
/// A's "write, token 33" over B's "34" read as B writing with 33), on any library scenario at
/// phones' widths (the timeline inside a 390 px screen is about 360 px), a tablet's and a laptop's.
#[test]
fn no_label_stands_over_another_event_s_mark() {
    for sc in sim::library::all() {
        let run = sim::run(&sc).unwrap();
        for width in [360.0, 390.0, 760.0, 1366.0] {
            let l = layout(&run, &sc, width);
            let actor = |e: Option<usize>| e.map(|e| run.events[e].actor);
            // Each label with the actor it speaks of: an arrow's, its receiver's.
            let arrows = l.arrows.iter().filter_map(|a| Some((a.label.as_ref()?.clone(), Some(run.intervals.messages[a.msg].to))));
            let marks = l.marks.iter().filter_map(|m| Some((m.label_at()?, actor(m.event))));
            for (label, whose) in arrows.chain(marks) {
                let (x0, x1) = label.extent();
                let (top, bottom) = (label.y - 10.0, label.y + 1.0);
                for m in l.marks.iter().filter(|m| actor(m.event) != whose) {
                    let over = m.x + 9.0 > x0 && m.x - 9.0 < x1 && m.y + 9.0 > top && m.y - 23.0 < bottom;
                    assert!(
                        !over,
                        "{} at {width} px: “{}” stands over another actor's mark at {:.0},{:.0} ({:?} “{}”)",
                        sc.id, label.text, m.x, m.y, m.kind, m.label
                    );
                }
            }
        }
    }
}
