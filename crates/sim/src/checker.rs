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

use crate::scenario::{Fencing, ResourceKind, Scenario};
use crate::time::{fmt, Micros};
use crate::trace::{Applied, EventKind, Grant, KeyEnd, MsgFate, Role, Run};
pub use crate::verdict::{Finding, Kind, Property, Safety, Verdict, PROPERTIES};

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
    found: std::collections::BTreeMap<&'static str, usize>,
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

    /// Why a client's write was stale: pauses, a held message, an expired lease.
    fn why_stale(&self, w: &Applied) -> String {
        let run = self.run;
        let mut why = Vec::new();
        let sent = run.intervals.messages[w.msg].sent_us;
        let grant_at = w.grant.map(|g| run.grants[g].at_us).unwrap_or(0);
        for p in &run.intervals.pauses {
            if p.actor == w.client && p.from_us >= grant_at && p.from_us <= sent {
                why.push(format!("{} was paused from {} to {}", self.name(w.client), fmt(p.from_us), fmt(p.to_us)));
            }
        }
        let m = &run.intervals.messages[w.msg];
        if m.delayed {
            why.push(format!("its write was held in the network from {} to {}", fmt(m.sent_us), fmt(m.arrived_us)));
        }
        if let Some(b) = run.intervals.beliefs.iter().find(|b| Some(b.grant) == w.grant) {
            if b.valid_until_us < w.at_us {
                why.push(format!("its lease had run out at {} by its own clock", fmt(b.valid_until_us)));
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
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
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
    violations.sort_by_key(|f: &Finding| (f.at_us, f.property.as_str()));
    let mut h = Findings::default();
    double_grants(&cx, &mut h);
    foreign_ops(&cx, &mut h);
    belief_overlaps(&cx, &mut h);
    token_regressions(&cx, &mut h);
    let (mut hazards, more) = h.finish();
    hazards.sort_by_key(|f: &Finding| (f.at_us, f.property.as_str()));
    omitted.extend(more);
    let mut n = Findings::default();
    liveness(&cx, &mut n);
    let (mut notes, more) = n.finish();
    notes.extend(omitted.into_iter().chain(more));
    let properties = PROPERTIES
        .iter()
        .map(|&(kind, meaning)| Property { name: kind.as_str(), holds: !violations.iter().any(|v| v.property == kind), meaning })
        .collect();
    Verdict { verdict: if violations.is_empty() { Safety::Safe } else { Safety::Unsafe }, properties, violations, hazards, notes }
}

fn lost_updates(cx: &Cx, out: &mut Findings) {
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
    let mut stale = cx.why_stale(w);
    // Two holders at once: say how the lock service came to grant both.
    if let (Some(gw), Some(gf)) = (w.grant, first.grant) {
        let (g1, g2) = if gw < gf { (&run.grants[gw], &run.grants[gf]) } else { (&run.grants[gf], &run.grants[gw]) };
        if gw != gf && g1.client != g2.client && g1.term_end_us > g2.at_us && stale.is_empty() {
            stale = format!(" {} and {} both held the lock: {}.", cx.name(g1.client), cx.name(g2.client), conflict_cause(cx, g1, g2));
        }
    }
    let explanation = format!(
        "The resource accepted {who}'s write of {}{} at {}, which overwrote {lost_desc} without having seen it: {who} had read version {read_v}{read_at}. {} update{} lost: the value is {} after {} accepted writes.{stale}",
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
    Finding { property: Kind::LostUpdate, at_us: w.at_us, actors, explanation, event: Some(w.event) }
}

fn out_of_order(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    let mut newest: Option<&Applied> = None;
    for w in &run.applied {
        let Some(g) = w.grant else { continue };
        match newest {
            Some(n) if n.grant.is_some_and(|ng| ng > g) => out.add(Kind::OutOfOrderWrite, || out_of_order_write(cx, w, n)),
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

fn duplicates(cx: &Cx, out: &mut Findings) {
    let run = cx.run;
    // The first write of each request that took effect as an addition.
    let mut first_of: std::collections::BTreeMap<&str, &Applied> = std::collections::BTreeMap::new();
    for w in &run.applied {
        if !w.add {
            continue;
        }
        let Some(first) = first_of.get(w.request.as_str()).copied() else {
            first_of.insert(&w.request, w);
            continue;
        };
        out.add(Kind::DuplicateEffect, || duplicate(cx, w, first));
    }
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

/// Why grant `g2` could be made while `g1` was still promised: the failure that made the lock
/// service forget `g1`.
fn conflict_cause(cx: &Cx, g1: &Grant, g2: &Grant) -> String {
    let run = cx.run;
    let (a, b) = (cx.name(g1.client), cx.name(g2.client));
    let forgot = |node: usize| -> String {
        let n = cx.name(node);
        let key = run.intervals.keys.iter().find(|k| k.node == node && k.owner == Some(g1.client) && k.from_us <= g1.at_us);
        match key.map(|k| (k.end, k.to_us)) {
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
                None => format!("{a}'s key on {n} expired at {} by {n}'s clock", fmt(at)),
            },
            _ => format!("{n} no longer had {a}'s key"),
        }
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

fn double_grants(cx: &Cx, out: &mut Findings) {
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
        overlapping.sort_unstable();
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

fn foreign_ops(cx: &Cx, out: &mut Findings) {
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
fn belief_overlaps(cx: &Cx, out: &mut Findings) {
    let b = &cx.run.intervals.beliefs;
    let mut of_client: std::collections::BTreeMap<usize, Vec<&crate::trace::Belief>> = std::collections::BTreeMap::new();
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
    first.sort_by_key(|(x, y)| x.from_us.max(y.from_us));
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

fn token_regressions(cx: &Cx, out: &mut Findings) {
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

fn liveness(cx: &Cx, notes: &mut Findings) {
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
            EventKind::NoQuorum => lost_at = lost_at.or(Some(e.at_us)),
            EventKind::LeaderElected { .. } => {
                if let Some(from) = lost_at.take() {
                    notes.add(Kind::Liveness, || Finding {
                        property: Kind::Liveness,
                        at_us: from,
                        actors: vec![],
                        explanation: format!(
                            "No quorum from {} to {}: for {} nothing could be granted, released or expire.",
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
}
