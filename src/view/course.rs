//! The library as a course, and the current scenario's story.

use std::rc::Rc;

use yew::prelude::*;

use sim::scenario::Scenario;

use crate::state::{Action, ByPtr};
use crate::view::progress::Progress;

#[derive(Properties, PartialEq)]
pub struct CourseProps {
    /// The id of the scenario shown.
    pub current: String,
    /// Predict mode is on: a lesson's verdict is shown only once the reader has finished it.
    pub predict: bool,
    /// The verdict of the lesson shown is hidden (predict mode, before its end).
    pub current_hidden: bool,
    /// The reader's progress, read from storage by the lab (once, and when it changes).
    pub progress: ByPtr<Progress>,
    pub on_reset: Callback<()>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Course(p: &CourseProps) -> Html {
    crate::view::probe::rendered("Course");
    // Every lesson's verdict needs every lesson's file.
    let course = crate::library::use_course(Some(()));
    let all = use_memo(course == crate::library::CourseFiles::Ready, |_| {
        sim::library::catalog().iter().map(|s| (Rc::new(s.clone()), crate::view::library_safe(&s.id, false))).collect::<Vec<_>>()
    });
    if course != crate::library::CourseFiles::Ready {
        return crate::view::pages::waiting(&course);
    }
    let current = &p.current;
    let (visited, scores) = (&p.progress.visited, &p.progress.scores);
    let done = all.iter().filter(|(s, _)| visited.contains(&s.id)).count();
    let on_reset = p.on_reset.reform(|_: MouseEvent| ());
    // (right, answered, asked) for a chapter's questions.
    let score = |chapter: &str| {
        let mut t = (0, 0, 0);
        for (s, _) in all.iter().filter(|(s, _)| s.chapter == chapter) {
            for i in 0..s.questions.len() {
                t.2 += 1;
                if let Some(ok) = scores.get(&format!("{}#{i}", s.id)) {
                    t.1 += 1;
                    t.0 += usize::from(*ok);
                }
            }
        }
        t
    };
    let total = sim::library::CHAPTERS.iter().map(|(c, _)| score(c)).fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    html! {
        <nav class="course" aria-label="Course">
            <h2 class="panel-title">{ "The course" }</h2>
            <p class="hint progress">
                { format!("You have opened {done} of {} scenarios", all.len()) }
                { format!(" and answered {} of {} predict questions ({} right on the first try).", total.1, total.2, total.0) }
                { " Each scenario: read the story, step through its key moments, then take your turn to break or fix it. Turn on Predict (P) to be quizzed on the way." }
            </p>
            { for sim::library::CHAPTERS.iter().enumerate().filter(|(_, (c, _))| all.iter().any(|(s, _)| s.chapter == *c)).map(|(n, (c, title))| html! {
                <section class="chapter">
                    <h3>
                        { format!("{}. {title}", n + 1) }
                        { match score(c) {
                            (_, _, 0) => html! {},
                            (r, a, q) => html! { <span class="chapter-score">{ format!("predict: {r} right, {a} of {q} answered") }</span> },
                        } }
                    </h3>
                    <ol>
                        { for all.iter().filter(|(s, _)| s.chapter == *c).map(|(s, safe)| {
                            let d = p.dispatch.clone();
                            let sc = s.clone();
                            let here = &s.id == current;
                            html! {
                                <li>
                                    <button class={classes!("lesson", here.then_some("here"))} aria-current={here.then_some("true")}
                                            onclick={Callback::from(move |_| d.emit(Action::Open(sc.clone(), false)))}>
                                        <span class="lesson-title">{ &s.title }</span>
                                        if !p.predict || finished(s, visited, scores) && !(here && p.current_hidden) {
                                            <span class={classes!("mini", if *safe { "safe" } else { "unsafe" })}>{ if *safe { "safe" } else { "unsafe" } }</span>
                                        } else {
                                            <span class="mini hidden" title="Predict mode hides the verdict until you reach the end of this lesson">{ "verdict hidden" }</span>
                                        }
                                        if s.fix.is_some() { <span class="mini fixable">{ "has a fix" }</span> }
                                        if visited.contains(&s.id) { <span class="mini seen">{ "✓ seen" }</span> }
                                        { lesson_score(s, scores) }
                                    </button>
                                </li>
                            }
                        }) }
                    </ol>
                </section>
            }) }
            <button class="btn small ghost reset" onclick={on_reset}>{ "Reset my progress" }</button>
        </nav>
    }
}

/// Whether the reader has finished a lesson as predict mode counts it: answered every one of its
/// questions (at the end of its run, where the verdict is shown), or opened it when it has none
/// (predict mode hides nothing of such a lesson). Until then predict mode hides its verdict
/// in the course, as it does on the lesson's own screen.
fn finished(s: &sim::Scenario, visited: &[String], scores: &sim::flat::Map<String, bool>) -> bool {
    if s.questions.is_empty() {
        return visited.contains(&s.id);
    }
    (0..s.questions.len()).all(|i| scores.get(&format!("{}#{i}", s.id)).is_some())
}

/// A lesson's predict result, once any of its questions is answered: "predict 2/3".
fn lesson_score(s: &sim::Scenario, scores: &sim::flat::Map<String, bool>) -> Html {
    let got: Vec<bool> = (0..s.questions.len()).filter_map(|i| scores.get(&format!("{}#{i}", s.id)).copied()).collect();
    if got.is_empty() {
        return html! {};
    }
    let right = got.iter().filter(|x| **x).count();
    html! { <span class="mini score" title={format!("{right} of {} predict questions right on the first try", s.questions.len())}>{ format!("predict {right}/{}", s.questions.len()) }</span> }
}

#[derive(Properties, PartialEq)]
pub struct StoryProps {
    /// The scenario as opened (its story, and its challenge).
    pub original: ByPtr<Scenario>,
    /// Predict mode, before the end: only the setup is told, and what to notice waits.
    pub predicting: bool,
    /// For the lesson's actions: the fix is on, predict mode is on, the scenario has questions.
    pub fixed: bool,
    pub predict: bool,
    pub has_quiz: bool,
    /// The run is not the scenario as written (changed, or with the fix on): the story and
    /// the notices tell the scenario as written.
    #[prop_or_default]
    pub changed: bool,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Story(p: &StoryProps) -> Html {
    crate::view::probe::rendered("Story");
    let sc = &p.original;
    let chapter = sim::library::chapter_title(&sc.chapter);
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    let all = sim::library::INDEX;
    let at = all.iter().position(|x| x.id == sc.id);
    let next = at.and_then(|i| all.get(i + 1)).map(|n| {
        let (d, id) = (p.dispatch.clone(), n.id);
        Callback::from(move |_| crate::library::open(id, false, d.clone(), Callback::noop()))
    });
    html! {
        <div class={classes!("story", open.then_some("open"))}>
            <div class="story-head">
                <span class="chapter-name">{ chapter }</span>
                if let Some(i) = at {
                    <span class="lesson-pos">{ format!("lesson {} of {}", i + 1, all.len()) }</span>
                }
                <h2>{ &sc.title }</h2>
                { crate::view::header::lesson_actions(&crate::view::header::LessonActionsProps { original: p.original.clone(), fixed: p.fixed, predict: p.predict, has_quiz: p.has_quiz, dispatch: p.dispatch.clone() }) }
            </div>
            // The story's first lines with its links beside them, so that the card stays short
            // and the run below it is on the first screen.
            <div class="story-body">
                if p.predicting && !sc.setup.is_empty() {
                    <p class="story-text setup">{ crate::view::glossary::glossed(&sc.setup) }<span class="story-rest">{ " The rest of the story is told at the end of the run." }</span></p>
                } else {
                    <p class="story-text">
                        // Inline, so that the card keeps its height after a change.
                        if p.changed {
                            <span class="as-written" title="This run is not the scenario as written (changed, or with the fix on); the story tells the scenario as written">{ "As written: " }</span>
                        }
                        { crate::view::glossary::glossed(&sc.story) }
                    </p>
                }
                <div class="story-links">
                    if !p.predicting {
                        <button class="btn small more" aria-expanded={open.to_string()} aria-controls="story-more" onclick={toggle}>
                            { if *open { "Less" } else { "The whole story" } }
                        </button>
                    }
                    if let Some(go) = next {
                        <button class="btn small ghost next" onclick={go} title="The next lesson of the course">{ "Next lesson →" }</button>
                    }
                </div>
            </div>
            if *open && !p.predicting {
                <div id="story-more">
                    // The notices tell the run as written, as the story does.
                    <h3 class="notice-head">{ if p.changed { "What to notice in the run as written" } else { "What to notice" } }</h3>
                    <ul class="notice">{ for sc.notice.iter().map(|n| html! { <li>{ n }</li> }) }</ul>
                    if !sc.simplifications.is_empty() {
                        <p class="simpl"><strong>{ "Simplified: " }</strong>{ crate::view::prose(&sc.simplifications.join(" ")) }</p>
                    }
                    <p class="sources"><strong>{ "Sources: " }</strong>
                        { for sc.sources.iter().enumerate().map(|(i, source)| html! { <>{ if i > 0 { "; " } else { "" } }{ crate::view::linked(source) }</> }) }
                    </p>
                </div>
            }
        </div>
    }
}
