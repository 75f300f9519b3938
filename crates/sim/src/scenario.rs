//! The input of a run: [`Scenario`], a serde description with `"version": 1`.
//!
//! A scenario names the lock service ([`LockService`]), the token source ([`TokenSource`]),
//! the protected resource ([`Resource`]), the network ([`Network`]), the clients and their
//! programs ([`Client`], [`Step`]), the faults at their true times ([`Fault`]), a seed, and the
//! teaching text. Unknown fields are errors. [`Scenario::parse`] reports the path of a bad field
//! ([`ScenarioError`]); [`Scenario::validate`] checks references, ranges and the limits
//! ([`limits`]) so that no scenario can make the engine hang.
//!
//! All durations in a scenario are integer milliseconds and their names end in `_ms`.

use crate::flat::Map;

use serde::{Deserialize, Serialize};

pub use moment::{Moment, When};

mod error;
pub mod fault;
pub mod fault_kinds;
mod lock;
mod moment;
mod parts;
mod read;
pub mod settings;
pub mod teach;
mod validate;
mod write;

pub use error::{Problem, ScenarioError};
pub use fault::Fault;
pub use lock::*;
pub use parts::*;

/// The engine's limits: a scenario beyond them is refused with a clear error.
pub mod limits {
    /// Clients in one scenario.
    pub const CLIENTS: usize = 12;
    /// Steps in one client's program.
    pub const STEPS: usize = 64;
    /// Faults in one scenario.
    pub const FAULTS: usize = 128;
    /// Simulated duration of a run, in ms (one hour).
    pub const DURATION_MS: crate::time::Millis = crate::time::Millis::new(3_600_000);
    /// Events in one run; a run that would need more stops with an error.
    pub const EVENTS: usize = 200_000;
    /// Attempts of one acquire step.
    pub const ATTEMPTS: u32 = 10_000;
    /// Largest clock offset or jump, in ms (one day).
    pub const CLOCK_MS: i64 = 86_400_000;
    /// Largest drift, in parts per million (50 %).
    pub const DRIFT_PPM: i64 = 500_000;
    /// Longest text field, in bytes.
    pub const TEXT: usize = 8_000;
    /// Largest scenario text (a file, a paste, a link), in bytes.
    pub const SCENARIO_BYTES: usize = 1_000_000;
    /// Largest seed: seeds must survive a round trip through JavaScript numbers.
    pub const SEED: u64 = (1 << 53) - 1;
}

/// A whole scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The format version; only 1 exists.
    pub version: u32,
    /// A stable identifier (it appears in URLs).
    pub id: String,
    /// A short title.
    pub title: String,
    /// The course chapter this belongs to (see `library::CHAPTERS`).
    #[serde(default)]
    pub chapter: String,
    /// One paragraph: what happens.
    #[serde(default)]
    pub story: String,
    /// The story's setup: who and what, and nothing of how it ends. Predict mode shows it in
    /// place of the story until the run's end, so that no question's answer is given away.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub setup: String,
    /// What to notice, one point per entry.
    #[serde(default)]
    pub notice: Vec<String>,
    /// Narration of key moments, matched against the run's events.
    #[serde(default)]
    pub moments: Vec<Moment>,
    /// Where the scenario simplifies reality, said plainly.
    #[serde(default)]
    pub simplifications: Vec<String>,
    /// The sources it rests on (names from SEMANTICS.md).
    #[serde(default)]
    pub sources: Vec<String>,
    /// The seed of every random draw in the run.
    pub seed: u64,
    /// The simulated time the run covers.
    pub duration_ms: crate::time::Millis,
    /// The lock service.
    pub lock: LockService,
    /// Where fencing tokens come from.
    #[serde(default)]
    pub token: TokenSource,
    /// The protected resource.
    #[serde(default)]
    pub resource: Resource,
    /// Latencies between actors.
    #[serde(default)]
    pub network: Network,
    /// The clients and what each does.
    pub clients: Vec<Client>,
    /// Clock settings per actor name (clients, `redis`, `replica`, `resource`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub clocks: Map<String, ClockSpec>,
    /// Faults at their true times.
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// The one-click fix, if the scenario has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Predict mode: questions asked at key moments (see [`crate::predict`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<teach::Question>,
    /// The course's invitation to break or fix the run by changing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<teach::Challenge>,
}

/// The one-click fix: settings to change, each named by its path in the scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fix {
    /// The button's label, e.g. "Turn on fencing".
    pub label: String,
    /// What the fix changes and why it helps.
    pub explain: String,
    pub set: Vec<Setting>,
}

/// One setting of a fix: `path` is dot-separated (`resource.fencing`, `clients.1.steps.1.read.activate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    pub path: String,
    pub value: crate::json::Value,
}

/// What a scenario text over `limits::SCENARIO_BYTES` is told.
const TOO_LARGE: &str = "larger than 1 MB; a scenario is a few KB of JSON";

impl Scenario {
    /// Reads and validates a scenario from a file's bytes (a file or standard input for the
    /// command line, a file opened in the app): UTF-8 text of at most 1 MB (a byte-order mark is
    /// accepted), then [`Scenario::parse`]. The one rule for scenario files, so that both
    /// refuse the same files with the same words. A reader may stop at `limits::SCENARIO_BYTES`
    /// and one byte more: that is enough to tell a file too large.
    pub fn from_bytes(bytes: &[u8]) -> Result<Scenario, ScenarioError> {
        if bytes.len() > limits::SCENARIO_BYTES {
            return Err(ScenarioError::at("", TOO_LARGE));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            // UTF-16 (which Windows editors write) and Latin-1 end here; counted from 1, as
            // people count bytes.
            ScenarioError::at("", format!("not UTF-8 text (byte {} is not); a scenario is JSON", e.valid_up_to() + 1))
        })?;
        Scenario::parse(text)
    }

    /// Parses and validates a scenario from JSON text.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        if text.len() > limits::SCENARIO_BYTES {
            return Err(ScenarioError::at("", TOO_LARGE));
        }
        // Editors on Windows may start a UTF-8 file with a byte-order mark; it is not JSON.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // First the text itself, so that syntax errors get a line and column.
        let value = crate::json::parse(text).map_err(|e| match e {
            crate::json::Error::Syntax(e) if e.out_of_range() => ScenarioError {
                path: e.path().to_string(),
                line_col: Some((e.line(), e.column())),
                problem: Problem::Said("this number is beyond the numbers a scenario can hold".into()),
            },
            crate::json::Error::Syntax(e) => ScenarioError {
                path: String::new(),
                line_col: Some((e.line(), e.column())),
                problem: Problem::Said(format!("invalid JSON: {}", e.message())),
            },
            crate::json::Error::Duplicate(d) => ScenarioError {
                path: d.path,
                line_col: Some((d.line, d.column)),
                problem: Problem::Said("this key appears twice in its object; keep one".into()),
            },
        })?;
        let sc = Scenario::from_value(value)?;
        sc.check_settings()?;
        Ok(sc)
    }

    /// Checks, when a scenario is loaded (not when the reader presses Fix or asks for the
    /// challenge's solution), that its fix and its solution apply: every path exists and the
    /// changed scenario is valid. Not part of [`validate`]: an edit may leave them behind
    /// (remove the fault a fix moves), and pressing Fix then says so.
    ///
    /// [`validate`]: Scenario::validate
    pub fn check_settings(&self) -> Result<(), ScenarioError> {
        let named = |what: &str, e: ScenarioError| match e.problem {
            Problem::NoSetting { index, .. } => ScenarioError { path: format!("{what}[{index}].path"), ..e },
            _ => ScenarioError::at(what, format!("the changed scenario would be invalid: {e}")),
        };
        if let Some(Err(e)) = self.fixed() {
            return Err(named("fix.set", e));
        }
        if let Some(c) = &self.challenge {
            self.with_settings(&c.solution).map_err(|e| named("challenge.solution", e))?;
        }
        Ok(())
    }

    /// Builds and validates a scenario from a JSON value.
    pub fn from_value(value: crate::json::Value) -> Result<Scenario, ScenarioError> {
        if let Some(v) = value.get("version") {
            if v != &crate::json::Value::from(1u64) {
                return Err(ScenarioError::at("version", format!("only version 1 exists, not {v}")));
            }
        }
        let sc: Scenario = crate::from_value::deserialize(&value).map_err(|e| ScenarioError {
            path: e.path,
            line_col: None,
            problem: Problem::Read(e.kind),
        })?;
        sc.validate()?;
        Ok(sc)
    }

    /// The scenario as pretty JSON.
    pub fn to_json(&self) -> String {
        crate::json::to_string_pretty(&self.to_value())
    }

    /// The scenario as a JSON value.
    pub fn to_value(&self) -> crate::json::Value {
        crate::to_value::ToValue::to_value(self)
    }

    /// The scenario with its fix applied (and the fix itself removed), or `None` if it has none.
    pub fn fixed(&self) -> Option<Result<Scenario, ScenarioError>> {
        let fix = self.fix.as_ref()?;
        Some(self.with_settings(&fix.set).map(|mut s| {
            s.fix = None;
            s
        }))
    }

    /// The scenario with the given settings changed, validated.
    pub fn with_settings(&self, set: &[Setting]) -> Result<Scenario, ScenarioError> {
        let mut v = self.to_value();
        for (i, s) in set.iter().enumerate() {
            let slot = pointer_mut(&mut v, &s.path).ok_or_else(|| ScenarioError {
                path: format!("fix.set[{i}].path"),
                line_col: None,
                problem: Problem::NoSetting { index: i, path: s.path.clone() },
            })?;
            *slot = s.value.clone();
        }
        Scenario::from_value(v)
    }

    /// The names of every actor, in lane order: clients, then the lock service's servers (its
    /// declaration's `lanes`: `redis` and `replica`, Redlock's nodes `A`, `B`, …), then
    /// `resource`.
    pub fn actor_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.clients.iter().map(|c| c.name.clone()).collect();
        names.extend((self.lock.kind.declaration().lanes)(&self.lock));
        names.push("resource".into());
        names
    }
}

/// Whether every setting has the given value in `sc`: a declared one (`settings`) as its
/// declaration reads it, so that one left at its default counts (Redlock's `lock.nodes`, 5, is
/// not in the JSON); any other in `v`, `sc` serialized (a missing path has none).
pub fn settings_hold(sc: &Scenario, v: &mut crate::json::Value, set: &[Setting]) -> bool {
    set.iter().all(|s| match settings::setting(sc, &s.path) {
        Some(d) => {
            let want = match &s.value {
                crate::json::Value::String(t) => t.clone(),
                other => other.to_string(),
            };
            (d.get)(sc) == want
        }
        None => pointer_mut(v, &s.path).is_some_and(|x| *x == s.value),
    })
}

/// The slot at a dot-separated path (`clients.1.steps.0.read.activate`), creating a missing
/// last key in an object (a field left at its default is absent from the JSON) or the item
/// just past the end of a list (`faults.2` of two faults appends one).
fn pointer_mut<'a>(v: &'a mut crate::json::Value, path: &str) -> Option<&'a mut crate::json::Value> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut cur = v;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        cur = match cur {
            crate::json::Value::Object(map) => {
                if last && !map.contains_key(part) {
                    map.insert((*part).to_string(), crate::json::Value::Null);
                }
                map.get_mut(part)?
            }
            crate::json::Value::Array(items) => {
                let i = part.parse::<usize>().ok()?;
                if last && i == items.len() {
                    items.push(crate::json::Value::Null);
                }
                items.get_mut(i)?
            }
            _ => return None,
        };
    }
    Some(cur)
}
