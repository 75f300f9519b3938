//! The keyboard map: [`KEYS`] (shown in the help overlay) and the action of each key.

use wasm_bindgen::JsCast;

use crate::state::Action;

/// The keyboard map (also shown in the help overlay).
pub const KEYS: &[(&str, &str)] = &[
    ("← / →", "step back / forward"),
    ("Shift + ← / →", "previous / next key moment"),
    ("Space", "play / pause"),
    ("Home / End", "start / end"),
    ("+ / −", "faster / slower"),
    ("V", "next violation"),
    ("F", "apply or undo the fix"),
    ("P", "predict mode on / off"),
    ("1 – 6", "answer a predict question"),
    ("?", "this help"),
    ("Esc", "close"),
];

/// Whether the reader is typing in a field (or a widget that keeps its own keys).
pub fn is_typing(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA") || el.closest("[data-keys=own]").ok().flatten().is_some()
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
        ("-", _) | ("_", _) => Action::Slower,
        ("v", _) | ("V", _) => Action::NextViolation,
        ("f", _) | ("F", _) => Action::ToggleFix,
        ("p", _) | ("P", _) => Action::TogglePredict,
        (d @ ("1" | "2" | "3" | "4" | "5" | "6"), _) => Action::Choose(d.parse::<usize>().unwrap_or(1) - 1),
        ("?", _) => Action::ToggleHelp,
        ("Escape", _) => Action::CloseOverlays,
        _ => return None,
    })
}
