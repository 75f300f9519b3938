//! The walkthrough's pictures: where they zoom in, what a zoomed picture keeps, and their styles.

use super::*;
use crate::svg::WIDTH;
use sim::time::{Micros, Millis};

fn run(id: &str) -> (Scenario, Run) {
    let sc = sim::library::get(id).unwrap();
    let run = sim::run(&sc).unwrap();
    (sc, run)
}

/// A Redlock round is a few milliseconds of a 12-second run: its moments are drawn zoomed in on
/// it. The GC-pause story's moments read well in the whole run, and are drawn whole.
#[test]
fn a_redlock_round_is_drawn_zoomed_in_and_a_gc_pause_is_not() {
    let (_, r) = run("redlock-happy");
    let first = Facts::of(&r).moments()[0];
    let w = focus(&r, first, WIDTH).expect("the first round is a tangle at 1×");
    assert!(w.to_us - w.from_us <= Micros::ms(100), "{w:?}");
    let (_, r) = run("gc-pause-unfenced");
    for &m in Facts::of(&r).moments() {
        assert_eq!(focus(&r, m, WIDTH), None, "step {}", m + 1);
    }
}

/// Wherever it zooms in, the window holds the step (three quarters across, unless the run's
/// start or end is nearer), lies within the run, and is no narrower than the narrowest.
#[test]
fn every_window_holds_its_step_within_the_run() {
    let mut zoomed = 0;
    for entry in sim::library::INDEX {
        let (_, r) = run(entry.id);
        for &m in Facts::of(&r).moments() {
            let Some(w) = focus(&r, m, WIDTH) else { continue };
            zoomed += 1;
            let now = r.events[m].at_us;
            assert!(w.from_us <= now && now <= w.to_us && w.to_us <= r.end_us, "{}: {w:?} at {now}", entry.id);
            assert!(w.to_us - w.from_us >= NARROWEST_US, "{}: {w:?}", entry.id);
        }
    }
    assert!(zoomed >= 10, "{zoomed} moments zoomed in");
}

/// A zoomed picture is cut to its window: its coordinates stay near the picture (not millions
/// of pixels out, where a browser's single-precision numbers blur them), and it draws fewer
/// marks than the whole run has.
#[test]
fn a_zoomed_picture_keeps_only_what_its_window_shows() {
    let (sc, r) = run("redlock-split-vote");
    let m = Facts::of(&r).moments()[2];
    let window = focus(&r, m, WIDTH);
    assert!(window.is_some());
    let svg = draw(&r, &sc, WIDTH, Picture::Moment { cursor: m, window }, true);
    let whole = layout(&r, &sc, WIDTH);
    assert!(svg.matches(r#"<g class="mark "#).count() < whole.marks.len());
    assert!(svg.contains("zoomed in ×") && svg.contains(r#"class="overview""#) && svg.contains(r#"class="cursor""#));
    for part in svg.split(" x=\"").skip(1) {
        let x: f64 = part.split('"').next().unwrap().parse().unwrap();
        assert!(x.abs() < 10.0 * WIDTH, "x={x}");
    }
    // Every lane is named once, in the gutter.
    for lane in &whole.lanes {
        assert_eq!(
            svg.matches(&format!(">{}</text>", esc(&lane.name))).count(),
            2,
            "{} (the body's, out of the window, and the gutter's)",
            lane.name
        );
    }
}

/// The pictures' dark colours are for screens: a printed walkthrough stays light. A picture for
/// a page has no styles or arrowheads of its own (the page has them once).
#[test]
fn printed_pictures_stay_light_and_a_page_s_pictures_share_their_styles() {
    let style = page_style();
    assert!(style.contains("@media screen and (prefers-color-scheme: dark)"));
    assert!(!style.contains("@media (prefers-color-scheme: dark)"));
    let (sc, r) = run("gc-pause-unfenced");
    for p in [Picture::Legend, Picture::Whole, Picture::Moment { cursor: 10, window: None }] {
        let alone = draw(&r, &sc, WIDTH, p, true);
        let bare = draw(&r, &sc, WIDTH, p, false);
        assert!(alone.contains(&style) && alone.contains(r#"<marker id="head""#));
        assert!(!bare.contains("<style>") && !bare.contains("<marker"));
        assert!(alone.ends_with("</svg>\n") && bare.ends_with("</svg>\n"));
    }
    assert!(page_defs().contains(r#"<marker id="head""#));
}

/// What each picture shows is said in words: the legend's every entry, the step and its time,
/// the verdict of the whole run.
#[test]
fn each_picture_says_what_it_shows() {
    let (sc, r) = run("gc-pause-unfenced");
    let legend = describe(&r, &sc, WIDTH, Picture::Legend);
    let l = layout(&r, &sc, WIDTH);
    for e in legend::entries(legend::kinds(&l, Beside::default(), None)) {
        assert!(legend.contains(e.text), "{}", e.text);
    }
    let step = describe(&r, &sc, WIDTH, Picture::Moment { cursor: 6, window: None });
    assert!(step.contains("A, B, redis and resource") && step.contains("step 7 of") && step.contains(&fmt(r.events[6].at_us)), "{step}");
    assert!(describe(&r, &sc, WIDTH, Picture::Whole).ends_with(": unsafe"));
    let svg = draw(&r, &sc, WIDTH, Picture::Moment { cursor: 6, window: None }, true);
    assert!(svg.contains(&format!(r#"aria-label="{}""#, esc(&step))));
}

/// However narrow a window is asked for, the run is laid out no wider than [`WIDEST_PX`]: a
/// window of a microsecond in an hour is drawn as the narrowest that allows, about its middle.
#[test]
fn a_window_too_narrow_to_draw_is_widened() {
    let mut sc = sim::library::get("gc-pause-unfenced").unwrap();
    sc.duration_ms = Millis::new(3_600_000);
    let r = sim::run(&sc).unwrap();
    let m = Facts::of(&r).moments()[0];
    let at = r.events[m].at_us;
    let svg = draw(&r, &sc, WIDTH, Picture::Moment { cursor: m, window: Some(Window { from_us: at, to_us: at + Micros::us(1) }) }, true);
    let zoom: f64 = svg.split("zoomed in ×").nth(1).unwrap().split(':').next().unwrap().parse().unwrap();
    assert!(zoom > 1.0 && zoom <= WIDEST_PX / 600.0, "×{zoom}");
    assert!(svg.matches("<text").count() < 200, "a few ticks, not millions");
}
