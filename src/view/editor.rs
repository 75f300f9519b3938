//! "Change the run": the scenario's parameters and faults. A refused value is explained next
//! to its field, and the last good run stays on screen.

use std::rc::Rc;

use sim::scenario::{Fault, Step};
use sim::time::fmt;
use yew::prelude::*;

use crate::edit::Field;
use crate::state::{ms_at, Action, Screen};

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub screen: Rc<Screen>,
    pub dispatch: Callback<Action>,
}

fn error_for<'a>(s: &'a Screen, f: &Field) -> Option<&'a str> {
    s.error.as_ref().filter(|e| e.field == f.id()).map(|e| e.message.as_str())
}

/// A number field that commits on change (Enter, blur, or the spinner).
fn number(s: &Screen, d: &Callback<Action>, field: Field, label: &str, value: String, unit: &str, min: Option<i64>) -> Html {
    input_field(s, d, field, label, value, unit, Some(min))
}

/// A free-text field (for the one setting that is not a whole number).
fn text(s: &Screen, d: &Callback<Action>, field: Field, label: &str, value: String) -> Html {
    input_field(s, d, field, label, value, "", None)
}

/// An input with its label, unit and error; `number` is `Some(min)` for whole numbers.
fn input_field(
    s: &Screen,
    d: &Callback<Action>,
    field: Field,
    label: &str,
    value: String,
    unit: &str,
    number: Option<Option<i64>>,
) -> Html {
    let id = field.id();
    let err = error_for(s, &field).map(str::to_string);
    let onchange = {
        let d = d.clone();
        let field = field.clone();
        Callback::from(move |e: Event| d.emit(Action::Edit(field.clone(), e.target_unchecked_into::<web_sys::HtmlInputElement>().value())))
    };
    let err_id = format!("{id}-error");
    let (kind, mode, min) = match number {
        Some(min) => ("number", None, min.map(|m| m.to_string())),
        None => ("text", Some("decimal"), None),
    };
    html! {
        <div class={classes!("field", err.is_some().then_some("bad"))}>
            <label for={id.clone()}>{ label }</label>
            <div class="input-unit">
                <input id={id.clone()} type={kind} inputmode={mode} step={number.map(|_| "1")} min={min} value={value} onchange={onchange}
                       aria-invalid={err.is_some().to_string()} aria-describedby={err.as_ref().map(|_| err_id.clone())} />
                <span class="unit">{ unit }</span>
            </div>
            if let Some(e) = err { <p class="field-error" id={err_id} role="alert">{ e }</p> }
        </div>
    }
}

fn select(s: &Screen, d: &Callback<Action>, field: Field, label: &str, value: &str, options: &[(&'static str, &'static str)]) -> Html {
    let id = field.id();
    let err = error_for(s, &field).map(str::to_string);
    let onchange = {
        let d = d.clone();
        let field = field.clone();
        Callback::from(move |e: Event| d.emit(Action::Edit(field.clone(), e.target_unchecked_into::<web_sys::HtmlSelectElement>().value())))
    };
    html! {
        <div class={classes!("field", err.is_some().then_some("bad"))}>
            <label for={id.clone()}>{ label }</label>
            <select id={id.clone()} onchange={onchange}>
                { for options.iter().map(|(v, l)| html! { <option value={*v} selected={*v == value}>{ *l }</option> }) }
            </select>
            if let Some(e) = err { <p class="field-error" role="alert">{ e }</p> }
        </div>
    }
}

/// Saves the scenario as `<id>.json`.
fn download_json(sc: &sim::scenario::Scenario) {
    save_file(&format!("{}.json", sc.id), "application/json", &sc.to_json());
}

/// Saves text as a file through a temporary object URL.
fn save_file(name: &str, mime: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Some(a) = doc.create_element("a").ok().and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok()) {
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn json_name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn fault_title(f: &Fault) -> String {
    let t = |ms: u64| fmt(ms as i64 * 1000);
    match f {
        Fault::Pause { actor, at_ms, duration_ms } => format!("Pause {actor} at {} for {}", t(*at_ms), t(*duration_ms)),
        Fault::Crash { actor, at_ms } => format!("Crash {actor} at {}", t(*at_ms)),
        Fault::Restart { actor, at_ms } => format!("Restart {actor} at {}", t(*at_ms)),
        Fault::ClockJump { actor, at_ms, by_ms } => format!("Jump {actor}'s clock by {} at {}", fmt(*by_ms * 1000), t(*at_ms)),
        Fault::Drift { actor, at_ms, ppm } => format!("{actor}'s clock drifts {ppm} ppm from {}", t(*at_ms)),
        Fault::Partition { isolate, at_ms, duration_ms } => {
            format!("Cut off {} at {} for {}", isolate.join(", "), t(*at_ms), t(*duration_ms))
        }
        Fault::Delay { from, to, at_ms, extra_ms, .. } => {
            format!("Hold {from}'s next message to {to} by {} (from {})", t(*extra_ms), t(*at_ms))
        }
        Fault::Drop { from, to, at_ms, .. } => format!("Drop {from}'s next message to {to} (from {})", t(*at_ms)),
        Fault::Failover { at_ms } => format!("Fail over at {}", t(*at_ms)),
    }
}

#[component]
pub fn Editor(p: &EditorProps) -> Html {
    let s = &p.screen;
    let sc = &s.scenario;
    let d = &p.dispatch;
    let fix = s.original.fix.as_ref().map(|f| {
        let d = d.clone();
        let on = s.fixed();
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
            { number(s, d, Field::Ttl, "Lease TTL", sc.lock.ttl_ms.to_string(), "ms", Some(1)) }
            { number(s, d, Field::Nodes, "Nodes", sc.lock.nodes.to_string(), "", Some(1)) }
            { number(s, d, Field::NodeTimeout, "Per-node timeout", sc.lock.node_timeout_ms.to_string(), "ms", Some(1)) }
            { select(s, d, Field::Parallel, "Send the SETs", if sc.lock.parallel { "true" } else { "false" }, &[("false", "one after another"), ("true", "all at once")]) }
            { text(s, d, Field::DriftFactor, "Clock drift factor", sc.lock.clock_drift_factor.to_string()) }
            { select(s, d, Field::Persistence, "Persistence", &json_name(&sc.lock.persistence), &[("none", "none: lost on restart"), ("always", "fsync always")]) }
        </fieldset>
    });
    let lock = (sc.lock.kind == sim::scenario::LockKind::Redis).then(|| html! {
        <fieldset>
            <legend>{ "Lock service (Redis)" }</legend>
            { number(s, d, Field::Ttl, "Lease TTL", sc.lock.ttl_ms.to_string(), "ms", Some(1)) }
            { select(s, d, Field::Release, "Release with", &json_name(&sc.lock.release), &[("compare-and-delete", "compare-and-delete"), ("del", "plain DEL")]) }
            { select(s, d, Field::Renew, "Renew with", &json_name(&sc.lock.renew), &[("compare-and-extend", "compare-and-extend"), ("pexpire", "plain PEXPIRE"), ("none", "none")]) }
            { select(s, d, Field::Persistence, "Persistence", &json_name(&sc.lock.persistence), &[("none", "none: lost on restart"), ("always", "fsync always")]) }
            if let Some(r) = &sc.lock.replica { { number(s, d, Field::ReplicaLag, "Replication lag", r.lag_ms.to_string(), "ms", Some(0)) } }
        </fieldset>
    });
    let clients = sc.clients.iter().enumerate().map(|(c, client)| {
        let works = client.steps.iter().enumerate().filter_map(|(i, st)| match st {
            Step::Work { ms } => Some((i, *ms)),
            _ => None,
        });
        html! {
            <fieldset class="client">
                <legend>{ format!("Client {}", client.name) }</legend>
                { number(s, d, Field::ClientStart(c), "Starts at", client.start_ms.to_string(), "ms", Some(0)) }
                { for works.map(|(i, ms)| number(s, d, Field::WorkMs(c, i), &format!("Work (step {})", i + 1), ms.to_string(), "ms", Some(0))) }
            </fieldset>
        }
    });
    let faults = sc.faults.iter().enumerate().map(|(i, f)| {
        let at = f.at_ms();
        let remove = {
            let d = d.clone();
            Callback::from(move |_| d.emit(Action::RemoveFault(i)))
        };
        html! {
            <li class="fault">
                <div class="fault-head">
                    <span>{ fault_title(f) }</span>
                    <button class="btn small" aria-label={format!("Remove: {}", fault_title(f))} onclick={remove}>{ "Remove" }</button>
                </div>
                <div class="row">
                    { number(s, d, Field::FaultAt(i), "At", at.to_string(), "ms", Some(0)) }
                    { match f {
                        Fault::Pause { duration_ms, .. } | Fault::Partition { duration_ms, .. } => number(s, d, Field::FaultDuration(i), "For", duration_ms.to_string(), "ms", Some(0)),
                        Fault::ClockJump { by_ms, .. } => number(s, d, Field::FaultBy(i), "By", by_ms.to_string(), "ms", None),
                        Fault::Delay { extra_ms, .. } => number(s, d, Field::FaultExtra(i), "Held for", extra_ms.to_string(), "ms", Some(0)),
                        _ => html! {},
                    } }
                </div>
            </li>
        }
    });
    let add = {
        let kind = use_state(|| "pause".to_string());
        let who = use_state(|| String::new());
        let names = sc.actor_names();
        let actor = if names.contains(&*who) { (*who).clone() } else { names[0].clone() };
        let at_ms = ms_at(s.time_us());
        let on_kind = {
            let kind = kind.clone();
            Callback::from(move |e: Event| kind.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
        };
        let on_who = {
            let who = who.clone();
            Callback::from(move |e: Event| who.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
        };
        let fault = match kind.as_str() {
            "crash" => Fault::Crash { actor: actor.clone(), at_ms },
            "restart" => Fault::Restart { actor: actor.clone(), at_ms },
            "jump" => Fault::ClockJump { actor: actor.clone(), at_ms, by_ms: 10_000 },
            "delay" => Fault::Delay { from: actor.clone(), to: "resource".into(), at_ms, extra_ms: 30_000, count: 1 },
            _ => Fault::Pause { actor: actor.clone(), at_ms, duration_ms: 5_000 },
        };
        let on_add = {
            let d = d.clone();
            Callback::from(move |_| d.emit(Action::AddFault(fault.clone())))
        };
        html! {
            <div class="add-fault">
                <label>{ "Add" }
                    <select aria-label="Kind of fault" onchange={on_kind}>
                        { for [("pause", "a pause (5 s)"), ("crash", "a crash"), ("restart", "a restart"), ("jump", "a clock jump (+10 s)"), ("delay", "a held message to the resource (30 s)")].iter().map(|(v, l)| html! { <option value={*v} selected={*v == kind.as_str()}>{ *l }</option> }) }
                    </select>
                </label>
                <label>{ "to" }
                    <select aria-label="Actor" onchange={on_who}>
                        { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == actor}>{ n }</option> }) }
                    </select>
                </label>
                <span class="at">{ format!("at {}", fmt(at_ms as i64 * 1000)) }</span>
                <button class="btn" onclick={on_add}>{ "Add fault" }</button>
            </div>
        }
    };
    let file = {
        let d = d.clone();
        let paste = use_state(String::new);
        let download = {
            let sc = sc.clone();
            Callback::from(move |_| download_json(&sc))
        };
        let download_svg = {
            let (sc, run, cursor) = (sc.clone(), s.run.clone(), s.cursor);
            Callback::from(move |_| {
                let svg = draw::svg::render(&run, &sc, 1200.0, Some(cursor));
                save_file(&format!("{}-step-{}.svg", sc.id, cursor + 1), "image/svg+xml", &svg);
            })
        };
        let on_file = {
            let d = d.clone();
            Callback::from(move |e: Event| {
                let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
                let Some(f) = input.files().and_then(|l| l.get(0)) else { return };
                if f.size() > 1_000_000.0 {
                    d.emit(Action::Import(String::from("{\"too large\": true}")));
                    return;
                }
                let d = d.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    if let Ok(text) = wasm_bindgen_futures::JsFuture::from(f.text()).await {
                        d.emit(Action::Import(text.as_string().unwrap_or_default()));
                    }
                });
                input.set_value("");
            })
        };
        let on_paste = {
            let paste = paste.clone();
            Callback::from(move |e: InputEvent| paste.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()))
        };
        let open_paste = {
            let (paste, d) = (paste.clone(), d.clone());
            Callback::from(move |_| d.emit(Action::Import((*paste).clone())))
        };
        let err = s.error.as_ref().filter(|e| e.field == "import").map(|e| e.message.clone());
        html! {
            <fieldset>
                <legend>{ "Scenario file" }</legend>
                <div class="row">
                    <button class="btn" onclick={download}>{ "Download JSON" }</button>
                    <button class="btn" onclick={download_svg} title="The timeline at this step, as a standalone SVG for slides">{ "Download SVG" }</button>
                    <label class="btn file-btn">{ "Open a JSON file…" }<input type="file" accept=".json,application/json" class="sr-only" onchange={on_file} /></label>
                </div>
                <label class="paste-label" for="f-paste">{ "Or paste a scenario:" }</label>
                <textarea id="f-paste" rows="3" placeholder="{ \"version\": 1, … }" oninput={on_paste} aria-describedby={err.as_ref().map(|_| "f-import-error")} />
                <button class="btn" onclick={open_paste} disabled={paste.trim().is_empty()}>{ "Open pasted scenario" }</button>
                if let Some(e) = err { <p class="field-error" id="f-import-error" role="alert">{ e }</p> }
            </fieldset>
        }
    };
    html! {
        <div class="editor">
            <h2 class="panel-title">{ "Change the run" }</h2>
            <p class="hint">{ "Every change re-runs the simulation at once. Drag a pause on the timeline, or click a lane to add a fault there." }</p>
            { for fix }
            { for lock }
            { for redlock }
            <fieldset>
                <legend>{ "Fencing tokens and the resource" }</legend>
                { select(s, d, Field::TokenSource, "Token", &json_name(&sc.token.source), &[("counter", "a counter"), ("random-owner", "random owner value"), ("none", "none")]) }
                { select(s, d, Field::TokenStore, "Counter kept", &json_name(&sc.token.store), &[("durable", "durably"), ("redis", "on the Redis node")]) }
                { select(s, d, Field::Fencing, "Resource checks tokens", &json_name(&sc.resource.fencing), &[("none", "no"), ("atomic", "atomically"), ("check-then-write", "check, then write")]) }
                { select(s, d, Field::ResourceKind, "Resource", &json_name(&sc.resource.kind), &[("store", "storage service"), ("database", "database"), ("external", "external API")]) }
                { select(s, d, Field::Idempotency, "Idempotency keys", if sc.resource.idempotency { "true" } else { "false" }, &[("false", "no"), ("true", "yes")]) }
            </fieldset>
            <fieldset>
                <legend>{ "Network and run" }</legend>
                <div class="row">
                    { number(s, d, Field::LatencyMin, "Latency from", sc.network.latency_ms[0].to_string(), "ms", Some(0)) }
                    { number(s, d, Field::LatencyMax, "to", sc.network.latency_ms[1].to_string(), "ms", Some(0)) }
                </div>
                <div class="row">
                    { number(s, d, Field::Seed, "Seed", sc.seed.to_string(), "", Some(0)) }
                    { number(s, d, Field::Duration, "Duration", sc.duration_ms.to_string(), "ms", Some(1)) }
                </div>
            </fieldset>
            { for clients }
            { file }
            <fieldset>
                <legend>{ "Faults" }</legend>
                if sc.faults.is_empty() { <p class="hint">{ "No faults." }</p> }
                <ul class="faults">{ for faults }</ul>
                { add }
            </fieldset>
        </div>
    }
}
