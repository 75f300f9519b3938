//! The interview drill: the course's predict questions back to back, one at a time. Pure and
//! tested natively: which questions a drill asks and in what order ([`Set`], [`queue`]), the
//! questions the reader missed last time ([`missed`], [`Record`]), and one drill in progress
//! ([`Session`]: the queue, the answers and the score), which the page keeps for its tab.
//!
//! A question is named as predict mode's score names it, `"<scenario>#<question>"` ([`key`]).
//! Whether an answer is right is decided by the engine (`sim::predict::answer` on the run, as
//! predict mode does), never here: a session only keeps what the page was told.

use sim::flat::Map;
use sim::json::Value;

/// Which questions a drill asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    /// Every question of the course.
    All,
    /// The questions of one chapter (its id in `sim::library::CHAPTERS`).
    Chapter(&'static str),
    /// The questions whose last answer was wrong.
    Missed,
    /// The questions spaced retrieval brings back today ([`Due`]).
    Due,
}

impl Set {
    /// The set an address names (`&set=all`, `&set=missed`, `&set=<chapter>`).
    pub fn from_param(p: &str) -> Option<Set> {
        match p {
            "all" => Some(Set::All),
            "missed" => Some(Set::Missed),
            "due" => Some(Set::Due),
            _ => sim::library::CHAPTERS.iter().find(|(c, _)| *c == p).map(|(c, _)| Set::Chapter(c)),
        }
    }

    /// What the address says for this set.
    pub fn param(self) -> &'static str {
        match self {
            Set::All => "all",
            Set::Missed => "missed",
            Set::Due => "due",
            Set::Chapter(c) => c,
        }
    }

    /// The set in words.
    pub fn title(self) -> &'static str {
        match self {
            Set::All => "The whole course",
            Set::Missed => "The ones you missed last time",
            Set::Due => "Due for review today",
            Set::Chapter(c) => sim::library::chapter_title(c),
        }
    }
}

/// A question's name: its scenario and its place among the scenario's questions.
pub fn key(id: &str, index: usize) -> String {
    format!("{id}#{index}")
}

/// A question's scenario and index, from its name (`None` for anything else).
pub fn parse_key(k: &str) -> Option<(&str, usize)> {
    let (id, n) = k.rsplit_once('#')?;
    let n = n.parse().ok().filter(|_| !id.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))?;
    Some((id, n))
}

/// Every question of the course, in course order (chapter by chapter, lesson by lesson, each
/// lesson's questions in the order the run meets them), with its chapter. `count` says how many
/// questions a scenario has (0 for one not at hand).
pub fn course(count: &dyn Fn(&str) -> usize) -> Vec<(&'static str, String)> {
    sim::library::INDEX.iter().flat_map(|e| (0..count(e.id)).map(move |i| (e.chapter, key(e.id, i)))).collect()
}

/// The questions a drill of `set` asks, in course order. `missed` is the reader's missed set
/// ([`missed`]), or for [`Set::Due`] the questions due today ([`due_on`]); a name in it that the
/// course no longer has is left out of the drill (and kept in storage).
pub fn queue(set: Set, count: &dyn Fn(&str) -> usize, missed: &[String]) -> Vec<String> {
    course(count)
        .into_iter()
        .filter(|(chapter, k)| match set {
            Set::All => true,
            Set::Chapter(c) => *chapter == c,
            Set::Missed | Set::Due => missed.contains(k),
        })
        .map(|(_, k)| k)
        .collect()
}

/// The drill's record: for each question the drill has asked, whether its last answer was
/// right (`leaselab.drill`).
pub type Record = Map<String, bool>;

/// The questions missed last time: those whose last answer in a drill was wrong, and those
/// predict mode scored wrong (`leaselab.predict`, first answers) that no drill has asked since.
pub fn missed(drill: &Record, predict: &Record) -> Vec<String> {
    let mut out: Vec<String> = drill.iter().filter(|(_, right)| !**right).map(|(k, _)| k.clone()).collect();
    out.extend(predict.iter().filter(|(k, right)| !**right && !drill.contains_key(k.as_str())).map(|(k, _)| k.clone()));
    out
}

/// Spaced retrieval (issue 50; Karpicke & Roediger 2008): each question missed in a drill, with
/// its step (1, 2 or 3) and the day it is due (days since 1970, `leaselab.drill.due`).
pub type Due = Map<String, Vec<i64>>;

/// The days a question waits at each step: missed, it comes back the next day; answered right
/// when due, three days later, then seven; right at the last step, it is learnt and leaves.
pub const GAPS: [i64; 3] = [1, 3, 7];

/// `due` after question `k` was answered on day `today`: wrong, back to the first step; right
/// when due, the next step (or gone after the last); right before it is due, unchanged.
pub fn schedule(due: &mut Due, k: &str, right: bool, today: i64) {
    let at = due.get(k).and_then(|v| Some((*v.first()?, *v.get(1)?)));
    match (right, at) {
        (false, _) => {
            due.insert(k.to_string(), vec![1, today + GAPS[0]]);
        }
        (true, Some((step, day))) if day <= today => match GAPS.get(step as usize) {
            Some(gap) => {
                due.insert(k.to_string(), vec![step + 1, today + gap]);
            }
            None => {
                due.remove(k);
            }
        },
        (true, _) => {}
    }
}

/// The questions due on day `today`.
pub fn due_on(due: &Due, today: i64) -> Vec<String> {
    due.iter().filter(|(_, v)| v.get(1).is_some_and(|&d| d <= today)).map(|(k, _)| k.clone()).collect()
}

/// A drill under way (or finished): what it asks, and the answers given so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub set: Set,
    /// The questions, in the order asked.
    pub queue: Vec<String>,
    /// The choice given to each question.
    pub picked: Vec<Option<usize>>,
    /// Whether that choice was the engine's answer.
    pub right: Vec<Option<bool>>,
}

impl Session {
    pub fn new(set: Set, queue: Vec<String>) -> Session {
        let n = queue.len();
        Session { set, queue, picked: vec![None; n], right: vec![None; n] }
    }

    /// The session with question `at` answered (a question is answered once).
    pub fn answer(&self, at: usize, choice: usize, right: bool) -> Session {
        let mut s = self.clone();
        if at < s.queue.len() && s.picked[at].is_none() {
            s.picked[at] = Some(choice);
            s.right[at] = Some(right);
        }
        s
    }

    /// (right, answered).
    pub fn score(&self) -> (usize, usize) {
        (self.right.iter().filter(|r| **r == Some(true)).count(), self.right.iter().filter(|r| r.is_some()).count())
    }

    /// Where the questions answered wrong are in the queue.
    pub fn misses(&self) -> Vec<usize> {
        (0..self.queue.len()).filter(|&i| self.right[i] == Some(false)).collect()
    }

    /// Whether every question is answered.
    pub fn done(&self) -> bool {
        self.picked.iter().all(Option::is_some)
    }

    /// The first question not answered yet.
    pub fn first_open(&self) -> Option<usize> {
        self.picked.iter().position(Option::is_none)
    }

    /// As stored for the tab (session storage).
    pub fn to_json(&self) -> String {
        use sim::to_value::ToValue;
        let mut m = sim::json::Map::new();
        m.insert("set".into(), Value::from(self.set.param()));
        m.insert("queue".into(), self.queue.to_value());
        m.insert("picked".into(), self.picked.iter().map(|p| p.map(|c| c as u64)).collect::<Vec<_>>().to_value());
        m.insert("right".into(), self.right.to_value());
        Value::Object(m).to_string()
    }

    /// A stored session, if it is one (of a set this build knows, with lists that agree).
    pub fn from_json(text: &str) -> Option<Session> {
        use sim::from_value::deserialize;
        let v = sim::json::parse(text).ok()?;
        let Value::Object(m) = v else { return None };
        let set = m.get("set").and_then(|s| match s {
            Value::String(s) => Set::from_param(s),
            _ => None,
        })?;
        let queue: Vec<String> = deserialize(m.get("queue")?).ok()?;
        let picked: Vec<Option<usize>> = deserialize(m.get("picked")?).ok()?;
        let right: Vec<Option<bool>> = deserialize(m.get("right")?).ok()?;
        let agree =
            picked.len() == queue.len() && right.len() == queue.len() && picked.iter().zip(&right).all(|(p, r)| p.is_some() == r.is_some());
        agree.then_some(Session { set, queue, picked, right })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(id: &str) -> usize {
        sim::library::get(id).map_or(0, |sc| sc.questions.len())
    }

    #[test]
    fn the_whole_course_is_every_question_in_course_order() {
        let all = queue(Set::All, &count, &[]);
        let total: usize = sim::library::INDEX.iter().map(|e| count(e.id)).sum();
        assert_eq!(all.len(), total);
        assert!(all.len() >= 80, "the course has {} questions", all.len());
        // Course order: lessons as the index lists them, each lesson's questions in order.
        let place = |k: &String| {
            let (id, i) = parse_key(k).unwrap();
            (sim::library::INDEX.iter().position(|e| e.id == id).unwrap(), i)
        };
        assert!(all.windows(2).all(|w| place(&w[0]) < place(&w[1])), "{all:?}");
        assert_eq!(all[0], "lease-basics#0");
    }

    /// Every question the drill can ask is answered by the engine on its run, asked before (or
    /// at) the step that proves it, as the drill shows it (the app's `Screen::quiz`).
    #[test]
    fn every_question_of_the_course_can_be_drilled() {
        let all = queue(Set::All, &count, &[]);
        for k in &all {
            let (id, index) = parse_key(k).unwrap();
            let screen = crate::state::Screen::new(sim::library::get(id).unwrap(), false).unwrap();
            let q = screen.quiz.iter().find(|q| q.index == index).unwrap_or_else(|| panic!("{k}: the engine cannot answer it"));
            assert!(q.answer.right.is_some() && q.answer.asked <= q.answer.proof, "{k}: {:?}", q.answer);
        }
        assert_eq!(all.len(), 101, "the course's questions");
    }

    #[test]
    fn a_chapter_drills_only_its_own_lessons() {
        let mut seen = 0;
        for (c, _) in sim::library::CHAPTERS {
            let q = queue(Set::Chapter(c), &count, &[]);
            for k in &q {
                let (id, _) = parse_key(k).unwrap();
                assert_eq!(sim::library::entry(id).unwrap().chapter, c, "{k}");
            }
            seen += q.len();
        }
        assert_eq!(seen, queue(Set::All, &count, &[]).len(), "the chapters cover the course");
        assert!(!queue(Set::Chapter("redlock"), &count, &[]).is_empty());
    }

    #[test]
    fn a_missed_question_comes_back_after_one_three_and_seven_days() {
        let mut due = Due::default();
        let k = "gc-pause-unfenced#0";
        schedule(&mut due, k, false, 100);
        assert_eq!(due_on(&due, 100), Vec::<String>::new(), "not the same day");
        assert_eq!(due_on(&due, 101), vec![k.to_string()], "the next day");
        schedule(&mut due, k, true, 100);
        assert_eq!(due[k], vec![1, 101], "right before it is due: unchanged");
        schedule(&mut due, k, true, 101);
        assert_eq!(due[k], vec![2, 104], "three days later");
        schedule(&mut due, k, true, 104);
        assert_eq!(due[k], vec![3, 111], "then seven");
        schedule(&mut due, k, false, 111);
        assert_eq!(due[k], vec![1, 112], "missed again: back to the first step");
        for day in [112, 115, 122] {
            schedule(&mut due, k, true, day);
        }
        assert!(due.is_empty(), "right at every step: learnt");
        assert_eq!(Set::from_param("due"), Some(Set::Due));
    }

    #[test]
    fn the_missed_set_is_the_last_answer_and_predict_modes_misses_not_asked_since() {
        let mut drill = Record::default();
        drill.insert("gc-pause-fenced#0".into(), false);
        drill.insert("lease-basics#0".into(), true);
        // Missed in predict mode, then answered right in a drill: no longer missed.
        let mut predict = Record::default();
        predict.insert("lease-basics#0".into(), false);
        predict.insert("holder-crash#0".into(), false);
        predict.insert("unsafe-release#0".into(), true);
        // A question the course no longer has stays in the record but is not asked.
        drill.insert("no-such-lesson#3".into(), false);
        let m = missed(&drill, &predict);
        assert!(m.contains(&"gc-pause-fenced#0".to_string()) && m.contains(&"holder-crash#0".to_string()));
        assert!(!m.contains(&"lease-basics#0".to_string()) && !m.contains(&"unsafe-release#0".to_string()));
        let q = queue(Set::Missed, &count, &m);
        assert_eq!(q, vec!["holder-crash#0".to_string(), "gc-pause-fenced#0".to_string()], "course order, known questions only");
        assert!(queue(Set::Missed, &count, &[]).is_empty());
    }

    #[test]
    fn a_session_keeps_its_first_answers_and_its_score() {
        let s = Session::new(Set::All, vec!["a#0".into(), "a#1".into(), "b#0".into()]);
        assert_eq!(s.first_open(), Some(0));
        let s = s.answer(0, 2, true).answer(1, 0, false);
        assert_eq!(s.answer(1, 1, true), s, "a question is answered once");
        assert_eq!(s.score(), (1, 2));
        assert_eq!(s.misses(), vec![1]);
        assert!(!s.done());
        let s = s.answer(2, 1, true);
        assert!(s.done());
        assert_eq!(s.first_open(), None);
        assert_eq!(Session::from_json(&s.to_json()), Some(s.clone()));
        let chapter = Session::new(Set::Chapter("redlock"), vec!["x#0".into()]);
        assert_eq!(Session::from_json(&chapter.to_json()), Some(chapter));
        for bad in [
            "",
            "[]",
            "{\"set\":\"nope\",\"queue\":[],\"picked\":[],\"right\":[]}",
            "{\"set\":\"all\",\"queue\":[\"a#0\"],\"picked\":[],\"right\":[]}",
        ] {
            assert_eq!(Session::from_json(bad), None, "{bad}");
        }
    }

    #[test]
    fn names_of_questions_read_back() {
        assert_eq!(parse_key("gc-pause-fenced#2"), Some(("gc-pause-fenced", 2)));
        for bad in ["", "#2", "x#", "x#-1", "x#+1", "x"] {
            assert_eq!(parse_key(bad), None, "{bad}");
        }
        assert_eq!(Set::from_param("fencing"), Some(Set::Chapter("fencing")));
        assert_eq!(Set::from_param("nope"), None);
        for s in [Set::All, Set::Missed, Set::Chapter("consensus")] {
            assert_eq!(Set::from_param(s.param()), Some(s));
        }
    }
}
