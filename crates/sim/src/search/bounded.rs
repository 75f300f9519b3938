//! The bounded part of a search (issue 51): every order class of one change of the schedule
//! ([`Classes`] on the run as written: one fault added, or one of its own moved, resized or
//! removed), then every order class of a fault added to each one-fault run that behaved in a
//! way of its own (the second fault's classes come from the run *with* the first). Runs count
//! once per behaviour; one-fault runs that reached more dangerous situations get their second
//! fault first.

use std::collections::HashSet;

use crate::scenario::{Fault, Scenario};

use super::classes::{templates, Shape, Template};
use super::enumerate::Classes;

/// A one-fault schedule whose run behaved in a way of its own, and the situations it reached.
#[derive(Clone, Debug)]
struct First {
    faults: Vec<Fault>,
    reached: usize,
}

/// Where the bounded enumeration is.
#[derive(Clone, Debug)]
pub(super) struct Bounded {
    /// The faults the current classes are added to (the scenario's; then a first fault's).
    on: Vec<Fault>,
    classes: Classes,
    /// Adding a second fault: to `firsts[at]`.
    second: Option<usize>,
    firsts: Vec<First>,
    behaviours: HashSet<u64>,
    /// The most faults added with every order class run (0: not yet one).
    pub complete: usize,
    /// How many faults it adds at most (1 or 2).
    most: usize,
}

/// What the bounded enumeration has covered so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Covered {
    pub behaviours: usize,
    pub complete: usize,
    /// One-fault runs with a behaviour of their own, and those whose every second fault was run.
    pub firsts: usize,
    pub firsts_done: usize,
    /// At one fault: places walked, of the places in all.
    pub places: (usize, usize),
}

impl Bounded {
    pub fn new(sc: &Scenario, run: &crate::trace::Run, most: usize) -> Bounded {
        let own: Vec<usize> = (0..sc.faults.len()).collect();
        let classes = Classes::new(templates(sc, run, &own), sc.duration_ms);
        let mut b = Bounded {
            on: sc.faults.clone(),
            classes,
            second: None,
            firsts: Vec::new(),
            behaviours: HashSet::new(),
            complete: 0,
            most: most.clamp(1, 2),
        };
        b.behaviours.insert(crate::witness::behaviour(run));
        b
    }

    /// The next schedule's faults, or `None` when every class up to `most` faults has run.
    /// `base` is the scenario searched (its faults replaced by the schedule's).
    pub fn propose(&mut self, base: &Scenario) -> Option<Vec<Fault>> {
        loop {
            if let Some(p) = self.classes.propose() {
                return Some(apply(&self.on, &self.classes.templates[p.template], self.classes.faults(p)));
            }
            match self.second {
                None => {
                    self.complete = 1;
                    if self.most < 2 {
                        return None;
                    }
                    // Those that came nearest to harm first (a stable sort: then in the order found).
                    crate::sort::by_key(&mut self.firsts, |f| std::cmp::Reverse(f.reached));
                    self.second = Some(0);
                }
                Some(i) => self.second = Some(i + 1),
            }
            let i = self.second.unwrap_or(0);
            let Some(first) = self.firsts.get(i) else {
                self.complete = 2;
                return None;
            };
            let sc = Scenario { faults: first.faults.clone(), ..base.clone() };
            // A first fault's run was judged once already; one that cannot run now is skipped.
            let Ok(run) = crate::judge_within(&sc, crate::scenario::limits::EVENTS) else { continue };
            self.on = first.faults.clone();
            self.classes = Classes::new(templates(&sc, &run, &[]), sc.duration_ms);
        }
    }

    /// How the proposed schedule's run went (`None`: it could not be judged), with the faults it
    /// ran and the situations it reached.
    pub fn tell(&mut self, run: Option<&crate::trace::Run>, faults: &[Fault], reached: usize) {
        let shape = run.map(Shape::of);
        if let Some(s) = &shape {
            let new = self.behaviours.insert(s.behaviour);
            if new && self.second.is_none() {
                self.firsts.push(First { faults: faults.to_vec(), reached });
            }
        }
        self.classes.tell(shape);
    }

    pub fn covered(&self) -> Covered {
        let firsts_done = match self.second {
            None => 0,
            Some(i) => i.min(self.firsts.len()),
        };
        // At one fault, how far its walk is (once it is complete, that walk is over).
        let places = if self.second.is_some() { (0, 0) } else { (self.classes.walked.min(self.classes.places()), self.classes.places()) };
        Covered { behaviours: self.behaviours.len(), complete: self.complete, firsts: self.firsts.len(), firsts_done, places }
    }

    /// Whether it is adding second faults.
    pub fn adding_second(&self) -> bool {
        self.second.is_some()
    }
}

/// `on` with a template's faults: in the place of the fault it replaces (none: that fault
/// removed), else after them.
fn apply(on: &[Fault], t: &Template, faults: Vec<Fault>) -> Vec<Fault> {
    match t.replaces {
        Some(i) => {
            let mut out: Vec<Fault> = on[..i].to_vec();
            out.extend(faults);
            out.extend(on[i + 1..].iter().cloned());
            out
        }
        None => on.iter().cloned().chain(faults).collect(),
    }
}
