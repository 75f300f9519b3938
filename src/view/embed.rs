//! A run embedded in another page: [`mount_into`], which draws a run in a shadow root of its
//! own, with its options ([`Embed`], in `embed_options.rs`, which the lab reads too: this file
//! draws the lab, and the lab does not import it).

use std::rc::Rc;

use sim::scenario::Scenario;

use crate::state::Screen;
use crate::view::embed_options::{ControlsShown, Embed, Theme};
use crate::view::lab::{Lab, LabProps};

/// An embed's option as a string: the library id in `scenario: "gc-pause-fenced"`, whose file
/// must be fetched before the run is mounted, or the `stylesheet` beside which the Lease Lab
/// deployment keeps its files.
pub fn string_option(options: &wasm_bindgen::JsValue, key: &str) -> Option<String> {
    js_sys::Reflect::get(options, &wasm_bindgen::JsValue::from_str(key)).ok().and_then(|v| v.as_string())
}

/// Mounts one run into an element of another page, in a shadow root of its own.
pub fn mount_into(element: &web_sys::Element, options: &wasm_bindgen::JsValue) -> Result<(), String> {
    use wasm_bindgen::JsValue;
    let get = |k: &str| js_sys::Reflect::get(options, &JsValue::from_str(k)).ok().filter(|v| !v.is_undefined() && !v.is_null());
    if let Some(e) = get("error").and_then(|v| v.as_string()) {
        return Err(e);
    }
    let scenario = match get("scenario") {
        None => return Err("options.scenario is missing: give a library id such as \"gc-pause-fenced\", or a scenario".into()),
        Some(v) if v.is_string() => {
            let id = v.as_string().unwrap_or_default();
            sim::library::get(&id).ok_or_else(|| format!("there is no scenario called “{id}” in the library"))?
        }
        Some(v) => {
            let text = js_sys::JSON::stringify(&v).ok().and_then(|s| s.as_string()).ok_or("options.scenario is not a scenario object")?;
            Scenario::parse(&text).map_err(|e| format!("options.scenario is not valid: {e}"))?
        }
    };
    let fix = get("fix").and_then(|v| v.as_bool()).unwrap_or(false);
    let has_fix = scenario.fix.is_some();
    if fix && !has_fix {
        return Err(format!("{} has no one-click fix", scenario.id));
    }
    let mut s = Screen::new(scenario, fix).map_err(|e| format!("the scenario cannot run: {e}"))?;
    if let Some(step) = get("step") {
        let n = step.as_f64().filter(|n| *n >= 1.0 && n.fract() == 0.0).ok_or("options.step must be a step number (1, 2, 3, …)")?;
        s.cursor = (n as usize - 1).min(s.steps().saturating_sub(1));
    }
    let controls = match get("controls").and_then(|v| v.as_string()).as_deref() {
        None | Some("full") => ControlsShown::Full,
        Some("play") => ControlsShown::Play,
        Some("none") => ControlsShown::None,
        Some(other) => return Err(format!("options.controls is “{other}”: use full, play or none")),
    };
    let autoplay = get("autoplay").and_then(|v| v.as_bool()).unwrap_or(false);
    s.playing = autoplay;
    let compare_fix = match get("compare").and_then(|v| v.as_string()).as_deref() {
        None => false,
        Some("fix") if has_fix => true,
        Some("fix") => return Err(format!("options.compare is “fix”, but {} has no one-click fix", s.original.id)),
        Some(other) => return Err(format!("options.compare is “{other}”: the only comparison an embed offers is “fix”")),
    };
    if compare_fix {
        s = s.comparing_fix();
    }
    let theme = match get("theme") {
        None => Theme::Auto,
        Some(v) => v
            .as_string()
            .as_deref()
            .and_then(Theme::parse)
            .ok_or_else(|| format!("options.theme is {}: use light, dark or auto", describe(&v)))?,
    };
    let editable = match get("edit") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| format!("options.edit is {}: use true or false", describe(&v)))?,
    };
    let stylesheet = get("stylesheet").and_then(|v| v.as_string());
    let app_base = stylesheet.as_ref().map(|css| css.rsplit_once('/').map(|(b, _)| format!("{b}/")).unwrap_or_default());
    let doc = crate::view::window().and_then(|w| w.document()).ok_or("no document")?;
    let shadow = element
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .map_err(|_| "this element already holds a run (or cannot hold one)".to_string())?;
    if let Some(css) = stylesheet {
        let link = doc.create_element("link").map_err(|_| "cannot create a link")?;
        let _ = link.set_attribute("rel", "stylesheet");
        let _ = link.set_attribute("href", &css);
        let _ = shadow.append_child(&link);
    }
    let root = doc.create_element("div").map_err(|_| "cannot create an element")?;
    if let Some(t) = theme.attribute() {
        let _ = root.set_attribute("data-theme", t);
    }
    shadow.append_child(&root).map_err(|_| "cannot attach the run")?;
    let embed = Embed { controls, autoplay, app_base, compare_fix, theme, editable, problems: Vec::new() };
    yew::Renderer::<Lab>::with_root_and_props(
        root,
        LabProps { start: Rc::new(s), embed: Some(embed), active: true, nav: None, open: None },
    )
    .render();
    Ok(())
}

/// An option's value as a message quotes it: a string in quotes, anything else as JSON.
fn describe(v: &wasm_bindgen::JsValue) -> String {
    match v.as_string() {
        Some(s) => format!("“{s}”"),
        None => js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()).unwrap_or_else(|| "not a string".into()),
    }
}
