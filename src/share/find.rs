//! A search's find in an address: its faults as changes of the lesson and `&told=1`, its story
//! retold on opening as the search told it, rather than the retold story carried in the link.

use sim::scenario::Scenario;

use super::changes::as_settings;
use super::portable;

/// A search's find on a lesson, as its changes of the lesson without the words the search
/// retold (its story, setup, notices and challenge), and `&told=1`, which [`retell`] reads: the
/// address carries the faults, not the story.
pub(super) fn as_find(lib: &Scenario, sc: &Scenario) -> Option<String> {
    let plain = Scenario {
        setup: lib.setup.clone(),
        story: lib.story.clone(),
        notice: lib.notice.clone(),
        questions: lib.questions.clone(),
        challenge: lib.challenge.clone(),
        ..sc.clone()
    };
    let told = retell(lib, plain.clone());
    (told == *sc && plain != *sc).then(|| as_settings(lib, &portable(&plain))).flatten().map(|q| format!("{q}&told=1"))
}

/// A lesson's scenario with a search's faults, told as the search told it (`&told=1`).
pub fn retell(lib: &Scenario, sc: Scenario) -> Scenario {
    let faults = sc.faults.clone();
    sim::search::retold(&Scenario { faults: lib.faults.clone(), ..sc }, faults)
}

#[cfg(test)]
mod tests {
    use super::super::{changes, link, portable};
    use super::retell;

    #[test]
    fn a_search_s_find_is_linked_by_its_faults_and_retold_on_opening() {
        let s = sim::library::get("gc-pause-fenced").unwrap();
        let sim::search::Outcome::Found(f, _) = sim::search::search(&s, sim::search::Options::default()).unwrap() else { panic!() };
        let a = link(&f.scenario, &s, false);
        assert!(a.query.ends_with("&told=1") && !a.query.contains("story") && !a.query.contains("setup"), "{}", a.query);
        let sets: Vec<String> = super::super::tests::params(&a.query).into_iter().filter(|(n, _)| n == "set").map(|(_, v)| v).collect();
        let opened = retell(&s, changes::decode_settings(&s.id, false, &sets).unwrap());
        assert_eq!(portable(&opened), portable(&f.scenario), "the link opens the find, told as the search told it");
    }
}
