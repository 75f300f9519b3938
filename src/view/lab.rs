//! The lab: [`Lab`] owns the screen's reducer and hands each component only what it draws.
//!
//! A playback tick changes the cursor (and the phase between steps); Lab re-renders, and so do
//! the components whose props carry the cursor: the timeline's cursor, labels and moving dots,
//! the controls, the narration, the inspector (and, in predict mode, the question card). The
//! timeline's lanes and marks, the header, the story, the verdict, the editor and the course
//! keep their props (the same `ByPtr`s and values) and are not rendered again. The browser tests
//! count renders to check it (`tests/browser.rs`, through `view::probe`).

use std::rc::Rc;

use yew::prelude::*;

use crate::state::{Action, Latest, Panel, Screen};
use crate::view::compare::{caption, CompareView, RunBar};
use crate::view::controls::{ControlsProps, Narration};
use crate::view::course::{Course, Story};
use crate::view::editor::{CursorAt, Editor};
use crate::view::embed_options::{ControlsShown, Embed};
use crate::view::header::{help_dialog, Header};
use crate::view::inspector::{inspector, InspectorProps};
use crate::view::lesson::{end_of_run, start_hint};
use crate::view::pages::Page;
use crate::view::predict::{Predict, YourTurn};
use crate::view::search::SearchPanel;
use crate::view::timeline::Timeline;
use crate::view::verdict::VerdictPanel;

mod harm;
mod hooks;

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
    /// A request from a page to open a library scenario: (a counter, id, with its fix, at this
    /// step index).
    #[prop_or_default]
    pub open: Option<(u32, String, bool, Option<usize>)>,
}

/// The whole lab for one starting screen: owns the reducer, the keyboard listener, the playback
/// timer and the reader's progress.
#[component]
pub fn Lab(p: &LabProps) -> Html {
    crate::view::probe::rendered("Lab");
    let screen = {
        let start = p.start.clone();
        use_reducer(move || (*start).clone())
    };
    // One callback for the lab's life, so that props holding it stay equal.
    let dispatch = {
        let d = screen.dispatcher();
        use_callback((), move |a: Action, _| d.dispatch(a))
    };
    crate::view::probe::lab_mounted(&dispatch);
    let s: Rc<Screen> = Rc::new((*screen).clone());
    let latest = {
        let s = s.clone();
        (*use_memo((), move |_| Latest::new(s))).clone()
    };
    latest.set(s.clone());
    let (met, its_way) = hooks::use_challenge(&s);
    let root_ref = use_node_ref();
    harm::use_harm_in_view(s.cursor, s.facts.violations().contains(&s.cursor), p.embed.is_none() && p.active);
    let progress = hooks::use_lab_effects(&screen, p, root_ref.clone());
    let verdict = if s.run.verdict.is_safe() { "safe" } else { "unsafe" };
    let embed_link = hooks::use_embed_link(&s, p.embed.is_some());
    let time_us = s.time_us();
    let timeline = html! {
        <Timeline run={s.run.clone()} facts={s.facts.clone()} scenario={s.scenario.clone()} cursor={s.cursor} time_us={time_us}
                  hide={s.hides_future()} error={s.error.as_ref().filter(|e| e.field == "timeline").map(|e| e.message.clone())}
                  dispatch={dispatch.clone()} readonly={p.embed.as_ref().is_some_and(|e| !e.editable)} diff={s.compare.as_ref().and_then(|o| o.parting).map(|(t, mine, _)| (t, mine))}
                  end_us={s.compare.as_ref().map(|o| o.run.end_us)} view={s.view} legend_apart={p.embed.is_none()} />
    };
    let compared = s
        .compare
        .clone()
        .map(|other| html! { <CompareView {other} time_us={time_us} end_us={s.run.end_us} view={s.view} dispatch={dispatch.clone()} /> });
    let controls = |only_play: bool| {
        html! {
            { crate::view::controls::controls(&ControlsProps { run: s.run.clone(), scenario: s.scenario.clone(), facts: s.facts.clone(), quiz: s.quiz.clone(),
                cursor: s.cursor, time_us, playing: s.playing, speed: s.speed, pace: s.pace, fast: s.fast, hide: s.hides_future(), asking: s.asking(), only_play,
                dispatch: dispatch.clone() }) }
        }
    };
    let narration = html! { <Narration run={s.run.clone()} scenario={s.scenario.clone()} cursor={s.cursor} dispatch={dispatch.clone()} /> };
    if let Some(e) = &p.embed {
        let full = format!("{}{}", app_base(e), embed_link.at_step(s.cursor + 1).with(""));
        return html! {
            <div id="app" ref={root_ref} tabindex="-1" class="app embed" data-verdict={verdict} data-step={(s.cursor + 1).to_string()} data-steps={s.steps().to_string()}
                 data-fixed={s.fixed().to_string()} data-playing={s.playing.to_string()}>
                <main class="embed-main">
                <div class="embed-bar">
                    <h1 class="embed-title">{ &s.original.title }</h1>
                    <span class={classes!("verdict-badge", verdict)}>
                        { if s.run.verdict.is_safe() { "✓ safe" } else { "✗ unsafe" } }
                    </span>
                    <a class="embed-open" href={full} target="_blank" rel="noopener">{ "Open in Lease Lab ↗" }</a>
                </div>
                    { embed_problem(&s, e) }
                    { embed_notice(&s, e) }
                    if s.compare.is_some() { { caption(if s.fixed() { "With the fix" } else { "As written" }, s.run.verdict.is_safe()) } }
                    { timeline }
                    { for compared.clone() }
                    if e.controls != ControlsShown::None { { controls(e.controls == ControlsShown::Play) } }
                    { narration }
                </main>
            </div>
        };
    }
    let open_error = s.error.as_ref().filter(|e| e.field == "open" || e.field == "timeline" || e.field == "fix" || e.field == "compare").map(|e| {
        let d = dispatch.clone();
        html! {
            <div class="banner" role="alert">
                <span>{ crate::view::prose(&e.message) }</span>
                <button class="btn small" aria-label="Dismiss" onclick={Callback::from(move |_| d.emit(Action::CloseOverlays))}>{ "×" }</button>
            </div>
        }
    });
    let at_end = s.cursor + 1 >= s.steps();
    html! {
        <div id="app" class="app" data-verdict={verdict} data-step={(s.cursor + 1).to_string()} data-steps={s.steps().to_string()}
             data-fixed={s.fixed().to_string()} data-playing={s.playing.to_string()}
             data-answered={s.picked.iter().filter(|x| x.is_some()).count().to_string()}>
            <Header original={s.original.clone()} safe={s.run.verdict.is_safe()} hidden_verdict={s.hides_future()}
                    screen={latest.clone()} dispatch={dispatch.clone()} nav={p.nav.clone()} />
            { for open_error }
            <main class="main">
                // Beside the run on a wide screen (over the side panel), above it on a phone.
                <crate::view::lesson::Intro />
                <section class="stage" aria-label="The run">
                    <Story original={s.original.clone()} predicting={s.predict && !at_end} fixed={s.fixed()} predict={s.predict}
                           has_quiz={!s.quiz.is_empty()} changed={!s.as_written} dispatch={dispatch.clone()} />
                    <RunBar can_undo={!s.undo.is_empty()} comparable={s.comparable()} comparing={s.compare.as_ref().map(|o| o.against)} notice={s.notice.clone()}
                            dispatch={dispatch.clone()} />
                    if s.compare.is_some() { { caption("This run", s.run.verdict.is_safe()) } }
                    { timeline }
                    { for compared }
                    { controls(false) }
                    <div class="predict-area" aria-live="polite">
                        <Predict quiz={s.quiz.clone()} picked={s.picked.clone()} here={s.asking().then_some(s.cursor)} pending={s.pending()}
                                 revealed={s.revealed()} at_end={at_end} dispatch={dispatch.clone()} />
                    </div>
                    { narration }
                    <VerdictPanel run={s.run.clone()} hidden={s.hides_future()} dispatch={dispatch.clone()} />
                    { lesson(&s, at_end, (met, its_way), &dispatch) }
                    if !s.hides_future() { <SearchPanel scenario={s.scenario.clone()} dispatch={dispatch.clone()} /> }
                </section>
                <aside class="side" aria-label="Details">
                    { side_tabs(s.panel, &dispatch) }
                    <div id="side-panel" role="tabpanel" class="panel">
                        // The editor's "add a fault at <time>" follows the cursor through this
                        // context, so that the rest of the editor is not rendered on every tick.
                        <ContextProvider<CursorAt> context={CursorAt(crate::state::ms_at(time_us))}>
                            { side_panel(&s, &latest, progress, &dispatch) }
                        </ContextProvider<CursorAt>>
                    </div>
                </aside>
            </main>
            if s.help { { help_dialog(&dispatch) } }
        </div>
    }
}

/// The lesson's words under the verdict: the challenge ("Your turn", below the run so that its
/// appearing after a change moves nothing above), the hint at the start, the end of the run.
fn lesson(s: &Screen, at_end: bool, (met, its_way): (bool, bool), dispatch: &Callback<Action>) -> Html {
    html! {
        <>
            <YourTurn original={s.original.clone()} shown={!(s.as_written && !s.fixed() && !at_end)} {met} {its_way} given={s.goal_given()}
                      credit={s.credit.clone()} dispatch={dispatch.clone()} />
            { start_hint(s.cursor == 0 && !s.playing, !s.quiz.is_empty() && !s.predict) }
            { end_of_run(at_end, &s.original, s.run.verdict.is_safe(), s.original.challenge.is_some() && !s.challenge_met(), dispatch) }
        </>
    }
}

/// The side panel's tabs.
fn side_tabs(panel: Panel, dispatch: &Callback<Action>) -> Html {
    let tab = |p: Panel, label: &str| {
        let d = dispatch.clone();
        let selected = panel == p;
        html! {
            <button role="tab" id={format!("tab-{label}")} aria-selected={selected.to_string()} aria-controls="side-panel"
                class={classes!("tab", selected.then_some("on"))}
                onclick={Callback::from(move |_| d.emit(Action::SetPanel(p)))}>{ label }</button>
        }
    };
    html! {
        <div class="tabs" role="tablist" aria-label="Panels">
            { tab(Panel::Inspect, "Inspect") }
            { tab(Panel::Change, "Change") }
            { tab(Panel::Course, "Course") }
        </div>
    }
}

/// The open side panel, with what it draws.
fn side_panel(s: &Screen, latest: &Latest<Screen>, progress: hooks::ProgressState, dispatch: &Callback<Action>) -> Html {
    match s.panel {
        Panel::Inspect => html! {
            { inspector(&InspectorProps { run: s.run.clone(), facts: s.facts.clone(), scenario: s.scenario.clone(),
                cursor: s.cursor, time_us: s.time_us(), question: s.pending().is_some() }) }
        },
        Panel::Change => html! {
            <Editor scenario={s.scenario.clone()} original={s.original.clone()} fixed={s.fixed()} fixed_as_written={s.fixed_as_written()} error={s.error.clone()}
                    screen={latest.clone()} dispatch={dispatch.clone()} />
        },
        Panel::Course => {
            let (value, reset) = progress;
            html! { <Course current={s.original.id.clone()} predict={s.predict} current_hidden={s.hides_future()} progress={value} on_reset={reset} dispatch={dispatch.clone()} /> }
        }
    }
}

/// Where Lease Lab lives, for an embed's "Open in Lease Lab": the mounting page's script's
/// directory, or this frame's own address.
fn app_base(e: &Embed) -> String {
    e.app_base.clone().unwrap_or_else(|| {
        let loc = crate::view::window().map(|w| w.location());
        loc.map(|l| format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())).unwrap_or_default()
    })
}

/// What the embed could not show as its address asked: the run it names (the link's problem,
/// as the lab's banner says it), and options it does not have or values they do not take.
fn embed_problem(s: &Screen, e: &Embed) -> Html {
    let open = s.error.as_ref().filter(|e| e.field == "open").map(|e| e.message.clone());
    let options = (!e.problems.is_empty()).then(|| format!("This embed's address has mistakes, left out: {}.", e.problems.join("; ")));
    let said: Vec<String> = open.into_iter().chain(options).collect();
    if said.is_empty() {
        return Html::default();
    }
    html! { <p class="embed-problem" role="alert">{ format!("Lease Lab: {}", said.join(" ")) }</p> }
}

/// An embed the reader may change says what each change did.
fn embed_notice(s: &Screen, e: &Embed) -> Html {
    match s.notice.as_ref().filter(|_| e.editable) {
        Some(n) => {
            html! { <p class={classes!("notice", "embed-notice", if n.safe { "safe" } else { "unsafe" })} role="status">{ n.text() }</p> }
        }
        None => html! {},
    }
}
