//! The scenario's faults: each with its times and a Remove button ([`FaultList`]), and a row to
//! add one at the cursor ([`AddFault`], which alone follows the cursor).

use sim::scenario::fault_kinds::{self, FaultKind, Target, FAULTS};
use sim::scenario::Scenario;
use sim::time::{fmt, Millis};
use yew::prelude::*;

use super::fields::Form;
use crate::edit::Field;
use crate::state::{Action, ByPtr};

/// The cursor's time in milliseconds, given by the lab as a context so that only the
/// components that show it are rendered when it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CursorAt(pub Millis);

/// The faults, each with its times and a Remove button.
pub fn fault_list(sc: &Scenario, form: &Form) -> Html {
    let d = form.dispatch;
    let faults = sc.faults.iter().enumerate().map(|(i, f)| {
        let at = f.at_ms();
        let kind = fault_kinds::kind_of(f);
        let remove = {
            let d = d.clone();
            Callback::from(move |_| d.emit(Action::RemoveFault(i)))
        };
        html! {
            <li class="fault">
                <div class="fault-head">
                    <span>{ f.describe() }</span>
                    <button class="btn small" aria-label={format!("Remove: {}", f.describe())} onclick={remove}>{ "Remove" }</button>
                </div>
                <div class="row">
                    { form.number(Field::FaultAt(i), "At", at.to_string(), "ms", Some(0)) }
                    { for kind.fields.iter().map(|d| form.of_kind(Field::FaultField(i, d.name), d.label, d.kind, kind.get(f, d.name).unwrap_or_default().to_string())) }
                </div>
            </li>
        }
    });
    html! { <ul class="faults">{ for faults }</ul> }
}

#[derive(Properties, PartialEq)]
pub struct AddFaultProps {
    pub scenario: ByPtr<Scenario>,
    pub dispatch: Callback<Action>,
}

/// "Add <a kind of fault> to <whom> at <the cursor's time>": every kind the engine has
/// (sim::scenario::fault_kinds::FAULTS) that fits the scenario, striking an actor, cutting one
/// off, or holding or losing the messages from one actor to another.
#[component]
pub fn AddFault(p: &AddFaultProps) -> Html {
    crate::view::probe::rendered("AddFault");
    let kind = use_state(|| "pause");
    let who = use_state(String::new);
    let to = use_state(String::new);
    let sc = &*p.scenario;
    let kinds: Vec<&FaultKind> = FAULTS.iter().filter(|k| (k.fits)(sc)).collect();
    let k = kinds.iter().find(|k| k.tag == *kind).copied().unwrap_or(kinds[0]);
    let mut names = sc.actor_names();
    if k.target == Target::Server {
        // The lock service's lanes: between the clients and the resource.
        names = names[sc.clients.len()..names.len() - 1].to_vec();
    }
    let pick = |chosen: &str, or: &String| if names.iter().any(|n| n == chosen) { chosen.to_string() } else { or.clone() };
    let actor = pick(&who, &names[0]);
    // Held or lost messages go to the resource unless another lane is chosen.
    let other = names.iter().rev().find(|n| **n != actor).unwrap_or(&names[0]).clone();
    let dest = if *to == actor { other } else { pick(&to, &other) };
    let at_ms = use_context::<CursorAt>().map_or(Millis::ZERO, |c| c.0);
    let fault = k.new_fault(&actor, &dest, at_ms);
    let set = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: Event| state.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            if let Some(k) = FAULTS.iter().find(|k| k.tag == v) {
                kind.set(k.tag);
            }
        })
    };
    let on_add = {
        let d = p.dispatch.clone();
        let fault = fault.clone();
        Callback::from(move |_| {
            if let Ok(f) = &fault {
                d.emit(Action::AddFault(f.clone()))
            }
        })
    };
    // A receiver is another lane than the sender (`but`).
    let lane = |label: &str, aria: &str, chosen: &str, but: Option<&str>, onchange: Callback<Event>| {
        html! {
            <label>{ label.to_string() }
                <select aria-label={aria.to_string()} {onchange}>
                    { for names.iter().filter(|n| Some(n.as_str()) != but).map(|n| html! { <option value={n.clone()} selected={n == chosen}>{ n }</option> }) }
                </select>
            </label>
        }
    };
    html! {
        <div class="add-fault">
            <label>{ "Add" }
                <select aria-label="Kind of fault" onchange={on_kind}>
                    { for kinds.iter().map(|o| html! { <option value={o.tag} selected={o.tag == k.tag}>{ o.label }</option> }) }
                </select>
            </label>
            { match k.target {
                Target::Actor | Target::Server => lane("to", "Actor", &actor, None, set(&who)),
                Target::Isolate => lane("cutting off", "Actor", &actor, None, set(&who)),
                Target::Link => html! { <>{ lane("from", "Actor", &actor, None, set(&who)) }{ lane("to", "Receiver", &dest, Some(&actor), set(&to)) }</> },
                Target::Service => html! {},
            } }
            <span class="at">{ format!("at {}", fmt(at_ms.to_micros())) }</span>
            <button class="btn" onclick={on_add} disabled={fault.is_err()}>{ "Add fault" }</button>
        </div>
    }
}
