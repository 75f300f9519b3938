//! "Embed": the snippets that put this exact run in another page, built from options chosen
//! with checkboxes, with a live preview and a Copy button for each. The `<lease-lab>` element
//! comes first: its picture at once, the program when the reader reaches for it, in the height
//! worked out for the iframe. Then `data-leaselab`: `embed.js` draws the run in the page at once,
//! so it takes the height it needs; then the iframe, with a height worked out from the run's
//! lanes and the controls chosen.

use yew::prelude::*;

use crate::share::Address;
use crate::state::{Latest, Screen};
use crate::view::address::embed_base;

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    /// Read when opened: the snippet is for the run and the step shown then.
    pub screen: Latest<Screen>,
}

/// The options an embed takes.
#[derive(Clone, Copy, PartialEq)]
struct Opts {
    controls: &'static str,
    autoplay: bool,
    compare: bool,
    /// "page" (the host page's, read by embed.js), "system" (the reader's), "light" or "dark".
    theme: &'static str,
    /// Readers may change the run.
    edit: bool,
}

/// What the snippets are made from, read once when the dialog opens.
#[derive(Clone, PartialEq)]
struct Source {
    /// Where the app lives (origin and path) and the run's address.
    base: String,
    address: Address,
    /// The run for `data-leaselab`: a library id (with its fix or not), or the whole scenario.
    scenario: sim::json::Value,
    fixed: bool,
    step: usize,
    has_fix: bool,
    /// The run's height as the timeline draws it, and its tallest narration, for the iframe's.
    timeline_px: f64,
    narration_px: f64,
    legend_px: f64,
}

/// The column an iframe's height is worked out for (a documentation page's), in pixels.
const COLUMN_PX: f64 = 760.0;

/// The height of the run's tallest narration in a [`COLUMN_PX`] column (and of its title's
/// bar's second line, if it has one): the line of time and actor, the sentence (15 px type) and
/// a key moment's note (14 px), each line about 0.55 em a letter wide, as the app's fonts are on
/// average, less the frame's and the box's padding.
fn narration_px(s: &Screen) -> f64 {
    let lines = |text: &str, width: f64, size: f64| (text.chars().count() as f64 * size * 0.55 / width).ceil().max(1.0);
    let text_px = COLUMN_PX - 16.0 - 32.0;
    let tallest = s.run.events.iter().map(|e| {
        let text = lines(&sim::narrate::text(&s.scenario, &s.run, e), text_px, 15.0) * 21.75;
        let moment = s.run.moment(e.id).map_or(0.0, |m| 18.0 + lines(m, text_px - 20.0, 14.0) * 20.3);
        // The line of belief against truth (13 px), where a client believes a lease that ended.
        let belief = crate::view::controls::disagreement(&s.run, e.at_us).map_or(0.0, |d| 4.0 + lines(&d, text_px, 13.0) * 19.5);
        text + moment + belief
    });
    // The line of time and actor, the box's padding and border; and a second line of the bar
    // above the run when a long title (15 px bold, about 0.57 em a letter) leaves too little
    // room beside it for the verdict and "Open in Lease Lab ↗" (about 235 pixels).
    let bar = if s.original.title.chars().count() as f64 * 8.6 + 235.0 > COLUMN_PX - 16.0 { 29.0 } else { 0.0 };
    // One line more than the letters' count makes, for words carried to the next line and code
    // set wider (measured over the library: without it, six scenarios were cut by 13 pixels).
    tallest.fold(0.0, f64::max) + 17.0 + 4.0 + 22.0 + bar + 21.75
}

/// The height of the run's legend in a [`COLUMN_PX`] column: its heading, and a row of 24
/// pixels for each row the export's layout of the same entries takes (the app's type and gaps
/// are a little smaller, so it takes as many rows or fewer).
fn legend_px(s: &Screen) -> f64 {
    let l = draw::layout::layout(&s.run, &s.scenario, COLUMN_PX);
    let beside = draw::legend::Beside {
        leases: !draw::lease::Leases::of(&s.run, &s.scenario).is_empty(),
        moments: !s.facts.moments().is_empty(),
        violations: !s.facts.violations().is_empty(),
    };
    let rows = draw::legend::rows(draw::legend::kinds(&l, beside, None), COLUMN_PX - 36.0).len();
    22.0 + 24.0 * rows as f64
}

fn source(s: &Screen, base: String, address: Address) -> Source {
    let library = sim::library::get(&s.original.id).is_some_and(|l| l == *s.original);
    let fixed_as_is = s.original.fixed().and_then(Result::ok).is_some_and(|f| f == *s.scenario);
    let scenario = if library && (s.as_written || fixed_as_is) {
        sim::json::Value::String(s.original.id.clone())
    } else {
        crate::share::loadable(&s.scenario).to_value()
    };
    Source {
        base,
        address,
        fixed: fixed_as_is && scenario.is_string(),
        scenario,
        step: s.cursor + 1,
        has_fix: s.original.fix.is_some(),
        timeline_px: draw::layout::layout(&s.run, &s.scenario, 800.0).height,
        narration_px: narration_px(s),
        legend_px: legend_px(s),
    }
}

impl Source {
    fn iframe_src(&self, o: Opts) -> String {
        let mut extra = String::from("&embed=1");
        if o.controls != "full" {
            extra.push_str(&format!("&controls={}", o.controls));
        }
        if o.autoplay {
            extra.push_str("&autoplay=1");
        }
        if o.compare {
            extra.push_str("&compare=fix");
        }
        // The reader's system is the frame's own choice; "page" asks embed.js for the page's.
        if o.theme != "system" {
            extra.push_str(&format!("&theme={}", o.theme));
        }
        if o.edit {
            extra.push_str("&edit=1");
        }
        format!("{}{}", self.base, self.address.with(&extra))
    }

    /// The height an iframe needs in a [`COLUMN_PX`] column: the zoom bar, the timeline (twice
    /// when compared), the legend (as many rows as its entries take: up to seven), the controls
    /// chosen and the run's tallest narration.
    fn height(&self, o: Opts) -> u32 {
        // As drawn in a 760-pixel column (120 and 112 pixels), with the gap above them.
        let controls = match o.controls {
            "full" => 130.0,
            "play" => 122.0,
            _ => 0.0,
        };
        // The compared run: its caption, its timeline and its head (measured over the library:
        // up to 100 pixels besides the timeline, as tall as the run's).
        let compared = if o.compare { self.timeline_px + 100.0 } else { 0.0 };
        // The bar above the run, the zoom bar, the timeline, its legend, the compared run, the
        // controls, the tallest narration, and the frame's and boxes' padding.
        (40.0 + 28.0 + self.timeline_px + self.legend_px + compared + controls + self.narration_px + 30.0).round() as u32
    }

    /// The iframe, and embed.js, which grows it to fit a narrower column or a longer step, and
    /// gives it the page's colours; without the script it keeps its height and the system's.
    fn iframe(&self, o: Opts, title: &str) -> String {
        format!(
            "<iframe src=\"{}\" title=\"Lease Lab: {}\" width=\"100%\" height=\"{}\" style=\"border:0\" loading=\"lazy\"></iframe>\n{}",
            self.iframe_src(o),
            title.replace('"', "&quot;").replace('<', "&lt;"),
            self.height(o),
            self.loader()
        )
    }

    /// The script tag of embed.js: a classic script, which any static host can serve to any page.
    fn loader(&self) -> String {
        let app = self.base.rsplit_once('/').map_or(String::new(), |(dir, _)| format!("{dir}/"));
        format!("<script src=\"{app}embed.js\" async></script>")
    }

    /// The options chosen, as `data-leaselab`'s JSON has them and `<lease-lab>`'s attributes.
    fn options(&self, o: Opts) -> sim::json::Map {
        let mut opts = sim::json::Map::new();
        let mut put = |key: &str, v: sim::json::Value| opts.insert(key.to_string(), v);
        put("scenario", self.scenario.clone());
        put("step", self.step.into());
        if self.fixed {
            put("fix", true.into());
        }
        if o.controls != "full" {
            put("controls", o.controls.into());
        }
        if o.autoplay {
            put("autoplay", true.into());
        }
        if o.compare {
            put("compare", "fix".into());
        }
        if o.theme != "page" {
            put("theme", o.theme.into());
        }
        if o.edit {
            put("edit", true.into());
        }
        opts
    }

    /// `<lease-lab>`: its picture at once in the height the run needs (the iframe's), the live
    /// run when the reader reaches for it. A run not in the library is the author's own file.
    fn element(&self, o: Opts) -> String {
        let mut attrs = String::new();
        for (k, v) in self.options(o).iter() {
            // A library id, a step, an option's value (no quotes or ampersands in any), a flag
            // written alone, or a run of the author's own as its file.
            let v = v.to_string();
            let v = if v.starts_with('{') {
                " src=\"my-run.json\"".into()
            } else if v == "true" {
                format!(" {k}")
            } else {
                format!(" {k}=\"{}\"", v.trim_matches('"'))
            };
            attrs.push_str(&v);
        }
        format!("{}\n<lease-lab{attrs} height=\"{}\"></lease-lab>", self.loader(), self.height(o))
    }

    fn script(&self, o: Opts) -> String {
        let opts = sim::json::Value::Object(self.options(o));
        format!("{}\n<div data-leaselab='{}'></div>", self.loader(), opts.to_string().replace('&', "&amp;").replace('\'', "&#39;"))
    }
}

/// The embed's controls and colours: (the option's value, what the dialog calls it).
const CONTROLS: [(&str, &str); 3] = [("full", "all"), ("play", "play only"), ("none", "none")];
const THEMES: [(&str, &str); 4] = [("page", "the page's"), ("system", "the reader's system's"), ("light", "light"), ("dark", "dark")];

/// A labelled select of `choices`; `on` gets the value picked.
fn select(label: &'static str, choices: &'static [(&'static str, &'static str)], current: &str, on: Callback<&'static str>) -> Html {
    let onchange = Callback::from(move |e: Event| {
        let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        if let Some((value, _)) = choices.iter().find(|c| c.0 == v) {
            on.emit(value);
        }
    });
    html! {
        <label>{ format!("{label} ") }
            <select aria-label={label} {onchange}>
                { for choices.iter().map(|(v, text)| html! { <option value={*v} selected={*v == current}>{ *text }</option> }) }
            </select>
        </label>
    }
}

/// One snippet: what it is, its Copy button, and its text.
fn snippet(note: &str, class: &'static str, label: &'static str, text: String) -> Html {
    html! {
        <>
            <p class="embed-form">{ note }<button class="btn small" onclick={copy(text.clone())}>{ "Copy" }</button></p>
            <textarea {class} readonly=true rows="3" aria-label={label} value={text} />
        </>
    }
}

fn copy(text: String) -> Callback<MouseEvent> {
    Callback::from(move |_| {
        if let Some(clip) = crate::view::window().map(|w| w.navigator().clipboard()) {
            let _ = clip.write_text(&text);
        }
    })
}

/// The Embed button and its dialog.
#[component]
pub fn EmbedButton(p: &EmbedProps) -> Html {
    let source = use_state(|| None::<Source>);
    let title = use_state(String::new);
    let opts = use_state(|| Opts { controls: "full", autoplay: false, compare: false, theme: "page", edit: false });
    let toggle = {
        let (source, title, opts, s) = (source.clone(), title.clone(), opts.clone(), p.screen.clone());
        Callback::from(move |_| {
            if source.is_some() {
                return source.set(None);
            }
            let (source, title, opts, s) = (source.clone(), title.clone(), opts.clone(), s.get());
            // Comparing with the fix (or without it): offered checked, like the lab.
            let pair = s.compare.as_ref().is_some_and(|o| o.against != crate::state::Against::Before);
            opts.set(Opts { compare: pair, ..*opts });
            wasm_bindgen_futures::spawn_local(async move {
                let (base, address) = embed_base(&s).await;
                title.set(s.original.title.clone());
                source.set(Some(self::source(&s, base, address)));
            });
        })
    };
    let Some(src) = (*source).clone() else {
        return html! { <button class="btn" onclick={toggle} aria-expanded="false">{ "Embed" }</button> };
    };
    let o = *opts;
    let set = |f: fn(Opts, &web_sys::HtmlInputElement) -> Opts| {
        let opts = opts.clone();
        Callback::from(move |e: Event| opts.set(f(*opts, &e.target_unchecked_into())))
    };
    let on_controls = {
        let opts = opts.clone();
        Callback::from(move |controls| opts.set(Opts { controls, ..*opts }))
    };
    let on_theme = {
        let opts = opts.clone();
        Callback::from(move |theme| opts.set(Opts { theme, ..*opts }))
    };
    let (element, script, iframe) = (src.element(o), src.script(o), src.iframe(o, &title));

    html! {
        <>
            <button class="btn" onclick={toggle.clone()} aria-expanded="true">{ "Embed" }</button>
            <div class="copied embed-dialog" role="dialog" aria-label="Embed this run">
                <div class="embed-head">
                    <strong>{ "Put this run, at this step, in your page" }</strong>
                    <button class="btn small" aria-label="Close" onclick={toggle}>{ "×" }</button>
                </div>
                <div class="embed-options">
                    { select("Controls", &CONTROLS, o.controls, on_controls) }
                    { select("Colours", &THEMES, o.theme, on_theme) }
                    <label><input type="checkbox" checked={o.autoplay} onchange={set(|o, i| Opts { autoplay: i.checked(), ..o })} />{ " play on load" }</label>
                    <label><input type="checkbox" checked={o.edit} onchange={set(|o, i| Opts { edit: i.checked(), ..o })} />{ " readers may change it" }</label>
                    if src.has_fix {
                        <label><input type="checkbox" checked={o.compare} onchange={set(|o, i| Opts { compare: i.checked(), ..o })} />{ " with its fix below" }</label>
                    }
                </div>
                { snippet("As an element: its picture at once, live on a click or Tab (a run of your own: Download JSON, as my-run.json beside the page).", "snippet-element", "Embed snippet, element", element) }
                { snippet("With a script, from any static host: the run takes the height it needs (on another site, in a frame from here).", "snippet-script", "Embed snippet, script", script) }
                { snippet(&format!("Or an iframe: {} pixels high in a {COLUMN_PX}-pixel column; the script line grows it to fit and gives it the page's colours (without it, the reader's system's):", src.height(o)), "snippet-iframe", "Embed snippet, iframe", iframe) }
                <p class="embed-form">{ "Preview:" }</p>
                <iframe class="embed-preview" src={src.iframe_src(o)} title="Preview of the embedded run" height={src.height(o).to_string()} loading="lazy"></iframe>
            </div>
        </>
    }
}
