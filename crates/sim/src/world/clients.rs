//! The clients: each input goes to the client's program with what it may know ([`Cx`]); its
//! effects are sent, armed and recorded here, and its beliefs become the trace's intervals.

use super::{Action, Timer, World};
use crate::client::{Cx, Effect, Input, RedlockCx};
use crate::lock::Dest;
use crate::scenario::{CounterStore, LockKind, TokenKind};
use crate::time::Micros;
use crate::trace::{ActorId, Belief, EventKind, Grant};

impl World<'_> {
    pub(super) fn client_input(&mut self, a: ActorId, input: Input, read_served_at: Option<Micros>) {
        let Some(mut c) = self.clients[a].take() else {
            return;
        };
        let sc = self.sc;
        let name = self.actors[a].name.clone();
        let cx = Cx {
            local: self.local(a),
            name: &name,
            ttl_ms: sc.lock.ttl_ms,
            release: sc.lock.release,
            renew: sc.lock.renew,
            token: sc.token.source,
            incr_on_node: sc.token.source == TokenKind::Counter && sc.token.store == CounterStore::Redis,
            redlock: (sc.lock.kind == LockKind::Redlock).then(|| RedlockCx {
                nodes: sc.lock.nodes as usize,
                node_timeout_ms: sc.lock.node_timeout_ms,
                parallel: sc.lock.parallel,
                drift_factor: sc.lock.clock_drift_factor,
                next_grant: self.rec.grants.len(),
                next_token: (sc.token.source == TokenKind::Counter).then_some(self.durable_next),
            }),
            consensus: sc.lock.kind == LockKind::Consensus,
        };
        let effects = c.handle(input, &cx);
        if let Some(at) = read_served_at {
            c.set_read_time(at);
        }
        self.clients[a] = Some(c);
        for e in effects {
            match e {
                Effect::Send(dest, p) => {
                    let to = match dest {
                        Dest::Resource => Some(self.resource.id),
                        _ => self.lock.route(dest),
                    };
                    if let Some(to) = to {
                        self.send(a, to, p);
                    }
                }
                Effect::Timer(after, kind) => {
                    let inc = self.procs[a].inc;
                    let gate = crate::actor::Gate::Process;
                    self.push(self.now + after, Action::Timer { actor: a, inc, timer: Timer::Client(kind), gate });
                }
                Effect::Event(kind) => self.client_event(a, kind),
            }
        }
    }

    fn client_event(&mut self, a: ActorId, kind: EventKind) {
        let now = self.now;
        match &kind {
            EventKind::Acquired { token, until_local_us, grant } => {
                let valid_until_us = self.procs[a].clock.when_reads(*until_local_us, now).unwrap_or(self.end);
                if self.sc.lock.kind == LockKind::Redlock {
                    // A Redlock client decided it holds the lock: the grant is the client's, numbered
                    // and tokened as the driver told it (`RedlockCx::next_grant`, `next_token`).
                    assert_eq!(*grant, self.rec.grants.len(), "a Redlock grant is numbered as the driver told the client");
                    if let Some(t) = *token {
                        self.durable_next = t + 1;
                        self.rec.tokens.push((now, t, a));
                    }
                    let votes = std::mem::take(&mut self.rec.won_votes[a]);
                    let event = self.rec.events.len();
                    let g = Grant {
                        client: a,
                        node: a,
                        at_us: now,
                        token: *token,
                        event,
                        term_end_us: valid_until_us,
                        released_us: None,
                        votes,
                    };
                    self.rec.grants.push(g);
                }
                self.rec.open_belief[a] = Some(self.rec.iv.beliefs.len());
                let b = Belief { client: a, grant: *grant, token: *token, from_us: now, to_us: self.end, valid_until_us };
                self.rec.iv.beliefs.push(b);
            }
            EventKind::Tally { votes, ok: true, extend: false, .. } => {
                self.rec.won_votes[a] = votes.iter().filter_map(|&i| self.lock.route(Dest::Node(i))).collect();
            }
            EventKind::Renewed { until_local_us } => {
                if let Some(b) = self.rec.open_belief[a] {
                    let until = self.procs[a].clock.when_reads(*until_local_us, now).unwrap_or(self.end);
                    self.rec.iv.beliefs[b].valid_until_us = until;
                    let g = self.rec.iv.beliefs[b].grant;
                    if self.rec.grants[g].node == a {
                        self.rec.grants[g].term_end_us = until;
                    }
                }
            }
            EventKind::Releasing => {
                if let Some(b) = self.rec.open_belief[a] {
                    let g = self.rec.iv.beliefs[b].grant;
                    let grant = &mut self.rec.grants[g];
                    if grant.node == a {
                        grant.released_us = Some(now);
                        grant.term_end_us = grant.term_end_us.min(now);
                    }
                }
                self.close_belief(a);
            }
            EventKind::Released { .. } | EventKind::LostLock { .. } | EventKind::Done { .. } => self.close_belief(a),
            _ => {}
        }
        self.emit(a, kind, None);
    }
}
