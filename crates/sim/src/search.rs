//! "Can this break?": a search over fault schedules for a run that ends unsafe, and where it
//! finds none, what it covered within stated bounds.
//!
//! From a scenario (the library's or an edited one), [`Search`] changes its schedule and runs
//! each result through the engine and the checker. First a quick pass over the changes most
//! often harmful ([`space`]: pauses, delays, clock jumps and drift, crashes, failover, cut-offs
//! at the instants that matter in the run as written, each alone, then pairs of them, sampled).
//! Then the bounded part ([`bounded`]): every order class of one change (where a fault's start
//! and size fall among the run's events and deadlines: [`classes`]), then of a second fault
//! added to each one-fault run that behaved in a way of its own; with three faults allowed,
//! random schedules of three beside it. The first unsafe schedule is shrunk
//! ([`shrink::Shrinker`]: fewer faults, shorter ones, later ones) while its run stays unsafe,
//! and the smallest is the result ([`Found`]); when none is found, [`Coverage`] says what was
//! covered, how far the bounded part got, and which dangerous situations runs reached.
//!
//! The search works in slices ([`Search::step`]) so that a page can run it between frames and
//! cancel it; [`search`] runs it to the end. It is deterministic: the same scenario, options and
//! seed try the same schedules in the same order.

use std::collections::HashSet;

use crate::rng::Rng;
use crate::scenario::{Fault, Scenario};
use crate::verdict::Safety;
use crate::RunError;

mod bounded;
pub mod classes;
pub mod enumerate;
mod quick;
mod reach;
mod report;
mod shrink;
mod space;

pub use reach::reached;
pub use report::{retold, thousands, Coverage, Found, Origin, Outcome};
pub use shrink::Shrinker;
pub use space::{space, Candidate, FaultKind};

/// How far a search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The most faults added to one schedule (1 to 3).
    pub faults: usize,
    /// The most schedules run before the search gives up.
    pub budget: usize,
    /// The seed of the search's own choices (the pairs it samples, its random schedules).
    pub seed: u64,
    /// Runs that need more events than this are not judged (the app shows at most 10,000).
    pub max_events: usize,
    /// The most runs spent shrinking what was found.
    pub shrink_budget: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { faults: 2, budget: 2_000, seed: 1, max_events: 10_000, shrink_budget: 600 }
    }
}

/// The most pairs the quick pass samples before the bounded part.
const QUICK_PAIRS: usize = 1_500;

/// Where a search is.
#[derive(Clone, Debug)]
enum Phase {
    Singles(usize),
    /// Pairs of the quick pass in order (`i < j`) when all fit in its quota, else sampled until
    /// `quota` have run.
    Pairs {
        i: usize,
        j: usize,
        all: bool,
        seen: HashSet<(usize, usize)>,
        quota: usize,
    },
    /// The bounded part.
    Classes(Box<bounded::Bounded>),
    /// Random schedules of three faults, once every class of up to two has run.
    Random,
    Shrink(Box<Shrinker>),
    Done(Box<Outcome>),
}

/// A search in progress: call [`Search::step`] until it returns `true`, then read
/// [`Search::outcome`].
#[derive(Clone, Debug)]
pub struct Search {
    base: Scenario,
    /// The scenario each schedule is run on: `base` with the schedule's faults.
    scratch: Scenario,
    opts: Options,
    space: Vec<Candidate>,
    phase: Phase,
    cov: Coverage,
    rng: Rng,
    first: Option<(Vec<Fault>, usize)>,
    shrink_runs: usize,
    /// The dangerous situations the service's runs can reach (its declaration's).
    situations: &'static [crate::scenario::Situation],
}

/// Where a running search is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Schedules run so far, of the budget.
    pub schedules: usize,
    pub budget: usize,
    /// Shrinking what was found: runs so far, of the shrink budget.
    pub shrinking: Option<(usize, usize)>,
}

/// A schedule to run.
#[derive(Clone, Debug)]
enum Next {
    /// Changes of the space (or random ones) to the scenario's faults.
    Change(Vec<Candidate>),
    /// The whole schedule, from the bounded part.
    Faults(Vec<Fault>),
}

impl Search {
    /// A search from `sc`. Refused if the scenario itself cannot run.
    pub fn new(sc: &Scenario, opts: Options) -> Result<Search, RunError> {
        let opts = Options { faults: opts.faults.clamp(1, 3), budget: opts.budget.max(1), ..opts };
        let run = crate::judge_within(sc, opts.max_events)?;
        let space = space(sc, &run);
        let n = space.len() as u64;
        let situations = sc.lock.kind.declaration().situations;
        let mut cov =
            Coverage { singles_total: space.len(), pairs_total: n * n.saturating_sub(1) / 2, asked: opts.faults, ..Coverage::default() };
        cov.reached = situations.iter().map(|&s| (s, false)).collect();
        cov.reach(&reached(&run, situations));
        let mut s = Search {
            base: sc.clone(),
            scratch: sc.clone(),
            opts,
            space,
            phase: Phase::Singles(0),
            cov,
            rng: Rng::stream(opts.seed, "search"),
            first: None,
            shrink_runs: 0,
            situations,
        };
        if !run.verdict.is_safe() {
            s.found(sc.faults.clone());
        }
        Ok(s)
    }

    /// Runs at most `runs` schedules; `true` when the search has ended.
    pub fn step(&mut self, runs: usize) -> bool {
        for _ in 0..runs {
            if matches!(self.phase, Phase::Done(_)) {
                return true;
            }
            if let Phase::Shrink(_) = self.phase {
                self.shrink_one();
                continue;
            }
            if self.cov.schedules >= self.opts.budget {
                self.finish();
                continue;
            }
            match self.next_schedule() {
                Some(added) => self.try_schedule(added),
                None => self.finish(),
            }
        }
        matches!(self.phase, Phase::Done(_))
    }

    /// Where the search is.
    pub fn progress(&self) -> Progress {
        let shrinking = matches!(self.phase, Phase::Shrink(_)).then_some((self.shrink_runs, self.opts.shrink_budget));
        Progress { schedules: self.cov.schedules, budget: self.opts.budget, shrinking }
    }

    /// How the search ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.phase {
            Phase::Done(o) => Some(o),
            _ => None,
        }
    }

    /// What the search has to show so far, for one stopped before its end (cancelled, or out of
    /// time): its outcome once it has ended; while it shrinks, the smallest unsafe schedule yet
    /// (with the shrinking runs so far); before it finds one, what it has covered.
    pub fn so_far(&self) -> Outcome {
        match &self.phase {
            Phase::Done(o) => (**o).clone(),
            Phase::Shrink(sh) => self.found_outcome(sh.best.clone()),
            Phase::Classes(b) => {
                let mut c = self.cov.clone();
                c.covered(b.covered());
                Outcome::NotFound(c)
            }
            _ => Outcome::NotFound(self.cov.clone()),
        }
    }

    /// From the quick pass to the bounded part (refused, it ends: the run as written was run
    /// already).
    fn to_classes(&mut self) {
        self.phase = match crate::judge_within(&self.base, self.opts.max_events) {
            Ok(run) => Phase::Classes(Box::new(bounded::Bounded::new(&self.base, &run, self.opts.faults))),
            Err(_) => Phase::Done(Box::new(Outcome::NotFound(self.cov.clone()))),
        };
    }

    /// The next schedule: changes of the space (or a random one), or the bounded part's faults.
    fn next_schedule(&mut self) -> Option<Next> {
        let n = self.space.len();
        loop {
            match &mut self.phase {
                Phase::Singles(i) if *i < n => {
                    *i += 1;
                    self.cov.singles += 1;
                    return Some(Next::Change(vec![self.space[*i - 1].clone()]));
                }
                Phase::Singles(_) => {
                    if self.opts.faults < 2 || n < 2 {
                        self.to_classes();
                        continue;
                    }
                    let quota = QUICK_PAIRS.min(self.opts.budget - self.cov.schedules);
                    let all = self.cov.pairs_total <= quota as u64;
                    self.phase = Phase::Pairs { i: 0, j: 1, all, seen: HashSet::new(), quota };
                }
                Phase::Pairs { i, j, all: true, .. } => {
                    if *i + 1 >= n {
                        self.to_classes();
                        continue;
                    }
                    let pair = (*i, *j);
                    *j += 1;
                    if *j >= n {
                        *i += 1;
                        *j = *i + 1;
                    }
                    self.cov.pairs += 1;
                    return Some(Next::Change(vec![self.space[pair.0].clone(), self.space[pair.1].clone()]));
                }
                Phase::Pairs { quota, .. } if self.cov.pairs >= *quota => self.to_classes(),
                Phase::Pairs { seen, .. } => {
                    let a = self.rng.range_inclusive(0, n as i64 - 1) as usize;
                    let b = self.rng.range_inclusive(0, n as i64 - 1) as usize;
                    if a == b || !seen.insert((a.min(b), a.max(b))) {
                        continue;
                    }
                    self.cov.pairs += 1;
                    return Some(Next::Change(vec![self.space[a.min(b)].clone(), self.space[a.max(b)].clone()]));
                }
                // With three faults allowed, one schedule in four is a random one of three while
                // second faults are added.
                Phase::Classes(b) if self.opts.faults > 2 && b.adding_second() && self.cov.schedules % 4 == 3 && n > 0 => {
                    return Some(Next::Change(self.random_schedule()));
                }
                Phase::Classes(b) => match b.propose(&self.base) {
                    Some(faults) => {
                        self.cov.class_runs += 1;
                        return Some(Next::Faults(faults));
                    }
                    None => {
                        self.cov.covered(b.covered());
                        if self.opts.faults > 2 && n > 0 {
                            self.phase = Phase::Random;
                        } else {
                            return None;
                        }
                    }
                },
                Phase::Random if n == 0 => return None,
                Phase::Random => return Some(Next::Change(self.random_schedule())),
                Phase::Shrink(_) | Phase::Done(_) => return None,
            }
        }
    }

    /// The scenario's run with `faults`, which it gives back. The scenario is not copied for
    /// each schedule: only its faults change.
    fn judge(&mut self, faults: Vec<Fault>) -> (Result<crate::trace::Run, RunError>, Vec<Fault>) {
        self.scratch.faults = faults;
        let run = crate::judge_within(&self.scratch, self.opts.max_events);
        (run, std::mem::take(&mut self.scratch.faults))
    }

    fn try_schedule(&mut self, next: Next) {
        self.cov.schedules += 1;
        let bounded = matches!(next, Next::Faults(_));
        let faults = match next {
            Next::Change(added) => self.changed(added),
            Next::Faults(faults) => faults,
        };
        let (run, faults) = self.judge(faults);
        let reached = run.as_ref().map(|r| reached(r, self.situations)).unwrap_or_default();
        self.cov.reach(&reached);
        if matches!(run, Err(RunError::TooManyEvents { .. })) {
            self.cov.too_long += 1;
        }
        let unsafe_ = run.as_ref().is_ok_and(|r| r.verdict.verdict == Safety::Unsafe);
        if let (Phase::Classes(b), true) = (&mut self.phase, bounded) {
            b.tell(run.as_ref().ok(), &faults, reached.len());
        }
        if unsafe_ {
            if let Phase::Classes(b) = &self.phase {
                self.cov.covered(b.covered());
            }
            self.found(faults);
        }
    }

    fn found(&mut self, faults: Vec<Fault>) {
        self.first = Some((faults.clone(), self.cov.schedules));
        self.phase = Phase::Shrink(Box::new(Shrinker::new(faults, self.base.duration_ms)));
    }

    fn shrink_one(&mut self) {
        let Phase::Shrink(sh) = &mut self.phase else { return };
        let next = if self.shrink_runs < self.opts.shrink_budget { sh.propose() } else { None };
        let Some(c) = next else {
            let best = sh.best.clone();
            self.phase = Phase::Done(Box::new(self.found_outcome(best)));
            return;
        };
        self.shrink_runs += 1;
        let (run, c) = self.judge(c);
        let unsafe_ = run.is_ok_and(|r| r.verdict.verdict == Safety::Unsafe);
        if let Phase::Shrink(sh) = &mut self.phase {
            sh.tell(c, unsafe_);
        }
    }

    fn found_outcome(&self, best: Vec<Fault>) -> Outcome {
        let mut found = Found::of(&self.base, best);
        found.headline = crate::judge_within(&found.scenario, self.opts.max_events).map_or("Unsafe", |r| r.verdict.headline());
        (found.first, found.after) = self.first.clone().unwrap_or_default();
        found.shrink_runs = self.shrink_runs;
        found.scenario = found.told();
        Outcome::Found(Box::new(found), self.cov.clone())
    }

    fn finish(&mut self) {
        if let Phase::Classes(b) = &self.phase {
            self.cov.covered(b.covered());
        }
        self.phase = Phase::Done(Box::new(Outcome::NotFound(self.cov.clone())));
    }
}

/// A time still to wait, as people say it: `12 s`, `4 min 25 s`, `46 h 02 min` (a search's
/// estimate of what is left, which the command line and the app measure: the search has no
/// clock).
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).ceil() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// Runs a whole search.
pub fn search(sc: &Scenario, opts: Options) -> Result<Outcome, RunError> {
    let mut s = Search::new(sc, opts)?;
    while !s.step(256) {}
    Ok(s.outcome().cloned().expect("a search that has ended has an outcome"))
}
