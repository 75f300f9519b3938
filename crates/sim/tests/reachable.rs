//! Every run a reader can reach from the library, and every key moment shown on it, checked
//! against the run (issue 33: "make a false sentence impossible to ship").
//!
//! The runs: each scenario as written, with its fix, with its challenge's solution, with every
//! one-change edit of these three (`edits`), and every search find, with and without the fix, at
//! the default budget. On each, every shown moment's `when` must hold at its event
//! (`conditions`, evaluated apart from `Run::holds`), and what its words claim must be true of
//! the run (`claims`: the counter's value, whose key a delete touches, which token is larger, the
//! TTL, requests in flight, …). A failure names the scenario, the run and the sentence.

#[path = "reachable/claims.rs"]
mod claims;
#[path = "reachable/conditions.rs"]
mod conditions;
#[path = "reachable/edits.rs"]
mod edits;

use sim::{library, Scenario};

/// What was checked, and what was false.
#[derive(Default)]
struct Tally {
    runs: usize,
    sentences: usize,
    /// Sentences that their `when` alone would show but their witnesses hide (issue 49).
    hidden: usize,
    false_: Vec<String>,
}

impl Tally {
    /// Runs `sc` and checks every moment it shows.
    fn check(&mut self, id: &str, label: &str, sc: &Scenario) {
        let Ok(run) = sim::run(sc) else { return };
        self.runs += 1;
        let mut bare = sc.clone();
        bare.moments.iter_mut().for_each(|m| m.seen.clear());
        if let Ok(unwitnessed) = sim::run(&bare) {
            let shown = |r: &sim::Run| {
                sc.moments
                    .iter()
                    .filter(|m| r.find(&m.on).is_some_and(|id| r.moment(id).is_some_and(|t| t.contains(m.text.as_str()))))
                    .count()
            };
            self.hidden += shown(&unwitnessed) - shown(&run);
        }
        for e in run.moments() {
            let shown = run.moment(e.id).unwrap_or_default();
            for m in sc.moments.iter().filter(|m| run.find(&m.on) == Some(e.id) && shown.contains(m.text.as_str())) {
                self.sentences += 1;
                let mut wrong = conditions::failing(sc, &run, &m.when, e.id);
                wrong.extend(claims::false_claims(sc, &run, e.id, &m.text));
                if !wrong.is_empty() {
                    self.false_.push(format!("{id} [{label}] `{}`: {} — “{}”", m.on, wrong.join("; "), m.text));
                }
            }
        }
    }

    fn report(&self, what: &str) {
        eprintln!(
            "{what}: {} runs, {} shown sentences checked, {} false; {} hidden by their witnesses",
            self.runs,
            self.sentences,
            self.false_.len(),
            self.hidden
        );
        let mut list = self.false_.clone();
        list.sort();
        list.dedup();
        assert!(list.is_empty(), "{} false sentences on reachable runs:\n{}", list.len(), list.join("\n"));
    }
}

/// The scenario as written, with its fix, and with its challenge's solution.
fn starts(s: &Scenario) -> Vec<(String, Scenario)> {
    let mut out = vec![("as written".to_string(), s.clone())];
    if let Some(Ok(f)) = s.fixed() {
        out.push(("fixed".into(), f));
    }
    if let Some(Ok(c)) = sim::predict::solved(s) {
        out.push(("solved".into(), c));
    }
    out
}

#[test]
fn every_moment_is_true_on_the_library_runs_their_fixes_and_solutions() {
    let mut t = Tally::default();
    for s in library::all() {
        for (label, sc) in starts(&s) {
            t.check(&s.id, &label, &sc);
        }
    }
    t.report("as written, fixed, solved");
}

#[test]
fn every_moment_is_true_on_every_one_change_edit() {
    let mut t = Tally::default();
    let choices = edits::choices(&library::all());
    for s in library::all() {
        for (label, sc) in starts(&s) {
            for (edit, e) in edits::one_change(&sc, &choices) {
                t.check(&s.id, &format!("{label}, {edit}"), &e);
            }
        }
    }
    t.report("one-change edits");
}

#[test]
fn every_moment_is_true_on_every_search_find() {
    let mut t = Tally::default();
    for s in library::all() {
        for (label, sc) in starts(&s).into_iter().filter(|(l, _)| l != "solved") {
            if let Ok(sim::search::Outcome::Found(f, _)) = sim::search::search(&sc, Default::default()) {
                t.check(&s.id, &format!("{label}, search find"), &f.standalone());
            }
        }
    }
    t.report("search finds");
}

/// Predict mode stops the run as written at each question; what the question and its answer
/// say is checked there, at the event where it is asked.
#[test]
fn every_question_is_true_at_its_cursor() {
    let mut t = Tally::default();
    for s in library::all() {
        let Ok(run) = sim::run(&s) else { continue };
        t.runs += 1;
        for (i, q) in s.questions.iter().enumerate() {
            let Ok(a) = sim::predict::answer(&run, q) else { continue };
            t.sentences += 2;
            // The why tells what happens from the question to the proof: a claim in it must
            // be true where the run stops or just before the proof.
            let text = format!("{} {}", q.ask, q.why);
            let at = [a.asked, a.proof.saturating_sub(1).max(a.asked)];
            let wrong = claims::false_claims(&s, &run, a.asked, &text);
            if at.iter().all(|&e| !claims::false_claims(&s, &run, e, &text).is_empty()) {
                t.false_.push(format!("{} question {} at `{}`: {} — “{}”", s.id, i + 1, q.at, wrong.join("; "), q.why));
            }
        }
    }
    t.report("questions at their cursor");
}
