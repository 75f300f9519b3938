//! The timeline: one lane per actor, drawn from `layout` with the shared glyphs of
//! [`draw::glyph`]. [`Timeline`] measures its width, computes the layout once per run and
//! width, and owns the drag and the lane menu; its parts are components of their own, so that a
//! playback tick renders only those that follow the cursor (labels, dots, veil, cursor,
//! markers) and not the lanes and marks.

use sim::facts::Facts;
use sim::scenario::Scenario;
use sim::time::{fmt, Micros};
use sim::Run;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::layout::{layout_until, Layout, GUTTER};
use crate::state::{Action, ByPtr, View};

mod chunks;
mod cursor;
mod drag;
mod labels;
mod lanes;
mod legend;
mod marks;
mod menu;
mod shape;
mod zoom;

use cursor::{cursor_line, dots, veil, Markers};
use drag::Drags;
use labels::{lane_labels, LabelsProps};
use lanes::Backdrop;
use legend::Legend;
use marks::Marks;
use menu::{lane_menu, Menu, MenuProps};
use zoom::{pinch_handlers, use_anchor, use_wheel, zoom_bar, Pinch, ZoomBarProps};

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    pub scenario: ByPtr<Scenario>,
    pub cursor: usize,
    /// The true time shown (between steps while playing).
    pub time_us: Micros,
    /// Predict mode hides what has not happened yet.
    pub hide: bool,
    /// A refused change made on the timeline.
    pub error: Option<String>,
    pub dispatch: Callback<Action>,
    /// Only to look at: no lane menu (a run compared with the one on screen, or an embed).
    #[prop_or_default]
    pub readonly: bool,
    /// When this run parts from the one it is compared with, and its first differing event.
    #[prop_or_default]
    pub diff: Option<(Micros, usize)>,
    /// Draw up to this true time rather than the run's end (two runs compared share one axis).
    #[prop_or_default]
    pub end_us: Option<Micros>,
    /// A name for the picture, when two are shown ("Before your last change").
    #[prop_or_default]
    pub label: Option<AttrValue>,
    /// The zoom bar and the legend even with a label (the drill's run, which has its own).
    #[prop_or_default]
    pub tools: bool,
    /// How far it is zoomed (two runs compared share one zoom).
    #[prop_or_default]
    pub view: View,
    /// The legend after the timeline's box rather than in it, so that the lab can place it
    /// under the verdict (the first screen holds the run, its controls, narration and verdict).
    #[prop_or_default]
    pub legend_apart: bool,
}

/// Whether the reader asked for reduced motion (then steps are instant and nothing moves).
fn reduced_motion() -> bool {
    crate::view::window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches())
}

/// The container's width, measured now and whenever it changes size (a window resize, or the
/// lab shown again after a page); the observer is disconnected with the component. A hidden
/// container (width 0) keeps the last width.
#[hook]
fn use_width(wrap: NodeRef) -> f64 {
    let width = use_state_eq(|| crate::prerender::screen().width);
    {
        let width = width.clone();
        use_effect_with((), move |_| {
            let el = wrap.cast::<web_sys::Element>();
            let measure = {
                let el = el.clone();
                move || {
                    if let Some(w) = el.as_ref().map(|e| e.client_width()).filter(|w| *w > 0) {
                        width.set(w.max(300) as f64);
                    }
                }
            };
            measure();
            let callback = Closure::<dyn FnMut()>::new(measure);
            let observer = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(el)) = (&observer, &el) {
                o.observe(el);
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(callback);
            }
        });
    }
    *width
}

/// Zoomed in (or on a narrow screen) the timeline scrolls: keep the cursor in view as it moves
/// (as it moves only: a zoom keeps its own anchor, and the reader may pan away from it).
#[hook]
fn use_follow(scroller: NodeRef, lay: ByPtr<Layout>, t: Micros, width: f64) {
    use_effect_with(t, move |t| {
        // When the whole run fits there is nothing to scroll (and nothing to measure).
        if lay.width <= width {
            return;
        }
        if let Some(el) = scroller.cast::<web_sys::Element>() {
            let (left, w) = (el.scroll_left(), el.client_width());
            let x = lay.x(*t) as i32;
            // A margin on either side, so that the steps just before the cursor stay in view.
            if x < left + GUTTER as i32 + 40 || x > left + w - 40 {
                el.set_scroll_left((x - w / 2).max(0));
            }
        }
    });
}

#[component]
pub fn Timeline(p: &TimelineProps) -> Html {
    crate::view::probe::rendered("Timeline");
    let wrap = use_node_ref();
    let width = use_width(wrap.clone());
    let lay = {
        let key = (p.run.clone(), p.scenario.clone(), width as i64, p.end_us, p.view.zoom.to_bits());
        ByPtr::from(use_memo(key, |(run, sc, w, end, zoom)| {
            layout_until(run, sc, *w as f64 * f64::from_bits(*zoom), end.unwrap_or(run.end_us).max(run.end_us))
        }))
    };
    // The layout's arrows, bars and marks in chunks, each shared with the last layout's where
    // it is equal, so that an edit draws again only what it changed.
    let parts = {
        let last = use_mut_ref(|| None::<chunks::Parts>);
        ByPtr::from(use_memo(lay.clone(), move |lay| {
            let parts = chunks::Parts::of(lay, last.borrow().as_ref());
            *last.borrow_mut() = Some(parts.clone());
            parts
        }))
    };
    let leases = ByPtr::from(use_memo((p.run.clone(), p.scenario.clone()), |(run, sc)| draw::lease::Leases::of(run, sc)));
    // What the legend shows: an edit or a zoom that changes none of it does not draw it again.
    // In predict mode, only what has been shown: up to the cursor's step (the markers show the
    // key moments up to it, and no violation).
    let upto = p.hide.then(|| p.run.events.get(p.cursor).map_or(Micros::ZERO, |e| e.at_us));
    let beside = draw::legend::Beside {
        leases: !leases.is_empty(),
        moments: p.facts.moments().iter().any(|&i| !p.hide || i <= p.cursor),
        violations: !p.facts.violations().is_empty(),
    };
    let kinds = *use_memo((lay.clone(), beside, upto), |(lay, beside, upto)| draw::legend::kinds(lay, *beside, *upto));
    let drag: Drags = use_mut_ref(|| None).into();
    let menu = use_state(|| None::<Menu>);
    let reduced = *use_memo((), |_| reduced_motion());
    // With reduced motion the cursor jumps from step to step instead of gliding between them.
    let t_now = if reduced { p.run.events.get(p.cursor).map_or(Micros::ZERO, |e| e.at_us) } else { p.time_us };
    let scroller = use_node_ref();
    let anchor: zoom::Anchor = use_mut_ref(|| None);
    // The scroll box's left edge, for the overview strip, kept from its scroll events (reading it
    // while rendering would make the browser lay the page out at once).
    let scrolled = use_state_eq(|| 0.0);
    use_anchor(scroller.clone(), lay.clone(), p.view, t_now, *scrolled, anchor.clone());
    use_follow(scroller.clone(), lay.clone(), t_now, width);
    use_wheel(scroller.clone(), lay.clone(), p.view.zoom, anchor.clone(), p.dispatch.clone());
    let pinch = use_mut_ref(Pinch::default);
    let (pinch_down, pinch_move, pinch_up) = pinch_handlers(&pinch, &scroller, (&lay, p.view.zoom), &anchor, &p.dispatch);
    let on_scroll = {
        let (scrolled, scroller) = (scrolled.setter(), scroller.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                scrolled.set(f64::from(el.scroll_left()));
            }
        })
    };
    let (on_move, on_up) = drag::handlers(&drag, &lay, &p.dispatch);
    let close = {
        let menu = menu.setter();
        use_callback((), move |_: (), _| menu.set(None))
    };
    let menu_ref = use_node_ref();
    crate::view::dismiss::use_dismiss(menu.is_some(), menu_ref.clone(), close.clone());
    let hide = p.hide;
    let window = zoom::drawn(*scrolled, width, lay.width);
    // Read when a menu is open (reading it makes the browser lay the page out at once): where the
    // scroll box is, so that the menu opens at the click.
    let scroll = scroller
        .cast::<web_sys::Element>()
        .filter(|_| menu.is_some())
        .map_or((0.0, lay.width), |e| (f64::from(e.scroll_left()), f64::from(e.client_width())));
    // One legend for the lab (a compared run, which has a label, shares it).
    let legend = (p.label.is_none() || p.tools).then(|| html! { <Legend {kinds} /> });
    let (inside, apart) = if p.legend_apart { (None, legend) } else { (legend, None) };
    html! {
        <>
        <div class={classes!("timeline-wrap", hide.then_some("hide-future"))} ref={wrap}>
            // Not on a compared run (it has a label, and shares the zoom of the run above it).
            if p.label.is_none() || p.tools {
                { zoom_bar(&ZoomBarProps { layout: lay.clone(), run: p.run.clone(), facts: p.facts.clone(), view: p.view, scroll: (*scrolled, width),
                                           scroller: scroller.clone(), t_us: t_now, hide, cursor: p.cursor, dispatch: p.dispatch.clone() }) }
            }
            <div class="timeline-scroll" ref={scroller} onscroll={on_scroll} tabindex="0" role="region" data-left={zoom::opening_left(&lay, p.view, width).map(|l| l.to_string())}
                 aria-label={format!("{}Timeline (scrolls sideways when zoomed in)", p.label.as_ref().map(|l| format!("{l}: ")).unwrap_or_default())}
                 onpointerdown={pinch_down} onpointermove={pinch_move} onpointerup={pinch_up.clone()} onpointercancel={pinch_up}>
                { lane_labels(&LabelsProps { layout: lay.clone(), run: p.run.clone(), facts: p.facts.clone(), lock: p.scenario.lock.kind, leases: leases.clone(), t_us: t_now }) }
                <svg class="timeline" width={lay.width.to_string()} height={lay.height.to_string()} role="group"
                     aria-label={format!("{}Timeline from 0 to {}: {} lanes. The cursor is at {}.", p.label.as_ref().map(|l| format!("{l}: ")).unwrap_or_default(), fmt(lay.end_us), lay.lanes.len(), fmt(t_now))}
                     onpointermove={on_move} onpointerup={on_up.clone()} onpointercancel={on_up}>
                    { defs() }
                    <Backdrop layout={lay.clone()} parts={parts.clone()} run={p.run.clone()} scenario={p.scenario.clone()} drag={drag.clone()} menu={menu.setter()} dispatch={p.dispatch.clone()} readonly={p.readonly} {window} />
                    <chunks::BarLabels layout={lay.clone()} view={(*scrolled as i32, width as i32)} />
                    // The cursor behind the marks, so that the event at it is seen whole; in predict
                    // mode the veil covers from just before it, so the cursor goes on top.
                    if !hide { { cursor_line(&lay, t_now) } }
                    if !reduced { { dots(&lay, t_now) } }
                    <Marks layout={lay.clone()} {parts} dispatch={p.dispatch.clone()} {window} />
                    { veil(&lay, t_now, p.cursor, hide) }
                    <Markers layout={lay.clone()} run={p.run.clone()} facts={p.facts.clone()} upto={hide.then_some(p.cursor)} dispatch={p.dispatch.clone()} />
                    if let Some((t, e)) = p.diff.and_then(|(t, i)| Some((t, p.run.events.get(i)?))) {
                        <g class="first-diff">{ shape::inside(&draw::glyph::first_difference(&lay, t, e, &crate::view::unquoted(&sim::narrate::text(&p.scenario, &p.run, e)), lay.height - 4.0)) }</g>
                    }
                    if hide { { cursor_line(&lay, t_now) } }
                </svg>
            </div>
            { for inside }
            if let Some(m) = (*menu).clone().filter(|_| !p.readonly) {
                { lane_menu(&MenuProps { menu: m, run: p.run.clone(), scenario: p.scenario.clone(), close, dispatch: p.dispatch.clone(),
                                         node: menu_ref, scroll_left: scroll.0, visible_width: scroll.1 }) }
            }
            if let Some(msg) = p.error.clone() {
                <p class="field-error" role="alert">{ crate::view::prose(&msg) }</p>
            }
        </div>
        { for apart }
        </>
    }
}

/// The arrowheads and markers the timeline's marks refer to.
fn defs() -> Html {
    html! {
        <defs>
            <marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" class="head" />
            </marker>
            // A burst's line is three times as thick: its head, a third as large.
            <marker id="head-burst" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="2.5" markerHeight="2.5" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" class="head" />
            </marker>
            <marker id="lost" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8">
                <path d="M1 1 L9 9 M9 1 L1 9" class="lost-x" />
            </marker>
            // Where a message leaves.
            <marker id="dot" viewBox="0 0 4 4" refX="2" refY="2" markerWidth="4" markerHeight="4" markerUnits="userSpaceOnUse">
                <circle cx="2" cy="2" r="2" class="head" />
            </marker>
        </defs>
    }
}
