//! Two runs of one story, one above the other on one time axis with one cursor
//! ([`CompareView`]), and the bar that starts a comparison and holds Undo ([`RunBar`]).

use sim::time::Micros;
use yew::prelude::*;

use crate::state::{Action, Against, ByPtr, Other};
use crate::view::timeline::Timeline;

/// What a comparison is with, in words for a menu.
fn against_label(a: Against) -> &'static str {
    match a {
        Against::Before => "the run before your last change",
        Against::Fix => "the run with the fix",
        Against::AsWritten => "the run as written",
    }
}

#[derive(Properties, PartialEq)]
pub struct RunBarProps {
    pub can_undo: bool,
    /// What the run can be compared with.
    pub comparable: Vec<Against>,
    pub comparing: Option<Against>,
    /// What the last change did.
    pub notice: Option<crate::state::Notice>,
    pub dispatch: Callback<Action>,
}

/// Undo and Compare, always in place (so that the timeline never moves when they apply).
#[component]
pub fn RunBar(p: &RunBarProps) -> Html {
    let undo = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.emit(Action::Undo))
    };
    let choices = p.comparable.clone();
    let on_compare = {
        let (d, choices) = (p.dispatch.clone(), choices.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let pick = v.parse::<usize>().ok().and_then(|i| choices.get(i).copied());
            d.emit(Action::Compare(pick));
        })
    };
    let selected = p.comparing.and_then(|a| choices.iter().position(|c| *c == a));
    html! {
        <div class="run-bar">
            <button class="btn small" onclick={undo} disabled={!p.can_undo} title="Undo the last change (U or Ctrl+Z)">{ "↶ Undo" }</button>
            <label>{ "Compare with " }
                <select aria-label="Compare this run with" onchange={on_compare} disabled={choices.is_empty() && p.comparing.is_none()}>
                    <option value="" selected={selected.is_none()}>{ if choices.is_empty() { "nothing yet (change something first)" } else { "— no comparison —" } }</option>
                    { for choices.iter().enumerate().map(|(i, a)| html! { <option value={i.to_string()} selected={selected == Some(i)}>{ against_label(*a) }</option> }) }
                </select>
            </label>
            <p class={classes!("notice", p.notice.as_ref().map(|n| if n.safe { "safe" } else { "unsafe" }))} role="status"
               title={p.notice.as_ref().map(|n| n.text())}>
                // The words of what changed give way first: what it did is always shown whole.
                if let Some(n) = &p.notice { <span class="what">{ &n.what }</span><span class="did">{ n.did() }</span> }
            </p>
        </div>
    }
}

/// A run's name and verdict above its timeline.
pub fn caption(label: &str, safe: bool) -> Html {
    html! {
        <h2 class="compare-caption">
            { label }
            <span class={classes!("verdict-badge", if safe { "safe" } else { "unsafe" })}>{ if safe { "✓ safe" } else { "✗ unsafe" } }</span>
        </h2>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    pub other: ByPtr<Other>,
    /// The true time of the one cursor.
    pub time_us: Micros,
    /// The end of the run on screen: both are drawn to the later end, on one axis.
    pub end_us: Micros,
    /// The zoom of the run on screen: one x is one time in both.
    pub view: crate::state::View,
    pub dispatch: Callback<Action>,
}

/// The other run, under the one on screen: read-only, its cursor at the same true time; a
/// click on one of its marks moves the one cursor to that time.
/// The two timelines scroll together (on a narrow screen each scrolls in its own box): a
/// scroll of one moves the other to the same place, so that one x stays one time on screen.
#[hook]
fn use_scroll_together(section: NodeRef) {
    use wasm_bindgen::JsCast;
    use_effect_with((), move |_| {
        // Scroll events do not bubble, but they pass down through the ancestors first.
        let root = section.cast::<web_sys::Element>().and_then(|el| el.closest(".stage, .embed-main").ok().flatten());
        let listener = root.map(|root| {
            let opts = gloo_events::EventListenerOptions::run_in_capture_phase();
            let scope = root.clone();
            gloo_events::EventListener::new_with_options(&root, "scroll", opts, move |e| {
                let Some(from) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
                if !from.matches(".timeline-scroll").unwrap_or(false) {
                    return;
                }
                let Ok(all) = scope.query_selector_all(".timeline-scroll") else { return };
                for i in 0..all.length() {
                    let Some(el) = all.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
                    // Setting the same value fires no event, so the two settle at once.
                    if el != from && el.scroll_left() != from.scroll_left() {
                        el.set_scroll_left(from.scroll_left());
                    }
                }
            })
        });
        move || drop(listener)
    });
}

#[component]
pub fn CompareView(p: &CompareProps) -> Html {
    let section = use_node_ref();
    use_scroll_together(section.clone());
    let o = &p.other;
    let cursor = o.run.events.partition_point(|e| e.at_us <= p.time_us).saturating_sub(1);
    let dispatch = {
        let (d, run) = (p.dispatch.clone(), o.run.clone());
        use_callback(run, move |a: Action, run| match a {
            Action::Seek(i) => d.emit(Action::SeekTime(run.events.get(i).map_or(Micros::ZERO, |e| e.at_us))),
            a @ Action::SeekTime(_) => d.emit(a),
            // Changes belong to the run on screen, not to the one it is compared with.
            _ => {}
        })
    };
    let close = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.emit(Action::Compare(None)))
    };
    let diff = o.parting.map(|(t, _, theirs)| (t, theirs));
    html! {
        <section class="compare" ref={section} aria-label={format!("Compared with {}", against_label(o.against))}>
            <div class="compare-head">
                { caption(&o.label, o.run.verdict.is_safe()) }
                if let Some((t, _)) = diff {
                    <span class="hint">{ format!("First difference at {}", sim::time::fmt(t)) }</span>
                } else {
                    <span class="hint">{ "The two runs are the same" }</span>
                }
                <button class="btn small" onclick={close} aria-label="Stop comparing">{ "×" }</button>
            </div>
            <Timeline run={o.run.clone()} facts={o.facts.clone()} scenario={o.scenario.clone()} {cursor} time_us={p.time_us}
                      hide={false} error={None::<String>} {dispatch} readonly={true} {diff} label={AttrValue::from(o.label.clone())}
                      end_us={p.end_us} view={p.view} />
        </section>
    }
}
