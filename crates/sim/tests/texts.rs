//! Lints on the library's texts (issue 33): a sentence shown on a run that claims a number, a
//! comparison or whose key was touched carries the condition (`scenario::When`) that makes it
//! true, and no challenge, fix or notice promises what fencing does "whatever" else happens.
//! `tests/reachable.rs` then checks, on every run a reader can reach, that the conditions hold
//! where the sentences are shown.

use sim::json::Value;
use sim::library;
use sim::scenario::{Moment, When};

/// Words before a number that make it a name in the story (job 17, order 17), not a claim.
const NAMES: [&str; 6] = ["job", "order", "page", "deposit", "req", "client"];

/// Numbers written as words, from one.
const WORDS: [&str; 12] = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

/// Events whose text may name the tokens they carry: `tests/reachable.rs` checks each "token N"
/// against the run (issued, and the one granted or rejected).
const CARRY_TOKENS: [&str; 6] = ["acquired", "accepted", "rejected", "key-set", "checked", "granted"];

/// The numbers a moment's condition pins: its token and value, and each setting's value (a
/// time also in seconds, a drift also in percent).
fn pinned(w: &When) -> Vec<i64> {
    let mut out: Vec<i64> = w.token.map(|t| t as i64).into_iter().chain(w.value).collect();
    for s in &w.settings {
        if let Value::Number(n) = &s.value {
            match n.as_i64() {
                Some(n) => out.extend([n, n / 1000, n / 10_000]),
                None => out.extend(n.as_f64().map(|f| (f * 100.0).round() as i64)),
            }
        }
    }
    out
}

/// What is wrong with a moment's text for want of a condition, if anything.
fn unpinned(m: &Moment) -> Option<String> {
    let t = m.text.to_ascii_lowercase();
    let w = &m.when;
    let words: Vec<&str> = t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '%')).filter(|w| !w.is_empty()).collect();
    let tag = m.on.split_whitespace().next().unwrap_or("");
    for (i, word) in words.iter().enumerate() {
        let digits: String = word.chars().take_while(|c| c.is_ascii_digit()).collect();
        let next = words.get(i + 1).copied().unwrap_or("");
        // A number written as a word counts where it is a length of time ("eight seconds").
        let spelt = WORDS.iter().position(|w| w == word).filter(|_| ["second", "seconds"].contains(&next));
        let Some(n) = digits.parse::<i64>().ok().or(spelt.map(|n| n as i64 + 1)) else { continue };
        let prev = if i > 0 { words[i - 1] } else { "" };
        let named = NAMES.iter().any(|p| prev == *p || word.starts_with(p));
        let unit = word.ends_with('%') || ["s", "ms", "second", "seconds", "minutes"].contains(&next);
        let other = ["version", "becomes", "is", "reads", "counter", "value", "of"].contains(&prev);
        let token = CARRY_TOKENS.contains(&tag) && !unit && !other;
        if !(named || token || pinned(w).contains(&n)) {
            return Some(format!("names {word}, which its `when` does not pin"));
        }
        // A token named on an event that carries one: the event's own is pinned (`token`), and
        // `tests/reachable.rs` checks the others (the highest accepted, another's grant).
        if token && !named && !pinned(w).contains(&n) && w.token.is_none() {
            return Some(format!("names token {word} without pinning the event's token"));
        }
    }
    let compares = ["smaller than", "larger than", "higher than", "lower than"].iter().any(|c| t.contains(c));
    if compares && w.below.is_none() && w.above.is_none() && w.token.is_none() && w.finding.is_empty() {
        return Some("compares two values without `below`, `above`, `token` or a finding".into());
    }
    let touches = ["deletes ", "extends "].iter().any(|v| t.split(v).nth(1).is_some_and(|r| r.contains("'s key")));
    if touches && w.owner.is_none() && tag != "expired" {
        return Some("says whose key is touched without `owner`".into());
    }
    let counter = ["the counter is", "counter reads", "but reads", "the value is now"].iter().any(|c| t.contains(c));
    if counter && w.value.is_none() {
        return Some("says the counter's value without `value`".into());
    }
    None
}

#[test]
fn a_moment_that_names_a_number_a_comparison_or_an_owner_pins_it() {
    let mut wrong = Vec::new();
    for s in library::all() {
        for m in &s.moments {
            if let Some(why) = unpinned(m) {
                wrong.push(format!("{} `{}`: {why}: “{}”", s.id, m.on, m.text));
            }
        }
    }
    assert!(wrong.is_empty(), "{} moments claim what their condition does not pin:\n{}", wrong.len(), wrong.join("\n"));
}

/// The lint itself: a text with a number, a comparison or an owner and no condition fails it.
#[test]
fn the_lint_refuses_an_unpinned_claim() {
    let m = |on: &str, text: &str| Moment { on: on.into(), text: text.into(), when: When::default(), seen: Vec::new(), not_on: Vec::new() };
    assert!(unpinned(&m("accepted B", "B's increment lands: the counter is 1.")).is_some());
    assert!(unpinned(&m("acquired A", "A holds the lock, now for 30 seconds.")).is_some());
    assert!(unpinned(&m("acquired B", "B's random value is smaller than A's.")).is_some());
    assert!(unpinned(&m("deleted A", "A's plain DEL deletes B's key.")).is_some());
    assert!(unpinned(&m("acquired A", "A holds the lock with token 33.")).is_some());
    let token = Moment { when: When { token: Some(33), ..When::default() }, ..m("acquired A", "A holds the lock with token 33.") };
    assert!(unpinned(&token).is_none());
    assert!(unpinned(&m("accepted B", "B's update commits: version 0 becomes 1.")).is_some());
    let pinned = Moment { when: When { value: Some(1), ..When::default() }, ..m("accepted B", "The counter is 1.") };
    assert!(unpinned(&pinned).is_none());
}

/// SEMANTICS §3.1: atomic fencing does not stop a stale write that lands before the new
/// owner's first write, nor a token that goes backwards. No text the course shows on an edited
/// run promises that it works "whatever" the pause, the failover or the token's source.
#[test]
fn no_text_promises_fencing_works_whatever_happens() {
    for s in library::all() {
        let mut texts: Vec<&str> = s.notice.iter().map(String::as_str).collect();
        texts.extend(s.fix.iter().map(|f| f.explain.as_str()));
        texts.extend(s.challenge.iter().flat_map(|c| [c.ask.as_str(), c.hint.as_str(), c.explain.as_str()]));
        texts.extend(s.moments.iter().map(|m| m.text.as_str()));
        for sentence in texts.iter().flat_map(|t| t.split(". ")) {
            let l = sentence.to_ascii_lowercase();
            let promise = ["whatever the", "whatever happens", "whatever issues"].iter().any(|w| l.contains(w));
            let about = ["fenc", "reject", "safe", "token", "activation"].iter().any(|w| l.contains(w));
            assert!(!(promise && about), "{}: “{sentence}” promises more than any one run shows", s.id);
        }
    }
}

/// A challenge's `explain` is shown whenever the reader reaches its goal by changing the
/// solution's settings, to whatever values: it does not name the solution's own numbers.
#[test]
fn a_challenge_explains_any_value_of_its_solution() {
    for s in library::all() {
        let Some(c) = &s.challenge else { continue };
        let words: Vec<&str> = c.explain.split(|ch: char| ch.is_whitespace() || ch == '-' || ch == ',').collect();
        for set in &c.solution {
            let Value::Number(n) = &set.value else { continue };
            let Some(v) = n.as_i64() else { continue };
            let seconds = set.path.ends_with("_ms").then(|| (v / 1000).to_string());
            for (i, w) in words.iter().enumerate() {
                let unit = words.get(i + 1).is_some_and(|u| ["s", "second", "seconds"].contains(u));
                let named = *w == v.to_string() || (unit && seconds.as_deref() == Some(*w));
                assert!(
                    !named,
                    "{}: the challenge's explain names {w}, its solution's {} (a reader may choose another value)",
                    s.id, set.path
                );
            }
        }
    }
}
