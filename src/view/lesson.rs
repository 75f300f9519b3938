//! A lesson's first and last steps: [`StartHint`] (how to go through it) and [`EndOfRun`] (the
//! verdict in a sentence, the invitation to change it, and the next lesson).

use sim::scenario::Scenario;
use yew::prelude::*;

use crate::state::{Action, ByPtr};

/// At the first step: how to go through a lesson (gone as soon as the reader moves).
#[derive(Properties, PartialEq)]
pub struct StartHintProps {
    /// At the first step, not playing.
    pub shown: bool,
    /// The scenario has questions and predict mode is off.
    pub offer_predict: bool,
}

#[component]
pub fn StartHint(p: &StartHintProps) -> Html {
    if !p.shown {
        return html! {};
    }
    if crate::view::touch_only() {
        return html! {
            <p class="start-hint">
                { "Step through with the ▶ buttons below, or swipe the narration to the left; ▶▶ jumps to the next key moment." }
                if p.offer_predict { { " Preparing for an interview? Turn on Predict and answer what happens next." } }
            </p>
        };
    }
    html! {
        <p class="start-hint">
            { "Step through with " }<kbd>{ "→" }</kbd>{ ", jump between key moments with " }<kbd>{ "Shift" }</kbd>{ " + " }<kbd>{ "→" }</kbd>
            { ", or play with " }<kbd>{ "Space" }</kbd>{ "." }
            if p.offer_predict { { " Preparing for an interview? Turn on Predict (" }<kbd>{ "P" }</kbd>{ ") and answer what happens next." } }
        </p>
    }
}

/// The end of a run: the verdict in a sentence, the invitation to change it, and the next lesson.
#[derive(Properties, PartialEq)]
pub struct EndOfRunProps {
    pub at_end: bool,
    pub original: ByPtr<Scenario>,
    pub safe: bool,
    /// The scenario has a challenge, not met yet.
    pub challenge_open: bool,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn EndOfRun(p: &EndOfRunProps) -> Html {
    if !p.at_end {
        return html! {};
    }
    let all = sim::library::INDEX;
    let next = all.iter().position(|x| x.id == p.original.id).and_then(|i| all.get(i + 1));
    let safe = p.safe;
    html! {
        <section class="end-of-run" aria-label="End of the run">
            <p>
                <strong>{ "End of the run. " }</strong>
                { if safe { "The checker found the data safe." } else { "The checker found harm to the data or its effects: see the verdict below." } }
                if p.challenge_open { { " Now your turn: change the run (see “Your turn” just above)." } }
            </p>
            if let Some(n) = next {
                <button class="btn primary next-lesson" onclick={let d = p.dispatch.clone(); Callback::from(move |_| crate::library::open(n.id, false, d.clone(), Callback::noop()))}>
                    { format!("Next lesson: {} →", n.title) }
                </button>
            }
        </section>
    }
}

/// Whether the introduction was dismissed (local storage, `leaselab.intro`).
fn intro_seen() -> bool {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten()).and_then(|st| st.get_item("leaselab.intro").ok().flatten()).is_some()
}

/// The first visit's introduction: what this is, what the lanes are, how to go on. Dismissed
/// once, for good.
#[component]
pub fn Intro() -> Html {
    let shown = use_state(|| !intro_seen());
    if !*shown {
        return html! {};
    }
    let close = {
        let shown = shown.clone();
        Callback::from(move |_| {
            if let Some(st) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
                let _ = st.set_item("leaselab.intro", "seen");
            }
            shown.set(false);
        })
    };
    html! {
        <section class="intro" aria-label="Welcome">
            <p>
                <strong>{ "Welcome to Lease Lab." }</strong>
                { " Several clients want a lock, so that one at a time may change a shared counter. The lock is a " }
                <em>{ "lease" }</em>
                { ": it runs out by itself after a time (its TTL). Each row of the timeline is one process: the clients, the lock service, and the resource they protect. Time runs left to right." }
            </p>
            <p>
                if crate::view::touch_only() {
                    { "Go through a lesson one step at a time: tap ▶ under the timeline, or swipe the narration to the left" }
                } else {
                    { "Go through a lesson one step at a time with " }<kbd>{ "→" }</kbd>{ " or the ▶ buttons under the timeline" }
                }
                { "; the narration says what happens, the verdict whether the data was corrupted, and why. Then change the run (drag the pause, change the TTL) and watch the verdict change. Words in dotted underline have their meaning on a tap." }
            </p>
            <button class="btn primary small" onclick={close}>{ "Got it" }</button>
        </section>
    }
}
