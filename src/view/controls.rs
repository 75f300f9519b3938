//! Step, play and scrub; and the narration of the current step, announced to screen readers.

use sim::facts::Facts;
use sim::time::{fmt, Micros};
use sim::{Run, Scenario};
use yew::prelude::*;

use crate::state::{Action, ByPtr, Pace, Quiz, SPEEDS};

/// A small inline icon (no icon font or emoji needed).
pub fn icon(name: &str) -> Html {
    let d = match name {
        "first" => "M4 3h2v10H4z M14 3v10L7 8z",
        "prev-moment" => "M8 3v10L2 8z M15 3v10L9 8z",
        "back" => "M12 3v10L5 8z",
        "play" => "M5 3v10l8-5z",
        "pause" => "M4 3h3v10H4z M9 3h3v10H9z",
        "forward" => "M4 3v10l7-5z",
        "next-moment" => "M1 3v10l6-5z M8 3v10l6-5z",
        "last" => "M10 3h2v10h-2z M2 3v10l7-5z",
        // A warning triangle with its bar and dot (the timeline's violation marks are triangles).
        "violation" => "M8 1L15.5 14.5H.5z M7.1 5.5v4.5h1.8V5.5z M7.1 11.2v1.8h1.8v-1.8z",
        _ => "",
    };
    html! { <svg class="ico" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d={d} /></svg> }
}

/// What the playback controls draw (a plain function's arguments: they follow the cursor, and
/// are drawn again at every step with the lab).
pub struct ControlsProps {
    pub run: ByPtr<Run>,
    pub scenario: ByPtr<Scenario>,
    pub facts: ByPtr<Facts>,
    pub quiz: ByPtr<Vec<Quiz>>,
    pub cursor: usize,
    /// The true time shown (between steps while playing).
    pub time_us: Micros,
    pub playing: bool,
    pub speed: usize,
    pub pace: Pace,
    /// Playing in time: how much faster a quiet stretch is passing (1 otherwise).
    pub fast: f64,
    /// Predict mode hides the violations and the key moments still ahead.
    pub hide: bool,
    /// Predict mode is asking questions (their steps are marked on the scrubber).
    pub asking: bool,
    pub dispatch: Callback<Action>,
    /// Only play/pause and the scrubber (an embedded run's `controls=play`).
    pub only_play: bool,
}

/// The playback buttons, the speed and pace, the scrubber with its marks, and the step counter.
pub fn controls(p: &ControlsProps) -> Html {
    crate::view::probe::rendered("Controls");
    let steps = p.run.events.len();
    let act = |a: Action| {
        let d = p.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(a.clone()))
    };
    let on_scrub = {
        let d = p.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            if let Ok(i) = v.parse::<usize>() {
                d.emit(Action::Seek(i.saturating_sub(1)));
            }
        })
    };
    let on_speed = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Ok(i) = v.parse::<usize>() {
                d.emit(Action::SetSpeed(i));
            }
        })
    };
    let on_pace = {
        let d = p.dispatch.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            d.emit(Action::SetPace(if v == "time" { Pace::Time } else { Pace::Steps }));
        })
    };
    let cur = &p.run.events[p.cursor.min(steps.saturating_sub(1))];
    // Read aloud by a screen reader with the scrubber's value: without the backticks.
    let said = crate::view::unquoted(&sim::narrate::text(&p.scenario, &p.run, cur));
    let pct = |i: usize| 100.0 * i as f64 / (steps.saturating_sub(1)).max(1) as f64;
    // Predict mode hides the violations (and the key moments still ahead) until the end.
    let hide = p.hide;
    let has_violation = !hide && !p.facts.violations().is_empty();
    if p.only_play {
        return html! {
            <div class="controls" role="toolbar" aria-label="Playback">
                <div class="buttons">
                    <button class="btn icon play" aria-label={if p.playing { "Pause (Space)" } else { "Play (Space)" }} onclick={act(Action::TogglePlay)}>
                        { if p.playing { icon("pause") } else { icon("play") } }
                    </button>
                    <span class="where" aria-hidden="true">{ format!("step {} / {} · {}", p.cursor + 1, steps, fmt(p.time_us)) }</span>
                </div>
                <div class="scrub">
                    <input type="range" min="1" max={steps.to_string()} value={(p.cursor + 1).to_string()} oninput={on_scrub}
                           aria-label="Step" aria-valuetext={format!("step {} of {} at {}: {}", p.cursor + 1, steps, fmt(cur.at_us), said)} />
                </div>
            </div>
        };
    }
    html! {
        <div class="controls" role="toolbar" aria-label="Playback">
            <div class="buttons">
                <button class="btn icon far" aria-label="Go to the start (Home)" title="Start (Home)" onclick={act(Action::First)}>{ icon("first") }</button>
                <button class="btn icon" aria-label="Previous key moment (Shift+Left)" title="Previous key moment (Shift+←)" onclick={act(Action::PrevMoment)}>{ icon("prev-moment") }</button>
                <button class="btn icon" aria-label="Step back (Left)" title="Step back (←)" onclick={act(Action::Step(-1))}>{ icon("back") }</button>
                <button class="btn icon play" aria-label={if p.playing { "Pause (Space)" } else { "Play (Space)" }} title="Play / pause (Space)" onclick={act(Action::TogglePlay)}>
                    { if p.playing { icon("pause") } else { icon("play") } }
                </button>
                <button class="btn icon" aria-label="Step forward (Right)" title="Step forward (→)" onclick={act(Action::Step(1))}>{ icon("forward") }</button>
                <button class="btn icon" aria-label="Next key moment (Shift+Right)" title="Next key moment (Shift+→)" onclick={act(Action::NextMoment)}>{ icon("next-moment") }</button>
                <button class="btn icon far" aria-label="Go to the end (End)" title="End (End)" onclick={act(Action::Last)}>{ icon("last") }</button>
                <button class="btn violation" aria-label="Next violation (V)" title="Next violation (V)" disabled={!has_violation} onclick={act(Action::NextViolation)}>{ icon("violation") }<span class="label">{ "Next violation" }</span></button>
                <label class="speed">
                    <span>{ "Play" }</span>
                    <select aria-label="Play step by step or in time (T)" onchange={on_pace}>
                        <option value="steps" selected={p.pace == Pace::Steps}>{ "by step" }</option>
                        <option value="time" selected={p.pace == Pace::Time}>{ "in time" }</option>
                    </select>
                    <select aria-label="Playback speed (+ and −)" onchange={on_speed}
                            title={if p.pace == Pace::Time { "1× is real time" } else { "1× is a step in 0.7 s" }}>
                        { for SPEEDS.iter().enumerate().map(|(i, v)| html! { <option value={i.to_string()} selected={i == p.speed}>{ format!("{v}×") }</option> }) }
                    </select>
                </label>
                <span class="where" aria-hidden="true">
                    { format!("step {} / {} · {}", p.cursor + 1, steps, fmt(p.time_us)) }
                    // A quiet stretch passing faster than the speed chosen says so.
                    if p.fast >= 1.5 {
                        <span class="fast" title="Nothing happens for a while: this stretch passes faster, and slows again before the next event">
                            { format!(" · quiet, ×{:.0}", p.fast) }
                        </span>
                    }
                </span>
            </div>
            <div class="scrub">
                <input type="range" min="1" max={steps.to_string()} value={(p.cursor + 1).to_string()} oninput={on_scrub}
                       aria-label="Step" aria-valuetext={format!("step {} of {} at {}: {}", p.cursor + 1, steps, fmt(cur.at_us), said)} />
                <div class="scrub-marks" aria-hidden="true">
                    { for p.facts.moments().iter().copied().filter(|&i| !hide || i <= p.cursor).map(|i| html! { <span class="sm" style={format!("left:{:.3}%", pct(i))}></span> }) }
                    { for p.facts.violations().iter().copied().filter(|_| !hide).map(|i| html! { <span class="sm bad" style={format!("left:{:.3}%", pct(i))}></span> }) }
                    if p.asking {
                        { for p.quiz.iter().map(|q| html! { <span class="sm q" style={format!("left:{:.3}%", pct(q.answer.asked))}></span> }) }
                    }
                </div>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub run: ByPtr<Run>,
    pub scenario: ByPtr<Scenario>,
    pub cursor: usize,
    /// Swiping the narration steps: to the left, on; to the right, back.
    pub dispatch: Callback<Action>,
}

/// The shortest swipe that steps, in CSS pixels, and how much more sideways than up or down it
/// must be.
const SWIPE_PX: f64 = 40.0;

/// Swipe handlers: a finger (or pen) moved sideways across the narration steps the run.
fn swipe(
    dispatch: &Callback<Action>,
    start: &std::rc::Rc<std::cell::Cell<Option<(f64, f64)>>>,
) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let down = {
        let start = start.clone();
        Callback::from(move |e: PointerEvent| {
            start.set((e.pointer_type() != "mouse").then(|| (f64::from(e.client_x()), f64::from(e.client_y()))));
        })
    };
    let up = {
        let (start, d) = (start.clone(), dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            let Some((x, y)) = start.take() else { return };
            let (dx, dy) = (f64::from(e.client_x()) - x, f64::from(e.client_y()) - y);
            if dx.abs() >= SWIPE_PX && dx.abs() > 2.0 * dy.abs() {
                d.emit(Action::Step(if dx < 0.0 { 1 } else { -1 }));
            }
        })
    };
    (down, up)
}

#[component]
pub fn Narration(p: &NarrationProps) -> Html {
    crate::view::probe::rendered("Narration");
    let start = use_memo((), |_| std::cell::Cell::new(None));
    let (on_down, on_up) = swipe(&p.dispatch, &start);
    let Some(e) = p.run.events.get(p.cursor) else { return html! {} };
    let actor = &p.run.actors[e.actor].name;
    html! {
        <div class="narration" aria-live="polite" aria-atomic="true" onpointerdown={on_down} onpointerup={on_up}>
            <div class="now">
                <span class="when">{ fmt(e.at_us) }</span>
                <span class="who">{ actor }</span>
                if e.local_us != e.at_us {
                    <span class="own">{ format!("{actor}'s clock: {}", fmt(e.local_us)) }</span>
                }
            </div>
            <p class="text">{ crate::view::prose(&sim::narrate::text(&p.scenario, &p.run, e)) }</p>
            if let Some(m) = p.run.moment(e.id) {
                <p class="moment">{ crate::view::prose(m) }</p>
            }
            if let Some(d) = disagreement(&p.run, e.at_us) {
                <p class="disagree">{ d }</p>
            }
        </div>
    }
}

/// Belief against truth at true time `t`, in one line (issue 50): a client that believes it
/// holds the lock after the lock service ended its lease, and who holds it at the service now.
pub fn disagreement(run: &sim::Run, t: sim::time::Micros) -> Option<String> {
    let b = run
        .intervals
        .beliefs
        .iter()
        .find(|b| b.from_us <= t && t < b.to_us && run.grants.get(b.grant).is_some_and(|g| t >= g.term_at(t)))?;
    let ended = run.grants[b.grant].term_at(t);
    let name = run.name(b.client);
    let token = b.token.map(|k| format!(" with token {k}")).unwrap_or_default();
    let holder = run.grants.iter().filter(|g| g.client != b.client && g.at_us <= t && t < g.term_at(t)).max_by_key(|g| g.at_us);
    let now = match holder {
        Some(g) => format!("{} has held it since {}", run.name(g.client), fmt(g.at_us)),
        None => "nobody holds it there now".to_string(),
    };
    Some(format!("{name} believes it holds the lock{token}; the lock service ended its lease at {}, and {now}.", fmt(ended)))
}

#[cfg(test)]
mod tests {
    /// gc-pause-unfenced: while A is paused past its lease, it still believes it holds the lock
    /// with token 33, and B holds it at the service.
    #[test]
    fn a_belief_the_lock_service_no_longer_gives_is_said_in_one_line() {
        let s = sim::library::get("gc-pause-unfenced").unwrap();
        let run = sim::run(&s).unwrap();
        let a = run.intervals.beliefs.iter().find(|b| b.token == Some(33)).expect("A's belief");
        assert_eq!(super::disagreement(&run, a.from_us), None, "A's lease runs at first");
        let b = run.intervals.beliefs.iter().find(|b| b.token == Some(34)).expect("B's belief");
        let line = super::disagreement(&run, b.from_us).expect("A still believes when B holds the lock");
        assert!(line.starts_with("A believes it holds the lock with token 33; the lock service ended its lease at "), "{line}");
        assert!(line.contains(", and B has held it since "), "{line}");
        assert_eq!(super::disagreement(&run, run.end_us), None, "nobody believes wrongly at the end");
    }
}
