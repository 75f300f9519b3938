//! The scenario compiled once into the world's terms: actor ids, clocks known in advance,
//! microseconds, the lock service's servers, and the first actions on the queue.

use super::{net, record, Action, Proc, World};
use crate::client::Client;
use crate::clock::{Clock, ClockChange};
use crate::lock::{self, Service};
use crate::resource::server::Server;
use crate::resource::Store;
use crate::rng::Rng;
use crate::scenario::fault::Verb;
use crate::scenario::Scenario;
use crate::time::{from_ms, Micros};
use crate::trace::ActorId;

impl<'s> World<'s> {
    pub(super) fn new(sc: &'s Scenario, max_events: usize) -> World<'s> {
        let actors = lock::lanes(sc);
        let id_of = |name: &str| actors.iter().position(|a| a.name == name).expect("validated actor name");
        let procs = actors
            .iter()
            .map(|a| Proc {
                clock: clock_of(sc, &a.name, true),
                mono: clock_of(sc, &a.name, false),
                paused_until: None,
                paused_since: Micros::ZERO,
                paused_total: Micros::ZERO,
                down: false,
                inc: 0,
                deferred: Vec::new(),
                fault: Default::default(),
            })
            .collect();
        let clients = sc
            .clients
            .iter()
            .map(|c| Some(Client::new(c.steps.clone(), Rng::stream(sc.seed, &format!("client:{}", c.name)), lock::Protocol::of(sc))))
            .collect();
        let lock = Service::build(sc, &id_of);
        let net = net::Net::new(sc, actors.len(), &id_of);
        let resource =
            Server { id: actors.len() - 1, store: Store::new(sc.resource.clone()), gap: sc.resource.check_write_gap_ms.to_micros() };
        let due = sc.duration_ms.to_micros();
        let end = due + super::overrun_us(due);
        let n_clients = sc.clients.len();
        let mut w = World {
            sc,
            procs,
            clients,
            lock,
            resource,
            net,
            rec: record::Trace::new(n_clients, max_events),
            actors,
            durable_next: sc.token.start,
            now: Micros::ZERO,
            queue: super::queue::Queue::new(),
            due,
            end,
            ended: due,
            overflow: false,
            max_events,
            fx: Default::default(),
        };
        let mut out = Vec::new();
        w.lock.start(&mut out);
        w.apply(&mut out, super::Timer::Lock);
        for (i, c) in sc.clients.iter().enumerate() {
            w.push(c.start_ms.to_micros(), Action::Start(i as ActorId));
        }
        for (i, f) in sc.faults.iter().enumerate() {
            if !f.verb(sc).in_network() {
                w.push(f.at_ms().to_micros(), Action::Fault(i));
            }
        }
        // A pause's end is queued with it, before the run: where it ties with something else
        // due at the same microsecond, it goes first, wherever the pause began (issue 51: a
        // pause of the same end and a start a millisecond later ran otherwise, as its end was
        // queued after what was queued in that millisecond).
        for f in &sc.faults {
            if let crate::scenario::fault::Verb::Pause { actor, for_us } = f.verb(sc) {
                let id = w.id(actor);
                w.push(f.at_ms().to_micros() + for_us, Action::Resume(id));
            }
        }
        w
    }
}

/// An actor's clock: every change is a scheduled fault, so the whole clock is known before the
/// run.
/// `name`'s clock; `jumps: false` gives its monotonic clock (same offset and drift, no steps).
fn clock_of(sc: &Scenario, name: &str, jumps: bool) -> Clock {
    let spec = sc.clocks.get(name).cloned().unwrap_or_default();
    let changes: Vec<(Micros, ClockChange)> = sc
        .faults
        .iter()
        .filter_map(|f| {
            let at = f.at_ms().to_micros();
            match f.verb(sc) {
                Verb::JumpClock { actor, by_us } if jumps && actor == name => Some((at, ClockChange::Jump(by_us))),
                Verb::Drift { actor, ppm } if actor == name => Some((at, ClockChange::Drift(ppm))),
                _ => None,
            }
        })
        .collect();
    Clock::new(from_ms(spec.offset_ms), spec.drift_ppm, &changes)
}
