//! The engine's ZooKeeper ensemble against a real ZooKeeper (3.8, Debian's package, standalone).
//!
//! Each test starts its own servers on free loopback ports, with their configuration and data in
//! temporary directories, and stops them. Generated sequences of requests from up to three
//! sessions run against a server and the model side by side (`zk/model.rs`: the model on the
//! real elapsed time), and every reply is compared (`Obs`): the zxid it carries (from the
//! sequence's start: each session created or closed, each create and each delete takes one),
//! the created znode's sequence suffix and czxid, the children of the lock node, whether a
//! watched znode exists, a delete's success or `NoNode`, a session's expiry (a silent session
//! expires after its timeout, with its ephemeral znodes), and the watch notifications
//! (`NodeDeleted`) the session received before the reply.
//!
//! A real session expires at the first tick (`TICK_MS`) after its timeout has run out from when
//! the server last heard from it; the model expires it exactly at its timeout (a deliberate
//! simplification: the model has no ticks). A request whose time window comes within `GUARD_MS`
//! of a session's possible expiry cannot be judged, so its sequence is counted as inconclusive;
//! the generator keeps waits away from those windows, so this is rare.
//!
//! Also by design, each of the model's sessions has one lock znode (the recipe's; a repeated
//! create finds it, as the GUID in its name lets a real client do), so the generator creates
//! at most one per session. And an `exists` on a missing znode sets no watch in the model (a
//! real server would notify its creation): sequence suffixes are never reused, so the suite,
//! like the recipe, watches only names that were created or never will be.
//!
//! Without ZooKeeper (or java) the tests say so and pass, unless `LEASELAB_REQUIRE_SERVERS=1`
//! (set by `scripts/test`, which installs it). A failure names the seed and the sequence;
//! `LEASELAB_SEED=N` runs another seed.

mod sequences;
mod servers;
mod zk;

use sequences::run_split;
use sim::rng::Rng;
use zk::run::run_sequence;
use zk::server::{available, Server, TICK_MS};
use zk::wire::Session;

const SEQUENCES: usize = 120;
const REQUIRED: usize = 90;
/// Servers run side by side, each with its share of the sequences (one sequence at a time on a
/// server, so that its zxids are the sequence's own).
const SERVERS: usize = 3;

fn run_many(seed: u64, count: usize, servers: usize, broken: bool) -> (usize, usize, Vec<String>) {
    run_split(servers, count, Server::start, |server, n| run_sequence(server.port, seed, n, broken))
}

fn seed() -> u64 {
    std::env::var("LEASELAB_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(20_261_204)
}

#[test]
fn generated_sequences_agree_with_a_real_zookeeper() {
    if !available() {
        return;
    }
    let seed = seed();
    let (agreed, inconclusive, differs) = run_many(seed, SEQUENCES, SERVERS, false);
    let [expired, no_node, closed, notified] = zk::run::agreed_figures();
    eprintln!(
        "zookeeper conformance (seed {seed}): {agreed} sequences agreed, {inconclusive} inconclusive (too near a session's expiry), {} differed; \
         among the replies that agreed, {expired} found the session expired, {no_node} NoNode, {closed} closes, {notified} watch notifications",
        differs.len()
    );
    assert!(differs.is_empty(), "the model disagrees with ZooKeeper:\n{}", differs.join("\n"));
    assert!(agreed >= REQUIRED, "seed {seed}: only {agreed} sequences could be judged ({inconclusive} inconclusive)");
}

#[test]
fn a_broken_model_is_caught_with_the_sequence_and_the_reply() {
    if !available() {
        return;
    }
    // The broken model is not told of the pings: its sessions expire while the real ones live.
    let (_, _, differs) = run_many(seed() + 1, 10, 1, true);
    assert!(!differs.is_empty(), "a model that misses pings must be caught");
    let first = &differs[0];
    assert!(first.contains("sequence") && first.contains("the server: ") && first.contains("the model: "), "{first}");
}

#[test]
fn session_timeouts_are_bounded_by_2_and_20_ticks_as_the_scenarios_say() {
    if !available() {
        return;
    }
    let server = Server::start();
    let tick = TICK_MS as i32;
    let mut rng = Rng::stream(seed(), "timeouts");
    for _ in 0..20 {
        let asked = rng.range_inclusive(1, 30 * TICK_MS) as i32;
        let mut s = Session::connect(server.port, asked).expect("connect");
        assert_eq!(s.timeout_ms, asked.clamp(2 * tick, 20 * tick), "asked for {asked} ms with a {tick} ms tick");
        s.close().expect("close");
    }
    // The scenarios accept what the sample configuration's tick (2000 ms) allows.
    assert_eq!(sim::scenario::zookeeper::SESSION_TIMEOUT_MS.map(sim::time::Millis::get), [2 * 2_000, 20 * 2_000]);
}
