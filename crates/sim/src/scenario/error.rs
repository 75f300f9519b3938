//! Why a scenario was refused: [`ScenarioError`], where (a field's path, or a line and column
//! in the text) and what ([`Problem`]): a value the reader refused (its [`ReadErrorKind`], as
//! data), a setting named by a path the scenario lacks, or a rule broken, in words.

use std::fmt;

use crate::from_value::ReadErrorKind;

/// Why a scenario was refused: where (a field path, or a line and column) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The field path (`clients[0].steps[2].work.ms`), or empty for the whole document.
    pub path: String,
    /// Line and column in the JSON text, when the error is about the text itself.
    pub line_col: Option<(usize, usize)>,
    pub problem: Problem,
}

/// What is wrong with a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A value that is not of its field's type, or a field the type does not have, as the
    /// reader found it (`from_value`).
    Read(ReadErrorKind),
    /// Setting `index` of a fix, a solution or a link's changes names a path (`path`,
    /// dot-separated) that is not in the scenario.
    NoSetting { index: usize, path: String },
    /// Anything else, in words: the text is not JSON, a rule of validation is broken.
    Said(String),
}

impl ScenarioError {
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError { path: path.into(), line_col: None, problem: Problem::Said(message.into()) }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.line_col, self.path.is_empty()) {
            (Some((l, c)), true) => write!(f, "line {l}, column {c}: {}", self.problem),
            (Some((l, c)), false) => {
                write!(f, "{} (line {l}, column {c}): {}", self.path, self.problem)
            }
            (None, true) => write!(f, "{}", self.problem),
            (None, false) => write!(f, "{}: {}", self.path, self.problem),
        }
    }
}

impl std::error::Error for ScenarioError {}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Read(kind) => write!(f, "{kind}"),
            Problem::NoSetting { path, .. } => write!(f, "no setting at `{path}`"),
            Problem::Said(words) => f.write_str(words),
        }
    }
}
