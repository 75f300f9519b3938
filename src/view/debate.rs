//! The Kleppmann–antirez debate (`debate.html`), with the two scenarios where each argument
//! holds: their verdicts and timelines come from running them, when the site is built.
//!
//! Nothing on it changes, so it is a file of its own, rendered by src/prerender.rs rather than
//! a part of the program (3.3 KB of it).

use yew::prelude::*;

use crate::guide::{self, Demo};
use crate::view::pages::{brand, demo_link, site_nav, Open, Page};

/// `text` as JavaScript's `encodeURIComponent` writes it.
fn encode_uri_component(text: &str) -> String {
    crate::share::changes::percent_encode(text, b"-_.!~*'()")
}

/// One side of the debate: a scenario, its verdict and its timeline as a picture.
fn side(id: &'static str, heading: &str, body: &str, open: &Open) -> Html {
    let Some(sc) = sim::library::get(id) else { return html! {} };
    let Ok(run) = sim::run(&sc) else { return html! {} };
    let safe = run.verdict.is_safe();
    let svg = draw::svg::render(&run, &sc, 640.0, None);
    let src = format!("data:image/svg+xml;charset=utf-8,{}", encode_uri_component(&svg));
    let d = Demo { id, fixed: false, verdict: if safe { sim::Safety::Safe } else { sim::Safety::Unsafe }, what: "" };
    html! {
        <article class="side-card" data-scenario={id}>
            <h2>{ heading.to_string() }</h2>
            <p>{ body.to_string() }</p>
            <img class="debate-svg" src={src} alt={format!("Timeline of {}: {}", sc.title, if safe { "safe" } else { "unsafe" })} width="640" />
            <ul class="demos">{ demo_link(&d, open) }</ul>
            if let Some(e) = run.verdict.violations.first() {
                <p class="hint">{ format!("The checker: {}", sim::checker::words::explanation(&run, e)) }</p>
            }
        </article>
    }
}

/// The Kleppmann–antirez debate, with the two scenarios where each argument holds.
#[component]
pub fn DebatePage() -> Html {
    let (nav, open) = (Callback::noop(), Callback::noop());
    // The two runs and their pictures, computed once.
    let sides = {
        let open = open.clone();
        use_memo((), move |_| {
            html! { <>
                { side("redlock-slow-acquire", "Delays during acquisition: the check catches it",
                    "client1 is paused in the middle of its lock round, so the nodes' replies reach it 12 s late. Redlock measures the time the round took: 12001 ms of a 10000 ms TTL leaves no validity, so client1 does not use the lock, unlocks and retries. This is antirez's point: step 3 of the algorithm makes delays during acquisition harmless.", &open) }
                { side("redlock-pause-after-acquire", "A pause after acquisition: no check can",
                    "client1 acquires with 9.9 s of validity, then pauses for 15 s. Its keys expire, client2 takes the lock and writes, and client1 wakes and writes too. This is Kleppmann's point: nothing at acquisition can see a pause that comes after it, and Redlock produces no fencing token for the resource to check.", &open) }
            </> }
        })
    };
    html! {
        <div class="app page debate" id="page">
            <header class="top">{ brand() }{ site_nav(Page::Debate, &nav) }</header>
            <main class="page-main">
                <h1 class="page-title">{ "Is Redlock safe? Kleppmann and antirez, February 2016" }</h1>
                <p class="lede">{ "Martin Kleppmann argued that Redlock is unsafe for locks that protect correctness; Salvatore Sanfilippo (antirez), who designed it, replied the next day. They agree on more than it seems: a delay during acquisition is caught by Redlock's time check, and a pause after acquisition is not. Both runs below are simulated by the same engine as the lab; the verdicts come from its checker." }</p>
                <div class="sides">{ (*sides).clone() }</div>
                <div class="positions">
                    <section>
                        <h2>{ "Kleppmann: “neither fish nor fowl”" }</h2>
                        <p>{ "For a lock that only saves work, a single Redis node is enough; for a lock that protects correctness, Redlock is not enough. Processes pause (GC, page faults), packets are delayed (GitHub saw 90 s), and clocks jump, so a client can act on a lock it no longer holds. The fix is a fencing token that increases with every grant and that the storage checks on every write; Redlock has no way to produce one (its random value has no order). Its safety depends on bounded delays, pauses and clock error; a good algorithm keeps safety without timing assumptions. Use ZooKeeper or etcd with fencing, or a database transaction." }</p>
                    </section>
                    <section>
                        <h2>{ "antirez: “Is Redlock safe?”" }</h2>
                        <p>{ "Redlock checks the time before and after acquiring, so delays during acquisition make the lock invalid rather than unsafe. A pause after acquisition troubles every lock with automatic release, not Redlock in particular. If the resource can reject stale tokens, it is already linearizable and you hardly need a distributed lock; and the random value can drive a check-and-set at the resource. Redlock needs clocks that count time at about the same rate, not synchronized clocks; avoid jumps with a slewing NTP, and Redis should use monotonic time. Instead of delayed restarts, nodes can fsync every write." }</p>
                    </section>
                </div>
                <h2 class="table-title">{ "More from the same chapter" }</h2>
                <ul class="demos">{ for guide::DEBATE_MORE.iter().map(|d| demo_link(d, &open)) }</ul>
                <p class="sources"><strong>{ "Sources: " }</strong>
                    { "Martin Kleppmann, “How to do distributed locking”, 8 February 2016 (martin.kleppmann.com), with his update of 9 February; Salvatore Sanfilippo, “Is Redlock safe?”, 9 February 2016 (antirez.com/news/101); Redis docs, “Distributed Locks with Redis”. The positions above are summaries in our words; read both posts." }
                </p>
            </main>
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_text_is_encoded_as_encode_uri_component_does() {
        assert_eq!(super::encode_uri_component("<svg a='1'>é &#x2192;</svg>"), "%3Csvg%20a%3D'1'%3E%C3%A9%20%26%23x2192%3B%3C%2Fsvg%3E");
    }
}
