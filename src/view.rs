//! The components. They draw what `state` and `layout` give them and forward events as
//! `Action`s; they decide nothing.

pub mod app;
pub mod controls;
pub mod course;
pub mod editor;
pub mod inspector;
pub mod pages;
pub mod predict;
pub mod timeline;

/// A short label for a client's palette colour (CSS class `c0`…`c7`).
pub fn color_class(i: usize) -> String {
    if i == usize::MAX {
        "srv".into()
    } else {
        format!("c{}", i % 8)
    }
}
