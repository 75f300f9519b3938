//! What a search reports: the smallest unsafe schedule it found ([`Found`], each fault with
//! its [`Origin`]), or what it covered ([`Coverage`] and its one-sentence statement).

use std::collections::BTreeMap;

use serde::Serialize;

use super::FaultKind;
use crate::scenario::{Fault, Scenario};

/// What a search tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Schedules run (the run as written not counted, nor the runs spent shrinking).
    pub schedules: usize,
    /// The most faults added to one schedule.
    pub max_faults: usize,
    /// One-fault schedules run, of how many there are.
    pub singles: usize,
    pub singles_total: usize,
    /// Two-fault schedules run, of how many there are.
    pub pairs: usize,
    pub pairs_total: u64,
    /// Random schedules run.
    pub random: usize,
    /// Schedules run with each kind of fault among those added.
    pub by_kind: BTreeMap<FaultKind, usize>,
    /// Schedules not judged: their run needed more events than allowed.
    pub too_long: usize,
}

/// A count with thousands separated: `2,418`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl Coverage {
    /// What was covered, in one sentence: `2,418 schedules of up to two faults (pauses, delays,
    /// clock jumps, crashes): none corrupted the data.`
    pub fn statement(&self) -> String {
        let faults = match self.max_faults {
            1 => "one added fault".to_string(),
            n => format!("up to {} added faults", ["", "one", "two", "three"].get(n).copied().unwrap_or("several")),
        };
        let kinds: Vec<&str> = FaultKind::ALL.iter().filter(|k| self.by_kind.contains_key(k)).map(|k| k.plural()).collect();
        let s = if self.schedules == 1 { "" } else { "s" };
        let mut out = format!("{} schedule{s} of {faults} ({}): none corrupted the data.", thousands(self.schedules), kinds.join(", "));
        if self.singles < self.singles_total {
            out.push_str(&format!(
                " {} of the {} one-fault schedules were run; raise the budget to run them all.",
                thousands(self.singles),
                thousands(self.singles_total)
            ));
        }
        if self.too_long > 0 {
            out.push_str(&format!(" {} ran too long to be judged.", thousands(self.too_long)));
        }
        out
    }
}

/// Where a fault of the smallest unsafe schedule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// The scenario had it, unchanged.
    AsWritten,
    /// The scenario had a fault of this kind on this actor; shrinking changed it.
    Changed,
    /// The search added it.
    Added,
}

/// The smallest unsafe schedule found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The scenario with the schedule found (run it to see the harm).
    pub scenario: Scenario,
    /// Its faults, each with where it comes from.
    pub faults: Vec<(Fault, Origin)>,
    /// Schedules run before the first unsafe one (0: the scenario is unsafe as written).
    pub after: usize,
    /// The unsafe schedule as first found, before shrinking.
    pub first: Vec<Fault>,
    /// Runs spent shrinking it.
    pub shrink_runs: usize,
    /// The verdict's headline on the smallest schedule.
    pub headline: &'static str,
}

impl Found {
    /// The scenario found, standing on its own (what `leaselab search --json` prints): its
    /// questions go (they ask about the run as written), and so do a fix or a challenge that no
    /// longer applies to the new schedule.
    pub fn standalone(&self) -> Scenario {
        let mut sc = self.scenario.clone();
        sc.title = format!("{}, with a schedule found by search", sc.title);
        sc.questions.clear();
        if matches!(sc.fixed(), Some(Err(_))) {
            sc.fix = None;
        }
        if sc.challenge.as_ref().is_some_and(|c| sc.with_settings(&c.solution).is_err()) {
            sc.challenge = None;
        }
        sc
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Found(Box<Found>, Coverage),
    NotFound(Coverage),
}

impl Outcome {
    pub fn coverage(&self) -> &Coverage {
        match self {
            Outcome::Found(_, c) | Outcome::NotFound(c) => c,
        }
    }
}

/// Where a fault of the result comes from, against the scenario's own faults.
pub(super) fn origin(base: &[Fault], f: &Fault) -> Origin {
    if base.contains(f) {
        return Origin::AsWritten;
    }
    let who = |f: &Fault| match f {
        Fault::Pause { actor, .. } | Fault::Crash { actor, .. } | Fault::Restart { actor, .. } => actor.clone(),
        Fault::ClockJump { actor, .. } | Fault::Drift { actor, .. } => actor.clone(),
        Fault::Partition { isolate, .. } => isolate.join(","),
        Fault::Delay { from, to, .. } | Fault::Drop { from, to, .. } => format!("{from}>{to}"),
        Fault::Failover { .. } => String::new(),
    };
    let same = |g: &Fault| std::mem::discriminant(g) == std::mem::discriminant(f) && who(g) == who(f);
    if base.iter().any(|g| same(g) && !base.iter().filter(|h| same(h)).any(|h| h == f)) {
        Origin::Changed
    } else {
        Origin::Added
    }
}
