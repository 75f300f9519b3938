//! The reader's progress through the course, kept in local storage: [`Progress`] (the lessons
//! opened and the predict score). Storage is read when the lab starts and when progress
//! changes, never on a render.

use sim::flat::Map;

use crate::state::Screen;

const VISITED_KEY: &str = "leaselab.visited";
const PREDICT_KEY: &str = "leaselab.predict";

pub fn storage() -> Option<web_sys::Storage> {
    crate::view::window().and_then(|w| w.local_storage().ok().flatten())
}

fn read<T: sim::from_value::FromValue + Default>(key: &str) -> T {
    // Text to a JSON value, then through the scenario's reader: no third deserializer compiled.
    let value = storage().and_then(|st| st.get_item(key).ok().flatten()).and_then(|t| sim::json::parse(&t).ok());
    value.and_then(|v| sim::from_value::deserialize(&v).ok()).unwrap_or_default()
}

fn write<T: sim::to_value::ToValue>(key: &str, v: &T) {
    if let Some(st) = storage() {
        let _ = st.set_item(key, &v.to_value().to_string());
    }
}

/// What the reader has done in the course.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The library scenarios opened, in the order first opened.
    pub visited: Vec<String>,
    /// Predict mode's score: for each question answered (`"<scenario>#<question>"`), whether
    /// the first answer was right.
    pub scores: Map<String, bool>,
}

impl Progress {
    /// The progress as stored.
    pub fn load() -> Progress {
        Progress { visited: read(VISITED_KEY), scores: read(PREDICT_KEY) }
    }

    /// Records that a lesson was opened; `None` if it was already (or is not a lesson).
    pub fn visit(id: &str) -> Option<Progress> {
        let mut p = Progress::load();
        if sim::library::entry(id).is_none() || p.visited.iter().any(|x| x == id) {
            return None;
        }
        p.visited.push(id.to_string());
        write(VISITED_KEY, &p.visited);
        Some(p)
    }

    /// Records first answers (a later attempt at the same question does not change the
    /// score); `None` if nothing new was answered.
    pub fn answer(s: &Screen) -> Option<Progress> {
        if sim::library::find(&s.original.id).is_none_or(|l| *l != *s.original) {
            return None;
        }
        let mut p = Progress::load();
        let before = p.scores.len();
        for (q, pick) in s.quiz.iter().zip(&s.picked) {
            if let Some(pick) = pick {
                p.scores.entry(format!("{}#{}", s.original.id, q.index)).or_insert(q.answer.right == Some(*pick));
            }
        }
        (p.scores.len() != before).then(|| {
            write(PREDICT_KEY, &p.scores);
            p
        })
    }

    /// Forgets the course progress and the predict score.
    pub fn reset() -> Progress {
        if let Some(st) = storage() {
            let _ = st.remove_item(VISITED_KEY);
            let _ = st.remove_item(PREDICT_KEY);
        }
        Progress::default()
    }
}
