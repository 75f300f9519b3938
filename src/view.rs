//! The components. They draw what `state` and `layout` give them and forward events as
//! `Action`s; they decide nothing.

pub mod address;
pub mod app;
pub mod controls;
pub mod course;
pub mod editor;
pub mod inspector;
pub mod pages;
pub mod predict;
pub mod timeline;

/// Whether a library scenario (with its fix, or as written) is safe, by running it; each is run
/// once per page load and remembered, for the course, the guide and the debate page.
pub fn library_safe(id: &str, fixed: bool) -> bool {
    thread_local! {
        static SAFE: std::cell::RefCell<std::collections::HashMap<(String, bool), bool>> = Default::default();
    }
    if let Some(v) = SAFE.with(|m| m.borrow().get(&(id.to_string(), fixed)).copied()) {
        return v;
    }
    let safe = sim::library::get(id)
        .and_then(|sc| if fixed { sc.fixed().and_then(Result::ok) } else { Some(sc) })
        .and_then(|sc| sim::run(&sc).ok())
        .is_some_and(|r| r.verdict.is_safe());
    SAFE.with(|m| m.borrow_mut().insert((id.to_string(), fixed), safe));
    safe
}

/// A short label for a client's palette colour (CSS class `c0`…`c7`).
pub fn color_class(i: usize) -> String {
    if i == usize::MAX {
        "srv".into()
    } else {
        format!("c{}", i % 8)
    }
}
