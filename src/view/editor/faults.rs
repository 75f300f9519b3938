//! The scenario's faults: each with its times and a Remove button ([`FaultList`]), and a row to
//! add one at the cursor ([`AddFault`], which alone follows the cursor).

use sim::scenario::{Fault, Scenario};
use sim::time::fmt;
use yew::prelude::*;

use super::fields::Form;
use crate::edit::Field;
use crate::state::{Action, ByPtr};

/// The cursor's time in milliseconds, given by the lab as a context so that only the
/// components that show it are rendered when it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CursorAt(pub u64);

/// The faults, each with its times and a Remove button.
pub fn fault_list(sc: &Scenario, form: &Form) -> Html {
    let d = form.dispatch;
    let faults = sc.faults.iter().enumerate().map(|(i, f)| {
        let at = f.at_ms();
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
                    { match f {
                        Fault::Pause { duration_ms, .. } | Fault::Partition { duration_ms, .. } => form.number(Field::FaultDuration(i), "For", duration_ms.to_string(), "ms", Some(0)),
                        Fault::ClockJump { by_ms, .. } => form.number(Field::FaultBy(i), "By", by_ms.to_string(), "ms", None),
                        Fault::Delay { extra_ms, .. } => form.number(Field::FaultExtra(i), "Held for", extra_ms.to_string(), "ms", Some(0)),
                        _ => html! {},
                    } }
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

/// "Add a pause / crash / … to <actor> at <the cursor's time>".
#[component]
pub fn AddFault(p: &AddFaultProps) -> Html {
    crate::view::probe::rendered("AddFault");
    let kind = use_state(|| "pause".to_string());
    let who = use_state(String::new);
    let names = p.scenario.actor_names();
    let actor = if names.contains(&*who) { (*who).clone() } else { names[0].clone() };
    let at_ms = use_context::<CursorAt>().map_or(0, |c| c.0);
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
        let d = p.dispatch.clone();
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
}
