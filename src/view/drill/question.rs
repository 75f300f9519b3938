//! One question of the drill ([`Question`]): where its run stopped (the timeline up to the
//! question's event, the future hidden), the question and its choices, answered with the mouse
//! or keys 1–4; once answered, the engine's answer, why, and the step that proves it.

use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use yew::prelude::*;

use crate::drill::{self, Session};

use crate::state::{cause_from, Quiz, Screen, View};
use crate::view::timeline::Timeline;
use sim::time::Micros;

/// A question of the course on its run: the screen at its event, and the engine's answer.
pub(super) struct Asked {
    pub(super) screen: Screen,
    pub(super) quiz: Quiz,
}

pub(super) fn ask(k: &str) -> Result<Asked, String> {
    let (id, index) = drill::parse_key(k).ok_or_else(|| format!("“{k}” does not name a question"))?;
    let sc = sim::library::find(id).ok_or_else(|| format!("there is no lesson called “{id}” in the course"))?;
    let screen = Screen::new(sc.clone(), false)?;
    let quiz = screen.quiz.iter().find(|q| q.index == index).cloned();
    let quiz = quiz.ok_or_else(|| format!("“{}” has no question {} that the engine can answer", sc.title, index + 1))?;
    Ok(Asked { screen, quiz })
}

/// The screen a question's timeline starts from: at the question's event, the future hidden
/// (predict mode, with the scenario's other questions counted as answered, so that only this one
/// stops the run); once answered, at the step that proves the answer, nothing hidden.
fn run_screen(a: &Asked, answered: bool) -> Rc<Screen> {
    let mut s = a.screen.clone();
    if answered {
        s.cursor = a.quiz.answer.proof;
    } else {
        s.predict = true;
        s.picked = s.quiz.iter().map(|q| (q.index != a.quiz.index).then_some(q.answer.right.unwrap_or(0))).collect();
        s.cursor = a.quiz.answer.asked;
    }
    // Framed on the question's cause and its moment (and, once answered, the step that proves
    // it), rather than the lesson's opening zoom.
    let at = |i: usize| s.run.events.get(i).map_or(Micros::ZERO, |e| e.at_us);
    let asked = at(a.quiz.answer.asked);
    let from = cause_from(&s.run, asked);
    s.view = View::framing(&s.run, from, at(s.cursor).max(asked));
    Rc::new(s)
}

#[derive(Properties, PartialEq)]
struct RunProps {
    start: Rc<Screen>,
    label: AttrValue,
}

/// A question's run, read-only: its own reducer, so that the reader can step back over it (a
/// move forward stops at the question, as in predict mode).
#[component]
fn DrillRun(p: &RunProps) -> Html {
    let screen = {
        let s = p.start.clone();
        use_reducer(move || (*s).clone())
    };
    let dispatch = {
        let d = screen.dispatcher();
        use_callback((), move |a, _| d.dispatch(a))
    };
    let s = &*screen;
    html! {
        <Timeline run={s.run.clone()} facts={s.facts.clone()} scenario={s.scenario.clone()} cursor={s.cursor} time_us={s.time_us()}
                  hide={s.hides_future()} error={None::<String>} {dispatch} readonly=true label={p.label.clone()} tools=true view={s.view} />
    }
}

#[derive(Properties, PartialEq)]
pub(super) struct QuestionProps {
    pub(super) session: Session,
    pub(super) at: usize,
    /// (choice, whether it is the engine's answer).
    pub(super) answer: Callback<(usize, bool)>,
    pub(super) next: Callback<()>,
}

/// One question: where the run stopped, the question and its choices; once answered, the
/// engine's answer, why, and the step that proves it.
#[component]
pub(super) fn Question(p: &QuestionProps) -> Html {
    let k = p.session.queue[p.at].clone();
    let asked = use_memo(k.clone(), |k| ask(k));
    let picked = p.session.picked[p.at];
    let next_ref = use_node_ref();
    // Keys: 1–4 answer, Enter or → goes on once answered.
    {
        let (answer, next) = (p.answer.clone(), p.next.clone());
        let right = asked.as_ref().as_ref().ok().and_then(|a| Some((a.quiz.answer.right?, a.quiz.question.choices.len())));
        use_effect_with((picked, right), move |&(picked, right)| {
            let doc = crate::view::window().and_then(|w| w.document()).expect("a document");
            let listener = EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(e) = wasm_bindgen::JsCast::dyn_ref::<web_sys::KeyboardEvent>(e) else { return };
                let on = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
                let tag = on.as_ref().map(|t| t.tag_name().to_ascii_lowercase()).unwrap_or_default();
                let in_timeline = on.as_ref().and_then(|t| t.closest(".timeline-wrap").ok().flatten()).is_some();
                if e.ctrl_key() || e.meta_key() || e.alt_key() || matches!(tag.as_str(), "input" | "select" | "textarea") {
                    return;
                }
                let key = e.key();
                match (picked, right) {
                    (None, Some((r, n))) => {
                        if let Some(c) = key.parse::<usize>().ok().filter(|c| (1..=n).contains(c)) {
                            e.prevent_default();
                            answer.emit((c - 1, c - 1 == r));
                        }
                    }
                    (Some(_), _) if (key == "Enter" && tag != "button" && tag != "a") || (key == "ArrowRight" && !in_timeline) => {
                        e.prevent_default();
                        next.emit(());
                    }
                    _ => {}
                }
            });
            move || drop(listener)
        });
    }
    // Once answered, the focus goes to Next (so that Enter, Space or a tap goes on); a new
    // question takes it itself (so that a screen reader reads it, and Tab starts from it).
    let card_ref = use_node_ref();
    {
        let (next_ref, card_ref) = (next_ref.clone(), card_ref.clone());
        use_effect_with(picked.is_some(), move |answered| {
            let to = if *answered { next_ref } else { card_ref };
            if let Some(el) = to.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        });
    }
    let a = match asked.as_ref() {
        Ok(a) => a,
        Err(e) => {
            return html! {
                <section class="drill-card" role="alert">
                    <p>{ format!("This question cannot be asked: {e}.") }</p>
                    <button class="btn primary" ref={next_ref} onclick={p.next.reform(|_| ())}>{ "Skip it" }</button>
                </section>
            }
        }
    };
    let (total, (right_so_far, answered)) = (p.session.queue.len(), p.session.score());
    let sc = &a.screen.scenario;
    let (q, ans) = (&a.quiz.question, &a.quiz.answer);
    let narrate = |i: usize| a.screen.run.events.get(i).map(|e| sim::narrate::text(sc, &a.screen.run, e)).unwrap_or_default();
    let chapter = sim::library::entry(&sc.id).map_or("", |e| sim::library::chapter_title(e.chapter));
    let choices = q.choices.iter().enumerate().map(|(n, c)| {
        let answer = p.answer.clone();
        let right = ans.right == Some(n);
        let class = match picked {
            None => None,
            Some(_) if right => Some("is-right"),
            Some(x) if x == n => Some("is-wrong"),
            Some(_) => Some("is-other"),
        };
        html! {
            <button class={classes!("btn", "choice", class)} disabled={picked.is_some()} aria-pressed={picked.map(|x| (x == n).to_string())}
                    onclick={Callback::from(move |_| answer.emit((n, right)))}>
                <kbd aria-hidden="true">{ (n + 1).to_string() }</kbd>{ &c.text }
            </button>
        }
    });
    let last = p.at + 1 == total;
    html! {
        <>
            <div class="drill-progress">
                <p class="predict-kicker">
                    { format!("Question {} of {total}", p.at + 1) }
                    if answered > 0 { <span class="drill-score">{ format!(" · {right_so_far} of {answered} right so far") }</span> }
                </p>
                <progress max={total.to_string()} value={answered.to_string()} aria-label="Questions answered"></progress>
            </div>
            <section ref={card_ref} tabindex="-1" class="drill-card" aria-labelledby="drill-q" data-question={k.clone()} data-answered={picked.is_some().to_string()}>
                <p class="drill-where"><strong>{ &sc.title }</strong>{ format!(" · {chapter}") }</p>
                // On a phone the setup starts folded, so that the question is in view sooner.
                <details class="drill-setup" open={!crate::view::narrow()}>
                    <summary>{ "The setup" }</summary>
                    <p>{ crate::view::prose(&sc.setup) }</p>
                </details>
                <DrillRun key={format!("{k}-{}", picked.is_some())} start={run_screen(a, picked.is_some())} label={AttrValue::from(sc.title.clone())} />
                <p class="drill-now"><span class="label">{ format!("Step {}: ", ans.asked + 1) }</span>{ crate::view::prose(&narrate(ans.asked)) }</p>
                <h2 id="drill-q">{ &q.ask }</h2>
                <div class="choices" role="group" aria-label="Your answer">{ for choices }</div>
                if let Some(x) = picked {
                    <div class={classes!("drill-result", if ans.right == Some(x) { "right" } else { "wrong" })} role="status">
                        <p class="result">
                            <strong>{ if ans.right == Some(x) { "✓ Right. " } else { "✗ Not quite. The answer: " } }</strong>
                            if ans.right != Some(x) { { ans.right.and_then(|r| q.choices.get(r)).map(|c| c.text.clone()).unwrap_or_default() } }
                        </p>
                        <p class="why">{ &q.why }</p>
                        <p class="proof"><span class="label">{ format!("The engine's proof, step {}: ", ans.proof + 1) }</span>{ crate::view::prose(&narrate(ans.proof)) }</p>
                        <button class="btn primary" ref={next_ref} onclick={p.next.reform(|_| ())}>{ if last { "See your results →" } else { "Next question →" } }</button>
                        <span class="hint">{ " or press Enter" }</span>
                    </div>
                } else {
                    <p class="hint">{ format!("Answer with the keys 1–{}. The run waits at this step; what comes next stays hidden until you answer.", q.choices.len()) }</p>
                }
            </section>
        </>
    }
}
