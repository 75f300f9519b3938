//! The hazards and notes that explain a verdict: double grants and their cause, foreign
//! releases and renewals, overlapping beliefs, token regressions, liveness.

use super::{Cx, Findings};
use crate::time::{fmt, Micros};
use crate::trace::{EventKind, Grant, KeyEnd, MsgFate, Role};
use crate::verdict::{Finding, Kind};

/// Why grant `g2` could be made while `g1` was still promised: the failure that made the lock
/// service forget `g1`.
pub(super) fn conflict_cause(cx: &Cx, g1: &Grant, g2: &Grant) -> String {
    let run = cx.run;
    let (a, b) = (cx.name(g1.client), cx.name(g2.client));
    // How a node that voted for both came to vote twice: the key it set first (each grant's is
    // the last it set for that client before the grant was counted) ended before the second
    // was set. The first key is not always the earlier grant's: a Redlock client paused in the
    // middle of its round counts a vote it was given long before.
    let forgot = |node: usize| -> String {
        let n = cx.name(node);
        let key_of =
            |g: &Grant| run.intervals.keys.iter().filter(|k| k.node == node && k.owner == Some(g.client) && k.from_us <= g.at_us).last();
        let (g, key) = match (key_of(g1), key_of(g2)) {
            (Some(k1), Some(k2)) if k2.from_us < k1.from_us => (g2, Some(k2)),
            (k1, _) => (g1, k1),
        };
        let a = cx.name(g.client);
        let counted = match key {
            Some(k) if k.to_us < g.at_us => format!(", and {a} still counted {n}'s vote when it finished its round at {}", fmt(g.at_us)),
            _ => String::new(),
        };
        let why = match key.map(|k| (k.end, k.to_us)) {
            Some((KeyEnd::Lost, at)) => format!("{n} lost {a}'s key when it went down at {} without persistence", fmt(at)),
            Some((KeyEnd::Deleted, at)) => {
                let by = run.events.iter().find_map(|e| match e.kind {
                    EventKind::KeyDeleted { by, foreign: true, .. } if e.at_us == at && e.actor == node => Some(cx.name(by)),
                    _ => None,
                });
                match by {
                    Some(by) => format!("{by}'s DEL had deleted {a}'s key on {n} at {}", fmt(at)),
                    None => format!("{a}'s key on {n} was deleted at {}", fmt(at)),
                }
            }
            Some((KeyEnd::Expired, at)) => match run.intervals.jumps.iter().find(|jm| jm.actor == node && jm.at_us <= at && jm.by_us > 0) {
                Some(jm) => {
                    format!("{n}'s clock jumped forward by {} at {}, so {a}'s key on {n} expired early", fmt(jm.by_us), fmt(jm.at_us))
                }
                None => {
                    // A clock that runs fast reaches the expiry early in true time.
                    let clock = &run.clocks[node];
                    let gained = clock.offset_at(at) - clock.offset_at(g1.at_us);
                    if gained > 0 {
                        format!(
                            "{n}'s clock runs fast (it gained {} between {a}'s grant and {}), so {a}'s key on {n} expired early, at {} in true time",
                            fmt(gained),
                            fmt(at),
                            fmt(at)
                        )
                    } else {
                        format!("{a}'s key on {n} expired at {} (true time)", fmt(at))
                    }
                }
            },
            _ => format!("{n} no longer had {a}'s key"),
        };
        format!("{why}{counted}")
    };
    if run.actors[g1.node].role == Role::Member {
        let unchecked = |g: &Grant| matches!(run.events[g.event].kind, EventKind::LockGranted { key_exists: false, .. });
        let (bad, _) = if unchecked(g1) { (g1, g2) } else { (g2, g1) };
        if unchecked(bad) {
            let c = cx.name(bad.client);
            return format!(
                "the service told {c} it held the lock without checking its session: {c}'s lease had expired while it waited, so its key was already gone (etcd-io/etcd#11456)"
            );
        }
        return format!("{a}'s lease was still alive on the leader when {b} was told it held the lock");
    }
    if run.actors[g1.node].role == Role::Client {
        // Redlock: two majorities; the nodes they share voted twice.
        let list = |v: &[usize]| v.iter().map(|&n| cx.name(n)).collect::<Vec<_>>().join(", ");
        let shared: Vec<usize> = g2.votes.iter().copied().filter(|n| g1.votes.contains(n)).collect();
        let mut s = format!("{a}'s majority was {} and {b}'s was {}", list(&g1.votes), list(&g2.votes));
        if !shared.is_empty() {
            s.push_str(&format!(
                "; {} voted for both: {}",
                list(&shared),
                shared.iter().map(|&n| forgot(n)).collect::<Vec<_>>().join("; ")
            ));
        }
        return s;
    }
    if g1.node != g2.node {
        let node = cx.name(g2.node);
        return format!("{} had failed before {a}'s key was replicated, and {node} was promoted without it", cx.name(g1.node));
    }
    forgot(g1.node)
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
            let g1 = &run.grants[i];
            out.add(Kind::DoubleGrant, || {
                let (a, b) = (cx.name(g1.client), cx.name(g2.client));
                Finding {
                    property: Kind::DoubleGrant,
                    at_us: g2.at_us,
                    actors: vec![a.clone(), b.clone()],
                    explanation: format!(
                        "{b} was granted the lock at {} while {a}'s grant of {} was still promised until {}: {}.",
                        fmt(g2.at_us),
                        fmt(g1.at_us),
                        fmt(g1.term_end_us),
                        conflict_cause(cx, g1, g2)
                    ),
                    event: Some(g2.event),
                }
            });
        }
        let slot = &mut longest[g2.client];
        if slot.is_none_or(|i| run.grants[i].term_end_us < g2.term_end_us) {
            *slot = Some(j);
        }
    }
}

pub(super) fn foreign_ops(cx: &Cx, out: &mut Findings) {
    for e in &cx.run.events {
        let (kind, owner, by) = match e.kind {
            EventKind::KeyDeleted { owner, by, foreign: true } => (Kind::ForeignRelease, owner, by),
            EventKind::KeyExtended { owner, by, foreign: true } => (Kind::ForeignRenew, owner, by),
            _ => continue,
        };
        out.add(kind, || {
            let owner = owner.map(|o| cx.name(o)).unwrap_or_else(|| "another client".into());
            let by = cx.name(by);
            let what = if kind == Kind::ForeignRelease {
                format!("{by}'s plain DEL deleted {owner}'s key; a compare-and-delete would have refused")
            } else {
                format!(
                    "{by}'s plain PEXPIRE extended {owner}'s key and told {by} it still held the lock; a compare-and-extend would have refused"
                )
            };
            Finding { property: kind, at_us: e.at_us, actors: vec![by, owner], explanation: format!("{what}."), event: Some(e.id) }
        });
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
        out.add(Kind::BeliefOverlap, || {
            // The earlier holder outlived its lease (or both were granted at once).
            let (old, new) = if x.from_us <= y.from_us { (x, y) } else { (y, x) };
            let (o, n) = (cx.name(old.client), cx.name(new.client));
            Finding {
                property: Kind::BeliefOverlap,
                at_us: from,
                actors: vec![o.clone(), n.clone()],
                explanation: format!(
                    "{o} believed it held the lock until {} (its lease ran out at {} by its own clock) while {n} believed it held it from {}.",
                    fmt(old.to_us),
                    fmt(old.valid_until_us),
                    fmt(new.from_us)
                ),
                event: None,
            }
        });
    }
}

pub(super) fn token_regressions(cx: &Cx, out: &mut Findings) {
    let mut best: Option<(Micros, u64, usize)> = None;
    for &(at, t, to) in &cx.run.tokens {
        if let Some((bat, bt, bto)) = best {
            if t <= bt {
                out.add(Kind::TokenRegression, || Finding {
                    property: Kind::TokenRegression,
                    at_us: at,
                    actors: vec![cx.name(to), cx.name(bto)],
                    explanation: format!(
                        "Token {t} issued to {} at {} is not greater than token {bt} issued to {} at {}: the counter was lost and started again.",
                        cx.name(to),
                        fmt(at),
                        cx.name(bto),
                        fmt(bat)
                    ),
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
            notes.add(Kind::Liveness, || Finding {
                property: Kind::Liveness,
                at_us: d.from_us,
                actors: vec![cx.name(d.actor)],
                explanation: format!(
                    "{} crashed holding the lock at {}; nobody could take it until its key {} at {}. Expiry is what restores progress.",
                    cx.name(d.actor),
                    fmt(d.from_us),
                    if k.end == KeyEnd::Expired { "expired" } else { "went away" },
                    fmt(k.to_us)
                ),
                event: None,
            });
        }
    }
    for e in &run.events {
        match e.kind {
            EventKind::GaveUp => notes.add(Kind::Liveness, || Finding {
                property: Kind::Liveness,
                at_us: e.at_us,
                actors: vec![cx.name(e.actor)],
                explanation: format!("{} gave up without getting the lock.", cx.name(e.actor)),
                event: Some(e.id),
            }),
            EventKind::Done { completed: false } => notes.add(Kind::Incomplete, || Finding {
                property: Kind::Incomplete,
                at_us: e.at_us,
                actors: vec![cx.name(e.actor)],
                explanation: format!("{} stopped without finishing its work (and knows it).", cx.name(e.actor)),
                event: Some(e.id),
            }),
            _ => {}
        }
    }
    // A consensus service without a quorum: how long nothing could be granted or expire.
    let mut lost_at = None;
    for e in &run.events {
        match e.kind {
            EventKind::NoQuorum { since_us } => lost_at = lost_at.or(Some(since_us)),
            EventKind::LeaderElected { .. } => {
                if let Some(from) = lost_at.take() {
                    notes.add(Kind::Liveness, || Finding {
                        property: Kind::Liveness,
                        at_us: from,
                        actors: vec![],
                        explanation: format!(
                            "From {}, when a majority of the members could no longer be reached, to {}, when a new leader was elected, nothing could be granted, released or expire ({}).",
                            fmt(from),
                            fmt(e.at_us),
                            fmt(e.at_us - from)
                        ),
                        event: Some(e.id),
                    });
                }
            }
            _ => {}
        }
    }
    let in_flight = run.intervals.messages.iter().filter(|m| m.fate == MsgFate::InFlight).count();
    if in_flight > 0 {
        notes.add(Kind::InFlight, || Finding {
            property: Kind::InFlight,
            at_us: run.end_us,
            actors: vec![],
            explanation: format!("{in_flight} message(s) were still in flight when the run ended."),
            event: None,
        });
    }
    if run.end_us > run.due_us {
        notes.add(Kind::Overrun, || Finding {
            property: Kind::Overrun,
            at_us: run.due_us,
            actors: vec![],
            explanation: format!(
                "The run went on past its duration ({}) to {}: a client was in the middle of an update, and a run is judged only once its clients' updates have ended.",
                fmt(run.due_us),
                fmt(run.end_us)
            ),
            event: None,
        });
    }
    for &c in &run.unfinished {
        notes.add(Kind::CutShort, || Finding {
            property: Kind::CutShort,
            at_us: run.end_us,
            actors: vec![cx.name(c)],
            explanation: format!(
                "The run was cut short at {} with {} in the middle of an update (it had read a value it had not written, or held the lock with a write ahead): what that write would have done is not judged.",
                fmt(run.end_us),
                cx.name(c)
            ),
            event: None,
        });
    }
}
