//! The faults a search adds: [`space`] lists every one-fault change worth trying, from the run
//! as written (pauses of each client just after each of its events and between them, with
//! lengths around the TTL; delays of each message a client sends to the lock service or the
//! resource; clock jumps and drift, crashes with and without a restart, and failover on each
//! lock server near each grant; a client cut off from the others).

use serde::Serialize;

use crate::scenario::{Fault, Scenario};
use crate::time::{Micros, MS};
use crate::trace::{ActorId, Role, Run};

/// The most start instants tried per actor; beyond it they are spread evenly over the run.
const INSTANTS: usize = 32;
/// The most messages delayed per link (client → server); beyond it they are spread evenly.
const MESSAGES: usize = 8;

/// The kinds of fault a search tries, for its coverage statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    Pause,
    Delay,
    Clock,
    Crash,
    Failover,
    Partition,
}

impl FaultKind {
    pub const ALL: [FaultKind; 6] =
        [FaultKind::Pause, FaultKind::Delay, FaultKind::Clock, FaultKind::Crash, FaultKind::Failover, FaultKind::Partition];

    /// The kind in the plural, as the coverage statement lists it: `clock jumps`.
    pub fn plural(self) -> &'static str {
        match self {
            FaultKind::Pause => "pauses",
            FaultKind::Delay => "delays",
            FaultKind::Clock => "clock jumps",
            FaultKind::Crash => "crashes",
            FaultKind::Failover => "failovers",
            FaultKind::Partition => "partitions",
        }
    }

    /// The kind of a scenario fault.
    pub fn of(f: &Fault) -> FaultKind {
        match f {
            // A disk stall stops its server as a pause would.
            Fault::Pause { .. } | Fault::DiskStall { .. } => FaultKind::Pause,
            Fault::Delay { .. } | Fault::Drop { .. } => FaultKind::Delay,
            Fault::ClockJump { .. } | Fault::Drift { .. } => FaultKind::Clock,
            Fault::Crash { .. } | Fault::Restart { .. } => FaultKind::Crash,
            Fault::Failover { .. } => FaultKind::Failover,
            Fault::Partition { .. } => FaultKind::Partition,
        }
    }
}

/// One change a search can make: one fault added (or a crash with its restart), or one of the
/// scenario's own faults moved, resized (`faults`, in its place) or removed (no `faults`).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub kind: FaultKind,
    pub faults: Vec<Fault>,
    /// The index of the scenario's own fault this one takes the place of.
    pub replaces: Option<usize>,
}

/// Milliseconds just after a true time.
fn just_after(t: Micros) -> u64 {
    (t.max(0) / MS) as u64 + 1
}

/// At most `n` of `xs`, spread evenly (all of them when there are few).
fn spread<T: Copy>(xs: &[T], n: usize) -> Vec<T> {
    if xs.len() <= n {
        return xs.to_vec();
    }
    (0..n).map(|i| xs[i * (xs.len() - 1) / (n - 1)]).collect()
}

/// The instants that matter for an actor: just after each of its events, and halfway between
/// consecutive ones, before the run's end.
fn instants(times: impl Iterator<Item = Micros>, end_ms: u64) -> Vec<u64> {
    let after: crate::flat::Set<u64> = times.map(just_after).filter(|&t| t < end_ms).collect();
    let after: Vec<u64> = after.into_iter().collect();
    let mut all = after.clone();
    all.extend(after.windows(2).filter(|w| w[1] - w[0] >= 4).map(|w| (w[0] + w[1]) / 2));
    crate::sort::by(&mut all, Ord::cmp);
    all.dedup();
    spread(&all, INSTANTS)
}

/// Every one-fault change the search tries on `sc`, whose run as written is `run`.
pub fn space(sc: &Scenario, run: &Run) -> Vec<Candidate> {
    let ttl = sc.lock.ttl_ms.max(1);
    let end = sc.duration_ms;
    let lengths = [ttl / 3, ttl + ttl / 10, 2 * ttl, 3 * ttl].map(|l| l.max(1));
    let of = |a: ActorId| run.events.iter().filter(move |e| e.actor == a).map(|e| e.at_us);
    let mut out = Vec::new();
    let mut add = |kind: FaultKind, faults: Vec<Fault>| out.push(Candidate { kind, faults, replaces: None });
    let clients: Vec<ActorId> = (0..run.actors.len()).filter(|&a| run.actors[a].role == Role::Client).collect();
    let servers: Vec<ActorId> = (0..run.actors.len()).filter(|&a| run.actors[a].role.is_lock_server()).collect();
    for &c in &clients {
        let name = run.name(c).to_string();
        for at_ms in instants(of(c), end) {
            for duration_ms in lengths {
                add(FaultKind::Pause, vec![Fault::Pause { actor: name.clone(), at_ms, duration_ms }]);
            }
            for duration_ms in [lengths[1], lengths[2]] {
                add(FaultKind::Partition, vec![Fault::Partition { isolate: vec![name.clone()], at_ms, duration_ms }]);
            }
        }
        // Each message it sends to a lock server or the resource, held back.
        let dests = servers.iter().copied().chain((0..run.actors.len()).filter(|&a| run.actors[a].role == Role::Resource));
        for to in dests {
            let sent = run.intervals.messages.iter().filter(|m| m.from == c && m.to == to).map(|m| (m.sent_us.max(0) / MS) as u64);
            let sent: Vec<u64> = sent.filter(|&t| t < end).collect::<crate::flat::Set<_>>().into_iter().collect();
            for at_ms in spread(&sent, MESSAGES) {
                for extra_ms in lengths {
                    let (from, to) = (name.clone(), run.name(to).to_string());
                    add(FaultKind::Delay, vec![Fault::Delay { from, to, at_ms, extra_ms, count: 1 }]);
                }
            }
        }
    }
    // The lock servers, near each grant: the moments a lock service's state matters.
    let grants = instants(run.grants.iter().map(|g| g.at_us).chain([0]), end);
    let replicated = run.actors.iter().any(|a| a.role == Role::Replica);
    for &n in &servers {
        let actor = run.name(n).to_string();
        for &at_ms in &grants {
            for by_ms in [(ttl / 2) as i64, ttl as i64] {
                add(FaultKind::Clock, vec![Fault::ClockJump { actor: actor.clone(), at_ms, by_ms }]);
            }
            for ppm in [100_000, 500_000] {
                add(FaultKind::Clock, vec![Fault::Drift { actor: actor.clone(), at_ms, ppm }]);
            }
            add(FaultKind::Crash, vec![Fault::Crash { actor: actor.clone(), at_ms }]);
            let back = (at_ms + (ttl / 5).max(1)).min(end.saturating_sub(1)).max(at_ms + 1);
            add(FaultKind::Crash, vec![Fault::Crash { actor: actor.clone(), at_ms }, Fault::Restart { actor: actor.clone(), at_ms: back }]);
        }
    }
    if replicated {
        for &at_ms in &grants {
            add(FaultKind::Failover, vec![Fault::Failover { at_ms }]);
        }
    }
    // The scenario's own faults: each removed, moved to the instants that matter for whom it
    // strikes, and resized to the lengths tried for added faults and to fractions of its own.
    for (i, f) in sc.faults.iter().enumerate() {
        let kind = FaultKind::of(f);
        let mut own = |faults: Vec<Fault>| out.push(Candidate { kind, faults, replaces: Some(i) });
        own(vec![]);
        let whose = struck(f).and_then(|name| run.actor_id(name));
        let starts = match whose {
            Some(a) => instants(of(a), end),
            None => grants.clone(),
        };
        for at_ms in spread(&starts, INSTANTS / 4) {
            let mut g = f.clone();
            *g.at_ms_mut() = at_ms;
            if g != *f {
                own(vec![g]);
            }
        }
        if let Some(size) = size_of(f) {
            let mut sizes: Vec<u64> = lengths.to_vec();
            sizes.extend([size / 10, size / 4, size / 2, 2 * size].map(|l| l.max(1)));
            crate::sort::by(&mut sizes, Ord::cmp);
            sizes.dedup();
            for n in sizes.into_iter().filter(|&n| n != size) {
                own(vec![resized(f, n)]);
            }
        }
    }
    out
}

/// The actor a fault strikes (the sender of a delayed message, the first of those cut off).
fn struck(f: &Fault) -> Option<&str> {
    match f {
        Fault::Pause { actor, .. } | Fault::Crash { actor, .. } | Fault::Restart { actor, .. } => Some(actor),
        Fault::ClockJump { actor, .. } | Fault::Drift { actor, .. } | Fault::DiskStall { actor, .. } => Some(actor),
        Fault::Partition { isolate, .. } => isolate.first().map(String::as_str),
        Fault::Delay { from, .. } | Fault::Drop { from, .. } => Some(from),
        Fault::Failover { .. } => None,
    }
}

/// How large a fault is, for those that have a size: a pause's or a cut-off's length, a
/// delay's extra time, a clock jump's size.
fn size_of(f: &Fault) -> Option<u64> {
    match f {
        Fault::Pause { duration_ms: d, .. }
        | Fault::Partition { duration_ms: d, .. }
        | Fault::Delay { extra_ms: d, .. }
        | Fault::DiskStall { duration_ms: d, .. } => Some(*d),
        Fault::ClockJump { by_ms, .. } => Some(by_ms.unsigned_abs()),
        _ => None,
    }
}

/// The fault with size `n` (a clock jump keeps its direction); a fault without a size as it is.
pub(super) fn resized(f: &Fault, n: u64) -> Fault {
    let mut g = f.clone();
    match &mut g {
        Fault::Pause { duration_ms: d, .. }
        | Fault::Partition { duration_ms: d, .. }
        | Fault::Delay { extra_ms: d, .. }
        | Fault::DiskStall { duration_ms: d, .. } => *d = n,
        Fault::ClockJump { by_ms, .. } => *by_ms = n.min(i64::MAX as u64) as i64 * by_ms.signum(),
        _ => {}
    }
    g
}
