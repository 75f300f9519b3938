//! [`Action`], everything that can happen to the screen, and the reducer that applies it.

use std::rc::Rc;

use sim::scenario::{Fault, Scenario};
use sim::time::{Micros, Millis};
use yew::Reducible;

use super::play::played;
use super::{Against, FieldError, Panel, Screen, ZoomTo};
use crate::edit::{self, Field};

/// Everything that can happen to the screen.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Open a scenario (from the library or elsewhere), optionally with its fix on.
    Open(Rc<Scenario>, bool),
    /// Open a scenario from a file's bytes or pasted text, by the command line's rule
    /// (`Scenario::from_bytes`); a bad one is refused with a message.
    Import(Vec<u8>),
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
    /// Play step by step, or in time.
    SetPace(super::Pace),
    TogglePace,
    ToggleFix,
    Edit(Field, String),
    AddFault(Fault),
    RemoveFault(usize),
    /// Move or resize a pause fault (from dragging it on the timeline).
    MovePause {
        fault: usize,
        at_ms: Millis,
        duration_ms: Millis,
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
    /// Answer the question waiting at the cursor with this choice (keys A–E).
    Choose(usize),
    /// Show the schedule a search found, as a change of the scenario (undone by Undo).
    SearchFound(Rc<Scenario>),
    /// Take back the last change.
    Undo,
    /// A drag of a pause (or one key's move of it) has ended: the next move is another change.
    EndDrag,
    /// Compare the run with another (`None`: stop comparing).
    Compare(Option<Against>),
    /// Zoom the timeline.
    Zoom(ZoomTo),
}

impl Reducible for Screen {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match &action {
            Action::Open(..) | Action::Import(_) | Action::Refuse(_) => open(&self, action),
            Action::Step(_)
            | Action::First
            | Action::Last
            | Action::Seek(_)
            | Action::SeekTime(_)
            | Action::NextMoment
            | Action::PrevMoment
            | Action::NextViolation => moved(&self, action),
            Action::TogglePlay
            | Action::Tick(_)
            | Action::SetSpeed(_)
            | Action::Faster
            | Action::Slower
            | Action::SetPace(_)
            | Action::TogglePace => played(&self, action),
            Action::ToggleFix
            | Action::Edit(..)
            | Action::AddFault(_)
            | Action::RemoveFault(_)
            | Action::MovePause { .. }
            | Action::ShowSolution
            | Action::SearchFound(_) => {
                let drag = match action {
                    Action::MovePause { fault, .. } => Some(fault),
                    _ => None,
                };
                edited(&self, action).map(|next| self.remember(next, drag))
            }
            Action::Undo => self.undone(),
            Action::EndDrag => self.dragging.map(|_| Screen { dragging: None, ..(*self).clone() }),
            Action::Compare(against) => compared(&self, *against),
            Action::Zoom(to) => self.zoomed(*to),
            Action::ToggleHelp
            | Action::CloseOverlays
            | Action::SetPanel(_)
            | Action::TogglePredict
            | Action::Answer(..)
            | Action::Choose(_) => shown(&self, action),
        };
        // `None`: nothing changed, so the same `Rc` goes back and Yew skips the render.
        next.map_or(self, Rc::new)
    }
}

/// Opening a scenario, or refusing one.
fn open(this: &Screen, action: Action) -> Option<Screen> {
    Some(match action {
        Action::Open(sc, fixed) => match Screen::new((*sc).clone(), fixed) {
            Ok(s) => Screen { panel: this.panel, speed: this.speed, pace: this.pace, predict: this.predict, ..s },
            Err(message) => Screen {
                error: Some(FieldError {
                    field: "open".into(),
                    message: format!("This scenario could not be run: {message}. The run shown is kept."),
                    raw: None,
                }),
                ..this.clone()
            },
        },
        Action::Import(bytes) => match Scenario::from_bytes(&bytes) {
            Ok(sc) => match Screen::new(sc, false) {
                Ok(s) => Screen { panel: this.panel, speed: this.speed, pace: this.pace, ..s },
                Err(message) => this.refuse_field("import", format!("This scenario cannot run: {message}")),
            },
            Err(e) => this.refuse_field("import", format!("This is not a scenario Lease Lab can open: {e}")),
        },
        Action::Refuse(message) => this.refuse_field("open", message),
        _ => return None,
    })
}

/// Moving the cursor.
fn moved(this: &Screen, action: Action) -> Option<Screen> {
    let last = this.last();
    Some(match action {
        Action::Step(d) => {
            let c = (this.cursor as i64 + d).clamp(0, last as i64) as usize;
            if c == this.cursor && this.phase == 0.0 && !this.playing {
                return None;
            }
            Screen { playing: false, ..this.at(c) }
        }
        Action::First => Screen { playing: false, ..this.at(0) },
        Action::Last => Screen { playing: false, ..this.at(last) },
        Action::Seek(i) => Screen { playing: false, ..this.at(i) },
        Action::SeekTime(t) => {
            let c = this.run.events.partition_point(|e| e.at_us <= t).saturating_sub(1);
            // Comparing, the one cursor goes to the time itself: the other run's moment may
            // fall between this run's events, or after its last.
            let at_us = this.compare.as_ref().map(|o| t.clamp(Micros::ZERO, this.run.end_us.max(o.run.end_us)));
            Screen { playing: false, at_us, ..this.at(c) }
        }
        // After the last key moment, the end of the run (where the reader's turn comes), as
        // before the first one the previous key moment is the start.
        Action::NextMoment => match this.moments().iter().copied().find(|&m| m > this.cursor) {
            Some(m) => Screen { playing: false, ..this.at(m) },
            None if this.cursor < this.last() => Screen { playing: false, ..this.at(this.last()) },
            None => return None,
        },
        Action::PrevMoment => match this.moments().iter().copied().rev().find(|&m| m < this.cursor) {
            Some(m) => Screen { playing: false, ..this.at(m) },
            None => Screen { playing: false, ..this.at(0) },
        },
        Action::NextViolation => {
            let v = this.violations();
            match v.iter().copied().filter(|&i| i > this.cursor).min().or_else(|| v.iter().copied().min()) {
                Some(i) => Screen { playing: false, ..this.at(i) },
                None => return None,
            }
        }
        _ => return None,
    })
}

/// Changing the scenario: the fix, edits, faults, the challenge's solution.
fn edited(this: &Screen, action: Action) -> Option<Screen> {
    Some(match action {
        Action::ToggleFix => this.toggle_fix(),
        Action::Edit(field, raw) => match edit::apply(&this.scenario, &field, &raw) {
            Ok(sc) if sc == *this.scenario => Screen { error: None, ..this.clone() },
            Ok(sc) => this.rerun(sc, Some(&field)),
            Err(message) => {
                let refused = this.refuse(Some(&field), message);
                Screen { error: refused.error.map(|e| FieldError { raw: Some(raw), ..e }), ..refused }
            }
        },
        Action::AddFault(f) => {
            let mut faults = this.scenario.faults.clone();
            faults.push(f);
            this.with_faults(faults)
        }
        Action::RemoveFault(i) => {
            let mut faults = this.scenario.faults.clone();
            if i >= faults.len() {
                return None;
            }
            faults.remove(i);
            this.with_faults(faults)
        }
        Action::MovePause { fault, at_ms, duration_ms } => {
            let mut faults = this.scenario.faults.clone();
            match faults.get_mut(fault).and_then(Fault::block_mut) {
                Some((a, d)) => {
                    if (*a, *d) == (at_ms, duration_ms) {
                        return None;
                    }
                    *a = at_ms.min(this.scenario.duration_ms);
                    *d = duration_ms.max(Millis::new(1));
                }
                _ => return None,
            }
            this.with_faults(faults)
        }
        Action::SearchFound(sc) => {
            let mut s = this.rerun((*sc).clone(), None);
            // The search's own change: it does not count as the reader meeting a challenge.
            s.searched = Some(s.scenario.clone());
            // At the harm the search found.
            match s.violations().first().copied() {
                Some(v) => Screen { playing: false, ..s.at(v) },
                None => s,
            }
        }
        Action::ShowSolution => match this.original.challenge.as_ref().map(|c| this.original.with_settings(&c.solution)) {
            Some(Ok(sc)) => Screen { fix_undo: None, ..this.rerun(sc, None) },
            Some(Err(e)) => this.refuse(None, format!("The solution could not be shown: {e}")),
            None => return None,
        },
        _ => return None,
    })
}

/// Comparing two runs, or not.
fn compared(this: &Screen, against: Option<Against>) -> Option<Screen> {
    let Some(a) = against else {
        return this.compare.is_some().then(|| Screen { compare: None, at_us: None, ..this.clone() });
    };
    if this.compare.as_ref().is_some_and(|o| o.against == a) {
        return None;
    }
    Some(match this.other(a) {
        Ok(o) => Screen { compare: Some(super::ByPtr::new(o)), error: None, ..this.clone() },
        Err(e) => this.refuse_field("compare", format!("These runs cannot be compared: {e}")),
    })
}

/// Overlays, panels and predict mode.
fn shown(this: &Screen, action: Action) -> Option<Screen> {
    Some(match action {
        Action::ToggleHelp => Screen { help: !this.help, ..this.clone() },
        Action::CloseOverlays => {
            if !this.help && this.error.is_none() {
                return None;
            }
            Screen { help: false, error: None, ..this.clone() }
        }
        Action::SetPanel(p) => {
            if p == this.panel {
                return None;
            }
            Screen { panel: p, ..this.clone() }
        }
        Action::TogglePredict => {
            let on = !this.predict;
            let mut s = Screen { predict: on, playing: false, phase: 0.0, picked: vec![None; this.quiz.len()], ..this.clone() };
            if on {
                s.cursor = 0;
            }
            s
        }
        Action::Answer(q, choice) => {
            let ok = this.pending() == Some(q) && this.quiz[q].question.choices.len() > choice;
            if !ok {
                return None;
            }
            let mut s = this.clone();
            s.picked[q] = Some(choice);
            s
        }
        Action::Choose(c) => match this.pending() {
            Some(q) => return shown(this, Action::Answer(q, c)),
            None => return None,
        },
        _ => return None,
    })
}
