//! Two runs side by side: the run on screen and another of the same story ([`Other`]), on one
//! time axis with one cursor. The other run is the one before the reader's last change (a
//! search's result included), or the run with its fix, or without it.

use sim::facts::Facts;
use sim::scenario::Scenario;
use sim::time::Micros;
use sim::Run;

use super::{simulate, ByPtr, Screen};

/// What the run on screen is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The scenario before the last change (an edit, the fix, a search's schedule).
    Before,
    /// The scenario with its one-click fix.
    Fix,
    /// The scenario as written (when the fix is on).
    AsWritten,
}

impl Against {
    /// Its name in an address (`&compare=fix`).
    pub fn name(self) -> &'static str {
        match self {
            Against::Before => "before",
            Against::Fix => "fix",
            Against::AsWritten => "as-written",
        }
    }

    /// The comparison an address names, or what is wrong with the name.
    pub fn from_name(name: &str) -> Result<Against, String> {
        [Against::Before, Against::Fix, Against::AsWritten]
            .into_iter()
            .find(|a| a.name() == name)
            .ok_or_else(|| format!("its comparison “{}” is none of before, fix and as-written", name.chars().take(40).collect::<String>()))
    }
}

/// The other run of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Other {
    pub against: Against,
    /// What it is, in words: "Before your last change".
    pub label: String,
    pub scenario: ByPtr<Scenario>,
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    /// When the runs part, and the first event where they differ: (true time, index in the
    /// run on screen, index in this one). See `sim::compare::parting`.
    pub parting: Option<(Micros, usize, usize)>,
}

impl Screen {
    /// What the run on screen can be compared with, most relevant first.
    pub fn comparable(&self) -> Vec<Against> {
        let mut out = Vec::new();
        if !self.undo.is_empty() {
            out.push(Against::Before);
        }
        if !self.as_written {
            out.push(Against::AsWritten);
        }
        if !self.fixed() && self.original.fix.is_some() {
            out.push(Against::Fix);
        }
        out
    }

    /// The other run for `against`, or why there is none.
    pub(crate) fn other(&self, against: Against) -> Result<Other, String> {
        let (scenario, label) = match against {
            Against::Before => {
                let (sc, ..) = self.undo.last().ok_or("there is no change to compare with")?;
                (sc.clone(), "Before your last change".to_string())
            }
            Against::Fix => {
                let fix = self.original.fix.as_ref().ok_or("this scenario has no fix")?;
                let sc = self.scenario.with_settings(&fix.set).map_err(|e| format!("the fix does not apply: {e}"))?;
                (ByPtr::new(sc), format!("With the fix: {}", fix.label))
            }
            Against::AsWritten => (self.original.clone(), "As written".to_string()),
        };
        let run = simulate(&scenario)?;
        let parting = sim::compare::parting((&self.run, &self.scenario), (&run, &scenario));
        Ok(Other { against, label, scenario, facts: ByPtr::new(Facts::of(&run)), run: ByPtr::new(run), parting })
    }

    /// This screen comparing its run with the run with its fix (or, with the fix on, as
    /// written): an embed's `compare=fix`. Unchanged if the scenario has no fix.
    pub fn comparing_fix(mut self) -> Screen {
        let against = if self.fixed() { Against::AsWritten } else { Against::Fix };
        self.compare = self.other(against).ok().map(ByPtr::new);
        self
    }

    /// The comparison in an address: `&compare=<name>`, and for the run before the last change,
    /// that change taken back as `&was=<path>=<value>` (what turns the run shown into it); empty
    /// when nothing is compared, or when the change cannot be carried (then the link opens
    /// without the comparison rather than with another).
    pub fn compare_query(&self) -> String {
        let Some(o) = &self.compare else { return String::new() };
        if o.against != Against::Before {
            return format!("&compare={}", o.against.name());
        }
        let Some(was) = crate::share::as_changes(&self.scenario, &o.scenario) else { return String::new() };
        was.iter().fold("&compare=before".to_string(), |q, w| format!("{q}&was={w}"))
    }

    /// This screen comparing as an address says (`compare`, with `was` for the run before the
    /// last change, which becomes the change Undo takes back), or the reason it cannot, in
    /// words for the reader: the run stays as opened.
    pub fn comparing(self, compare: &str, was: &[String]) -> Result<Screen, String> {
        let against = Against::from_name(compare)?;
        let mut s = self;
        if against == Against::Before {
            if was.is_empty() {
                return Err("its comparison with the run before a change does not say what that change was (no `was=`)".into());
            }
            let before = crate::share::apply(&s.scenario, was, "of its compared run", "its compared run's changes")?;
            s.undo.push((ByPtr::new(before), s.fix_undo.clone(), None));
        } else if !was.is_empty() {
            return Err(format!("`was=` belongs to a comparison with the run before a change, not with “{compare}”"));
        }
        if !s.comparable().contains(&against) {
            return Err(match against {
                Against::Fix if s.fixed() => "it compares with the fix, which is already on".into(),
                Against::Fix => "it compares with the fix, but this scenario has none".into(),
                _ => "it compares with the run as written, which is the run it opens".into(),
            });
        }
        let other = s.other(against)?;
        s.compare = Some(ByPtr::new(other));
        Ok(s)
    }

    /// The comparison brought up to date with the run on screen: kept on the same kind of run
    /// if it still exists, else on the next one available, else closed.
    pub(crate) fn recompare(mut self) -> Screen {
        let Some(was) = self.compare.as_ref().map(|o| o.against) else { return self };
        let choices = self.comparable();
        let pick = if choices.contains(&was) { Some(was) } else { choices.first().copied() };
        // The other run unchanged (the run before a drag, during the drag): only the parting moves.
        let same = |o: &Other| match o.against {
            Against::Before => self.undo.last().is_some_and(|(sc, ..)| *sc == o.scenario),
            Against::AsWritten => o.scenario == self.original,
            Against::Fix => false,
        };
        let kept = self
            .compare
            .as_ref()
            .filter(|o| Some(o.against) == pick && same(o))
            .map(|o| Other { parting: sim::compare::parting((&self.run, &self.scenario), (&o.run, &o.scenario)), ..(**o).clone() });
        self.compare = kept.or_else(|| pick.and_then(|a| self.other(a).ok())).map(ByPtr::new);
        self
    }
}
