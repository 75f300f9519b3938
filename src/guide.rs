//! The guide to choosing an approach: the seed guide's five questions, the recommendation they
//! lead to, and the trade-off table, each row linked to the scenarios that demonstrate it.
//! Pure data and logic, tested natively (every linked scenario exists and gives the verdict the
//! guide says it shows).

use sim::Safety;

/// One of the guide's questions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Damage,
    Transaction,
    Token,
    Quorum,
    Idempotent,
}

impl Ask {
    /// The question, and a sentence on what it means.
    pub fn text(self) -> (&'static str, &'static str) {
        match self {
            Ask::Damage => (
                "Can stale work cause damage?",
                "If a client that has lost its lease still writes, is data corrupted, or is work only wasted?",
            ),
            Ask::Transaction => (
                "Can the state's store serialize the update?",
                "Does the protected state live in one store that can check and write in one step: a conditional update or compare-and-set on a version, or a transaction at an isolation level that refuses or blocks a conflicting write?",
            ),
            Ask::Token => (
                "Can the target validate an increasing token?",
                "Can the resource remember the highest token it has accepted and reject lower ones, atomically with the write?",
            ),
            Ask::Quorum => (
                "Must work go on while a majority is down?",
                "A consensus service grants nothing while a majority of its members is down or cut off, and work that needs the lock waits. Must work go on anyway?",
            ),
            Ask::Idempotent => (
                "Can a key make every repeated write harmless?",
                "When a write is done twice, is it the same request done again (a charge, an email, a job run), never a newer value replacing an older one, and can the target remember each request's key so that doing it twice has the effect of doing it once?",
            ),
        }
    }
}

/// The approaches of the seed guide's trade-off table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approach {
    BestEffort,
    Consensus,
    Transaction,
    Idempotent,
    /// None of them fits as the design stands.
    Redesign,
}

/// A scenario that demonstrates something, and the verdict it shows (checked by a test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demo {
    pub id: &'static str,
    /// With its one-click fix applied.
    pub fixed: bool,
    pub verdict: Safety,
    pub what: &'static str,
}

pub(crate) const fn demo(id: &'static str, fixed: bool, verdict: Safety, what: &'static str) -> Demo {
    Demo { id, fixed, verdict, what }
}

/// The answers so far, in the order of [`ORDER`].
pub type Answers = [Option<bool>; 5];

/// The questions in the order the guide asks them.
pub const ORDER: [Ask; 5] = [Ask::Damage, Ask::Transaction, Ask::Token, Ask::Quorum, Ask::Idempotent];

fn get(a: &Answers, q: Ask) -> Option<bool> {
    a[ORDER.iter().position(|x| *x == q).unwrap_or(0)]
}

/// Which questions matter for these answers, in order: the path through the guide. The last
/// one is unanswered when the guide needs more.
pub fn path(a: &Answers) -> Vec<Ask> {
    let mut p = vec![Ask::Damage];
    let step = |p: &mut Vec<Ask>, q: Ask| p.push(q);
    match get(a, Ask::Damage) {
        None | Some(false) => return p,
        Some(true) => step(&mut p, Ask::Transaction),
    }
    match get(a, Ask::Transaction) {
        None | Some(true) => return p,
        Some(false) => step(&mut p, Ask::Token),
    }
    match get(a, Ask::Token) {
        None => {}
        Some(true) => step(&mut p, Ask::Quorum),
        Some(false) => step(&mut p, Ask::Idempotent),
    }
    p
}

/// The approach these answers lead to, once every question on the path is answered.
pub fn recommend(a: &Answers) -> Option<Approach> {
    if path(a).iter().any(|q| get(a, *q).is_none()) {
        return None;
    }
    Some(match (get(a, Ask::Damage), get(a, Ask::Transaction), get(a, Ask::Token), get(a, Ask::Idempotent)) {
        (Some(false), ..) => Approach::BestEffort,
        (_, Some(true), ..) => Approach::Transaction,
        (_, _, Some(true), _) => Approach::Consensus,
        (_, _, _, Some(true)) => Approach::Idempotent,
        _ => Approach::Redesign,
    })
}

/// What the guide says about an approach: its name, the advice, and the scenarios to see.
pub struct Advice {
    pub title: &'static str,
    pub advice: &'static [&'static str],
    pub demos: &'static [Demo],
}

use Safety::{Safe, Unsafe};

pub fn advice(x: Approach) -> &'static Advice {
    match x {
        Approach::BestEffort => &BEST_EFFORT,
        Approach::Consensus => &CONSENSUS,
        Approach::Transaction => &TRANSACTION,
        Approach::Idempotent => &IDEMPOTENT,
        Approach::Redesign => &REDESIGN,
    }
}

static BEST_EFFORT: Advice = Advice {
    title: "A best-effort Redis lock",
    advice: &[
        "The lock is an efficiency measure: it keeps two workers from doing the same job most of the time, and an occasional overlap only wastes work.",
        "Acquire with SET key value NX PX ttl, renew with compare-and-extend and release with compare-and-delete, so a client can never extend or delete another client's lock.",
        "A single Redis node is enough: Redlock adds cost without making the lock a correctness guarantee (Kleppmann 2016).",
    ],
    demos: &[
        demo("lease-basics", false, Safe, "acquire, renew and release done right"),
        demo("holder-crash", false, Safe, "the TTL frees a crashed holder's lock"),
        demo("unsafe-release", false, Unsafe, "a plain DEL releases someone else's lock"),
        demo("unsafe-release", true, Safe, "compare-and-delete fixes it"),
        demo("unchecked-renew", true, Safe, "compare-and-extend refuses to renew a lost lock"),
        demo("redisson-watchdog", false, Unsafe, "it happened (redisson#3636): a lock that renews itself while the work runs is still no fence: cut off past its watchdog's timeout, A lost the lock to B without being told, and its write landed over B's"),
        demo("redis-sentinel-split", false, Unsafe, "it happened (Jepsen 2013): a replica and Sentinel's failover do not make it a correctness lock: a partition left two primaries, and A and B held the lock at once with the same token"),
    ],
};

static CONSENSUS: Advice = Advice {
    title: "A consensus-backed lock with fencing tokens",
    advice: &[
        "Take the lock from a consensus service (etcd, ZooKeeper, or a Kubernetes Lease, which the API server keeps in etcd) and use its revision (or zxid, or the Lease's leaseTransitions) as a fencing token on every write.",
        "The resource must reject any token lower than the highest it has accepted, in the same atomic step as the write: fencing, not the lock, is what keeps the data safe.",
        "Tokens must only ever increase: a counter that resets or is lost in a failover is no fence. etcd's revision and ZooKeeper's zxid survive both; a Lease's leaseTransitions starts again at 0 if the Lease is deleted and created anew.",
        "A new owner should show its token to the resource before it reads (activation), or a stale write that arrives first still gets in.",
    ],
    demos: &[
        demo("gc-pause-unfenced", false, Unsafe, "without fencing, a paused client's stale write lands"),
        demo("gc-pause-fenced", false, Safe, "with fencing, token 33 is rejected after 34"),
        demo("consensus-fenced", false, Safe, "etcd-like lock, revision as token"),
        demo("k8s-lease-paused-leader", false, Unsafe, "Kubernetes leader election: a leader paused past its lease writes on waking"),
        demo("check-then-write", false, Unsafe, "a check and a write in two steps let a stale write through"),
        demo("token-reset", false, Unsafe, "a token counter that restarts goes backwards"),
        demo("fresh-owner-not-yet-seen", true, Safe, "activation closes the first-write gap"),
        demo("consensus-wait-expired", false, Unsafe, "even consensus locks have had bugs (etcd#11456); here the stale write lands first, so fencing alone would not catch it: activation or etcd's fix does"),
        demo("etcd-10811", false, Unsafe, "it happened: a holder cut off from etcd for longer than its lease kept writing (etcd#10811)"),
        demo("hbase-gc-pause", false, Safe, "it happened: an HBase region server's 79 s GC pause, fenced at the storage by HDFS"),
    ],
};

static TRANSACTION: Advice = Advice {
    title: "A database transaction or resource-native serialization",
    advice: &[
        "You may not need a distributed lock at all: let the store serialize the operation, with a conditional update (compare-and-set on a version) or a transaction that covers the read and the write.",
        "A conditional update refuses a write based on an outdated read, and so does a transaction at SERIALIZABLE (or PostgreSQL's REPEATABLE READ); SELECT … FOR UPDATE makes the second reader wait instead. Your code retries a refused write; nothing depends on timing. At the default READ COMMITTED, a transaction that reads and then writes can still lose an update.",
        "The transaction protects only what is inside it: an email or a charge made outside still needs an idempotency key.",
    ],
    demos: &[
        demo("db-transaction", false, Safe, "a conditional update refuses the stale write; no lock anywhere"),
        demo("non-fencing-downstream", false, Unsafe, "an external effect outside the store is done twice"),
    ],
};

static IDEMPOTENT: Advice = Advice {
    title: "Idempotent work",
    advice: &[
        "Make doing the work twice the same as doing it once: give each logical request an idempotency key that the target remembers, and send the same key when the request is retried, or redone by a worker that took the job over.",
        "This covers a stale client only because every write here is a request done again. Where a write replaces a value, a key does not stop a stale client from overwriting newer state with an older value: that needs a token check at the target or a conditional write.",
        "A work queue's claim with a visibility timeout is a lease by another name: a slow worker's claim runs out, another worker takes the job, and the job runs twice unless it carries its key.",
    ],
    demos: &[
        demo("same-owner-retry", false, Unsafe, "a retried request lands twice"),
        demo("same-owner-retry", true, Safe, "an idempotency key makes the retry harmless"),
        demo("non-fencing-downstream", true, Safe, "an idempotency key at the external API"),
        demo("idempotent-not-fenced", false, Unsafe, "an idempotency key is not a fence: a stale write that replaces a value gets in"),
        demo("work-claim-queue", false, Unsafe, "a queue's claim is a lease: a paused worker's job runs twice"),
    ],
};

static REDESIGN: Advice = Advice {
    title: "No lock makes this safe as it stands",
    advice: &[
        "Stale work can do damage, the target cannot check a token, the store cannot serialize the update itself, and an idempotency key cannot make a repeated write harmless: whatever lock you choose, a client that outlives its lease (a pause, a delayed packet, a clock jump) can still write.",
        "Change the design so the target can defend itself: move the state behind a store with conditional writes, add a token check at the target, or make the operation idempotent. Then run through the questions again.",
    ],
    demos: &[
        demo("gc-pause-unfenced", false, Unsafe, "a GC pause outlives the lease"),
        demo("client-deadline", false, Unsafe, "checking the deadline first does not help"),
        demo("redlock-pause-after-acquire", false, Unsafe, "Redlock cannot stop it either"),
        demo("consensus-fenced", false, Safe, "what changes when the target checks tokens"),
        demo("github-fileserver-pair", false, Unsafe, "it happened: GitHub's failover pairs (2012) took over on a timeout, and both nodes wrote"),
        demo("github-fileserver-pair", true, Safe, "fencing before taking over kept one writer, and the pair still went down"),
    ],
};

/// A row of the trade-off table (the seed guide's, condensed), with the scenarios behind it.
pub struct Row {
    pub approach: Approach,
    pub name: &'static str,
    pub pause: &'static str,
    pub stale: &'static str,
    pub quorum: &'static str,
    pub fit: &'static str,
    pub boundary: &'static str,
    pub demos: &'static [Demo],
}

pub const TABLE: [Row; 4] = [
    Row {
        approach: Approach::BestEffort,
        name: "Best-effort Redis lock",
        pause: "A client can outlive its TTL from the resource's point of view; overlap is possible under failures.",
        stale: "Not provided by the lock alone. Pair it with token validation at the target if stale writes must be rejected.",
        quorum: "Redlock's majority tolerates some node failures; availability in a given failure depends on the configuration.",
        fit: "Useful when the lock is an efficiency optimization and occasional overlapping work is tolerable. Ownership-safe release and renewal matter.",
        boundary: "The lock service and the protected resource are not in one transaction.",
        demos: &[
            demo("gc-pause-unfenced", false, Unsafe, "pause past the TTL"),
            demo("failover-lost-lock", false, Unsafe, "failover loses the lock"),
            demo("redisson-watchdog", false, Unsafe, "Redisson's watchdog cut off: two holders (redisson#3636)"),
            demo("redis-sentinel-split", false, Unsafe, "Sentinel's split: two primaries, one token (Jepsen 2013)"),
            demo("redlock-clock-jump", false, Unsafe, "Redlock and a clock jump"),
            demo("redlock-happy", false, Safe, "Redlock, nothing goes wrong"),
        ],
    },
    Row {
        approach: Approach::Consensus,
        name: "Consensus-backed coordination (etcd, ZooKeeper)",
        pause: "Consistent coordination primitives, but lease ownership alone does not stop a stale client writing to an external resource.",
        stale: "Use the revision as a token and validate it at the resource.",
        quorum: "Nothing is granted or expired until a majority of members is back (etcd's failure-modes guide).",
        fit: "When coordination semantics are needed and operating a consensus cluster is acceptable.",
        boundary: "Coordination and an external resource are not covered by one transaction.",
        demos: &[
            demo("consensus-fenced", false, Safe, "revision as fencing token"),
            demo("consensus-quorum-loss", false, Safe, "safe but unavailable"),
            demo("consensus-disk-stall", false, Safe, "a leader's slow disk costs an election, not safety"),
            demo("consensus-wait-expired", false, Unsafe, "a granted lock whose session had expired"),
            demo("etcd-10811", true, Safe, "it happened (etcd#10811): the revision checked at the storage"),
            demo("chubby-lock-delay", false, Unsafe, "Chubby's lock-delay covers a short pause, not a long one"),
        ],
    },
    Row {
        approach: Approach::Transaction,
        name: "Database transaction or resource-native serialization",
        pause: "Protects correctness when the transaction covers the shared state and the operation.",
        stale: "Enforced inside the transaction boundary; an external target still needs its own protection.",
        quorum: "Not stated by the sources for this general alternative.",
        fit: "For correctness-dependent work Kleppmann recommends a consensus system such as ZooKeeper, or at the very least a database with reasonable transactional guarantees.",
        boundary: "Best when the protected state and operation fit inside one transaction.",
        demos: &[demo("db-transaction", false, Safe, "conditional update, no lock")],
    },
    Row {
        approach: Approach::Idempotent,
        name: "Idempotent work or queue-based serialization",
        pause: "Reduces harm from retries and duplicate execution; does not by itself stop a stale write to an unprotected resource.",
        stale: "Not an inherent property; design the target's checks if needed.",
        quorum: "Not stated by the sources for this general alternative.",
        fit: "When duplicate work can be made harmless, or a work-claim pattern can replace a broad lock.",
        boundary: "Depends on whether the queue, the claim and the target operation share a transaction.",
        demos: &[
            demo("same-owner-retry", true, Safe, "idempotency key absorbs a retry"),
            demo("non-fencing-downstream", true, Safe, "idempotency key at an external API"),
            demo("work-claim-queue", false, Unsafe, "a queue's claim with a timeout is a lease: the job runs twice"),
        ],
    },
];

/// The debate page's further scenarios.
pub const DEBATE_MORE: [Demo; 4] = [
    demo("redlock-clock-jump", false, Unsafe, "a clock jump on one node gives two majorities (Kleppmann's example)"),
    demo("redlock-restart", false, Unsafe, "a node restarts without fsync and forgets the key"),
    demo("redlock-restart", true, Safe, "antirez's delayed restart restores safety"),
    demo("redlock-pause-after-acquire", true, Safe, "a fencing token (which Redlock does not provide) stops the stale write"),
];

/// Every scenario the guide and the debate page link to, with what they claim about it.
pub fn all_demos() -> impl Iterator<Item = &'static Demo> {
    let approaches = [Approach::BestEffort, Approach::Consensus, Approach::Transaction, Approach::Idempotent, Approach::Redesign];
    approaches.into_iter().flat_map(|a| advice(a).demos.iter()).chain(TABLE.iter().flat_map(|r| r.demos.iter())).chain(DEBATE_MORE.iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_answers() -> impl Iterator<Item = Answers> {
        (0..3u32.pow(5)).map(|mut n| {
            let mut a = [None; 5];
            for x in &mut a {
                *x = [None, Some(false), Some(true)][(n % 3) as usize];
                n /= 3;
            }
            a
        })
    }

    #[test]
    fn every_complete_set_of_answers_leads_to_an_approach() {
        for a in all_answers() {
            let p = path(&a);
            let complete = p.iter().all(|q| get(&a, *q).is_some());
            assert_eq!(recommend(&a).is_some(), complete, "{a:?} (path {p:?})");
        }
        let yes = |v: bool| Some(v);
        assert_eq!(recommend(&[yes(false), None, None, None, None]), Some(Approach::BestEffort));
        assert_eq!(recommend(&[yes(true), yes(true), None, None, None]), Some(Approach::Transaction));
        assert_eq!(recommend(&[yes(true), yes(false), yes(true), None, None]), None, "the quorum question comes first");
        assert_eq!(recommend(&[yes(true), yes(false), yes(true), yes(true), None]), Some(Approach::Consensus));
        assert_eq!(recommend(&[yes(true), yes(false), yes(false), None, yes(true)]), Some(Approach::Idempotent));
        assert_eq!(recommend(&[yes(true), yes(false), yes(false), None, yes(false)]), Some(Approach::Redesign));
    }

    /// What the guide says each scenario shows is what the engine computes.
    #[test]
    fn every_linked_scenario_shows_the_verdict_the_guide_claims() {
        let mut n = 0;
        for d in all_demos() {
            let sc = sim::library::get(d.id).unwrap_or_else(|| panic!("the guide links to {}, which is not in the library", d.id));
            let sc = if d.fixed { sc.fixed().unwrap_or_else(|| panic!("{} has no fix", d.id)).unwrap() } else { sc };
            let run = sim::run(&sc).unwrap();
            assert_eq!(run.verdict.verdict, d.verdict, "{}{} (seed {}): “{}”", d.id, if d.fixed { " fixed" } else { "" }, sc.seed, d.what);
            n += 1;
        }
        assert!(n >= 20);
    }
}
