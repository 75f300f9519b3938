//! The driver: [`simulate`] runs a scenario to a [`Run`].
//!
//! One `World` delivers everything, like TigerBeetle's simulator or a turmoil sim: the event
//! queue, ordered by true time and then by the order queued, and each actor's clock, pause
//! and crash state are here; the actors are elsewhere and never act on the world themselves.
//! Clients return [`crate::client::Effect`]s; the lock service's servers and the resource
//! return [`crate::actor::Effect`]s; only the driver sends, arms timers and records.
//!
//! By concern: `world/setup.rs` compiles the scenario into ids and microseconds once;
//! `world/net.rs` is the network; `world/faults.rs` pauses, crashes, restarts and partitions;
//! `world/record.rs` writes the trace (events, intervals, grants, writes); `world/clients.rs`
//! runs the clients' programs; `crate::narrate` words each event.
//!
//! A paused actor keeps its state; whatever reaches it (messages, its own timers) waits in a
//! buffer and is handled the moment it resumes. Work is CPU time: a pause freezes it, and what
//! remained of it takes its full time after the resume ([`Cpu`]). A crashed actor loses its
//! timers and in-flight work; messages sent to it are lost.

use crate::actor::{Effect, Env, Gate, Out};
use crate::client::{Client, TimerKind};
use crate::clock::Clock;
use crate::lock::{self, Service};
use crate::resource::server::{Commit, Server};
use crate::scenario::Scenario;
use crate::time::Micros;
use crate::trace::*;
use crate::RunError;

mod clients;
mod faults;
mod net;
mod queue;
mod record;
mod setup;

/// A timer of some actor, handed back to it when it fires.
#[derive(Clone, Debug)]
enum Timer {
    Client(TimerKind),
    Lock(lock::Timer),
    /// Boxed: a commit carries a whole write, and every queued item is as large as the largest.
    Resource(Box<Commit>),
}

#[derive(Clone, Debug)]
enum Action {
    Start(ActorId),
    Deliver(MsgId),
    Timer {
        actor: ActorId,
        /// The actor's incarnation when the timer was armed (a crash makes it stale).
        inc: u32,
        timer: Timer,
        gate: Gate,
    },
    /// A client's work, done once its process has computed for that long (then its
    /// `WorkDone` timer fires); `inc` as for a timer. Apart from the timers, which it would
    /// make a third larger.
    Work {
        actor: ActorId,
        inc: u32,
        cpu: Cpu,
    },
    Fault(usize),
    /// What a fault left to be done later (`faults::Later`).
    Later(faults::Later),
    Resume(ActorId),
    Heal(usize),
}

impl Action {
    /// The actor whose process does this work (paused: it waits; crashed: it is lost).
    fn worker(&self, msgs: &[Message]) -> Option<ActorId> {
        match self {
            Action::Start(a) | Action::Work { actor: a, .. } | Action::Timer { actor: a, gate: Gate::Process, .. } => Some(*a),
            Action::Deliver(m) => Some(msgs[*m].to),
            Action::Later(l) => Some(l.worker()),
            _ => None,
        }
    }
}

/// Work in progress: begun at `from` (true time), needing `work` of computation; `paused` is
/// how long its process had been paused in all when the work began. A stop-the-world pause
/// computes nothing (DESIGN §3), so the work is done once the time elapsed since `from`, less
/// the pauses since, reaches `work`.
#[derive(Clone, Copy, Debug)]
struct Cpu {
    from: Micros,
    work: Micros,
    paused: Micros,
}

/// An actor's process: its clock, and whether it runs.
struct Proc {
    clock: Clock,
    /// The same clock without its jumps: what the process measures elapsed time with.
    mono: Clock,
    paused_until: Option<Micros>,
    /// When its current pause began, and how long its finished pauses lasted in all.
    paused_since: Micros,
    paused_total: Micros,
    down: bool,
    /// Incremented by each crash.
    inc: u32,
    /// What reached it while it was paused.
    deferred: Vec<Action>,
    /// What the faults keep of it (`faults::State`).
    fault: faults::State,
}

struct World<'s> {
    sc: &'s Scenario,
    actors: Vec<Actor>,
    procs: Vec<Proc>,
    clients: Vec<Option<Client>>,
    lock: Service,
    resource: Server,
    net: net::Net,
    rec: record::Trace,
    /// The next token of the durable counter (`token.store: durable`).
    durable_next: u64,
    now: Micros,
    queue: queue::Queue<Action>,
    /// The scenario's duration: the run ends there unless a client's update is under way.
    due: Micros,
    /// The latest a run may end ([`overrun_us`] past `due`); also the end of whatever has no
    /// end of its own while the run is on (a lease never renewed, a partition never healed).
    end: Micros,
    /// Where the run ended: `due`, or later while an update was under way (`World::run_loop`).
    ended: Micros,
    overflow: bool,
    /// The most events this run may have; one more stops it with `RunError::TooManyEvents`.
    max_events: usize,
    /// The actors' effect buffers, emptied and reused by each handler call rather than
    /// allocated for each message (see [`World::apply`]).
    fx: Fx,
}

/// What the actors ask of the driver, one buffer per kind of actor.
#[derive(Default)]
struct Fx {
    lock: Out<lock::Timer>,
    resource: Out<Commit>,
    client: Vec<crate::client::Effect>,
}

/// How far past its duration `due` a run may go on while a client's update is under way: the
/// duration again, and at least a minute.
pub fn overrun_us(due: Micros) -> Micros {
    due.max(60 * crate::time::SEC)
}

/// Runs a validated scenario: its events and intervals, not yet judged.
pub(crate) fn simulate(sc: &Scenario, max_events: usize) -> Result<Run, RunError> {
    let mut w = World::new(sc, max_events);
    w.run_loop()?;
    Ok(w.finish())
}

/// What the world lets an actor know ([`Env`]), borrowed field by field so that the actor
/// itself can be borrowed mutably beside it.
struct View<'a> {
    now: Micros,
    procs: &'a [Proc],
    actors: &'a [Actor],
    net: &'a net::Net,
    grants: usize,
    durable: Option<u64>,
    end: Micros,
}

macro_rules! view {
    ($w:ident) => {
        crate::world::View {
            now: $w.now,
            procs: &$w.procs,
            actors: &$w.actors,
            net: &$w.net,
            grants: $w.rec.grants.len(),
            durable: $w.sc.token.durable().then_some($w.durable_next),
            end: $w.end,
        }
    };
}
use view;

impl Env for View<'_> {
    fn now(&self) -> Micros {
        self.now
    }
    fn local(&self, a: ActorId) -> Micros {
        self.procs[a].clock.local_at(self.now)
    }
    fn when_reads(&self, a: ActorId, local: Micros) -> Option<Micros> {
        self.procs[a].clock.when_reads(local, self.now)
    }
    fn mono(&self, a: ActorId) -> Micros {
        self.procs[a].mono.local_at(self.now)
    }
    fn when_mono_reads(&self, a: ActorId, mono: Micros) -> Option<Micros> {
        self.procs[a].mono.when_reads(mono, self.now)
    }
    fn is_down(&self, a: ActorId) -> bool {
        self.procs[a].down
    }
    fn paused_until(&self, a: ActorId) -> Option<Micros> {
        self.procs[a].paused_until
    }
    fn cut(&self, a: ActorId, b: ActorId) -> bool {
        self.net.cut(a, b)
    }
    fn name(&self, a: ActorId) -> &str {
        &self.actors[a].name
    }
    fn next_grant(&self) -> usize {
        self.grants
    }
    fn durable_token(&self) -> Option<u64> {
        self.durable
    }
    fn end(&self) -> Micros {
        self.end
    }
}

impl World<'_> {
    fn push(&mut self, at: Micros, action: Action) {
        if matches!(action, Action::Timer { .. }) {
            self.rec.iv.timers.push(at);
        }
        self.queue.push(at, action);
    }

    fn local(&self, a: ActorId) -> Micros {
        self.procs[a].clock.local_at(self.now)
    }

    /// Delivers everything up to the scenario's duration, and past it while a client's update
    /// is under way (it has read a value it has not yet written, or it believes it holds the
    /// lock with a write ahead): a run that stopped there would be judged safe in silence while
    /// its stale write was still to come. Then the run goes on for a twentieth of its duration
    /// more, so that its end can be seen (longer if an update begins then), never past `self.end`.
    fn run_loop(&mut self) -> Result<(), RunError> {
        let mut stop = None;
        while let Some(at) = self.queue.next_at() {
            if at > self.due {
                // An update begun in the run's last stretch keeps it going too.
                if self.update_under_way() {
                    stop = None;
                } else if stop.is_none() {
                    stop = Some(self.stop_after(self.now));
                }
            }
            if at > stop.unwrap_or(self.end) {
                break;
            }
            let Some((at, action)) = self.queue.pop() else { break };
            self.now = at;
            self.dispatch(action);
            if self.overflow {
                return Err(RunError::TooManyEvents { limit: self.max_events, at_us: self.now, shortest: None });
            }
        }
        self.ended = match stop {
            Some(t) => t,
            None if self.queue.is_empty() => self.stop_after(self.now),
            None => self.end,
        };
        Ok(())
    }

    /// Where a run whose last update ended at `t` stops.
    fn stop_after(&self, t: Micros) -> Micros {
        if t <= self.due {
            self.due
        } else {
            (t + self.due / 20).min(self.end)
        }
    }

    /// The clients whose update is under way, among those whose process can still run.
    fn updating(&self) -> impl Iterator<Item = ActorId> + '_ {
        self.clients
            .iter()
            .enumerate()
            .filter(|(a, c)| !self.procs[*a].down && c.as_ref().is_some_and(Client::update_under_way))
            .map(|(a, _)| a)
    }

    fn update_under_way(&self) -> bool {
        self.updating().next().is_some()
    }

    fn dispatch(&mut self, action: Action) {
        if let Some(a) = action.worker(&self.rec.iv.messages) {
            if self.procs[a].down {
                if let Action::Deliver(m) = action {
                    self.lose(m, crate::trace::Loss::ReceiverDown);
                }
                return;
            }
            if self.procs[a].paused_until.is_some() {
                self.procs[a].deferred.push(action);
                return;
            }
        }
        match action {
            Action::Start(a) => self.client_input(a, crate::client::Input::Start),
            Action::Deliver(m) => self.deliver(m),
            Action::Timer { actor, inc, timer, gate } => {
                if gate == Gate::Process && self.procs[actor].inc != inc {
                    return;
                }
                self.timer(actor, timer);
            }
            Action::Work { actor, inc, cpu: c } => {
                if self.procs[actor].inc != inc {
                    return;
                }
                let computed = self.now - c.from - (self.procs[actor].paused_total - c.paused);
                if computed < c.work {
                    let rest = c.work - computed;
                    self.push(self.now + rest, Action::Work { actor, inc, cpu: c });
                    return;
                }
                self.timer(actor, Timer::Client(TimerKind::WorkDone));
            }
            Action::Fault(i) => self.fault(i),
            Action::Later(l) => self.later(l),
            Action::Resume(a) => self.resume(a),
            Action::Heal(i) => self.heal(i),
        }
    }

    fn timer(&mut self, actor: ActorId, timer: Timer) {
        match timer {
            Timer::Client(kind) => self.client_input(actor, crate::client::Input::Timer(kind)),
            Timer::Lock(t) => {
                let mut out = std::mem::take(&mut self.fx.lock);
                self.lock.on_timer(actor, t, &view!(self), &mut out);
                self.apply(&mut out, Timer::Lock);
                self.fx.lock = out;
            }
            Timer::Resource(c) => {
                let mut out = std::mem::take(&mut self.fx.resource);
                self.resource.on_timer(*c, &view!(self), &mut out);
                self.apply(&mut out, |c| Timer::Resource(Box::new(c)));
                self.fx.resource = out;
            }
        }
    }

    /// Does what an actor asked, in the order it asked, and leaves `out` empty for the next
    /// handler. A handler's buffer is taken from [`Fx`] and put back after; a handler that runs
    /// while it is out (a failover's crash tells the lock service of the fault while the lock
    /// service's own effects are being applied) starts from a new buffer, and its effects are
    /// applied at once, as they were before the buffers were kept.
    fn apply<T>(&mut self, out: &mut Out<T>, lift: fn(T) -> Timer) {
        // The last event the actor asked for: a record that follows it belongs to it.
        let mut announced = None;
        // Drained in the order asked, each effect moved once, the buffer kept for the next.
        for e in out.drain(..) {
            match e {
                Effect::Send { from, to, payload } => self.send(from, to, payload),
                Effect::Event { actor, kind } => announced = Some(self.emit(actor, kind, None)),
                Effect::Timer { actor, at, timer, gate } => {
                    let inc = self.procs[actor].inc;
                    self.push(at, Action::Timer { actor, inc, timer: lift(timer), gate });
                }
                Effect::Record(r) => self.record(r, announced),
                Effect::Crash(a) => self.crash(a),
            }
        }
    }
}
