//! The screen's state: [`Screen`], changed only by [`Action`]s through its reducer
//! (`reduce.rs`). No DOM here; it is tested natively. A no-op action returns the same `Rc`, so
//! Yew skips the re-render.
//!
//! `Screen` derives `PartialEq`: its heavy parts are [`ByPtr`]s (compared by identity, rebuilt
//! whenever they change), the rest are small values, so no field can be left out of the
//! comparison by mistake.

use sim::facts::Facts;
use sim::json::Value;
use sim::scenario::{Fault, Scenario};
use sim::time::{Micros, Millis, MS};
use sim::Run;

use crate::edit::Field;

mod challenge;
mod compare;
mod notice;
mod play;
mod ptr;
mod reduce;
#[cfg(test)]
mod tests;
mod zoom;

pub use challenge::Given;
pub use compare::{Against, Other};
pub use notice::Notice;
pub use play::{Pace, QUIET_MS};
pub use ptr::{ByPtr, Latest};
pub use reduce::Action;
pub use zoom::{cause_from, max_zoom, View, ZoomTo};

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
            "this run needs more than the {MAX_DRAWN_EVENTS} events the timeline can show (reached at {} of simulated time); {}",
            sim::time::fmt(at_us),
            e.advice()
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
    /// What was typed, when a typed value was refused: it stays in its field beside the message.
    pub raw: Option<String>,
}

/// The settings a fix changed, as they were before it: (path, old value).
pub type Undo = Vec<(String, Option<Value>)>;

/// A scenario as it was before a change, with its fix's undo and its credit
/// ([`Screen::credit`]), for Undo.
pub type Before = (ByPtr<Scenario>, Option<ByPtr<Undo>>, Option<String>);

/// How many changes Undo remembers.
pub const UNDO_DEPTH: usize = 50;

/// The state of the screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Screen {
    /// The library scenario this started from (its fix is offered).
    pub original: ByPtr<Scenario>,
    /// The scenario being shown, with the user's edits.
    pub scenario: ByPtr<Scenario>,
    /// The last good run of `scenario`.
    pub run: ByPtr<Run>,
    /// The derived facts of `run`, computed once with it.
    pub facts: ByPtr<Facts>,
    /// The fix's settings as they were before it was applied; `Some` while the fix is on.
    pub fix_undo: Option<ByPtr<Undo>>,
    /// The current step: an index into the run's events.
    pub cursor: usize,
    /// While playing: how far towards the next step (0..1).
    pub phase: f64,
    pub playing: bool,
    pub speed: usize,
    pub pace: Pace,
    /// Playing in time: how many times faster than the rate chosen a quiet stretch is passing
    /// (1 otherwise).
    pub fast: f64,
    pub error: Option<FieldError>,
    pub help: bool,
    pub panel: Panel,
    /// Predict mode is on: the run stops at each question until it is answered.
    pub predict: bool,
    /// The questions, answered by the engine on the scenario as written.
    pub quiz: ByPtr<Vec<Quiz>>,
    /// The choice picked for each question, once answered.
    pub picked: Vec<Option<usize>>,
    /// The scenario is the one that was opened, unchanged (questions apply only to it).
    pub as_written: bool,
    /// The scenarios before each change, the last change last (at most [`UNDO_DEPTH`]).
    pub undo: Vec<Before>,
    /// The pause being dragged: its moves make one change, undone at once.
    pub dragging: Option<usize>,
    /// The other run, while two runs are compared.
    pub compare: Option<ByPtr<Other>>,
    /// A true time the cursor was put at (a mark of the compared run), between or after this
    /// run's events; any move by step clears it.
    pub at_us: Option<Micros>,
    /// The scenario a search put on screen (while it is the one shown, no challenge is met).
    pub searched: Option<ByPtr<Scenario>>,
    /// How far the timeline is zoomed (kept across edits; a new scenario fits the width).
    pub view: View,
    /// What the last change did (cleared by Undo and by opening another scenario).
    pub notice: Option<Notice>,
    /// What the change that last turned the verdict over changed, in words: what a challenge
    /// met another way credits. A change that leaves the verdict as it is keeps it (changing
    /// the duration after the TTL made the run safe does not take the credit); Undo restores it.
    pub credit: Option<String>,
}

impl Screen {
    /// The screen for a scenario. `None` when the scenario cannot run.
    pub fn new(scenario: Scenario, fixed: bool) -> Result<Screen, String> {
        let original = ByPtr::new(scenario);
        let run = simulate(&original)?;
        let quiz = ByPtr::new(quiz(&original, &run));
        let facts = Facts::of(&run);
        let view = View::opening(&run, &facts);
        let mut s = Screen {
            original: original.clone(),
            scenario: original,
            facts: ByPtr::new(facts),
            run: ByPtr::new(run),
            fix_undo: None,
            cursor: 0,
            phase: 0.0,
            playing: false,
            speed: 2,
            pace: Pace::Steps,
            fast: 1.0,
            error: None,
            help: false,
            panel: Panel::Inspect,
            predict: false,
            picked: vec![None; quiz.len()],
            quiz,
            as_written: true,
            undo: Vec::new(),
            dragging: None,
            compare: None,
            at_us: None,
            searched: None,
            view,
            notice: None,
            credit: None,
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

    pub(crate) fn last(&self) -> usize {
        self.steps().saturating_sub(1)
    }

    /// The true time shown: the current event's, or between it and the next while playing.
    pub fn time_us(&self) -> Micros {
        if let Some(t) = self.at_us {
            return t;
        }
        let ev = &self.run.events;
        let Some(cur) = ev.get(self.cursor) else { return Micros::ZERO };
        match ev.get(self.cursor + 1) {
            Some(next) if self.phase > 0.0 => cur.at_us + Micros::from_f64((next.at_us - cur.at_us).as_f64() * self.phase),
            _ => cur.at_us,
        }
    }

    /// Step indices that carry a key moment.
    pub fn moments(&self) -> &[usize] {
        self.facts.moments()
    }

    /// Step indices where a violation shows.
    pub fn violations(&self) -> &[usize] {
        self.facts.violations()
    }

    /// The last step at or before true time `t`.
    pub fn step_at(&self, t: Micros) -> usize {
        self.run.events.partition_point(|e| e.at_us <= t).saturating_sub(1)
    }

    pub fn fixed(&self) -> bool {
        self.fix_undo.is_some()
    }

    pub(crate) fn at(&self, cursor: usize) -> Screen {
        Screen { cursor: self.gate(cursor.min(self.last())), phase: 0.0, at_us: None, ..self.clone() }
    }

    /// Whether the run stops for questions: predict mode, on the scenario as written.
    pub fn asking(&self) -> bool {
        self.predict && self.as_written && !self.quiz.is_empty()
    }

    /// Where a move forward to `target` stops: at the first unanswered question on the way.
    pub(crate) fn gate(&self, target: usize) -> usize {
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

    /// Re-simulates a changed scenario, keeping the cursor at the same true time. If it cannot
    /// run, the last good run stays and the error is shown next to `field`.
    pub(crate) fn rerun(&self, sc: Scenario, field: Option<&Field>) -> Screen {
        match simulate(&sc) {
            Ok(run) => {
                let cursor = self.same_place(&run);
                let as_written = sc == *self.original;
                let facts = ByPtr::new(Facts::of(&run));
                Screen {
                    scenario: ByPtr::new(sc),
                    run: ByPtr::new(run),
                    facts,
                    cursor,
                    phase: 0.0,
                    error: None,
                    as_written,
                    ..self.clone()
                }
            }
            Err(e) => self.refuse(field, e),
        }
    }

    /// Where the cursor goes in `run`, a new run of this screen's story: at the same true time.
    /// On an event, among the events of that instant it takes the same place, or the key moment
    /// of that instant when it was on one, so that the narration explains what the change did
    /// there (with the fix on, the rejection where the stale write was accepted), not a step
    /// past it.
    fn same_place(&self, run: &Run) -> usize {
        let t = self.time_us();
        let last = run.events.partition_point(|e| e.at_us <= t).saturating_sub(1);
        let Some(now) = self.run.events.get(self.cursor).filter(|_| self.phase == 0.0 && self.at_us.is_none()) else { return last };
        let first = run.events.partition_point(|e| e.at_us < t);
        if first > last {
            return last;
        }
        let moment = (first..=last).find(|&i| run.moment(i).is_some()).filter(|_| self.run.moment(now.id).is_some());
        let place = self.cursor - self.run.events.partition_point(|e| e.at_us < t);
        moment.unwrap_or(first + place.min(last - first))
    }

    /// `next`, a change of this screen, with this screen's scenario remembered for Undo (the
    /// moves of one drag are one change) and the comparison brought up to date.
    pub(crate) fn remember(&self, mut next: Screen, drag: Option<usize>) -> Screen {
        if next.scenario == self.scenario || *next.scenario == *self.scenario {
            return next;
        }
        let starting = drag.is_none() || drag != self.dragging;
        // A drag is one change: said from where it began.
        let (base, was_safe, credit) = match (&self.notice, self.undo.last()) {
            (Some(n), Some((before, _, credit))) if !starting => (before.clone(), n.was_safe, credit.clone()),
            _ => (self.scenario.clone(), self.run.verdict.is_safe(), self.credit.clone()),
        };
        let same_run = starting && notice::same_behaviour(&self.run, &next.run);
        let what = notice::change(&base, &next.scenario);
        let safe = next.run.verdict.is_safe();
        next.credit = if safe != was_safe { Some(what.clone()) } else { credit };
        next.notice = Some(Notice { what, was_safe, safe, same_run });
        if starting {
            next.undo = self.undo.clone();
            if next.undo.len() == UNDO_DEPTH {
                next.undo.remove(0);
            }
            next.undo.push((self.scenario.clone(), self.fix_undo.clone(), self.credit.clone()));
        }
        next.dragging = drag;
        next.recompare()
    }

    /// The scenario before the last change, back on screen.
    pub(crate) fn undone(&self) -> Option<Screen> {
        let mut undo = self.undo.clone();
        let (sc, fix_undo, credit) = undo.pop()?;
        let mut s = self.rerun((*sc).clone(), None);
        if s.error.is_some() {
            return Some(s);
        }
        s.scenario = sc;
        s.as_written = s.scenario == self.original || *s.scenario == *self.original;
        s.fix_undo = fix_undo;
        s.undo = undo;
        s.dragging = None;
        s.notice = None;
        s.credit = credit;
        Some(s.recompare())
    }

    pub(crate) fn refuse(&self, field: Option<&Field>, message: String) -> Screen {
        let field = field.map(|f| f.id()).unwrap_or_else(|| "timeline".into());
        Screen { error: Some(FieldError { field, message, raw: None }), ..self.clone() }
    }

    pub(crate) fn refuse_field(&self, field: &str, message: String) -> Screen {
        Screen { error: Some(FieldError { field: field.into(), message, raw: None }), ..self.clone() }
    }

    pub(crate) fn with_faults(&self, faults: Vec<Fault>) -> Screen {
        let mut sc = (*self.scenario).clone();
        sc.faults = faults;
        match sc.validate() {
            Ok(()) => self.rerun(sc, None),
            Err(e) => self.refuse(None, e.to_string()),
        }
    }
}

/// A millisecond value for a fault placed at a true time.
pub fn ms_at(t: Micros) -> Millis {
    Millis::new((t.max(Micros::ZERO) / MS) as u64)
}
