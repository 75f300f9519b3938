//! The timeline's backdrop, drawn once per run and width: the axis, the lanes (click one to add
//! a fault there), the bars, the pause blocks (drag, resize, or use the keys) and the messages.

use draw::glyph;
use draw::layout::Layout;
use sim::scenario::{Fault, Scenario};
use sim::time::{fmt, Millis};
use sim::Run;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::chunks::{Chunk, Of, Parts, CHUNK};
use super::drag::{svg_x, timeline_svg, Drag, DragMode, Drags};
use super::menu::Menu;
use super::shape::{inside, shape};
use crate::state::{Action, ByPtr};

#[derive(Properties, PartialEq)]
pub struct BackdropProps {
    pub layout: ByPtr<Layout>,
    /// Its bars and arrows in chunks (`chunks::Parts`).
    pub parts: ByPtr<Parts>,
    pub run: ByPtr<Run>,
    pub scenario: ByPtr<Scenario>,
    pub drag: Drags,
    pub menu: UseStateSetter<Option<Menu>>,
    pub dispatch: Callback<Action>,
    /// Only to look at: no menu, no drag, no keys, and no tooltip that offers them.
    pub readonly: bool,
    /// The stretch (in x) whose elements are drawn (`zoom::drawn`).
    pub window: (f64, f64),
}

#[component]
pub fn Backdrop(p: &BackdropProps) -> Html {
    crate::view::probe::rendered("Backdrop");
    let lay = &p.layout;
    let lanes = lay.lanes.iter().map(|l| {
        let role = glyph::role_label(l.role, p.scenario.lock.kind, false);
        if p.readonly {
            return html! {
                <g class={classes!("lane", glyph::color_class(l.color))}>
                    <rect class="lane-bg" x={lay.x0.to_string()} y={l.y.to_string()} width={(lay.x1 - lay.x0).to_string()} height={l.h.to_string()}>
                        <title>{ format!("{}: {role}", l.name) }</title>
                    </rect>
                </g>
            };
        }
        let onclick = {
            let (menu, lay, drag, actor) = (p.menu.clone(), lay.clone(), p.drag.clone(), l.actor);
            Callback::from(move |e: MouseEvent| {
                if drag.borrow_mut().take().is_some_and(|d| d.moved) {
                    return;
                }
                let (x, y) = svg_x(&e);
                // Upwards where the window has not room below for it (a phone's controls sit at
                // the bottom of the screen) and has more above.
                let below = crate::view::window().and_then(|w| w.inner_height().ok()?.as_f64()).unwrap_or(1e9) - f64::from(e.client_y());
                let up = below < 340.0 && f64::from(e.client_y()) > below;
                menu.set(Some(Menu { actor, t: lay.t(x), x, y, up }));
            })
        };
        html! {
            <g class={classes!("lane", glyph::color_class(l.color))}>
                <rect class="lane-bg" x={lay.x0.to_string()} y={l.y.to_string()} width={(lay.x1 - lay.x0).to_string()} height={l.h.to_string()} {onclick}>
                    <title>{ glyph::lane_title(&l.name, role) }</title>
                </rect>
            </g>
        }
    });
    let (from, to) = p.window;
    let seen = |x0: f64, x1: f64| x0.max(x1) >= from && x0.min(x1) <= to;
    let window = p.window;
    let bars = p.parts.bars.iter().map(|bars| html! { <Chunk of={Of::Bars(bars.clone())} {window} /> });
    // An arrow's tooltip is worded when the pointer comes over it, into the one title of the
    // group (the nearest title is the one shown): thousands of them would be worded and kept
    // in the page for each change of a large run.
    let arrows =
        p.parts.arrows.iter().enumerate().map(|(i, arrows)| html! { <Chunk of={Of::Arrows(arrows.clone(), i * CHUNK)} {window} /> });
    let tip = use_node_ref();
    let on_over = {
        let (tip, lay, run) = (tip.clone(), p.layout.clone(), p.run.clone());
        Callback::from(move |e: PointerEvent| {
            let over = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("[data-i]").ok().flatten());
            let arrow = over.and_then(|g| g.get_attribute("data-i")).and_then(|i| lay.arrows.get(i.parse::<usize>().ok()?));
            if let (Some(a), Some(t)) = (arrow, tip.cast::<web_sys::Element>()) {
                t.set_text_content(Some(&a.title(&run)));
            }
        })
    };
    // A finger on a pause block drags it sideways: those moves must not scroll the timeline
    // instead (a pause's `touch-action` is not heeded inside an SVG); a finger that goes more up
    // or down than sideways scrolls the page. Only the blocks' group listens, so a pan elsewhere
    // never waits for the page.
    let pauses = use_node_ref();
    {
        let pauses = pauses.clone();
        use_effect_with((), move |_| {
            let hold = pauses.cast::<web_sys::Element>().map(|g| {
                let start = std::rc::Rc::new(std::cell::Cell::new((0, 0)));
                let at = |e: &web_sys::Event| {
                    let t = e.dyn_ref::<web_sys::TouchEvent>()?.touches().get(0)?;
                    Some((t.client_x(), t.client_y()))
                };
                let down = {
                    let start = start.clone();
                    gloo_events::EventListener::new(&g, "touchstart", move |e| start.set(at(e).unwrap_or_default()))
                };
                let opts = gloo_events::EventListenerOptions::enable_prevent_default();
                let moved = gloo_events::EventListener::new_with_options(&g, "touchmove", opts, move |e| {
                    let ((x0, y0), (x, y)) = (start.get(), at(e).unwrap_or_default());
                    if (x - x0).abs() >= (y - y0).abs() {
                        e.prevent_default();
                    }
                });
                (down, moved)
            });
            move || drop(hold)
        });
    }
    html! {
        <>
            <g class="axis">{ for glyph::axis_between(lay, from, to).iter().map(shape) }</g>
            { for lanes }
            { for bars }
            <g class="pauses" ref={pauses}>{ for lay.pauses.iter().filter(|pb| seen(pb.x0, pb.x1)).map(|pb| pause(p, pb)) }</g>
            <g class="msgs" onpointerover={on_over}><title ref={tip}></title>{ for arrows }</g>
        </>
    }
}

/// A pause block: drag it to move it, drag its right edge to resize it; focused, the arrow
/// keys move and resize it and Delete removes it (each key one change, for Undo).
fn pause(p: &BackdropProps, pb: &draw::layout::PauseBlock) -> Html {
    let g = glyph::pause(pb);
    if p.readonly {
        return html! { <g class={g.class.clone()}>{ inside(&g) }</g> };
    }
    let (fault, d) = (pb.fault, p.dispatch.clone());
    let (at_ms, duration_ms) =
        p.scenario.faults.get(fault).and_then(Fault::block).map_or((Millis::ZERO, Millis::ZERO), |b| (b.at_ms, b.duration_ms));
    let on_down = {
        let drag = p.drag.clone();
        let x1 = pb.x1;
        Callback::from(move |e: PointerEvent| {
            e.stop_propagation();
            let (x, _) = svg_x(&e);
            let mode = if (x - x1).abs() <= 8.0 { DragMode::Resize } else { DragMode::Move };
            // Yew delegates events, so capture on the SVG itself: its move handler then sees
            // every move until the button is released, even outside the block.
            if let Some(svg) = timeline_svg(&e) {
                let _ = svg.set_pointer_capture(e.pointer_id());
            }
            *drag.borrow_mut() = Some(Drag { fault: Some(fault), mode, start_x: x, at_ms, duration_ms, moved: false });
        })
    };
    let on_key = Callback::from(move |e: KeyboardEvent| {
        let (step, at, dur) = (500, at_ms.get(), duration_ms.get());
        let (at, dur) = match (e.key().as_str(), e.shift_key()) {
            ("ArrowLeft", false) => (at.saturating_sub(step), dur),
            ("ArrowRight", false) => (at + step, dur),
            ("ArrowLeft", true) => (at, dur.saturating_sub(step).max(50)),
            ("ArrowRight", true) => (at, dur + step),
            ("Delete", _) | ("Backspace", _) => {
                e.prevent_default();
                d.emit(Action::RemoveFault(fault));
                return;
            }
            _ => return,
        };
        e.prevent_default();
        d.emit(Action::MovePause { fault, at_ms: Millis::new(at), duration_ms: Millis::new(dur) });
        d.emit(Action::EndDrag);
    });
    let label = format!(
        "Pause of {} from {} for {}. Left and right arrows move it, Shift with arrows resizes it, Delete removes it.",
        p.run.actors[pb.actor].name,
        fmt(at_ms.to_micros()),
        fmt(duration_ms.to_micros())
    );
    html! {
        <g class={g.class.clone()} tabindex="0" role="button" aria-label={label} data-keys="own" data-fault={fault.to_string()}
           onpointerdown={on_down} onkeydown={on_key}>
            { inside(&g) }
            <rect class="grip" x={(pb.x1 - 5.0).to_string()} y={pb.y.to_string()} width="8" height={pb.h.to_string()} />
        </g>
    }
}
