//! The state of every actor at the cursor, and the verdict.

use std::rc::Rc;

use sim::time::{fmt, Micros};
use sim::trace::{EventKind, Role, Run};
use yew::prelude::*;

use crate::state::{Action, Screen};
use crate::view::color_class;

/// The consensus leader at true time `t`, from the run's elections.
pub fn leader_at(run: &Run, t: Micros) -> Option<usize> {
    let mut leader = None;
    for e in run.events.iter().take_while(|e| e.at_us <= t) {
        match e.kind {
            EventKind::LeaderElected { .. } => leader = Some(e.actor),
            EventKind::NoQuorum => leader = None,
            EventKind::Crashed if leader == Some(e.actor) => leader = None,
            _ => {}
        }
    }
    leader
}

#[derive(Properties, PartialEq)]
pub struct InspectorProps {
    pub screen: Rc<Screen>,
}

fn within(from: Micros, to: Micros, t: Micros) -> bool {
    from <= t && t < to
}

/// What a client is doing at `t`, in words, and whether that is a warning.
fn client_status(run: &Run, a: usize, t: Micros, cursor: usize) -> (String, Option<u64>, bool) {
    let iv = &run.intervals;
    if iv.downs.iter().any(|d| d.actor == a && within(d.from_us, d.to_us, t)) {
        return ("crashed".into(), None, false);
    }
    let paused = iv.pauses.iter().find(|p| p.actor == a && within(p.from_us, p.to_us, t));
    let belief = iv.beliefs.iter().find(|b| b.client == a && within(b.from_us, b.to_us, t));
    let mut parts = Vec::new();
    let mut warn = false;
    let mut token = None;
    if let Some(p) = paused {
        parts.push(format!("paused until {}", fmt(p.to_us)));
    }
    match belief {
        Some(b) => {
            token = b.token;
            // The deadline as the client knows it at the cursor (a renewal still to come does
            // not count yet).
            let until_local = run.lease_deadline(a, cursor).unwrap_or_else(|| run.local_at(a, b.valid_until_us));
            if run.local_at(a, t) < until_local {
                parts.push(format!("holds the lock; its lease runs until {} on its own clock", fmt(until_local)));
            } else {
                warn = true;
                parts.push(format!("believes it holds the lock, but its lease ran out at {} on its own clock", fmt(until_local)));
            }
        }
        None => {
            let done =
                run.events[..=cursor].iter().rev().find(|e| e.actor == a && matches!(e.kind, EventKind::Done { .. } | EventKind::Start));
            parts.push(match done.map(|e| &e.kind) {
                Some(EventKind::Done { completed: true }) => "finished".into(),
                Some(EventKind::Done { completed: false }) => "stopped without finishing".into(),
                Some(_) => "does not hold the lock".into(),
                None => "not started yet".into(),
            });
        }
    }
    (parts.join("; "), token, warn)
}

#[component]
pub fn Inspector(p: &InspectorProps) -> Html {
    let s = &p.screen;
    let run = &s.run;
    let t = s.time_us();
    let mut client_color = 0;
    let rows = run.actors.iter().enumerate().map(|(a, actor)| {
        let clock = run.local_at(a, t);
        let clock_txt = if clock == t { format!("clock {}", fmt(clock)) } else { format!("clock {} (true {})", fmt(clock), fmt(t)) };
        let (status, token, warn, color) = match actor.role {
            Role::Client => {
                let (mut st, tok, w) = client_status(run, a, t, s.cursor);
                if s.scenario.lock.kind == sim::scenario::LockKind::Redlock {
                    // Redlock: how many nodes hold this client's key now, and its last round's arithmetic.
                    let n = s.scenario.lock.nodes as usize;
                    let held = run.intervals.keys.iter().filter(|k| k.owner == Some(a) && within(k.from_us, k.to_us, t)).count();
                    st.push_str(&format!("; its key is on {held} of {n} nodes (a majority is {})", n / 2 + 1));
                    let last = run.events[..=s.cursor.min(run.events.len() - 1)]
                        .iter()
                        .rev()
                        .find(|e| e.actor == a && matches!(e.kind, EventKind::Tally { .. }));
                    if let Some(e) = last {
                        st.push_str(&format!(". Last round: {}", e.text.split_once(": ").map(|x| x.1).unwrap_or(&e.text)));
                    }
                }
                client_color += 1;
                (st, tok, w, client_color - 1)
            }
            Role::Redis | Role::Replica => {
                let down = run.intervals.downs.iter().any(|d| d.actor == a && within(d.from_us, d.to_us, t));
                let key = run.intervals.keys.iter().find(|k| k.node == a && within(k.from_us, k.to_us, t));
                let st = match (down, key) {
                    (true, _) => "down".to_string(),
                    (false, Some(k)) => format!("lock key held by {}", k.owner.map(|o| run.actors[o].name.as_str()).unwrap_or("?")),
                    (false, None) => "lock is free".to_string(),
                };
                (st, None, false, usize::MAX)
            }
            Role::Member => {
                let down = run.intervals.downs.iter().any(|d| d.actor == a && within(d.from_us, d.to_us, t));
                let mut queue: Vec<(u64, String)> = run
                    .intervals
                    .keys
                    .iter()
                    .filter(|k| k.node == a && within(k.from_us, k.to_us, t))
                    .filter_map(|k| {
                        let rev = run.events.iter().find_map(|e| match &e.kind {
                            EventKind::Committed { revision, .. } if e.at_us == k.from_us && e.actor == a => Some(*revision),
                            _ => None,
                        })?;
                        Some((rev, k.owner.map(|o| run.actors[o].name.clone()).unwrap_or_default()))
                    })
                    .collect();
                queue.sort();
                let role = if down {
                    "down".to_string()
                } else if leader_at(run, t) == Some(a) {
                    "leader".to_string()
                } else {
                    "follower".to_string()
                };
                let st = if queue.is_empty() || down {
                    role
                } else {
                    let q: Vec<String> = queue.iter().map(|(r, c)| format!("{c} (revision {r})")).collect();
                    format!("{role}; lock queue, lowest first: {}", q.join(", "))
                };
                (st, None, false, usize::MAX)
            }
            Role::Resource => {
                let st = match run.resource_at(t) {
                    Some(r) if r.highest > 0 => format!("value {} (version {}); highest token accepted {}", r.value, r.version, r.highest),
                    Some(r) => format!("value {} (version {})", r.value, r.version),
                    None => "value 0 (version 0)".into(),
                };
                let mode = match (s.scenario.resource.kind, s.scenario.resource.fencing) {
                    (sim::scenario::ResourceKind::External, _) => "an external API: ignores tokens",
                    (_, sim::scenario::Fencing::None) => "does not check tokens",
                    (_, sim::scenario::Fencing::Atomic) => "fencing: rejects lower tokens, atomically",
                    (_, sim::scenario::Fencing::CheckThenWrite) => "fencing: check, then write later",
                };
                (format!("{st}; {mode}"), None, false, usize::MAX)
            }
        };
        html! {
            <li class={classes!("actor", color_class(color), warn.then_some("warn"))}>
                <div class="actor-head">
                    <span class="swatch" aria-hidden="true"></span>
                    <strong>{ &actor.name }</strong>
                    if let Some(tok) = token { <span class="chip">{ format!("token {tok}") }</span> }
                    <span class="clock">{ clock_txt }</span>
                </div>
                <div class="status">{ status }</div>
            </li>
        }
    });
    html! {
        <div class="inspector">
            <h2 class="panel-title">{ format!("At {}", fmt(t)) }</h2>
            <ul class="actors">{ for rows }</ul>
        </div>
    }
}

fn how_it_came_about(hazards: usize, notes: usize) -> String {
    let count = |n: usize, what: &str| if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") };
    match (hazards, notes) {
        (h, 0) => format!("How it came about: {}", count(h, "hazard")),
        (0, n) => format!("Notes: {}", count(n, "note")),
        (h, n) => format!("How it came about: {} and {}", count(h, "hazard"), count(n, "note")),
    }
}

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub screen: Rc<Screen>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn VerdictPanel(p: &VerdictProps) -> Html {
    if p.screen.hides_future() {
        return html! {
            <section class="verdict hidden-verdict" aria-label="Verdict">
                <h2>{ "Verdict: hidden until the end" }</h2>
                <p class="hint">{ "Predict mode keeps the outcome to itself. Answer the questions on the way; the verdict appears at the last step." }</p>
            </section>
        };
    }
    let v = &p.screen.run.verdict;
    let run = &p.screen.run;
    let finding = |f: &sim::Finding, class: &'static str| {
        let jump = f.event.map(|ev| {
            let d = p.dispatch.clone();
            Callback::from(move |_| d.emit(Action::Seek(ev)))
        });
        let body = html! { <>
            <span class="prop">{ f.property.as_str() }</span>
            <span class="at">{ format!(" at {} ", fmt(f.at_us)) }</span>
            <span class="why">{ &f.explanation }</span>
        </> };
        match jump {
            Some(cb) => html! { <li class={class}><button class="finding" onclick={cb} title="Jump to this moment">{ body }</button></li> },
            None => html! { <li class={class}><div class="finding">{ body }</div></li> },
        }
    };
    html! {
        <section class={classes!("verdict", if v.is_safe() { "safe" } else { "unsafe" })} aria-label="Verdict">
            <h2>
                { if v.is_safe() { "Safe: the protected data is intact" } else { "Unsafe: the protected data was corrupted" } }
                <span class="final">{ format!(" · final value {} after {} accepted writes", run.final_value, run.applied.len()) }</span>
            </h2>
            if !v.violations.is_empty() {
                <ul class="findings">{ for v.violations.iter().map(|f| finding(f, "violation")) }</ul>
            }
            if !v.hazards.is_empty() || !v.notes.is_empty() {
                <details class="hazards">
                    <summary>{ how_it_came_about(v.hazards.len(), v.notes.len()) }</summary>
                    <ul class="findings">
                        { for v.hazards.iter().map(|f| finding(f, "hazard")) }
                        { for v.notes.iter().map(|f| finding(f, "note")) }
                    </ul>
                </details>
            }
        </section>
    }
}
