//! One page to revise from (`revise.html`, src/view/revise.rs): for each way of taking a lock (and for doing
//! without one), what people actually call, the guarantee, the failure it still has with the
//! scenario that shows it, and the fencing it needs, with how the token reaches the resource.
//! Pure data, tested natively: every scenario it links to gives the verdict it claims.
//!
//! The facts are the project's protocol notes (SEMANTICS.md, cited by section); where those are
//! silent (SQL's `SELECT … FOR UPDATE`, an idempotency key) the text says only what any
//! database or API documentation says, and Kubernetes' way cites client-go's source.

use sim::Safety::{Safe, Unsafe};

use crate::guide::{demo, Approach, Demo};

/// One way of keeping a resource safe.
pub struct Way {
    pub name: &'static str,
    /// The guide's approach it belongs to.
    pub approach: Approach,
    /// What people call, as code.
    pub calls: &'static [&'static str],
    /// What it promises.
    pub guarantee: &'static str,
    /// The failure it still has.
    pub failure: &'static str,
    /// What the resource must do, and how the token gets there.
    pub fencing: &'static str,
    /// The scenarios: the failure, and where there is one, the failure fenced.
    pub demos: &'static [Demo],
    /// Where the facts come from.
    pub source: &'static str,
}

pub const WAYS: [Way; 7] = [
    Way {
        name: "A Redis lock (one node)",
        approach: Approach::BestEffort,
        calls: &[
            "SET lock <random> NX PX 30000",
            "release: if GET(lock) == <random> then DEL (one Lua script)",
            "renew: if GET(lock) == <random> then PEXPIRE (one Lua script)",
            "Redisson: RLock lock = redisson.getLock(\"x\"); lock.lock(); … lock.unlock();",
        ],
        guarantee: "One holder at a time while the holder keeps to its TTL and the node does not fail over; a crashed holder's lock frees itself after the TTL. Redisson's watchdog (lock() without a leaseTime) sets lockWatchdogTimeout, 30 s by default, and renews every 10 s (a third of it) while the process runs.",
        failure: "A client paused (GC, page faults) past its TTL wakes up and writes after the next holder; a stop-the-world pause stops the watchdog's renewals too. A failover to a replica that had not received the key grants the lock twice.",
        fencing: "The lock's value is random, so it has no order: the lock gives no fencing token. Redisson's RFencedLock returns one (an INCR on a separate key, still on one master): send it with every write, and have the resource keep the highest it has accepted and refuse a lower one in the same atomic step as the write.",
        demos: &[
            demo("gc-pause-unfenced", false, Unsafe, "a pause past the TTL: the stale write lands"),
            demo("failover-lost-lock", false, Unsafe, "a failover loses the lock"),
            demo("gc-pause-fenced", false, Safe, "with a token checked at the resource, the stale write is refused"),
        ],
        source: "SEMANTICS §1.1–1.5, §2.5",
    },
    Way {
        name: "Redlock (several Redis masters)",
        approach: Approach::BestEffort,
        calls: &[
            "SET lock <random> NX PX ttl on each of N masters, in turn",
            "held if a majority (N/2 + 1) said OK and validity = TTL − elapsed − drift > 0",
            "Redisson's RedissonRedLock is deprecated (its docs: use RLock or RFencedLock)",
        ],
        guarantee: "A delay during acquisition is caught: the client measures how long its round took and does not use a lock whose validity is gone.",
        failure: "Nothing at acquisition can see a pause that comes after it: the keys expire, another client takes a majority, and the paused one writes too. A node whose clock jumps forward can give a second majority.",
        fencing: "Redlock produces no token (its random value has no order), so the resource cannot refuse the stale write; a token from elsewhere, checked at the resource, is what stops it.",
        demos: &[
            demo("redlock-slow-acquire", false, Safe, "a delay during acquisition: caught"),
            demo("redlock-pause-after-acquire", false, Unsafe, "a pause after acquisition: not caught"),
            demo("redlock-clock-jump", false, Unsafe, "a clock jump gives two majorities"),
            demo("redlock-pause-after-acquire", true, Safe, "a fencing token stops the stale write"),
        ],
        source: "SEMANTICS §2.1–2.2, §3",
    },
    Way {
        name: "etcd (Go: concurrency.Mutex)",
        approach: Approach::Consensus,
        calls: &[
            "s, _ := concurrency.NewSession(cli) // lease TTL 60 s unless WithTTL; keepalive every TTL/3",
            "m := concurrency.NewMutex(s, \"/lock/\"); m.Lock(ctx); … m.Unlock(ctx)",
            "token: the create revision of the lock key m.Key() (what m.IsOwner() compares in a Txn)",
        ],
        guarantee: "The owner is the key with the lowest create revision under the prefix, decided by a majority; revisions only grow, across leader changes too. While a majority is down nothing is granted or expired.",
        failure: "The lease is time measured by the server and by the client on their own clocks: a client paused past its TTL still believes it owns the lock after etcd has revoked it (etcd's own notes: the lease does not guarantee mutual exclusion). A granted lock whose session had expired was a real bug (etcd#11456).",
        fencing: "Send the lock key's create revision with every write; the resource refuses a lower one atomically with the write. The response header of Lock (m.Header().Revision) is a store revision taken at or after the acquisition, and also only grows. If the protected data is in etcd itself, make the write a Txn guarded by m.IsOwner().",
        demos: &[
            demo("consensus-fenced", false, Safe, "revision as the token, checked at the resource"),
            demo("consensus-wait-expired", false, Unsafe, "a granted lock whose session had expired"),
            demo("consensus-quorum-loss", false, Safe, "safe but unavailable without a majority"),
        ],
        source: "SEMANTICS §4.1–4.3",
    },
    Way {
        name: "ZooKeeper (Java: Curator's InterProcessMutex)",
        approach: Approach::Consensus,
        calls: &[
            "InterProcessMutex lock = new InterProcessMutex(client, \"/locks/x\"); lock.acquire(); … lock.release();",
            "underneath: create(\"/locks/x/guid-lock-\", EPHEMERAL|SEQUENTIAL); the lowest number holds it",
            "token: the lock znode's czxid (from its Stat), or the number of the sequential node",
        ],
        guarantee: "The ensemble orders every change by zxid; the lowest sequential node holds the lock, and its ephemeral node goes when its session expires.",
        failure: "Expiry is decided by the cluster: a client paused past its session timeout learns it only when it reconnects, and writes meanwhile. Curator's SUSPENDED means you cannot be sure you still hold the lock; LOST means you have lost it.",
        fencing: "Send the czxid (or the sequence number) with every write; the resource refuses a lower one atomically with the write.",
        demos: &[
            demo("zookeeper-unfenced", false, Unsafe, "a session expires during a pause; both write"),
            demo("zookeeper-fenced", false, Safe, "the czxid as the token, checked at the resource"),
        ],
        source: "SEMANTICS §5.1–5.3",
    },
    Way {
        name: "Kubernetes leader election (Go: client-go's leaderelection)",
        approach: Approach::Consensus,
        calls: &[
            "leaderelection.RunOrDie(ctx, LeaderElectionConfig{Lock: &resourcelock.LeaseLock{…}, LeaseDuration: 15s, RenewDeadline: 10s, RetryPeriod: 2s, Callbacks: {OnStartedLeading, OnStoppedLeading}})",
            "underneath: GET the Lease, then PUT it naming the resourceVersion read (409 Conflict if it changed)",
            "token: GET the Lease in OnStartedLeading and take spec.leaseTransitions if spec.holderIdentity is you (client-go does not hand it to you)",
        ],
        guarantee: "The API server orders updates to the Lease (through etcd): two candidates cannot both write themselves in from the same version. A candidate takes over only after seeing the record unchanged for LeaseDuration by its own monotonic clock, so clocks that disagree on the time of day do no harm.",
        failure: "client-go's own doc: it \"does not guarantee that only one client is acting as a leader (a.k.a. fencing)\". A leader paused past the lease acts on waking: client-go does not notice the pause, its renew loop simply begins a new round. Clocks that run at different rates (beyond LeaseDuration ÷ RenewDeadline) let a candidate take over while the leader still leads.",
        fencing: "Send leaseTransitions with every write; the resource refuses a lower one atomically with the write (a resourceVersion is opaque: Kubernetes says to compare it only for equality, never for order). When the protected data is a Kubernetes object, an Update carrying the resourceVersion it read is the check (a Patch or an apply without a precondition is not).",
        demos: &[
            demo("k8s-lease-paused-leader", false, Unsafe, "a leader paused past its lease writes on waking"),
            demo("k8s-lease-clock-rate", false, Unsafe, "clocks at different rates: two leaders"),
            demo("k8s-lease-fenced", false, Safe, "leaseTransitions as the token, checked at the resource"),
        ],
        source: "client-go tools/leaderelection (package doc, LeaderElectionConfig, tryAcquireOrRenew); Kubernetes API: Lease v1, resource versions",
    },
    Way {
        name: "A database transaction or a conditional write",
        approach: Approach::Transaction,
        calls: &[
            "BEGIN; SELECT … FROM t WHERE id = $1 FOR UPDATE; … UPDATE t …; COMMIT;",
            "UPDATE t SET v = $new, version = version + 1 WHERE id = $1 AND version = $read  -- 0 rows: re-read, retry",
            "DynamoDB: UpdateItem with ConditionExpression \"version = :read\" (fails with ConditionalCheckFailedException)",
        ],
        guarantee: "The store serializes the read and the write: FOR UPDATE holds the row lock until the transaction ends, and a write made from an outdated read is refused by its version check. Nothing depends on timing.",
        failure: "It protects only what is inside the store: an email, a charge or a call to another service made from the transaction can still happen twice.",
        fencing: "The version column (or attribute) is the token, and the condition in the same statement is the check. With a lock service in front, the same statement can check its token: UPDATE … WHERE id = $1 AND token <= $t (count the rows: 0 means fenced).",
        demos: &[
            demo("db-transaction", false, Safe, "a conditional update refuses the stale write"),
            demo("non-fencing-downstream", false, Unsafe, "an external effect outside the store, done twice"),
        ],
        source: "SEMANTICS §6 (PostgreSQL, DynamoDB)",
    },
    Way {
        name: "Idempotent work (an idempotency key)",
        approach: Approach::Idempotent,
        calls: &["each request carries a key the target remembers: a repeat with the same key returns the first result and does nothing"],
        guarantee: "A retry or a duplicate worker has the effect of doing the work once.",
        failure: "It does not stop a stale client from overwriting newer state with an older value: combine it with a check at the target where that can happen.",
        fencing: "The key is checked and stored by the target in the same step as the effect; where stale values matter, add a token or version check as well.",
        demos: &[
            demo("same-owner-retry", false, Unsafe, "a retried request lands twice"),
            demo("same-owner-retry", true, Safe, "an idempotency key makes the retry harmless"),
        ],
        source: "SEMANTICS §6",
    },
];

/// What people call for an approach of the guide, from each way of it.
pub fn calls_for(a: Approach) -> impl Iterator<Item = (&'static str, &'static str)> {
    FIRST_CALLS.iter().filter(move |(of, ..)| *of == a).map(|&(_, name, call)| (name, call))
}

/// Each way's approach, name and first call, taken from [`WAYS`] when compiling: all the guide
/// needs, so that the program holds these strings and not the whole revision page's (which is
/// a file of its own: src/view/revise.rs).
const FIRST_CALLS: [(Approach, &str, &str); WAYS.len()] = {
    let mut out = [(Approach::BestEffort, "", ""); WAYS.len()];
    let mut i = 0;
    while i < WAYS.len() {
        out[i] = (WAYS[i].approach, WAYS[i].name, WAYS[i].calls[0]);
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    /// What the page says each scenario shows is what the engine computes.
    #[test]
    fn every_linked_scenario_shows_the_verdict_the_page_claims() {
        for w in &WAYS {
            assert!(w.demos.iter().any(|d| d.verdict == Unsafe), "{}: no failure shown", w.name);
            for d in w.demos {
                let sc = sim::library::get(d.id).unwrap_or_else(|| panic!("{} links to {}, which is not in the library", w.name, d.id));
                let sc = if d.fixed { sc.fixed().unwrap_or_else(|| panic!("{} has no fix", d.id)).unwrap() } else { sc };
                let run = sim::run(&sc).unwrap();
                assert_eq!(
                    run.verdict.verdict,
                    d.verdict,
                    "{}: {}{} (seed {}): “{}”",
                    w.name,
                    d.id,
                    if d.fixed { " fixed" } else { "" },
                    sc.seed,
                    d.what
                );
            }
        }
    }

    #[test]
    fn every_approach_of_the_guide_has_its_calls() {
        for a in [Approach::BestEffort, Approach::Consensus, Approach::Transaction, Approach::Idempotent] {
            assert!(calls_for(a).next().is_some(), "{a:?}");
        }
    }
}
