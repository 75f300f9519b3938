//! The model defects issue 49's audit found, each on the run it was found on (one change away
//! from a library run), with what the engine must do there.

use sim::json::Value;
use sim::scenario::Setting;
use sim::{library, EventKind, Safety, Scenario};

fn set(sc: &Scenario, path: &str, value: Value) -> Scenario {
    sc.with_settings(&[Setting { path: path.into(), value }]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// k8s-lease-fenced with A's read reply held 21.5 s: A wakes after B has led and given the Lease
/// up, and its renew loop takes the free Lease again (leaseTransitions 2). Its program read its
/// token in `OnStartedLeading`, which client-go calls once: it still writes with 0, and the store,
/// which has accepted B's 1, refuses it. The model gave it the new leaseTransitions, and the stale
/// write went through the fence: UNSAFE.
#[test]
fn a_leader_that_takes_a_free_lease_again_keeps_the_token_it_started_leading_with() {
    let sc = set(&library::get("k8s-lease-fenced").unwrap(), "faults.0.delay.extra_ms", Value::from(21_500u64));
    let run = sim::run(&sc).unwrap_or_else(|e| panic!("seed {}: {e}", sc.seed));
    let a = run.actors.iter().position(|x| x.name == "A").unwrap();
    let retaken = run.grants.iter().filter(|g| g.client == a).count();
    assert_eq!(retaken, 2, "seed {}: A takes the Lease, and again after B gave it up", sc.seed);
    let refused = run.events.iter().any(|e| matches!(e.kind, EventKind::Rejected { client, token: Some(0), .. } if client == a));
    assert!(refused, "seed {}: A's stale write carries token 0 and is refused", sc.seed);
    assert_eq!(run.verdict.verdict, Safety::Safe, "seed {}", sc.seed);
}

/// redis-sentinel-split with its fix, as the search shrank its find: a 1 ms partition of redis
/// and A at 6.212 s, the instant the primary ships A's renewal, and a failover at 11.021 s. The
/// renewal was lost in the partition and never sent again, so the replica's copy of A's key
/// expired at the failover and B got the lock too. Replication is a stream: the replica catches
/// up when the partition heals, and keeps A's key.
#[test]
fn a_replication_message_lost_in_a_partition_is_sent_again_when_it_heals() {
    let fixed = library::get("redis-sentinel-split").unwrap().fixed().unwrap().unwrap();
    let sc = set(&set(&fixed, "faults.0.partition.at_ms", Value::from(6_212u64)), "faults.0.partition.duration_ms", Value::from(1u64));
    let sc = set(&sc, "faults.1.failover.at_ms", Value::from(11_021u64));
    let run = sim::run(&sc).unwrap_or_else(|e| panic!("seed {}: {e}", sc.seed));
    let replica = run.actors.iter().position(|x| x.name == "replica").unwrap();
    let lost = run.events.iter().position(|e| e.actor == replica && matches!(e.kind, EventKind::Lost { .. }));
    let lost = lost.unwrap_or_else(|| panic!("seed {}: the renewal is lost in the partition (the case this test is about)", sc.seed));
    let again = run.events[lost..].iter().any(|e| e.actor == replica && matches!(e.kind, EventKind::Replicated { .. }));
    assert!(again, "seed {}: the replica gets A's key again after the partition", sc.seed);
    assert_eq!(run.verdict.verdict, Safety::Safe, "seed {}", sc.seed);
}
