//! The screen's state: [`Screen`], changed only by [`Action`]s through [`Screen::reduce`].
//! No DOM here; it is tested natively. A no-op action returns the same `Rc`, so Yew skips
//! the re-render.

use std::rc::Rc;

use serde_json::Value;
use sim::scenario::{Fault, Scenario};
use sim::time::{Micros, MS};
use sim::Run;
use yew::Reducible;

use crate::edit::{self, Field};

/// Playback speeds.
pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0];
/// How long one step takes at 1×, in milliseconds.
pub const STEP_MS: f64 = 700.0;
/// The most events the timeline draws; a run with more is refused (the page stays responsive).
pub const MAX_DRAWN_EVENTS: usize = 10_000;

/// Runs a scenario for the screen: the engine's limits, and the timeline's.
fn simulate(sc: &Scenario) -> Result<Run, String> {
    // The engine stops at the timeline's limit instead of simulating a longer run first.
    sim::run_within(sc, MAX_DRAWN_EVENTS).map_err(|e| match e {
        sim::RunError::TooManyEvents { at_us, .. } => format!(
            "this run needs more than the {MAX_DRAWN_EVENTS} events the timeline can show (reached at {} of simulated time); shorten duration_ms, or lengthen retry and work times",
            sim::time::fmt(at_us)
        ),
        e => e.to_string(),
    })
}

/// Which side panel is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Inspect,
    Change,
    Course,
}

/// Predict mode: one of the scenario's questions, with the engine's answer for the run as
/// written.
#[derive(Clone, Debug, PartialEq)]
pub struct Quiz {
    /// Its place among the scenario's questions (the key of its score).
    pub index: usize,
    pub question: sim::predict::Question,
    pub answer: sim::predict::Answer,
}

/// The questions of a scenario that the engine can answer on this run (a question whose event
/// is missing, or whose computed value matches none of its choices, is left out).
fn quiz(sc: &Scenario, run: &Run) -> Vec<Quiz> {
    sc.questions
        .iter()
        .enumerate()
        .filter_map(|(index, q)| {
            let answer = sim::predict::answer(run, q).ok().filter(|a| a.right.is_some())?;
            Some(Quiz { index, question: q.clone(), answer })
        })
        .collect()
}

/// A refused edit: which field, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

/// The state of the screen.
#[derive(Clone, Debug)]
pub struct Screen {
    /// The library scenario this started from (its fix is offered).
    pub original: Rc<Scenario>,
    /// The scenario being shown, with the user's edits.
    pub scenario: Rc<Scenario>,
    /// The last good run of `scenario`.
    pub run: Rc<Run>,
    /// The fix's settings as they were before it was applied; `Some` while the fix is on.
    pub fix_undo: Option<Vec<(String, Option<Value>)>>,
    /// The current step: an index into the run's events.
    pub cursor: usize,
    /// While playing: how far towards the next step (0..1).
    pub phase: f64,
    pub playing: bool,
    pub speed: usize,
    pub error: Option<FieldError>,
    pub help: bool,
    pub panel: Panel,
    /// Predict mode is on: the run stops at each question until it is answered.
    pub predict: bool,
    /// The questions, answered by the engine on the scenario as written.
    pub quiz: Rc<Vec<Quiz>>,
    /// The choice picked for each question, once answered.
    pub picked: Vec<Option<usize>>,
    /// The scenario is the one that was opened, unchanged (questions apply only to it).
    pub as_written: bool,
}

/// Equality by identity for the heavy parts (scenario, run), by value for the rest: cheap
/// enough to compare props on every render.
impl PartialEq for Screen {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.original, &o.original)
            && Rc::ptr_eq(&self.scenario, &o.scenario)
            && Rc::ptr_eq(&self.run, &o.run)
            && self.fix_undo.is_some() == o.fix_undo.is_some()
            && self.cursor == o.cursor
            && self.phase == o.phase
            && self.playing == o.playing
            && self.speed == o.speed
            && self.error == o.error
            && self.help == o.help
            && self.panel == o.panel
            && self.predict == o.predict
            && Rc::ptr_eq(&self.quiz, &o.quiz)
            && self.picked == o.picked
            && self.as_written == o.as_written
    }
}

/// Everything that can happen to the screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Open a scenario (from the library or elsewhere), optionally with its fix on.
    Open(Rc<Scenario>, bool),
    /// Open a scenario from JSON text (a file or a paste); a bad one is refused with a message.
    Import(String),
    /// A link could not be opened: say so over the current run.
    Refuse(String),
    Step(i64),
    First,
    Last,
    Seek(usize),
    /// Move the cursor to the last event at or before a true time.
    SeekTime(Micros),
    NextMoment,
    PrevMoment,
    NextViolation,
    TogglePlay,
    /// Playback: this many milliseconds of real time have passed.
    Tick(f64),
    SetSpeed(usize),
    Faster,
    Slower,
    ToggleFix,
    Edit(Field, String),
    AddFault(Fault),
    RemoveFault(usize),
    /// Move or resize a pause fault (from dragging it on the timeline).
    MovePause {
        fault: usize,
        at_ms: u64,
        duration_ms: u64,
    },
    ToggleHelp,
    CloseOverlays,
    SetPanel(Panel),
    /// Turn predict mode on (from the first step, with no answers yet) or off.
    TogglePredict,
    /// Answer question `.0` with choice `.1`.
    Answer(usize, usize),
    /// Apply the challenge's solution to the scenario as written.
    ShowSolution,
    /// Answer the question waiting at the cursor with this choice (keys 1–6).
    Choose(usize),
}

impl Screen {
    /// The screen for a scenario. `None` when the scenario cannot run.
    pub fn new(scenario: Scenario, fixed: bool) -> Result<Screen, String> {
        let original = Rc::new(scenario);
        let run = Rc::new(simulate(&original)?);
        let quiz = Rc::new(quiz(&original, &run));
        let mut s = Screen {
            original: original.clone(),
            scenario: original,
            run,
            fix_undo: None,
            cursor: 0,
            phase: 0.0,
            playing: false,
            speed: 2,
            error: None,
            help: false,
            panel: Panel::Inspect,
            predict: false,
            picked: vec![None; quiz.len()],
            quiz,
            as_written: true,
        };
        if fixed {
            s = s.toggle_fix();
        }
        Ok(s)
    }

    /// Number of steps.
    pub fn steps(&self) -> usize {
        self.run.events.len()
    }

    fn last(&self) -> usize {
        self.steps().saturating_sub(1)
    }

    /// The true time shown: the current event's, or between it and the next while playing.
    pub fn time_us(&self) -> Micros {
        let ev = &self.run.events;
        let Some(cur) = ev.get(self.cursor) else { return 0 };
        match ev.get(self.cursor + 1) {
            Some(next) if self.phase > 0.0 => cur.at_us + ((next.at_us - cur.at_us) as f64 * self.phase) as Micros,
            _ => cur.at_us,
        }
    }

    /// Step indices that carry a key moment.
    pub fn moments(&self) -> Vec<usize> {
        self.run.events.iter().filter(|e| e.moment.is_some()).map(|e| e.id).collect()
    }

    /// Step indices where a violation shows.
    pub fn violations(&self) -> Vec<usize> {
        self.run.verdict.violations.iter().filter_map(|v| v.event).collect()
    }

    pub fn fixed(&self) -> bool {
        self.fix_undo.is_some()
    }

    fn at(&self, cursor: usize) -> Screen {
        Screen { cursor: self.gate(cursor.min(self.last())), phase: 0.0, ..self.clone() }
    }

    /// Whether the run stops for questions: predict mode, on the scenario as written.
    pub fn asking(&self) -> bool {
        self.predict && self.as_written && !self.quiz.is_empty()
    }

    /// Where a move forward to `target` stops: at the first unanswered question on the way.
    fn gate(&self, target: usize) -> usize {
        if !self.asking() || target <= self.cursor {
            return target;
        }
        self.quiz
            .iter()
            .zip(&self.picked)
            .filter(|(q, p)| p.is_none() && q.answer.asked >= self.cursor && q.answer.asked < target)
            .map(|(q, _)| q.answer.asked)
            .min()
            .unwrap_or(target)
    }

    /// The question waiting for an answer at the cursor, if any.
    pub fn pending(&self) -> Option<usize> {
        if !self.asking() {
            return None;
        }
        (0..self.quiz.len()).find(|&i| self.picked[i].is_none() && self.quiz[i].answer.asked == self.cursor)
    }

    /// Answered questions to show at the cursor: asked here, or proved here.
    pub fn revealed(&self) -> Vec<usize> {
        if !self.asking() {
            return Vec::new();
        }
        (0..self.quiz.len())
            .filter(|&i| self.picked[i].is_some() && (self.quiz[i].answer.asked == self.cursor || self.quiz[i].answer.proof == self.cursor))
            .collect()
    }

    /// Predict mode hides what has not happened yet (the verdict, markers, the future).
    pub fn hides_future(&self) -> bool {
        self.asking() && self.cursor < self.last()
    }

    /// The challenge's goal is reached by the reader's own change (not the one-click fix).
    pub fn challenge_met(&self) -> bool {
        self.original.challenge.as_ref().is_some_and(|c| !self.as_written && !self.fixed() && self.run.verdict.verdict == c.goal)
    }

    fn toggle_fix(&self) -> Screen {
        let Some(fix) = &self.original.fix else { return self.clone() };
        let next = match &self.fix_undo {
            None => {
                let saved = edit::current_settings(&self.scenario, &fix.set);
                self.scenario.with_settings(&fix.set).map(|s| (s, Some(saved))).map_err(|e| e.to_string())
            }
            Some(saved) => edit::restore(&self.scenario, saved).map(|s| (s, None)),
        };
        match next {
            Ok((sc, undo)) => {
                let mut s = self.rerun(sc, None);
                if s.error.is_none() {
                    s.fix_undo = undo;
                }
                s
            }
            Err(message) => Screen {
                error: Some(FieldError { field: "fix".into(), message: format!("The fix does not apply: {message}") }),
                ..self.clone()
            },
        }
    }

    /// Re-simulates a changed scenario, keeping the cursor at the same true time. If it cannot
    /// run, the last good run stays and the error is shown next to `field`.
    fn rerun(&self, sc: Scenario, field: Option<&Field>) -> Screen {
        match simulate(&sc) {
            Ok(run) => {
                let t = self.time_us();
                let cursor = run.events.partition_point(|e| e.at_us <= t).saturating_sub(1);
                let as_written = sc == *self.original;
                Screen { scenario: Rc::new(sc), run: Rc::new(run), cursor, phase: 0.0, error: None, as_written, ..self.clone() }
            }
            Err(e) => self.refuse(field, e),
        }
    }

    fn refuse(&self, field: Option<&Field>, message: String) -> Screen {
        let field = field.map(|f| f.id()).unwrap_or_else(|| "timeline".into());
        Screen { error: Some(FieldError { field, message }), ..self.clone() }
    }

    fn refuse_field(&self, field: &str, message: String) -> Screen {
        Screen { error: Some(FieldError { field: field.into(), message }), ..self.clone() }
    }

    fn with_faults(&self, faults: Vec<Fault>) -> Screen {
        let mut sc = (*self.scenario).clone();
        sc.faults = faults;
        match sc.validate() {
            Ok(()) => self.rerun(sc, None),
            Err(e) => self.refuse(None, e.to_string()),
        }
    }
}

impl Reducible for Screen {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let last = self.last();
        let next = match action {
            Action::Open(sc, fixed) => match Screen::new((*sc).clone(), fixed) {
                Ok(s) => Screen { panel: self.panel, speed: self.speed, predict: self.predict, ..s },
                Err(message) => Screen {
                    error: Some(FieldError {
                        field: "open".into(),
                        message: format!("This scenario could not be run: {message}. The run shown is kept."),
                    }),
                    ..(*self).clone()
                },
            },
            Action::Import(text) => match Scenario::parse(&text) {
                Ok(sc) => match Screen::new(sc, false) {
                    Ok(s) => Screen { panel: self.panel, speed: self.speed, ..s },
                    Err(message) => self.refuse_field("import", format!("This scenario cannot run: {message}")),
                },
                Err(e) => self.refuse_field("import", format!("This is not a scenario Lease Lab can open: {e}")),
            },
            Action::Refuse(message) => self.refuse_field("open", message),
            Action::Step(d) => {
                let c = (self.cursor as i64 + d).clamp(0, last as i64) as usize;
                if c == self.cursor && self.phase == 0.0 && !self.playing {
                    return self;
                }
                Screen { playing: false, ..self.at(c) }
            }
            Action::First => Screen { playing: false, ..self.at(0) },
            Action::Last => Screen { playing: false, ..self.at(last) },
            Action::Seek(i) => Screen { playing: false, ..self.at(i) },
            Action::SeekTime(t) => {
                let c = self.run.events.partition_point(|e| e.at_us <= t).saturating_sub(1);
                Screen { playing: false, ..self.at(c) }
            }
            Action::NextMoment => match self.moments().into_iter().find(|&m| m > self.cursor) {
                Some(m) => Screen { playing: false, ..self.at(m) },
                None => return self,
            },
            Action::PrevMoment => match self.moments().into_iter().rev().find(|&m| m < self.cursor) {
                Some(m) => Screen { playing: false, ..self.at(m) },
                None => Screen { playing: false, ..self.at(0) },
            },
            Action::NextViolation => {
                let v = self.violations();
                match v.iter().copied().filter(|&i| i > self.cursor).min().or_else(|| v.iter().copied().min()) {
                    Some(i) => Screen { playing: false, ..self.at(i) },
                    None => return self,
                }
            }
            Action::TogglePlay => {
                if self.playing {
                    Screen { playing: false, phase: 0.0, ..(*self).clone() }
                } else if self.cursor >= last {
                    // Playing from the end starts again.
                    Screen { playing: true, ..self.at(0) }
                } else if self.pending().is_some() {
                    return self;
                } else {
                    Screen { playing: true, ..(*self).clone() }
                }
            }
            Action::Tick(dt_ms) => {
                if !self.playing {
                    return self;
                }
                let mut s = (*self).clone();
                s.phase += dt_ms * SPEEDS[s.speed] / STEP_MS;
                while s.phase >= 1.0 && s.cursor < last {
                    if s.gate(s.cursor + 1) == s.cursor {
                        // A question: stop here until it is answered.
                        s.phase = 0.0;
                        s.playing = false;
                        break;
                    }
                    s.cursor += 1;
                    s.phase -= 1.0;
                }
                if s.cursor >= last {
                    s.cursor = last;
                    s.phase = 0.0;
                    s.playing = false;
                }
                s
            }
            Action::SetSpeed(i) => Screen { speed: i.min(SPEEDS.len() - 1), ..(*self).clone() },
            Action::Faster => Screen { speed: (self.speed + 1).min(SPEEDS.len() - 1), ..(*self).clone() },
            Action::Slower => Screen { speed: self.speed.saturating_sub(1), ..(*self).clone() },
            Action::ToggleFix => self.toggle_fix(),
            Action::Edit(field, raw) => match edit::apply(&self.scenario, &field, &raw) {
                Ok(sc) if sc == *self.scenario => Screen { error: None, ..(*self).clone() },
                Ok(sc) => self.rerun(sc, Some(&field)),
                Err(message) => self.refuse(Some(&field), message),
            },
            Action::AddFault(f) => {
                let mut faults = self.scenario.faults.clone();
                faults.push(f);
                self.with_faults(faults)
            }
            Action::RemoveFault(i) => {
                let mut faults = self.scenario.faults.clone();
                if i >= faults.len() {
                    return self;
                }
                faults.remove(i);
                self.with_faults(faults)
            }
            Action::MovePause { fault, at_ms, duration_ms } => {
                let mut faults = self.scenario.faults.clone();
                match faults.get_mut(fault) {
                    Some(Fault::Pause { at_ms: a, duration_ms: d, .. }) => {
                        if (*a, *d) == (at_ms, duration_ms) {
                            return self;
                        }
                        *a = at_ms.min(self.scenario.duration_ms);
                        *d = duration_ms.max(1);
                    }
                    _ => return self,
                }
                self.with_faults(faults)
            }
            Action::ToggleHelp => Screen { help: !self.help, ..(*self).clone() },
            Action::CloseOverlays => {
                if !self.help && self.error.is_none() {
                    return self;
                }
                Screen { help: false, error: None, ..(*self).clone() }
            }
            Action::SetPanel(p) => {
                if p == self.panel {
                    return self;
                }
                Screen { panel: p, ..(*self).clone() }
            }
            Action::TogglePredict => {
                let on = !self.predict;
                let mut s = Screen { predict: on, playing: false, phase: 0.0, picked: vec![None; self.quiz.len()], ..(*self).clone() };
                if on {
                    s.cursor = 0;
                }
                s
            }
            Action::Answer(q, choice) => {
                let ok = self.pending() == Some(q) && self.quiz[q].question.choices.len() > choice;
                if !ok {
                    return self;
                }
                let mut s = (*self).clone();
                s.picked[q] = Some(choice);
                s
            }
            Action::Choose(c) => match self.pending() {
                Some(q) => return self.clone().reduce(Action::Answer(q, c)),
                None => return self,
            },
            Action::ShowSolution => match self.original.challenge.as_ref().map(|c| self.original.with_settings(&c.solution)) {
                Some(Ok(sc)) => Screen { fix_undo: None, ..self.rerun(sc, None) },
                Some(Err(e)) => self.refuse(None, format!("The solution could not be shown: {e}")),
                None => return self,
            },
        };
        Rc::new(next)
    }
}

/// A millisecond value for a fault placed at a true time.
pub fn ms_at(t: Micros) -> u64 {
    (t.max(0) / MS) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gc() -> Rc<Screen> {
        Rc::new(Screen::new(sim::library::get("gc-pause-unfenced").unwrap(), false).unwrap())
    }

    fn go(s: &Rc<Screen>, a: Action) -> Rc<Screen> {
        s.clone().reduce(a)
    }

    #[test]
    fn stepping_stays_in_range_and_noops_return_the_same_rc() {
        let s = gc();
        let back = go(&s, Action::Step(-1));
        assert!(Rc::ptr_eq(&s, &back), "stepping back from the start changes nothing");
        let s2 = go(&s, Action::Step(3));
        assert_eq!(s2.cursor, 3);
        let end = go(&s2, Action::Last);
        assert_eq!(end.cursor, s.steps() - 1);
        assert_eq!(go(&end, Action::Step(5)).cursor, s.steps() - 1);
    }

    #[test]
    fn key_moments_and_violations_are_reachable() {
        let s = gc();
        let m1 = go(&s, Action::NextMoment);
        assert!(s.run.events[m1.cursor].moment.is_some());
        let v = go(&s, Action::NextViolation);
        assert!(matches!(s.run.events[v.cursor].kind, sim::EventKind::Accepted { token: Some(33), .. }));
        let back = go(&v, Action::PrevMoment);
        assert!(back.cursor < v.cursor);
    }

    #[test]
    fn playing_advances_and_stops_at_the_end() {
        let s = go(&gc(), Action::TogglePlay);
        assert!(s.playing);
        let s = go(&s, Action::Tick(STEP_MS * 2.5));
        assert_eq!(s.cursor, 2);
        assert!(s.phase > 0.4 && s.phase < 0.6);
        let s = go(&s, Action::Tick(STEP_MS * 10_000.0));
        assert!(!s.playing);
        assert_eq!(s.cursor, s.steps() - 1);
        let fast = go(&go(&gc(), Action::Faster), Action::Faster);
        assert_eq!(SPEEDS[fast.speed], 4.0);
    }

    #[test]
    fn the_fix_flips_the_verdict_and_undoes() {
        let s = gc();
        assert!(!s.run.verdict.is_safe());
        let f = go(&s, Action::ToggleFix);
        assert!(f.fixed() && f.run.verdict.is_safe());
        let u = go(&f, Action::ToggleFix);
        assert!(!u.fixed() && !u.run.verdict.is_safe());
        assert_eq!(u.scenario, s.scenario);
    }

    #[test]
    fn an_edit_reruns_and_keeps_the_cursor_time() {
        let s = go(&gc(), Action::Seek(60));
        let t = s.time_us();
        let e = go(&s, Action::Edit(Field::Fencing, "atomic".into()));
        assert!(e.run.verdict.is_safe());
        assert!(e.time_us() <= t && e.run.events[e.cursor + 1].at_us > t);
    }

    #[test]
    fn a_bad_value_is_refused_and_the_last_good_run_stays() {
        let s = gc();
        let e = go(&s, Action::Edit(Field::Ttl, "-3".into()));
        assert_eq!(e.error.as_ref().unwrap().field, "f-ttl");
        assert!(Rc::ptr_eq(&e.run, &s.run));
        assert_eq!(e.scenario, s.scenario);
        let ok = go(&e, Action::Edit(Field::Ttl, "30000".into()));
        assert!(ok.error.is_none() && ok.scenario.lock.ttl_ms == 30_000);
    }

    #[test]
    fn a_run_too_big_to_draw_is_refused_and_the_last_good_run_stays() {
        let s = gc();
        let e = go(&s, Action::Edit(Field::Duration, "3600000".into()));
        assert!(e.error.is_none(), "an hour of gc-pause-unfenced is small");
        // Contention for an hour with 1 ms retries: far more events than the timeline draws.
        let mut sc = (*s.scenario).clone();
        sc.duration_ms = 3_600_000;
        for c in &mut sc.clients {
            c.steps = vec![sim::scenario::Step::Acquire { retry_ms: 1, attempts: 10_000, timeout_ms: 1 }];
        }
        let big = go(&s, Action::Import(sc.to_json()));
        let err = big.error.as_ref().expect("refused");
        assert!(
            err.message.contains("more than the 10000 the timeline can show") || err.message.contains("needs more than"),
            "{}",
            err.message
        );
        assert!(Rc::ptr_eq(&big.run, &s.run));
    }

    #[test]
    fn importing_json_opens_it_or_says_why_not() {
        let s = gc();
        let other = sim::library::get("token-reset").unwrap();
        let ok = go(&s, Action::Import(other.to_json()));
        assert_eq!(ok.scenario.id, "token-reset");
        let bad = go(&s, Action::Import("{\"version\": 1, \"id\": 5}".into()));
        let e = bad.error.as_ref().unwrap();
        assert_eq!(e.field, "import");
        assert!(e.message.contains("id: invalid type"), "{}", e.message);
        assert!(Rc::ptr_eq(&bad.run, &s.run), "the current run stays");
    }

    #[test]
    fn dragging_the_pause_shorter_than_the_ttl_makes_it_safe() {
        let s = gc();
        let d = go(&s, Action::MovePause { fault: 0, at_ms: 1500, duration_ms: 3000 });
        assert!(d.run.verdict.is_safe(), "{:?}", d.run.verdict.violations);
        let r = go(&d, Action::RemoveFault(0));
        assert!(r.scenario.faults.is_empty());
        let a = go(&r, Action::AddFault(Fault::Crash { actor: "B".into(), at_ms: 12_000 }));
        assert_eq!(a.scenario.faults.len(), 1);
        let bad = go(&a, Action::AddFault(Fault::Crash { actor: "Z".into(), at_ms: 1 }));
        assert!(bad.error.is_some() && bad.scenario.faults.len() == 1);
    }

    #[test]
    fn predict_mode_stops_at_each_question_until_it_is_answered() {
        let s = go(&go(&gc(), Action::Step(5)), Action::TogglePredict);
        assert!(s.asking() && s.cursor == 0, "predict mode starts from the first step");
        let first = s.quiz[0].answer.asked;
        let at_q = go(&s, Action::Last);
        assert_eq!(at_q.cursor, first, "End stops at the first question");
        assert_eq!(at_q.pending(), Some(0));
        assert!(at_q.hides_future());
        assert_eq!(go(&at_q, Action::Step(1)).cursor, first, "no step past an unanswered question");
        let played = go(&go(&s, Action::TogglePlay), Action::Tick(STEP_MS * 10_000.0));
        assert_eq!((played.cursor, played.playing), (first, false), "playing stops at the question");
        assert!(Rc::ptr_eq(&at_q, &go(&at_q, Action::Answer(0, 99))), "a choice that does not exist is ignored");
        let answered = go(&at_q, Action::Answer(0, 0));
        assert_eq!(answered.picked[0], Some(0));
        assert_eq!(answered.revealed(), vec![0]);
        let on = go(&answered, Action::Step(1));
        assert_eq!(on.cursor, first + 1);
        let proof = go(&answered, Action::Seek(answered.quiz[0].answer.proof));
        assert!(proof.revealed().contains(&0), "the proof shows the answer too");
    }

    #[test]
    fn two_questions_at_one_step_are_asked_one_after_the_other() {
        let s = go(&gc(), Action::TogglePredict);
        let s = go(&go(&s, Action::Last), Action::Choose(1));
        let s = go(&s, Action::Last);
        assert_eq!(s.pending(), Some(1));
        let s = go(&s, Action::Choose(0));
        assert_eq!(s.picked[1], Some(0));
        assert_eq!(s.pending(), Some(2), "the second question at the same step comes next");
        let s = go(&s, Action::Choose(0));
        assert_eq!(s.picked[2], Some(0));
        assert_eq!(s.revealed(), vec![1, 2]);
    }

    #[test]
    fn questions_apply_only_to_the_scenario_as_written() {
        let s = go(&gc(), Action::TogglePredict);
        let fixed = go(&s, Action::ToggleFix);
        assert!(!fixed.asking());
        assert_eq!(go(&fixed, Action::Last).cursor, fixed.steps() - 1);
        let back = go(&fixed, Action::ToggleFix);
        assert!(back.asking(), "undoing the fix returns to the scenario as written");
        let edited = go(&s, Action::Edit(Field::Ttl, "12000".into()));
        assert!(edited.error.is_none() && !edited.asking());
    }

    #[test]
    fn the_challenge_is_met_by_its_solution_and_not_by_the_fix() {
        let s = gc();
        assert!(!s.challenge_met());
        assert!(!go(&s, Action::ToggleFix).challenge_met(), "the one-click fix does not count");
        let solved = go(&s, Action::ShowSolution);
        assert!(solved.error.is_none() && solved.challenge_met(), "{:?}", solved.error);
    }
}
