//! The Lease Lab engine: a pure, deterministic simulation of clients, lock services and a
//! protected resource.
//!
//! The principal types are [`Scenario`] (the input: serde, editable, shareable), [`Run`] (the
//! output: the trace, the intervals a timeline draws, and the [`Verdict`]), and the entry
//! point [`run`]. Data flows one way: `Scenario` → [`run`] → `Run`, in three stages: the
//! driver simulates (`world`: events and intervals), the [`checker`] judges what it recorded, and
//! the course's key moments are attached where they hold ([`moments`]).
//!
//! Architecture invariant: this crate does no I/O, reads no real clock and draws no OS
//! randomness; every random draw comes from the scenario's seed ([`rng::Rng`]). The same
//! scenario gives the same trace, bit for bit, natively and in WebAssembly.

pub mod actor;
pub mod checker;
pub mod client;
pub mod clock;
pub mod compare;
pub mod facts;
pub mod flat;
pub mod from_value;
pub mod json;
pub mod library;
pub mod lock;
pub mod moments;
pub mod msg;
pub mod narrate;
pub mod predict;
pub mod proto;
pub mod quorum;
mod registry;
pub mod render;
pub mod resource;
pub mod rng;
pub mod scenario;
pub mod search;
pub mod service;
pub mod sort;
pub mod term;
pub mod time;
pub mod to_value;
pub mod trace;
pub mod verdict;
pub mod wire;
pub mod witness;
mod world;

use std::fmt;

pub use checker::{Finding, Safety, Verdict};
pub use scenario::{Scenario, ScenarioError};
pub use trace::{Event, EventKind, QuorumEvent, Run};
pub use world::overrun_us;

/// Why a scenario could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The scenario is invalid.
    Invalid(ScenarioError),
    /// The run needed more events than the engine allows. `shortest`: the lock setting with the
    /// shortest period, when it is short enough against the run to be what filled it (a 1 ms
    /// TTL renewed every third of it, a 1 ms heartbeat).
    TooManyEvents { limit: usize, at_us: time::Micros, shortest: Option<(&'static str, time::Millis)> },
}

impl RunError {
    /// What to change when the run needs too many events: the lock setting that fills it, if
    /// one does (issue 49, D7: "lengthen retry and work times" where a 1 ms TTL was the cause).
    pub fn advice(&self) -> String {
        match self {
            RunError::TooManyEvents { shortest: Some((path, ms)), .. } => {
                format!("{path} is {ms} ms, which fills the run with events: lengthen it, or shorten duration_ms")
            }
            _ => "shorten duration_ms, or lengthen retry and work times".into(),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Invalid(e) => write!(f, "{e}"),
            RunError::TooManyEvents { limit, at_us, .. } => {
                write!(f, "the run needs more than {limit} events (reached at {} of simulated time); {}", time::fmt(*at_us), self.advice())
            }
        }
    }
}

impl std::error::Error for RunError {}

impl From<ScenarioError> for RunError {
    fn from(e: ScenarioError) -> Self {
        RunError::Invalid(e)
    }
}

/// Simulates a scenario and checks the result.
///
/// Every stage is bounded for every valid scenario: the engine stops after
/// [`scenario::limits::EVENTS`] events, and the checker's work grows as O(n log n) in the
/// events, writing out at most [`checker::LISTED_PER_KIND`] findings of each kind.
pub fn run(scenario: &Scenario) -> Result<Run, RunError> {
    run_within(scenario, scenario::limits::EVENTS)
}

/// [`run`], stopping with [`RunError::TooManyEvents`] as soon as the run needs more than
/// `max_events` events (at most [`scenario::limits::EVENTS`]): a caller that can only show so
/// many (the app's timeline) need not simulate the rest first.
pub fn run_within(scenario: &Scenario, max_events: usize) -> Result<Run, RunError> {
    let mut run = judge_within(scenario, max_events)?;
    run.moments = moments::attach(&run, scenario);
    Ok(run)
}

/// The lock setting in milliseconds with the shortest period, if the run's duration holds a
/// thousand of it or more: what most likely makes a run need too many events.
fn shortest_period(sc: &Scenario) -> Option<(&'static str, time::Millis)> {
    scenario::settings::settings_of(sc)
        .filter(|s| s.path.starts_with("lock.") && matches!(s.kind, scenario::settings::Kind::Ms { .. }))
        .filter_map(|s| (s.get)(sc).parse::<u64>().ok().filter(|&v| v > 0).map(|v| (s.path, v)))
        .min_by_key(|&(_, v)| v)
        .filter(|&(_, v)| v.saturating_mul(1_000) <= sc.duration_ms.get())
        .map(|(p, v)| (p, time::Millis::new(v)))
}

/// [`run_within`] without the scenario's key moments: the same events, intervals and verdict,
/// but no moment is attached (which may need the scenario as JSON). For the search, which runs
/// thousands of schedules for their verdicts alone (a library test checks that the verdicts
/// are the same).
pub fn judge_within(scenario: &Scenario, max_events: usize) -> Result<Run, RunError> {
    scenario.validate()?;
    // The pipeline: the driver simulates (events and intervals, and nothing of JSON or of the
    // course), then the checker judges what it recorded.
    let mut run = world::simulate(scenario, max_events.min(scenario::limits::EVENTS)).map_err(|e| match e {
        RunError::TooManyEvents { limit, at_us, .. } => RunError::TooManyEvents { limit, at_us, shortest: shortest_period(scenario) },
        e => e,
    })?;
    run.verdict = checker::check(&run, scenario);
    Ok(run)
}
