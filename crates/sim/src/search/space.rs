//! The faults a search adds: [`space`] lists every one-fault change worth trying, from the run
//! as written (pauses of each client just after each of its events and between them, with
//! lengths around the TTL; delays of each message a client sends to the lock service or the
//! resource; clock jumps and drift, crashes with and without a restart, and failover on each
//! lock server near each grant; a client cut off from the others).

use crate::scenario::fault::{self, Slot, Tries};
use crate::scenario::{Fault, Scenario};
use crate::time::{Micros, Millis, MS};
use crate::trace::{ActorId, Role, Run};

/// The most start instants tried per actor; beyond it they are spread evenly over the run.
const INSTANTS: usize = 32;
/// The most messages delayed per link (client → server); beyond it they are spread evenly.
const MESSAGES: usize = 8;

/// The families of fault a search tries, for its coverage statement (each kind says its own,
/// `Kind::family`).
pub use crate::scenario::fault::Family as FaultKind;

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
fn just_after(t: Micros) -> Millis {
    Millis::new((t.max(Micros::ZERO) / MS) as u64 + 1)
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
fn instants(times: impl Iterator<Item = Micros>, end_ms: Millis) -> Vec<Millis> {
    let after: crate::flat::Set<Millis> = times.map(just_after).filter(|&t| t < end_ms).collect();
    let after: Vec<Millis> = after.into_iter().collect();
    let mut all = after.clone();
    let ends = |w: &[Millis]| (w[0].get(), w[1].get());
    all.extend(after.windows(2).map(ends).filter(|(a, b)| b - a >= 4).map(|(a, b)| Millis::new((a + b) / 2)));
    crate::sort::by(&mut all, Ord::cmp);
    all.dedup();
    spread(&all, INSTANTS)
}

/// Every one-fault change the search tries on `sc`, whose run as written is `run`: at each
/// place, what each kind offers (`fault::offer`).
pub fn space(sc: &Scenario, run: &Run) -> Vec<Candidate> {
    let tries = Tries::new(sc.lock.ttl_ms, sc.duration_ms);
    let (end, lengths) = (tries.end_ms, tries.lengths);
    let of = |a: ActorId| run.events.iter().filter(move |e| e.actor == a).map(|e| e.at_us);
    let mut out = Vec::new();
    let mut add = |slot: Slot| {
        let mut offered = Vec::new();
        fault::offer(&slot, &tries, &mut offered);
        out.extend(offered.into_iter().map(|faults| Candidate { kind: faults[0].family(), faults, replaces: None }));
    };
    let clients: Vec<ActorId> = (0..run.actors.len()).filter(|&a| run.actors[a].role == Role::Client).collect();
    let servers: Vec<ActorId> = (0..run.actors.len()).filter(|&a| run.actors[a].role.is_lock_server()).collect();
    for &c in &clients {
        let name = run.name(c);
        for at_ms in instants(of(c), end) {
            add(Slot::Client { name, at_ms });
        }
        // Each message it sends to a lock server or the resource.
        let dests = servers.iter().copied().chain((0..run.actors.len()).filter(|&a| run.actors[a].role == Role::Resource));
        for to in dests {
            let sent = run
                .intervals
                .messages
                .iter()
                .filter(|m| m.from == c && m.to == to)
                .map(|m| Millis::new((m.sent_us.max(Micros::ZERO) / MS) as u64));
            let sent: Vec<Millis> = sent.filter(|&t| t < end).collect::<crate::flat::Set<_>>().into_iter().collect();
            for at_ms in spread(&sent, MESSAGES) {
                add(Slot::Message { from: name, to: run.name(to), at_ms });
            }
        }
    }
    // The lock servers, near each grant: the moments a lock service's state matters.
    let grants = instants(run.grants.iter().map(|g| g.at_us).chain([Micros::ZERO]), end);
    let replicated = run.actors.iter().any(|a| a.role == Role::Replica);
    for &n in &servers {
        for &at_ms in &grants {
            add(Slot::Server { name: run.name(n), at_ms });
        }
    }
    for &at_ms in &grants {
        add(Slot::Service { at_ms, replicated });
    }
    // The scenario's own faults: each removed, moved to the instants that matter for whom it
    // strikes, and resized to the lengths tried for added faults and to fractions of its own.
    for (i, f) in sc.faults.iter().enumerate() {
        let kind = f.family();
        let mut own = |faults: Vec<Fault>| out.push(Candidate { kind, faults, replaces: Some(i) });
        own(vec![]);
        let whose = f.struck().and_then(|name| run.actor_id(name));
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
        if let Some(size) = f.size() {
            let mut sizes: Vec<Millis> = lengths.to_vec();
            let n = size.get();
            sizes.extend([n / 10, n / 4, n / 2, 2 * n].map(|l| Millis::new(l.max(1))));
            crate::sort::by(&mut sizes, Ord::cmp);
            sizes.dedup();
            for n in sizes.into_iter().filter(|&n| n != size) {
                own(vec![f.resized(n)]);
            }
        }
    }
    out
}
