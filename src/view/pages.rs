//! The pages beside the lab ([`Page`]), the site's links between them, and the guide to choosing
//! an approach, whose verdicts are computed by running the scenarios (the debate and the
//! revision page, which are files of their own, are `debate.rs` and `revise.rs`).

use yew::prelude::*;

use crate::guide::{self, Answers, Approach, Demo, ORDER};

/// Which page is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Lab,
    Guide,
    Debate,
    Drill,
    Revise,
}

impl Page {
    /// `?page=guide`, `?page=debate`, `?page=drill` and `?page=revise`; anything else is the lab.
    pub fn from_query(search: &str) -> Page {
        let params = web_sys::UrlSearchParams::new_with_str(search).ok();
        match params.and_then(|p| p.get("page")).as_deref() {
            Some("guide") => Page::Guide,
            Some("debate") => Page::Debate,
            Some("drill") => Page::Drill,
            Some("revise") => Page::Revise,
            _ => Page::Lab,
        }
    }

    /// Whether it is a file of its own, made when the site is built (src/bin/prerender.rs): a
    /// page on which nothing changes needs no program.
    pub fn is_file(self) -> bool {
        matches!(self, Page::Debate | Page::Revise)
    }

    /// Its address, relative to the app's (a page that [`Page::is_file`] is that file).
    pub fn query(self) -> &'static str {
        match self {
            Page::Lab => "./",
            Page::Guide => "./?page=guide",
            Page::Debate => "debate.html",
            Page::Drill => "./?page=drill",
            Page::Revise => "revise.html",
        }
    }
}

/// Opens a library scenario in the lab: (id, with its fix).
pub type Open = Callback<(String, bool)>;

/// The links between the lab and the pages (plain links that also work in a new tab), `here` the
/// current one.
pub fn site_nav(here: Page, nav: &Callback<Page>) -> Html {
    let link = |page: Page, label: &str| {
        let nav = nav.clone();
        let href = page.query();
        let onclick = (!page.is_file()).then(|| {
            Callback::from(move |e: MouseEvent| {
                if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                    e.prevent_default();
                    nav.emit(page);
                }
            })
        });
        // "Redlock debate" is "debate" on a phone, so that the links and the scenario share a row.
        let words = match label.strip_prefix("Redlock ") {
            Some(rest) => html! { <><span class="wide-only">{ "Redlock " }</span>{ rest.to_string() }</> },
            None => html! { { label.to_string() } },
        };
        html! { <a class={classes!("site-link", (here == page).then_some("here"))} aria-current={(here == page).then_some("page")} {href} {onclick}>{ words }</a> }
    };
    html! {
        <nav class="site-nav" aria-label="Lease Lab">
            { link(Page::Lab, "Lab") }
            { link(Page::Guide, "Guide") }
            { link(Page::Debate, "Redlock debate") }
            { link(Page::Drill, "Drill") }
        </nav>
    }
}

/// A plain link to a page beside the lab (it also works in a new tab).
fn page_link(page: Page, label: &str, nav: &Callback<Page>) -> Html {
    if page.is_file() {
        return html! { <a href={page.query()}>{ label.to_string() }</a> };
    }
    let nav = nav.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
            e.prevent_default();
            nav.emit(page);
        }
    });
    html! { <a href={page.query()} {onclick}>{ label.to_string() }</a> }
}

/// The logo and name, at the top of every screen.
pub fn brand() -> Html {
    html! {
        <h1 class="brand">
            <svg class="logo" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#1f3a5f"/><rect x="6" y="9" width="14" height="5" rx="2" fill="#56b4e9"/><rect x="12" y="18" width="14" height="5" rx="2" fill="#e69f00"/><path d="M22 6v20" stroke="#fff" stroke-width="2"/></svg>
            { "Lease Lab" }
        </h1>
    }
}

/// What is shown while the course's files are fetched, or why they could not be.
pub fn waiting(course: &crate::library::CourseFiles) -> Html {
    let text = match course {
        crate::library::CourseFiles::Failed(e) => {
            format!("The course could not be loaded: {e}. Try again in a moment, or reload the page.")
        }
        _ => "Loading the course…".to_string(),
    };
    html! { <p class="loading" role="status">{ text }</p> }
}

fn title_of(id: &str) -> String {
    sim::library::entry(id).map_or_else(|| id.to_string(), |e| e.title.to_string())
}

/// A link that opens a scenario in the lab, with its verdict (from running it).
pub(crate) fn demo_link(d: &Demo, open: &Open) -> Html {
    let safe = crate::view::library_safe(d.id, d.fixed);
    let (id, fixed) = (d.id.to_string(), d.fixed);
    let href = format!("./?scenario={id}{}", if fixed { "&fix=1" } else { "" });
    let open = open.clone();
    let onclick = Callback::from(move |e: MouseEvent| {
        if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
            e.prevent_default();
            open.emit((id.clone(), fixed));
        }
    });
    html! {
        <li>
            <a {href} {onclick} class="demo">{ title_of(d.id) }{ if d.fixed { " (fixed)" } else { "" } }</a>
            <span class={classes!("mini", if safe { "safe" } else { "unsafe" })}>{ if safe { "safe" } else { "unsafe" } }</span>
            <span class="demo-what">{ format!(" {}", d.what) }</span>
        </li>
    }
}

#[derive(Properties, PartialEq)]
pub struct PageProps {
    pub nav: Callback<Page>,
    pub open: Open,
}

const GUIDE_KEY: &str = "leaselab.guide";

fn load_answers() -> Answers {
    let stored = crate::view::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|st| st.get_item(GUIDE_KEY).ok().flatten())
        .and_then(|t| sim::json::parse(&t).ok())
        .and_then(|v| sim::from_value::deserialize::<Vec<Option<bool>>>(&v).ok());
    let mut a = [None; 5];
    if let Some(v) = stored.filter(|v| v.len() == 5) {
        a.copy_from_slice(&v);
    }
    a
}

fn save_answers(a: &Answers) {
    if let Some(st) = crate::view::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = st.set_item(GUIDE_KEY, &sim::to_value::ToValue::to_value(&a.to_vec()).to_string());
    }
}

/// The answers the address carries (`&answers=yn-y`), else the reader's own (local storage);
/// and what is wrong with the address's, if they cannot be read (then the reader's own are
/// shown, and kept: a link's answers are saved only once the reader changes one).
fn opening_answers() -> (Answers, Option<String>) {
    let search = crate::view::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let given = web_sys::UrlSearchParams::new_with_str(&search).ok().and_then(|p| p.get("answers"));
    match given.map(|t| crate::share::answers::decode(&t)) {
        Some(Ok(a)) => (a, None),
        Some(Err(e)) => (load_answers(), Some(format!("This link's answers could not be read: {e}. Your own answers are shown instead."))),
        None => (load_answers(), None),
    }
}

/// Writes the answers into the address (`?page=guide&answers=…`), so that a copied link
/// reopens the guide with them.
fn sync_answers(a: &Answers) {
    let Some(w) = crate::view::window() else { return };
    if Page::from_query(&w.location().search().unwrap_or_default()) != Page::Guide {
        return;
    }
    let url = match crate::share::answers::encode(a) {
        Some(text) => format!("{}&answers={text}", Page::Guide.query()),
        None => Page::Guide.query().to_string(),
    };
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The guide: five questions, the approach they lead to, and the trade-off table.
#[component]
pub fn GuidePage(p: &PageProps) -> Html {
    // The address says the answers from the start (a page opened by the site's links has none).
    let opening = use_memo((), |_| {
        let opening = opening_answers();
        sync_answers(&opening.0);
        opening
    });
    let answers = use_state(|| opening.0);
    // Replaces the answers (kept in local storage, and in the address).
    let change = |a: Answers| {
        let answers = answers.clone();
        Callback::from(move |()| {
            save_answers(&a);
            sync_answers(&a);
            answers.set(a);
        })
    };
    let set = |i: usize, v: bool| {
        let mut a = *answers;
        a[i] = Some(v);
        change(a)
    };
    let path = guide::path(&answers);
    let rec = guide::recommend(&answers);
    let questions = path.iter().enumerate().map(|(n, q)| {
        let i = ORDER.iter().position(|x| x == q).unwrap_or(0);
        let (ask, help) = q.text();
        let name = format!("guide-q{i}");
        let v = answers[i];
        html! {
            <fieldset class="guide-q">
                <legend>{ format!("{}. {ask}", n + 1) }</legend>
                <p class="hint">{ help }</p>
                <label><input type="radio" name={name.clone()} checked={v == Some(true)} onchange={set(i, true).reform(|_| ())} />{ " Yes" }</label>
                <label><input type="radio" name={name} checked={v == Some(false)} onchange={set(i, false).reform(|_| ())} />{ " No" }</label>
            </fieldset>
        }
    });
    let recommendation = rec.map(|x| {
        let a = guide::advice(x);
        let quorum_note = (x == Approach::Consensus && answers[3] == Some(true)).then(|| html! {
            <p class="caveat"><strong>{ "You said work must continue without a quorum. " }</strong>
                { "A consensus service cannot promise that: while a majority is down it grants nothing and expires nothing (see “A majority of the consensus service is down”). Fencing keeps the data safe only while the tokens never go backwards (see “The token counter starts again”) and the new owner shows its token to the resource before a stale write arrives (activation: see “The new owner has not shown its token yet”); decide whether a pause in progress is acceptable, because no lock service can be both always available and safe." }</p>
        });
        html! {
            <section class="recommendation" aria-live="polite">
                <p class="predict-kicker">{ "Our recommendation" }</p>
                <h2>{ a.title }</h2>
                <ul>{ for a.advice.iter().map(|t| html! { <li>{ *t }</li> }) }</ul>
                { for quorum_note }
                <h3>{ "In code" }</h3>
                <ul class="calls">{ for crate::revise::calls_for(x).map(|(name, c)| html! { <li>{ format!("{name}: ") }<code>{ c }</code></li> }) }</ul>
                <h3>{ "See it in the lab" }</h3>
                <ul class="demos">{ for a.demos.iter().map(|d| demo_link(d, &p.open)) }</ul>
            </section>
        }
    });
    let start_over = change([None; 5]);
    html! {
        <div class="app page guide" id="page">
            <header class="top">{ brand() }{ site_nav(Page::Guide, &p.nav) }</header>
            <main class="page-main">
                if let Some(problem) = &opening.1 { <p class="banner" role="alert">{ problem }</p> }
                <h1 class="page-title">{ "Which approach fits your system?" }</h1>
                <p class="lede">{ "A distributed lock coordinates clients; it does not stop an expired or paused client from writing. If correctness depends on exclusive access, the resource must reject stale owners (a fencing token it checks), or the operation must be serialized by a transaction that covers the shared state. Answer these questions to find what your system needs, and see each answer played out in the lab." }</p>
                <div class="guide-grid">
                    <form class="guide-questions" aria-label="Questions" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                        { for questions }
                        if answers.iter().any(Option::is_some) {
                            <button type="button" class="btn small ghost" onclick={start_over.reform(|_| ())}>{ "Start over" }</button>
                        }
                    </form>
                    { recommendation.unwrap_or_else(|| html! {
                        <section class="recommendation pending"><p class="hint">{ "Answer the questions on the left; the recommendation appears as soon as they decide it." }</p></section>
                    }) }
                </div>
                <p class="guide-more">{ "Preparing for an interview? " }{ page_link(Page::Revise, "One page to revise from", &p.nav) }{ " (every approach: its guarantee, its failure, the fencing it needs and the real APIs, printable) and " }{ page_link(Page::Drill, "the drill", &p.nav) }{ " (the course's questions back to back)." }</p>
                <h2 class="table-title">{ "The trade-offs" }</h2>
                <div class="table-scroll" tabindex="0" role="region" aria-label="Trade-off table">
                    <table class="tradeoffs">
                        <thead><tr>
                            <th scope="col">{ "Approach" }</th><th scope="col">{ "Pause or network delay" }</th><th scope="col">{ "Stale-owner enforcement" }</th>
                            <th scope="col">{ "During quorum loss" }</th><th scope="col">{ "Complexity and fit" }</th><th scope="col">{ "Transaction boundary" }</th><th scope="col">{ "See it" }</th>
                        </tr></thead>
                        <tbody>
                            { for guide::TABLE.iter().map(|r| html! {
                                <tr class={classes!((rec == Some(r.approach)).then_some("chosen"))}>
                                    <th scope="row">{ r.name }if rec == Some(r.approach) { <span class="mini safe">{ "recommended" }</span> }</th>
                                    <td>{ r.pause }</td><td>{ r.stale }</td><td>{ r.quorum }</td><td>{ r.fit }</td><td>{ r.boundary }</td>
                                    <td><ul class="demos">{ for r.demos.iter().map(|d| demo_link(d, &p.open)) }</ul></td>
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
