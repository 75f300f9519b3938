//! A lesson's first and last steps: [`start_hint`] (how to go through it) and [`end_of_run`] (the
//! verdict in a sentence, the invitation to change it, and the next lesson). Plain functions, not
//! components: each is small, and a component costs the download about 0.45 KB of its own.

use sim::scenario::Scenario;
use yew::prelude::*;

use crate::state::Action;

/// At the first step: how to go through a lesson (gone as soon as the reader moves). `shown`: at
/// the first step, not playing; `offer_predict`: the scenario has questions and predict mode is off.
pub fn start_hint(shown: bool, offer_predict: bool) -> Html {
    if !shown {
        return html! {};
    }
    if crate::view::touch_only() {
        return html! {
            <p class="start-hint">
                { "Step through with the ▶ buttons under the timeline, or swipe the narration to the left; ▶▶ jumps to the next key moment." }
                if offer_predict { { " Preparing for an interview? Turn on Predict and answer what happens next." } }
            </p>
        };
    }
    html! {
        <p class="start-hint">
            { "Step through with " }<kbd>{ "→" }</kbd>{ ", jump between key moments with " }<kbd>{ "Shift" }</kbd>{ " + " }<kbd>{ "→" }</kbd>
            { ", or play with " }<kbd>{ "Space" }</kbd>{ "." }
            if offer_predict { { " Preparing for an interview? Turn on Predict (" }<kbd>{ "P" }</kbd>{ ") and answer what happens next." } }
        </p>
    }
}

/// The end of a run (shown `at_end` only): the verdict in a sentence, the invitation to change it
/// (`challenge_open`: the scenario has a challenge, not met yet), and the next lesson.
pub fn end_of_run(at_end: bool, original: &Scenario, safe: bool, challenge_open: bool, dispatch: &Callback<Action>) -> Html {
    if !at_end {
        return html! {};
    }
    let all = sim::library::INDEX;
    let next = all.iter().position(|x| x.id == original.id).and_then(|i| all.get(i + 1));
    html! {
        <section class="end-of-run" aria-label="End of the run">
            <p>
                <strong>{ "End of the run. " }</strong>
                { if safe { "The checker found the data safe." } else { "The checker found harm to the data or its effects: see the verdict above." } }
                if challenge_open { { " Now your turn: change the run (see “Your turn” just above)." } }
            </p>
            if let Some(n) = next {
                <button class="btn primary next-lesson" onclick={let d = dispatch.clone(); Callback::from(move |_| crate::library::open(n.id, false, d.clone(), Callback::noop()))}>
                    { format!("Next lesson: {} →", n.title) }
                </button>
            }
        </section>
    }
}

/// Whether the introduction was dismissed (local storage, `leaselab.intro`).
fn intro_seen() -> bool {
    crate::view::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|st| st.get_item("leaselab.intro").ok().flatten())
        .is_some()
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
            if let Some(st) = crate::view::window().and_then(|w| w.local_storage().ok().flatten()) {
                let _ = st.set_item("leaselab.intro", "seen");
            }
            shown.set(false);
        })
    };
    // A phone's first screen is the run's: two lines, the rest said by the lesson's hint.
    if crate::view::narrow() {
        return html! {
            <section class="intro short" aria-label="Welcome">
                <p>
                    <strong>{ "Welcome to Lease Lab." }</strong>
                    { " Each row of the timeline is one process: the clients, the lock service, the resource. Time runs left to right; step with ▶ (or swipe the narration) and read the verdict." }
                </p>
                <button class="btn primary small" onclick={close}>{ "Got it" }</button>
            </section>
        };
    }
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
