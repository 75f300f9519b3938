//! The run in the address bar and in local storage: which run the page opens ([`initial`]),
//! the address kept in step with the run ([`sync_url`]), a deflated link opened once it is
//! inflated ([`open_pending_link`]), the address for "Copy link" and "Embed" ([`link_to`]), and
//! the reader's last scenario ([`remember`]). The link formats are `crate::share`'s.

use std::rc::Rc;

use yew::functional::UseReducerDispatcher;

use super::pages::Page;
use super::progress::storage;
use crate::state::{Action, Screen};
use sim::scenario::Scenario;

const LAST_KEY: &str = "leaselab.last-scenario";

/// The user's last scenario, kept in local storage, if it is still valid.
pub(super) fn last_scenario() -> Option<Scenario> {
    let text = storage()?.get_item(LAST_KEY).ok().flatten()?;
    Scenario::parse(&text).ok()
}

thread_local! {
    /// A deflated scenario from the address (`#z=…`), waiting to be inflated (asynchronously)
    /// and opened; until then the address and local storage are left alone.
    static PENDING_LINK: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static LINK_LOADING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Counts address updates, so that a slow compression never overwrites a newer address.
    static SYNC_GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The course's first lesson (its file is fetched before the app starts, which it does without
/// only when the reader's last scenario is there to show instead: `app::mount`).
fn first_lesson() -> Scenario {
    sim::library::get(sim::library::INDEX[0].id).expect("the first lesson's file is in before the app starts")
}

/// The run to open: `?scenario=<id>&fix=1` (the library), `&set=<path>=<value>` (its changes;
/// `&told=1`: a search's find, its story retold as the search told it),
/// `#s=…` or `#z=…` (a scenario in the fragment), `?s=…` (the older form), and `&step=N`; the
/// reader's last scenario otherwise. A bad link says what is wrong and falls back to the
/// reader's last scenario, so that their work is not lost; on a first visit, to the lesson the
/// link names (without the changes that could not be made), or else the course's first lesson.
pub(super) fn initial() -> Screen {
    let loc = crate::view::window().map(|w| w.location());
    let search = loc.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
    let hash = loc.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
    let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
    // The reader's last scenario, else the course's first: what any link that cannot be opened
    // (or run) falls back to, so that the next save never overwrites the reader's work.
    let last = last_scenario();
    let instead = if last.is_some() { "Your last scenario is shown instead." } else { "The course's first lesson is shown instead." };
    let fallback = || last.clone().unwrap_or_else(first_lesson);
    let fix = get("fix").is_some_and(|v| v == "1" || v == "true");
    let sets: Vec<String> = params.as_ref().map(|p| p.get_all("set").iter().filter_map(|v| v.as_string()).collect()).unwrap_or_default();
    let cannot = |e: String| format!("This link could not be opened: {e}. {instead}");
    let (scenario, problem, fix) = if let Some(z) = hash.strip_prefix("#z=") {
        PENDING_LINK.with(|p| *p.borrow_mut() = Some(z.to_string()));
        LINK_LOADING.with(|l| l.set(true));
        (fallback(), None, false)
    } else if let Some(s) = hash.strip_prefix("#s=").or(get("s").as_deref()) {
        match crate::share::decode(s) {
            Ok(sc) => (sc, None, false),
            Err(e) => (fallback(), Some(cannot(e)), false),
        }
    } else if let (Some(id), false) = (get("scenario"), sets.is_empty()) {
        let told = get("told").is_some_and(|v| v == "1");
        let retold = |sc: Scenario| match sim::library::get(&id) {
            Some(lib) if told => crate::share::retell(&lib, sc),
            _ => sc,
        };
        match crate::share::decode_settings(&id, fix, &sets).map(retold) {
            Ok(sc) => (sc, crate::share::stale_note(&id, fix, get("v").as_deref()), false),
            // The lesson is there, only its changes are wrong, and there is no work of the
            // reader's to keep on screen (a first visit): the lesson opens without them.
            Err(e) => match sim::library::get(&id).filter(|_| last.is_none()) {
                Some(lesson) => {
                    let said = format!("This link's changes could not be made: {e}. “{}” is shown without them.", lesson.title);
                    (lesson, Some(said), fix)
                }
                None => (fallback(), Some(cannot(e)), false),
            },
        }
    } else if let Some(id) = get("scenario") {
        match sim::library::get(&id) {
            Some(s) => (s, None, fix),
            None => (fallback(), Some(format!("There is no scenario called “{id}” in the library. {instead}")), false),
        }
    } else {
        (fallback(), None, false)
    };
    // The app started without some of the files the address needs (`app::mount`): a lesson the
    // link names is said not to open, and why; otherwise the course is said to be missing.
    let problem = match super::app::start_problem() {
        Some(e) if get("scenario").is_some_and(|id| sim::library::entry(&id).is_some() && !sim::library::has(&id)) => {
            Some(format!("This lesson could not be opened: {e}. {instead}"))
        }
        Some(e) if problem.is_none() => {
            Some(format!("The course could not be loaded: {e}. This run does not need it; a lesson opens once its file can be fetched."))
        }
        _ => problem,
    };
    let has_fix = scenario.fix.is_some();
    let mut s = match Screen::new(scenario, fix && has_fix) {
        Ok(s) => s,
        Err(e) => {
            let (mut s, shown) = match Screen::new(fallback(), false) {
                Ok(s) => (s, instead),
                Err(_) => {
                    (Screen::new(first_lesson(), false).expect("library scenarios run"), "The course's first lesson is shown instead.")
                }
            };
            s.error = Some(crate::state::FieldError {
                field: "open".into(),
                message: format!("This scenario could not be run: {e}. {shown}"),
                raw: None,
            });
            return s;
        }
    };
    if let Some(step) = get("step").and_then(|v| v.parse::<usize>().ok()) {
        s.cursor = step.saturating_sub(1).min(s.steps().saturating_sub(1));
    }
    // The comparison the link was made with (an embed has its own, `compare=fix`): a bad one is
    // said, and the run opens without it.
    let problem = match get("compare").filter(|_| get("embed").is_none()) {
        Some(compare) => {
            let was: Vec<String> =
                params.as_ref().map(|p| p.get_all("was").iter().filter_map(|v| v.as_string()).collect()).unwrap_or_default();
            match s.clone().comparing(&compare, &was) {
                Ok(c) => {
                    s = c;
                    problem
                }
                Err(e) => problem.or(Some(format!("This link's comparison could not be shown: {e}. The run opens without it."))),
            }
        }
        None => problem,
    };
    if get("predict").is_some_and(|v| v == "1" || v == "true") {
        // Predict mode starts from the beginning, whatever the step.
        s.predict = true;
        s.cursor = 0;
    }
    if let Some(message) = problem {
        s.error = Some(crate::state::FieldError { field: "open".into(), message, raw: None });
    }
    s
}

/// Writes the run into the address bar (so a reload or a copied address reopens it).
pub(super) fn sync_url(s: &Screen) {
    let Some(w) = crate::view::window() else { return };
    let search = w.location().search().unwrap_or_default();
    if Page::from_query(&search) != Page::Lab || LINK_LOADING.with(|l| l.get()) {
        // A page beside the lab owns the address (a sync may still be due from before it
        // opened); a link still being inflated is not overwritten by the run shown meanwhile.
        return;
    }
    let generation = SYNC_GENERATION.with(|g| g.get() + 1);
    SYNC_GENERATION.with(|g| g.set(generation));
    let address = address_of(s);
    let replace = move |url: String| {
        let Some(w) = crate::view::window() else { return };
        let search = w.location().search().unwrap_or_default();
        let here = format!("{search}{}", w.location().hash().unwrap_or_default());
        // Checked again after a compression: a page may have opened, or a newer sync begun.
        let still_ours = SYNC_GENERATION.with(|g| g.get()) == generation && Page::from_query(&search) == Page::Lab;
        if here != url && still_ours {
            if let Ok(h) = w.history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
            }
        }
    };
    if address.fragment.is_empty() {
        replace(address.with(""));
    } else {
        wasm_bindgen_futures::spawn_local(async move { replace(compact(address).await.with("")) });
    }
}

/// The address for a screen: the run, the step, predict mode, and the comparison shown.
fn address_of(s: &Screen) -> crate::share::Address {
    let mut a = run_address(s);
    a.query.push_str(&s.compare_query());
    a
}

/// The address of the run alone (an embed offers its own comparison): the run, the step and
/// predict mode.
fn run_address(s: &Screen) -> crate::share::Address {
    let mut a = crate::share::query(&s.scenario, &s.original, s.fixed(), s.cursor + 1);
    if s.predict {
        a.query.push_str("&predict=1");
    }
    a
}

/// The address with a scenario in its fragment deflated (`#z=`), when that is shorter.
async fn compact(a: crate::share::Address) -> crate::share::Address {
    let Some(json) = a.fragment.strip_prefix("#s=").and_then(|enc| crate::share::unbase64url(enc).ok()) else { return a };
    match crate::compress::deflate(&json).await {
        Ok(z) if z.len() < json.len() => crate::share::Address { fragment: format!("#z={}", crate::share::base64url(&z)), ..a },
        _ => a,
    }
}

/// Inflates and opens a `#z=` link, then lets the address follow the run again.
pub(super) fn open_pending_link(d: UseReducerDispatcher<Screen>) {
    let Some(z) = PENDING_LINK.with(|p| p.borrow_mut().take()) else { return };
    let step = crate::view::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok())
        .and_then(|p| p.get("step"))
        .and_then(|v| v.parse::<usize>().ok());
    wasm_bindgen_futures::spawn_local(async move {
        let opened = crate::share::decode_deflated(&z).await;
        LINK_LOADING.with(|l| l.set(false));
        match opened {
            Ok(sc) => {
                d.dispatch(Action::Open(Rc::new(sc), false));
                if let Some(step) = step {
                    d.dispatch(Action::Seek(step.saturating_sub(1)));
                }
            }
            Err(e) => {
                let instead = if last_scenario().is_some() {
                    "Your last scenario is shown instead."
                } else {
                    "The course's first lesson is shown instead."
                };
                d.dispatch(Action::Refuse(format!("This link could not be opened: {e}. {instead}")))
            }
        }
    });
}

pub(super) fn remember(sc: &Scenario) {
    if LINK_LOADING.with(|l| l.get()) {
        return;
    }
    if let Some(st) = storage() {
        // So that it opens again: a fix left behind by an edit would be refused.
        let _ = st.set_item(LAST_KEY, &crate::share::loadable(sc).to_value().to_string());
    }
}

/// Where the app lives (origin and path), and the address of the current run with a scenario
/// in the fragment deflated: what links and the Embed dialog's snippets are made from.
pub async fn embed_base(s: &Screen) -> (String, crate::share::Address) {
    (site(), compact(run_address(s)).await)
}

/// Where the app lives: origin and path.
fn site() -> String {
    let loc = crate::view::window().map(|w| w.location());
    loc.map(|l| format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())).unwrap_or_default()
}

/// The address of the current run and the comparison shown, for "Copy link", with more
/// parameters if given; a scenario in the fragment is deflated.
pub async fn link_to(s: &Screen, extra: &str) -> String {
    format!("{}{}", site(), compact(address_of(s)).await.with(extra))
}
