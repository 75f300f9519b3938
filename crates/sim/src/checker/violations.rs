//! The violations: lost updates, out-of-order writes, duplicate effects. They decide the
//! verdict.

use super::hazards::conflict_cause;
use super::{Cx, Findings};
use crate::scenario::{Fencing, ResourceKind, WriteOp};
use crate::time::fmt;
use crate::trace::{Applied, EventKind};
use crate::verdict::{Finding, Kind};

pub(super) fn lost_updates(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    for w in &run.applied {
        let Some(read_v) = w.read_version else {
            continue;
        };
        if w.version_before == read_v {
            continue;
        }
        // The writes applied after this client's read, which this write overwrote unseen. Each
        // accepted write takes the next version, so they are a slice of `applied`.
        let Some(lost) = run.applied.get(read_v as usize..w.version_before as usize) else { continue };
        let Some(first) = lost.first() else { continue };
        out.add(Kind::LostUpdate, || lost_update(cx, w, first, lost.len()));
    }
}

fn lost_update(cx: &Cx, w: &Applied, first: &Applied, n_lost: usize) -> Finding {
    let run = cx.run;
    let read_v = w.read_version.unwrap_or_default();
    let who = cx.name(w.client);
    let other = cx.name(first.client);
    let read_at = w.read_at_us.map(|t| format!(" at {}", fmt(t))).unwrap_or_default();
    let lost_desc = if first.client == w.client {
        format!("its own earlier write of {}", first.value_after)
    } else {
        format!("{other}'s write of {} at {}", first.value_after, fmt(first.at_us))
    };
    // Whose write was stale: the writer's, unless it holds the newer grant, in which case the
    // write it overwrote came from the older holder (a fresh owner not yet seen).
    let newer = matches!((w.grant, first.grant), (Some(gw), Some(gf)) if gw > gf && first.client != w.client);
    // Two holders at once: how the lock service came to grant both.
    let both = match (w.grant, first.grant) {
        (Some(gw), Some(gf)) => {
            let (g1, g2) = if gw < gf { (&run.grants[gw], &run.grants[gf]) } else { (&run.grants[gf], &run.grants[gw]) };
            (gw != gf && g1.client != g2.client && g1.term_end_us > g2.at_us)
                .then(|| format!(" {} and {} both held the lock: {}.", cx.name(g1.client), cx.name(g2.client), conflict_cause(cx, g1, g2)))
        }
        _ => None,
    };
    let stale = if newer {
        both.unwrap_or_else(|| cx.why_stale(first))
    } else {
        Some(cx.why_stale(w)).filter(|s| !s.is_empty()).or(both).unwrap_or_default()
    };
    // Fenced, and still lost: the newer holder read before the stale write landed, and nothing
    // had told the resource of its token yet (SEMANTICS §3.1; DESIGN §3.1, activation).
    let fenced = newer && cx.sc.resource.fencing != crate::scenario::Fencing::None;
    let unfenced_why = if fenced {
        let lesson = if cx.sc.id == "fresh-owner-not-yet-seen" { "" } else { " (the lesson fresh-owner-not-yet-seen)" };
        format!(
            " Fencing could not stop it: {other}'s write reached the resource before anything carrying {who}'s newer token, so the resource had no newer token to compare it with; {who} had read before it landed. The rest of the answer{lesson}: the new owner makes its token known to the resource (activates it) before it reads."
        )
    } else {
        String::new()
    };
    let explanation = format!(
        "The resource accepted {who}'s write of {}{} at {}, which overwrote {lost_desc} without having seen it: {who} had read version {read_v}{read_at}. {} update{} lost: the value is {} after {} accepted writes.{stale}{unfenced_why}",
        w.value_after,
        cx.token_phrase(w.token),
        fmt(w.at_us),
        if n_lost == 1 { "One" } else { "Several" },
        if n_lost == 1 { " is" } else { "s are" },
        w.value_after,
        w.version_before + 1,
    );
    let mut actors = vec![who];
    if !actors.contains(&other) {
        actors.push(other);
    }
    // The harm is marked on the stale write: the older holder's, where the writer holds the
    // newer grant (its own write was legitimate; it read too early to see the stale one).
    let harm = if newer { first } else { w };
    Finding { property: Kind::LostUpdate, at_us: harm.at_us, actors, explanation, event: Some(harm.event) }
}

pub(super) fn out_of_order(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    let mut newest: Option<&Applied> = None;
    // A rebuilt entry has the same content whoever wrote it last: its order harms nothing.
    for w in run.applied.iter().filter(|w| w.op != WriteOp::Rebuild) {
        let Some(g) = w.grant else { continue };
        match newest {
            // Only a write that sets the value overwrites what the newer holder wrote; an
            // addition (a charge, a refund) lands beside it, and if it should not have
            // happened at all, that is a duplicate effect.
            Some(n) if n.grant.is_some_and(|ng| ng > g) && w.op == WriteOp::Set => {
                out.add(Kind::OutOfOrderWrite, || out_of_order_write(cx, w, n))
            }
            Some(n) if n.grant.is_some_and(|ng| ng > g) => {}
            Some(n) if n.grant.is_some_and(|ng| ng >= g) => {}
            _ => newest = Some(w),
        }
    }
}

/// `w`, made under an older grant, was accepted after `n`, made under a newer one.
fn out_of_order_write(cx: &Cx, w: &Applied, n: &Applied) -> Finding {
    let run = cx.run;
    let (g, ng) = (w.grant.expect("a write made under a grant"), n.grant.expect("a write made under a grant"));
    let (who, other) = (cx.name(w.client), cx.name(n.client));
    let gr = &run.grants[g];
    let ngr = &run.grants[ng];
    let no_fence = match (cx.sc.resource.kind, cx.sc.resource.fencing, w.token) {
        (_, _, None) => " The write carried no token the resource could compare.",
        (ResourceKind::External, _, _) => " The resource ignores tokens.",
        (_, Fencing::None, _) => " The resource does not check tokens.",
        (_, Fencing::CheckThenWrite, _) => {
            " The resource checked the token and wrote in separate steps, so the check was stale by the time of the write."
        }
        (_, Fencing::Atomic, Some(t)) if ngr.token.is_some_and(|nt| nt <= t) => {
            " The newer grant's token was not greater than the older one's, so fencing could not tell them apart."
        }
        _ => "",
    };
    let explanation = format!(
        "The resource accepted {who}'s write{} at {} after {other}'s write{} at {}; {other} had been granted the lock at {}, after {who}'s grant at {}.{}{no_fence}",
        cx.token_phrase(w.token),
        fmt(w.at_us),
        cx.token_phrase(n.token),
        fmt(n.at_us),
        fmt(ngr.at_us),
        fmt(gr.at_us),
        cx.why_stale(w),
    );
    Finding { property: Kind::OutOfOrderWrite, at_us: w.at_us, actors: vec![who, other], explanation, event: Some(w.event) }
}

pub(super) fn duplicates(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    // External effects sent from inside a transaction: a rollback does not take them back.
    let mut sent: crate::flat::Map<&str, &crate::trace::Event> = crate::flat::Map::new();
    for e in &run.events {
        let EventKind::EffectSent { key, deduplicated: false, .. } = &e.kind else { continue };
        match sent.get(key.as_str()) {
            None => {
                sent.insert(key, e);
            }
            Some(first) => out.add(Kind::DuplicateEffect, || effect_twice(cx, e, first, key)),
        }
    }
    // The first write of each request that took effect as an addition.
    let mut first_of: crate::flat::Map<&str, &Applied> = crate::flat::Map::new();
    for w in &run.applied {
        if w.op != WriteOp::Add {
            continue;
        }
        let Some(first) = first_of.get(w.request.as_str()).copied() else {
            first_of.insert(&w.request, w);
            continue;
        };
        out.add(Kind::DuplicateEffect, || duplicate(cx, w, first));
    }
}

fn effect_twice(cx: &Cx, e: &crate::trace::Event, first: &crate::trace::Event, key: &str) -> Finding {
    let client = |e: &crate::trace::Event| match e.kind {
        EventKind::EffectSent { client, .. } => cx.name(client),
        _ => cx.name(e.actor),
    };
    let (who, other) = (client(e), client(first));
    let explanation = format!(
        "{key} went out twice: from {other}'s transaction at {} and from {who}'s at {}. Rolling the transaction back undid its update, not what it had already sent outside the database; nothing deduplicated it (no idempotency key).",
        fmt(first.at_us),
        fmt(e.at_us),
    );
    let mut actors = vec![who];
    if !actors.contains(&other) {
        actors.push(other);
    }
    Finding { property: Kind::DuplicateEffect, at_us: e.at_us, actors, explanation, event: Some(e.id) }
}

fn duplicate(cx: &Cx, w: &Applied, first: &Applied) -> Finding {
    let (who, other) = (cx.name(w.client), cx.name(first.client));
    let how = if first.client == w.client {
        format!(
            " {who} had sent it again after a timeout, and both copies arrived{}.",
            if w.token.is_some() { " with the current token" } else { "" }
        )
    } else if cx.sc.resource.kind == ResourceKind::External {
        " The external API ignores tokens, so fencing cannot stop the stale owner.".to_string()
    } else {
        String::new()
    };
    let explanation = format!(
        "Request {} took effect twice: from {other} at {} and from {who} at {}.{how} Nothing deduplicated it (no idempotency key).{}",
        w.request,
        fmt(first.at_us),
        fmt(w.at_us),
        cx.why_stale(w),
    );
    let mut actors = vec![who];
    if !actors.contains(&other) {
        actors.push(other);
    }
    Finding { property: Kind::DuplicateEffect, at_us: w.at_us, actors, explanation, event: Some(w.event) }
}
