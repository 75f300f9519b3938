//! The hazards and notes that explain a verdict: double grants and their cause, foreign
//! releases and renewals, overlapping beliefs, token regressions, liveness.

use super::{Cx, Findings};
use crate::time::Micros;
use crate::trace::{EventKind, Grant, KeyEnd, MsgFate, QuorumEvent, Role, ServiceEvent};
use crate::verdict::{Cause, Conflict, Finding, Forgot, KeyGone, Kind};
use crate::wire::pacemaker::Event as PairEvent;

/// Why grant `i2` could be made while grant `i1` was still promised: the failure that made the
/// lock service forget `i1`.
pub(super) fn conflict_cause(cx: &Cx, i1: usize, i2: usize) -> Conflict {
    let run = cx.run;
    let (g1, g2) = (&run.grants[i1], &run.grants[i2]);
    // How `node`'s key (`key`, if it had one) went away.
    let gone = |node: usize, key: Option<&crate::trace::KeySpan>| -> KeyGone {
        match key.map(|k| (k.end, k.to_us)) {
            Some((KeyEnd::Lost, at_us)) => KeyGone::Lost { at_us },
            Some((KeyEnd::Deleted, at_us)) => {
                let by = run.events.iter().find_map(|e| match e.kind {
                    EventKind::KeyDeleted { by, foreign: true, .. } if e.at_us == at_us && e.actor == node => Some(by),
                    _ => None,
                });
                match by {
                    Some(by) => KeyGone::DeletedBy { by, at_us },
                    None => KeyGone::Deleted { at_us },
                }
            }
            Some((KeyEnd::Expired, at_us)) => {
                match run.intervals.jumps.iter().find(|jm| jm.actor == node && jm.at_us <= at_us && jm.by_us.is_positive()) {
                    Some(jm) => KeyGone::Jumped { by_us: jm.by_us, at_us: jm.at_us },
                    None => {
                        // A clock that runs fast reaches the expiry early in true time.
                        let clock = &run.clocks[node];
                        let gained_us = clock.offset_at(at_us) - clock.offset_at(g1.at_us);
                        if gained_us.is_positive() {
                            KeyGone::RanFast { gained_us, at_us }
                        } else {
                            KeyGone::Expired { at_us }
                        }
                    }
                }
            }
            _ => KeyGone::Unknown,
        }
    };
    // How a node that voted for both came to vote twice: the key it set first (each grant's is
    // the last it set for that client before the grant was counted) ended before the second
    // was set. The first key is not always the earlier grant's: a Redlock client paused in the
    // middle of its round counts a vote it was given long before.
    let forgot = |node: usize| -> Forgot {
        let key_of = |g: &Grant| run.intervals.keys.iter().rfind(|k| k.node == node && k.owner == Some(g.client) && k.from_us <= g.at_us);
        let (g, key) = match (key_of(g1), key_of(g2)) {
            (Some(k1), Some(k2)) if k2.from_us < k1.from_us => (g2, Some(k2)),
            (k1, _) => (g1, k1),
        };
        let counted_at_us = key.filter(|k| k.to_us < g.at_us).map(|_| g.at_us);
        Forgot { node, owner: g.client, gone: gone(node, key), counted_at_us }
    };
    if run.actors[g1.node].role == Role::Member {
        let unchecked =
            |g: &Grant| matches!(run.events[g.event].kind, EventKind::Quorum(QuorumEvent::LockGranted { key_exists: false, .. }));
        let (bad, _) = if unchecked(g1) { (g1, g2) } else { (g2, g1) };
        if unchecked(bad) {
            return Conflict::SessionUnchecked { client: bad.client };
        }
        return Conflict::LeaseAlive { holder: g1.client, next: g2.client };
    }
    // A failover pair: the second node took over once it had declared the first dead.
    let declared = run.events[..g2.event].iter().rev().find_map(|e| match e.kind {
        EventKind::Service(ServiceEvent::Pacemaker(PairEvent::PeerDead { peer, silent_us, .. }))
            if e.actor == g2.client && peer == g1.client =>
        {
            Some((silent_us, e.at_us))
        }
        _ => None,
    });
    if let Some((silent_us, at_us)) = declared {
        return Conflict::DeclaredDead { holder: g1.client, next: g2.client, silent_us, at_us };
    }
    if run.actors[g1.node].role == Role::Client {
        // Redlock: two majorities; the nodes they share voted twice.
        let shared = g2.votes.iter().copied().filter(|n| g1.votes.contains(n)).map(forgot).collect();
        return Conflict::Majorities { first: i1, second: i2, shared };
    }
    if g1.node != g2.node {
        if cx.sc.lock.sentinel && !down_at(cx, g1.node, g2.at_us) {
            // Sentinel's failover leaves a primary that is up running (SEMANTICS §1.5).
            let demoted_us = cx.run.events.iter().find_map(|e| match e.kind {
                EventKind::Demoted { .. } if e.actor == g1.node && e.at_us <= g2.at_us => Some(e.at_us),
                _ => None,
            });
            let copy = run.intervals.keys.iter().rfind(|k| k.node == g2.node && k.owner == Some(g1.client) && k.from_us <= g2.at_us);
            let copy = copy.map(|k| Forgot { node: g2.node, owner: g1.client, gone: gone(g2.node, Some(k)), counted_at_us: None });
            return Conflict::Split { old: g1.node, holder: g1.client, promoted: g2.node, demoted_us, copy };
        }
        return Conflict::Failover { failed: g1.node, holder: g1.client, promoted: g2.node };
    }
    Conflict::Forgot(forgot(g1.node))
}

pub(super) fn double_grants(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    // Per client, its earlier grant promised the longest: the one that can overlap a new grant.
    let mut longest: Vec<Option<usize>> = vec![None; run.actors.len()];
    for (j, g2) in run.grants.iter().enumerate() {
        let mut overlapping: Vec<usize> = longest
            .iter()
            .flatten()
            .copied()
            .filter(|&i| run.grants[i].client != g2.client && run.grants[i].term_end_us > g2.at_us)
            .collect();
        crate::sort::by(&mut overlapping, Ord::cmp);
        for i in overlapping {
            out.add(Kind::DoubleGrant, || Finding {
                property: Kind::DoubleGrant,
                at_us: g2.at_us,
                actors: vec![run.grants[i].client, g2.client],
                cause: Cause::DoubleGrant { earlier: i, grant: j, conflict: conflict_cause(cx, i, j) },
                event: Some(g2.event),
            });
        }
        let slot = &mut longest[g2.client];
        if slot.is_none_or(|i| run.grants[i].term_end_us < g2.term_end_us) {
            *slot = Some(j);
        }
    }
}

pub(super) fn foreign_ops(cx: &Cx, out: &mut Findings) {
    for &e in &cx.picked.foreign {
        let (kind, cause, owner, by) = match e.kind {
            EventKind::KeyDeleted { owner, by, foreign: true } => (Kind::ForeignRelease, Cause::ForeignRelease { by, owner }, owner, by),
            EventKind::KeyExtended { owner, by, foreign: true } => (Kind::ForeignRenew, Cause::ForeignRenew { by, owner }, owner, by),
            _ => continue,
        };
        // A key whose owner is unknown leaves it out of the actors (Redis's lock key has one).
        let actors = [Some(by), owner].into_iter().flatten().collect();
        out.add(kind, || Finding { property: kind, at_us: e.at_us, actors, cause, event: Some(e.id) });
    }
}

/// For each pair of clients, the first time both believed they held the lock.
pub(super) fn belief_overlaps(cx: &Cx, out: &mut Findings) {
    let b = &cx.run.intervals.beliefs;
    let mut of_client: crate::flat::Map<usize, Vec<&crate::trace::Belief>> = crate::flat::Map::new();
    for x in b {
        of_client.entry(x.client).or_default().push(x);
    }
    let clients: Vec<&Vec<&crate::trace::Belief>> = of_client.values().collect();
    let mut first: Vec<(&crate::trace::Belief, &crate::trace::Belief)> = Vec::new();
    for (i, xs) in clients.iter().enumerate() {
        for ys in &clients[i + 1..] {
            // A client's beliefs follow one another in time: walk both lists together.
            let (mut p, mut q) = (0, 0);
            while let (Some(x), Some(y)) = (xs.get(p), ys.get(q)) {
                if x.from_us.max(y.from_us) < x.to_us.min(y.to_us) {
                    first.push((x, y));
                    break;
                }
                if x.to_us <= y.to_us {
                    p += 1;
                } else {
                    q += 1;
                }
            }
        }
    }
    crate::sort::by_key(&mut first, |(x, y)| x.from_us.max(y.from_us));
    for (x, y) in first {
        let from = x.from_us.max(y.from_us);
        // The earlier holder outlived its lease (or both were granted at once).
        let (old, new) = if x.from_us <= y.from_us { (x, y) } else { (y, x) };
        out.add(Kind::BeliefOverlap, || Finding {
            property: Kind::BeliefOverlap,
            at_us: from,
            actors: vec![old.client, new.client],
            cause: Cause::BeliefOverlap {
                holder: old.client,
                held_until_us: old.to_us,
                valid_until_us: old.valid_until_us,
                next: new.client,
                from_us: new.from_us,
            },
            event: None,
        });
    }
}

/// Whether `node` was down (crashed, not yet restarted) at `at_us`.
fn down_at(cx: &Cx, node: usize, at_us: Micros) -> bool {
    cx.run.intervals.downs.iter().any(|d| d.actor == node && d.from_us <= at_us && at_us < d.to_us)
}

pub(super) fn token_regressions(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    // The node whose grant to `client` carried `token` (a Redis primary's INCR, or a member's).
    let node_of = |client: usize, token: u64| run.grants.iter().find(|g| g.client == client && g.token == Some(token)).map(|g| g.node);
    let mut best: Option<(Micros, u64, usize)> = None;
    for &(at, t, to) in &run.tokens {
        if let Some((bat, bt, bto)) = best {
            if t <= bt {
                let regression = Cause::TokenRegression { token: t, to, at_us: at, highest: bt, highest_to: bto, highest_at_us: bat };
                // Two primaries at once, each with its own counter (Sentinel's split), rather
                // than one counter lost.
                let cause = match (node_of(bto, bt), node_of(to, t)) {
                    (Some(old), Some(new)) if cx.sc.lock.sentinel && old != new && !down_at(cx, old, at) => {
                        Cause::TokenSplit { token: t, to, at_us: at, highest: bt, highest_to: bto, highest_at_us: bat, old, new }
                    }
                    _ => regression,
                };
                out.add(Kind::TokenRegression, || Finding {
                    property: Kind::TokenRegression,
                    at_us: at,
                    actors: vec![to, bto],
                    cause,
                    event: None,
                });
            }
        }
        if best.is_none_or(|(_, bt, _)| t > bt) {
            best = Some((at, t, to));
        }
    }
}

pub(super) fn liveness(cx: &Cx, notes: &mut Findings) {
    let run = cx.run;
    // A holder that crashed: the lock stays taken until its key expires.
    for d in &run.intervals.downs {
        if run.actors[d.actor].role != Role::Client {
            continue;
        }
        if let Some(k) = run.intervals.keys.iter().find(|k| k.owner == Some(d.actor) && k.from_us <= d.from_us && k.to_us > d.from_us) {
            // A lock-delay (Chubby's) that holds the lock back after the key went.
            let delayed_until_us = run.events.iter().find_map(|e| match e.kind {
                EventKind::Quorum(QuorumEvent::LockDelayed { client, until_us })
                    if client == d.actor && e.at_us >= d.from_us && until_us > k.to_us =>
                {
                    Some(until_us)
                }
                _ => None,
            });
            let expired = k.end == KeyEnd::Expired;
            notes.add(Kind::Liveness, || Finding {
                property: Kind::Liveness,
                at_us: d.from_us,
                actors: vec![d.actor],
                cause: Cause::CrashedHolding { client: d.actor, at_us: d.from_us, until_us: k.to_us, expired, delayed_until_us },
                event: None,
            });
        }
    }
    let note =
        |property, e: &crate::trace::Event, cause| Finding { property, at_us: e.at_us, actors: vec![e.actor], cause, event: Some(e.id) };
    for &e in &cx.picked.stops {
        match e.kind {
            EventKind::GaveUp => notes.add(Kind::Liveness, || note(Kind::Liveness, e, Cause::GaveUp { client: e.actor })),
            EventKind::Done { completed: false } => {
                notes.add(Kind::Incomplete, || note(Kind::Incomplete, e, Cause::Stopped { client: e.actor }))
            }
            _ => {}
        }
    }
    // A consensus service without a quorum: how long nothing could be granted or expire.
    let mut lost_at = None;
    for &e in &cx.picked.quorum {
        match e.kind {
            EventKind::Quorum(QuorumEvent::NoQuorum { since_us }) => lost_at = lost_at.or(Some(since_us)),
            EventKind::Quorum(QuorumEvent::LeaderElected { .. }) => {
                if let Some(from) = lost_at.take() {
                    notes.add(Kind::Liveness, || Finding {
                        property: Kind::Liveness,
                        at_us: from,
                        actors: vec![],
                        cause: Cause::NoQuorum { from_us: from, to_us: e.at_us },
                        event: Some(e.id),
                    });
                }
            }
            _ => {}
        }
    }
    let messages = run.intervals.messages.iter().filter(|m| m.fate == MsgFate::InFlight).count();
    if messages > 0 {
        let cause = Cause::InFlight { messages };
        notes.add(Kind::InFlight, || Finding { property: Kind::InFlight, at_us: run.end_us, actors: vec![], cause, event: None });
    }
    if run.end_us > run.due_us {
        let cause = Cause::Overrun { due_us: run.due_us, end_us: run.end_us };
        notes.add(Kind::Overrun, || Finding { property: Kind::Overrun, at_us: run.due_us, actors: vec![], cause, event: None });
    }
    for &c in &run.unfinished {
        let cause = Cause::CutShort { client: c, end_us: run.end_us };
        notes.add(Kind::CutShort, || Finding { property: Kind::CutShort, at_us: run.end_us, actors: vec![c], cause, event: None });
    }
}
