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

use crate::json::Value;
use crate::to_value::ToValue;

pub use crate::scenario::teach::{solved, validate, Challenge, Choice, Fact, Question};
use crate::trace::{Event, EventId, EventKind, Run, WriteOutcome};

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
    // The client the fact is about (`None` for facts about the whole run).
    let who = client;
    let who_name = client.map_or("", |c| run.name(c));
    // The first event after the question that `f` recognises, with what it says.
    let next = |f: &dyn Fn(&Event) -> Option<Value>| run.events[asked + 1..].iter().find_map(|e| f(e).map(|v| (v, e.id)));
    let last = run.events.len().saturating_sub(1);
    let (value, proof) = match &q.fact {
        Fact::Write { .. } => next(&|e| {
            let outcome = match e.kind {
                EventKind::Accepted { client, .. } if Some(client) == who => WriteOutcome::Accepted,
                EventKind::Rejected { client, .. } if Some(client) == who => WriteOutcome::Rejected,
                EventKind::Duplicate { client, .. } if Some(client) == who => WriteOutcome::Duplicate,
                EventKind::Conflict { client, .. } if Some(client) == who => WriteOutcome::Conflict,
                _ => return None,
            };
            Some(Value::from(outcome.as_str()))
        })
        .unwrap_or((Value::from("none"), last)),
        Fact::NextHolder {} => next(&|e| matches!(e.kind, EventKind::Acquired { .. }).then(|| Value::from(run.name(e.actor))))
            .unwrap_or((Value::from("nobody"), last)),
        Fact::Token { .. } => next(&|e| match e.kind {
            EventKind::Acquired { token, .. } if Some(e.actor) == who => Some(Value::from(token.unwrap_or(0))),
            _ => None,
        })
        .unwrap_or((Value::from(0u64), last)),
        Fact::Votes { .. } => next(&|e| match &e.kind {
            EventKind::Tally { votes, .. } if Some(e.actor) == who => Some(Value::from(votes.len())),
            _ => None,
        })
        .ok_or_else(|| format!("{} has no Redlock round after “{}”", who_name, q.at))?,
        Fact::Valid { .. } => {
            // The deadline as the client knew it then: its last grant or renewal so far.
            let t = run.events[asked].at_us;
            let believes = run.intervals.beliefs.iter().any(|b| Some(b.client) == who && b.from_us <= t && t < b.to_us);
            let valid = believes && who.is_some_and(|w| run.lease_deadline(w, asked).is_some_and(|d| run.local_at(w, t) < d));
            (Value::from(valid), asked)
        }
        Fact::KeyTouched { .. } => next(&|e| match e.kind {
            EventKind::KeyDeleted { owner, by, .. } | EventKind::KeyExtended { owner, by, .. } if Some(by) == who => {
                Some(Value::from(owner.map_or("nobody", |o| run.name(o))))
            }
            EventKind::KeyUnchanged { by, .. } if Some(by) == who => Some(Value::from("nobody")),
            _ => None,
        })
        .ok_or_else(|| format!("{} deletes or extends no key after “{}”", who_name, q.at))?,
        Fact::Read { .. } => next(&|e| match e.kind {
            EventKind::ReadDone { value, .. } if Some(e.actor) == who => Some(Value::from(value)),
            _ => None,
        })
        .ok_or_else(|| format!("{} reads nothing after “{}”", who_name, q.at))?,
        Fact::FinalValue {} => {
            let proof = run.resource_log.last().map_or(last, |s| s.event);
            (Value::from(run.final_value), proof)
        }
        Fact::Verdict {} => {
            let proof = run.verdict.violations.iter().filter_map(|v| v.event).min().unwrap_or(last);
            (run.verdict.verdict.to_value(), proof)
        }
    };
    let right = q.choices.iter().position(|c| c.value == value);
    Ok(Answer { asked, value, proof, right })
}
