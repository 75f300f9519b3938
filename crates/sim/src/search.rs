//! "Can this break?": a search over fault schedules for a run that ends unsafe.
//!
//! From a scenario (the library's or an edited one), [`Search`] adds faults to its schedule and
//! runs each result through the engine and the checker: first every one-fault change of
//! [`space`] (pauses, delays, clock jumps and drift, crashes, failover, cut-offs, at the instants
//! that matter in the run as written), then pairs of them, then random schedules, within a
//! budget of runs. The first unsafe schedule is shrunk ([`shrink::Shrinker`]: fewer faults,
//! shorter ones, later ones) while its run stays unsafe, and the smallest is the result
//! ([`Found`]); when none is found, [`Coverage`] says what was tried.
//!
//! The search works in slices ([`Search::step`]) so that a page can run it between frames and
//! cancel it; [`search`] runs it to the end. It is deterministic: the same scenario, options and
//! seed try the same schedules in the same order.

use std::collections::HashSet;

use crate::rng::Rng;
use crate::scenario::{Fault, Scenario};
use crate::time::Millis;
use crate::verdict::Safety;
use crate::RunError;

pub mod classes;
pub mod enumerate;
mod report;
mod shrink;
mod space;

pub use report::{thousands, Coverage, Found, Origin, Outcome};
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

/// Where a search is.
#[derive(Clone, Debug)]
enum Phase {
    Singles(usize),
    /// Pairs in order (`i < j`) when all fit in their share of the budget, else sampled until
    /// `quota` have run.
    Pairs {
        i: usize,
        j: usize,
        all: bool,
        seen: HashSet<(usize, usize)>,
        quota: usize,
    },
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

/// How one schedule's run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Judged {
    Unsafe,
    Safe,
    /// The scenario with these faults is not valid (a restart of an actor that is up, …).
    Invalid,
    /// The run needed more events than allowed.
    TooLong,
}

impl Search {
    /// A search from `sc`. Refused if the scenario itself cannot run.
    pub fn new(sc: &Scenario, opts: Options) -> Result<Search, RunError> {
        let opts = Options { faults: opts.faults.clamp(1, 3), budget: opts.budget.max(1), ..opts };
        let run = crate::judge_within(sc, opts.max_events)?;
        let space = space(sc, &run);
        let n = space.len() as u64;
        let cov = Coverage { singles_total: space.len(), pairs_total: n * n.saturating_sub(1) / 2, ..Coverage::default() };
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
            _ => Outcome::NotFound(self.cov.clone()),
        }
    }

    /// The next schedule of added faults (indices into the space, or a random one).
    fn next_schedule(&mut self) -> Option<Vec<Candidate>> {
        let n = self.space.len();
        loop {
            match &mut self.phase {
                Phase::Singles(i) if *i < n => {
                    *i += 1;
                    self.cov.singles += 1;
                    return Some(vec![self.space[*i - 1].clone()]);
                }
                Phase::Singles(_) => {
                    if self.opts.faults < 2 || n < 2 {
                        self.phase = Phase::Random;
                        continue;
                    }
                    let room = self.opts.budget - self.cov.schedules;
                    // With three faults allowed, half of what is left goes to random schedules.
                    let quota = if self.opts.faults > 2 { room / 2 } else { room };
                    let all = self.cov.pairs_total <= quota as u64;
                    self.phase = Phase::Pairs { i: 0, j: 1, all, seen: HashSet::new(), quota };
                }
                Phase::Pairs { i, j, all: true, .. } => {
                    if *i + 1 >= n {
                        self.phase = Phase::Random;
                        continue;
                    }
                    let pair = (*i, *j);
                    *j += 1;
                    if *j >= n {
                        *i += 1;
                        *j = *i + 1;
                    }
                    self.cov.pairs += 1;
                    return Some(vec![self.space[pair.0].clone(), self.space[pair.1].clone()]);
                }
                Phase::Pairs { quota, .. } if self.cov.pairs >= *quota => self.phase = Phase::Random,
                Phase::Pairs { seen, .. } => {
                    let a = self.rng.range_inclusive(0, n as i64 - 1) as usize;
                    let b = self.rng.range_inclusive(0, n as i64 - 1) as usize;
                    if a == b || !seen.insert((a.min(b), a.max(b))) {
                        continue;
                    }
                    self.cov.pairs += 1;
                    return Some(vec![self.space[a.min(b)].clone(), self.space[a.max(b)].clone()]);
                }
                Phase::Random if n == 0 => return None,
                Phase::Random => {
                    self.cov.random += 1;
                    return Some(self.random_schedule());
                }
                Phase::Shrink(_) | Phase::Done(_) => return None,
            }
        }
    }

    /// One to `faults` faults shaped like those of the space, at random times and sizes.
    fn random_schedule(&mut self) -> Vec<Candidate> {
        let k = self.rng.range_inclusive(1, self.opts.faults as i64) as usize;
        let end = self.base.duration_ms.get().max(2) as i64;
        let ttl = self.base.lock.ttl_ms.get().max(1) as i64;
        (0..k)
            .map(|_| {
                let mut c = self.space[self.rng.range_inclusive(0, self.space.len() as i64 - 1) as usize].clone();
                let at = self.rng.range_inclusive(0, end - 2);
                let size = self.rng.range_inclusive(1, 3 * ttl);
                let mut prev = at;
                for f in &mut c.faults {
                    // A restart follows its crash.
                    let t = if matches!(f, Fault::Restart(_)) { self.rng.range_inclusive(prev + 1, end - 1) } else { at };
                    *f.at_ms_mut() = Millis::new(t as u64);
                    prev = t;
                    *f = f.resized(Millis::new(size as u64));
                }
                c
            })
            .collect()
    }

    /// How the scenario's run ends with `faults`, which it gives back. The scenario is not
    /// copied for each schedule: only its faults change.
    fn judge(&mut self, faults: Vec<Fault>) -> (Judged, Vec<Fault>) {
        self.scratch.faults = faults;
        let judged = match crate::judge_within(&self.scratch, self.opts.max_events) {
            Ok(run) if run.verdict.verdict == Safety::Unsafe => Judged::Unsafe,
            Ok(_) => Judged::Safe,
            Err(RunError::TooManyEvents { .. }) => Judged::TooLong,
            Err(_) => Judged::Invalid,
        };
        (judged, std::mem::take(&mut self.scratch.faults))
    }

    fn try_schedule(&mut self, added: Vec<Candidate>) {
        self.cov.schedules += 1;
        for k in added.iter().map(|c| c.kind).collect::<crate::flat::Set<_>>() {
            *self.cov.by_kind.entry(k).or_default() += 1;
        }
        self.cov.max_faults = self.cov.max_faults.max(added.len());
        if added.iter().any(|c| c.replaces.is_some()) {
            self.cov.own += 1;
        }
        // The scenario's own faults stay in their places (a fix may name them by place), each
        // changed or removed where a candidate replaces it; added faults follow.
        let mut faults = Vec::with_capacity(self.base.faults.len() + added.len());
        for (i, f) in self.base.faults.iter().enumerate() {
            match added.iter().find(|c| c.replaces == Some(i)) {
                Some(c) => faults.extend(c.faults.iter().cloned()),
                None => faults.push(f.clone()),
            }
        }
        faults.extend(added.into_iter().filter(|c| c.replaces.is_none()).flat_map(|c| c.faults));
        match self.judge(faults) {
            (Judged::Unsafe, faults) => self.found(faults),
            (Judged::TooLong, _) => self.cov.too_long += 1,
            (Judged::Safe | Judged::Invalid, _) => {}
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
        let (judged, c) = self.judge(c);
        if let Phase::Shrink(sh) = &mut self.phase {
            sh.tell(c, judged == Judged::Unsafe);
        }
    }

    fn found_outcome(&self, best: Vec<Fault>) -> Outcome {
        let scenario = Scenario { faults: best, ..self.base.clone() };
        let headline = crate::judge_within(&scenario, self.opts.max_events).map_or("Unsafe", |r| r.verdict.headline());
        let (origins, removed) = report::origins(&self.base.faults, &scenario.faults);
        let was = origins.iter().map(|(_, i)| i.map(|i| self.base.faults[i].clone())).collect();
        let faults = scenario.faults.iter().cloned().zip(origins.into_iter().map(|(o, _)| o)).collect();
        let removed = removed.into_iter().map(|i| self.base.faults[i].clone()).collect();
        let (first, after) = self.first.clone().unwrap_or_default();
        let mut found = Found { scenario, faults, was, removed, after, first, shrink_runs: self.shrink_runs, headline };
        found.scenario = found.told();
        Outcome::Found(Box::new(found), self.cov.clone())
    }

    fn finish(&mut self) {
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
