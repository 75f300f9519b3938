//! Issue 34, item 6: the comparison shown goes into the address and comes back from it, or is
//! refused in words.

use std::rc::Rc;

use super::{gc, go};
use crate::state::*;

/// The parameters of a query (no value here needs percent-decoding).
fn params(query: &str) -> Vec<(String, String)> {
    assert!(!query.contains('%'), "{query}");
    query.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Opens a screen as a link would: the scenario, then the comparison its query names.
fn reopen(s: &Screen) -> Result<Screen, String> {
    let q = s.compare_query();
    let p = params(&q);
    let compare = p.iter().find(|(k, _)| k == "compare").map(|(_, v)| v.clone()).expect("a comparison");
    let was: Vec<String> = p.iter().filter(|(k, _)| k == "was").map(|(_, v)| v.clone()).collect();
    let opened = Screen::new((*s.original).clone(), s.fixed()).unwrap();
    let opened = if opened.scenario == s.scenario { opened } else { opened.rerun((*s.scenario).clone(), None) };
    opened.comparing(&compare, &was)
}

/// Issue 34, item 6: a copied link lost the comparison. Each kind goes into the address and
/// comes back: the fix, the run as written, and the run before the last change (that change
/// taken back, `&was=…`, which Undo then takes back too).
#[test]
fn the_comparison_goes_into_the_address_and_comes_back() {
    let s = go(&gc(), Action::Compare(Some(Against::Fix)));
    assert_eq!(s.compare_query(), "&compare=fix");
    let back = reopen(&s).unwrap();
    let (a, b) = (back.compare.as_ref().unwrap(), s.compare.as_ref().unwrap());
    assert!(a.against == b.against && *a.scenario == *b.scenario && a.run.verdict.is_safe());
    let fixed = go(&go(&gc(), Action::ToggleFix), Action::Compare(Some(Against::AsWritten)));
    assert_eq!(fixed.compare_query(), "&compare=as-written");
    assert_eq!(reopen(&fixed).unwrap().compare.as_ref().map(|o| o.against), Some(Against::AsWritten));
    let edited = go(&go(&gc(), Action::Edit(Field::Setting("lock.ttl_ms"), "30000".into())), Action::Compare(Some(Against::Before)));
    assert_eq!(edited.compare_query(), "&compare=before&was=lock.ttl_ms=10000");
    let back = reopen(&edited).unwrap();
    let other = back.compare.as_ref().unwrap();
    assert_eq!((other.against, &*other.scenario), (Against::Before, &*gc().scenario));
    assert!(!other.run.verdict.is_safe() && back.run.verdict.is_safe());
    assert_eq!(*go(&Rc::new(back), Action::Undo).scenario, *gc().scenario, "Undo takes the change back");
    assert_eq!(gc().compare_query(), "", "nothing compared, nothing said");
}

#[test]
fn a_bad_comparison_in_an_address_is_refused_in_words() {
    let s = (*gc()).clone();
    let fixed = (*go(&gc(), Action::ToggleFix)).clone();
    let long = "x".repeat(10_000);
    let cases: Vec<(Screen, &str, Vec<&str>, &str)> = vec![
        (s.clone(), "sideways", vec![], "its comparison “sideways” is none of before, fix and as-written"),
        (s.clone(), "before", vec![], "does not say what that change was"),
        (s.clone(), "fix", vec!["lock.ttl_ms=1"], "`was=` belongs to a comparison with the run before a change"),
        (s.clone(), "before", vec!["lock.tll_ms=5"], "change 1 of its compared run: there is no setting `lock.tll_ms`"),
        (s.clone(), "before", vec!["lock.ttl_ms=-5"], "its compared run's changes make an invalid scenario"),
        (s.clone(), "before", vec!["nonsense"], "change 1 of its compared run (`nonsense`) is not of the form path=value"),
        (s.clone(), "as-written", vec![], "which is the run it opens"),
        (fixed, "fix", vec![], "the fix, which is already on"),
        (Screen::new(sim::library::get("db-transaction").unwrap(), false).unwrap(), "fix", vec![], "this scenario has none"),
        (s.clone(), &long, vec![], "is none of before"),
    ];
    for (screen, compare, was, want) in cases {
        let was: Vec<String> = was.into_iter().map(String::from).collect();
        let err = screen.comparing(compare, &was).err().unwrap_or_else(|| panic!("{compare} {was:?} must be refused"));
        assert!(err.contains(want), "{compare} {was:?}: {err}");
        assert!(err.len() < 300, "{err}");
    }
}
