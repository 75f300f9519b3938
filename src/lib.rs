//! The Lease Lab browser app: a timeline to step through, scrub, play and change.
//!
//! `state` holds the one reducer, `layout` computes the timeline's geometry, `edit` turns typed
//! values into scenarios; they are pure and tested natively. `view` holds the components, which
//! only draw and forward events.

pub mod compress;
pub mod drill;
pub mod edit;
pub mod guide;
pub mod library;
pub mod prerender;
pub mod revise;
pub use draw::layout;
pub mod share;
pub mod state;
pub mod view;

/// Mounts the app on the page.
pub fn start() {
    view::app::mount();
}

/// Mounts one run into `element` of another page (see static/embed.js): options are
/// `{ scenario: <library id or scenario object>, step, fix, controls: "full"|"play"|"none",
/// autoplay, stylesheet }`. A bad option is refused with a message (and shown in the element).
/// A library scenario's file is fetched first, from beside the stylesheet.
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn mount(element: web_sys::Element, options: wasm_bindgen::JsValue) -> Result<(), wasm_bindgen::JsValue> {
    if let Some((base, _)) = view::embed::string_option(&options, "stylesheet").as_ref().and_then(|css| css.rsplit_once('/')) {
        library::set_base(&format!("{base}/"));
    }
    let result = match view::embed::string_option(&options, "scenario") {
        Some(id) => library::load(&[&id]).await,
        None => Ok(()),
    };
    match result.and_then(|()| view::embed::mount_into(&element, &options)) {
        Ok(()) => Ok(()),
        Err(message) => {
            element.set_text_content(Some(&format!("Lease Lab: {message}")));
            Err(wasm_bindgen::JsValue::from_str(&message))
        }
    }
}
