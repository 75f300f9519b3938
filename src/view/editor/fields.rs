//! The editor's fields: [`Form`] draws a number, text or select field for a [`Field`], with its
//! label, unit and the message of a refused value next to it.

use yew::prelude::*;

use sim::scenario::settings::{Kind, Setting};
use sim::scenario::Scenario;

use crate::edit::Field;
use crate::state::{Action, FieldError};

/// The fields of one render of the editor: the refused edit to show, and where edits go.
pub struct Form<'a> {
    pub error: Option<&'a FieldError>,
    pub dispatch: &'a Callback<Action>,
}

impl Form<'_> {
    /// The field of a declared setting (sim::scenario::settings), with its value in `sc`.
    pub fn setting(&self, s: &'static Setting, sc: &Scenario) -> Html {
        self.of_kind(Field::Setting(s.path), s.label, s.kind, (s.get)(sc))
    }

    /// A field for a value of `kind`: a number with its unit, a decimal, or a select.
    pub fn of_kind(&self, field: Field, label: &str, kind: Kind, value: String) -> Html {
        match kind {
            Kind::Ms { min } => self.number(field, label, value, "ms", Some(min.get() as i64)),
            Kind::SignedMs => self.number(field, label, value, "ms", None),
            Kind::Ppm => self.number(field, label, value, "ppm", None),
            Kind::Count { min, .. } => self.number(field, label, value, "", Some(min as i64)),
            Kind::Decimal => self.text(field, label, value),
            Kind::Choice(options) => self.select(field, label, &value, options),
            Kind::Switch(off, on) => self.select(field, label, &value, &[("false", off), ("true", on)]),
        }
    }

    fn error_for(&self, f: &Field) -> Option<String> {
        self.error.filter(|e| e.field == f.id()).map(|e| e.message.clone())
    }

    /// A number field that commits on change (Enter, blur, or the spinner).
    pub fn number(&self, field: Field, label: &str, value: String, unit: &str, min: Option<i64>) -> Html {
        self.input_field(field, label, value, unit, Some(min))
    }

    /// A free-text field (for the one setting that is not a whole number).
    pub fn text(&self, field: Field, label: &str, value: String) -> Html {
        self.input_field(field, label, value, "", None)
    }

    /// An input with its label, unit and error; `number` is `Some(min)` for whole numbers.
    fn input_field(&self, field: Field, label: &str, value: String, unit: &str, number: Option<Option<i64>>) -> Html {
        let d = self.dispatch;
        let id = field.id();
        let err = self.error_for(&field);
        // A refused value stays where it was typed, beside its message.
        let value = self.error.filter(|e| e.field == id).and_then(|e| e.raw.clone()).unwrap_or(value);
        let onchange = {
            let d = d.clone();
            let field = field.clone();
            Callback::from(move |e: Event| {
                d.emit(Action::Edit(field.clone(), e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
            })
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
                if let Some(e) = err { <p class="field-error" id={err_id} role="alert">{ crate::view::prose(&e) }</p> }
            </div>
        }
    }

    /// A select of named options.
    pub fn select(&self, field: Field, label: &str, value: &str, options: &[(&'static str, &'static str)]) -> Html {
        let d = self.dispatch;
        let id = field.id();
        let err = self.error_for(&field);
        let onchange = {
            let d = d.clone();
            let field = field.clone();
            Callback::from(move |e: Event| {
                d.emit(Action::Edit(field.clone(), e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
            })
        };
        html! {
            <div class={classes!("field", err.is_some().then_some("bad"))}>
                <label for={id.clone()}>{ label }</label>
                <select id={id.clone()} onchange={onchange}>
                    { for options.iter().map(|(v, l)| html! { <option value={*v} selected={*v == value}>{ *l }</option> }) }
                </select>
                if let Some(e) = err { <p class="field-error" role="alert">{ crate::view::prose(&e) }</p> }
            </div>
        }
    }
}
