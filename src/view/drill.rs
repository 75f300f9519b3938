//! The interview drill (`?page=drill`): the course's predict questions one at a time, each on
//! its run at its moment (the timeline up to the question's event, the future hidden as predict
//! mode hides it), answered with the mouse or keys 1–4, the engine's answer and its proof after
//! each, and at the end the score and the misses, each with "Show me". [`DrillPage`].
//!
//! The address says where the drill is (`&set=all&q=7`, `&set=missed&review=1`), so that Back
//! and a shared link work; the drill under way is kept for the tab (session storage), and the
//! answers for good (`leaselab.drill`: the missed set), read and written back one answer at a
//! time so that nothing else in it is lost.

use gloo_events::EventListener;
use yew::prelude::*;

use crate::drill::{self, Record, Session, Set};
use crate::view::pages::{brand, site_nav, Page};

mod question;

use question::{ask, Question};

const RECORD_KEY: &str = "leaselab.drill";
const SESSION_KEY: &str = "leaselab.drill.session";
const DUE_KEY: &str = "leaselab.drill.due";

/// Where the drill is, as its address says.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Where {
    /// Choosing a drill.
    Choose,
    /// At question `.1` (from 0) of a drill of `.0`.
    Question(Set, usize),
    /// The score and the misses.
    Review(Set),
}

impl Where {
    fn from_location() -> Where {
        let search = crate::view::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        let params = web_sys::UrlSearchParams::new_with_str(&search).ok();
        let get = |k: &str| params.as_ref().and_then(|p| p.get(k));
        let Some(set) = get("set").as_deref().and_then(Set::from_param) else { return Where::Choose };
        if get("review").is_some() {
            return Where::Review(set);
        }
        let q = get("q").and_then(|q| q.parse::<usize>().ok()).unwrap_or(1);
        Where::Question(set, q.saturating_sub(1))
    }

    fn query(&self) -> String {
        match self {
            Where::Choose => "?page=drill".to_string(),
            Where::Question(set, i) => format!("?page=drill&set={}&q={}", set.param(), i + 1),
            Where::Review(set) => format!("?page=drill&set={}&review=1", set.param()),
        }
    }
}

fn local() -> Option<web_sys::Storage> {
    crate::view::progress::storage()
}

fn session_storage() -> Option<web_sys::Storage> {
    crate::view::window().and_then(|w| w.session_storage().ok().flatten())
}

/// A record kept in local storage (`None` when it is there but cannot be read).
fn read_record<T: sim::from_value::FromValue + Default>(key: &str) -> Option<T> {
    match local().and_then(|st| st.get_item(key).ok().flatten()) {
        None => Some(T::default()),
        Some(t) => sim::json::parse(&t).ok().and_then(|v| sim::from_value::deserialize(&v).ok()),
    }
}

/// The questions missed last time, in the drill's record and predict mode's score.
fn missed_now() -> Vec<String> {
    drill::missed(&read_record(RECORD_KEY).unwrap_or_default(), &read_record("leaselab.predict").unwrap_or_default())
}

/// Today, in days since 1970 (UTC): spaced retrieval's calendar.
fn today() -> i64 {
    (js_sys::Date::now() / 86_400_000.0).floor() as i64
}

/// The questions a drill of `set` draws from: the missed set, or those due today.
fn listed(set: Set) -> Vec<String> {
    match set {
        Set::Due => drill::due_on(&read_record(DUE_KEY).unwrap_or_default(), today()),
        _ => missed_now(),
    }
}

/// Writes one answer into the drill's record, read again first so that another tab's answers
/// stay; a record that cannot be read is set aside (`leaselab.drill.unreadable`), not lost.
fn record_answer(k: &str, right: bool) {
    let Some(st) = local() else { return };
    let mut rec = match read_record(RECORD_KEY) {
        Some(r) => r,
        None => {
            if let Ok(Some(old)) = st.get_item(RECORD_KEY) {
                let _ = st.set_item(&format!("{RECORD_KEY}.unreadable"), &old);
            }
            Record::default()
        }
    };
    rec.insert(k.to_string(), right);
    let _ = st.set_item(RECORD_KEY, &sim::to_value::ToValue::to_value(&rec).to_string());
    // Spaced retrieval's calendar; one that cannot be read starts again.
    let mut due: drill::Due = read_record(DUE_KEY).unwrap_or_default();
    drill::schedule(&mut due, k, right, today());
    let _ = st.set_item(DUE_KEY, &sim::to_value::ToValue::to_value(&due).to_string());
}

fn count(id: &str) -> usize {
    sim::library::find(id).map_or(0, |sc| sc.questions.len())
}

fn store_session(s: &Session) {
    if let Some(st) = session_storage() {
        let _ = st.set_item(SESSION_KEY, &s.to_json());
    }
}

/// The drill of `set` under way in this tab, or a new one.
fn session_for(set: Set) -> Session {
    let kept = session_storage().and_then(|st| st.get_item(SESSION_KEY).ok().flatten()).and_then(|t| Session::from_json(&t));
    kept.filter(|s| s.set == set).unwrap_or_else(|| Session::new(set, drill::queue(set, &count, &listed(set))))
}

#[derive(Properties, PartialEq)]
pub struct DrillProps {
    pub nav: Callback<Page>,
    /// Opens a library scenario in the lab at a step: (id, step index).
    pub show: Callback<(String, usize)>,
}

/// The drill: choose, answer one question at a time, review.
#[component]
pub fn DrillPage(p: &DrillProps) -> Html {
    let at = use_state(Where::from_location);
    let session = use_state(|| None::<Session>);
    // Back and forward within the drill (the app's own listener moves between pages).
    {
        let at = at.clone();
        use_effect_with((), move |_| {
            let window = crate::view::window().expect("a window");
            let listener = EventListener::new(&window, "popstate", move |_| at.set(Where::from_location()));
            move || drop(listener)
        });
    }
    let go = {
        let at = at.clone();
        Callback::from(move |(to, push): (Where, bool)| {
            if let Some(h) = crate::view::window().and_then(|w| w.history().ok()) {
                let url = to.query();
                let _ = if push {
                    h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                } else {
                    h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
                };
            }
            at.set(to);
            if let Some(w) = crate::view::window() {
                w.scroll_to_with_x_and_y(0.0, 0.0);
            }
        })
    };
    // The session the address asks for: the one in this tab if it is that drill, else a new one.
    let current = match (*at).clone() {
        Where::Choose => None,
        Where::Question(set, _) | Where::Review(set) => {
            Some((*session).clone().filter(|s| s.set == set).unwrap_or_else(|| session_for(set)))
        }
    };
    let start = {
        let (go, session) = (go.clone(), session.clone());
        Callback::from(move |set: Set| {
            let s = Session::new(set, drill::queue(set, &count, &listed(set)));
            store_session(&s);
            session.set(Some(s));
            go.emit((Where::Question(set, 0), true));
        })
    };
    let body = match ((*at).clone(), current) {
        (Where::Choose, _) | (_, None) => chooser(&start),
        (Where::Review(_), Some(s)) => review(&s, &start, &go, &p.show),
        (Where::Question(set, _), Some(s)) if s.queue.is_empty() => html! {
            <section class="drill-card">
                <h2>{ set.title() }</h2>
                <p>{ "There is nothing to drill here: you have missed no question yet (a wrong answer in predict mode or in a drill puts it here)." }</p>
                <button class="btn primary" onclick={go.reform(|_| (Where::Choose, false))}>{ "Choose a drill" }</button>
            </section>
        },
        (Where::Question(set, i), Some(s)) => {
            let i = i.min(s.queue.len() - 1);
            let answer = {
                let (session, s) = (session.clone(), s.clone());
                Callback::from(move |(choice, right): (usize, bool)| {
                    record_answer(&s.queue[i], right);
                    let next = s.answer(i, choice, right);
                    store_session(&next);
                    session.set(Some(next));
                })
            };
            let next = {
                let (go, s) = (go.clone(), s.clone());
                Callback::from(move |()| {
                    let to = if i + 1 < s.queue.len() { Where::Question(set, i + 1) } else { Where::Review(set) };
                    go.emit((to, false));
                })
            };
            html! { <Question key={s.queue[i].clone()} session={s.clone()} at={i} {answer} {next} /> }
        }
    };
    html! {
        <div class="app page drill" id="page">
            <header class="top">{ brand() }{ site_nav(Page::Drill, &p.nav) }</header>
            <main class="page-main">{ body }</main>
        </div>
    }
}

/// The choice of a drill: the whole course, a chapter, or the ones missed last time.
fn chooser(start: &Callback<Set>) -> Html {
    let all = drill::queue(Set::All, &count, &[]).len();
    let missed = drill::queue(Set::Missed, &count, &missed_now()).len();
    let due = drill::queue(Set::Due, &count, &listed(Set::Due)).len();
    let option = |set: Set, n: usize, note: &str| {
        let go = start.clone();
        html! {
            <li>
                <button class="btn drill-choice" disabled={n == 0} onclick={Callback::from(move |_| go.emit(set))}>
                    <strong>{ set.title() }</strong>
                    <span>{ if n == 0 { note.to_string() } else { format!("{n} question{}", if n == 1 { "" } else { "s" }) } }</span>
                </button>
            </li>
        }
    };
    html! {
        <>
            <h1 class="page-title">{ "Interview drill" }</h1>
            <p class="lede">{ "The course's questions back to back, one at a time: each stops its run at the moment that matters and asks what happens next. Answer with the mouse or the keys 1–4, then Enter or → for the next. Every answer is computed by the same engine as the lab, with the step that proves it; at the end, review what you missed and see it happen." }</p>
            <ul class="drill-choices" aria-label="Choose a drill">
                { option(Set::All, all, "") }
                { option(Set::Missed, missed, "none yet: wrong answers come here") }
                { option(Set::Due, due, "none today: a question you miss comes back the next day, then after 3 and 7 days while you answer it right") }
            </ul>
            <h2 class="table-title">{ "One chapter" }</h2>
            <ul class="drill-choices chapters" aria-label="One chapter">
                { for sim::library::CHAPTERS.iter().map(|(c, _)| option(Set::Chapter(c), drill::queue(Set::Chapter(c), &count, &[]).len(), "no questions")) }
            </ul>
        </>
    }
}

/// The end of a drill: the score, and each miss with the right answer and "Show me".
fn review(s: &Session, start: &Callback<Set>, go: &Callback<(Where, bool)>, show: &Callback<(String, usize)>) -> Html {
    let (right, answered) = s.score();
    let total = s.queue.len();
    let misses = s.misses();
    let unanswered = total - answered;
    let pct = (right * 100).checked_div(answered).unwrap_or(0);
    let item = |i: usize| {
        let k = &s.queue[i];
        let Ok(a) = ask(k) else { return html! {} };
        let (q, ans) = (&a.quiz.question, &a.quiz.answer);
        let said = s.picked[i].and_then(|x| q.choices.get(x)).map(|c| c.text.clone()).unwrap_or_default();
        let right = ans.right.and_then(|r| q.choices.get(r)).map(|c| c.text.clone()).unwrap_or_default();
        let id = a.screen.scenario.id.clone();
        let href = format!("?scenario={id}&step={}", ans.proof + 1);
        let (show, proof) = (show.clone(), ans.proof);
        let onclick = Callback::from(move |e: MouseEvent| {
            if !(e.ctrl_key() || e.meta_key() || e.shift_key()) {
                e.prevent_default();
                show.emit((id.clone(), proof));
            }
        });
        html! {
            <li class="drill-miss" data-question={k.clone()}>
                <p class="drill-where"><strong>{ &a.screen.scenario.title }</strong>{ format!(" · question {} of {total}", i + 1) }</p>
                <h3>{ &q.ask }</h3>
                <p><span class="yours">{ format!("You said: {said}. ") }</span><strong>{ format!("The answer: {right}.") }</strong></p>
                <p class="why">{ &q.why }</p>
                <a class="btn small primary show-me" {href} {onclick}>{ format!("Show me (step {})", ans.proof + 1) }</a>
            </li>
        }
    };
    let resume = s.first_open().map(|i| {
        let go = go.clone();
        let set = s.set;
        html! { <button class="btn" onclick={Callback::from(move |_| go.emit((Where::Question(set, i), true)))}>{ format!("Answer the {unanswered} left") }</button> }
    });
    let again = {
        let start = start.clone();
        html! { <button class="btn primary" disabled={misses.is_empty()} onclick={Callback::from(move |_| start.emit(Set::Missed))}>{ "Drill the ones I have missed" }</button> }
    };
    html! {
        <>
            <h1 class="page-title">{ format!("Your results: {}", s.set.title()) }</h1>
            <section class="drill-card drill-total" role="status">
                <p class="drill-big">{ format!("{right} of {answered} right") }<span>{ format!(" ({pct}%)") }</span></p>
                <p>
                    { if unanswered == 0 { format!("All {total} questions answered. ") } else { format!("{answered} of {total} questions answered. ") } }
                    { match misses.len() { 0 => "Nothing missed.".to_string(), 1 => "One missed: it is below, with the step that proves the answer.".to_string(), n => format!("{n} missed: they are below, each with the step that proves the answer.") } }
                </p>
                <p class="drill-actions">{ for resume }{ again }
                    <button class="btn ghost" onclick={go.reform(|_| (Where::Choose, true))}>{ "Choose another drill" }</button></p>
            </section>
            if !misses.is_empty() {
                <h2 class="table-title">{ "What you missed" }</h2>
                <ol class="drill-misses">{ for misses.into_iter().map(item) }</ol>
            }
        </>
    }
}
