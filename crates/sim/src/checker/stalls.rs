//! The costs that are not harm (DESIGN §3.1): how long nobody could make progress although
//! nobody held the lock (Redlock's split votes, a node kept down), and work done twice where
//! doing it twice harms nothing (a cache entry rebuilt by two workers).

use super::{Cx, Findings};
use crate::scenario::WriteOp;
use crate::time::{fmt, Micros};
use crate::trace::{ActorId, EventKind, Role};
use crate::verdict::{Finding, Kind};

/// A round that won no majority while nobody held the lock: when, whose, and how many votes.
struct Failed {
    at_us: Micros,
    client: ActorId,
    votes: usize,
}

pub(super) fn stalls(cx: &Cx, notes: &mut Findings) {
    let run = cx.run;
    let held = |t: Micros| run.grants.iter().any(|g| g.at_us <= t && t < g.term_end_us.min(g.released_us.unwrap_or(Micros::MAX)));
    let failed: Vec<Failed> = run
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Tally { ok: false, extend: false, votes, .. } if !held(e.at_us) => {
                Some(Failed { at_us: e.at_us, client: e.actor, votes: votes.len() })
            }
            _ => None,
        })
        .collect();
    // Rounds between one grant and the next belong together.
    let next_grant = |t: Micros| run.grants.iter().map(|g| g.at_us).filter(|&g| g > t).min();
    let mut groups: Vec<Vec<&Failed>> = Vec::new();
    for f in &failed {
        match groups.last_mut() {
            Some(g) if next_grant(g[0].at_us) == next_grant(f.at_us) => g.push(f),
            _ => groups.push(vec![f]),
        }
    }
    for g in groups {
        let (from, until) = (g[0].at_us, next_grant(g[0].at_us));
        let until_text = until.map_or("the end of the run".to_string(), fmt);
        let down = down_lock_nodes(cx, from);
        let clients: crate::flat::Set<ActorId> = g.iter().map(|f| f.client).collect();
        let names: Vec<String> = clients.iter().map(|&c| cx.name(c)).collect();
        if let Some((node, span_from, span_to)) = down {
            notes.add(Kind::Liveness, || Finding {
                property: Kind::Liveness,
                at_us: from,
                actors: names.clone(),
                explanation: format!(
                    "From {} to {until_text} the rounds of {} won no majority although nobody held the lock: {} was down from {} to {} (a delayed restart keeps a node out until every lock it may have granted has expired). That wait is the price of keeping the lock safe.",
                    fmt(from),
                    names.join(" and "),
                    cx.name(node),
                    fmt(span_from),
                    fmt(span_to)
                ),
                event: None,
            });
        } else if clients.len() >= 2 && g.iter().all(|f| f.votes > 0) {
            notes.add(Kind::Liveness, || Finding {
                property: Kind::Liveness,
                at_us: from,
                actors: names.clone(),
                explanation: format!(
                    "The votes split: from {} to {until_text} none of {} won a majority although nobody held the lock ({} failed rounds). Random retry delays break the tie; until then nobody makes progress.",
                    fmt(from),
                    names.join(", "),
                    g.len()
                ),
                event: None,
            });
        }
    }
}

/// A derived entry rebuilt more than once: the lock saved no work, and cost no correctness.
pub(super) fn wasted(cx: &Cx, notes: &mut Findings) {
    let run = cx.run;
    let rebuilds: Vec<_> = run.applied.iter().filter(|w| w.op == WriteOp::Rebuild).collect();
    let [_, rest @ ..] = rebuilds.as_slice() else { return };
    if rest.is_empty() {
        return;
    }
    let mut names: Vec<String> = rebuilds.iter().map(|w| cx.name(w.client)).collect();
    names.dedup();
    let list: Vec<String> = rebuilds.iter().map(|w| format!("{} at {}", cx.name(w.client), fmt(w.at_us))).collect();
    notes.add(Kind::WastedWork, || Finding {
        property: Kind::WastedWork,
        at_us: rest[0].at_us,
        actors: names,
        explanation: format!(
            "The entry was rebuilt {} times ({}): {} of the rebuilds {} wasted work. Each wrote the same content, so no data was harmed: here the lock only saves work.",
            rebuilds.len(),
            list.join(", "),
            rest.len(),
            if rest.len() == 1 { "was" } else { "were" }
        ),
        event: Some(rest[0].event),
    });
}

/// A lock node down at `t`, with its down span.
fn down_lock_nodes(cx: &Cx, t: Micros) -> Option<(ActorId, Micros, Micros)> {
    let run = cx.run;
    run.intervals
        .downs
        .iter()
        .find(|d| run.actors[d.actor].role == Role::Redis && d.from_us <= t && t < d.to_us)
        .map(|d| (d.actor, d.from_us, d.to_us))
}
