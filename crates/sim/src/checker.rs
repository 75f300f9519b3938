//! The checker: [`check`] turns a run into a [`Verdict`].
//!
//! Following DESIGN §3.1, the verdict is about the protected data and effects. A run is
//! `unsafe` when it has a violation of one of the three [`PROPERTIES`]: a lost update, an
//! out-of-order write, or a duplicate effect. Lock-level anomalies (a double grant, a foreign
//! release or renewal, two clients believing they hold the lock, a token regression) are
//! hazards: they explain how harm came about, but do not by themselves make a run unsafe.
//!
//! The checker reasons from ground truth the resource cannot see: which grant each write was
//! made under, and when the client read what it wrote back.

use crate::scenario::Scenario;
use crate::time::fmt;
use crate::trace::{Applied, Run};
mod hazards;
mod stalls;
mod violations;

pub use crate::verdict::{Finding, Kind, Property, Safety, Verdict, PROPERTIES};
use hazards::*;
use violations::*;

/// How many findings of one kind a verdict writes out. The rest are counted in one note, so
/// that the checker's time and memory stay bounded whatever the run (DESIGN §3.1 asks for the
/// cause, and the first few of a kind show it).
pub const LISTED_PER_KIND: usize = 32;

struct Cx<'a> {
    run: &'a Run,
    sc: &'a Scenario,
}

/// Findings as they are found, at most [`LISTED_PER_KIND`] of each kind written out.
#[derive(Default)]
struct Findings {
    listed: Vec<Finding>,
    /// Per kind: how many were found.
    found: crate::flat::Map<&'static str, usize>,
}

impl Findings {
    /// Counts a finding of `property`, and builds it (its sentence is the costly part) only
    /// while there is room for it. Each pass adds its findings in time order, so the ones
    /// listed are the earliest.
    fn add(&mut self, property: Kind, make: impl FnOnce() -> Finding) {
        let n = self.found.entry(property.as_str()).or_insert(0);
        *n += 1;
        if *n <= LISTED_PER_KIND {
            self.listed.push(Finding { property, ..make() });
        }
    }

    /// The findings written out, and a note for each kind with more.
    fn finish(self) -> (Vec<Finding>, Vec<Finding>) {
        let omitted = self
            .found
            .iter()
            .filter(|(_, n)| **n > LISTED_PER_KIND)
            .map(|(property, n)| Finding {
                property: Kind::Omitted,
                // After the last one listed: the passes add their findings in time order.
                at_us: self.listed.iter().filter(|f| f.property.as_str() == *property).map(|f| f.at_us).max().unwrap_or(0),
                actors: vec![],
                explanation: format!(
                    "Only the first {LISTED_PER_KIND} {property} findings are listed; {} more are not.",
                    n - LISTED_PER_KIND
                ),
                event: None,
            })
            .collect();
        (self.listed, omitted)
    }
}

impl Cx<'_> {
    fn name(&self, a: usize) -> String {
        self.run.actors[a].name.clone()
    }

    fn token_phrase(&self, t: Option<u64>) -> String {
        t.map(|t| format!(" with token {t}")).unwrap_or_default()
    }

    /// Why a client's write was stale: pauses, partitions, a held message, an expired lease.
    fn why_stale(&self, w: &Applied) -> String {
        let run = self.run;
        let mut why = Vec::new();
        let sent = run.intervals.messages[w.msg].sent_us;
        let grant_at = w.grant.map(|g| run.grants[g].at_us).unwrap_or(0);
        // What began between its grant and its write's sending: a pause, a partition.
        for (spans, what) in [(&run.intervals.pauses, "was paused"), (&run.intervals.partitions, "was cut off by a partition")] {
            for p in spans.iter().filter(|p| p.actor == w.client && p.from_us >= grant_at && p.from_us <= sent) {
                why.push(format!("{} {what} from {} to {}", self.name(w.client), fmt(p.from_us), fmt(p.to_us)));
            }
        }
        let m = &run.intervals.messages[w.msg];
        if m.delayed {
            why.push(format!("its write was held in the network from {} to {}", fmt(m.sent_us), fmt(m.arrived_us)));
        }
        if let Some(b) = run.intervals.beliefs.iter().find(|b| Some(b.grant) == w.grant) {
            if b.valid_until_us < w.at_us {
                let whose = if why.is_empty() { format!("{}'s", self.name(w.client)) } else { "its".into() };
                why.push(format!("{whose} lease had run out at {} by its own clock", fmt(b.valid_until_us)));
            }
        }
        if why.is_empty() {
            // Not paused, not delayed, lease still valid: the lock service granted the lock again.
            let again =
                w.grant.and_then(|g| run.grants.iter().skip(g + 1).find(|n| n.at_us < run.grants[g].term_end_us && n.at_us < w.at_us));
            if let Some(n) = again {
                let g = w.grant.expect("a grant");
                why.push(format!(
                    "{}'s lease was still valid by its own clock when {} was granted the lock at {}: {}",
                    self.name(w.client),
                    self.name(n.client),
                    fmt(n.at_us),
                    conflict_cause(self, &run.grants[g], n)
                ));
            }
        }
        if why.is_empty() {
            String::new()
        } else {
            format!(" {}.", capitalize(&why.join("; ")))
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// Judges a finished run.
pub fn check(run: &Run, sc: &Scenario) -> Verdict {
    let cx = Cx { run, sc };
    let mut v = Findings::default();
    lost_updates(&cx, &mut v);
    out_of_order(&cx, &mut v);
    duplicates(&cx, &mut v);
    let (mut violations, mut omitted) = v.finish();
    crate::sort::by_key(&mut violations, |f: &Finding| (f.at_us, f.property.as_str()));
    let mut h = Findings::default();
    double_grants(&cx, &mut h);
    foreign_ops(&cx, &mut h);
    belief_overlaps(&cx, &mut h);
    token_regressions(&cx, &mut h);
    let (mut hazards, more) = h.finish();
    crate::sort::by_key(&mut hazards, |f: &Finding| (f.at_us, f.property.as_str()));
    omitted.extend(more);
    let mut n = Findings::default();
    liveness(&cx, &mut n);
    stalls::stalls(&cx, &mut n);
    stalls::wasted(&cx, &mut n);
    let (mut notes, more) = n.finish();
    notes.extend(omitted.into_iter().chain(more));
    let properties = PROPERTIES
        .iter()
        .map(|&(kind, meaning)| Property { name: kind.as_str(), holds: !violations.iter().any(|v| v.property == kind), meaning })
        .collect();
    Verdict { verdict: if violations.is_empty() { Safety::Safe } else { Safety::Unsafe }, properties, violations, hazards, notes }
}

#[cfg(test)]
mod tests;
