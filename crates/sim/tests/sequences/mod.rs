//! What the conformance suites share (`redis_conformance.rs`, `zookeeper_conformance.rs`): a
//! generated sequence's outcome, and many sequences run in threads.

/// How a sequence run on a real server and on the model came out.
pub enum Outcome {
    Agreed,
    /// A reply came too near an expiry time to be judged (either answer is right).
    Inconclusive,
    /// The seed, the sequence so far, and what each answered.
    Differs(String),
}

/// Runs sequences `0..count` in `threads` threads, each with its share in order and its own
/// context from `open` (a connection, a server); `run` runs one sequence. Returns how many
/// agreed, how many were inconclusive, and what differed.
pub fn run_split<C>(
    threads: usize,
    count: usize,
    open: impl Fn() -> C + Sync,
    run: impl Fn(&mut C, usize) -> Outcome + Sync,
) -> (usize, usize, Vec<String>) {
    let per = count.div_ceil(threads);
    let (open, run) = (&open, &run);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut context = open();
                    let mut tally = (0, 0, Vec::new());
                    for n in t * per..((t + 1) * per).min(count) {
                        match run(&mut context, n) {
                            Outcome::Agreed => tally.0 += 1,
                            Outcome::Inconclusive => tally.1 += 1,
                            Outcome::Differs(m) => tally.2.push(m),
                        }
                    }
                    tally
                })
            })
            .collect();
        let mut total = (0, 0, Vec::new());
        for h in handles {
            let (a, i, d) = h.join().unwrap();
            total.0 += a;
            total.1 += i;
            total.2.extend(d);
        }
        total
    })
}
