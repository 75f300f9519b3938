//! Derived facts of a run, computed once: [`Facts`], built by [`Facts::of`] from a [`Run`].
//!
//! A timeline and an inspector ask the same questions at every step of playback: who leads the
//! consensus service, what each client knows of its lease, which keys each node holds, how the
//! last Redlock round went. Scanning the events for each answer costs O(n) per question per
//! frame; here every answer is an index built once, read by binary search (O(log n)).
//!
//! Times are true times ([`Micros`]); steps are indices into [`Run::events`]. Spans follow the
//! run's convention: a span is live at `t` when `from_us <= t < to_us`.

use crate::flat::Map;

use crate::time::Micros;
use crate::trace::{ActorId, Belief, Event, EventId, EventKind, KeySpan, QuorumEvent, Role, Run, Span};

/// What a client's program is doing, from its last start or end at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// It has not started yet.
    NotStarted,
    /// It has started and not ended.
    Running,
    /// It ran to its end.
    Finished,
    /// It ended without finishing (it gave up, or lost the lock).
    Stopped,
}

/// A lock key alive on a node, with the consensus revision that created it (if any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveKey {
    /// Index into [`crate::trace::Intervals::keys`].
    pub span: usize,
    pub owner: Option<ActorId>,
    /// The revision of the write that created it (a consensus key); `None` for a Redis key.
    pub revision: Option<u64>,
}

/// A client at a moment: what the run's intervals and events say of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientAt<'r> {
    /// It is down (crashed and not restarted).
    pub down: bool,
    /// The pause it is in, if any.
    pub paused: Option<&'r Span>,
    /// The lease it believes it holds, if any.
    pub belief: Option<&'r Belief>,
    /// Its lease deadline as it knows it at the step, on its own clock.
    pub deadline_local_us: Option<Micros>,
    pub program: Program,
}

/// Values that change at known true times: the value at `t` is the last one set at or before
/// `t`.
#[derive(Clone, Debug, Default, PartialEq)]
struct Steps<T> {
    at_us: Vec<Micros>,
    values: Vec<T>,
}

impl<T> Steps<T> {
    fn push(&mut self, at_us: Micros, v: T) {
        if self.at_us.last() == Some(&at_us) {
            // Several changes at one instant: the last one stands.
            *self.values.last_mut().expect("a value per time") = v;
        } else {
            self.at_us.push(at_us);
            self.values.push(v);
        }
    }

    fn at(&self, t: Micros) -> Option<&T> {
        let n = self.at_us.partition_point(|&a| a <= t);
        n.checked_sub(1).map(|i| &self.values[i])
    }
}

/// The spans live at each moment, as indices in their list's order.
fn live_sets(spans: impl Iterator<Item = (usize, Micros, Micros)>) -> Steps<Vec<usize>> {
    // At one instant, spans that start there join and spans that end there leave (a span of
    // no length never shows).
    let mut changes: Map<Micros, (Vec<usize>, Vec<usize>)> = Map::new();
    for (i, from, to) in spans {
        changes.entry(from).or_default().0.push(i);
        changes.entry(to.max(from)).or_default().1.push(i);
    }
    let mut live: crate::flat::Set<usize> = Default::default();
    let mut out = Steps::default();
    for (t, (join, leave)) in changes {
        live.extend(join);
        for i in leave {
            live.remove(&i);
        }
        out.push(t, live.iter().copied().collect());
    }
    out
}

/// Per actor, the steps at which something of one kind happened (with a value).
fn per_actor<T>(run: &Run, pick: impl Fn(&Event) -> Option<T>) -> Vec<Vec<(EventId, T)>> {
    let mut out: Vec<Vec<(EventId, T)>> = (0..run.actors.len()).map(|_| Vec::new()).collect();
    for e in &run.events {
        if let Some(v) = pick(e) {
            out[e.actor].push((e.id, v));
        }
    }
    out
}

/// The last entry at or before step `upto`.
fn last_upto<T>(list: &[(EventId, T)], upto: EventId) -> Option<&(EventId, T)> {
    let n = list.partition_point(|(id, _)| *id <= upto);
    n.checked_sub(1).map(|i| &list[i])
}

/// The facts of one run, indexed for queries by true time or by step.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// The consensus leader over time (changed by elections, a lost quorum, the leader's crash).
    leader: Steps<Option<ActorId>>,
    /// Per actor: live spans of `Intervals::downs`, `pauses`, and (clients) `beliefs`.
    downs: Vec<Steps<Vec<usize>>>,
    pauses: Vec<Steps<Vec<usize>>>,
    beliefs: Vec<Steps<Vec<usize>>>,
    /// Per node: the live keys; per client: the live keys it owns (on any node).
    keys_on: Vec<Steps<Vec<usize>>>,
    keys_of: Vec<Steps<Vec<usize>>>,
    /// Per key span: its owner, and the revision that created it (keys on consensus members).
    owners: Vec<Option<ActorId>>,
    revisions: Vec<Option<u64>>,
    /// Per actor: the lease deadline (own clock) after each grant or renewal.
    deadlines: Vec<Vec<(EventId, Micros)>>,
    /// Per actor: its Redlock tallies.
    tallies: Vec<Vec<(EventId, ())>>,
    /// Per actor: its program's starts and ends.
    program: Vec<Vec<(EventId, Program)>>,
    /// Steps that carry a key moment, and steps where a violation shows, in order.
    moments: Vec<EventId>,
    violations: Vec<EventId>,
}

impl Facts {
    /// Computes every fact of `run` (O(n log n) in its events and spans).
    pub fn of(run: &Run) -> Facts {
        let n = run.actors.len();
        let iv = &run.intervals;
        let mut leader = Steps::default();
        let mut now = None;
        for e in &run.events {
            let next = match e.kind {
                EventKind::Quorum(QuorumEvent::LeaderElected { .. }) => Some(e.actor),
                EventKind::Quorum(QuorumEvent::NoQuorum { .. }) => None,
                EventKind::Crashed if now == Some(e.actor) => None,
                _ => continue,
            };
            now = next;
            leader.push(e.at_us, now);
        }
        let spans_of = |spans: &[Span]| -> Vec<Steps<Vec<usize>>> {
            (0..n)
                .map(|a| live_sets(spans.iter().enumerate().filter(|(_, s)| s.actor == a).map(|(i, s)| (i, s.from_us, s.to_us))))
                .collect()
        };
        let keys = |keep: &dyn Fn(&KeySpan) -> bool| {
            live_sets(iv.keys.iter().enumerate().filter(|(_, k)| keep(k)).map(|(i, k)| (i, k.from_us, k.to_us)))
        };
        // The revision of a consensus key is that of the first write its member committed at
        // the moment the key appeared.
        // Sorted stably and then deduplicated, so that the first of a member's commits at one
        // instant is the one kept (a sorted-vector map would shift its entries on every insert
        // once the leadership moved to a lower-numbered member).
        let mut committed: Vec<((ActorId, Micros), u64)> = run
            .events
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Quorum(QuorumEvent::Committed { revision, .. }) => Some(((e.actor, e.at_us), revision)),
                _ => None,
            })
            .collect();
        crate::sort::by_key(&mut committed, |(k, _)| *k);
        committed.dedup_by_key(|(k, _)| *k);
        let committed_at = |k: (ActorId, Micros)| committed.binary_search_by_key(&k, |(k, _)| *k).ok().map(|i| committed[i].1);
        let revisions = iv
            .keys
            .iter()
            .map(|k| (run.actors[k.node].role == Role::Member).then(|| committed_at((k.node, k.from_us))).flatten())
            .collect();
        Facts {
            leader,
            downs: spans_of(&iv.downs),
            pauses: spans_of(&iv.pauses),
            beliefs: (0..n)
                .map(|a| live_sets(iv.beliefs.iter().enumerate().filter(|(_, b)| b.client == a).map(|(i, b)| (i, b.from_us, b.to_us))))
                .collect(),
            keys_on: (0..n).map(|a| keys(&|k| k.node == a)).collect(),
            keys_of: (0..n).map(|a| keys(&|k| k.owner == Some(a))).collect(),
            owners: iv.keys.iter().map(|k| k.owner).collect(),
            revisions,
            deadlines: per_actor(run, |e| match e.kind {
                EventKind::Acquired { until_local_us, .. } | EventKind::Renewed { until_local_us } => Some(until_local_us),
                _ => None,
            }),
            tallies: per_actor(run, |e| matches!(e.kind, EventKind::Tally { .. }).then_some(())),
            program: per_actor(run, |e| match e.kind {
                EventKind::Start => Some(Program::Running),
                EventKind::Done { completed: true } => Some(Program::Finished),
                EventKind::Done { completed: false } => Some(Program::Stopped),
                _ => None,
            }),
            moments: run.moments().map(|e| e.id).collect(),
            violations: run.verdict.violations.iter().filter_map(|v| v.event).collect(),
        }
    }

    /// The consensus leader at true time `t`, if there is one.
    pub fn leader_at(&self, t: Micros) -> Option<ActorId> {
        self.leader.at(t).copied().flatten()
    }

    /// Whether `actor` is down at `t`.
    pub fn down_at(&self, actor: ActorId, t: Micros) -> bool {
        self.downs.get(actor).and_then(|s| s.at(t)).is_some_and(|l| !l.is_empty())
    }

    /// The pause `actor` is in at `t`, as an index into `Intervals::pauses`.
    pub fn pause_at(&self, actor: ActorId, t: Micros) -> Option<usize> {
        self.pauses.get(actor)?.at(t)?.first().copied()
    }

    /// The lease `client` believes it holds at `t`, as an index into `Intervals::beliefs`.
    pub fn belief_at(&self, client: ActorId, t: Micros) -> Option<usize> {
        self.beliefs.get(client)?.at(t)?.first().copied()
    }

    /// The keys alive on `node` at `t`, in the order of `Intervals::keys`.
    pub fn keys_on(&self, node: ActorId, t: Micros) -> Vec<LiveKey> {
        self.live_keys(self.keys_on.get(node), t)
    }

    /// How many nodes hold a key of `client` at `t` (Redlock: compare with a majority).
    pub fn keys_held(&self, client: ActorId, t: Micros) -> usize {
        self.keys_of.get(client).and_then(|s| s.at(t)).map_or(0, Vec::len)
    }

    /// A consensus member's lock queue at `t`: its live keys that have a revision, lowest
    /// revision (the holder) first.
    pub fn queue_at(&self, run: &Run, member: ActorId, t: Micros) -> Vec<LiveKey> {
        let mut q: Vec<LiveKey> = self.keys_on(member, t).into_iter().filter(|k| k.revision.is_some()).collect();
        crate::sort::by(&mut q, |a, b| (a.revision, a.owner.map(|o| run.name(o))).cmp(&(b.revision, b.owner.map(|o| run.name(o)))));
        q
    }

    /// The lease deadline `client` knows of once step `upto` has happened: the end of its last
    /// grant or renewal so far, on its own clock (the same as [`Run::lease_deadline`]).
    pub fn lease_deadline(&self, client: ActorId, upto: EventId) -> Option<Micros> {
        last_upto(self.deadlines.get(client)?, upto).map(|(_, d)| *d)
    }

    /// `client`'s last Redlock tally at or before step `upto`.
    pub fn last_tally(&self, client: ActorId, upto: EventId) -> Option<EventId> {
        last_upto(self.tallies.get(client)?, upto).map(|(id, _)| *id)
    }

    /// What `client`'s program is doing once step `upto` has happened.
    pub fn program(&self, client: ActorId, upto: EventId) -> Program {
        self.program.get(client).and_then(|p| last_upto(p, upto)).map_or(Program::NotStarted, |(_, p)| *p)
    }

    /// Everything about `client` at true time `t`, step `step`.
    pub fn client_at<'r>(&self, run: &'r Run, client: ActorId, t: Micros, step: EventId) -> ClientAt<'r> {
        ClientAt {
            down: self.down_at(client, t),
            paused: self.pause_at(client, t).map(|i| &run.intervals.pauses[i]),
            belief: self.belief_at(client, t).map(|i| &run.intervals.beliefs[i]),
            deadline_local_us: self.lease_deadline(client, step),
            program: self.program(client, step),
        }
    }

    /// The steps that carry a key moment, in order.
    pub fn moments(&self) -> &[EventId] {
        &self.moments
    }

    /// The steps where a violation shows, in the verdict's order.
    pub fn violations(&self) -> &[EventId] {
        &self.violations
    }

    fn live_keys(&self, steps: Option<&Steps<Vec<usize>>>, t: Micros) -> Vec<LiveKey> {
        let Some(live) = steps.and_then(|s| s.at(t)) else { return Vec::new() };
        live.iter().map(|&span| LiveKey { span, owner: self.owners[span], revision: self.revisions[span] }).collect()
    }
}
