//! Dragging a pause block: [`Drag`] remembers where it started; [`svg_x`] reads the pointer in
//! the timeline's own coordinates.

use std::cell::RefCell;

use crate::state::ByPtr;

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
    pub at_ms: u64,
    pub duration_ms: u64,
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
