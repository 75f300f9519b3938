//! One page to revise from (`revise.html`): each way of taking a lock, its guarantee, the
//! failure it still has (linked to the scenario that shows it, with its verdict computed by
//! running it), the fencing it needs and what people call. Printable: the print style sheet
//! leaves out the header and the buttons and writes each link's address after it.
//!
//! Nothing on it changes, so it is a file of its own, rendered when the site is built
//! (src/prerender.rs) rather than a part of the program: a reader gets it without the program,
//! and the program is 3 KB the smaller. static/page.js does its two things: the Print button,
//! and each link's whole address for the print style sheet.

use yew::prelude::*;

use crate::revise::WAYS;
use crate::view::pages::{brand, demo_link, site_nav, Page};

/// The revision page.
#[component]
pub fn RevisePage() -> Html {
    let (nav, open) = (Callback::noop(), Callback::noop());
    html! {
        <div class="app page revise" id="page">
            <header class="top">{ brand() }{ site_nav(Page::Revise, &nav) }</header>
            <main class="page-main">
                <h1 class="page-title">{ "Distributed locks: one page to revise from" }</h1>
                <p class="lede">
                    { "A lock coordinates clients; it does not stop a paused or expired client from writing. For each way of taking a lock: what it promises, how it still fails (each linked to the run that shows it, with the verdict the engine computes), the fencing it needs, and what people actually call. " }
                    <span class="no-print"><a href={Page::Drill.query()}>{ "Drill the course's questions" }</a>{ " · " }
                    <button class="btn small ghost" data-print="">{ "Print this page" }</button></span>
                </p>
                <div class="revise-ways">
                    { for WAYS.iter().map(|w| html! {
                        <section class="revise-way">
                            <h2>{ w.name }</h2>
                            <dl>
                                <dt>{ "Guarantee" }</dt><dd>{ w.guarantee }</dd>
                                <dt>{ "Still fails" }</dt><dd>{ w.failure }</dd>
                                <dt>{ "Fencing it needs" }</dt><dd>{ w.fencing }</dd>
                                <dt>{ "In code" }</dt>
                                <dd><ul class="calls">{ for w.calls.iter().map(|c| html! { <li><code>{ *c }</code></li> }) }</ul></dd>
                                <dt>{ "See it" }</dt>
                                <dd><ul class="demos">{ for w.demos.iter().map(|d| demo_link(d, &open)) }</ul></dd>
                            </dl>
                            <p class="sources">{ format!("Source: the project's protocol notes, {}.", w.source) }</p>
                        </section>
                    }) }
                </div>
                <p class="sources"><strong>{ "The rule that covers them all: " }</strong>{ "the resource must refuse a stale owner (a token that only grows, checked atomically with the write, and shown by a new owner before it reads), or the operation must live inside one transaction of the store. Sources: Kleppmann, “How to do distributed locking” (2016); Redis docs, “Distributed Locks with Redis”; etcd “API guarantees” and “Notes on the usage of lock and lease”; ZooKeeper recipes; Curator's notes on lock states; as condensed in SEMANTICS.md." }</p>
            </main>
        </div>
    }
}
