//! The costs that are not harm (DESIGN §3.1): how long nobody could make progress although
//! nobody held the lock (Redlock's split votes, a node kept down), and work done twice where
//! doing it twice harms nothing (a cache entry rebuilt by two workers).

use super::{Cx, Findings};
use crate::scenario::WriteOp;
use crate::time::Micros;
use crate::trace::{ActorId, EventKind, Role};
use crate::verdict::{Cause, Finding, Kind};

/// A round that won no majority while nobody held the lock: when, whose, and how many votes.
struct Failed {
    at_us: Micros,
    client: ActorId,
    votes: usize,
}

pub(super) fn stalls(cx: &Cx, notes: &mut Findings) {
    let run = cx.run;
    let held = |t: Micros| run.grants.iter().any(|g| g.at_us <= t && t < g.term_end_us.min(g.released_us.unwrap_or(Micros::MAX)));
    let failed: Vec<Failed> = cx
        .picked
        .tallies
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
        let (from_us, until_us) = (g[0].at_us, next_grant(g[0].at_us));
        let down = down_lock_nodes(cx, from_us);
        let clients: crate::flat::Set<ActorId> = g.iter().map(|f| f.client).collect();
        let actors: Vec<ActorId> = clients.iter().copied().collect();
        if let Some((node, down_from_us, down_to_us)) = down {
            let cause = Cause::NodeDown { from_us, until_us, node, down_from_us, down_to_us };
            notes.add(Kind::Liveness, || Finding { property: Kind::Liveness, at_us: from_us, actors, cause, event: None });
        } else if clients.len() >= 2 && g.iter().all(|f| f.votes > 0) {
            let cause = Cause::VotesSplit { from_us, until_us, rounds: g.len() };
            notes.add(Kind::Liveness, || Finding { property: Kind::Liveness, at_us: from_us, actors, cause, event: None });
        }
    }
}

/// A derived entry rebuilt more than once: the lock saved no work, and cost no correctness.
pub(super) fn wasted(cx: &Cx, notes: &mut Findings) {
    let run = cx.run;
    let rebuilds: Vec<usize> = (0..run.applied.len()).filter(|&i| run.applied[i].op == WriteOp::Rebuild).collect();
    let [_, second, ..] = rebuilds[..] else { return };
    let mut actors: Vec<ActorId> = rebuilds.iter().map(|&i| run.applied[i].client).collect();
    actors.dedup();
    let w = &run.applied[second];
    notes.add(Kind::WastedWork, || Finding {
        property: Kind::WastedWork,
        at_us: w.at_us,
        actors,
        cause: Cause::Rebuilt { writes: rebuilds },
        event: Some(w.event),
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
