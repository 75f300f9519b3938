//! The root component: owns the reducer, the keyboard listener and the playback timer.

use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::{Interval, Timeout};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::{Action, Panel, Screen, SPEEDS};
use crate::view::address::{initial, link_to, open_pending_link, remember, sync_url};
use crate::view::controls::{Controls, Narration};
use crate::view::course::{Course, Story};
use crate::view::editor::Editor;
use crate::view::inspector::{Inspector, VerdictPanel};
use crate::view::pages::{DebatePage, GuidePage, Page, SiteNav};
use crate::view::predict::Predict;
use crate::view::timeline::Timeline;
use sim::scenario::Scenario;

pub(super) fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

const VISITED_KEY: &str = "leaselab.visited";
const PREDICT_KEY: &str = "leaselab.predict";

/// Predict mode's score: for each question answered (`"<scenario>#<question>"`), whether the
/// first answer was right. Kept in local storage.
pub fn scores() -> std::collections::BTreeMap<String, bool> {
    storage().and_then(|st| st.get_item(PREDICT_KEY).ok().flatten()).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

/// Records first answers (a later attempt at the same question does not change the score).
fn record_answers(s: &Screen) {
    if sim::library::get(&s.original.id).is_none_or(|l| l != *s.original) {
        return;
    }
    let mut all = scores();
    let before = all.len();
    for (q, p) in s.quiz.iter().zip(&s.picked) {
        if let Some(p) = p {
            all.entry(format!("{}#{}", s.original.id, q.index)).or_insert(q.answer.right == Some(*p));
        }
    }
    if all.len() != before {
        if let Some(st) = storage() {
            let _ = st.set_item(PREDICT_KEY, &serde_json::to_string(&all).unwrap_or_default());
        }
    }
}

/// Forgets the course progress and the predict score.
pub fn reset_progress() {
    if let Some(st) = storage() {
        let _ = st.remove_item(VISITED_KEY);
        let _ = st.remove_item(PREDICT_KEY);
    }
}

/// The course scenarios this reader has opened (progress, kept in local storage).
pub fn visited() -> Vec<String> {
    storage()
        .and_then(|st| st.get_item(VISITED_KEY).ok().flatten())
        .and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok())
        .unwrap_or_default()
}

fn mark_visited(id: &str) {
    let mut v = visited();
    if sim::library::get(id).is_some() && !v.iter().any(|x| x == id) {
        v.push(id.to_string());
        if let Some(st) = storage() {
            let _ = st.set_item(VISITED_KEY, &serde_json::to_string(&v).unwrap_or_default());
        }
    }
}

fn is_typing(target: Option<web_sys::EventTarget>) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA") || el.closest("[data-keys=own]").ok().flatten().is_some()
}

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

fn key_action(e: &web_sys::KeyboardEvent) -> Option<Action> {
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

/// The app as the page opens it: the scenario named in the address bar, or one of the pages
/// beside the lab (`?page=guide`, `?page=debate`). The lab stays mounted (hidden) while a page
/// is shown, so nothing the reader was doing is lost.
#[component]
pub fn App() -> Html {
    let page = use_state(|| Page::from_query(&web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()));
    let open_request = use_state(|| None::<(u32, String, bool)>);
    // Back and forward move between the lab and the pages.
    {
        let page = page.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("a window");
            let listener = EventListener::new(&window, "popstate", move |_| {
                page.set(Page::from_query(&web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()));
            });
            move || drop(listener)
        });
    }
    let nav = {
        let page = page.clone();
        Callback::from(move |to: Page| {
            if to != *page {
                if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
                    let url = if to == Page::Lab { "?".to_string() } else { to.query().to_string() };
                    let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
                }
                page.set(to);
                if let Some(w) = web_sys::window() {
                    w.scroll_to_with_x_and_y(0.0, 0.0);
                }
            }
        })
    };
    let open = {
        let (nav, req) = (nav.clone(), open_request.clone());
        Callback::from(move |(id, fixed): (String, bool)| {
            let n = req.as_ref().map_or(0, |r| r.0) + 1;
            req.set(Some((n, id, fixed)));
            nav.emit(Page::Lab);
        })
    };
    let (start, embed) = {
        let both = use_memo((), |_| {
            let mut s = initial();
            let embed = embed_options();
            if embed.as_ref().is_some_and(|e| e.autoplay) {
                s.playing = true;
            }
            (Rc::new(s), embed)
        });
        (both.0.clone(), both.1.clone())
    };
    if embed.is_some() {
        return html! { <Lab start={start} embed={embed} /> };
    }
    let here = *page;
    html! {
        <>
            <div class="lab-holder" hidden={here != Page::Lab}>
                <Lab start={start} active={here == Page::Lab} nav={nav.clone()} open={(*open_request).clone()} />
            </div>
            if here == Page::Guide { <GuidePage nav={nav.clone()} open={open.clone()} /> }
            if here == Page::Debate { <DebatePage nav={nav} open={open} /> }
        </>
    }
}

/// Which controls an embedded run shows (`&controls=full|play|none`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ControlsShown {
    #[default]
    Full,
    Play,
    None,
}

/// Options of an embedded run (`?embed=1&controls=play&autoplay=1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Embed {
    pub controls: ControlsShown,
    pub autoplay: bool,
    /// Where Lease Lab itself lives, for "Open in Lease Lab" (a mounted run is on another site).
    pub app_base: Option<String>,
}

/// Mounts one run into an element of another page, in a shadow root of its own.
pub fn mount_into(element: &web_sys::Element, options: &wasm_bindgen::JsValue) -> Result<(), String> {
    use wasm_bindgen::JsValue;
    let get = |k: &str| js_sys::Reflect::get(options, &JsValue::from_str(k)).ok().filter(|v| !v.is_undefined() && !v.is_null());
    if let Some(e) = get("error").and_then(|v| v.as_string()) {
        return Err(e);
    }
    let scenario = match get("scenario") {
        None => return Err("options.scenario is missing: give a library id such as \"gc-pause-fenced\", or a scenario".into()),
        Some(v) if v.is_string() => {
            let id = v.as_string().unwrap_or_default();
            sim::library::get(&id).ok_or_else(|| format!("there is no scenario called “{id}” in the library"))?
        }
        Some(v) => {
            let text = js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string()).ok_or("options.scenario is not a scenario object")?;
            Scenario::parse(&text).map_err(|e| format!("options.scenario is not valid: {e}"))?
        }
    };
    let fix = get("fix").and_then(|v| v.as_bool()).unwrap_or(false);
    let has_fix = scenario.fix.is_some();
    if fix && !has_fix {
        return Err(format!("{} has no one-click fix", scenario.id));
    }
    let mut s = Screen::new(scenario, fix).map_err(|e| format!("the scenario cannot run: {e}"))?;
    if let Some(step) = get("step") {
        let n = step.as_f64().filter(|n| *n >= 1.0 && n.fract() == 0.0).ok_or("options.step must be a step number (1, 2, 3, …)")?;
        s.cursor = (n as usize - 1).min(s.steps().saturating_sub(1));
    }
    let controls = match get("controls").and_then(|v| v.as_string()).as_deref() {
        None | Some("full") => ControlsShown::Full,
        Some("play") => ControlsShown::Play,
        Some("none") => ControlsShown::None,
        Some(other) => return Err(format!("options.controls is “{other}”: use full, play or none")),
    };
    let autoplay = get("autoplay").and_then(|v| v.as_bool()).unwrap_or(false);
    s.playing = autoplay;
    let stylesheet = get("stylesheet").and_then(|v| v.as_string());
    let app_base = stylesheet.as_ref().map(|css| css.rsplit_once('/').map(|(b, _)| format!("{b}/")).unwrap_or_default());
    let doc = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let shadow = element
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .map_err(|_| "this element already holds a run (or cannot hold one)".to_string())?;
    if let Some(css) = stylesheet {
        let link = doc.create_element("link").map_err(|_| "cannot create a link")?;
        let _ = link.set_attribute("rel", "stylesheet");
        let _ = link.set_attribute("href", &css);
        let _ = shadow.append_child(&link);
    }
    let root = doc.create_element("div").map_err(|_| "cannot create an element")?;
    shadow.append_child(&root).map_err(|_| "cannot attach the run")?;
    let embed = Embed { controls, autoplay, app_base };
    yew::Renderer::<Lab>::with_root_and_props(
        root,
        LabProps { start: Rc::new(s), embed: Some(embed), active: true, nav: None, open: None },
    )
    .render();
    Ok(())
}

fn embed_options() -> Option<Embed> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    if !params.get("embed").is_some_and(|v| v == "1" || v == "true") {
        return None;
    }
    let controls = match params.get("controls").as_deref() {
        Some("none") => ControlsShown::None,
        Some("play") => ControlsShown::Play,
        _ => ControlsShown::Full,
    };
    Some(Embed { controls, autoplay: params.get("autoplay").is_some_and(|v| v == "1" || v == "true"), app_base: None })
}

#[derive(Properties, PartialEq)]
pub struct LabProps {
    /// The screen to start from.
    pub start: Rc<Screen>,
    /// Embedded in another page: the timeline, the controls and the narration only.
    #[prop_or_default]
    pub embed: Option<Embed>,
    /// Shown (not hidden behind a page): keys and the address bar belong to it.
    #[prop_or(true)]
    pub active: bool,
    /// Moves to a page beside the lab.
    #[prop_or_default]
    pub nav: Option<Callback<Page>>,
    /// A request from a page to open a library scenario: (a counter, id, with its fix).
    #[prop_or_default]
    pub open: Option<(u32, String, bool)>,
}

/// The whole lab for one starting screen: owns the reducer, the keyboard listener and the
/// playback timer.
#[component]
pub fn Lab(p: &LabProps) -> Html {
    let screen = {
        let start = p.start.clone();
        use_reducer(move || (*start).clone())
    };
    let dispatch = {
        let d = screen.dispatcher();
        Callback::from(move |a: Action| d.dispatch(a))
    };

    // A deflated link (`#z=`) is opened once it is inflated.
    {
        let d = screen.dispatcher();
        use_effect_with((), move |_| open_pending_link(d));
    }

    // A page asked to open a scenario.
    {
        let d = screen.dispatcher();
        use_effect_with(p.open.clone(), move |req| {
            if let Some((_, id, fixed)) = req {
                if let Some(sc) = sim::library::get(id) {
                    d.dispatch(Action::Open(Rc::new(sc), *fixed && sim::library::get(id).is_some_and(|s| s.fix.is_some())));
                }
            }
        });
    }
    let active = use_mut_ref(|| true);
    *active.borrow_mut() = p.active;

    // Keyboard: one listener on the document (embedded: on the run's own root, so that several
    // runs on one page keep to themselves), dropped (and removed) with the component.
    let root_ref = use_node_ref();
    {
        let active = active.clone();
        let d = screen.dispatcher();
        let (root_ref, embedded) = (root_ref.clone(), p.embed.is_some());
        use_effect_with((), move |_| {
            let target: web_sys::EventTarget = match root_ref.cast::<web_sys::Element>() {
                Some(el) if embedded => el.into(),
                _ => gloo_utils_document().into(),
            };
            let opts = EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&target, "keydown", opts, move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
                if !*active.borrow() {
                    return;
                }
                if e.ctrl_key() || e.meta_key() || e.alt_key() || is_typing(e.target()) {
                    return;
                }
                // Space and Enter on a focused button press the button; leave them to it.
                let on_button = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| el.tag_name() == "BUTTON" || el.tag_name() == "SUMMARY");
                if on_button && (e.key() == " " || e.key() == "Enter") {
                    return;
                }
                if let Some(a) = key_action(e) {
                    e.prevent_default();
                    d.dispatch(a);
                }
            });
            move || drop(listener)
        });
    }

    // Playback: an interval that lives only while playing.
    {
        let d = screen.dispatcher();
        use_effect_with(screen.playing, move |playing| {
            let timer = playing.then(|| {
                let perf = web_sys::window().and_then(|w| w.performance());
                let now = move || perf.as_ref().map(|p| p.now()).unwrap_or(0.0);
                let last = std::cell::Cell::new(now());
                Interval::new(33, move || {
                    let t = now();
                    let dt = (t - last.replace(t)).clamp(0.0, 250.0);
                    d.dispatch(Action::Tick(dt));
                })
            });
            move || drop(timer)
        });
    }

    {
        // The address and local storage follow the run a moment after it settles, so that
        // encoding the scenario never delays a repaint. Dropping the timer cancels it.
        let s = Rc::new((*screen).clone());
        let key = (Rc::as_ptr(&screen.scenario) as usize, screen.fixed(), screen.cursor, screen.playing, screen.predict, p.active);
        let embedded = p.embed.is_some();
        use_effect_with(key, move |(_, _, _, playing, _, active)| {
            // An embedded run leaves its host page's address and the reader's storage alone, and
            // a hidden lab leaves the address to the page shown.
            let timer = (!*playing && !embedded && *active).then(|| {
                Timeout::new(250, move || {
                    sync_url(&s);
                    remember(&s.scenario);
                })
            });
            move || drop(timer)
        });
    }

    {
        // A lesson counts as opened as soon as it is shown.
        let embedded = p.embed.is_some();
        use_effect_with((screen.original.id.clone(), p.active), move |(id, active)| {
            if !embedded && *active {
                mark_visited(id);
            }
        });
    }
    {
        // Predict answers go to the score as soon as they are given.
        let s = Rc::new((*screen).clone());
        let embedded = p.embed.is_some();
        use_effect_with(screen.picked.clone(), move |_| {
            if !embedded {
                record_answers(&s);
            }
        });
    }

    let s: Rc<Screen> = Rc::new((*screen).clone());
    let verdict = if s.run.verdict.is_safe() { "safe" } else { "unsafe" };
    let panel_tab = |p: Panel, label: &str| {
        let d = dispatch.clone();
        let selected = s.panel == p;
        html! {
            <button role="tab" id={format!("tab-{label}")} aria-selected={selected.to_string()} aria-controls="side-panel"
                class={classes!("tab", selected.then_some("on"))}
                onclick={Callback::from(move |_| d.emit(Action::SetPanel(p)))}>{ label }</button>
        }
    };
    let help = s.help.then(|| {
        let d = dispatch.clone();
        html! {
            <div class="overlay" onclick={let d = d.clone(); Callback::from(move |_| d.emit(Action::ToggleHelp))}>
                <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                    <h2 id="help-title">{ "Keyboard" }</h2>
                    <dl class="keys">
                        { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                    </dl>
                    <p class="hint">{ "On the timeline: drag a pause block to move it, drag its right edge to resize it, click a lane to add a fault there. A focused pause block moves with ← → and resizes with Shift + ← →." }</p>
                    <button class="btn primary" autofocus=true onclick={Callback::from(move |_| d.emit(Action::ToggleHelp))}>{ "Close" }</button>
                </div>
            </div>
        }
    });
    let open_error = s.error.as_ref().filter(|e| e.field == "open" || e.field == "timeline" || e.field == "fix").map(|e| {
        let d = dispatch.clone();
        html! {
            <div class="banner" role="alert">
                <span>{ &e.message }</span>
                <button class="btn small" aria-label="Dismiss" onclick={Callback::from(move |_| d.emit(Action::CloseOverlays))}>{ "×" }</button>
            </div>
        }
    });

    // "Open in Lease Lab" for an embedded run: the link is worked out once per scenario, not on
    // every playback tick (only its step changes).
    let embed_link = {
        let key = (Rc::as_ptr(&s.scenario) as usize, Rc::as_ptr(&s.original) as usize, s.fixed());
        let (sc, original, fixed) = (s.scenario.clone(), s.original.clone(), s.fixed());
        use_memo(key, move |_| crate::share::link(&sc, &original, fixed))
    };
    if let Some(e) = &p.embed {
        let base = e.app_base.clone().unwrap_or_else(|| {
            let loc = web_sys::window().map(|w| w.location());
            loc.map(|l| format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())).unwrap_or_default()
        });
        let full = format!("{base}{}", embed_link.at_step(s.cursor + 1).with(""));
        return html! {
            <div id="app" ref={root_ref.clone()} tabindex="-1" class="app embed" data-verdict={verdict} data-step={(s.cursor + 1).to_string()} data-steps={s.steps().to_string()}
                 data-fixed={s.fixed().to_string()} data-playing={s.playing.to_string()}>
                <main class="embed-main">
                <div class="embed-bar">
                    <h1 class="embed-title">{ &s.original.title }</h1>
                    <span class={classes!("verdict-badge", if s.run.verdict.is_safe() { "safe" } else { "unsafe" })}>
                        { if s.run.verdict.is_safe() { "✓ safe" } else { "✗ unsafe" } }
                    </span>
                    <a class="embed-open" href={full} target="_blank" rel="noopener">{ "Open in Lease Lab ↗" }</a>
                </div>
                    <Timeline screen={s.clone()} dispatch={dispatch.clone()} />
                    if e.controls != ControlsShown::None {
                        <Controls screen={s.clone()} dispatch={dispatch.clone()} only_play={e.controls == ControlsShown::Play} />
                    }
                    <Narration screen={s.clone()} />
                </main>
            </div>
        };
    }
    html! {
        <div id="app" class="app" data-verdict={verdict} data-step={(s.cursor + 1).to_string()} data-steps={s.steps().to_string()}
             data-fixed={s.fixed().to_string()} data-playing={s.playing.to_string()}
             data-answered={s.picked.iter().filter(|x| x.is_some()).count().to_string()}>
            <Header screen={s.clone()} dispatch={dispatch.clone()} nav={p.nav.clone()} />
            { for open_error }
            <main class="main">
                <section class="stage" aria-label="The run">
                    <Story screen={s.clone()} dispatch={dispatch.clone()} />
                    <Timeline screen={s.clone()} dispatch={dispatch.clone()} />
                    <Controls screen={s.clone()} dispatch={dispatch.clone()} />
                    <div class="predict-area" aria-live="polite">
                        <Predict screen={s.clone()} dispatch={dispatch.clone()} />
                    </div>
                    <Narration screen={s.clone()} />
                    <StartHint screen={s.clone()} dispatch={dispatch.clone()} />
                    <EndOfRun screen={s.clone()} dispatch={dispatch.clone()} />
                    <VerdictPanel screen={s.clone()} dispatch={dispatch.clone()} />
                </section>
                <aside class="side" aria-label="Details">
                    <div class="tabs" role="tablist" aria-label="Panels">
                        { panel_tab(Panel::Inspect, "Inspect") }
                        { panel_tab(Panel::Change, "Change") }
                        { panel_tab(Panel::Course, "Course") }
                    </div>
                    <div id="side-panel" role="tabpanel" class="panel">
                        { match s.panel {
                            Panel::Inspect => html! { <Inspector screen={s.clone()} /> },
                            Panel::Change => html! { <Editor screen={s.clone()} dispatch={dispatch.clone()} /> },
                            Panel::Course => html! { <Course screen={s.clone()} dispatch={dispatch.clone()} /> },
                        } }
                    </div>
                </aside>
            </main>
            { for help }
        </div>
    }
}

fn gloo_utils_document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub screen: Rc<Screen>,
    pub dispatch: Callback<Action>,
    #[prop_or_default]
    pub nav: Option<Callback<Page>>,
}

#[component]
fn Header(p: &HeaderProps) -> Html {
    let s = &p.screen;
    let safe = s.run.verdict.is_safe();
    let on_pick = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(sc) = sim::library::catalog().iter().find(|s| s.id == v) {
                d.emit(Action::Open(Rc::new(sc.clone()), false));
            }
        })
    };
    let all = sim::library::catalog();
    let fix = s.original.fix.as_ref().map(|f| {
        let d = p.dispatch.clone();
        let on = s.fixed();
        html! {
            <button class={classes!("btn", "fix", on.then_some("on"))} aria-pressed={on.to_string()}
                title={f.explain.clone()} onclick={Callback::from(move |_| d.emit(Action::ToggleFix))}>
                { if on { format!("Fixed: {} · undo", f.label) } else { format!("Fix: {}", f.label) } }
            </button>
        }
    });
    let help = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.emit(Action::ToggleHelp))
    };
    html! {
        <header class="top">
            { crate::view::pages::brand() }
            if let Some(nav) = &p.nav {
                <SiteNav here={Page::Lab} nav={nav.clone()} />
            }
            <label class="pick">
                <span class="sr-only">{ "Scenario" }</span>
                <select onchange={on_pick} aria-label="Scenario">
                    { for sim::library::CHAPTERS.iter().filter(|(c, _)| all.iter().any(|x| x.chapter == *c)).map(|(c, title)| html! {
                        <optgroup label={*title}>
                            { for all.iter().filter(|x| x.chapter == *c).map(|x| html! {
                                <option value={x.id.clone()} selected={x.id == s.original.id}>{ &x.title }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            if s.hides_future() {
                <span class="verdict-badge hidden" role="status" aria-label="Verdict: hidden until the end (predict mode)">{ "? verdict hidden" }</span>
            } else {
                <span class={classes!("verdict-badge", if safe { "safe" } else { "unsafe" })} role="status" aria-label={format!("Verdict: {}", if safe { "safe" } else { "unsafe" })}>
                    { if safe { "✓ safe" } else { "✗ unsafe" } }
                </span>
            }
            { for fix }
            if !s.quiz.is_empty() {
                <button class={classes!("btn", "predict-toggle", s.predict.then_some("on"))} aria-pressed={s.predict.to_string()}
                    title="Predict mode (P): the run stops at key moments and asks what happens next"
                    onclick={let d = p.dispatch.clone(); Callback::from(move |_| d.emit(Action::TogglePredict))}>
                    { if s.predict { "Predict: on" } else { "Predict" } }
                </button>
            }
            <CopyLink screen={s.clone()} />
            <EmbedButton screen={s.clone()} />
            <button class="btn ghost help" aria-label="Keyboard help (?)" onclick={help}>{ "?" }</button>
        </header>
    }
}

/// "Copy link": the address of this exact run, to the clipboard (and shown, if that fails).
#[derive(Properties, PartialEq)]
struct CopyLinkProps {
    screen: Rc<Screen>,
}

#[component]
fn CopyLink(p: &CopyLinkProps) -> Html {
    let shown = use_state(|| None::<String>);
    let onclick = {
        let shown = shown.clone();
        let s = p.screen.clone();
        Callback::from(move |_| {
            let (s, shown) = (s.clone(), shown.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let link = link_to(&s, "").await;
                if let Some(clip) = web_sys::window().map(|w| w.navigator().clipboard()) {
                    let _ = clip.write_text(&link);
                }
                shown.set(Some(link));
            });
        })
    };
    let close = {
        let shown = shown.clone();
        Callback::from(move |_| shown.set(None))
    };
    html! {
        <>
            <button class="btn copy" {onclick} title="Copy a link that reopens this exact run">{ "Copy link" }</button>
            if let Some(link) = (*shown).clone() {
                <div class="copied" role="status">
                    <span>{ "Link copied. It reopens this run at this step:" }</span>
                    <input readonly=true value={link} aria-label="Link to this run" onfocus={Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().select())} />
                    <button class="btn small" aria-label="Close" onclick={close}>{ "×" }</button>
                </div>
            }
        </>
    }
}

/// "Embed": the iframe snippet for this exact run.
#[component]
fn EmbedButton(p: &CopyLinkProps) -> Html {
    let snippet = use_state(|| None::<String>);
    let open = snippet.is_some();
    let toggle = {
        let (snippet, s) = (snippet.clone(), p.screen.clone());
        Callback::from(move |_| {
            if snippet.is_some() {
                return snippet.set(None);
            }
            let (snippet, s) = (snippet.clone(), s.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let src = link_to(&s, "&embed=1").await;
                let title = s.original.title.replace('"', "&quot;").replace('<', "&lt;");
                snippet.set(Some(format!(
                    "<iframe src=\"{src}\" title=\"Lease Lab: {title}\" width=\"100%\" height=\"560\" style=\"border:0\" loading=\"lazy\"></iframe>"
                )));
            });
        })
    };
    let snippet = (*snippet).clone();
    html! {
        <>
            <button class="btn" onclick={toggle.clone()} aria-expanded={open.to_string()}>{ "Embed" }</button>
            if let Some(code) = snippet {
                <div class="copied embed-dialog" role="dialog" aria-label="Embed this run">
                    <span>{ "Paste this into your page to show this run at this step. Add " }<code>{ "&controls=play" }</code>{ " or " }<code>{ "&controls=none" }</code>{ " to show fewer controls, " }<code>{ "&autoplay=1" }</code>{ " to play on load." }</span>
                    <button class="btn small" aria-label="Close" onclick={toggle}>{ "×" }</button>
                    <textarea readonly=true rows="3" aria-label="Embed snippet" value={code}
                              onfocus={Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().select())} />
                </div>
            }
        </>
    }
}

/// Mounts the app on the page's body.
pub fn mount() {
    yew::Renderer::<App>::new().render();
}

/// Speed label, e.g. `0.25×`.
pub fn speed_label(i: usize) -> String {
    format!("{}×", SPEEDS[i])
}

/// At the first step: how to go through a lesson (gone as soon as the reader moves).
#[component]
fn StartHint(p: &HeaderProps) -> Html {
    let s = &p.screen;
    if s.cursor != 0 || s.playing {
        return html! {};
    }
    html! {
        <p class="start-hint">
            { "Step through with " }<kbd>{ "→" }</kbd>{ ", jump between key moments with " }<kbd>{ "Shift" }</kbd>{ " + " }<kbd>{ "→" }</kbd>
            { ", or play with " }<kbd>{ "Space" }</kbd>{ "." }
            if !s.quiz.is_empty() && !s.predict { { " Preparing for an interview? Turn on Predict (" }<kbd>{ "P" }</kbd>{ ") and answer what happens next." } }
        </p>
    }
}

/// The end of a run: the verdict in a sentence, the invitation to change it, and the next lesson.
#[component]
fn EndOfRun(p: &HeaderProps) -> Html {
    let s = &p.screen;
    if s.cursor + 1 < s.steps() {
        return html! {};
    }
    let all = sim::library::catalog();
    let next = all.iter().position(|x| x.id == s.original.id).and_then(|i| all.get(i + 1));
    let safe = s.run.verdict.is_safe();
    html! {
        <section class="end-of-run" aria-label="End of the run">
            <p>
                <strong>{ "End of the run. " }</strong>
                { if safe { "The checker found the data safe." } else { "The checker found the data corrupted: see the verdict below." } }
                if s.original.challenge.is_some() && !s.challenge_met() { { " Now your turn: change the run (the challenge is under the story at the top)." } }
            </p>
            if let Some(n) = next {
                <button class="btn primary next-lesson" onclick={let d = p.dispatch.clone(); let n = Rc::new(n.clone()); Callback::from(move |_| d.emit(Action::Open(n.clone(), false)))}>
                    { format!("Next lesson: {} →", n.title) }
                </button>
            }
        </section>
    }
}
