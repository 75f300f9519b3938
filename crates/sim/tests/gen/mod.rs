//! A generator of scenarios over the whole format: every lock kind, every step kind after every
//! other, every fault kind, and numbers from typical to the extremes the limits allow. One
//! `u64` seed gives one scenario (SplitMix64, `sim::rng`), so a failure is reproduced from its
//! seed. Shared by the fuzz test (`crates/draw/tests/fuzz.rs`) and the wasm tests.

#![allow(dead_code)]

use sim::rng::Rng;
use sim::scenario::*;
use sim::time::Millis;

struct Gen {
    rng: Rng,
    /// Draw numbers from the edges of their ranges more often.
    extreme: bool,
}

impl Gen {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        self.rng.range_inclusive(lo, hi)
    }

    fn u(&mut self, lo: u64, hi: u64) -> u64 {
        self.int(lo as i64, hi as i64) as u64
    }

    fn chance(&mut self, percent: i64) -> bool {
        self.int(0, 99) < percent
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as i64 - 1) as usize].clone()
    }

    /// A number in `lo..=hi`: usually near `typical`, in extreme mode often at an edge.
    fn num(&mut self, lo: u64, typical: u64, hi: u64) -> u64 {
        if self.extreme && self.chance(40) {
            return self.pick(&[lo, hi, lo.saturating_add(1).min(hi), hi - (hi - lo) / 2]);
        }
        self.u(lo, typical.clamp(lo, hi))
    }

    fn signed(&mut self, limit: i64, typical: i64) -> i64 {
        if self.extreme && self.chance(40) {
            return self.pick(&[-limit, limit, 0, -1, 1]);
        }
        self.int(-typical, typical)
    }
}

/// The scenario for `seed`. It may be invalid (validation refuses it; the caller counts that).
pub fn scenario(seed: u64) -> Scenario {
    let mut g = Gen { rng: Rng::new(seed), extreme: false };
    g.extreme = g.chance(15);
    let duration_ms = g.num(1, 60_000, limits::DURATION_MS.get());
    let kind = g.pick(&[LockKind::Redis, LockKind::Redis, LockKind::Redlock, LockKind::Consensus, LockKind::ZooKeeper, LockKind::None]);
    let nodes = if g.chance(70) { g.pick(&[3, 5]) } else { g.u(1, 9) as u8 };
    let election_timeout_ms = g.num(1, 2_000, limits::DURATION_MS.get());
    let mut ttl_ms = g.num(1, 20_000, limits::DURATION_MS.get());
    if kind == LockKind::Consensus && g.chance(80) {
        ttl_ms = ttl_ms.max(consensus::min_lease_ttl_ms(Millis::new(election_timeout_ms)).get()).min(limits::DURATION_MS.get());
    }
    if kind == LockKind::ZooKeeper && g.chance(90) {
        let [lo, hi] = zookeeper::SESSION_TIMEOUT_MS.map(Millis::get);
        ttl_ms = ttl_ms.clamp(lo, hi);
    }
    let lock = LockService {
        kind,
        ttl_ms: Millis::new(ttl_ms),
        release: g.pick(&[ReleaseStyle::CompareAndDelete, ReleaseStyle::Del]),
        renew: g.pick(&[RenewStyle::CompareAndExtend, RenewStyle::Pexpire, RenewStyle::None]),
        persistence: g.pick(&[Persistence::None, Persistence::Always]),
        replica: (kind == LockKind::Redis && g.chance(25))
            .then(|| Replica { lag_ms: Millis::new(g.num(0, 2_000, limits::DURATION_MS.get())) }),
        nodes,
        node_timeout_ms: Millis::new(g.num(1, 200, limits::DURATION_MS.get())),
        parallel: g.chance(50),
        clock_drift_factor: if g.chance(50) { 0.01 } else { g.int(0, 500) as f64 / 1000.0 },
        election_timeout_ms: Millis::new(election_timeout_ms),
        recheck_after_wait: g.chance(85),
        lock_delay_ms: Millis::new(0),
        renew_deadline_ms: Millis::new(10_000),
        retry_period_ms: Millis::new(2_000),
        watchdog: false,
        sentinel: false,
        keepalive_ms: Millis::new(1_000),
        stonith_timeout_ms: Millis::new(60_000),
        fence_first: false,
    };
    // The draws above stay (the sample's seeds keep their scenarios); the settings this kind
    // of service does not have go back to their defaults, as validation requires (issue 49, D6).
    let lock = lock.only_its_own();
    let source = match kind {
        LockKind::Consensus | LockKind::ZooKeeper => g.pick(&[TokenKind::Counter, TokenKind::None]),
        _ => g.pick(&[TokenKind::Counter, TokenKind::Counter, TokenKind::None, TokenKind::RandomOwner]),
    };
    let store = if kind == LockKind::Redlock { CounterStore::Durable } else { g.pick(&[CounterStore::Durable, CounterStore::Redis]) };
    let token = TokenSource { source, start: g.num(1, 100, limits::SEED), store };
    let resource = Resource {
        kind: g.pick(&[ResourceKind::Store, ResourceKind::Store, ResourceKind::Database, ResourceKind::External]),
        fencing: g.pick(&[Fencing::None, Fencing::Atomic, Fencing::Atomic, Fencing::CheckThenWrite]),
        idempotency: g.chance(25),
        check_write_gap_ms: Millis::new(g.num(0, 500, limits::DURATION_MS.get())),
    };
    let lat = |g: &mut Gen| {
        let lo = g.num(0, 10, 600_000);
        [Millis::new(lo), Millis::new(g.num(lo, lo + 30, 600_000))]
    };
    let n_clients = if g.extreme && g.chance(30) { g.u(1, limits::CLIENTS as u64) } else { g.u(1, 4) } as usize;
    let clients: Vec<Client> = (0..n_clients)
        .map(|i| {
            let n_steps = if g.extreme && g.chance(20) { g.u(0, limits::STEPS as u64) } else { g.u(1, 8) };
            let steps = (0..n_steps).map(|_| step(&mut g, duration_ms, &lock, resource.kind)).collect();
            Client { name: format!("c{i}"), start_ms: Millis::new(g.num(0, duration_ms / 4, duration_ms)), steps }
        })
        .collect();
    let mut sc = Scenario {
        version: 1,
        id: format!("gen-{seed}"),
        title: format!("generated {seed}"),
        chapter: String::new(),
        story: String::new(),
        setup: String::new(),
        notice: vec![],
        moments: vec![],
        simplifications: vec![],
        sources: vec![],
        seed: g.u(0, limits::SEED),
        duration_ms: Millis::new(duration_ms),
        lock,
        token,
        resource,
        network: Network { latency_ms: lat(&mut g), links: vec![] },
        clients,
        clocks: Default::default(),
        faults: vec![],
        fix: None,
        questions: vec![],
        challenge: None,
    };
    let actors = sc.actor_names();
    for _ in 0..g.u(0, 2) {
        let (from, to) = (g.pick(&actors), g.pick(&actors));
        let latency_ms = lat(&mut g);
        sc.network.links.push(Link { from, to, latency_ms });
    }
    for a in &actors {
        if g.chance(15) {
            let spec = ClockSpec { offset_ms: g.signed(limits::CLOCK_MS, 5_000), drift_ppm: g.signed(limits::DRIFT_PPM, 100_000) };
            sc.clocks.insert(a.clone(), spec);
        }
    }
    let n_faults = if g.extreme && g.chance(20) { g.u(0, limits::FAULTS as u64) } else { g.u(0, 5) };
    for _ in 0..n_faults {
        let f = fault(&mut g, &actors, duration_ms, sc.lock.replica.is_some());
        sc.faults.push(f);
    }
    if g.chance(10) {
        let value = g.pick(&["atomic", "none", "check-then-write"]);
        sc.fix = Some(Fix {
            label: "Fence".into(),
            explain: "Check tokens.".into(),
            set: vec![Setting { path: "resource.fencing".into(), value: value.into() }],
        });
    }
    sc
}

fn step(g: &mut Gen, duration_ms: u64, lock: &LockService, resource: ResourceKind) -> Step {
    let max = duration_ms.min(limits::DURATION_MS.get());
    // Mostly steps the lock service has (one in fifty is left to validation to refuse).
    let no_lock = lock.kind == LockKind::None;
    let no_renew = no_lock || matches!(lock.kind, LockKind::Consensus | LockKind::ZooKeeper) || lock.renew == RenewStyle::None;
    let kind = loop {
        let k = g.int(0, 6);
        let refused = match k {
            0 | 5 => no_lock,
            4 => no_renew,
            _ => false,
        };
        if !refused || g.chance(2) {
            break k;
        }
    };
    match kind {
        0 => Step::Acquire {
            retry_ms: Millis::new(g.num(1, 1_000, limits::DURATION_MS.get())),
            attempts: g.num(1, 200, u64::from(limits::ATTEMPTS)) as u32,
            timeout_ms: Millis::new(g.num(1, 1_000, limits::DURATION_MS.get())),
        },
        1 => Step::Read { activate: g.chance(20) },
        2 => Step::Work { ms: Millis::new(g.num(0, max / 2, limits::DURATION_MS.get())) },
        3 => {
            let timeout_ms = g.chance(40).then(|| g.num(1, 2_000, limits::DURATION_MS.get()));
            let conditional = resource == ResourceKind::Database && g.chance(50);
            Step::Write {
                op: g.pick(&[WriteOp::Set, WriteOp::Add, WriteOp::Rebuild]),
                request: g.chance(40).then(|| g.pick(&["charge-1", "charge-2", "x"]).to_string()),
                timeout_ms: timeout_ms.map(Millis::new),
                retries: if timeout_ms.is_some() { g.num(0, 3, 100) as u32 } else { 0 },
                conditional,
                effect: (conditional && g.chance(50)).then(|| g.pick(&["email-1", "email-2"]).to_string()),
            }
        }
        4 => Step::Renew { on_timeout: if g.chance(30) { OnTimeout::KeepWorking } else { OnTimeout::GiveUp } },
        5 => Step::Release {},
        _ => Step::CheckDeadline { margin_ms: Millis::new(g.num(0, 500, limits::DURATION_MS.get())) },
    }
}

fn fault(g: &mut Gen, actors: &[String], duration_ms: u64, replica: bool) -> Fault {
    let at_ms = g.num(0, duration_ms, duration_ms);
    let actor = g.pick(actors);
    match g.int(0, if replica { 8 } else { 7 }) {
        0 => Fault::Pause(fault::Pause {
            actor,
            at_ms: Millis::new(at_ms),
            duration_ms: Millis::new(g.num(0, duration_ms / 2, limits::DURATION_MS.get())),
        }),
        1 => Fault::Crash(fault::Crash { actor, at_ms: Millis::new(at_ms) }),
        2 => Fault::Restart(fault::Restart { actor, at_ms: Millis::new(at_ms) }),
        3 => Fault::ClockJump(fault::ClockJump { actor, at_ms: Millis::new(at_ms), by_ms: g.signed(limits::CLOCK_MS, 20_000) }),
        4 => Fault::Drift(fault::Drift { actor, at_ms: Millis::new(at_ms), ppm: g.signed(limits::DRIFT_PPM, 200_000) }),
        5 => {
            let isolate = (0..g.u(1, 3)).map(|_| g.pick(actors)).collect();
            Fault::Partition(fault::Partition {
                isolate,
                from: Vec::new(),
                at_ms: Millis::new(at_ms),
                duration_ms: Millis::new(g.num(0, duration_ms / 2, limits::DURATION_MS.get())),
            })
        }
        6 => Fault::Delay(fault::Delay {
            from: actor,
            to: g.pick(actors),
            at_ms: Millis::new(at_ms),
            extra_ms: Millis::new(g.num(0, 20_000, limits::DURATION_MS.get())),
            count: g.num(1, 3, 1000) as u32,
        }),
        7 => Fault::Drop(fault::Drop { from: actor, to: g.pick(actors), at_ms: Millis::new(at_ms), count: g.num(1, 3, 1000) as u32 }),
        _ => Fault::Failover(fault::Failover { at_ms: Millis::new(at_ms) }),
    }
}

/// FNV-1a, 64 bits: a short fingerprint of a trace, the same natively and in wasm.
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The scenario for `seed`, or for one seed in six the same scenario with Kubernetes leader
/// election as its lock service (client-go's three durations drawn apart). [`scenario`] stays as
/// it was when the fingerprints in `golden/generated.txt` were reviewed.
pub fn any_service(seed: u64) -> Scenario {
    let mut sc = scenario(seed);
    if seed % 6 != 5 {
        return sc;
    }
    let mut g = Gen { rng: Rng::stream(seed, "kubernetes"), extreme: sc.seed % 7 == 0 };
    let l = &mut sc.lock;
    l.kind = LockKind::Kubernetes;
    l.replica = None;
    l.retry_period_ms = Millis::new(g.num(1, 2_000, 20_000));
    l.renew_deadline_ms = Millis::new(g.num(1, 10_000, 40_000));
    l.ttl_ms = Millis::new(g.num(1, 15_000, 60_000));
    if g.chance(90) {
        l.renew_deadline_ms = l.renew_deadline_ms.max(Millis::new(l.retry_period_ms.get() * 6 / 5 + 1));
        l.ttl_ms = l.ttl_ms.max(l.renew_deadline_ms + Millis::new(1));
    }
    if sc.token.source == TokenKind::RandomOwner {
        sc.token.source = TokenKind::Counter;
    }
    sc.clients.iter_mut().for_each(|c| c.steps.retain(|s| !matches!(s, Step::Renew { .. })));
    sc
}
