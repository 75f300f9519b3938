//! Order classes (issue 51; walked by [`super::bounded`]): where a fault can fall among a run's
//! events, so that a search tries
//! each way it can change the run once rather than a fixed set of instants and lengths.
//!
//! A run is a sequence of events, and a fault added to it changes the run only through where it
//! falls among them. Its start matters only through which events of the actor it strikes come
//! before it ([`Place`]: one start just before and one just after each of them, on the
//! millisecond grid a scenario is written on). Its size (a pause's or a partition's length, a
//! message's delay, a clock jump, the time to a restart) matters only through the order it gives
//! the events after it: [`Walk`] runs a size, then the next millisecond, sees which events moved
//! with the size and which stayed, and jumps to just before the first size at which a moving
//! event would pass one that stays. Each order of events is run once or twice; a size between is
//! the same run, event for event, at other times.
//!
//! What holds (`tests/search_classes.rs`): on one scenario of each family, every behaviour a
//! 1 ms grid of one added pause gives in a window was given by the classes walked in that window
//! (lease-basics, A: starts 0-9 ms, lengths 1-5,999 ms, 59,990 grid runs, 128 behaviours, 792
//! class runs). A pause that begins inside a client's long work (github-fileserver-pair's A,
//! working 48 s) depends on its start and its length apart: where the pause's end and the work's
//! end together cross events, cells of the plane that neither the walk of the size at the work's
//! first millisecond nor the walk of the start at each of those sizes enters; so the sizes are
//! walked again at each start where a walk of the start saw the run change ([`super::enumerate`]).
//! With that, starts 0-39 ms and lengths 1-2,999 ms gave all 1,649 of the grid's behaviours
//! (8,323 class runs; 12 were missed without it). Long runs with
//! periodic events have hundreds of thousands of classes, so that a search stops at its limits
//! and says how far it got.

use crate::scenario::fault::{self, Slot, Tries};
use crate::scenario::{Fault, Scenario};
use crate::time::{Micros, Millis, MS};
use crate::trace::{ActorId, Role, Run};

use super::FaultKind;

/// How a template's size is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knob {
    /// It has no size (a crash, a failover, a drift at one rate, a removal).
    None,
    /// Its first fault's size (`Fault::resized`).
    Size,
    /// The time from its crash to its restart.
    Restart,
}

/// One kind of change at one place of the run, whose start and size the search sets: a fault
/// added, or one of the scenario's own faults moved and resized, or removed.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    pub kind: FaultKind,
    /// The faults, with their start and size to be set (none: the removal of `replaces`).
    pub faults: Vec<Fault>,
    /// The scenario's own fault it takes the place of.
    pub replaces: Option<usize>,
    pub knob: Knob,
    /// The starts that give different runs.
    pub starts: Vec<Millis>,
    /// Where the actor it stops is working (from the millisecond after a `Work` event to its
    /// next event): a pause that starts later in the work leaves less of it for after, so there
    /// the start matters at every size, and is walked as the size is ([`Classes`]).
    pub spans: Vec<(Millis, Millis)>,
}

impl Template {
    /// Its faults at `start` with size `size` (ignored without a knob).
    pub fn at(&self, start: Millis, size: Millis) -> Vec<Fault> {
        let mut out = self.faults.clone();
        if let Some(f) = out.first_mut() {
            *f.at_ms_mut() = start;
            if self.knob == Knob::Size {
                *f = f.resized(size);
            }
        }
        if let (Knob::Restart, Some(r)) = (self.knob, out.get_mut(1)) {
            *r.at_ms_mut() = Millis::new(start.get() + size.get());
        }
        out
    }

    /// The largest size worth walking to from `start`: the rest of the run.
    pub fn max_size(&self, start: Millis, end: Millis) -> Millis {
        match self.knob {
            Knob::None => Millis::new(1),
            _ => Millis::new(end.get().saturating_sub(start.get()).max(1)),
        }
    }
}

/// The starts, on the millisecond grid, that differ in which of `times` come before them: the
/// millisecond of each (a tie with it) and the one after, and 0; all before `end`.
pub fn starts(times: impl Iterator<Item = Micros>, end: Millis) -> Vec<Millis> {
    let mut out: Vec<Millis> = vec![Millis::new(0)];
    for t in times {
        let ms = (t.max(Micros::ZERO) / MS) as u64;
        out.extend([Millis::new(ms), Millis::new(ms + 1)]);
    }
    crate::sort::by(&mut out, Ord::cmp);
    out.dedup();
    out.retain(|&m| m < end);
    out
}

/// Every template of added faults for `run` of `sc` (with the faults it has), and the
/// scenario's own faults moved, resized or removed (`own`: the indices of those still its own).
pub fn templates(sc: &Scenario, run: &Run, own: &[usize]) -> Vec<Template> {
    let end = sc.duration_ms;
    let tries = Tries::new(sc.lock.ttl_ms, end);
    let of = |a: ActorId| run.events.iter().filter(move |e| e.actor == a).map(|e| e.at_us);
    let mut out: Vec<Template> = Vec::new();
    let add = |out: &mut Vec<Template>, slot: Slot, starts: &[Millis]| offered(out, &slot, &tries, starts);
    let actors = 0..run.actors.len();
    let clients: Vec<ActorId> = actors.clone().filter(|&a| run.actors[a].role == Role::Client).collect();
    let servers: Vec<ActorId> = actors.clone().filter(|&a| run.actors[a].role.is_lock_server()).collect();
    let resource: Vec<ActorId> = actors.filter(|&a| run.actors[a].role == Role::Resource).collect();
    let at0 = Millis::new(0);
    for &c in &clients {
        let name = run.name(c);
        let from = out.len();
        add(&mut out, Slot::Client { name, at_ms: at0 }, &starts(of(c), end));
        for t in out[from..].iter_mut().filter(|t| matches!(t.faults[..], [Fault::Pause(_)])) {
            t.spans = work_spans(run, c, end);
        }
        for &to in servers.iter().chain(&resource) {
            // Each message it sends there: a delay holds the first sent at or after its start.
            let sent = run.intervals.messages.iter().filter(|m| m.from == c && m.to == to).map(|m| m.sent_us);
            let mut s: Vec<Millis> = sent.map(|t| Millis::new((t.max(Micros::ZERO) / MS) as u64)).filter(|&t| t < end).collect();
            s.dedup();
            if !s.is_empty() {
                add(&mut out, Slot::Message { from: name, to: run.name(to), at_ms: at0 }, &s);
            }
        }
    }
    for &n in &servers {
        add(&mut out, Slot::Server { name: run.name(n), at_ms: at0 }, &starts(of(n), end));
    }
    let replicated = run.actors.iter().any(|a| a.role == Role::Replica);
    add(&mut out, Slot::Service { at_ms: at0, replicated }, &starts(servers.iter().flat_map(|&n| of(n)), end));
    for &i in own {
        let f = &sc.faults[i];
        let kind = f.family();
        out.push(Template { kind, faults: vec![], replaces: Some(i), knob: Knob::None, starts: vec![at0], spans: Vec::new() });
        if matches!(f, Fault::Restart(_)) || f.at_ms() >= end {
            continue;
        }
        let whose = f.struck().and_then(|name| run.actor_id(name));
        let starts = match whose {
            Some(a) => starts(of(a), end),
            None => starts(servers.iter().flat_map(|&n| of(n)), end),
        };
        let knob = if f.size().is_some() { Knob::Size } else { Knob::None };
        let spans = if matches!(f, Fault::Pause(_)) { whose.map(|a| work_spans(run, a, end)).unwrap_or_default() } else { Vec::new() };
        out.push(Template { kind, faults: vec![f.clone()], replaces: Some(i), knob, starts, spans });
    }
    out
}

/// What each kind offers at `slot`, once per shape (the sizes it offers are the knob's).
fn offered(out: &mut Vec<Template>, slot: &Slot, tries: &Tries, starts: &[Millis]) {
    let mut offered = Vec::new();
    fault::offer(slot, tries, &mut offered);
    for faults in offered {
        let knob = match (faults.len(), faults[0].size()) {
            (2, _) => Knob::Restart,
            (_, Some(_)) => Knob::Size,
            _ => Knob::None,
        };
        let t = Template { kind: faults[0].family(), faults, replaces: None, knob, starts: starts.to_vec(), spans: Vec::new() };
        let same = |u: &Template| {
            u.knob == t.knob
                && u.knob != Knob::None
                && u.faults.len() == t.faults.len()
                && u.faults[0].who() == t.faults[0].who()
                && std::mem::discriminant(&u.faults[0]) == std::mem::discriminant(&t.faults[0])
                && u.starts == t.starts
        };
        if !out.iter().any(same) {
            out.push(t);
        }
    }
}

/// Where `a` is working: from the millisecond after each `Work` event until its work is done
/// (its length, plus what pauses in the run took of it; heartbeats and replies may come
/// between), each at least two milliseconds long.
fn work_spans(run: &Run, a: ActorId, end: Millis) -> Vec<(Millis, Millis)> {
    let mut out = Vec::new();
    for e in run.events.iter().filter(|e| e.actor == a) {
        let crate::trace::EventKind::Work { ms } = e.kind else { continue };
        let from = e.at_us.max(Micros::ZERO);
        let mut to = from + ms.to_micros();
        for p in run.intervals.pauses.iter().filter(|p| p.actor == a && p.from_us >= from) {
            if p.from_us < to {
                to += p.to_us - p.from_us;
            }
        }
        let (from, to) = ((from / MS) as u64 + 1, ((to / MS) as u64).min(end.get()));
        if to > from + 1 {
            out.push((Millis::new(from), Millis::new(to)));
        }
    }
    out
}

/// What a walk needs of a run: its behaviour and its events' times.
#[derive(Clone, Debug)]
pub struct Shape {
    pub behaviour: u64,
    pub times: Vec<i64>,
}

impl Shape {
    /// The run's behaviour, and the times of its events (the faults' marks among them) and of
    /// the deadlines no event marks: when each client's lease runs out by its own clock, each
    /// grant's term at the service (a client whose work ends a millisecond after its deadline
    /// rather than at it does otherwise), and when each message and each timer was due (a
    /// timer due as a pause ends fires before the messages that waited, a millisecond later
    /// after them).
    pub fn of(run: &Run) -> Shape {
        // The faults' own marks too (not in the behaviour): a pause's end moves with its length
        // before anything else does.
        let events = run.events.iter().map(|e| e.at_us);
        let deadlines = run.intervals.beliefs.iter().map(|b| b.valid_until_us).chain(run.grants.iter().map(|g| g.term_end_us));
        // When each message reached its receiver's door: to a paused receiver, no event marks it
        // until the pause ends, and one that arrives as the pause ends is handled otherwise.
        let deadlines = deadlines.chain(run.intervals.messages.iter().map(|m| m.due_us)).chain(run.intervals.timers.iter().copied());
        Shape { behaviour: crate::witness::behaviour(run), times: events.chain(deadlines).map(Micros::get).collect() }
    }
}

/// The walk over one template's sizes at one start (see the module's comment). A jump lands
/// where the events' rates say the order first changes; if the run there behaves otherwise
/// than the one it jumped from sooner than that (a deadline no event marks was passed: a key's
/// expiry on a server, a timer), the walk halves the gap until it finds the first size that
/// behaves otherwise, and goes on from there.
#[derive(Clone, Debug)]
pub struct Walk {
    next: u64,
    max: u64,
    prev: Option<(u64, Shape)>,
    /// Halving a jump that went too far: the last size known to behave as `prev`, and the
    /// first known not to, with its shape.
    halving: Option<(u64, u64, Shape)>,
}

/// Distinct rates at which events move with the size, beyond which a walk goes a millisecond at
/// a time rather than computing where the order changes.
const RATES: usize = 8;

impl Walk {
    pub fn new(max: Millis) -> Walk {
        Walk { next: 1, max: max.get().max(1), prev: None, halving: None }
    }

    /// A walk with nothing to run.
    pub fn done() -> Walk {
        Walk { next: 1, max: 0, prev: None, halving: None }
    }

    /// Ends the walk.
    pub fn finish(&mut self) {
        self.max = 0;
    }

    /// The next size to run, if any.
    pub fn propose(&self) -> Option<Millis> {
        (self.next <= self.max).then(|| Millis::new(self.next))
    }

    /// How the run at the size proposed went: its shape, or `None` where it could not be judged
    /// (then the walk goes on at twice the size).
    pub fn tell(&mut self, shape: Option<Shape>) {
        let size = self.next;
        let Some(shape) = shape else {
            (self.prev, self.halving) = (None, None);
            self.next = size.saturating_mul(2).max(size + 1);
            return;
        };
        let like_prev = self.prev.as_ref().is_some_and(|(_, p)| p.behaviour == shape.behaviour);
        if let Some((lo, hi, hi_shape)) = self.halving.take() {
            let (lo, hi, hi_shape) = if like_prev { (size, hi, hi_shape) } else { (lo, size, shape) };
            if hi - lo > 1 {
                self.halving = Some((lo, hi, hi_shape));
                self.next = lo + (hi - lo) / 2;
            } else {
                // The first size that behaves otherwise: the walk goes on from it.
                self.next = hi + 1;
                self.prev = Some((hi, hi_shape));
            }
            return;
        }
        match &self.prev {
            Some((p, _)) if *p + 1 < size && !like_prev => {
                // The jump went past a change the rates did not show.
                self.halving = Some((*p, size, shape));
                self.next = *p + (size - *p) / 2;
                return;
            }
            Some((p, before)) if *p + 1 == size && like_prev && before.times.len() == shape.times.len() => {
                self.next = size.saturating_add(until_order_changes(&before.times, &shape.times).max(1));
            }
            _ => self.next = size + 1,
        }
        if self.next > self.max && size < self.max {
            // The last class before the largest size: run the largest, so a class the largest
            // size falls in is run even when the jump would end past it.
            self.next = self.max;
        }
        self.prev = Some((size, shape));
    }
}

/// Given the events' times at a size and at the next millisecond (the same events, in the same
/// order), how many milliseconds more the size can grow before an event that moves with it
/// reaches one that moves more slowly (or stays): `u64::MAX` if none would.
fn until_order_changes(before: &[i64], after: &[i64]) -> u64 {
    let rates: Vec<i64> = before.iter().zip(after).map(|(a, b)| b - a).collect();
    let mut distinct: Vec<i64> = rates.clone();
    crate::sort::by(&mut distinct, Ord::cmp);
    distinct.dedup();
    if distinct.len() > RATES {
        return 1;
    }
    // In order of time (a deadline comes after the events), from the last back: the time of
    // the next one at each rate.
    let mut order: Vec<usize> = (0..after.len()).collect();
    crate::sort::by_key(&mut order, |&i| (after[i], i));
    let mut next_at: Vec<Option<i64>> = vec![None; distinct.len()];
    let mut best = u64::MAX;
    for &i in order.iter().rev() {
        let r = rates[i];
        for (k, &rk) in distinct.iter().enumerate() {
            if let (true, Some(t)) = (rk < r, next_at[k]) {
                // Event i gains r - rk µs a millisecond on an event after it.
                let gap = (t - after[i]).max(0) as u64;
                best = best.min(gap / (r - rk) as u64);
            }
        }
        let k = distinct.iter().position(|&d| d == r).unwrap_or(0);
        next_at[k] = Some(after[i]);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_fall_on_each_side_of_each_event() {
        let t = [Micros::us(1_500), Micros::us(2_000), Micros::us(2_000_400)];
        let s: Vec<u64> = starts(t.into_iter(), Millis::new(2_001)).iter().map(|m| m.get()).collect();
        assert_eq!(s, vec![0, 1, 2, 3, 2_000]);
    }

    #[test]
    fn the_walk_jumps_to_where_a_moving_event_meets_one_that_stays() {
        // Events at 0, 10 ms (moves with the size), 50 ms (stays): they meet 40 ms on.
        let before = [0, 10_000, 50_000];
        let after = [0, 11_000, 50_000];
        assert_eq!(until_order_changes(&before, &after), 39);
        // Nothing moves: no size changes the order.
        assert_eq!(until_order_changes(&before, &before), u64::MAX);
        let mut w = Walk::new(Millis::new(1_000));
        w.tell(Some(Shape { behaviour: 7, times: before.to_vec() }));
        w.tell(Some(Shape { behaviour: 7, times: after.to_vec() }));
        assert_eq!(w.propose(), Some(Millis::new(2 + 39)));
    }
}
