//! The keyboard map: [`KEYS`] (shown in the help overlay) and the action of each key.

use wasm_bindgen::JsCast;

use crate::state::{Action, ZoomTo};

/// The keyboard map (also shown in the help overlay).
pub const KEYS: &[(&str, &str)] = &[
    ("← / →", "step back / forward"),
    ("Shift + ← / →", "previous / next key moment (past the last: the end)"),
    ("Space", "play / pause"),
    ("Home / End", "start / end"),
    ("+ / −", "faster / slower"),
    ("T", "play step by step, or in time (true time at the speed chosen)"),
    ("V", "next violation"),
    ("Z / X", "zoom in / out around the cursor, or the middle of the view if the cursor is out of it (or Ctrl + wheel, or pinch)"),
    ("M", "zoom to the step at the cursor"),
    ("0", "show the whole run"),
    ("F", "apply or undo the fix"),
    ("U or Ctrl + Z", "undo the last change"),
    ("P", "predict mode on / off"),
    ("A – E", "answer a predict question (letters, so that a key is never mistaken for a numeric answer)"),
    ("?", "this help"),
    ("Esc", "close"),
];

/// Whether the reader is typing in a field (or a widget that keeps its own keys).
pub fn is_typing(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    is_text(&el) || el.closest("[data-keys=own]").ok().flatten().is_some()
}

/// Whether the reader is in a form field, where keys are text (and Ctrl+Z the field's own undo).
pub fn is_text_field(target: Option<web_sys::EventTarget>) -> bool {
    target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|el| is_text(&el))
}

fn is_text(el: &web_sys::Element) -> bool {
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
}

/// The letter a choice is answered with: A for the first.
pub fn letter(n: usize) -> char {
    (b'A' + n as u8) as char
}

fn choice_of(key: &str) -> usize {
    (key.to_ascii_uppercase().as_bytes()[0] - b'A') as usize
}

/// The action of a key, if it has one.
pub fn key_action(e: &web_sys::KeyboardEvent) -> Option<Action> {
    Some(match (e.key().as_str(), e.shift_key()) {
        ("ArrowLeft", false) => Action::Step(-1),
        ("ArrowRight", false) => Action::Step(1),
        ("ArrowLeft", true) => Action::PrevMoment,
        ("ArrowRight", true) => Action::NextMoment,
        (" ", _) => Action::TogglePlay,
        ("Home", _) => Action::First,
        ("End", _) => Action::Last,
        ("+", _) | ("=", _) => Action::Faster,
        ("t", _) | ("T", _) => Action::TogglePace,
        ("-", _) | ("_", _) => Action::Slower,
        ("v", _) | ("V", _) => Action::NextViolation,
        ("z", false) | ("Z", false) => Action::Zoom(ZoomTo::In),
        ("x", false) | ("X", false) => Action::Zoom(ZoomTo::Out),
        ("m", false) | ("M", false) => Action::Zoom(ZoomTo::Moment),
        ("0", _) => Action::Zoom(ZoomTo::Fit),
        ("f", _) | ("F", _) => Action::ToggleFix,
        ("p", _) | ("P", _) => Action::TogglePredict,
        (k @ ("a" | "b" | "c" | "d" | "e" | "A" | "B" | "C" | "D" | "E"), _) => Action::Choose(choice_of(k)),
        ("?", _) => Action::ToggleHelp,
        ("Escape", _) => Action::CloseOverlays,
        _ => return None,
    })
}
