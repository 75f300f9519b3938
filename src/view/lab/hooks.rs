//! The lab's hooks: the keyboard listener, the playback timer, the address bar and local
//! storage following the run, requests from the pages, and the reader's progress. Each browser
//! resource is an owned handle that the hook drops (and so cancels) with the lab.

use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use gloo_timers::callback::{Interval, Timeout};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::LabProps;
use crate::share::Address;
use crate::state::{Action, ByPtr, Screen};
use crate::view::address::{open_pending_link, remember, sync_url};
use crate::view::keys::{is_text_field, is_typing, key_action};
use crate::view::progress::Progress;

/// The reader's progress, and a callback that resets it.
pub type ProgressState = (ByPtr<Progress>, Callback<()>);

fn document() -> web_sys::Document {
    crate::view::window().and_then(|w| w.document()).expect("a document")
}

/// Everything the lab does besides drawing: returns the reader's progress (read from storage
/// once, and again only when it changes).
#[hook]
pub fn use_lab_effects(screen: &UseReducerHandle<Screen>, p: &LabProps, root_ref: NodeRef) -> ProgressState {
    // A deflated link (`#z=`) is opened once it is inflated.
    {
        let d = screen.dispatcher();
        use_effect_with((), move |_| open_pending_link(d));
    }
    // A page asked to open a scenario.
    {
        let d = screen.dispatcher();
        use_effect_with(p.open.clone(), move |req| {
            if let Some((_, id, fixed, step)) = req {
                let step = *step;
                let then = Callback::from(move |a: Action| {
                    let opened = matches!(a, Action::Open(..));
                    d.dispatch(a);
                    if let Some(i) = step.filter(|_| opened) {
                        d.dispatch(Action::Seek(i));
                    }
                });
                crate::library::open(id, *fixed, then, Callback::noop());
            }
        });
    }
    use_keyboard(screen, p, root_ref);
    use_playback(screen);
    use_address(screen, p);
    use_progress(screen, p)
}

/// Keyboard: one listener on the document (embedded: on the run's own root, so that several
/// runs on one page keep to themselves), dropped (and removed) with the component.
#[hook]
fn use_keyboard(screen: &UseReducerHandle<Screen>, p: &LabProps, root_ref: NodeRef) {
    let active = use_mut_ref(|| true);
    *active.borrow_mut() = p.active;
    let d = screen.dispatcher();
    let d2 = d.clone();
    let embedded = p.embed.is_some();
    use_effect_with((), move |_| {
        let target: web_sys::EventTarget = match root_ref.cast::<web_sys::Element>() {
            Some(el) if embedded => el.into(),
            _ => document().into(),
        };
        let opts = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&target, "keydown", opts, move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else { return };
            // Not when inactive, nor for a key a widget already took (the overview strip's
            // arrows, for one: its other keys, 0 or Z, are the lab's).
            if !*active.borrow() || e.default_prevented() {
                return;
            }
            // Undo works everywhere but in a text field (a focused pause block included).
            let undo = ((e.ctrl_key() || e.meta_key()) && e.key().eq_ignore_ascii_case("z")
                || !e.ctrl_key() && !e.meta_key() && e.key().eq_ignore_ascii_case("u"))
                && !e.alt_key()
                && !e.shift_key();
            if undo && !is_text_field(e.target()) {
                e.prevent_default();
                d.dispatch(Action::Undo);
                return;
            }
            if is_typing(e.target()) {
                return;
            }
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
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
        if !embedded {
            replay_early_keys(&d2);
        }
        move || drop(listener)
    });
}

/// The lab's keys the reader pressed over the first view's picture, before the program was up
/// (static/loader.js keeps them): played now, in order, so that the cursor is where they put it.
fn replay_early_keys(d: &UseReducerDispatcher<Screen>) {
    let Some(w) = crate::view::window() else { return };
    let name = wasm_bindgen::JsValue::from_str("leaselabEarlyKeys");
    let Ok(keys) = js_sys::Reflect::get(&w, &name).and_then(|k| k.dyn_into::<js_sys::Array>()) else { return };
    let _ = js_sys::Reflect::delete_property(&w, &name);
    for e in keys.iter().filter_map(|k| k.dyn_into::<web_sys::KeyboardEvent>().ok()) {
        if let Some(a) = key_action(&e) {
            d.dispatch(a);
        }
    }
}

/// Playback: an interval that lives only while playing.
#[hook]
fn use_playback(screen: &UseReducerHandle<Screen>) {
    let d = screen.dispatcher();
    use_effect_with(screen.playing, move |playing| {
        let timer = playing.then(|| {
            let perf = crate::view::window().and_then(|w| w.performance());
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

/// The address and local storage follow the run a moment after it settles, so that encoding
/// the scenario never delays a repaint. Dropping the timer cancels it.
#[hook]
fn use_address(screen: &UseReducerHandle<Screen>, p: &LabProps) {
    let s = Rc::new((**screen).clone());
    let key = (screen.scenario.clone(), screen.fixed(), screen.cursor, screen.playing, screen.predict, p.active);
    let embedded = p.embed.is_some();
    use_effect_with(key, move |(_, _, _, playing, _, active)| {
        // An embedded run leaves its host page's address and the reader's storage alone, and a
        // hidden lab leaves the address to the page shown.
        let timer = (!*playing && !embedded && *active).then(|| {
            Timeout::new(250, move || {
                sync_url(&s);
                remember(&s.scenario);
            })
        });
        move || drop(timer)
    });
}

/// The reader's progress: a lesson counts as opened as soon as it is shown, and predict answers
/// go to the score as soon as they are given.
#[hook]
fn use_progress(screen: &UseReducerHandle<Screen>, p: &LabProps) -> ProgressState {
    let progress = use_state(|| ByPtr::new(Progress::load()));
    let embedded = p.embed.is_some();
    {
        let progress = progress.setter();
        use_effect_with((screen.original.id.clone(), p.active), move |(id, active)| {
            if !embedded && *active {
                if let Some(now) = Progress::visit(id) {
                    progress.set(ByPtr::new(now));
                }
            }
        });
    }
    {
        let s = Rc::new((**screen).clone());
        let progress = progress.setter();
        use_effect_with(screen.picked.clone(), move |_| {
            if !embedded {
                if let Some(now) = Progress::answer(&s) {
                    progress.set(ByPtr::new(now));
                }
            }
        });
    }
    let reset = {
        let progress = progress.setter();
        use_callback((), move |_: (), _| progress.set(ByPtr::new(Progress::reset())))
    };
    ((*progress).clone(), reset)
}

/// "Open in Lease Lab" for an embedded run: the link is worked out once per scenario, not on
/// every playback tick (only its step changes), and not at all for the lab on its own page
/// (comparing an edited scenario with the library's is a tenth of a small run's edit).
#[hook]
pub fn use_embed_link(s: &Screen, embedded: bool) -> Rc<Address> {
    let key = (s.scenario.clone(), s.original.clone(), s.fixed(), embedded);
    use_memo(key, |(sc, original, fixed, embedded)| if *embedded { crate::share::link(sc, original, *fixed) } else { Address::default() })
}

/// Whether the challenge is met, and met its own way (`Screen::met_its_way`): worked out once
/// per change, not on every tick.
#[hook]
pub(super) fn use_challenge(s: &Rc<Screen>) -> (bool, bool) {
    let met = s.challenge_met();
    let s = s.clone();
    (met, *use_memo((s.scenario.clone(), met), move |_| met && s.met_its_way()))
}
