//! "Can this break?": [`SearchPanel`] runs [`sim::search`] on the scenario on screen in slices
//! of about 12 ms between frames (the page stays responsive), with a progress bar, its pace
//! and an estimate of the time left (measured here: the search has no clock), and Cancel;
//! shows the smallest unsafe schedule it found as a change of the scenario (Undo takes it
//! back), or states what it covered.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use sim::scenario::Scenario;
use sim::search::{duration, thousands, Options, Outcome, Search};
use yew::prelude::*;

use crate::state::{Action, Against, ByPtr, MAX_DRAWN_EVENTS};

#[cfg(test)]
mod tests;

/// The longest a slice of the search runs before the page gets the thread back, in ms.
const SLICE_MS: f64 = 12.0;
/// The most schedules the reader may ask for.
const MAX_BUDGET: usize = 5_000_000;
/// The schedules a search runs unless the reader asks for more (seconds in a browser).
const BUDGET: &str = "200000";

fn now_ms() -> f64 {
    crate::view::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Where the search is, as shown.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Running {
        schedules: usize,
        budget: usize,
        shrinking: Option<(usize, usize)>,
        /// Since it started.
        ms: f64,
    },
    /// Found, and shown as a change of the scenario; `cut`: cancelled while it was making the
    /// schedule smaller (the smallest so far).
    Found {
        found: Box<sim::search::Found>,
        ms: f64,
        cut: bool,
    },
    NotFound {
        coverage: sim::search::Coverage,
        ms: f64,
    },
    /// Cancelled before it found anything: what it covered.
    Cancelled {
        coverage: sim::search::Coverage,
        ms: f64,
    },
    /// The reader changed the scenario while it ran; `found`: which schedule was unsafe, if one
    /// was (the search was making it smaller).
    Stopped {
        schedules: usize,
        found: Option<usize>,
    },
}

/// A search in progress: the engine's state and the timer of its next slice.
struct Job {
    search: Search,
    started: f64,
    next: Option<Timeout>,
}

type Slot = Rc<RefCell<Option<Job>>>;

/// Runs one slice, then schedules the next, until the search ends.
fn pump(slot: Slot, status: UseStateHandle<Status>, dispatch: Callback<Action>) {
    let mut guard = slot.borrow_mut();
    let Some(job) = guard.as_mut() else { return };
    let t0 = now_ms();
    let mut done = false;
    while !done && now_ms() - t0 < SLICE_MS {
        done = job.search.step(2);
    }
    if !done {
        let p = job.search.progress();
        let ms = now_ms() - job.started;
        status.set(Status::Running { schedules: p.schedules, budget: p.budget, shrinking: p.shrinking, ms });
        let (slot2, status2, d2) = (slot.clone(), status.clone(), dispatch.clone());
        job.next = Some(Timeout::new(0, move || pump(slot2, status2, d2)));
        return;
    }
    let now = shown(&job.search, now_ms() - job.started);
    *guard = None;
    drop(guard);
    show(&status, &dispatch, now);
}

/// What a search has to show where it is: how it ended; or, cancelled before its end, what it
/// has so far (as the command line's search stopped by Ctrl-C): the smallest unsafe schedule
/// yet, if it was making one smaller, else the schedules it ran.
fn shown(search: &Search, ms: f64) -> Status {
    let ended = search.outcome().is_some();
    match search.so_far() {
        Outcome::Found(found, _) => Status::Found { found, ms, cut: !ended },
        Outcome::NotFound(coverage) if ended => Status::NotFound { coverage, ms },
        Outcome::NotFound(coverage) => Status::Cancelled { coverage, ms },
    }
}

/// Shows `now`; a schedule found goes on the timeline as a change of the scenario (the status
/// first: the change that follows is known to be the search's).
fn show(status: &UseStateHandle<Status>, dispatch: &Callback<Action>, now: Status) {
    let sc = match &now {
        Status::Found { found, .. } => Some(Rc::new(found.scenario.clone())),
        _ => None,
    };
    status.set(now);
    if let Some(sc) = sc {
        dispatch.emit(Action::SearchFound(sc));
    }
}

/// The search's pace and the time it has left at that pace, once there is a pace to tell
/// (a quarter of a second in): ` · 85 schedules/s · about 23 s left`.
fn pace(schedules: usize, budget: usize, ms: f64) -> String {
    if schedules == 0 || ms < 250.0 {
        return String::new();
    }
    let rate = schedules as f64 * 1000.0 / ms;
    let rate_words = if rate < 10.0 { format!("{rate:.1}") } else { thousands(rate as usize) };
    let pace = format!("{rate_words} schedules/s");
    let left = format!("about {} left", duration(budget.saturating_sub(schedules) as f64 / rate));
    // Each part kept on one line where the text wraps (a phone): it wraps between them.
    format!(" · {} · {}", pace.replace(' ', "\u{a0}"), left.replace(' ', "\u{a0}"))
}

fn seconds(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct SearchProps {
    pub scenario: ByPtr<Scenario>,
    pub dispatch: Callback<Action>,
}

/// The "Can this break?" panel under the verdict.
#[component]
pub fn SearchPanel(p: &SearchProps) -> Html {
    crate::view::probe::rendered("SearchPanel");
    let status = use_state(|| Status::Idle);
    let slot: Slot = use_mut_ref(|| None::<Job>);
    let budget = use_state(|| BUDGET.to_string());
    let faults = use_state(|| 2usize);
    // The panel gone (predict mode hides it, another page shows), its search goes too: the job
    // owns the timer of its next slice, and the timer's closure owns the slot.
    {
        let slot = slot.clone();
        use_effect_with((), move |_| {
            move || {
                slot.borrow_mut().take();
            }
        });
    }
    // A change of the scenario by the reader stops a running search and clears an old result
    // (not the change the search itself made).
    {
        let (slot, status) = (slot.clone(), status.clone());
        use_effect_with(p.scenario.clone(), move |sc| {
            let ours = matches!(&*status, Status::Found { found, .. } if found.scenario == **sc);
            if ours || *status == Status::Idle {
                return;
            }
            // Not the schedule it found, if it found one: that would undo the reader's change.
            match slot.borrow_mut().take() {
                Some(job) => status.set(Status::Stopped {
                    schedules: job.search.progress().schedules,
                    found: match shown(&job.search, 0.0) {
                        Status::Found { found, .. } => Some(found.after),
                        _ => None,
                    },
                }),
                None => status.set(Status::Idle),
            }
        });
    }
    let budget_n = budget.trim().parse::<usize>().ok().filter(|n| (1..=MAX_BUDGET).contains(n));
    let start = {
        let (slot, status, d, sc, faults) = (slot.clone(), status.clone(), p.dispatch.clone(), p.scenario.clone(), *faults);
        Callback::from(move |budget: usize| {
            let opts = Options { faults, budget, max_events: MAX_DRAWN_EVENTS, ..Options::default() };
            match Search::new(&sc, opts) {
                Ok(search) => {
                    *slot.borrow_mut() = Some(Job { search, started: now_ms(), next: None });
                    status.set(Status::Running { schedules: 0, budget, shrinking: None, ms: 0.0 });
                    let (slot, status, d) = (slot.clone(), status.clone(), d.clone());
                    // The first slice after the page has drawn the progress bar.
                    if let Some(job) = slot.clone().borrow_mut().as_mut() {
                        job.next = Some(Timeout::new(0, move || pump(slot, status, d)));
                    }
                }
                Err(e) => d.emit(Action::Refuse(format!("The search cannot start: {e}"))),
            }
        })
    };
    // What it has so far: a schedule found while it was being made smaller is shown as found.
    let cancel = {
        let (slot, status, d) = (slot.clone(), status.clone(), p.dispatch.clone());
        Callback::from(move |_| {
            let Some(job) = slot.borrow_mut().take() else { return };
            show(&status, &d, shown(&job.search, now_ms() - job.started));
        })
    };
    let on_budget = {
        let budget = budget.clone();
        Callback::from(move |e: InputEvent| budget.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let on_faults = {
        let faults = faults.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            faults.set(v.parse().unwrap_or(2));
        })
    };
    let running = matches!(*status, Status::Running { .. });
    let go = {
        let start = start.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(n) = budget_n {
                start.emit(n);
            }
        })
    };
    let body = status_view(&status, cancel, budget_n, &start, &p.dispatch);
    html! {
        <section class="search" aria-label="Can this break?">
            <form class="search-head" onsubmit={go}>
                <h2>{ "Can this break?" }</h2>
                <label>{ "Faults per schedule " }
                    <select aria-label="Most faults added per schedule" onchange={on_faults} disabled={running}>
                        { for [1usize, 2, 3].iter().map(|n| html! { <option value={n.to_string()} selected={*n == *faults}>{ n.to_string() }</option> }) }
                    </select>
                </label>
                <label>{ "Budget " }
                    <input type="number" inputmode="numeric" min="1" max={MAX_BUDGET.to_string()} value={(*budget).clone()} oninput={on_budget}
                           aria-label="Budget: the most schedules to run" aria-invalid={budget_n.is_none().to_string()}
                           aria-describedby={budget_n.is_none().then_some("search-budget-error")} disabled={running} />
                </label>
                <button type="submit" class="btn primary" disabled={running || budget_n.is_none()}>{ "Search" }</button>
            </form>
            if budget_n.is_none() {
                <p class="field-error" id="search-budget-error" role="alert">
                    { format!("“{}” is not a budget: give a whole number of schedules from 1 to {}.", budget.trim(), thousands(MAX_BUDGET)) }
                </p>
            }
            <div aria-live="polite">{ body }</div>
        </section>
    }
}

/// What a search found, with Undo and a comparison with the run it started from.
fn found_view(found: &sim::search::Found, ms: f64, cut: bool, dispatch: &Callback<Action>) -> Html {
    let undo = {
        let d = dispatch.clone();
        Callback::from(move |_| d.emit(Action::Undo))
    };
    let compare = {
        let d = dispatch.clone();
        Callback::from(move |_| {
            d.emit(Action::Compare(Some(Against::Before)));
            // The comparison opens above, under the run: bring it into view once drawn.
            gloo_timers::callback::Timeout::new(0, || {
                let el = crate::view::window().and_then(|w| w.document()).and_then(|d| d.query_selector(".compare").ok().flatten());
                if let Some(el) = el {
                    el.scroll_into_view();
                }
            })
            .forget();
        })
    };
    let how = match found.after {
        0 if cut => "It is unsafe as written, with no fault added.".to_string(),
        0 => "It is unsafe as written, with no fault added: the search made the scenario's own faults as small as it could.".to_string(),
        k => format!("Found after {} schedules, in {}.", thousands(k), seconds(ms)),
    };
    let n = found.faults.len();
    let smallest = if cut {
        format!("Cancelled while making it smaller ({} runs so far): the smallest unsafe schedule yet", found.shrink_runs)
    } else {
        format!("The smallest unsafe schedule it found ({} more runs to make it small)", found.shrink_runs)
    };
    html! {
        <div class="search-result found">
            <p><strong>{ format!("Found: {}.", found.headline.trim_start_matches("Unsafe: ")) }</strong>{ format!(" {how}") }</p>
            <p>{ format!("{smallest} has {}; it is on the timeline now, at the harm:", if n == 1 { "one fault".to_string() } else { format!("{n} faults") }) }</p>
            if n == 0 {
                <p class="hint">{ "No fault at all: this design is unsafe on an ordinary schedule." }</p>
            }
            <ul class="search-faults">
                { for found.faults.iter().zip(&found.was).map(|((f, o), was)| html! {
                    <li>
                        { f.describe() }
                        <span class={classes!("origin", o.label())}>{ o.label() }</span>
                        if let Some(w) = was { <span class="hint">{ format!(" (was: {})", w.describe()) }</span> }
                    </li>
                }) }
                { for found.removed.iter().map(|f| html! {
                    <li><s>{ f.describe() }</s><span class="origin removed">{ "removed" }</span></li>
                }) }
            </ul>
            <div class="row">
                <button class="btn small" onclick={undo}>{ "Undo" }</button>
                <button class="btn small" onclick={compare}>{ "Compare with the run before" }</button>
            </div>
        </div>
    }
}

/// What a search that found nothing covered, within which bounds, and which dangerous
/// situations its runs reached, with a longer search one click away (`stopped`: cancelled).
fn none_view(c: &sim::search::Coverage, ms: f64, budget: Option<usize>, start: &Callback<usize>, stopped: bool) -> Html {
    let more = budget.map(|b| (b * 4).min(MAX_BUDGET)).filter(|m| *m > c.schedules && c.complete < c.asked.min(2));
    let further = more.map(|m| html! { <button class="btn small" onclick={start.reform(move |_| m)}>{ format!("Search {} schedules", thousands(m)) }</button> });
    let t = thousands;
    let words = c.bounds(stopped);
    let (head, rest) = words.split_once(". ").map_or((words.as_str(), ""), |(h, r)| (h, r));
    html! {
        <div class="search-result none">
            if stopped { <p class="hint">{ "Cancelled; what it covered before:" }</p> }
            <p><strong>{ format!("{head}.") }</strong>{ format!(" {rest}") }</p>
            if !c.reached.is_empty() {
                <ul class="search-reach" aria-label="Dangerous situations">
                    { for c.reached.iter().map(|(s, r)| html! {
                        <li class={if *r { "reached" } else { "missed" }}>
                            <span class="mark">{ if *r { "reached, without harm" } else { "not reached" } }</span>{ format!(" {}", s.words()) }
                        </li>
                    }) }
                </ul>
            }
            <p class="hint">
                { format!("First round: {} of {} one-fault schedules, {} pairs; order classes: {} schedules, {} different sequences of events{}. In {}. ",
                          t(c.singles), t(c.singles_total), t(c.pairs), t(c.class_runs), t(c.behaviours),
                          if c.asked > 2 { format!("; random of three: {}", t(c.random)) } else { String::new() }, seconds(ms)) }
                { "A search is not a proof: it covers the schedules it ran." }
            </p>
            { for further }
        </div>
    }
}

/// The panel's body for where the search is.
fn status_view(
    status: &Status,
    cancel: Callback<MouseEvent>,
    budget_n: Option<usize>,
    start: &Callback<usize>,
    dispatch: &Callback<Action>,
) -> Html {
    match status {
        Status::Idle => html! {
            <p class="hint">{ "Adds faults to this run (pauses, delayed messages, clock jumps and drift, crashes, failovers, partitions that cut a client off): first the likeliest, then one in every order class of where it falls among the run's events, then two, and looks for a schedule that corrupts the data. Where it finds none, it says within which bounds." }</p>
        },
        Status::Running { schedules, budget, shrinking, ms } => {
            let (value, max, what) = match shrinking {
                Some((n, of)) => (*n, *of, format!("Found one; shrinking it: {n} runs")),
                None => (
                    *schedules,
                    *budget,
                    format!("{} of {} schedules{}", thousands(*schedules), thousands(*budget), pace(*schedules, *budget, *ms)),
                ),
            };
            html! {
                <div class="search-progress">
                    <progress max={max.to_string()} value={value.to_string()} aria-label="Search progress"></progress>
                    <span>{ what }</span>
                    <button class="btn small" onclick={cancel}>{ "Cancel" }</button>
                </div>
            }
        }
        Status::Found { found, ms, cut } => found_view(found, *ms, *cut, dispatch),
        Status::NotFound { coverage, ms } => none_view(coverage, *ms, budget_n, start, false),
        Status::Cancelled { coverage, ms } => none_view(coverage, *ms, budget_n, start, true),
        Status::Stopped { schedules, found } => {
            let among = match found {
                None => "nothing unsafe among them".to_string(),
                Some(0) => "the run was unsafe as written".to_string(),
                Some(k) => format!("schedule {k} was unsafe"),
            };
            html! {
                <p class="hint">{ format!("The search stopped when the scenario changed, after {} schedules ({among}). Search again to search the changed run.", thousands(*schedules)) }</p>
            }
        }
    }
}
