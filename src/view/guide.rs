//! The guide to choosing an approach (`guide.html`): five questions, the approach they lead to,
//! and the trade-off table, each approach linked to the runs that show it, with the verdicts the
//! engine gives them.
//!
//! It is a file of its own, rendered when the site is built (src/prerender.rs), not a part of
//! the program: a reader gets it without the program, and the program is 11.6 KB the smaller.
//! Every question, every recommendation and the table are in the page; which of them a set of
//! answers shows is decided here, by `crate::guide` ([`paths`]), for each of the 243 sets, and
//! written into the page for static/page.js, which only looks the reader's answers up, keeps
//! them (local storage, and the address: `guide.html?answers=yn-y`) and shows what they decide.

use yew::prelude::*;

use crate::guide::{self, Answers, Approach, ORDER};
use crate::view::pages::{brand, demo_link, page_link, site_nav, Page};

/// The approaches a recommendation can be, in the order of the page's sections.
const APPROACHES: [Approach; 5] =
    [Approach::BestEffort, Approach::Consensus, Approach::Transaction, Approach::Idempotent, Approach::Redesign];

fn index(a: Approach) -> usize {
    match a {
        Approach::BestEffort => 0,
        Approach::Consensus => 1,
        Approach::Transaction => 2,
        Approach::Idempotent => 3,
        Approach::Redesign => 4,
    }
}

/// The set of answers numbered `n` (0 to 242): answer `i` is the `i`th digit of `n` in base 3,
/// 0 not answered, 1 yes, 2 no (static/page.js numbers them the same way).
pub fn answers(n: usize) -> Answers {
    let mut a = [None; 5];
    for (i, slot) in a.iter_mut().enumerate() {
        *slot = [None, Some(true), Some(false)][n / 3usize.pow(i as u32) % 3];
    }
    a
}

/// What each set of answers shows, by its number ([`answers`]), separated by spaces: the
/// questions on its path (their places in [`ORDER`], as digits), then `:` and the recommended
/// approach's place in [`APPROACHES`] if there is one yet, then `!` if the consensus service's
/// caveat about work without a quorum applies. For example `0123:1!`.
pub fn paths() -> String {
    let entry = |n: usize| {
        let a = answers(n);
        let path: String =
            guide::path(&a).iter().map(|q| char::from(b'0' + ORDER.iter().position(|x| x == q).unwrap_or(0) as u8)).collect();
        let rec = guide::recommend(&a).map_or(String::new(), |x| index(x).to_string());
        let caveat = if quorum_caveat(&a) { "!" } else { "" };
        format!("{path}:{rec}{caveat}")
    };
    (0..3usize.pow(5)).map(entry).collect::<Vec<_>>().join(" ")
}

/// Whether the reader said work must go on without a quorum and was recommended consensus.
fn quorum_caveat(a: &Answers) -> bool {
    guide::recommend(a) == Some(Approach::Consensus) && a[3] == Some(true)
}

/// The caveat for a reader who needs work to go on without a quorum, naming the lesson that
/// shows it by its title.
fn quorum_caveat_text() -> String {
    let title = sim::library::get("consensus-quorum-loss").map_or_else(|| "A consensus lock without a quorum".to_string(), |s| s.title);
    format!("A consensus service cannot promise that: while a majority is down it grants nothing and expires nothing (see “{title}”). No lock service can be both always available and safe. Decide whether the pause is acceptable; if it is not, make the target defend itself (a fencing token it checks, a conditional write), so that a lock that stays available cannot corrupt the data.")
}

/// One of the questions, shown if the path of no answers has it (the first).
fn question(i: usize) -> Html {
    let (ask, help) = ORDER[i].text();
    let name = format!("guide-q{i}");
    let shown = guide::path(&[None; 5]).iter().position(|q| *q == ORDER[i]);
    html! {
        <fieldset class="guide-q" data-q={i.to_string()} hidden={shown.is_none()}>
            <legend><span data-n="">{ shown.map_or(i, |n| n) + 1 }</span>{ format!(". {ask}") }</legend>
            <p class="hint">{ help }</p>
            <label><input type="radio" name={name.clone()} value="y" />{ " Yes" }</label>
            <label><input type="radio" name={name} value="n" />{ " No" }</label>
        </fieldset>
    }
}

/// The recommendation of an approach, hidden until the answers lead to it.
fn recommendation(x: Approach) -> Html {
    let open = Callback::noop();
    let a = guide::advice(x);
    let quorum_note = (x == Approach::Consensus).then(|| {
        html! {
            <p class="caveat" data-quorum="" hidden=true><strong>{ "You said work must go on while a majority is down. " }</strong>
                { quorum_caveat_text() }</p>
        }
    });
    html! {
        <section class="recommendation" data-rec={index(x).to_string()} hidden=true>
            <p class="predict-kicker">{ "Our recommendation" }</p>
            <h2>{ a.title }</h2>
            <ul>{ for a.advice.iter().map(|t| html! { <li>{ *t }</li> }) }</ul>
            { for quorum_note }
            <h3>{ "In code" }</h3>
            <ul class="calls">{ for crate::revise::calls_for(x).map(|(name, c)| html! { <li>{ format!("{name}: ") }<code>{ c }</code></li> }) }</ul>
            <h3>{ "See it in the lab" }</h3>
            <ul class="demos">{ for a.demos.iter().map(|d| demo_link(d, &open)) }</ul>
        </section>
    }
}

/// The guide.
#[component]
pub fn GuidePage() -> Html {
    let (nav, open) = (Callback::noop(), Callback::noop());
    html! {
        <div class="app page guide" id="page">
            <header class="top">{ brand() }{ site_nav(Page::Guide, &nav) }</header>
            <main class="page-main">
                <p class="banner" role="alert" data-problem="" hidden=true></p>
                <h1 class="page-title">{ "Which approach fits your system?" }</h1>
                <p class="lede">{ "A distributed lock coordinates clients; it does not stop an expired or paused client from writing. If correctness depends on exclusive access, the resource must reject stale owners (a fencing token it checks), or the operation must be serialized by a transaction that covers the shared state. Answer these questions to find what your system needs, and see each answer played out in the lab." }</p>
                <div class="guide-grid">
                    <form class="guide-questions" aria-label="Questions" data-paths={paths()}>
                        { for (0..ORDER.len()).map(question) }
                        <button type="button" class="btn small ghost" data-start-over="" hidden=true>{ "Start over" }</button>
                    </form>
                    <div class="guide-answer" aria-live="polite">
                        <section class="recommendation pending" data-rec=""><p class="hint">{ "Answer the questions on the left; the recommendation appears as soon as they decide it." }</p></section>
                        { for APPROACHES.into_iter().map(recommendation) }
                    </div>
                </div>
                <p class="guide-more">{ "Preparing for an interview? " }{ page_link(Page::Revise, "One page to revise from", &nav) }{ " (every approach: its guarantee, its failure, the fencing it needs and the real APIs, printable) and " }{ page_link(Page::Drill, "the drill", &nav) }{ " (the course's questions back to back)." }</p>
                <h2 class="table-title">{ "The trade-offs" }</h2>
                <div class="table-scroll" tabindex="0" role="region" aria-label="Trade-off table">
                    <table class="tradeoffs">
                        <thead><tr>
                            <th scope="col">{ "Approach" }</th><th scope="col">{ "Pause or network delay" }</th><th scope="col">{ "Stale-owner enforcement" }</th>
                            <th scope="col">{ "During quorum loss" }</th><th scope="col">{ "Complexity and fit" }</th><th scope="col">{ "Transaction boundary" }</th><th scope="col">{ "See it" }</th>
                        </tr></thead>
                        <tbody>
                            { for guide::TABLE.iter().map(|r| html! {
                                <tr data-approach={index(r.approach).to_string()}>
                                    <th scope="row">{ r.name }<span class="mini safe" hidden=true>{ "recommended" }</span></th>
                                    <td>{ r.pause }</td><td>{ r.stale }</td><td>{ r.quorum }</td><td>{ r.fit }</td><td>{ r.boundary }</td>
                                    <td><ul class="demos">{ for r.demos.iter().map(|d| demo_link(d, &open)) }</ul></td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
                <p class="sources"><strong>{ "Sources: " }</strong>{ "Redis docs, “Distributed Locks with Redis”; Kleppmann, “How to do distributed locking” (8 February 2016); etcd v3.4 “etcd API guarantees”, v3.5 “etcd versus other key-value stores” and “Failure modes”; Kleppmann, Designing Data-Intensive Applications. The table condenses the seed guide Lease Lab started from." }</p>
            </main>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set of answers has its entry, and the entry says what `crate::guide` decides:
    /// the path's questions, the approach once they are all answered, and the caveat.
    #[test]
    fn the_pages_table_is_the_guides_decisions() {
        let table = paths();
        let entries: Vec<&str> = table.split(' ').collect();
        assert_eq!(entries.len(), 243);
        assert_eq!(entries[0], "0:");
        // Yes (damage), no (transaction), yes (token), yes (quorum): consensus, with the caveat.
        let n = 1 + 2 * 3 + 9 + 27;
        assert_eq!(answers(n), [Some(true), Some(false), Some(true), Some(true), None]);
        assert_eq!(entries[n], "0123:1!");
        // No (damage): the best-effort lock, whatever the rest say.
        assert_eq!(entries[2], "0:0");
        assert_eq!(entries[2 + 3 + 9 * 2], "0:0");
        for (n, e) in entries.iter().enumerate() {
            let a = answers(n);
            let (path, rec) = e.split_once(':').unwrap();
            assert_eq!(path.len(), guide::path(&a).len(), "{e}");
            assert_eq!(rec.trim_end_matches('!').parse::<usize>().ok().map(|i| APPROACHES[i]), guide::recommend(&a), "{e}");
        }
        for x in APPROACHES {
            assert_eq!(APPROACHES[index(x)], x);
        }
    }

    /// The quorum caveat names a lesson by its title: the lesson is in the library.
    #[test]
    fn the_quorum_caveat_names_a_lesson_that_exists() {
        let sc = sim::library::get("consensus-quorum-loss").expect("in the library");
        assert!(quorum_caveat_text().contains(&format!("“{}”", sc.title)));
    }
}
