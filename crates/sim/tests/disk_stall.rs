//! A lock server's disk stall, on library scenarios with one added: what each service does when
//! it cannot write to its log (scenario::Fault::DiskStall).

use sim::scenario::{fault, Fault, Persistence};
use sim::time::{Micros, Millis};
use sim::trace::Stall;
use sim::{library, EventKind, QuorumEvent, Run, Scenario};

fn with_stall(id: &str, actor: &str, at_ms: u64, duration_ms: u64) -> Scenario {
    let mut s = library::get(id).unwrap();
    s.faults.push(Fault::DiskStall(fault::DiskStall {
        actor: actor.into(),
        at_ms: Millis::new(at_ms),
        duration_ms: Millis::new(duration_ms),
    }));
    s
}

fn run(s: &Scenario) -> Run {
    sim::run(s).unwrap_or_else(|e| panic!("{} (seed {}): {e}", s.id, s.seed))
}

fn id(r: &Run, name: &str) -> usize {
    r.actors.iter().position(|a| a.name == name).unwrap()
}

/// etcd persists each entry, and its heartbeats wait with it: a stalled leader goes silent, a
/// new one is elected after the election timeout, and the old one steps down when its disk
/// answers (etcd's FAQ: a slow disk makes a leader miss heartbeats).
#[test]
fn a_consensus_leader_whose_disk_stalls_loses_its_leadership() {
    let s = with_stall("consensus-fenced", "m1", 3_000, 4_000);
    let r = run(&s);
    let (m1, m2) = (id(&r, "m1"), id(&r, "m2"));
    let at = |a: usize, f: &dyn Fn(&EventKind) -> bool| r.events.iter().find(|e| e.actor == a && f(&e.kind)).map(|e| e.at_us);
    assert_eq!(at(m1, &|k| matches!(k, EventKind::DiskStalled { stall: Stall::Now, .. })), Some(Micros::us(3_000_000)));
    let elected = at(m2, &|k| matches!(k, EventKind::Quorum(QuorumEvent::LeaderElected { .. }))).expect("m2 is elected");
    assert_eq!(elected, Micros::us(4_000_000), "one election timeout after the stall (seed {})", s.seed);
    assert!(at(m1, &|k| matches!(k, EventKind::Quorum(QuorumEvent::SteppedDown { .. }))).is_some_and(|t| t == Micros::us(7_000_000)));
    assert!(at(m1, &|k| matches!(k, EventKind::Resumed { disk: true, .. })).is_some());
    assert_eq!(r.verdict.verdict, library::get("consensus-fenced").map(|s| run(&s).verdict.verdict).unwrap());
}

/// Redis with appendfsync always runs a command in memory and fsyncs before it replies: it
/// answers what changes nothing, its first write stands at once, and that write's reply, and
/// every command after it, wait for the disk.
#[test]
fn redis_with_fsync_always_makes_the_write_and_holds_its_reply() {
    let mut s = with_stall("gc-pause-unfenced", "redis", 500, 4_000);
    s.lock.persistence = Persistence::Always;
    s.faults.retain(|f| !matches!(f, Fault::Pause(_)));
    let r = run(&s);
    let redis = id(&r, "redis");
    let blocked = r.events.iter().find(|e| e.actor == redis && matches!(e.kind, EventKind::DiskStalled { stall: Stall::Blocked, .. }));
    let blocked = blocked.expect("redis blocks at its first write after the stall began");
    // The write that blocked it was made then, by the key's record on the node's lane.
    assert!(r.events.iter().any(|e| e.actor == redis && e.at_us == blocked.at_us && e.kind.key_owner().is_some()));
    // Nothing leaves redis while it waits.
    let sent = |e: &&sim::Event| e.actor == redis && matches!(e.kind, EventKind::Send { .. });
    assert!(!r.events.iter().filter(sent).any(|e| e.at_us > blocked.at_us && e.at_us < Micros::us(4_500_000)), "seed {}", s.seed);
    assert!(r.events.iter().filter(sent).any(|e| e.at_us == Micros::us(4_500_000)), "its held reply leaves when the disk answers");
}

/// Without persistence Redis never waits for its disk: the run is the same, but for the event
/// that says so.
#[test]
fn redis_without_persistence_does_not_notice() {
    let plain = run(&library::get("gc-pause-unfenced").unwrap());
    let stalled = run(&with_stall("gc-pause-unfenced", "redis", 500, 4_000));
    let kinds = |r: &Run| {
        r.events.iter().filter(|e| !matches!(e.kind, EventKind::DiskStalled { .. })).map(|e| (e.at_us, e.kind.clone())).collect::<Vec<_>>()
    };
    assert_eq!(kinds(&plain), kinds(&stalled));
    assert!(stalled.events.iter().any(|e| matches!(e.kind, EventKind::DiskStalled { stall: Stall::None, .. })));
}

/// Only a lock server's disk stalls here: a client's is refused with its path.
#[test]
fn a_disk_stall_on_a_client_is_refused() {
    let e = with_stall("gc-pause-unfenced", "A", 500, 1_000).validate().unwrap_err();
    assert_eq!(e.path, "faults[1].disk_stall.actor");
}
