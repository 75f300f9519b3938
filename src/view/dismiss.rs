//! A menu closes as menus do: on a press anywhere outside it, or on Escape wherever the focus is.

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// While `open`, a press outside `inside` (the menu with the button that opens it, so that the
/// button still toggles it) or the Escape key calls `close`. The document is listened to only
/// while the menu is open.
#[hook]
pub fn use_dismiss(open: bool, inside: NodeRef, close: Callback<()>) {
    use_effect_with(open, move |&open| {
        let listeners = open.then(|| crate::view::window().and_then(|w| w.document())).flatten().map(|doc| {
            let outside = {
                let close = close.clone();
                // Capture: a press that something inside the page stops still closes the menu.
                EventListener::new_with_options(&doc, "pointerdown", EventListenerOptions::run_in_capture_phase(), move |e| {
                    let target = e.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok());
                    let within = inside.get().is_some_and(|menu| menu.contains(target.as_ref()));
                    if !within {
                        close.emit(());
                    }
                })
            };
            // Capture, and the key taken: Escape closes the menu, not also what the lab's own
            // Escape closes (its keys skip a key already taken).
            let opts = EventListenerOptions { phase: gloo_events::EventListenerPhase::Capture, passive: false };
            let escape = EventListener::new_with_options(&doc, "keydown", opts, move |e| {
                if e.dyn_ref::<web_sys::KeyboardEvent>().is_some_and(|k| k.key() == "Escape") {
                    e.prevent_default();
                    close.emit(());
                }
            });
            (outside, escape)
        });
        move || drop(listeners)
    });
}
