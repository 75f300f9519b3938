//! The library's scenario files, fetched when first needed instead of carried in the download:
//! [`load`] fetches the files of some library ids (all at once) and installs them in
//! `sim::library`, after which its `get` has them; [`load_all`] does so for the whole course.
//! The first view fetches one file; the rest follow once the lab is up (`view::app`).
//!
//! Built with the library compiled in (the native and browser tests), every id is already there
//! and nothing is fetched.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::state::Action;

thread_local! {
    /// Where the site's files are: "" (relative to the page) for the site itself, the address of
    /// the Lease Lab deployment for a run embedded in another page.
    static BASE: RefCell<String> = const { RefCell::new(String::new()) };
    /// The whole course being fetched, shared by all who wait for it.
    static ALL: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
}

/// Fetches scenario files from `base` (ending in `/`) from now on: where the Lease Lab
/// deployment is, for a run embedded in another page.
pub fn set_base(base: &str) {
    BASE.with(|b| *b.borrow_mut() = base.to_string());
}

/// The address of a library scenario's file.
pub fn file_url(id: &str) -> String {
    BASE.with(|b| format!("{}scenarios/{id}.json", b.borrow()))
}

/// How long the files of one [`load`] may take to arrive, in ms: the first view's file is
/// about 2 KB compressed, the whole course 80 KB, a second or two on a slow phone network.
const WAIT_MS: i32 = 15_000;

/// Fetches and installs the files of those of `ids` that are library ids not yet installed, all
/// at once. Every file that arrives is installed; the first that could not be had (or did not
/// arrive within [`WAIT_MS`]) is named, with why.
pub async fn load(ids: &[&str]) -> Result<(), String> {
    let wanted: Vec<&str> = ids.iter().copied().filter(|id| sim::library::entry(id).is_some() && !sim::library::has(id)).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let window = crate::view::window().ok_or("the page has no window to fetch scenario files with")?;
    // A file that never arrives fails like any other, after a while, rather than leaving the
    // page loading for ever.
    let deadline = js_sys::Promise::new(&mut |_, reject| {
        let why = JsValue::from_str(&format!("no answer within {} seconds", WAIT_MS / 1000));
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_1(&reject, WAIT_MS, &why);
    });
    let in_time = |p: js_sys::Promise| JsValue::from(js_sys::Promise::race(&js_sys::Array::of2(&p, &deadline)));
    let requests: js_sys::Array = wanted.iter().map(|id| in_time(window.fetch_with_str(&file_url(id)))).collect();
    let responses = settled(&requests).await;
    let mut failed: Option<String> = None;
    let mut fail = |id: &str, why: String| {
        failed.get_or_insert_with(|| format!("the scenario file {} could not be loaded ({why})", file_url(id)));
    };
    let mut reading = Vec::new();
    for (id, r) in wanted.iter().zip(responses) {
        match r.map(JsCast::dyn_into::<web_sys::Response>) {
            Ok(Ok(r)) if r.ok() => match r.text() {
                Ok(text) => reading.push((*id, in_time(text))),
                Err(e) => fail(id, describe(&e)),
            },
            Ok(Ok(r)) => fail(id, format!("HTTP {}", r.status())),
            Ok(Err(_)) => fail(id, "no response".into()),
            Err(e) => fail(id, describe(&e)),
        }
    }
    let texts = settled(&reading.iter().map(|(_, t)| t.clone()).collect()).await;
    for ((id, _), text) in reading.iter().zip(texts) {
        match text.map(|t| t.as_string().unwrap_or_default()) {
            Ok(text) => {
                if let Err(e) = sim::library::install(id, &text) {
                    fail(id, e);
                }
            }
            Err(e) => fail(id, describe(&e)),
        }
    }
    failed.map_or(Ok(()), Err)
}

/// Each promise's value, or why it was rejected, in order.
async fn settled(promises: &js_sys::Array) -> Vec<Result<JsValue, JsValue>> {
    let all = JsFuture::from(js_sys::Promise::all_settled(promises)).await.unwrap_or_default();
    let field = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &JsValue::from_str(k)).unwrap_or_default();
    js_sys::Array::from(&all)
        .iter()
        .map(|o| {
            if field(&o, "status").as_string().as_deref() == Some("fulfilled") {
                Ok(field(&o, "value"))
            } else {
                Err(field(&o, "reason"))
            }
        })
        .collect()
}

/// Fetches and installs every library file not installed yet (one fetch of the course at a
/// time, whoever asks; a failed one is tried again at the next call).
pub async fn load_all() -> Result<(), String> {
    if sim::library::missing().is_empty() {
        return Ok(());
    }
    let shared = ALL.with(|all| all.borrow().clone());
    let promise = shared.unwrap_or_else(|| {
        let p = wasm_bindgen_futures::future_to_promise(async {
            let r = load(&sim::library::missing()).await;
            ALL.with(|all| all.borrow_mut().take());
            r.map(|()| JsValue::UNDEFINED).map_err(|e| JsValue::from_str(&e))
        });
        ALL.with(|all| *all.borrow_mut() = Some(p.clone()));
        p
    });
    JsFuture::from(promise).await.map(drop).map_err(|e| e.as_string().unwrap_or_default())
}

/// Where the whole course's files are.
#[derive(Clone, Debug, PartialEq)]
pub enum CourseFiles {
    /// Its files are being fetched.
    Loading,
    /// Every file is in: `sim::library::catalog` has them all.
    Ready,
    /// Why they could not be had.
    Failed(String),
}

/// Where the whole course is; fetches what is missing, and renders the component again once it
/// is in (or with why it could not be had). Asks again whenever `wanted` changes, and not at all
/// while it is `None`.
#[hook]
pub fn use_course<D: PartialEq + Clone + 'static>(wanted: Option<D>) -> CourseFiles {
    let state = use_state(|| CourseFiles::Loading);
    {
        let state = state.clone();
        use_effect_with(wanted, move |wanted| {
            if wanted.is_none() {
                return;
            }
            if sim::library::missing().is_empty() {
                state.set(CourseFiles::Ready);
            } else {
                state.set(CourseFiles::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    state.set(match load_all().await {
                        Ok(()) => CourseFiles::Ready,
                        Err(e) => CourseFiles::Failed(e),
                    })
                });
            }
        });
    }
    if sim::library::missing().is_empty() {
        CourseFiles::Ready
    } else {
        (*state).clone()
    }
}

thread_local! {
    /// Counts the lessons asked for by id, so that only the last one asked for opens.
    static OPENING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Opens library scenario `id` in the lab (`fixed`, if it has a fix): at once if its file is
/// in, else once it is fetched, unless another lesson was asked for meanwhile. If it cannot be
/// had, says so over the current run and calls `failed`.
pub fn open(id: &str, fixed: bool, d: Callback<Action>, failed: Callback<()>) {
    let ticket = OPENING.with(|o| o.get() + 1);
    OPENING.with(|o| o.set(ticket));
    let go = move |sc: &sim::Scenario, d: &Callback<Action>| d.emit(Action::Open(Rc::new(sc.clone()), fixed && sc.fix.is_some()));
    if let Some(sc) = sim::library::find(id) {
        return go(sc, &d);
    }
    let id = id.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        let had = load(&[&id])
            .await
            .and_then(|()| sim::library::find(&id).ok_or_else(|| format!("there is no scenario called “{id}” in the library")));
        if OPENING.with(|o| o.get()) != ticket {
            return;
        }
        match had {
            Ok(sc) => go(sc, &d),
            Err(e) => {
                d.emit(Action::Refuse(format!("This lesson could not be opened: {e}.")));
                failed.emit(());
            }
        }
    });
}

/// A JavaScript error as words: a string as it is, an Error's message, else the value as JSON
/// (not its Debug form, which the release build leaves out: -Zfmt-debug=none in scripts/setup.sh).
pub(crate) fn describe(e: &wasm_bindgen::JsValue) -> String {
    if let Some(s) = e.as_string() {
        return s;
    }
    match e.dyn_ref::<js_sys::Error>() {
        Some(e) => String::from(e.message()),
        None => js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "an error with no message".into()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_page_asks_early_for_the_file_every_first_view_needs() {
        let preload = format!(r#"<link rel="preload" href="scenarios/{}.json" as="fetch""#, sim::library::INDEX[0].id);
        assert!(include_str!("../index.html").contains(&preload), "index.html should preload the first lesson: {preload}");
    }
}
