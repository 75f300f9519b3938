//! Dragging a pause block: [`Drag`] remembers where it started; [`svg_x`] reads the pointer in
//! the timeline's own coordinates.

use std::cell::RefCell;

use draw::layout::Layout;
use sim::time::{Millis, MS};
use yew::prelude::*;

use crate::state::{Action, ByPtr};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragMode {
    Move,
    Resize,
}

/// A drag in progress (or just ended: `moved` stays for the click that follows it).
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    /// The pause fault dragged; `None` once the button is released.
    pub fault: Option<usize>,
    pub mode: DragMode,
    pub start_x: f64,
    pub at_ms: Millis,
    pub duration_ms: Millis,
    pub moved: bool,
}

/// The timeline's drag state, shared by its parts (compared by identity).
pub type Drags = ByPtr<RefCell<Option<Drag>>>;

/// The pointer's position in the timeline SVG's own coordinates (it is drawn at 1:1).
pub fn svg_x(e: &web_sys::MouseEvent) -> (f64, f64) {
    match timeline_svg(e) {
        Some(svg) => {
            let r = svg.get_bounding_client_rect();
            (e.client_x() as f64 - r.left(), e.client_y() as f64 - r.top())
        }
        None => (e.offset_x() as f64, e.offset_y() as f64),
    }
}

/// The timeline's SVG element, from an event inside it.
pub fn timeline_svg(e: &web_sys::MouseEvent) -> Option<web_sys::Element> {
    e.target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .and_then(|el| el.closest("svg.timeline").ok().flatten())
}

/// The SVG's pointer handlers for a drag begun on a pause block: a move moves or resizes the
/// pause; releasing the button, or the browser taking the pointer for a scroll, ends the drag
/// (one change, for Undo).
pub fn handlers(drag: &Drags, lay: &ByPtr<Layout>, dispatch: &Callback<Action>) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let on_move = {
        let (drag, lay, d) = (drag.clone(), lay.clone(), dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            let mut slot = drag.borrow_mut();
            let Some(dr) = slot.as_mut() else { return };
            let (x, _) = svg_x(&e);
            // A few pixels of drift (a tap, or a finger that meant to scroll the page) move
            // nothing.
            if !dr.moved && (x - dr.start_x).abs() < 4.0 {
                return;
            }
            let dms = ((x - dr.start_x) * lay.us_per_px() / MS.as_f64()).round() as i64;
            if dms != 0 {
                dr.moved = true;
            }
            let (at, dur) = match dr.mode {
                DragMode::Move => (Millis::new((dr.at_ms.get() as i64 + dms).max(0) as u64), dr.duration_ms),
                DragMode::Resize => (dr.at_ms, Millis::new((dr.duration_ms.get() as i64 + dms).max(50) as u64)),
            };
            if let Some(fault) = dr.fault {
                d.emit(Action::MovePause { fault, at_ms: at, duration_ms: dur });
            }
        })
    };
    let on_up = {
        let (drag, d) = (drag.clone(), dispatch.clone());
        Callback::from(move |_: PointerEvent| {
            // Keep `moved` for the click that follows a drag; clear on the next pointerdown.
            if let Some(dr) = drag.borrow_mut().as_mut() {
                if dr.fault.take().is_some() && dr.moved {
                    // The drag is one change: the next one is another.
                    d.emit(Action::EndDrag);
                }
            }
        })
    };
    (on_move, on_up)
}
