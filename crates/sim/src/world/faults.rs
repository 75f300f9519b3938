//! The world's fault vocabulary: what a fault asks of the world (`scenario::fault::Verb`),
//! done at its time. Pauses (the process stops; what reaches it waits), crashes (timers and
//! buffered work are lost), restarts, clock changes (known in advance by the clocks; here only
//! recorded), partitions and their healing, failover, and disk stalls. Each kind of fault says
//! which verb it is (`scenario/fault/`); nothing here knows the kinds.

use super::{net::Partition, Action, World};
use crate::actor::ServerFault;
use crate::client::Client;
use crate::proto::NO_LEASE_US;
use crate::rng::Rng;
use crate::scenario::fault::{Disk, Stall, Verb};
use crate::scenario::Persistence;
use crate::time::Micros;
use crate::trace::{ActorId, EventKind, Jump, Role, Span};

/// What the faults keep of a process, beside its pauses (`Proc`).
#[derive(Clone, Debug, Default)]
pub(super) struct State {
    /// Stopped by its disk, not a pause.
    disk: bool,
    /// Until when its disk stalls, if it stops at its next write.
    disk_until: Option<Micros>,
}

/// What a fault leaves to be done later (`Action::Later`).
#[derive(Clone, Debug)]
pub(super) enum Later {
    /// A server's output held for its fsync ([`World::handled`]), and its incarnation then.
    Flush(ActorId, u32, Box<crate::actor::Out<crate::lock::Timer>>),
}

impl Later {
    /// The actor whose process does it.
    pub(super) fn worker(&self) -> ActorId {
        match self {
            Later::Flush(a, ..) => *a,
        }
    }
}

impl World<'_> {
    /// The actor called `name` (validated).
    pub(super) fn id(&self, name: &str) -> ActorId {
        self.actors.iter().position(|a| a.name == name).expect("validated actor")
    }

    /// Fault `i` of the scenario, at its time: what its kind asks of the world.
    pub(super) fn fault(&mut self, i: usize) {
        let sc = self.sc;
        let verb = sc.faults[i].verb(sc);
        self.act(verb);
    }

    /// Does what a fault asks: the world's whole fault vocabulary, each verb a method below.
    fn act(&mut self, verb: Verb) {
        match verb {
            Verb::Pause { actor, for_us } => self.pause(self.id(actor), for_us),
            Verb::Crash { actor } => self.crash(self.id(actor)),
            Verb::Restart { actor } => self.restart(self.id(actor)),
            Verb::JumpClock { actor, by_us } => self.jump_clock(self.id(actor), by_us),
            Verb::Drift { actor, ppm } => self.drift(self.id(actor), ppm),
            Verb::Isolate { actors, from, for_us } => {
                let ids = |names: &[String]| names.iter().map(|n| self.id(n)).collect();
                self.isolate(ids(actors), ids(from), for_us)
            }
            Verb::FailOver => self.server_fault(ServerFault::Failover),
            Verb::StallDisk { actor, for_us, disk } => self.stall_disk(self.id(actor), for_us, disk),
            // The network holds and drops them, armed from the start (`Net::new`).
            Verb::Hold { .. } | Verb::Drop { .. } => {}
        }
    }

    /// The clock of `a` steps by `by`. Clocks are known before the run: here it is recorded.
    fn jump_clock(&mut self, a: ActorId, by: Micros) {
        self.rec.iv.jumps.push(Jump { actor: a, at_us: self.now, by_us: by });
        self.emit(a, EventKind::ClockJumped { by_us: by }, None);
    }

    /// The clock of `a` drifts at `ppm` from now (known before the run: here it is recorded).
    fn drift(&mut self, a: ActorId, ppm: i64) {
        self.emit(a, EventKind::DriftChanged { ppm }, None);
    }

    /// The actors `ids` are cut off from all others (from those in `from`, if any) for `duration`.
    fn isolate(&mut self, ids: Vec<ActorId>, from: Vec<ActorId>, duration: Micros) {
        let until = self.now + duration;
        for &a in &ids {
            self.rec.iv.partitions.push(Span { actor: a, from_us: self.now, to_us: until.min(self.end) });
        }
        self.emit(ids[0], EventKind::Isolated { until_us: until }, None);
        self.net.partitions.push(Partition { isolate: ids, from, active: true });
        self.push(until, Action::Heal(self.net.partitions.len() - 1));
        self.server_fault(ServerFault::Network);
    }

    /// The disk of server `a` stalls for `duration`: it stops now, at its next write
    /// ([`World::handled`]), or never, as `disk` says.
    fn stall_disk(&mut self, a: ActorId, duration: Micros, disk: Disk) {
        let until = self.now + duration;
        let stall = match disk {
            Disk::Now => Stall::Now,
            Disk::NextWrite => Stall::NextWrite,
            Disk::Never => Stall::None,
        };
        if stall == Stall::Now {
            self.stop_for(a, duration, Some(stall));
        } else {
            self.procs[a].fault.disk_until = (stall == Stall::NextWrite).then_some(until);
            self.emit(a, EventKind::DiskStalled { until_us: until, stall }, None);
        }
    }

    /// Tells the lock service what happened, and does what it asks.
    fn server_fault(&mut self, fault: ServerFault) {
        let mut out = std::mem::take(&mut self.fx.lock);
        self.lock.on_fault(fault, &super::view!(self), &mut out);
        self.apply(&mut out, super::Timer::Lock);
        self.fx.lock = out;
    }

    /// The process of `a` stops for `duration`, keeping its state. Its end was queued before
    /// the run (`World::new`).
    fn pause(&mut self, a: ActorId, duration: Micros) {
        self.stop_for(a, duration, None);
    }

    /// Server `to` has handled a message into `out`, which the faults may hold: if its disk
    /// stalls and what it did writes (a key set, extended or deleted), the write stands, and
    /// its output waits for the fsync (`Later::Flush`) while the node reads nothing more.
    pub(super) fn handled(&mut self, to: ActorId, out: &mut crate::actor::Out<crate::lock::Timer>) {
        use crate::actor::{Effect, Record};
        let Some(until) = self.procs[to].fault.disk_until.filter(|&u| u > self.now) else { return };
        let writes = out.iter().any(|e| {
            matches!(e, Effect::Record(Record::KeyOpen { .. } | Record::KeyClose { .. } | Record::GrantTerm { .. } | Record::Grant(_)))
        });
        if !writes {
            return;
        }
        self.procs[to].fault.disk_until = None;
        // The write's own events first, then the wait, then (later) what it sends.
        let (held, mut now): (Vec<_>, Vec<_>) = std::mem::take(out).into_iter().partition(|e| matches!(e, Effect::Send { .. }));
        self.apply(&mut now, super::Timer::Lock);
        self.stop_for(to, until - self.now, Some(Stall::Blocked));
        let inc = self.procs[to].inc;
        self.push(until, super::Action::Later(Later::Flush(to, inc, Box::new(held))));
    }

    /// Does what a fault left for later: sends what server `a` held for its fsync, unless it
    /// has crashed since (incarnation `inc`).
    pub(super) fn later(&mut self, later: Later) {
        match later {
            Later::Flush(a, inc, mut out) => {
                if self.procs[a].inc == inc {
                    self.apply(&mut out, super::Timer::Lock);
                }
            }
        }
    }

    /// The process of `a` does nothing for `duration`: a pause (`stall` none), or a server
    /// waiting for its disk. What reaches it waits. The event says until when it is stopped in
    /// all (a stop within a longer one ends with it).
    pub(super) fn stop_for(&mut self, a: ActorId, duration: crate::time::Micros, stall: Option<Stall>) {
        if self.procs[a].down {
            return;
        }
        let until = self.now + duration;
        if self.procs[a].paused_until.is_none() {
            self.procs[a].paused_since = self.now;
        }
        let until = self.procs[a].paused_until.map_or(until, |u| u.max(until));
        self.procs[a].paused_until = Some(until);
        self.rec.iv.pauses.push(Span { actor: a, from_us: self.now, to_us: until });
        // What ends last says how the stop ends (a pause, or the disk answering).
        if self.now + duration == until {
            self.procs[a].fault.disk = stall.is_some();
        }
        let event = match stall {
            Some(stall) => EventKind::DiskStalled { until_us: until, stall },
            None => EventKind::Paused { until_us: until },
        };
        self.emit(a, event, None);
        if stall.is_some() {
            self.push(until, Action::Resume(a));
        }
        if self.actors[a].role.is_lock_server() {
            self.server_fault(ServerFault::Paused(a));
        }
    }

    pub(super) fn crash(&mut self, a: ActorId) {
        if self.procs[a].down {
            return;
        }
        let p = &mut self.procs[a];
        p.down = true;
        p.inc += 1;
        p.deferred.clear();
        if let Some(until) = p.paused_until.take() {
            p.paused_total += self.now - p.paused_since;
            // A pause ends with the crash.
            if let Some(s) = self.rec.iv.pauses.iter_mut().rev().find(|s| s.actor == a && s.to_us == until) {
                s.to_us = self.now;
            }
        }
        self.emit(a, EventKind::Crashed, None);
        self.rec.open_down.insert(a, self.rec.iv.downs.len());
        self.rec.iv.downs.push(Span { actor: a, from_us: self.now, to_us: self.end });
        match self.actors[a].role {
            Role::Client => {
                self.close_belief(a);
                self.clients[a] = None;
                // A grant without a lease (a failover pair's node) is held by the process
                // alone, and ends with it; a lease would run on at the lock service.
                let now = self.now;
                for g in self.rec.grants.iter_mut().filter(|g| g.client == a && g.term_end_us >= NO_LEASE_US / 2) {
                    g.term_end_us = now;
                }
            }
            Role::Redis | Role::Replica | Role::Member => self.server_fault(ServerFault::Crashed(a)),
            Role::Resource => {}
        }
    }

    fn restart(&mut self, a: ActorId) {
        if !self.procs[a].down {
            return;
        }
        self.procs[a].down = false;
        if let Some(d) = self.rec.open_down.remove(&a) {
            self.rec.iv.downs[d].to_us = self.now;
        }
        let kept = self.sc.lock.persistence == Persistence::Always;
        self.emit(a, EventKind::Restarted { kept_data: kept }, None);
        match self.actors[a].role {
            Role::Client => {
                let inc = self.procs[a].inc;
                let steps = self.sc.clients[a].steps.clone();
                let rng = Rng::stream(self.sc.seed, &format!("client:{}#{inc}", self.actors[a].name));
                self.clients[a] = Some(Client::new(steps, rng, crate::lock::Protocol::of(self.sc)));
                self.push(self.now, Action::Start(a));
            }
            Role::Redis | Role::Replica | Role::Member => self.server_fault(ServerFault::Restarted(a)),
            Role::Resource => {}
        }
    }

    pub(super) fn resume(&mut self, a: ActorId) {
        match self.procs[a].paused_until {
            Some(u) if u <= self.now => {}
            _ => return,
        }
        self.procs[a].paused_until = None;
        let paused = self.now - self.procs[a].paused_since;
        self.procs[a].paused_total += paused;
        let deferred = std::mem::take(&mut self.procs[a].deferred);
        let disk = std::mem::take(&mut self.procs[a].fault.disk);
        self.emit(a, EventKind::Resumed { buffered: deferred.len(), disk }, None);
        for action in deferred {
            self.push(self.now, action);
        }
        if self.actors[a].role.is_lock_server() {
            self.server_fault(ServerFault::Resumed(a));
        }
    }

    pub(super) fn heal(&mut self, i: usize) {
        self.net.partitions[i].active = false;
        let a = self.net.partitions[i].isolate[0];
        self.emit(a, EventKind::Healed, None);
        self.server_fault(ServerFault::Network);
    }
}
