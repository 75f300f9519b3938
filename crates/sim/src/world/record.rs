//! The record of a run: events, the intervals a timeline draws, grants, tokens, applied
//! writes and the resource's states; and the end of the run, where the checker judges it.

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use crate::flat::Map;

use super::World;
use crate::actor::Record;
use crate::time::Micros;
use crate::trace::*;

/// The trace being written.
pub(super) struct Trace {
    pub events: Vec<Event>,
    pub iv: Intervals,
    pub grants: Vec<Grant>,
    pub applied: Vec<Applied>,
    pub tokens: Vec<(Micros, u64, ActorId)>,
    pub resource_log: Vec<ResourceState>,
    /// Per client, its open belief (an index into `iv.beliefs`).
    pub open_belief: Vec<Option<usize>>,
    /// Open key spans by the handle their service gave them.
    open_key: Map<u64, usize>,
    pub open_down: Map<ActorId, usize>,
}

/// How many events the last run recorded. The next run reserves as many (at most its own
/// limit): the lab runs a scenario again at each edit and the search runs its variants by the
/// thousand, so a run mostly fills what it reserves, where growing a trace of 30,000 events by
/// doubling copied 3 MB. Capacity only: a run on another thread that changes it changes no run.
static LAST: AtomicUsize = AtomicUsize::new(0);

impl Trace {
    pub fn new(clients: usize, max_events: usize) -> Trace {
        Trace {
            events: Vec::with_capacity(LAST.load(Relaxed).min(max_events)),
            iv: Intervals::default(),
            grants: Vec::new(),
            applied: Vec::new(),
            tokens: Vec::new(),
            resource_log: Vec::new(),
            open_belief: vec![None; clients],
            open_key: Map::new(),
            open_down: Map::new(),
        }
    }
}

impl World<'_> {
    pub(super) fn emit(&mut self, actor: ActorId, kind: EventKind, cause: Option<EventId>) -> EventId {
        let id = self.rec.events.len();
        if id >= self.max_events {
            self.overflow = true;
        }
        let local_us = self.local(actor);
        self.rec.events.push(Event { id, at_us: self.now, actor, local_us, kind, cause });
        id
    }

    /// Records a fact of the run. `event` is the event the actor recorded just before it in the
    /// same batch of effects (a grant's, a write's): records that name an event need one.
    pub(super) fn record(&mut self, r: Record, event: Option<EventId>) {
        let this = || event.expect("a grant, a write or a state follows the event that announces it");
        let now = self.now;
        let rec = &mut self.rec;
        match r {
            Record::Grant(mut g) => {
                g.event = this();
                rec.grants.push(*g);
            }
            Record::GrantTerm { grant, until_us } => rec.grants[grant].extend(now, until_us),
            Record::GrantReleased { grant } => {
                let g = &mut rec.grants[grant];
                g.released_us = Some(now);
                g.term_end_us = g.term_end_us.min(now);
            }
            Record::GrantEnded { grant } => {
                let g = &mut rec.grants[grant];
                g.term_end_us = g.term_end_us.min(now);
            }
            Record::Token { client, token, durable } => {
                rec.tokens.push((now, token, client));
                if durable {
                    self.durable_next = token + 1;
                }
            }
            Record::KeyOpen { handle, node, owner } => {
                rec.open_key.insert(handle, rec.iv.keys.len());
                rec.iv.keys.push(KeySpan { node, owner, from_us: now, to_us: self.end, end: KeyEnd::RunEnd });
            }
            Record::KeyClose { handle, end } => {
                if let Some(k) = rec.open_key.remove(&handle) {
                    rec.iv.keys[k].to_us = now;
                    rec.iv.keys[k].end = end;
                }
            }
            Record::Applied(mut a) => {
                a.event = this();
                rec.applied.push(*a);
            }
            Record::Resource { value, version, highest } => {
                let event = this();
                rec.resource_log.push(ResourceState { at_us: now, event, value, version, highest });
            }
        }
    }

    pub(super) fn close_belief(&mut self, a: ActorId) {
        if let Some(b) = self.rec.open_belief[a].take() {
            self.rec.iv.beliefs[b].to_us = self.now;
        }
    }

    pub(super) fn finish(mut self) -> Run {
        let (end, horizon) = (self.ended, self.end);
        let unfinished = self.updating().collect();
        self.now = end;
        let mut rec = self.rec;
        LAST.store(rec.events.len(), Relaxed);
        for k in rec.open_key.values() {
            rec.iv.keys[*k].to_us = end;
        }
        for m in &mut rec.iv.messages {
            if m.fate == MsgFate::InFlight {
                m.arrived_us = end;
            }
        }
        // Whatever had no end while the run was on ends with it (`horizon` stood for "never").
        let iv = &mut rec.iv;
        let spans = iv.pauses.iter_mut().chain(&mut iv.downs).chain(&mut iv.partitions);
        for to in spans.map(|s| &mut s.to_us).chain(iv.beliefs.iter_mut().map(|b| &mut b.to_us)) {
            *to = (*to).min(end);
        }
        let never = |t: &mut Micros| {
            if *t == horizon {
                *t = end;
            }
        };
        iv.beliefs.iter_mut().for_each(|b| never(&mut b.valid_until_us));
        rec.grants.iter_mut().for_each(|g| never(&mut g.term_end_us));
        let names = self.actors.iter().map(|a| a.name.clone()).collect();
        Run {
            scenario: self.sc.id.clone(),
            seed: self.sc.seed,
            actors: self.actors,
            events: rec.events,
            intervals: rec.iv,
            grants: rec.grants,
            applied: rec.applied,
            tokens: rec.tokens,
            final_value: self.resource.store.value,
            resource_log: rec.resource_log,
            clocks: self.procs.into_iter().map(|p| p.clock).collect(),
            end_us: end,
            due_us: self.due,
            unfinished,
            verdict: Default::default(),
            moments: Default::default(),
            words: crate::trace::Words(std::rc::Rc::new(crate::msg::Payloads { payloads: self.net.payloads, names })),
        }
    }
}
