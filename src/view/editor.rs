//! "Change the run": the scenario's parameters and faults ([`Editor`]). A refused value is
//! explained next to its field, and the last good run stays on screen. The editor is not
//! rendered on a playback tick: only [`AddFault`] follows the cursor.

use sim::scenario::{Scenario, Step};
use yew::prelude::*;

use sim::scenario::settings::{settings_of, Section};
use sim::scenario::LockKind;

use crate::edit::Field;
use crate::state::{Action, ByPtr, FieldError, Latest, Screen};

mod faults;
mod fields;
mod file;

use faults::fault_list;
pub use faults::{AddFault, CursorAt};
use fields::Form;
use file::FileBox;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub scenario: ByPtr<Scenario>,
    /// The scenario as opened: its fix.
    pub original: ByPtr<Scenario>,
    pub fixed: bool,
    /// The run is the lesson's with its fix and nothing else (`Screen::fixed_as_written`).
    pub fixed_as_written: bool,
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
                // The explanation tells the lesson's run with the fix; on a run with other changes
                // it may not be true, so it says whose run it tells.
                if on && !p.fixed_as_written {
                    <p class="scope">{ "In the lesson as written, with the fix (your run has other changes too):" }</p>
                }
                <p>{ &f.explain }</p>
                <button class="btn primary" aria-pressed={on.to_string()} onclick={Callback::from(move |_| d.emit(Action::ToggleFix))}>
                    { if on { "Undo the fix".to_string() } else { f.label.clone() } }
                </button>
            </div>
        }
    });
    // Every setting the scenario's lock service, its resource and its run have
    // (sim::scenario::settings): a service's settings are the editor's as soon as they are declared.
    let section = |which: Section| -> Vec<Html> { settings_of(sc).filter(|s| s.section == which).map(|s| form.setting(s, sc)).collect() };
    let lock = section(Section::Lock);
    let lock = (!lock.is_empty()).then(|| {
        html! {
            <fieldset>
                <legend>{ LockKind::title(sc.lock.kind) }</legend>
                { for lock }
            </fieldset>
        }
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
            <fieldset>
                <legend>{ "Fencing tokens and the resource" }</legend>
                { for section(Section::Resource) }
            </fieldset>
            <fieldset>
                <legend>{ "Network and run" }</legend>
                <div class="row">{ for section(Section::Run) }</div>
            </fieldset>
            { for clients }
            <FileBox scenario={p.scenario.clone()} error={p.error.clone()} screen={p.screen.clone()} dispatch={p.dispatch.clone()} />
            <fieldset>
                <legend>{ "Faults" }</legend>
                if sc.faults.is_empty() { <p class="hint">{ "No faults." }</p> }
                { fault_list(sc, &form) }
                <AddFault key={sc.id.clone()} scenario={p.scenario.clone()} dispatch={p.dispatch.clone()} />
            </fieldset>
        </div>
    }
}
