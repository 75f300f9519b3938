//! Zoom and pan. The timeline is laid out at its width times the zoom (`state::View`) in a box
//! that scrolls: panning is scrolling. [`zoom_bar`] holds the buttons and the [`Overview`] strip
//! (the whole run, with the part in view framed: drag it, click it, or move it with the arrow
//! keys, Page Up and Page Down, Home and End); [`use_anchor`] keeps a time in place when the zoom
//! changes (the pointer's for a wheel or a pinch, else the cursor's, the cursor centred when
//! zooming to a moment, or the middle of the view when the cursor is out of it);
//! [`use_wheel`] zooms with Ctrl + wheel (and a touchpad's pinch, which browsers send as one),
//! and [`Pinch`] with two fingers.

use std::cell::RefCell;
use std::rc::Rc;

use draw::layout::{Layout, GUTTER};
use sim::facts::Facts;
use sim::time::{fmt, Micros};
use sim::Run;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::{max_zoom, Action, ByPtr, View, ZoomTo};

/// A time to keep at an offset from the scroll box's left edge while the zoom changes, and the
/// width of the layout it was measured on.
pub type Anchor = Rc<RefCell<Option<(Micros, f64, f64)>>>;

/// Anchors the zoom about to be asked for at `off` pixels from the scroll box's left edge, on
/// `lay` (the layout drawn): the time there now. During a long render Yew yields to the browser
/// between drawing a zoom and running the effect that scrolls to keep the last anchor in place
/// (`use_anchor`), so an event can find the new zoom drawn under the old zoom's scroll: that
/// scroll is put right first, or the time read would be another (a pinch on a large run drifted
/// towards its start).
/// Returns whether the zoom by `factor` from `zoom` changes anything: at either limit it does
/// not, and no anchor is left behind for a later zoom to take.
fn anchor_at(anchor: &Anchor, (lay, zoom): (&Layout, f64), el: &web_sys::Element, off: f64, factor: f64) -> bool {
    if (zoom * factor).clamp(1.0, max_zoom(lay.end_us)) == zoom {
        return false;
    }
    let mut a = anchor.borrow_mut();
    if let Some((t, at, measured)) = *a {
        if measured != lay.width {
            put(el, lay, t, at);
        }
    }
    *a = Some((lay.t(f64::from(el.scroll_left()) + off), off, lay.width));
    true
}

/// Where the part of the run in view begins and ends, as true times.
pub fn in_view(lay: &Layout, left: f64, width: f64) -> (Micros, Micros) {
    (lay.t(left + GUTTER), lay.t(left + width))
}

/// The stretch of the timeline (in its x) whose elements are in the DOM: the part in view, and a
/// view's width either side, on a grid of view widths, so that scrolling redraws the lanes only
/// when it crosses a grid line. Everything when the whole run fits.
pub fn drawn(left: f64, width: f64, total: f64) -> (f64, f64) {
    if total <= width * 3.0 {
        return (0.0, total);
    }
    let w = width.max(100.0);
    let from = ((left / w).floor() - 1.0) * w;
    (from.max(0.0), from + 4.0 * w)
}

/// Scrolls so that true time `t` is at `off` pixels from the box's left edge.
fn put(el: &web_sys::Element, lay: &Layout, t: Micros, off: f64) {
    el.set_scroll_left((lay.x(t) - off).round().max(0.0) as i32);
}

/// Where a run that opens zoomed in on its first key moment ([`View::first`]) is scrolled to in
/// a box `width` wide: the moment three quarters of the way across. Also written on the box for
/// the first view's picture, which has no program to scroll it (static/loader.js does).
pub fn opening_left(lay: &Layout, view: View, width: f64) -> Option<i32> {
    view.first.map(|t| (lay.x(t) - (GUTTER + (width - GUTTER) * 0.75)).round().max(0.0) as i32)
}

/// Keeps a time in place when the zoom changes: the anchor a wheel or a pinch left, else the
/// cursor's time where it was on screen (centred when zooming to a moment), or the middle of the
/// view if the cursor was out of it. Runs before the layout drawn last is forgotten.
///
/// `left` is where the last scroll event left the box, on the layout drawn before: by the time
/// the effect runs the box holds the new layout, and the browser may have cut its scroll to fit
/// (zooming out from the end of a run read the middle of another part).
#[hook]
pub fn use_anchor(scroller: NodeRef, lay: ByPtr<Layout>, view: View, t_now: Micros, left: f64, anchor: Anchor) {
    let shown = use_mut_ref(|| lay.clone());
    {
        let (shown, lay) = (shown.clone(), lay.clone());
        // Also when the width changes (a resize, or a timeline's first measure): one time stays put.
        use_effect_with((view, lay.width as i64), move |(view, _)| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                let w = f64::from(el.client_width());
                let mid = (w + GUTTER) / 2.0;
                let pending = *anchor.borrow();
                let (t, off) = match pending {
                    // Zooming to a moment centres it, whatever a wheel left.
                    _ if view.center => {
                        *anchor.borrow_mut() = None;
                        (t_now, mid)
                    }
                    // Opened zoomed in on the first key moment: it three quarters of the way
                    // across, what led to it before it (until the cursor passes it).
                    None if view.first.is_some_and(|f| t_now <= f) => {
                        el.set_scroll_left(opening_left(&lay, *view, w).unwrap_or(0));
                        return;
                    }
                    // Measured on the layout before this zoom: its time stays where it was.
                    Some((t, off, measured)) if measured != lay.width => {
                        *anchor.borrow_mut() = None;
                        (t, off)
                    }
                    // Measured on this layout (an event came in first and put the scroll
                    // right): it is for a zoom still to come.
                    Some(_) => return,
                    None => {
                        let off = shown.borrow().x(t_now) - left;
                        match () {
                            _ if (GUTTER..=w).contains(&off) => (t_now, off),
                            // The reader panned away from the cursor: the middle of what they
                            // look at stays put.
                            _ => (shown.borrow().t(left + mid), mid),
                        }
                    }
                };
                put(&el, &lay, t, off);
            }
        });
    }
    use_effect(move || {
        *shown.borrow_mut() = lay;
    });
}

/// Ctrl + wheel (and a touchpad's pinch) zooms around the pointer. Other wheels scroll as usual.
#[hook]
pub fn use_wheel(scroller: NodeRef, lay: ByPtr<Layout>, zoom: f64, anchor: Anchor, dispatch: Callback<Action>) {
    let latest = use_mut_ref(|| (lay.clone(), zoom));
    *latest.borrow_mut() = (lay, zoom);
    use_effect_with((), move |_| {
        let el = scroller.cast::<web_sys::Element>();
        let listener = el.clone().map(|target| {
            let opts = gloo_events::EventListenerOptions::enable_prevent_default();
            gloo_events::EventListener::new_with_options(&target, "wheel", opts, move |e| {
                let Some(w) = e.dyn_ref::<web_sys::WheelEvent>() else { return };
                let Some(el) = el.as_ref().filter(|_| w.ctrl_key() || w.meta_key()) else { return };
                w.prevent_default();
                let off = f64::from(w.client_x()) - el.get_bounding_client_rect().left();
                // A line is about 40 pixels; a touchpad's pinch sends small pixel deltas.
                let dy = if w.delta_mode() == 1 { w.delta_y() * 40.0 } else { w.delta_y() };
                let factor = (-dy / 200.0).exp2();
                let (lay, zoom) = &*latest.borrow();
                if anchor_at(&anchor, (lay, *zoom), el, off, factor) {
                    dispatch.emit(Action::Zoom(ZoomTo::By(factor)));
                }
            })
        });
        move || drop(listener)
    });
}

/// Two fingers on the timeline zoom around their midpoint.
#[derive(Default)]
pub struct Pinch {
    /// The touches down: (pointer id, x on screen).
    touches: Vec<(i32, f64)>,
}

impl Pinch {
    pub fn down(&mut self, e: &PointerEvent) {
        if e.pointer_type() == "touch" && self.touches.len() < 2 {
            self.touches.push((e.pointer_id(), f64::from(e.client_x())));
        }
    }

    pub fn up(&mut self, e: &PointerEvent) {
        self.touches.retain(|(id, _)| *id != e.pointer_id());
    }

    /// A finger moved: the zoom factor and the midpoint (on screen) to keep in place, while two
    /// fingers are down and the distance between them changed.
    pub fn moved(&mut self, e: &PointerEvent) -> Option<(f64, f64)> {
        let before = self.spread()?;
        let t = self.touches.iter_mut().find(|(id, _)| *id == e.pointer_id())?;
        t.1 = f64::from(e.client_x());
        let (after, mid) = (self.spread()?, self.mid());
        (before > 20.0 && after > 20.0 && (after / before - 1.0).abs() > 0.02).then_some((after / before, mid))
    }

    fn spread(&self) -> Option<f64> {
        match self.touches.as_slice() {
            [a, b] => Some((a.1 - b.1).abs()),
            _ => None,
        }
    }

    fn mid(&self) -> f64 {
        self.touches.iter().map(|t| t.1).sum::<f64>() / self.touches.len().max(1) as f64
    }
}

/// The pinch handlers for the scroll box: down, move (zooming around the midpoint) and up.
pub fn pinch_handlers(
    pinch: &Rc<RefCell<Pinch>>,
    scroller: &NodeRef,
    (lay, zoom): (&ByPtr<Layout>, f64),
    anchor: &Anchor,
    dispatch: &Callback<Action>,
) -> (Callback<PointerEvent>, Callback<PointerEvent>, Callback<PointerEvent>) {
    let down = {
        let pinch = pinch.clone();
        Callback::from(move |e: PointerEvent| pinch.borrow_mut().down(&e))
    };
    let moved = {
        let (pinch, scroller, lay, anchor, d) = (pinch.clone(), scroller.clone(), lay.clone(), anchor.clone(), dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            let Some((factor, mid)) = pinch.borrow_mut().moved(&e) else { return };
            let Some(el) = scroller.cast::<web_sys::Element>() else { return };
            let off = mid - el.get_bounding_client_rect().left();
            if anchor_at(&anchor, (&lay, zoom), &el, off, factor) {
                d.emit(Action::Zoom(ZoomTo::By(factor)));
            }
        })
    };
    let up = {
        let pinch = pinch.clone();
        Callback::from(move |e: PointerEvent| pinch.borrow_mut().up(&e))
    };
    (down, moved, up)
}

/// What the zoom bar draws (a plain function's arguments: it renders with the timeline anyway,
/// whose cursor it follows, so a component of its own would only add to the download).
pub struct ZoomBarProps {
    pub layout: ByPtr<Layout>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    pub view: View,
    /// The scroll box's left edge and width.
    pub scroll: (f64, f64),
    pub scroller: NodeRef,
    pub t_us: Micros,
    /// Predict mode: key moments and violations ahead of the cursor stay hidden.
    pub hide: bool,
    pub cursor: usize,
    pub dispatch: Callback<Action>,
}

/// The zoom buttons and the overview strip.
pub fn zoom_bar(p: &ZoomBarProps) -> Html {
    let zoom = |to: ZoomTo| {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::Zoom(to)))
    };
    let z = p.view.zoom;
    let (from, to) = in_view(&p.layout, p.scroll.0, p.scroll.1);
    let level = if z < 10.0 { format!("{z:.1}×") } else { format!("{z:.0}×") };
    html! {
        <div class="zoombar" role="toolbar" aria-label="Zoom">
            <span class="zoom-word" aria-hidden="true">{ "Zoom" }</span>
            <button class="btn icon small" aria-label="Zoom out (X)" title="Zoom out (X)" disabled={z <= 1.0} onclick={zoom(ZoomTo::Out)}>{ "−" }</button>
            <span class="zoom-level" title="Magnification: 1× shows the whole run">{ level.clone() }</span>
            <button class="btn icon small" aria-label="Zoom in (Z)" title="Zoom in (Z)" disabled={z >= max_zoom(p.layout.end_us)} onclick={zoom(ZoomTo::In)}>{ "+" }</button>
            <button class="btn small" aria-label="Show the whole run (0)" title="Show the whole run (0)" disabled={z <= 1.0} onclick={zoom(ZoomTo::Fit)}>{ "Fit" }</button>
            <button class="btn small" aria-label="Zoom to the step at the cursor (M)" title="Zoom to the step at the cursor and its neighbours (M)" onclick={zoom(ZoomTo::Moment)}>{ "Zoom to step" }</button>
            if p.view.first.is_some() {
                <span class="zoom-note" role="note" title={format!("The run opened zoomed in {level} on its first key moment, where it is crowded; Fit (0) shows the whole run")}>
                    { "Zoomed in on the first key moment" }
                </span>
            }
            <Overview layout={p.layout.clone()} run={p.run.clone()} facts={p.facts.clone()} {from} {to} scroller={p.scroller.clone()} t_us={p.t_us} hide={p.hide} cursor={p.cursor} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct OverviewProps {
    pub layout: ByPtr<Layout>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    /// The part of the run in view.
    pub from: Micros,
    pub to: Micros,
    pub scroller: NodeRef,
    pub t_us: Micros,
    pub hide: bool,
    pub cursor: usize,
}

/// The whole run in one strip, the part in view framed. Pointer: click or drag the frame.
/// Keyboard: ← / → move it by half its width, Page Up / Page Down by its width, Home / End to
/// either end; the lab's other keys (0, Z, M…) stay the lab's.
#[component]
pub fn Overview(p: &OverviewProps) -> Html {
    let lay = &p.layout;
    let end = lay.end_us.max(Micros::us(1)).as_f64();
    let pct = |t: Micros| 100.0 * t.as_f64() / end;
    // Show the part centred on a true time.
    let center_on = {
        let (scroller, lay) = (p.scroller.clone(), lay.clone());
        move |t: Micros| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                put(&el, &lay, t, (f64::from(el.client_width()) + GUTTER) / 2.0);
            }
        }
    };
    // Yew delegates events, so the strip is found by its ref rather than the event's target.
    let strip = use_node_ref();
    let at_pointer = {
        let strip = strip.clone();
        move |e: &PointerEvent| {
            strip.cast::<web_sys::Element>().map(|el| {
                let r = el.get_bounding_client_rect();
                Micros::from_f64(((f64::from(e.client_x()) - r.left()) / r.width().max(1.0) * end).clamp(0.0, end))
            })
        }
    };
    let down = {
        let (center_on, at_pointer, strip) = (center_on.clone(), at_pointer.clone(), strip.clone());
        Callback::from(move |e: PointerEvent| {
            // A click does not take the keyboard: ← and → go on stepping through the run.
            e.prevent_default();
            if let Some(el) = strip.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            if let Some(t) = at_pointer(&e) {
                center_on(t);
            }
        })
    };
    let drag = {
        let center_on = center_on.clone();
        Callback::from(move |e: PointerEvent| {
            if e.buttons() & 1 == 1 {
                if let Some(t) = at_pointer(&e) {
                    center_on(t);
                }
            }
        })
    };
    let keys = {
        let (from, to, end_us) = (p.from, p.to, lay.end_us);
        Callback::from(move |e: KeyboardEvent| {
            let half = (to - from) / 2;
            let mid = from + half;
            let t = match e.key().as_str() {
                "ArrowLeft" => mid - half,
                "ArrowRight" => mid + half,
                "PageUp" => mid - 2 * half,
                "PageDown" => mid + 2 * half,
                "Home" => Micros::ZERO,
                "End" => end_us,
                _ => return,
            };
            e.prevent_default();
            center_on(t.clamp(Micros::ZERO, end_us));
        })
    };
    let hidden = |i: usize| p.hide && i > p.cursor;
    let time = |i: usize| p.run.events.get(i).map_or(Micros::ZERO, |e| e.at_us);
    let ticks = |list: &[usize], class: &'static str| {
        list.iter()
            .copied()
            .filter(|&i| !hidden(i))
            .map(|i| html! { <span class={class} style={format!("left:{:.3}%", pct(time(i)))}></span> })
            .collect::<Html>()
    };
    let whole = p.from == Micros::ZERO && p.to >= lay.end_us;
    html! {
        <div class={classes!("overview", whole.then_some("whole"))} ref={strip} tabindex="0" role="slider"
             aria-label="The part of the run in view (← and →, Page Up and Page Down, Home and End to move it)"
             title="The whole run: the frame is the part in view (click or drag to move it). Grey: pauses; blue: key moments; red: where harm was done; black: the cursor."
             aria-valuemin="0" aria-valuemax={lay.end_us.to_string()} aria-valuenow={p.from.to_string()}
             aria-valuetext={format!("{} to {} of {}", fmt(p.from), fmt(p.to), fmt(lay.end_us))}
             onpointerdown={down} onpointermove={drag} onkeydown={keys}>
            { for lay.pauses.iter().map(|b| {
                let f = |x: f64| 100.0 * ((x - lay.x0) / (lay.x1 - lay.x0).max(1.0)).clamp(0.0, 1.0);
                html! { <span class="ov-pause" style={format!("left:{:.3}%;width:{:.3}%", f(b.x0), (f(b.x1) - f(b.x0)).max(0.3))}></span> }
            }) }
            { ticks(p.facts.moments(), "ov-moment") }
            { ticks(p.facts.violations(), "ov-bad") }
            <span class="ov-cursor" style={format!("left:{:.3}%", pct(p.t_us))}></span>
            <span class="ov-window" style={format!("left:{:.3}%;width:{:.3}%", pct(p.from), (pct(p.to) - pct(p.from)).max(0.5))}></span>
        </div>
    }
}
