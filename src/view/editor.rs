//! "Change the run": the scenario's parameters and faults ([`Editor`]). A refused value is
//! explained next to its field, and the last good run stays on screen. The editor is not
//! rendered on a playback tick: only [`AddFault`] follows the cursor.

use sim::scenario::{Scenario, Step};
use yew::prelude::*;

use crate::edit::Field;
use crate::state::{Action, ByPtr, FieldError, Latest, Screen};

mod faults;
mod fields;
mod file;

use faults::fault_list;
pub use faults::{AddFault, CursorAt};
use fields::{json_name, Form};
use file::FileBox;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub scenario: ByPtr<Scenario>,
    /// The scenario as opened: its fix.
    pub original: ByPtr<Scenario>,
    pub fixed: bool,
    pub error: Option<FieldError>,
    /// The screen when a download is asked for.
    pub screen: Latest<Screen>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn Editor(p: &EditorProps) -> Html {
    crate::view::probe::rendered("Editor");
    let sc = &p.scenario;
    let d = &p.dispatch;
    let form = Form { error: p.error.as_ref(), dispatch: d };
    let fix = p.original.fix.as_ref().map(|f| {
        let d = d.clone();
        let on = p.fixed;
        html! {
            <div class={classes!("fix-card", on.then_some("on"))}>
                <h3>{ if on { "The fix is on" } else { "The one-click fix" } }</h3>
                <p>{ &f.explain }</p>
                <button class="btn primary" aria-pressed={on.to_string()} onclick={Callback::from(move |_| d.emit(Action::ToggleFix))}>
                    { if on { "Undo the fix".to_string() } else { f.label.clone() } }
                </button>
            </div>
        }
    });
    let redlock = (sc.lock.kind == sim::scenario::LockKind::Redlock).then(|| html! {
        <fieldset>
            <legend>{ "Redlock" }</legend>
            { form.number(Field::Ttl, "Lease TTL", sc.lock.ttl_ms.to_string(), "ms", Some(1)) }
            { form.number(Field::Nodes, "Nodes", sc.lock.nodes.to_string(), "", Some(1)) }
            { form.number(Field::NodeTimeout, "Per-node timeout", sc.lock.node_timeout_ms.to_string(), "ms", Some(1)) }
            { form.select(Field::Parallel, "Send the SETs", if sc.lock.parallel { "true" } else { "false" }, &[("false", "one after another"), ("true", "all at once")]) }
            { form.text(Field::DriftFactor, "Clock drift factor", sc.lock.clock_drift_factor.to_string()) }
            { form.select(Field::Persistence, "Persistence", &json_name(&sc.lock.persistence), &[("none", "none: lost on restart"), ("always", "fsync always")]) }
        </fieldset>
    });
    let lock = (sc.lock.kind == sim::scenario::LockKind::Redis).then(|| html! {
        <fieldset>
            <legend>{ "Lock service (Redis)" }</legend>
            { form.number(Field::Ttl, "Lease TTL", sc.lock.ttl_ms.to_string(), "ms", Some(1)) }
            { form.select(Field::Release, "Release with", &json_name(&sc.lock.release), &[("compare-and-delete", "compare-and-delete"), ("del", "plain DEL")]) }
            { form.select(Field::Renew, "Renew with", &json_name(&sc.lock.renew), &[("compare-and-extend", "compare-and-extend"), ("pexpire", "plain PEXPIRE"), ("none", "none")]) }
            { form.select(Field::Persistence, "Persistence", &json_name(&sc.lock.persistence), &[("none", "none: lost on restart"), ("always", "fsync always")]) }
            if let Some(r) = &sc.lock.replica { { form.number(Field::ReplicaLag, "Replication lag", r.lag_ms.to_string(), "ms", Some(0)) } }
        </fieldset>
    });
    let clients = sc.clients.iter().enumerate().map(|(c, client)| {
        let works = client.steps.iter().enumerate().filter_map(|(i, st)| match st {
            Step::Work { ms } => Some((i, *ms)),
            _ => None,
        });
        html! {
            <fieldset class="client">
                // "Client A", but "client1" as it is (not "Client client1").
                <legend>{ if client.name.to_ascii_lowercase().starts_with("client") { client.name.clone() } else { format!("Client {}", client.name) } }</legend>
                { form.number(Field::ClientStart(c), "Starts at", client.start_ms.to_string(), "ms", Some(0)) }
                { for works.map(|(i, ms)| form.number(Field::WorkMs(c, i), &format!("Work (step {})", i + 1), ms.to_string(), "ms", Some(0))) }
            </fieldset>
        }
    });
    html! {
        <div class="editor">
            <h2 class="panel-title">{ "Change the run" }</h2>
            <p class="hint">{ "Every change re-runs the simulation at once. Drag a pause on the timeline, or click a lane to add a fault there." }</p>
            { for fix }
            { for lock }
            { for redlock }
            <fieldset>
                <legend>{ "Fencing tokens and the resource" }</legend>
                { form.select(Field::TokenSource, "Token", &json_name(&sc.token.source), &[("counter", "a counter"), ("random-owner", "random owner value"), ("none", "none")]) }
                { form.select(Field::TokenStore, "Counter kept", &json_name(&sc.token.store), &[("durable", "durably"), ("redis", "on the Redis node")]) }
                { form.select(Field::Fencing, "Resource checks tokens", &json_name(&sc.resource.fencing), &[("none", "no"), ("atomic", "atomically"), ("check-then-write", "check, then write")]) }
                { form.select(Field::ResourceKind, "Resource", &json_name(&sc.resource.kind), &[("store", "storage service"), ("database", "database"), ("external", "external API")]) }
                { form.select(Field::Idempotency, "Idempotency keys", if sc.resource.idempotency { "true" } else { "false" }, &[("false", "no"), ("true", "yes")]) }
            </fieldset>
            <fieldset>
                <legend>{ "Network and run" }</legend>
                <div class="row">
                    { form.number(Field::LatencyMin, "Latency from", sc.network.latency_ms[0].to_string(), "ms", Some(0)) }
                    { form.number(Field::LatencyMax, "to", sc.network.latency_ms[1].to_string(), "ms", Some(0)) }
                </div>
                <div class="row">
                    { form.number(Field::Seed, "Seed", sc.seed.to_string(), "", Some(0)) }
                    { form.number(Field::Duration, "Duration", sc.duration_ms.to_string(), "ms", Some(1)) }
                </div>
            </fieldset>
            { for clients }
            <FileBox scenario={p.scenario.clone()} error={p.error.clone()} screen={p.screen.clone()} dispatch={p.dispatch.clone()} />
            <fieldset>
                <legend>{ "Faults" }</legend>
                if sc.faults.is_empty() { <p class="hint">{ "No faults." }</p> }
                { fault_list(sc, &form) }
                <AddFault scenario={p.scenario.clone()} dispatch={p.dispatch.clone()} />
            </fieldset>
        </div>
    }
}
