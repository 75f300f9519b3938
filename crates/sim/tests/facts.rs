//! `Facts` answers every question the way a scan of the events does, on every library scenario
//! (as written and fixed), at every step: the scans below are the ones the app's inspector used
//! to run on every render.

use sim::facts::{Facts, Program};
use sim::time::Micros;
use sim::trace::{EventKind, QuorumEvent, Role, Run};

fn within(from: Micros, to: Micros, t: Micros) -> bool {
    from <= t && t < to
}

fn scan_leader(run: &Run, t: Micros) -> Option<usize> {
    let mut leader = None;
    for e in run.events.iter().take_while(|e| e.at_us <= t) {
        match e.kind {
            EventKind::Quorum(QuorumEvent::LeaderElected { .. }) => leader = Some(e.actor),
            EventKind::Quorum(QuorumEvent::NoQuorum { .. }) => leader = None,
            EventKind::Crashed if leader == Some(e.actor) => leader = None,
            _ => {}
        }
    }
    leader
}

fn scan_program(run: &Run, a: usize, step: usize) -> Program {
    match run.events[..=step]
        .iter()
        .rev()
        .find(|e| e.actor == a && matches!(e.kind, EventKind::Done { .. } | EventKind::Start))
        .map(|e| &e.kind)
    {
        Some(EventKind::Done { completed: true }) => Program::Finished,
        Some(EventKind::Done { completed: false }) => Program::Stopped,
        Some(_) => Program::Running,
        None => Program::NotStarted,
    }
}

fn scan_queue(run: &Run, a: usize, t: Micros) -> Vec<(u64, String)> {
    let mut queue: Vec<(u64, String)> = run
        .intervals
        .keys
        .iter()
        .filter(|k| k.node == a && within(k.from_us, k.to_us, t))
        .filter_map(|k| {
            let rev = run.events.iter().find_map(|e| match &e.kind {
                EventKind::Quorum(QuorumEvent::Committed { revision, .. }) if e.at_us == k.from_us && e.actor == a => Some(*revision),
                _ => None,
            })?;
            Some((rev, k.owner.map(|o| run.actors[o].name.clone()).unwrap_or_default()))
        })
        .collect();
    queue.sort();
    queue
}

/// Every library scenario, as written and with its fix.
fn runs() -> Vec<(String, Run)> {
    let mut out = Vec::new();
    for sc in sim::library::all() {
        out.push((sc.id.clone(), sim::run(&sc).unwrap()));
        if let Some(Ok(f)) = sc.fixed() {
            out.push((format!("{} --fix", sc.id), sim::run(&f).unwrap()));
        }
    }
    out
}

#[test]
fn facts_agree_with_a_scan_of_the_events_at_every_step() {
    for (id, run) in runs() {
        let f = Facts::of(&run);
        for (step, e) in run.events.iter().enumerate() {
            // At the step's own time, and just before it (between two steps while playing).
            for t in [e.at_us, e.at_us - Micros::us(1)] {
                assert_eq!(f.leader_at(t), scan_leader(&run, t), "{id}: leader at {t}");
                for (a, actor) in run.actors.iter().enumerate() {
                    let iv = &run.intervals;
                    assert_eq!(
                        f.down_at(a, t),
                        iv.downs.iter().any(|d| d.actor == a && within(d.from_us, d.to_us, t)),
                        "{id}: {a} down at {t}"
                    );
                    assert_eq!(f.pause_at(a, t), iv.pauses.iter().position(|p| p.actor == a && within(p.from_us, p.to_us, t)), "{id}");
                    assert_eq!(f.belief_at(a, t), iv.beliefs.iter().position(|b| b.client == a && within(b.from_us, b.to_us, t)), "{id}");
                    let held = iv.keys.iter().filter(|k| k.owner == Some(a) && within(k.from_us, k.to_us, t)).count();
                    assert_eq!(f.keys_held(a, t), held, "{id}: keys of {a} at {t}");
                    let first = iv.keys.iter().position(|k| k.node == a && within(k.from_us, k.to_us, t));
                    assert_eq!(f.keys_on(a, t).first().map(|k| k.span), first, "{id}: first key on {a} at {t}");
                    if actor.role == Role::Member {
                        let q: Vec<(u64, String)> = f
                            .queue_at(&run, a, t)
                            .iter()
                            .map(|k| (k.revision.unwrap(), k.owner.map(|o| run.name(o).to_string()).unwrap_or_default()))
                            .collect();
                        assert_eq!(q, scan_queue(&run, a, t), "{id}: queue on {a} at {t}");
                    }
                }
            }
            for a in 0..run.actors.len() {
                assert_eq!(f.lease_deadline(a, step), run.lease_deadline(a, step), "{id}: deadline of {a} at step {step}");
                assert_eq!(f.program(a, step), scan_program(&run, a, step), "{id}: program of {a} at step {step}");
                let tally =
                    run.events[..=step].iter().rev().find(|e| e.actor == a && matches!(e.kind, EventKind::Tally { .. })).map(|e| e.id);
                assert_eq!(f.last_tally(a, step), tally, "{id}: tally of {a} at step {step}");
            }
        }
        let moments: Vec<usize> = run.moments().map(|e| e.id).collect();
        assert_eq!(f.moments(), moments, "{id}");
    }
}

#[test]
fn the_consensus_leader_and_queue_of_the_etcd_bug_are_known() {
    let sc = sim::library::get("consensus-wait-expired").unwrap();
    let run = sim::run(&sc).unwrap();
    let f = Facts::of(&run);
    let m1 = run.actor_id("m1").unwrap();
    let client2 = run.actor_id("client2").unwrap();
    let t = run.events[40].at_us;
    assert_eq!(f.leader_at(t), Some(m1));
    let q = f.queue_at(&run, m1, t);
    assert_eq!(q.len(), 2, "client1 holds, client2 waits: {q:?}");
    assert_eq!(q[1].owner, Some(client2));
    assert!(q[0].revision < q[1].revision);
}

#[test]
fn a_client_in_a_gc_pause_still_believes_it_holds_the_lock() {
    let sc = sim::library::get("gc-pause-unfenced").unwrap();
    let run = sim::run(&sc).unwrap();
    let f = Facts::of(&run);
    let a = run.actor_id("A").unwrap();
    let resumed = run.find("resumed A").unwrap();
    let t = run.events[resumed].at_us - Micros::us(1);
    let at = f.client_at(&run, a, t, resumed - 1);
    assert!(at.paused.is_some() && at.belief.is_some() && !at.down);
    assert_eq!(at.program, Program::Running);
    let deadline = at.deadline_local_us.unwrap();
    assert!(run.local_at(a, t) >= deadline, "its lease ran out during the pause");
}

#[test]
fn redlock_tallies_and_keys_held_are_known() {
    let sc = sim::library::get("redlock-happy").unwrap();
    let run = sim::run(&sc).unwrap();
    let f = Facts::of(&run);
    let acquired = run.events.iter().find(|e| matches!(e.kind, EventKind::Acquired { .. })).unwrap();
    let tally = f.last_tally(acquired.actor, acquired.id).expect("a round before the grant");
    assert!(matches!(run.events[tally].kind, EventKind::Tally { ok: true, .. }));
    assert!(f.keys_held(acquired.actor, acquired.at_us) > sc.lock.nodes as usize / 2);
}
