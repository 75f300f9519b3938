//! The course's teaching content in a scenario: predict-mode [`Question`]s and the "your turn"
//! [`Challenge`]. They are part of the scenario format; [`crate::predict`] answers them from a
//! run.

use crate::json::Value;
use serde::{Deserialize, Serialize};

use super::{Scenario, ScenarioError, Setting};
use crate::verdict::Safety;

/// A question asked at a key moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// The event where the run stops to ask, written like a key moment (`"resumed A"`).
    pub at: String,
    /// The question.
    pub ask: String,
    /// What the engine computes to answer it.
    pub fact: Fact,
    pub choices: Vec<Choice>,
    /// The index of the right choice, as the author wrote it (checked against the engine).
    pub answer: usize,
    /// Why the answer is right, shown with it.
    pub why: String,
}

/// One choice and the value of the fact that makes it right.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    pub value: Value,
}

/// What a question asks about, computed from the run after the question's event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Fact {
    /// What the resource does with `client`'s next write: `"accepted"`, `"rejected"`,
    /// `"duplicate"`, `"conflict"`, or `"none"` when no write of its arrives.
    Write { client: String },
    /// Which client next learns it holds the lock, or `"nobody"`.
    NextHolder {},
    /// The token `client` next holds the lock with (`0`: it does not get the lock, or no token).
    Token { client: String },
    /// How many nodes vote for `client` in its next Redlock round.
    Votes { client: String },
    /// Whether `client` still holds an unexpired lease by its own clock at the question's event.
    Valid { client: String },
    /// Whose key `client`'s next delete or extension changes: the owner's name, or `"nobody"`
    /// when its compare-and-X script finds another owner or no key.
    KeyTouched { client: String },
    /// The value `client` reads next.
    Read { client: String },
    /// The resource's value when the run ends.
    FinalValue {},
    /// The run's verdict: `"safe"` or `"unsafe"`.
    Verdict {},
}

impl Fact {
    pub(crate) fn client(&self) -> Option<&str> {
        match self {
            Fact::Write { client }
            | Fact::Token { client }
            | Fact::Votes { client }
            | Fact::Valid { client }
            | Fact::KeyTouched { client }
            | Fact::Read { client } => Some(client),
            Fact::NextHolder {} | Fact::FinalValue {} | Fact::Verdict {} => None,
        }
    }
}

/// An invitation to change the run until its verdict is `goal`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// What to try ("Make the pause shorter than the TTL: what changes?").
    pub ask: String,
    /// The verdict that means it worked.
    pub goal: Safety,
    /// A nudge, shown on request.
    #[serde(default)]
    pub hint: String,
    /// One way to do it (settings, like a fix), shown on request.
    pub solution: Vec<Setting>,
    /// What the change shows, once the goal is reached.
    pub explain: String,
}

/// Checks a scenario's questions and challenge; every error names the field. Names of
/// events and clients are not checked here (an edit that removes a client must not make the
/// scenario invalid): [`answer`] reports a question it cannot answer.
pub fn validate(sc: &Scenario) -> Result<(), ScenarioError> {
    const TEXT: usize = crate::scenario::limits::TEXT;
    let err = |p: String, m: &str| Err(ScenarioError::at(p, m));
    if sc.questions.len() > 20 {
        return err("questions".into(), "at most 20 questions");
    }
    for (i, q) in sc.questions.iter().enumerate() {
        let p = format!("questions[{i}]");
        if q.ask.is_empty() || q.ask.len() > TEXT || q.why.len() > TEXT || q.at.len() > 100 {
            return err(p, "ask must be 1 to 8000 bytes, why at most 8000, at at most 100");
        }
        if q.at.split_whitespace().next().is_none() {
            return err(format!("{p}.at"), "name an event, like a key moment: \"resumed A\"");
        }
        if !(2..=5).contains(&q.choices.len()) {
            return err(format!("{p}.choices"), "give between 2 and 5 choices (answered with the keys A to E)");
        }
        if q.choices.iter().any(|c| c.text.is_empty() || c.text.len() > 500) {
            return err(format!("{p}.choices"), "each choice needs a text of 1 to 500 bytes");
        }
        if q.answer >= q.choices.len() {
            return err(format!("{p}.answer"), "must be the index of one of the choices (0 for the first)");
        }
    }
    if let Some(c) = &sc.challenge {
        if c.ask.is_empty() || c.ask.len() > TEXT || c.hint.len() > TEXT || c.explain.len() > TEXT {
            return err("challenge".into(), "ask must be 1 to 8000 bytes; hint and explain at most 8000");
        }
        if c.solution.is_empty() || c.solution.len() > 16 {
            return err("challenge.solution".into(), "a solution changes between 1 and 16 settings");
        }
    }
    Ok(())
}

/// The scenario with a challenge's solution applied (its questions and challenge removed, as
/// they are about the scenario as written).
pub fn solved(sc: &Scenario) -> Option<Result<Scenario, ScenarioError>> {
    let c = sc.challenge.as_ref()?;
    Some(sc.with_settings(&c.solution).map(|mut s| {
        s.questions.clear();
        s.challenge = None;
        s.fix = None;
        s
    }))
}
