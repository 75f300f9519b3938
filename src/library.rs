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

/// Fetches scenario files from `base` (ending in `/`) from now on.
pub fn set_base(base: &str) {
    BASE.with(|b| *b.borrow_mut() = base.to_string());
}

/// The address of a library scenario's file.
pub fn file_url(id: &str) -> String {
    BASE.with(|b| format!("{}scenarios/{id}.json", b.borrow()))
}

/// Fetches and installs the files of those of `ids` that are library ids not yet installed.
/// Says which file could not be had, and why.
pub async fn load(ids: &[&str]) -> Result<(), String> {
    let wanted: Vec<&str> = ids.iter().copied().filter(|id| sim::library::entry(id).is_some() && !sim::library::has(id)).collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let window = web_sys::window().ok_or("no window")?;
    let requests: js_sys::Array = wanted.iter().map(|id| window.fetch_with_str(&file_url(id))).collect();
    let cannot = |id: &str, why: String| format!("the scenario file {} could not be loaded ({why})", file_url(id));
    let responses = JsFuture::from(js_sys::Promise::all(&requests)).await.map_err(|e| cannot(wanted[0], describe(&e)))?;
    let mut texts = Vec::new();
    for (id, r) in wanted.iter().zip(js_sys::Array::from(&responses).iter()) {
        let r: web_sys::Response = r.dyn_into().map_err(|_| cannot(id, "no response".into()))?;
        if !r.ok() {
            return Err(cannot(id, format!("HTTP {}", r.status())));
        }
        texts.push(r.text().map_err(|e| cannot(id, describe(&e)))?);
    }
    let texts: js_sys::Array = texts.into_iter().collect();
    let texts = JsFuture::from(js_sys::Promise::all(&texts)).await.map_err(|e| cannot(wanted[0], describe(&e)))?;
    for (id, text) in wanted.iter().zip(js_sys::Array::from(&texts).iter()) {
        sim::library::install(&text.as_string().unwrap_or_default()).map_err(|e| cannot(id, e))?;
    }
    Ok(())
}

/// Fetches and installs every library file not installed yet (one fetch of the course at a
/// time, whoever asks; a failed one is tried again at the next call).
pub async fn load_all() -> Result<(), String> {
    if sim::library::missing().is_empty() {
        return Ok(());
    }
    let promise = ALL.with(|all| {
        all.borrow_mut()
            .get_or_insert_with(|| {
                wasm_bindgen_futures::future_to_promise(async {
                    let r = load(&sim::library::missing()).await;
                    ALL.with(|all| all.borrow_mut().take());
                    r.map(|()| JsValue::UNDEFINED).map_err(|e| JsValue::from_str(&e))
                })
            })
            .clone()
    });
    JsFuture::from(promise).await.map(drop).map_err(|e| e.as_string().unwrap_or_default())
}

/// Whether the whole course is in: `Ok(true)` once it is, `Ok(false)` while it is fetched (the
/// component renders again when it is in), or why it could not be had.
#[hook]
pub fn use_library() -> Result<bool, String> {
    let state = use_state(|| Ok(sim::library::missing().is_empty()));
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            if *state == Ok(false) {
                wasm_bindgen_futures::spawn_local(async move { state.set(load_all().await.map(|()| true)) });
            }
        });
    }
    (*state).clone()
}

/// Opens library scenario `id` in the lab (`fixed`, if it has a fix), at once if its file is in,
/// else once it is fetched; says so over the current run if it cannot be.
pub fn open(id: &str, fixed: bool, d: Callback<Action>) {
    let go = move |sc: &sim::Scenario, d: &Callback<Action>| d.emit(Action::Open(Rc::new(sc.clone()), fixed && sc.fix.is_some()));
    if let Some(sc) = sim::library::find(id) {
        return go(sc, &d);
    }
    let id = id.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        match load(&[&id])
            .await
            .and_then(|()| sim::library::find(&id).ok_or_else(|| format!("there is no scenario called “{id}” in the library")))
        {
            Ok(sc) => go(sc, &d),
            Err(e) => d.emit(Action::Refuse(format!("This scenario could not be opened: {e}."))),
        }
    });
}

/// A JavaScript error as words.
fn describe(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}
