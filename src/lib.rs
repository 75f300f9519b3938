//! The Lease Lab browser app: a timeline to step through, scrub, play and change.
//!
//! `state` holds the one reducer, `layout` computes the timeline's geometry, `edit` turns typed
//! values into scenarios; they are pure and tested natively. `view` holds the components, which
//! only draw and forward events.

pub mod edit;
pub use draw::layout;
pub mod share;
pub mod state;
pub mod view;

/// Mounts the app on the page.
pub fn start() {
    view::app::mount();
}
