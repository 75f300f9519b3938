//! Predict mode and the course's challenges: questions asked at key moments, answered by the
//! engine.
//!
//! A [`Question`] names the event where the run stops (`at`, written like a key moment), a
//! [`Fact`] about what happens next, and choices, each with the value that makes it right.
//! [`answer`] computes the fact from the run: the value, and the event that proves it (where
//! the app jumps when it reveals the answer). The author also writes which choice is right;
//! the library tests check it against [`answer`], so a change to a model can never leave a
//! wrong answer behind.
//!
//! A [`Challenge`] invites the reader to change the scenario until its verdict becomes the
//! goal; its `solution` (settings, like a fix) is tested to reach the goal from a run that has
//! not.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::checker::Safety;
use crate::scenario::{Scenario, ScenarioError, Setting};
use crate::trace::{Event, EventId, EventKind, Run, WriteOutcome};

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
    fn client(&self) -> Option<&str> {
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

/// A question answered by the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The event where the run stops to ask.
    pub asked: EventId,
    /// The fact's value.
    pub value: Value,
    /// The event that shows it.
    pub proof: EventId,
    /// The choice whose value it is, if any.
    pub right: Option<usize>,
}

/// Computes a question's answer from a run. Fails when the question's event or client is not
/// in the run.
pub fn answer(run: &Run, q: &Question) -> Result<Answer, String> {
    let asked = run.find(&q.at).ok_or_else(|| format!("no event “{}” in this run", q.at))?;
    let client = match q.fact.client() {
        Some(name) => Some(run.actor_id(name).ok_or_else(|| format!("no actor called “{name}”"))?),
        None => None,
    };
    let who = client.unwrap_or(usize::MAX);
    // The first event after the question that `f` recognises, with what it says.
    let next = |f: &dyn Fn(&Event) -> Option<Value>| run.events[asked + 1..].iter().find_map(|e| f(e).map(|v| (v, e.id)));
    let last = run.events.len().saturating_sub(1);
    let (value, proof) = match &q.fact {
        Fact::Write { .. } => next(&|e| {
            let outcome = match e.kind {
                EventKind::Accepted { client, .. } if client == who => WriteOutcome::Accepted,
                EventKind::Rejected { client, .. } if client == who => WriteOutcome::Rejected,
                EventKind::Duplicate { client, .. } if client == who => WriteOutcome::Duplicate,
                EventKind::Conflict { client, .. } if client == who => WriteOutcome::Conflict,
                _ => return None,
            };
            Some(json!(outcome))
        })
        .unwrap_or((json!("none"), last)),
        Fact::NextHolder {} => {
            next(&|e| matches!(e.kind, EventKind::Acquired { .. }).then(|| json!(run.name(e.actor)))).unwrap_or((json!("nobody"), last))
        }
        Fact::Token { .. } => next(&|e| match e.kind {
            EventKind::Acquired { token, .. } if e.actor == who => Some(json!(token.unwrap_or(0))),
            _ => None,
        })
        .unwrap_or((json!(0), last)),
        Fact::Votes { .. } => next(&|e| match &e.kind {
            EventKind::Tally { votes, .. } if e.actor == who => Some(json!(votes.len())),
            _ => None,
        })
        .ok_or_else(|| format!("{} has no Redlock round after “{}”", run.name(who), q.at))?,
        Fact::Valid { .. } => {
            // The deadline as the client knew it then: its last grant or renewal so far.
            let t = run.events[asked].at_us;
            let believes = run.intervals.beliefs.iter().any(|b| b.client == who && b.from_us <= t && t < b.to_us);
            let valid = believes && run.lease_deadline(who, asked).is_some_and(|d| run.local_at(who, t) < d);
            (json!(valid), asked)
        }
        Fact::KeyTouched { .. } => next(&|e| match e.kind {
            EventKind::KeyDeleted { owner, by, .. } | EventKind::KeyExtended { owner, by, .. } if by == who => {
                Some(json!(owner.map_or("nobody", |o| run.name(o))))
            }
            EventKind::KeyUnchanged { by, .. } if by == who => Some(json!("nobody")),
            _ => None,
        })
        .ok_or_else(|| format!("{} deletes or extends no key after “{}”", run.name(who), q.at))?,
        Fact::Read { .. } => next(&|e| match e.kind {
            EventKind::ReadDone { value, .. } if e.actor == who => Some(json!(value)),
            _ => None,
        })
        .ok_or_else(|| format!("{} reads nothing after “{}”", run.name(who), q.at))?,
        Fact::FinalValue {} => {
            let proof = run.resource_log.last().map_or(last, |s| s.event);
            (json!(run.final_value), proof)
        }
        Fact::Verdict {} => {
            let proof = run.verdict.violations.iter().filter_map(|v| v.event).min().unwrap_or(last);
            (json!(run.verdict.verdict), proof)
        }
    };
    let right = q.choices.iter().position(|c| c.value == value);
    Ok(Answer { asked, value, proof, right })
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
        if !(2..=6).contains(&q.choices.len()) {
            return err(format!("{p}.choices"), "give between 2 and 6 choices");
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
