//! What a search reports: the smallest unsafe schedule it found ([`Found`], each fault with
//! its [`Origin`]), or what it covered ([`Coverage`] and its one-sentence statement).

use crate::flat::Map;

use serde::Serialize;

use super::FaultKind;
#[cfg(test)]
use crate::scenario::fault;
use crate::scenario::{Fault, Scenario};

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
        self.worded(" raise the budget to run them all")
    }

    /// The same, for a search stopped before its budget ran out (a time limit, a cancel): what
    /// was not run is not the budget's doing (issue 49, D5).
    pub fn stopped_statement(&self) -> String {
        self.worded(" the search was stopped before the rest")
    }

    fn worded(&self, why_not_all: &str) -> String {
        let faults = match self.max_faults {
            0 | 1 => "one added fault".to_string(),
            n => format!("up to {} added faults", ["", "one", "two", "three"].get(n).copied().unwrap_or("several")),
        };
        let kinds: Vec<&str> = FaultKind::ALL.iter().filter(|k| self.by_kind.contains_key(k)).map(|k| k.plural()).collect();
        let s = if self.schedules == 1 { "" } else { "s" };
        let own = match self.own {
            0 => String::new(),
            n => format!(", {} of them with one of the scenario's own faults moved, resized or removed", thousands(n)),
        };
        let mut out =
            format!("{} schedule{s} of {faults} ({}){own}: none corrupted the data.", thousands(self.schedules), kinds.join(", "));
        if self.singles < self.singles_total {
            out.push_str(&format!(
                " {} of the {} one-fault schedules were run;{why_not_all}.",
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
