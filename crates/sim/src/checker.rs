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
//!
//! It writes no sentence: a finding holds its [`Cause`] as data, and [`words`] makes the
//! sentence from it when the finding is shown.

use crate::scenario::Scenario;
use crate::trace::{Applied, Event, EventKind, QuorumEvent, Run};
mod hazards;
mod stalls;
mod violations;
pub mod words;

use crate::verdict::Reason;
pub use crate::verdict::{Cause, Finding, Kind, Property, Safety, Verdict, PROPERTIES};
use hazards::*;
use violations::*;

/// How many findings of one kind a verdict writes out. The rest are counted in one note, so
/// that the checker's time and memory stay bounded whatever the run (DESIGN §3.1 asks for the
/// cause, and the first few of a kind show it).
pub const LISTED_PER_KIND: usize = 32;

struct Cx<'a> {
    run: &'a Run,
    sc: &'a Scenario,
    picked: Picked<'a>,
}

/// The few events the passes read, picked out of the run's events in one walk, in their order,
/// so that each pass reads its own rather than every event again.
#[derive(Default)]
struct Picked<'a> {
    /// External effects sent, not deduplicated (`duplicates`).
    effects: Vec<&'a Event>,
    /// Keys deleted or extended by another than their owner (`foreign_ops`).
    foreign: Vec<&'a Event>,
    /// Clients that gave up or stopped short (`liveness`).
    stops: Vec<&'a Event>,
    /// Quorums lost and leaders elected (`liveness`).
    quorum: Vec<&'a Event>,
    /// Redlock rounds that failed (`stalls`).
    tallies: Vec<&'a Event>,
}

fn pick(events: &[Event]) -> Picked<'_> {
    let mut p = Picked::default();
    for e in events {
        let list = match e.kind {
            EventKind::EffectSent { deduplicated: false, .. } => &mut p.effects,
            EventKind::KeyDeleted { foreign: true, .. } | EventKind::KeyExtended { foreign: true, .. } => &mut p.foreign,
            EventKind::GaveUp | EventKind::Done { completed: false } => &mut p.stops,
            EventKind::Quorum(QuorumEvent::NoQuorum { .. }) | EventKind::Quorum(QuorumEvent::LeaderElected { .. }) => &mut p.quorum,
            EventKind::Tally { ok: false, extend: false, .. } => &mut p.tallies,
            _ => continue,
        };
        list.push(e);
    }
    p
}

/// Findings as they are found, at most [`LISTED_PER_KIND`] of each kind written out.
#[derive(Default)]
struct Findings {
    listed: Vec<Finding>,
    /// Per kind, by name (the order of the notes of omitted findings): how many were found.
    found: crate::flat::Map<&'static str, (Kind, usize)>,
}

impl Findings {
    /// Counts a finding of `property`, and builds it (its cause may take a search of the run)
    /// only while there is room for it. Each pass adds its findings in time order, so the ones
    /// listed are the earliest.
    fn add(&mut self, property: Kind, make: impl FnOnce() -> Finding) {
        let (_, n) = self.found.entry(property.as_str()).or_insert((property, 0));
        *n += 1;
        if *n <= LISTED_PER_KIND {
            self.listed.push(Finding { property, ..make() });
        }
    }

    /// The findings written out, and a note for each kind with more.
    fn finish(self) -> (Vec<Finding>, Vec<Finding>) {
        let omitted = self
            .found
            .values()
            .filter(|(_, n)| *n > LISTED_PER_KIND)
            .map(|&(kind, n)| Finding {
                property: Kind::Omitted,
                // After the last one listed: the passes add their findings in time order.
                at_us: self.listed.iter().filter(|f| f.property == kind).map(|f| f.at_us).max().unwrap_or_default(),
                actors: vec![],
                cause: Cause::Omitted { kind, more: n - LISTED_PER_KIND },
                event: None,
            })
            .collect();
        (self.listed, omitted)
    }
}

impl Cx<'_> {
    /// Whom the partition that cut `client` off at `at_us` cut it off from, when it names them
    /// (its `from`); empty when it cut the client off from everyone.
    fn cut_from(&self, client: usize, at_us: crate::time::Micros) -> Vec<usize> {
        let name = &self.run.actors[client].name;
        self.sc
            .faults
            .iter()
            .find_map(|f| match f {
                crate::scenario::Fault::Partition(p) if p.at_ms.to_micros() == at_us && p.isolate.contains(name) => {
                    Some(p.from.iter().filter_map(|n| self.run.actors.iter().position(|a| a.name == *n)).collect())
                }
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Why a client's write was stale: pauses, partitions, a held message, an expired lease, or
    /// else a grant made to another client while its lease was still valid.
    fn why_stale(&self, w: &Applied) -> Vec<Reason> {
        let run = self.run;
        let mut why = Vec::new();
        let sent = run.intervals.messages[w.msg].sent_us;
        let grant_at = w.grant.map(|g| run.grants[g].at_us).unwrap_or_default();
        // What began between its grant and its write's sending: a pause, a partition.
        let began = |p: &&crate::trace::Span| p.actor == w.client && p.from_us >= grant_at && p.from_us <= sent;
        for p in run.intervals.pauses.iter().filter(began) {
            // Two pauses of the same span (a scenario's, and one added like it) are one.
            let r = Reason::Paused { client: w.client, from_us: p.from_us, to_us: p.to_us };
            if !why.contains(&r) {
                why.push(r);
            }
        }
        for p in run.intervals.partitions.iter().filter(began) {
            why.push(Reason::CutOff { client: w.client, from_us: p.from_us, to_us: p.to_us, apart: self.cut_from(w.client, p.from_us) });
        }
        let m = &run.intervals.messages[w.msg];
        if m.delayed {
            why.push(Reason::Held { client: w.client, from_us: m.sent_us, to_us: m.arrived_us });
        }
        if let Some(b) = run.intervals.beliefs.iter().find(|b| Some(b.grant) == w.grant) {
            if b.valid_until_us < w.at_us {
                why.push(Reason::LeaseRanOut { client: w.client, at_us: b.valid_until_us });
                if let Some(checked_us) = checked_at(run, w).filter(|&c| c < b.valid_until_us) {
                    why.push(Reason::CheckedBefore { checked_us, applied_us: w.at_us });
                }
            }
        }
        if why.is_empty() {
            // Not paused, not delayed, lease still valid: the lock service granted the lock again.
            let again = w.grant.and_then(|g| {
                let term_end_us = run.grants[g].term_end_us;
                (g + 1..run.grants.len()).find(|&i| run.grants[i].at_us < term_end_us && run.grants[i].at_us < w.at_us).map(|i| (g, i))
            });
            if let Some((g, i)) = again {
                let conflict = Box::new(conflict_cause(self, g, i));
                why.push(Reason::GrantedAgain { client: w.client, next: run.grants[i].client, at_us: run.grants[i].at_us, conflict });
            }
        }
        why
    }
}

/// When the resource checked write `w`'s token, in a step of its own before applying it
/// (check-then-write): the last check of the writer's token before the write.
pub(crate) fn checked_at(run: &Run, w: &Applied) -> Option<crate::time::Micros> {
    let checks = run.events.iter().take_while(|e| e.at_us < w.at_us);
    checks
        .filter_map(|e| matches!(e.kind, EventKind::Checked { client, token } if client == w.client && token == w.token).then_some(e.at_us))
        .last()
}

/// Judges a finished run.
pub fn check(run: &Run, sc: &Scenario) -> Verdict {
    let cx = Cx { run, sc, picked: pick(&run.events) };
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
