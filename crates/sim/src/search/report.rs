//! What a search reports: the smallest unsafe schedule it found ([`Found`], each fault with
//! its [`Origin`]), or what it covered ([`Coverage`] and its one-sentence statement).

use crate::flat::Map;

use serde::Serialize;

use super::FaultKind;
#[cfg(test)]
use crate::scenario::fault;
use crate::scenario::{Fault, Scenario, Situation};

/// What a search tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Schedules run (the run as written not counted, nor the runs spent shrinking).
    pub schedules: usize,
    /// The most faults added to one schedule that was run.
    pub max_faults: usize,
    /// One-fault schedules run, of how many there are.
    pub singles: usize,
    pub singles_total: usize,
    /// Two-fault schedules run, of how many there are.
    pub pairs: usize,
    pub pairs_total: u64,
    /// Random schedules run.
    pub random: usize,
    /// Schedules that moved, resized or removed one of the scenario's own faults.
    pub own: usize,
    /// Schedules run with each kind of fault among those added.
    pub by_kind: Map<FaultKind, usize>,
    /// Schedules not judged: their run needed more events than allowed.
    pub too_long: usize,
    /// The most faults the search was asked to add.
    pub asked: usize,
    /// Schedules run by the bounded part (one or two in each order class).
    pub class_runs: usize,
    /// Distinct behaviours among the bounded part's runs and the run as written.
    pub behaviours: usize,
    /// Every order class of up to this many faults was run (0: not yet every one of one).
    pub complete: usize,
    /// Of one fault, while not complete: the places (a start, or a stretch of work) walked, of
    /// all.
    pub places: usize,
    pub places_total: usize,
    /// One-fault runs that behaved in a way of their own, and how many of them had a second
    /// fault added in every order class.
    pub firsts: usize,
    pub firsts_done: usize,
    /// The dangerous situations the lock service's runs can reach, and whether a run of the
    /// search (or the run as written) reached each.
    pub reached: Map<Situation, bool>,
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
        self.worded(" raise the budget to run them all", true)
    }

    /// The statement without the situations reached and not (a page lists them): `stopped`,
    /// for a search stopped before its budget ran out.
    pub fn bounds(&self, stopped: bool) -> String {
        self.worded(if stopped { " the search was stopped before the rest" } else { " raise the budget to run them all" }, false)
    }

    /// The same, for a search stopped before its budget ran out (a time limit, a cancel): what
    /// was not run is not the budget's doing (issue 49, D5).
    pub fn stopped_statement(&self) -> String {
        self.worded(" the search was stopped before the rest", true)
    }

    fn worded(&self, why_not_all: &str, reach: bool) -> String {
        let t = thousands;
        let kinds: Vec<&str> = FaultKind::ALL.iter().filter(|k| self.by_kind.contains_key(k)).map(|k| k.plural()).collect();
        let s = if self.schedules == 1 { "" } else { "s" };
        let mut out = match self.complete {
            0 => format!("None of {} schedule{s} corrupted the data.", t(self.schedules)),
            n => format!(
                "No schedule of up to {} breaks it within these bounds: {} schedule{s}, {} of them in the order classes ({}), {} runs with a different sequence of events.",
                count(n, "added fault"),
                t(self.schedules),
                t(self.class_runs),
                if n == 1 {
                    "every way the fault can fall among the run's events and deadlines"
                } else {
                    "every way one fault can fall among the run's events and deadlines, and a second among those of each one-fault run with a sequence of its own"
                },
                t(self.behaviours),
            ),
        };
        if self.complete > 0 {
            out.push_str(" The bounds: faults on a 1 ms grid, the network's timing as the scenario draws it, and a second fault added to one run of each sequence rather than to every run.");
        }
        if !kinds.is_empty() {
            out.push_str(&format!(" Faults tried: {}.", kinds.join(", ")));
        }
        if self.own > 0 {
            out.push_str(&format!(" {} schedules moved, resized or removed one of the scenario's own faults.", t(self.own)));
        }
        let asked = self.asked.clamp(1, 2);
        match self.complete {
            0 if self.places_total > 0 => out.push_str(&format!(
                " Not every order class of one added fault was run: {} of {} places walked;{why_not_all}.",
                t(self.places),
                t(self.places_total)
            )),
            0 => out.push_str(&format!(" The order classes of one added fault were not started;{why_not_all}.")),
            1 if asked == 2 => out.push_str(&format!(
                " Of two faults: a second was added in every order class to {} of the {} one-fault runs with a sequence of events of their own;{why_not_all}.",
                t(self.firsts_done),
                t(self.firsts)
            )),
            _ => {}
        }
        let reached: Vec<&str> = self.reached.iter().filter(|(_, r)| **r).map(|(s, _)| s.words()).collect();
        let missed: Vec<&str> = self.reached.iter().filter(|(_, r)| !**r).map(|(s, _)| s.words()).collect();
        if reach && !reached.is_empty() {
            out.push_str(&format!(" Reached, without harm: {}.", reached.join("; ")));
        }
        if reach && !missed.is_empty() {
            out.push_str(&format!(" Not reached: {}.", missed.join("; ")));
        }
        if reach && self.reached.len() < Situation::ALL.len() {
            let other: Vec<&str> = Situation::ALL.iter().filter(|s| !self.reached.contains_key(s)).map(|s| s.words()).collect();
            out.push_str(&format!(" Not possible with this lock service: {}.", other.join("; ")));
        }
        match (self.asked, self.random) {
            (3, 0) => out.push_str(" Not checked: three faults (no random schedule of three ran)."),
            (3, n) => out.push_str(&format!(
                " Three faults: {} random schedules of three found nothing; if at least 1 in {} such random schedules broke it, a search this long would have found one with 95 % chance (every schedule of three was not tried).",
                t(n),
                t((n / 3).max(1))
            )),
            _ => out.push_str(&format!(" Not checked: {} or more faults at once.", asked + 1)),
        }
        if self.too_long > 0 {
            out.push_str(&format!(" {} ran too long to be judged.", t(self.too_long)));
        }
        out
    }
}

/// `one added fault`, `two added faults`.
fn count(n: usize, what: &str) -> String {
    let word = ["no", "one", "two", "three"].get(n).copied().unwrap_or("several");
    format!("{word} {what}{}", if n == 1 { "" } else { "s" })
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
    /// For each of `faults`, the scenario's own fault it was, if it is one changed.
    pub was: Vec<Option<Fault>>,
    /// The scenario's own faults that the schedule found does not have.
    pub removed: Vec<Fault>,
    /// Which schedule of the search was the first unsafe one (1 for the first schedule run;
    /// 0: the scenario is unsafe as written).
    pub after: usize,
    /// The unsafe schedule as first found, before shrinking.
    pub first: Vec<Fault>,
    /// Runs spent shrinking it.
    pub shrink_runs: usize,
    /// The verdict's headline on the smallest schedule.
    pub headline: &'static str,
}

impl Found {
    /// `base` with `faults`, each fault with where it comes from (not yet told, run or shrunk).
    pub(super) fn of(base: &Scenario, faults: Vec<Fault>) -> Found {
        let scenario = Scenario { faults, ..base.clone() };
        let (origins, removed) = origins(&base.faults, &scenario.faults);
        let was = origins.iter().map(|(_, i)| i.map(|i| base.faults[i].clone())).collect();
        let faults = scenario.faults.iter().cloned().zip(origins.into_iter().map(|(o, _)| o)).collect();
        let removed = removed.into_iter().map(|i| base.faults[i].clone()).collect();
        Found { scenario, faults, was, removed, after: 0, first: Vec::new(), shrink_runs: 0, headline: "" }
    }

    /// What the search changed, in one sentence: `added: Pause A at 3 s for 7 s; removed: …`.
    pub fn changes(&self) -> String {
        let mut parts = Vec::new();
        let list = |o: Origin| -> Vec<String> {
            let faults = self.faults.iter().zip(&self.was).filter(|((_, k), _)| *k == o);
            faults.map(|((f, _), was)| was.as_ref().map_or(f.describe(), |w| format!("{} (was: {})", f.describe(), w.describe()))).collect()
        };
        for (label, items) in [("added", list(Origin::Added)), ("changed", list(Origin::Changed))] {
            if !items.is_empty() {
                parts.push(format!("{label}: {}", items.join("; ")));
            }
        }
        if !self.removed.is_empty() {
            parts.push(format!("removed: {}", self.removed.iter().map(Fault::describe).collect::<Vec<_>>().join("; ")));
        }
        if parts.is_empty() {
            "no change to its faults".into()
        } else {
            parts.join("; ")
        }
    }

    /// The scenario found, with words of its own: its story and setup say what the search
    /// changed (the story as written was about the schedule it started from), and the notices,
    /// the questions and the challenge, which were about the run as written, go (Undo brings
    /// them back). Its key moments stay, each shown only where its condition holds on the new run.
    pub(super) fn told(&self) -> Scenario {
        let mut sc = self.scenario.clone();
        if self.unchanged() {
            // Unsafe as written, and nothing to make smaller: its own story tells this run.
            return sc;
        }
        let changes = self.changes();
        sc.setup = format!("{}, with a fault schedule changed by a search ({changes}).", sc.title);
        sc.story = format!(
            "\u{201c}Can this break?\u{201d} changed this scenario's faults ({changes}). The story as written was about the schedule it started from; this run is told by its timeline, the key moments that still hold on it, and its verdict."
        );
        sc.notice.clear();
        sc.questions.clear();
        sc.challenge = None;
        sc
    }

    /// Whether the schedule found is the scenario's own, unchanged (unsafe as written, and
    /// shrinking made nothing smaller).
    pub fn unchanged(&self) -> bool {
        self.removed.is_empty() && self.faults.iter().all(|(_, o)| *o == Origin::AsWritten)
    }

    /// The scenario found, standing on its own (what `leaselab search --json` prints and
    /// `--save` writes): its title says so, and its fix goes, whose explanation was written
    /// for the schedule as written (issue 49: "A's 33 is refused" on a find where it lands
    /// first). Its questions and challenge are gone already ([`Found::told`]). Unchanged, it is
    /// the scenario as it was.
    pub fn standalone(&self) -> Scenario {
        let mut sc = self.scenario.clone();
        if !self.unchanged() {
            // The lesson's title claims what its own schedule shows (“delays during acquisition
            // are caught”): the find is named as coming from it, not as showing it.
            sc.title = format!("A schedule found by search, from “{}”", sc.title);
            sc.fix = None;
        }
        sc
    }
}

/// `base` with `faults`, told as a search's find is ([`Found::told`]): what an address that
/// carries only a find's faults (`&told=1`) opens as.
pub fn retold(base: &Scenario, faults: Vec<Fault>) -> Scenario {
    Found::of(base, faults).told()
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

/// Where each fault of the result comes from, against the scenario's own faults, each of which
/// accounts for at most one: first the faults kept as they were, then those changed (the same
/// kind, on the same actor), and the rest were added.
/// Also returns, for a changed fault, the index of the scenario's fault it was, and the indices
/// of the scenario's faults that account for none (removed).
pub(super) fn origins(base: &[Fault], found: &[Fault]) -> (Vec<(Origin, Option<usize>)>, Vec<usize>) {
    let mut used = vec![false; base.len()];
    let mut out = vec![(Origin::Added, None); found.len()];
    for (f, o) in found.iter().zip(&mut out) {
        if let Some(i) = (0..base.len()).find(|&i| !used[i] && base[i] == *f) {
            used[i] = true;
            o.0 = Origin::AsWritten;
        }
    }
    for (f, o) in found.iter().zip(&mut out) {
        if o.0 != Origin::Added {
            continue;
        }
        let same = |g: &Fault| std::mem::discriminant(g) == std::mem::discriminant(f) && g.who() == f.who();
        if let Some(i) = (0..base.len()).find(|&i| !used[i] && same(&base[i])) {
            used[i] = true;
            *o = (Origin::Changed, Some(i));
        }
    }
    (out, (0..base.len()).filter(|&i| !used[i]).collect())
}

impl Origin {
    /// In a few words, for a list of faults.
    pub fn label(self) -> &'static str {
        match self {
            Origin::AsWritten => "unchanged",
            Origin::Changed => "changed",
            Origin::Added => "added",
        }
    }
}

impl Coverage {
    /// Marks situations reached.
    pub(super) fn reach(&mut self, reached: &[Situation]) {
        for s in reached {
            self.reached.insert(*s, true);
        }
    }

    /// What the bounded part covered.
    pub(super) fn covered(&mut self, b: super::bounded::Covered) {
        (self.behaviours, self.complete, self.firsts, self.firsts_done) = (b.behaviours, b.complete, b.firsts, b.firsts_done);
        (self.places, self.places_total) = b.places;
    }

    /// Schedules run with each kind of fault: `pauses 1,570 · delays 539`.
    pub fn tally(&self) -> String {
        let kinds: Vec<String> = self.by_kind.iter().map(|(k, n)| format!("{} {}", k.plural(), thousands(*n))).collect();
        kinds.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Millis;

    fn pause(actor: &str, at_ms: u64, duration_ms: u64) -> Fault {
        Fault::Pause(fault::Pause { actor: actor.into(), at_ms: Millis::new(at_ms), duration_ms: Millis::new(duration_ms) })
    }

    #[test]
    fn each_fault_of_the_scenario_accounts_for_one_of_the_result() {
        let base = [pause("A", 1500, 25_000)];
        // The scenario's pause kept, and another of A added: not "changed".
        assert_eq!(
            origins(&base, &[pause("A", 1500, 25_000), pause("A", 9000, 100)]).0,
            vec![(Origin::AsWritten, None), (Origin::Added, None)]
        );
        // Shortened: changed (from the scenario's fault 0); a second one on A: added.
        assert_eq!(
            origins(&base, &[pause("A", 1500, 9000), pause("A", 9000, 100)]).0,
            vec![(Origin::Changed, Some(0)), (Origin::Added, None)]
        );
        // A pause of B instead: A's is removed, and named.
        assert_eq!(origins(&base, &[pause("B", 1500, 25_000)]), (vec![(Origin::Added, None)], vec![0]));
    }
}
