//! The inspector: the state of every actor at the cursor, in words. Every fact comes from the
//! run's [`Facts`], computed once per run, so a playback tick costs a few binary searches per
//! actor.

use draw::glyph::color_class;
use sim::facts::{Facts, Program};
use sim::scenario::{Fencing, Inspector, LockKind, ResourceKind, Scenario};
use sim::time::{fmt, Micros};
use sim::trace::{ActorId, Role, Run};
use yew::prelude::*;

use crate::state::ByPtr;

/// What the inspector draws (a plain function's arguments: it follows the cursor, and is drawn
/// again at every step with the lab).
pub struct InspectorProps {
    pub run: ByPtr<Run>,
    pub facts: ByPtr<Facts>,
    pub scenario: ByPtr<Scenario>,
    pub cursor: usize,
    /// The true time shown (between steps while playing).
    pub time_us: Micros,
    /// A predict question waits at the cursor: what each process knows would answer it.
    pub question: bool,
}

/// One actor's row: its status in words, its token, whether that is a warning, its colour.
struct Row {
    status: String,
    token: Option<u64>,
    warn: bool,
    color: Option<usize>,
}

/// What a client is doing at `t`, in words, and whether that is a warning.
fn client_status(run: &Run, facts: &Facts, a: ActorId, t: Micros, cursor: usize) -> (String, Option<u64>, bool) {
    let at = facts.client_at(run, a, t, cursor);
    if at.down {
        return ("crashed".into(), None, false);
    }
    let mut parts = Vec::new();
    let mut warn = false;
    if let Some(p) = at.paused {
        parts.push(format!("paused until {}", fmt(p.to_us)));
    }
    match at.belief {
        Some(b) => {
            // The deadline as the client knows it at the cursor (a renewal still to come does
            // not count yet).
            let until_local = at.deadline_local_us.unwrap_or_else(|| run.local_at(a, b.valid_until_us));
            if until_local >= sim::proto::NO_LEASE_US / 2 {
                // A node of a failover pair: nothing runs out.
                parts.push("active: runs the resource; it holds no lease that runs out".to_string());
            } else if run.local_at(a, t) < until_local {
                parts.push(format!("holds the lock; its lease runs until {} on its own clock", fmt(until_local)));
            } else {
                warn = true;
                parts.push(format!("believes it holds the lock, but its lease ran out at {} on its own clock", fmt(until_local)));
            }
        }
        None => parts.push(
            match at.program {
                Program::Finished => "finished",
                Program::Stopped => "stopped without finishing",
                Program::Running => "does not hold the lock",
                Program::NotStarted => "not started yet",
            }
            .into(),
        ),
    }
    (parts.join("; "), at.belief.and_then(|b| b.token), warn)
}

/// Redlock: how many nodes hold this client's key now, and its last round's arithmetic.
fn redlock_status(p: &InspectorProps, a: ActorId, t: Micros) -> String {
    let (run, facts, nodes) = (&*p.run, &*p.facts, p.scenario.lock.nodes as usize);
    let held = facts.keys_held(a, t);
    let mut st = format!("; its key is on {held} of {nodes} nodes (a majority is {})", nodes / 2 + 1);
    if let Some(e) = facts.last_tally(a, p.cursor).map(|i| &run.events[i]) {
        let said = sim::narrate::text(&p.scenario, run, e);
        st.push_str(&format!(". Last round: {}", said.split_once(": ").map_or(said.as_str(), |x| x.1)));
    }
    st
}

fn row(p: &InspectorProps, a: ActorId, role: Role, color: Option<usize>) -> Row {
    let (run, facts, t) = (&*p.run, &*p.facts, p.time_us);
    let server = |status: String| Row { status, token: None, warn: false, color: None };
    match role {
        Role::Client => {
            let (mut status, token, warn) = client_status(run, facts, a, t, p.cursor);
            if p.scenario.lock.kind == LockKind::Redlock {
                status.push_str(&redlock_status(p, a, t));
            }
            Row { status, token, warn, color }
        }
        // A lock server: its service's declaration says how (the one holder of a key or a Lease,
        // or a leader's queue).
        Role::Redis | Role::Replica | Role::Member => match p.scenario.lock.kind.declaration().inspector {
            Inspector::Holder { held, free } => server(match (facts.down_at(a, t), facts.keys_on(a, t).first()) {
                (true, _) => "down".to_string(),
                (false, Some(k)) => format!("{held} {}", k.owner.map(|o| run.name(o)).unwrap_or("?")),
                (false, None) => free.to_string(),
            }),
            Inspector::Queue { number } => {
                let down = facts.down_at(a, t);
                let role = if down {
                    "down"
                } else if facts.leader_at(t) == Some(a) {
                    "leader"
                } else {
                    "follower"
                };
                let queue = facts.queue_at(run, a, t);
                if queue.is_empty() || down {
                    return server(role.to_string());
                }
                let q: Vec<String> = queue
                    .iter()
                    .map(|k| format!("{} ({number} {})", k.owner.map(|o| run.name(o)).unwrap_or(""), k.revision.unwrap_or(0)))
                    .collect();
                server(format!("{role}; lock queue, lowest first: {}", q.join(", ")))
            }
        },
        Role::Resource => {
            let st = match run.resource_at(t) {
                Some(r) if r.highest > 0 => format!("value {} (version {}); highest token accepted {}", r.value, r.version, r.highest),
                Some(r) => format!("value {} (version {})", r.value, r.version),
                None => "value 0 (version 0)".into(),
            };
            let mode = match (p.scenario.resource.kind, p.scenario.resource.fencing) {
                (ResourceKind::External, _) => "an external API: ignores tokens",
                (_, Fencing::None) => "does not check tokens",
                (_, Fencing::Atomic) => "fencing: rejects lower tokens, atomically",
                (_, Fencing::CheckThenWrite) => "fencing: check, then write later",
            };
            server(format!("{st}; {mode}"))
        }
    }
}

/// Each actor at the cursor: what it knows and holds, its clock and token.
pub fn inspector(p: &InspectorProps) -> Html {
    crate::view::probe::rendered("Inspector");
    if p.question {
        return html! {
            <p class="inspector-hidden">
                { "Answer the question first: what each process holds and believes at this step would give the answer away. It shows again once you have answered." }
            </p>
        };
    }
    let (run, t) = (&p.run, p.time_us);
    let mut client_color = 0;
    let rows = run.actors.iter().enumerate().map(|(a, actor)| {
        let color = (actor.role == Role::Client).then(|| {
            client_color += 1;
            client_color - 1
        });
        let r = row(p, a, actor.role, color);
        let clock = run.local_at(a, t);
        let clock_txt = if clock == t { format!("clock {}", fmt(clock)) } else { format!("clock {} (true {})", fmt(clock), fmt(t)) };
        html! {
            <li class={classes!("actor", color_class(r.color), r.warn.then_some("warn"))}>
                <div class="actor-head">
                    <span class="swatch" aria-hidden="true"></span>
                    <strong>{ &actor.name }</strong>
                    if let Some(tok) = r.token { <span class="chip">{ format!("token {tok}") }</span> }
                    <span class="clock">{ clock_txt }</span>
                </div>
                <div class="status">{ r.status }</div>
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
