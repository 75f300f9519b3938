//! The components. They draw what `state` and `layout` give them and forward events as
//! `Action`s; they decide nothing. Each receives only what it draws (see `lab.rs`).

pub mod address;
pub mod app;
pub mod compare;
pub mod controls;
pub mod course;
#[cfg(feature = "prerender")]
pub mod debate;
pub mod dismiss;
pub mod drill;
pub mod editor;
pub mod embed;
pub mod embed_dialog;
pub mod embed_options;
pub mod glossary;
pub mod header;
pub mod inspector;
pub mod keys;
pub mod lab;
pub mod lesson;
pub mod pages;
pub mod predict;
pub mod probe;
pub mod progress;
#[cfg(feature = "prerender")]
pub mod revise;
pub mod search;
pub mod timeline;
pub mod verdict;

/// Text whose `quoted` parts are code: the narration quotes each message it tells of
/// (`SET lock … NX PX 10000`), and a scenario's prose may quote a setting. Each is shown as code,
/// without its backticks ([`code_spans`]).
pub fn prose(text: &str) -> yew::Html {
    use yew::html;
    code_spans(text)
        .into_iter()
        .map(|(code, part)| {
            if code {
                html! { <code>{ part }</code> }
            } else {
                yew::Html::from(part)
            }
        })
        .collect()
}

/// The same text where it cannot be styled (an attribute read aloud, a tooltip, an SVG label):
/// the quoted parts without their backticks.
pub fn unquoted(text: &str) -> String {
    code_spans(text).into_iter().map(|(_, part)| part).collect()
}

pub use sim::narrate::code_spans;

#[cfg(test)]
#[test]
fn quoted_parts_are_code_and_a_lone_backtick_stays() {
    assert_eq!(code_spans("A sends `SET lock a1` to redis."), [(false, "A sends "), (true, "SET lock a1"), (false, " to redis.")]);
    assert_eq!(code_spans("`x` and `y`"), [(true, "x"), (false, " and "), (true, "y")]);
    assert_eq!(code_spans("no quotes"), [(false, "no quotes")]);
    assert_eq!(code_spans("`a` then a lone ` here"), [(true, "a"), (false, " then a lone ` here")]);
    assert_eq!(code_spans(""), []);
    assert_eq!(code_spans("a `` b"), [(false, "a "), (false, " b")], "an empty quote is no code");
    assert_eq!(unquoted("A sends `SET lock a1` to redis."), "A sends SET lock a1 to redis.");
}

/// The browser's window; none when the views are rendered ahead of time, natively
/// (`prerender`: the first view's picture, made when the site is built).
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Whether the reader's only pointer is a finger (a phone or a tablet): hints then speak of
/// tapping and swiping, not of keys. Rendered ahead of time: as the picture's screen says.
pub fn touch_only() -> bool {
    match window() {
        Some(w) => w.match_media("(hover: none) and (pointer: coarse)").ok().flatten().is_some_and(|m| m.matches()),
        None => crate::prerender::screen().narrow,
    }
}

/// Whether the screen is a phone's width (the legend then starts folded).
pub fn narrow() -> bool {
    match window() {
        Some(w) => w.match_media("(max-width: 700px)").ok().flatten().is_some_and(|m| m.matches()),
        None => crate::prerender::screen().narrow,
    }
}

/// Whether a library scenario (with its fix, or as written) is safe, by running it; each is run
/// once per page load and remembered, for the course, the guide and the debate page.
pub fn library_safe(id: &str, fixed: bool) -> bool {
    thread_local! {
        static SAFE: std::cell::RefCell<std::collections::HashMap<(String, bool), bool>> = Default::default();
    }
    if let Some(v) = SAFE.with(|m| m.borrow().get(&(id.to_string(), fixed)).copied()) {
        return v;
    }
    // Not kept while the scenario's file is not in: the answer would be wrong once it is.
    let Some(sc) = sim::library::get(id) else { return false };
    let safe = (if fixed { sc.fixed().and_then(Result::ok) } else { Some(sc) })
        .and_then(|sc| sim::run(&sc).ok())
        .is_some_and(|r| r.verdict.is_safe());
    SAFE.with(|m| m.borrow_mut().insert((id.to_string(), fixed), safe));
    safe
}
