//! The violations: lost updates, out-of-order writes, duplicate effects. They decide the
//! verdict.

use super::hazards::conflict_cause;
use super::{Cx, Findings};
use crate::scenario::{Fencing, ResourceKind, WriteOp};
use crate::trace::{Applied, EventKind};
use crate::verdict::{Cause, Finding, Kind, Stale, Twice, Unfenced};

pub(super) fn lost_updates(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    for (i, w) in run.applied.iter().enumerate() {
        let Some(read_v) = w.read_version else {
            continue;
        };
        if w.version_before == read_v {
            continue;
        }
        // The writes applied after this client's read, which this write overwrote unseen. Each
        // accepted write takes the next version, so they are a slice of `applied`.
        let Some(lost) = run.applied.get(read_v as usize..w.version_before as usize) else { continue };
        if lost.is_empty() {
            continue;
        }
        out.add(Kind::LostUpdate, || lost_update(cx, i, read_v as usize, lost.len()));
    }
}

/// Write `i` overwrote, unseen, `n_lost` writes from write `f` on.
fn lost_update(cx: &Cx, i: usize, f: usize, n_lost: usize) -> Finding {
    let run = cx.run;
    let (w, first) = (&run.applied[i], &run.applied[f]);
    // Whose write was stale: the writer's, unless it holds the newer grant, in which case the
    // write it overwrote came from the older holder (a fresh owner not yet seen).
    let newer = matches!((w.grant, first.grant), (Some(gw), Some(gf)) if gw > gf && first.client != w.client);
    // Two holders at once: how the lock service came to grant both.
    let both = || match (w.grant, first.grant) {
        (Some(gw), Some(gf)) => {
            let (i1, i2) = if gw < gf { (gw, gf) } else { (gf, gw) };
            let (g1, g2) = (&run.grants[i1], &run.grants[i2]);
            (gw != gf && g1.client != g2.client && g1.term_end_us > g2.at_us).then(|| Stale::BothHeld {
                first: g1.client,
                second: g2.client,
                conflict: Box::new(conflict_cause(cx, i1, i2)),
            })
        }
        _ => None,
    };
    let stale = if newer {
        both().unwrap_or_else(|| Stale::Late(cx.why_stale(first)))
    } else {
        Some(cx.why_stale(w)).filter(|why| !why.is_empty()).map(Stale::Late).or_else(both).unwrap_or(Stale::Late(vec![]))
    };
    // Fenced, and still lost: the newer holder read before the stale write landed, and nothing
    // had told the resource of its token yet (SEMANTICS §3.1; DESIGN §3.1, activation).
    let fenced = newer && cx.sc.resource.fencing != Fencing::None;
    let mut actors = vec![w.client];
    if !actors.contains(&first.client) {
        actors.push(first.client);
    }
    // The harm is marked on the stale write: the older holder's, where the writer holds the
    // newer grant (its own write was legitimate; it read too early to see the stale one).
    let harm = if newer { first } else { w };
    let cause = Cause::LostUpdate { write: i, first: f, lost: n_lost, stale, fenced };
    Finding { property: Kind::LostUpdate, at_us: harm.at_us, actors, cause, event: Some(harm.event) }
}

pub(super) fn out_of_order(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    let mut newest: Option<(usize, &Applied)> = None;
    // A rebuilt entry has the same content whoever wrote it last: its order harms nothing.
    for (i, w) in run.applied.iter().enumerate().filter(|(_, w)| w.op != WriteOp::Rebuild) {
        let Some(g) = w.grant else { continue };
        match newest {
            // Only a write that sets the value overwrites what the newer holder wrote; an
            // addition (a charge, a refund) lands beside it, and if it should not have
            // happened at all, that is a duplicate effect.
            Some((j, n)) if n.grant.is_some_and(|ng| ng > g) && w.op == WriteOp::Set => {
                out.add(Kind::OutOfOrderWrite, || out_of_order_write(cx, i, j))
            }
            Some((_, n)) if n.grant.is_some_and(|ng| ng > g) => {}
            Some((_, n)) if n.grant.is_some_and(|ng| ng >= g) => {}
            _ => newest = Some((i, w)),
        }
    }
}

/// Write `i`, made under an older grant, was accepted after write `j`, made under a newer one.
fn out_of_order_write(cx: &Cx, i: usize, j: usize) -> Finding {
    let run = cx.run;
    let (w, n) = (&run.applied[i], &run.applied[j]);
    let ngr = &run.grants[n.grant.expect("a write made under a grant")];
    let unfenced = match (cx.sc.resource.kind, cx.sc.resource.fencing, w.token) {
        (_, _, None) => Some(Unfenced::NoToken),
        (ResourceKind::External, _, _) => Some(Unfenced::Ignored),
        (_, Fencing::None, _) => Some(Unfenced::Unchecked),
        (_, Fencing::CheckThenWrite, _) => Some(Unfenced::CheckThenWrite),
        (_, Fencing::Atomic, Some(t)) if ngr.token.is_some_and(|nt| nt <= t) => Some(Unfenced::NotGreater),
        _ => None,
    };
    let cause = Cause::OutOfOrderWrite { write: i, newer: j, late: cx.why_stale(w), unfenced };
    Finding { property: Kind::OutOfOrderWrite, at_us: w.at_us, actors: vec![w.client, n.client], cause, event: Some(w.event) }
}

pub(super) fn duplicates(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    // External effects sent from inside a transaction: a rollback does not take them back.
    let mut sent: crate::flat::Map<&str, &crate::trace::Event> = crate::flat::Map::new();
    for &e in &cx.picked.effects {
        let EventKind::EffectSent { key, deduplicated: false, .. } = &e.kind else { continue };
        match sent.get(key.as_str()) {
            None => {
                sent.insert(key, e);
            }
            Some(first) => out.add(Kind::DuplicateEffect, || effect_twice(e, first)),
        }
    }
    // The first write of each request that took effect as an addition.
    let mut first_of: crate::flat::Map<&str, usize> = crate::flat::Map::new();
    for (i, w) in run.applied.iter().enumerate() {
        if w.op != WriteOp::Add {
            continue;
        }
        let Some(first) = first_of.get(w.request.as_str()).copied() else {
            first_of.insert(&w.request, i);
            continue;
        };
        out.add(Kind::DuplicateEffect, || duplicate(cx, i, first));
    }
}

fn effect_twice(e: &crate::trace::Event, first: &crate::trace::Event) -> Finding {
    let client = |e: &crate::trace::Event| match e.kind {
        EventKind::EffectSent { client, .. } => client,
        _ => e.actor,
    };
    let mut actors = vec![client(e)];
    if !actors.contains(&client(first)) {
        actors.push(client(first));
    }
    let cause = Cause::EffectTwice { first: first.id, again: e.id };
    Finding { property: Kind::DuplicateEffect, at_us: e.at_us, actors, cause, event: Some(e.id) }
}

/// Write `i` took effect as write `f` had, for the same request.
fn duplicate(cx: &Cx, i: usize, f: usize) -> Finding {
    let (w, first) = (&cx.run.applied[i], &cx.run.applied[f]);
    let late = cx.why_stale(w);
    // "Fencing cannot stop the stale owner" only where the second writer was one (issue 49: two
    // holders in turn, each legitimate, are not).
    let twice = if first.client == w.client {
        Twice::Resent
    } else if cx.sc.resource.kind == ResourceKind::External && !late.is_empty() {
        Twice::IgnoresTokens
    } else {
        Twice::Sent
    };
    let mut actors = vec![w.client];
    if !actors.contains(&first.client) {
        actors.push(first.client);
    }
    let cause = Cause::Duplicate { write: i, first: f, twice, late };
    Finding { property: Kind::DuplicateEffect, at_us: w.at_us, actors, cause, event: Some(w.event) }
}
