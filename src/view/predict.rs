//! Predict mode: the question waiting at the cursor, its choices, and the answer revealed with
//! the engine's proof. And the course's "your turn" challenge for the current scenario.

use sim::scenario::Scenario;
use yew::prelude::*;

use crate::state::{Action, ByPtr, Given, Quiz};

#[derive(Properties, PartialEq)]
pub struct PredictProps {
    pub quiz: ByPtr<Vec<Quiz>>,
    pub picked: Vec<Option<usize>>,
    /// The cursor, while predict mode asks questions (`None` otherwise: nothing is shown).
    pub here: Option<usize>,
    /// The question waiting at the cursor.
    pub pending: Option<usize>,
    /// The answered questions shown at the cursor.
    pub revealed: Vec<usize>,
    pub at_end: bool,
    pub dispatch: Callback<Action>,
}

/// The question at the cursor (with its choices), or the answers revealed here.
#[component]
pub fn Predict(p: &PredictProps) -> Html {
    crate::view::probe::rendered("Predict");
    let card = use_node_ref();
    {
        // A new question scrolls into view (on a phone it is below the timeline).
        let card = card.clone();
        use_effect_with(p.pending, move |q| {
            if q.is_some() {
                if let Some(el) = card.cast::<web_sys::Element>() {
                    let opts = web_sys::ScrollIntoViewOptions::new();
                    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    el.scroll_into_view_with_scroll_into_view_options(&opts);
                }
            }
        });
    }
    let Some(cursor) = p.here else { return html! {} };
    let total = p.quiz.len();
    let ask = p.pending.map(|i| {
        let q = &p.quiz[i].question;
        html! {
            <section ref={card.clone()} class="predict ask" aria-labelledby="predict-q" data-question={i.to_string()}>
                <p class="predict-kicker">{ format!("Predict · question {} of {total}", i + 1) }</p>
                <h3 id="predict-q">{ &q.ask }</h3>
                <div class="choices" role="group" aria-label="Your answer">
                    { for q.choices.iter().enumerate().map(|(n, c)| {
                        let d = p.dispatch.clone();
                        html! {
                            <button class="btn choice" onclick={Callback::from(move |_| d.emit(Action::Answer(i, n)))}>
                                <kbd aria-hidden="true">{ crate::view::keys::letter(n) }</kbd>{ &c.text }
                            </button>
                        }
                    }) }
                </div>
                <p class="hint">{ format!("The run waits here until you answer (keys A–{}). Step back to look again.", crate::view::keys::letter(q.choices.len() - 1)) }</p>
            </section>
        }
    });
    let shown = p.revealed.clone();
    if shown.is_empty() && ask.is_none() {
        let answered = p.picked.iter().filter(|x| x.is_some()).count();
        let right = p.picked.iter().zip(p.quiz.iter()).filter(|(x, q)| **x == q.answer.right && x.is_some()).count();
        return html! {
            <p class="predict-status" role="status">
                { format!("Predict mode: {answered} of {total} answered, {right} right.") }
                if p.at_end && answered == total { { " All done for this scenario." } }
            </p>
        };
    }
    html! {
        <>
            { for shown.into_iter().map(|i| {
                let quiz = &p.quiz[i];
                let (q, a) = (&quiz.question, &quiz.answer);
                let picked = p.picked[i].unwrap_or(0);
                let right = a.right == Some(picked);
                let answer_text = a.right.and_then(|r| q.choices.get(r)).map(|c| c.text.clone()).unwrap_or_default();
                let d = p.dispatch.clone();
                let proof = a.proof;
                let at_proof = cursor == proof;
                html! {
                    <section class={classes!("predict", "reveal", if right { "right" } else { "wrong" })} data-question={i.to_string()}>
                        <p class="predict-kicker">{ format!("Predict · question {} of {total}", i + 1) }</p>
                        <h3>{ &q.ask }</h3>
                        <p class="result">
                            <strong>{ if right { "✓ Right: " } else { "✗ Not quite. The answer: " } }</strong>{ answer_text }
                            if !right { <span class="yours">{ format!(" (you said: {})", q.choices[picked].text) }</span> }
                        </p>
                        <p class="why">{ &q.why }</p>
                        if at_proof {
                            <p class="hint">{ format!("This is the step that shows it (step {}).", proof + 1) }</p>
                        } else if p.pending.is_none() {
                            <button class="btn small primary" onclick={Callback::from(move |_| d.emit(Action::Seek(proof)))}>
                                { format!("Show me (step {})", proof + 1) }
                            </button>
                        }
                    </section>
                }
            }) }
            { for ask }
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct YourTurnProps {
    pub original: ByPtr<Scenario>,
    /// The course invites the reader to change the run once they have seen it to the end (or
    /// have started changing it already).
    pub shown: bool,
    /// The goal is reached by the reader's own change.
    pub met: bool,
    /// ... by changing what the challenge's solution changes (so that its explanation applies).
    pub its_way: bool,
    /// The goal is reached, but not by the reader: the one-click fix, or the search's schedule.
    pub given: Option<crate::state::Given>,
    /// What the change that turned the verdict changed, in words ([`crate::state::Screen::credit`]).
    pub credit: Option<String>,
    pub dispatch: Callback<Action>,
}

/// Where the reader's expectation for a lesson's challenge is kept (local storage).
fn expect_key(id: &str) -> String {
    format!("leaselab.expect.{id}")
}

/// The reader's expectation for a lesson's challenge, as kept.
fn expected(id: &str) -> String {
    crate::view::progress::storage().and_then(|st| st.get_item(&expect_key(id)).ok().flatten()).unwrap_or_default()
}

/// The course's invitation to change the run, with a place to write what the reader expects
/// (kept for the lesson, and quoted back once the goal is met: issue 50), a hint, one way to do
/// it, and a check.
#[component]
pub fn YourTurn(p: &YourTurnProps) -> Html {
    let hint = use_state(|| false);
    let id = p.original.id.clone();
    let expect = {
        let id = id.clone();
        use_state(move || expected(&id))
    };
    // Another lesson's: read its own.
    {
        let expect = expect.clone();
        use_effect_with(id.clone(), move |id| {
            expect.set(expected(id));
        });
    }
    let on_expect = {
        let (expect, id) = (expect.clone(), id.clone());
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value();
            if let Some(st) = crate::view::progress::storage() {
                let _ = if v.trim().is_empty() { st.remove_item(&expect_key(&id)) } else { st.set_item(&expect_key(&id), &v) };
            }
            expect.set(v);
        })
    };
    let said = (!expect.trim().is_empty()).then(|| html! { <p class="expected">{ format!("You expected: “{}”", expect.trim()) }</p> });
    let Some(c) = p.original.challenge.as_ref() else { return html! {} };
    if !p.shown {
        return html! {};
    }
    let goal = if c.goal == sim::Safety::Safe { "safe" } else { "unsafe" };
    let met = p.met;
    let toggle = {
        let hint = hint.clone();
        Callback::from(move |_| hint.set(!*hint))
    };
    let solve = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.emit(Action::ShowSolution))
    };
    html! {
        <div class={classes!("your-turn", met.then_some("met"))} data-met={met.to_string()}>
            <p><strong>{ if c.goal == sim::Safety::Safe { "Your turn, fix it: " } else { "Your turn, break it: " } }</strong>{ &c.ask }</p>
            if met {
                { for said }
                if p.its_way {
                    <p class="done" role="status"><strong>{ format!("✓ Done: the verdict is now {goal}. ") }</strong>{ &c.explain }</p>
                } else {
                    // Met another way: say so, rather than explain a change that was not made.
                    <p class="done" role="status">
                        <strong>{ format!("✓ The verdict is now {goal}, another way than the one suggested") }</strong>
                        { p.credit.as_ref().map(|n| format!(" ({n})")).unwrap_or_default() }
                        { ". \"Show one way\" shows the suggested change, and Compare puts the two runs side by side." }
                        <button class="btn small ghost" onclick={solve.clone()}>{ "Show one way" }</button>
                    </p>
                }
            } else if let Some(given) = p.given {
                // Done for the reader: say so, rather than ask for what the verdict already says.
                <p class="done given" role="status">
                    <strong>{ match given {
                        Given::Fix => format!("The one-click fix is on, and the verdict is {goal}. "),
                        Given::Search => format!("The search's schedule is on screen, and the verdict is {goal}. "),
                    } }</strong>
                    { match given {
                        Given::Fix => format!("Your turn is still to come: Undo takes the fix off; then change the run yourself until the verdict says {goal}."),
                        Given::Search => format!("Your turn is still to come: Undo takes the schedule off; then change the run yourself until the verdict says {goal}."),
                    } }
                </p>
            } else {
                <p class="goal">
                    { format!("Change the run in the Change panel (or drag a pause) until the verdict says {goal}. ") }
                    if !c.hint.is_empty() {
                        <button class="btn small ghost" aria-expanded={hint.to_string()} onclick={toggle}>{ if *hint { "Hide the hint" } else { "Hint" } }</button>
                    }
                    <button class="btn small ghost" onclick={solve}>{ "Show one way" }</button>
                </p>
                if *hint { <p class="hint">{ &c.hint }</p> }
                <label class="expect">{ "Before you try, what do you expect will work? (optional, kept in this browser; quoted back when the verdict changes)" }
                    <textarea rows="2" maxlength="400" value={(*expect).clone()} oninput={on_expect} aria-label="What you expect will work" />
                </label>
            }
        </div>
    }
}
