//! Leases as countdowns, checked against what the run says happened.

use draw::lease::Leases;
use sim::time::Micros;
use sim::time::{MS, SEC};

/// In `gc-pause-unfenced`, A's lease and redis's key drain together; while A is frozen both
/// run out, and A's ring says it still believes it holds the lock.
#[test]
fn a_lease_drains_by_its_clock_and_runs_out_while_its_holder_is_frozen() {
    let sc = sim::library::get("gc-pause-unfenced").unwrap();
    let run = sim::run(&sc).unwrap();
    let leases = Leases::of(&run, &sc);
    let (a, redis, resource) = (run.actor_id("A").unwrap(), run.actor_id("redis").unwrap(), run.actor_id("resource").unwrap());
    let at6 = leases.at(&run, a, 6 * SEC).expect("A holds the lock at 6 s");
    assert!((at6.left_us - 5 * SEC).abs() < 10 * MS, "{at6:?}");
    assert!((at6.fraction() - 0.5).abs() < 0.01);
    let key = leases.at(&run, redis, 6 * SEC).expect("redis keeps A's key at 6 s");
    assert!(!key.holder && (key.left_us - 5 * SEC).abs() < 10 * MS, "{key:?}");
    // Frozen at 20 s: A's lease ran out at 11 s by its own clock, and it still believes.
    let frozen = leases.at(&run, a, 20 * SEC).expect("A still believes at 20 s");
    assert!(frozen.left_us < -8 * SEC && frozen.fraction() == 0.0, "{frozen:?}");
    assert!(frozen.describe("A").contains("still believes"), "{}", frozen.describe("A"));
    // B took the lock when it ran out: its key on redis has a countdown of its own.
    let b_key = leases.at(&run, redis, 12 * SEC).expect("redis keeps B's key at 12 s");
    assert!(b_key.left_us > Micros::ZERO && b_key.left_us < 10 * SEC, "{b_key:?}");
    assert!(leases.at(&run, resource, 20 * SEC).is_none(), "the resource keeps no lease");
    assert!(leases.at(&run, a, Micros::ZERO).is_none(), "no lease before the first grant");
}
