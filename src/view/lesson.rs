//! A lesson's first and last steps: [`StartHint`] (how to go through it) and [`EndOfRun`] (the
//! verdict in a sentence, the invitation to change it, and the next lesson).

use std::rc::Rc;

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
    let all = sim::library::catalog();
    let next = all.iter().position(|x| x.id == p.original.id).and_then(|i| all.get(i + 1));
    let safe = p.safe;
    html! {
        <section class="end-of-run" aria-label="End of the run">
            <p>
                <strong>{ "End of the run. " }</strong>
                { if safe { "The checker found the data safe." } else { "The checker found harm to the data or its effects: see the verdict below." } }
                if p.challenge_open { { " Now your turn: change the run (the challenge is under the story at the top)." } }
            </p>
            if let Some(n) = next {
                <button class="btn primary next-lesson" onclick={let d = p.dispatch.clone(); let n = Rc::new(n.clone()); Callback::from(move |_| d.emit(Action::Open(n.clone(), false)))}>
                    { format!("Next lesson: {} →", n.title) }
                </button>
            }
        </section>
    }
}
