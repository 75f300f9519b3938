//! The root component, [`App`]: the lab, or one of the pages beside it, as the address says.

use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::view::address::initial;
use crate::view::drill::DrillPage;
use crate::view::embed_options::embed_options;
use crate::view::lab::Lab;
use crate::view::pages::Page;

/// The app as the page opens it: the scenario named in the address bar, or the drill beside the
/// lab (`?page=drill`; `?page=guide`, `?page=debate` and `?page=revise` are the files
/// `guide.html`, `debate.html` and `revise.html`). The lab stays mounted (hidden) while the drill
/// is shown, so nothing the reader was doing is lost.
#[component]
pub fn App() -> Html {
    let page = use_state(|| Page::from_query(&crate::view::window().and_then(|w| w.location().search().ok()).unwrap_or_default()));
    let open_request = use_state(|| None::<(u32, String, bool, Option<usize>)>);
    // Back and forward move between the lab and the pages.
    {
        let page = page.clone();
        use_effect_with((), move |_| {
            let window = crate::view::window().expect("a window");
            let listener = EventListener::new(&window, "popstate", move |_| {
                page.set(Page::from_query(&crate::view::window().and_then(|w| w.location().search().ok()).unwrap_or_default()));
            });
            move || drop(listener)
        });
    }
    let nav = {
        let page = page.clone();
        Callback::from(move |to: Page| {
            // The guide, the debate and the revision page are files of their own
            // (static/first.js sends `?page=guide`, `?page=debate` and `?page=revise` there).
            if to.is_file() {
                if let Some(w) = crate::view::window() {
                    let _ = w.location().assign(to.query());
                }
                return;
            }
            if to != *page {
                if let Some(h) = crate::view::window().and_then(|w| w.history().ok()) {
                    let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(to.query()));
                }
                page.set(to);
                if let Some(w) = crate::view::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        })
    };
    // Opens a library scenario in the lab: (id, with its fix, at this step).
    let open_at = {
        let (nav, req) = (nav.clone(), open_request.clone());
        Callback::from(move |(id, fixed, step): (String, bool, Option<usize>)| {
            let n = req.as_ref().map_or(0, |r| r.0) + 1;
            req.set(Some((n, id, fixed, step)));
            nav.emit(Page::Lab);
        })
    };
    let show = open_at.reform(|(id, step): (String, usize)| (id, false, Some(step)));
    let (start, embed) = {
        let both = use_memo((), |_| {
            let mut s = initial();
            let embed = embed_options();
            if embed.as_ref().is_some_and(|e| e.autoplay) {
                s.playing = true;
            }
            if embed.as_ref().is_some_and(|e| e.compare_fix) {
                s = s.comparing_fix();
            }
            // The embedding page's theme, on the frame's root element (the stylesheet reads it).
            if let Some(t) = embed.as_ref().and_then(|e| e.theme.attribute()) {
                let root = crate::view::window().and_then(|w| w.document()).and_then(|d| d.document_element());
                if let Some(r) = root {
                    let _ = r.set_attribute("data-theme", t);
                }
            }
            (Rc::new(s), embed)
        });
        (both.0.clone(), both.1.clone())
    };
    let here = *page;
    // Back to an address of the guide, the debate or the revision page from before they were
    // files.
    use_effect_with(here, |here| {
        if here.is_file() {
            if let Some(w) = crate::view::window() {
                let _ = w.location().replace(here.query());
            }
        }
    });
    // The rest of the course's files are fetched now that the first view is up (not for an
    // embedded run); the pages beside the lab run several scenarios, and wait for them.
    let course = crate::library::use_course(embed.is_none().then_some(here));
    if embed.is_some() {
        return html! { <Lab start={start} embed={embed} /> };
    }
    let waiting = here != Page::Lab && course != crate::library::CourseFiles::Ready;
    html! {
        <>
            <div class="lab-holder" hidden={here != Page::Lab}>
                <Lab start={start} active={here == Page::Lab} nav={nav.clone()} open={(*open_request).clone()} />
            </div>
            if waiting { <main class="page">{ crate::view::pages::waiting(&course) }</main> }
            else if here == Page::Drill { <DrillPage nav={nav.clone()} {show} /> }
        </>
    }
}

thread_local! {
    /// Why the files the address needs could not all be had, when the app started without them
    /// ([`mount`]): said over the run (`address::initial`).
    static START_PROBLEM: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Why the app started without some of the files the address needs, if it did.
pub(super) fn start_problem() -> Option<String> {
    START_PROBLEM.with(|p| p.borrow().clone())
}

/// Mounts the app on the page's body, once the library files the address needs are in (the
/// first view fetches one scenario's file; the rest of the course follows, [`App`]). If they
/// cannot be had, it starts from what it has (the course's first lesson, or the reader's last
/// scenario, kept in local storage) and says why; with nothing to show, the page says why, with
/// a button that tries again.
pub fn mount() {
    wasm_bindgen_futures::spawn_local(async {
        let loaded = crate::library::load(&first_needs()).await;
        let doc = crate::view::window().and_then(|w| w.document());
        // The page's "Loading Lease Lab…" line (index.html).
        let boot = doc.as_ref().and_then(|d| d.get_element_by_id("boot"));
        match loaded {
            Err(e) if !can_start() => {
                if let Some(boot) = boot {
                    cannot_start(&boot, &e);
                }
            }
            loaded => {
                START_PROBLEM.with(|p| *p.borrow_mut() = loaded.err());
                if let Some(boot) = boot {
                    boot.remove();
                }
                // The first view's picture (static/loader.js) makes way: the program draws the
                // same boxes in the same places before the browser paints again (Yew renders in
                // a microtask of this task).
                if let Ok(shown) = doc.as_ref().map_or(Err(JsValue::NULL), |d| d.query_selector_all("[data-static]")) {
                    for i in 0..shown.length() {
                        if let Some(e) = shown.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                            e.remove();
                        }
                    }
                }
                yew::Renderer::<App>::new().render();
            }
        }
    });
}

/// Whether the lab has a run to show without the files that could not be had: the course's
/// first lesson, or the reader's last scenario (run once more to be sure: only when a file
/// failed).
fn can_start() -> bool {
    sim::library::has(sim::library::INDEX[0].id)
        || crate::view::address::last_scenario().is_some_and(|sc| crate::state::Screen::new(sc, false).is_ok())
}

/// Says on the page's loading line why Lease Lab could not start, with a button that tries
/// again (and puts the loading line back meanwhile).
fn cannot_start(boot: &web_sys::Element, e: &str) {
    let _ = boot.remove_attribute("hidden");
    boot.set_class_name("boot start-error");
    let _ = boot.set_attribute("role", "alert");
    boot.set_text_content(Some(&format!("Lease Lab could not start: {e}. ")));
    let Some(button) = boot.owner_document().and_then(|d| d.create_element("button").ok()) else { return };
    button.set_class_name("btn");
    button.set_text_content(Some("Try again"));
    let line = boot.clone();
    EventListener::once(&button, "click", move |_| {
        line.set_class_name("boot");
        let _ = line.set_attribute("role", "status");
        line.set_text_content(Some("Loading Lease Lab…"));
        mount();
    })
    .forget();
    let _ = boot.append_child(&button);
}

/// The library files the first view needs: the scenario the address names (also when its link
/// changes it, `&set=`), the course's first (what a link that cannot be opened falls back to),
/// and the one the reader last had open; every file for a page beside the lab, and for a
/// scenario in the fragment (whose library scenario is known only once it is read).
fn first_needs() -> Vec<&'static str> {
    let loc = crate::view::window().map(|w| w.location());
    let search = loc.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
    let hash = loc.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    if Page::from_query(&search) != Page::Lab || hash.len() > 1 || get("s").is_some() {
        return sim::library::INDEX.iter().map(|e| e.id).collect();
    }
    let named = [get("scenario"), crate::view::address::last_scenario().map(|s| s.id)];
    let mut ids = vec![sim::library::INDEX[0].id];
    ids.extend(named.iter().flatten().filter_map(|id| sim::library::entry(id)).map(|e| e.id));
    ids
}
