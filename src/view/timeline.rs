//! The timeline: one lane per actor, drawn from `layout`. Pause blocks can be dragged and
//! resized; clicking a lane offers faults to add there.

use std::cell::RefCell;
use std::rc::Rc;

use sim::scenario::Fault;
use sim::time::{fmt, Micros, MS};
use sim::trace::Role;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::layout::{layout, ArrowKind, BarKind, Layout, MarkKind};
use crate::state::{ms_at, Action, Screen};
use crate::view::color_class;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub screen: Rc<Screen>,
    pub dispatch: Callback<Action>,
}

/// Whether the reader asked for reduced motion (then steps are instant and nothing moves).
fn reduced_motion() -> bool {
    web_sys::window().and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten()).is_some_and(|m| m.matches())
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum DragMode {
    Move,
    Resize,
}

#[derive(Clone, Copy, Debug)]
struct Drag {
    fault: usize,
    mode: DragMode,
    start_x: f64,
    at_ms: u64,
    duration_ms: u64,
    moved: bool,
}

#[derive(Clone, Debug, PartialEq)]
struct Menu {
    actor: usize,
    t: Micros,
    x: f64,
    y: f64,
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Client => "client",
        Role::Redis => "Redis (lock)",
        Role::Replica => "Redis replica",
        Role::Member => "etcd-like member",
        Role::Resource => "protected resource",
    }
}

/// The pointer's position in the timeline SVG's own coordinates (it is drawn at 1:1).
fn svg_x(e: &MouseEvent) -> (f64, f64) {
    let svg = e
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|el| el.closest("svg.timeline").ok().flatten());
    match svg {
        Some(svg) => {
            let r = svg.get_bounding_client_rect();
            (e.client_x() as f64 - r.left(), e.client_y() as f64 - r.top())
        }
        None => (e.offset_x() as f64, e.offset_y() as f64),
    }
}

#[component]
pub fn Timeline(p: &TimelineProps) -> Html {
    let s = &p.screen;
    let wrap = use_node_ref();
    let width = use_state_eq(|| 1000.0f64);
    // Measure the container now and whenever its size changes (a window resize, or the lab shown
    // again after a page); the observer is disconnected with the component. A hidden container
    // (width 0) keeps the last width.
    {
        let wrap = wrap.clone();
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
    let key = (Rc::as_ptr(&s.run) as usize, Rc::as_ptr(&s.scenario) as usize, *width as i64);
    let lay: Rc<Layout> = {
        let (run, sc) = (s.run.clone(), s.scenario.clone());
        use_memo(key, move |(_, _, w)| layout(&run, &sc, *w as f64))
    };
    let drag: Rc<RefCell<Option<Drag>>> = use_mut_ref(|| None);
    let menu = use_state(|| None::<Menu>);
    let reduced = *use_memo((), |_| reduced_motion());
    // With reduced motion the cursor jumps from step to step instead of gliding between them.
    let t_now = if reduced { s.run.events.get(s.cursor).map_or(0, |e| e.at_us) } else { s.time_us() };
    let x_now = lay.x(t_now);
    // On a narrow screen the timeline scrolls: keep the cursor in view as it moves.
    let scroller = use_node_ref();
    {
        let scroller = scroller.clone();
        use_effect_with(x_now as i64, move |x| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                let (left, w) = (el.scroll_left(), el.client_width());
                let x = *x as i32;
                if x < left + crate::layout::GUTTER as i32 || x > left + w - 24 {
                    el.set_scroll_left((x - w / 2).max(0));
                }
            }
        });
    }

    let on_move = {
        let (drag, lay, d) = (drag.clone(), lay.clone(), p.dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            let mut slot = drag.borrow_mut();
            let Some(dr) = slot.as_mut() else { return };
            let (x, _) = svg_x(&e);
            let dms = ((x - dr.start_x) * lay.us_per_px() / MS as f64).round() as i64;
            if dms != 0 {
                dr.moved = true;
            }
            let (at, dur) = match dr.mode {
                DragMode::Move => ((dr.at_ms as i64 + dms).max(0) as u64, dr.duration_ms),
                DragMode::Resize => (dr.at_ms, (dr.duration_ms as i64 + dms).max(50) as u64),
            };
            d.emit(Action::MovePause { fault: dr.fault, at_ms: at, duration_ms: dur });
        })
    };
    let on_up = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| {
            // Keep `moved` for the click that follows a drag; clear on the next pointerdown.
            if let Some(dr) = drag.borrow_mut().as_mut() {
                dr.fault = usize::MAX;
            }
        })
    };
    let on_lane_click = |actor: usize| {
        let (menu, lay, drag) = (menu.clone(), lay.clone(), drag.clone());
        Callback::from(move |e: MouseEvent| {
            if drag.borrow_mut().take().is_some_and(|d| d.moved) {
                return;
            }
            let (x, y) = svg_x(&e);
            menu.set(Some(Menu { actor, t: lay.t(x), x, y }));
        })
    };

    let veil_w = (lay.x1 - x_now).max(0.0);
    // Predict mode hides what has not happened yet: the veil turns opaque, and the markers
    // ahead of the cursor go.
    let hide = s.hides_future();
    let moments: Vec<usize> = s.moments().into_iter().filter(|&i| !hide || i <= s.cursor).collect();
    let violations: Vec<usize> = if hide { Vec::new() } else { s.violations() };

    let lanes = lay.lanes.iter().map(|l| {
        let role = role_name(l.role);
        html! {
            <g class={classes!("lane", color_class(l.color))}>
                <rect class="lane-bg" x={lay.x0.to_string()} y={l.y.to_string()} width={(lay.x1 - lay.x0).to_string()} height={l.h.to_string()}
                      onclick={on_lane_click(l.actor)}>
                    <title>{ format!("Click to add a fault to {} here ({role})", l.name) }</title>
                </rect>
            </g>
        }
    });
    // Lane names as a sticky HTML column, so they stay in view when the timeline scrolls.
    let labels = lay.lanes.iter().map(|l| {
        let role = if l.role == Role::Redis && s.scenario.lock.kind == sim::scenario::LockKind::Redlock {
            "Redlock node"
        } else if l.role == Role::Member && crate::view::inspector::leader_at(&s.run, t_now) == Some(l.actor) {
            "member · leader"
        } else {
            role_name(l.role)
        };
        let skew = s.run.local_at(l.actor, t_now) - t_now;
        let clock = (skew.abs() >= MS).then(|| format!("clock {}", fmt(s.run.local_at(l.actor, t_now))));
        html! {
            <div class={classes!("lane-label", color_class(l.color))} style={format!("top:{}px;height:{}px", l.y, l.h)}>
                <strong>{ &l.name }</strong>
                <span class="role">{ role }</span>
                if let Some(c) = clock { <span class="skew">{ c }</span> }
            </div>
        }
    });
    let bars = lay.bars.iter().map(|b| {
        let class = match b.kind {
            BarKind::Belief => "bar belief",
            BarKind::Stale => "bar stale",
            BarKind::Key => "bar key",
            BarKind::Down => "bar down",
            BarKind::Partition => "bar partition",
        };
        let c = b.color.map(color_class).unwrap_or_else(|| "srv".into());
        let show_label = b.x1 - b.x0 > 70.0 && b.h >= 10.0 && b.kind != BarKind::Down && b.kind != BarKind::Partition;
        html! {
            <g class={classes!(class.to_string(), c)}>
                <rect x={b.x0.to_string()} y={b.y.to_string()} width={(b.x1 - b.x0).max(1.0).to_string()} height={b.h.to_string()} rx="3">
                    <title>{ &b.title }</title>
                </rect>
                if show_label {
                    <text x={(b.x0 + if b.kind == BarKind::Key { 12.0 } else { 5.0 }).to_string()} y={(b.y + b.h / 2.0 + 4.0).to_string()} class="bar-label">{ &b.label }</text>
                }
            </g>
        }
    });
    let pauses = lay.pauses.iter().map(|pb| {
        let (fault, d) = (pb.fault, p.dispatch.clone());
        let (at_ms, duration_ms) = match s.scenario.faults.get(fault) {
            Some(Fault::Pause { at_ms, duration_ms, .. }) => (*at_ms, *duration_ms),
            _ => (0, 0),
        };
        let on_down = {
            let drag = drag.clone();
            let x1 = pb.x1;
            Callback::from(move |e: PointerEvent| {
                e.stop_propagation();
                let (x, _) = svg_x(&e);
                let mode = if (x - x1).abs() <= 8.0 { DragMode::Resize } else { DragMode::Move };
                // Yew delegates events, so capture on the SVG itself: its move handler then
                // sees every move until the button is released, even outside the block.
                let svg = e
                    .target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                    .and_then(|el| el.closest("svg.timeline").ok().flatten());
                if let Some(svg) = svg {
                    let _ = svg.set_pointer_capture(e.pointer_id());
                }
                *drag.borrow_mut() = Some(Drag { fault, mode, start_x: x, at_ms, duration_ms, moved: false });
            })
        };
        let on_key = Callback::from(move |e: KeyboardEvent| {
            let step = 500;
            let (at, dur) = match (e.key().as_str(), e.shift_key()) {
                ("ArrowLeft", false) => (at_ms.saturating_sub(step), duration_ms),
                ("ArrowRight", false) => (at_ms + step, duration_ms),
                ("ArrowLeft", true) => (at_ms, duration_ms.saturating_sub(step).max(50)),
                ("ArrowRight", true) => (at_ms, duration_ms + step),
                ("Delete", _) | ("Backspace", _) => {
                    e.prevent_default();
                    d.emit(Action::RemoveFault(fault));
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            d.emit(Action::MovePause { fault, at_ms: at, duration_ms: dur });
        });
        let label = format!(
            "Pause of {} from {} for {}. Left and right arrows move it, Shift with arrows resizes it, Delete removes it.",
            s.run.actors[pb.actor].name,
            fmt(at_ms as i64 * MS),
            fmt(duration_ms as i64 * MS)
        );
        html! {
            <g class="pause" tabindex="0" role="button" aria-label={label} data-keys="own" data-fault={fault.to_string()}
               onpointerdown={on_down} onkeydown={on_key}>
                <rect x={pb.x0.to_string()} y={pb.y.to_string()} width={(pb.x1 - pb.x0).to_string()} height={pb.h.to_string()} rx="3">
                    <title>{ &pb.title }</title>
                </rect>
                if pb.x1 - pb.x0 > 50.0 {
                    <text x={(pb.x0 + 6.0).to_string()} y={(pb.y + pb.h / 2.0 + 4.0).to_string()} class="pause-label">{ "paused" }</text>
                }
                <rect class="grip" x={(pb.x1 - 5.0).to_string()} y={pb.y.to_string()} width="8" height={pb.h.to_string()} />
            </g>
        }
    });
    let arrows = lay.arrows.iter().map(|a| {
        let class = match a.kind {
            ArrowKind::Normal => "msg",
            ArrowKind::Delayed => "msg delayed",
            ArrowKind::Lost => "msg lost",
            ArrowKind::InFlight => "msg inflight",
        };
        // While the cursor is between send and arrival, a dot travels along the arrow.
        let dot = (!reduced && a.sent_us <= t_now && t_now < a.arrived_us).then(|| {
            let f = (t_now - a.sent_us) as f64 / (a.arrived_us - a.sent_us).max(1) as f64;
            let (x, y) = (a.x0 + (a.x1 - a.x0) * f, a.y0 + (a.y1 - a.y0) * f);
            html! { <circle class="msg-dot" cx={x.to_string()} cy={y.to_string()} r="4" /> }
        });
        let marker = if a.kind == ArrowKind::Lost { "url(#lost)" } else { "url(#head)" };
        html! {
            <g class={class}>
                <line x1={a.x0.to_string()} y1={a.y0.to_string()} x2={a.x1.to_string()} y2={a.y1.to_string()} marker-end={marker}>
                    <title>{ &a.title }</title>
                </line>
                { for dot }
            </g>
        }
    });
    let marks = lay.marks.iter().map(|m| {
        let (x, y) = (m.x, m.y);
        let on_click = m.event.map(|ev| {
            let d = p.dispatch.clone();
            Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                d.emit(Action::Seek(ev));
            })
        });
        let body = match m.kind {
            MarkKind::Accepted => html! { <>
                <circle cx={x.to_string()} cy={y.to_string()} r="8" />
                <text x={x.to_string()} y={(y - 12.0).to_string()} class="mark-label">{ &m.label }</text>
                <path d={format!("M{} {} l3 3 l5 -6", x - 4.0, y)} class="tick" />
            </> },
            MarkKind::Rejected => html! { <>
                <circle cx={x.to_string()} cy={y.to_string()} r="8" />
                <text x={x.to_string()} y={(y - 12.0).to_string()} class="mark-label">{ &m.label }</text>
                <path d={format!("M{} {} l7 7 M{} {} l-7 7", x - 3.5, y - 3.5, x + 3.5, y - 3.5)} class="cross" />
            </> },
            MarkKind::Grant => html! { <>
                <rect x={(x - 4.0).to_string()} y={(y - 4.0).to_string()} width="8" height="8" transform={format!("rotate(45 {x} {y})")} />
                if !m.label.is_empty() { <text x={(x + 7.0).to_string()} y={(y - 14.0).to_string()} class="mark-label start">{ format!("token {}", m.label) }</text> }
            </> },
            MarkKind::Expired => html! { <circle cx={x.to_string()} cy={y.to_string()} r="4" /> },
            MarkKind::Violation => html! { <>
                <line x1={x.to_string()} y1={crate::layout::AXIS.to_string()} x2={x.to_string()} y2={lay.height.to_string()} class="vline" />
                <path d={format!("M{} {} l9 15 h-18 z", x, y - 2.0)} />
                <text x={x.to_string()} y={(y + 11.0).to_string()} class="bang">{ "!" }</text>
            </> },
            MarkKind::Jump => html! { <>
                <path d={format!("M{} {} v-10 m-4 4 l4 -4 l4 4", x, y + 6.0)} class="jump" />
                <text x={(x + 6.0).to_string()} y={(y - 6.0).to_string()} class="mark-label start">{ &m.label }</text>
            </> },
            MarkKind::Crash => html! { <path d={format!("M{} {} l10 10 M{} {} l-10 10", x - 5.0, y - 5.0, x + 5.0, y - 5.0)} class="crash" /> },
            MarkKind::Restart => html! { <path d={format!("M{} {} l6 10 h-12 z", x, y - 6.0)} /> },
        };
        let kind = format!("{:?}", m.kind).to_lowercase();
        html! {
            <g class={classes!("mark", kind)} onclick={on_click}>
                <title>{ &m.title }</title>
                { body }
            </g>
        }
    });
    let markers = moments.iter().map(|&i| (i, false)).chain(violations.iter().map(|&i| (i, true))).map(|(i, bad)| {
        let x = lay.x(s.run.events[i].at_us);
        let d = p.dispatch.clone();
        let title = if bad { "A violation: jump here".to_string() } else { s.run.events[i].moment.clone().unwrap_or_default() };
        html! {
            <g class={classes!("marker", bad.then_some("bad"))} onclick={Callback::from(move |_| d.emit(Action::Seek(i)))}>
                <title>{ title }</title>
                <path d={format!("M{} {} l5 -7 h-10 z", x, crate::layout::AXIS - 2.0)} />
            </g>
        }
    });
    let menu_html = (*menu).clone().map(|m| {
        let actor = s.run.actors[m.actor].clone();
        let at_ms = ms_at(m.t);
        let close = {
            let menu = menu.clone();
            Callback::from(move |_| menu.set(None))
        };
        let item = |label: String, fault: Fault| {
            let (d, menu) = (p.dispatch.clone(), menu.clone());
            html! { <button class="menu-item" onclick={Callback::from(move |_| { d.emit(Action::AddFault(fault.clone())); menu.set(None); })}>{ label }</button> }
        };
        let name = actor.name.clone();
        let mut items = vec![
            item(format!("Pause {name} here for 5 s"), Fault::Pause { actor: name.clone(), at_ms, duration_ms: 5_000 }),
            item(format!("Crash {name} here"), Fault::Crash { actor: name.clone(), at_ms }),
            item(format!("Jump {name}'s clock forward 10 s here"), Fault::ClockJump { actor: name.clone(), at_ms, by_ms: 10_000 }),
        ];
        if actor.role != Role::Client {
            items.push(item(format!("Restart {name} here"), Fault::Restart { actor: name.clone(), at_ms }));
        }
        if actor.role == Role::Redis && s.scenario.lock.replica.is_some() {
            items.push(item("Fail over to the replica here".into(), Fault::Failover { at_ms }));
        }
        if actor.role == Role::Client {
            for peer in s.run.actors.iter().filter(|a| a.role == Role::Redis || a.role == Role::Resource) {
                items.push(item(
                    format!("Hold {name}'s next message to {} for 30 s", peer.name),
                    Fault::Delay { from: name.clone(), to: peer.name.clone(), at_ms, extra_ms: 30_000, count: 1 },
                ));
            }
        }
        let left = m.x.min(lay.width - 260.0).max(0.0);
        html! {
            <div class="lane-menu" role="group" aria-label={format!("Add a fault to {name} at {}", fmt(m.t))} data-keys="own"
                 style={format!("left:{left}px;top:{}px", m.y + 8.0)}
                 onkeydown={let menu = menu.clone(); Callback::from(move |e: KeyboardEvent| if e.key() == "Escape" { menu.set(None) })}>
                <div class="menu-title">{ format!("At {} on {name}", fmt(m.t)) }</div>
                { for items }
                <button class="menu-item cancel" onclick={close}>{ "Cancel" }</button>
            </div>
        }
    });
    let timeline_error = s.error.as_ref().filter(|e| e.field == "timeline").map(|e| e.message.clone());

    html! {
        <div class={classes!("timeline-wrap", hide.then_some("hide-future"))} ref={wrap}>
            <div class="timeline-scroll" ref={scroller}>
                <div class="lane-labels">{ for labels }</div>
                <svg class="timeline" width={lay.width.to_string()} height={lay.height.to_string()} role="group"
                     aria-label={format!("Timeline from 0 to {}: {} lanes. The cursor is at {}.", fmt(lay.end_us), lay.lanes.len(), fmt(t_now))}
                     onpointermove={on_move} onpointerup={on_up}>
                    <defs>
                        <marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                            <path d="M0 0 L10 5 L0 10 z" class="head" />
                        </marker>
                        <marker id="lost" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8">
                            <path d="M1 1 L9 9 M9 1 L1 9" class="lost-x" />
                        </marker>
                    </defs>
                    <g class="axis">
                        { for lay.ticks.iter().map(|t| html! { <>
                            <line x1={t.x.to_string()} y1={(crate::layout::AXIS - 6.0).to_string()} x2={t.x.to_string()} y2={lay.height.to_string()} class="grid" />
                            <text x={t.x.to_string()} y={(crate::layout::AXIS - 12.0).to_string()}>{ &t.label }</text>
                        </> }) }
                    </g>
                    { for lanes }
                    { for bars }
                    { for pauses }
                    <g class="msgs">{ for arrows }</g>
                    { for marks }
                    <rect class="veil" x={x_now.to_string()} y={crate::layout::AXIS.to_string()} width={veil_w.to_string()} height={(lay.height - crate::layout::AXIS).to_string()} pointer-events="none" />
                    { for markers }
                    <g class="cursor" pointer-events="none">
                        <line x1={x_now.to_string()} y1={(crate::layout::AXIS - 4.0).to_string()} x2={x_now.to_string()} y2={lay.height.to_string()} />
                        <text x={x_now.to_string()} y="12">{ fmt(t_now) }</text>
                    </g>
                </svg>
                { for menu_html }
            </div>
            if let Some(msg) = timeline_error {
                <p class="field-error" role="alert">{ msg }</p>
            }
        </div>
    }
}
