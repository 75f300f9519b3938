//! The clients: each input goes to the client's program with what it may know ([`Cx`]); its
//! effects are sent, armed and recorded here, and its beliefs become the trace's intervals.

use super::{Action, Cpu, Timer, World};
use crate::client::{Cx, Effect, GrantFx, Input, TimerKind};
use crate::msg::Dest;
use crate::scenario::TokenKind;
use crate::time::Micros;
use crate::trace::{ActorId, Belief, EventId, EventKind, Grant};

impl World<'_> {
    pub(super) fn client_input(&mut self, a: ActorId, input: Input) {
        let sc = self.sc;
        let (local, mono) = (self.local(a), self.procs[a].mono.local_at(self.now));
        let next_grant = self.rec.grants.len();
        let next_token = (sc.token.source == TokenKind::Counter).then_some(self.durable_next);
        // In place (not taken out and put back): a client's state is large.
        let Some(c) = self.clients[a].as_mut() else {
            return;
        };
        let cx = Cx { local, mono, name: &self.actors[a].name, ttl_ms: sc.lock.ttl_ms, token: sc.token.source, next_grant, next_token };
        let mut effects = std::mem::take(&mut self.fx.client);
        c.handle_into(input, &cx, &mut effects);
        // The last event the client asked for: a grant it decides follows the event that says so.
        let mut announced = None;
        for e in effects.drain(..) {
            match e {
                Effect::Send(dest, p) => {
                    let to = match dest {
                        Dest::Resource => Some(self.resource.id),
                        _ => self.lock.route_from(dest, a, &|x, y| self.net.cut(x, y)),
                    };
                    if let Some(to) = to {
                        self.send(a, to, p);
                    }
                }
                Effect::Timer(after, kind) => {
                    let inc = self.procs[a].inc;
                    let gate = crate::actor::Gate::Process;
                    // Work is computation, which a pause freezes; the other timers are
                    // measured on the client's monotonic clock (a clock running 30 % slow
                    // makes a 2 s timer take 2.857 s), and a pause only makes them fire late.
                    let (action, due) = match kind {
                        TimerKind::WorkDone => {
                            let cpu = Cpu { from: self.now, work: after, paused: self.procs[a].paused_total };
                            (Action::Work { actor: a, inc, cpu }, self.now + after)
                        }
                        _ => {
                            let mono = &self.procs[a].mono;
                            let due = mono.when_reads(mono.local_at(self.now) + after, self.now).unwrap_or(self.now + after);
                            (Action::Timer { actor: a, inc, timer: Timer::Client(kind), gate }, due)
                        }
                    };
                    self.push(due, action);
                }
                Effect::Event(kind) => announced = Some(self.client_event(a, kind)),
                Effect::Grant(g) => self.client_grant(a, g, announced),
            }
        }
        self.fx.client = effects;
    }

    /// A grant the client decided itself (Redlock), numbered as the driver told it.
    fn client_grant(&mut self, a: ActorId, g: GrantFx, announced: Option<EventId>) {
        let now = self.now;
        let until = |w: &Self, local: Micros| w.procs[a].clock.when_reads(local, now).unwrap_or(w.end);
        match g {
            GrantFx::Won { grant, token, until_local, votes } => {
                assert_eq!(grant, self.rec.grants.len(), "a client's grant is numbered as the driver told it");
                if let Some(t) = token {
                    self.durable_next = t + 1;
                    self.rec.tokens.push((now, t, a));
                }
                let votes = votes.iter().filter_map(|&i| self.lock.route(Dest::Node(i))).collect();
                let term_end_us = until(self, until_local);
                let event = announced.expect("a client's grant follows the event that announces it");
                self.rec.grants.push(Grant {
                    client: a,
                    node: a,
                    at_us: now,
                    token,
                    event,
                    term_end_us,
                    released_us: None,
                    votes,
                    extended: Vec::new(),
                });
            }
            GrantFx::Extended { grant, until_local } => {
                let until = until(self, until_local);
                self.rec.grants[grant].extend(now, until);
            }
            GrantFx::Released { grant } => {
                let g = &mut self.rec.grants[grant];
                g.released_us = Some(now);
                g.term_end_us = g.term_end_us.min(now);
            }
        }
    }

    fn client_event(&mut self, a: ActorId, kind: EventKind) -> EventId {
        let now = self.now;
        // A notice ignored while releasing: the client no longer believes it holds the lock,
        // whatever its service's client still keeps (issue 49: "goes on as if it still held
        // the lock" after it had sent its unlock).
        let kind = match kind {
            EventKind::NoticeIgnored { holding } => EventKind::NoticeIgnored { holding: holding && self.rec.open_belief[a].is_some() },
            kind => kind,
        };
        match &kind {
            EventKind::Acquired { token, until_local_us, grant } => {
                let valid_until_us = self.procs[a].clock.when_reads(*until_local_us, now).unwrap_or(self.end);
                self.rec.open_belief[a] = Some(self.rec.iv.beliefs.len());
                let b = Belief { client: a, grant: *grant, token: *token, from_us: now, to_us: self.end, valid_until_us };
                self.rec.iv.beliefs.push(b);
            }
            EventKind::Renewed { until_local_us } => {
                if let Some(b) = self.rec.open_belief[a] {
                    let until = self.procs[a].clock.when_reads(*until_local_us, now).unwrap_or(self.end);
                    self.rec.iv.beliefs[b].valid_until_us = until;
                }
            }
            EventKind::Releasing
            | EventKind::Released { .. }
            | EventKind::LostLock { .. }
            | EventKind::Abandoned { .. }
            | EventKind::Done { .. } => self.close_belief(a),
            _ => {}
        }
        self.emit(a, kind, None)
    }
}
