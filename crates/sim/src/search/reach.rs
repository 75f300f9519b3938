//! Which dangerous situations ([`Situation`]) a run reaches: what the search's coverage report
//! lists as reached or not (issue 51).

use crate::scenario::Situation;
use crate::time::Micros;
use crate::trace::{ActorId, EventKind, KeyEnd, Run};

/// The situations `run` reaches, of `wanted`.
pub fn reached(run: &Run, wanted: &[Situation]) -> Vec<Situation> {
    wanted.iter().copied().filter(|&s| reaches(run, s)).collect()
}

fn reaches(run: &Run, s: Situation) -> bool {
    match s {
        Situation::LateWrite => late_write(run),
        Situation::TwoHolders => two_holders(run),
        Situation::OlderToken => older_token(run),
        Situation::KeyLost => key_lost(run),
    }
}

/// A write from `client` reached the resource at `t`.
fn writes(run: &Run) -> impl Iterator<Item = (ActorId, Micros, Option<u64>)> + '_ {
    run.events.iter().filter_map(|e| match e.kind {
        EventKind::Accepted { client, token, .. } | EventKind::Rejected { client, token, .. } => Some((client, e.at_us, token)),
        EventKind::Duplicate { client, .. } | EventKind::Conflict { client, .. } => Some((client, e.at_us, None)),
        _ => None,
    })
}

/// A write reached the resource while its writer believed it held a grant whose term at the
/// service had ended.
fn late_write(run: &Run) -> bool {
    writes(run).any(|(client, t, _)| {
        let belief = run.intervals.beliefs.iter().filter(|b| b.client == client && b.from_us <= t).last();
        belief.and_then(|b| run.grants.get(b.grant)).is_some_and(|g| t >= g.term_at(t))
    })
}

fn two_holders(run: &Run) -> bool {
    let b = &run.intervals.beliefs;
    b.iter().enumerate().any(|(i, x)| b[i + 1..].iter().any(|y| y.client != x.client && x.from_us < y.to_us && y.from_us < x.to_us))
}

fn older_token(run: &Run) -> bool {
    let mut newest = None;
    for (_, _, token) in writes(run) {
        let Some(t) = token else { continue };
        if newest.is_some_and(|n| t < n) {
            return true;
        }
        newest = newest.max(Some(t));
    }
    false
}

/// A key lost (a crash or restart without persistence) or discarded (a demoted primary), or a
/// replica promoted without it, while the lease it held still ran.
fn key_lost(run: &Run) -> bool {
    let live = |owner: Option<ActorId>, t: Micros| run.grants.iter().any(|g| Some(g.client) == owner && g.at_us <= t && t < g.term_end_us);
    let lost = run.intervals.keys.iter().any(|k| k.end == KeyEnd::Lost && live(k.owner, k.to_us));
    lost || run.events.iter().any(|e| match e.kind {
        EventKind::Demoted { discarded, .. } => live(discarded, e.at_us),
        EventKind::Promoted => run.grants.iter().any(|g| {
            let holds =
                |k: &&crate::trace::KeySpan| k.node == e.actor && k.owner == Some(g.client) && k.from_us <= e.at_us && e.at_us < k.to_us;
            g.at_us <= e.at_us && e.at_us < g.term_end_us && !run.intervals.keys.iter().any(|k| holds(&k))
        }),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reached_by(id: &str) -> Vec<Situation> {
        let sc = crate::library::get(id).expect("in the library");
        reached(&crate::run(&sc).expect("runs"), Situation::ALL)
    }

    #[test]
    fn the_lessons_reach_what_they_are_about() {
        assert!(reached_by("gc-pause-unfenced").contains(&Situation::TwoHolders));
        assert!(reached_by("gc-pause-unfenced").contains(&Situation::LateWrite));
        assert!(reached_by("gc-pause-fenced").contains(&Situation::OlderToken));
        assert!(reached_by("failover-lost-lock").contains(&Situation::KeyLost));
        assert!(reached_by("lease-basics").is_empty());
    }
}
