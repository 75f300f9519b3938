//! The scenario as a file: download it as JSON or the timeline as SVG, open a JSON file or a
//! pasted scenario ([`FileBox`]).

use sim::scenario::Scenario;
use yew::prelude::*;

use crate::state::{Action, ByPtr, FieldError, Latest, Screen};

/// Saves the scenario as `<id>.json`.
fn download_json(sc: &Scenario) {
    save_file(&format!("{}.json", sc.id), "application/json", &sc.to_json());
}

/// Saves text as a file through a temporary object URL.
fn save_file(name: &str, mime: &str, text: &str) {
    use wasm_bindgen::JsCast;
    let Some(doc) = crate::view::window().and_then(|w| w.document()) else { return };
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

#[derive(Properties, PartialEq)]
pub struct FileProps {
    pub scenario: ByPtr<Scenario>,
    pub error: Option<FieldError>,
    /// Read when "Download SVG" is pressed: the timeline at the step shown then.
    pub screen: Latest<Screen>,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn FileBox(p: &FileProps) -> Html {
    let d = p.dispatch.clone();
    let paste = use_state(String::new);
    let download = {
        let sc = p.scenario.clone();
        Callback::from(move |_| download_json(&sc))
    };
    let download_svg = {
        let screen = p.screen.clone();
        Callback::from(move |_| {
            // The run and the step shown when the button is pressed.
            let s = screen.get();
            let (sc, cursor) = (&s.scenario, s.cursor);
            // Two runs compared are exported as they are shown: one above the other.
            let svg = match &s.compare {
                Some(o) => {
                    let at = s.run.events.get(cursor).map(|e| e.at_us);
                    let top = if s.fixed() { "With the fix" } else { "This run" };
                    draw::svg::render_compare((&s.run, sc, top), (&o.run, &o.scenario, &o.label), draw::svg::WIDTH, at)
                }
                None => draw::svg::render(&s.run, sc, draw::svg::WIDTH, Some(cursor)),
            };
            save_file(&format!("{}-step-{}.svg", sc.id, cursor + 1), "image/svg+xml", &svg);
        })
    };
    let on_file = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
            let Some(f) = input.files().and_then(|l| l.get(0)) else { return };
            // The bytes as they are (`text()` would decode UTF-16 and hide bad bytes behind
            // "�"), and of a larger file only as many as tell that it is too large: the command
            // line's rule, applied by `Scenario::from_bytes`.
            let enough = sim::scenario::limits::SCENARIO_BYTES as f64 + 1.0;
            let d = d.clone();
            if let Ok(part) = f.slice_with_f64_and_f64(0.0, enough) {
                wasm_bindgen_futures::spawn_local(async move {
                    match wasm_bindgen_futures::JsFuture::from(part.array_buffer()).await {
                        Ok(buffer) => d.emit(Action::Import(js_sys::Uint8Array::new(&buffer).to_vec())),
                        Err(e) => d.emit(Action::Refuse(format!("The file could not be read: {}.", crate::library::describe(&e)))),
                    }
                });
            }
            input.set_value("");
        })
    };
    let on_paste = {
        let paste = paste.clone();
        Callback::from(move |e: InputEvent| paste.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()))
    };
    let open_paste = {
        let (paste, d) = (paste.clone(), d.clone());
        Callback::from(move |_| d.emit(Action::Import(paste.as_bytes().to_vec())))
    };
    let err = p.error.as_ref().filter(|e| e.field == "import").map(|e| e.message.clone());
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
            if let Some(e) = err { <p class="field-error" id="f-import-error" role="alert">{ crate::view::prose(&e) }</p> }
        </fieldset>
    }
}
