//! The header, of one shape on every scenario: [`Header`] (the site's pages, the scenario picker,
//! the verdict, Share (copy a link, embed), help); the lesson's own actions (the fix, predict
//! mode) are in the story card ([`lesson_actions`]). And the keyboard help, [`help_dialog`].

use sim::scenario::Scenario;
use yew::prelude::*;

use crate::state::{Action, ByPtr, Latest, Screen};
use crate::view::address::link_to;
use crate::view::keys::KEYS;
use crate::view::pages::{site_nav, Page};

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    pub original: ByPtr<Scenario>,
    pub safe: bool,
    /// Predict mode hides the verdict until the end.
    pub hidden_verdict: bool,
    /// The screen as it is when a link is asked for.
    pub screen: Latest<Screen>,
    pub dispatch: Callback<Action>,
    #[prop_or_default]
    pub nav: Option<Callback<Page>>,
}

#[component]
pub fn Header(p: &HeaderProps) -> Html {
    crate::view::probe::rendered("Header");
    let safe = p.safe;
    let original = &p.original;
    let all = sim::library::INDEX;
    let own = !all.iter().any(|x| x.id == original.id);
    let on_pick = {
        // What the picker shows now: the lesson, or the option that names one's own scenario.
        let (d, current) = (p.dispatch.clone(), if own { String::new() } else { original.id.clone() });
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            // If the lesson cannot be had, the picker goes back to the one shown.
            let (v, shown) = (select.value(), current.clone());
            crate::library::open(&v, false, d.clone(), Callback::from(move |()| select.set_value(&shown)));
        })
    };
    let help = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.emit(Action::ToggleHelp))
    };
    html! {
        <header class="top">
            { crate::view::pages::brand() }
            if let Some(nav) = &p.nav {
                { site_nav(Page::Lab, nav) }
            }
            <label class="pick">
                <span class="sr-only">{ "Scenario" }</span>
                <select onchange={on_pick} aria-label="Scenario">
                    // One's own scenario (opened from a file, a pasted text or a link) is not a
                    // lesson: the picker names it, rather than show a lesson that is not on screen.
                    if own {
                        <option value="" selected=true disabled=true>{ format!("Your scenario: {}", original.title) }</option>
                    }
                    { for sim::library::CHAPTERS.iter().filter(|(c, _)| all.iter().any(|x| x.chapter == *c)).map(|(c, title)| html! {
                        <optgroup label={*title}>
                            { for all.iter().filter(|x| x.chapter == *c).map(|x| html! {
                                <option value={x.id} selected={x.id == original.id}>{ x.title }</option>
                            }) }
                        </optgroup>
                    }) }
                </select>
            </label>
            if p.hidden_verdict {
                <span class="verdict-badge hidden" role="status" aria-label="Verdict: hidden until the end (predict mode)">{ "? verdict hidden" }</span>
            } else {
                <span class={classes!("verdict-badge", if safe { "safe" } else { "unsafe" })} role="status" aria-label={format!("Verdict: {}", if safe { "safe" } else { "unsafe" })}>
                    { if safe { "✓ safe" } else { "✗ unsafe" } }
                </span>
            }
            <Share screen={p.screen.clone()} />
            <button class="btn ghost help" aria-label="Keyboard help (?)" onclick={help}>{ "?" }</button>
        </header>
    }
}

/// Share: "Copy link" and "Embed", behind one button so that the header keeps its shape. The
/// copied link is shown below its button until closed, or until the menu closes (on its button,
/// a press outside it, or Escape).
#[component]
fn Share(p: &ShareProps) -> Html {
    let open = use_state(|| false);
    let shown = use_state(|| None::<String>);
    // Embed opens its dialog in place of the popover: the menu's own buttons go (it stays
    // mounted only to hold the dialog), and closing the dialog closes the whole of it.
    let embedding = use_state(|| false);
    let toggle = {
        let (open, shown, embedding) = (open.clone(), shown.setter(), embedding.setter());
        Callback::from(move |_| {
            shown.set(None);
            embedding.set(false);
            open.set(!*open)
        })
    };
    let inside = use_node_ref();
    let close = {
        let (open, shown, embedding) = (open.setter(), shown.setter(), embedding.setter());
        use_callback((), move |_: (), _| {
            shown.set(None);
            embedding.set(false);
            open.set(false)
        })
    };
    crate::view::dismiss::use_dismiss(*open, inside.clone(), close.clone());
    let on_embed = {
        let embedding = embedding.setter();
        Callback::from(move |e: MouseEvent| {
            use wasm_bindgen::JsCast;
            let Some(button) =
                e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|el| el.closest("button").ok().flatten())
            else {
                return;
            };
            if button.get_attribute("aria-label").as_deref() == Some("Close") && button.closest(".embed-dialog").ok().flatten().is_some() {
                close.emit(());
            } else if button.text_content().as_deref() == Some("Embed") {
                embedding.set(true);
            }
        })
    };
    let menu_open = *open && !*embedding;
    html! {
        <div class="share" ref={inside}>
            <button class="btn share-toggle" aria-expanded={menu_open.to_string()} aria-controls="share-menu" onclick={toggle}>{ "Share ▾" }</button>
            if *open {
                <div class={classes!("share-menu", embedding.then_some("embedding"))} id="share-menu">
                    if !*embedding { { copy_link(&p.screen, &shown) } }
                    <div class="embed-slot" onclick={on_embed}>
                        <crate::view::embed_dialog::EmbedButton screen={p.screen.clone()} />
                    </div>
                </div>
            }
        </div>
    }
}

/// What the lesson's actions draw (a plain function's arguments: they render with the story).
pub struct LessonActionsProps {
    pub original: ByPtr<Scenario>,
    pub fixed: bool,
    pub predict: bool,
    pub has_quiz: bool,
    pub dispatch: Callback<Action>,
}

/// The lesson's actions, in its card: the one-click fix and predict mode.
pub fn lesson_actions(p: &LessonActionsProps) -> Html {
    let original = &p.original;
    let fix = original.fix.as_ref().map(|f| {
        let d = p.dispatch.clone();
        let on = p.fixed;
        html! {
            <button class={classes!("btn", "fix", on.then_some("on"))} aria-pressed={on.to_string()}
                title={f.explain.clone()} onclick={Callback::from(move |_| d.emit(Action::ToggleFix))}>
                { if on { format!("Fixed: {} · undo", f.label) } else { format!("Fix: {}", f.label) } }
            </button>
        }
    });
    html! {
        <div class="lesson-actions">
            // While predicting, the fix would answer the question before it is asked.
            if !p.predict { { for fix } }
            if p.has_quiz {
                <button class={classes!("btn", "predict-toggle", p.predict.then_some("on"))} aria-pressed={p.predict.to_string()}
                    title="Predict mode (P): the run stops at key moments and asks what happens next"
                    onclick={let d = p.dispatch.clone(); Callback::from(move |_| d.emit(Action::TogglePredict))}>
                    { if p.predict { "Predict: on" } else { "Predict" } }
                </button>
            }
        </div>
    }
}

/// Share's props. Its "Copy link" puts the address of this exact run on the clipboard (and shows
/// it, in case that fails).
#[derive(Properties, PartialEq)]
struct ShareProps {
    /// Read when clicked: the link is to the run and the step shown then.
    screen: Latest<Screen>,
}

/// "Copy link" (a part of [`Share`], whose state `shown` is: the link copied, shown until closed).
fn copy_link(screen: &Latest<Screen>, shown: &UseStateHandle<Option<String>>) -> Html {
    let onclick = {
        let shown = shown.clone();
        let s = screen.clone();
        Callback::from(move |_| {
            let (s, shown) = (s.get(), shown.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let link = link_to(&s, "").await;
                if let Some(clip) = crate::view::window().map(|w| w.navigator().clipboard()) {
                    let _ = clip.write_text(&link);
                }
                shown.set(Some(link));
            });
        })
    };
    let close = {
        let shown = shown.clone();
        Callback::from(move |_| shown.set(None))
    };
    html! {
        <>
            <button class="btn copy" {onclick} title="Copy a link that reopens this exact run">{ "Copy link" }</button>
            if let Some(link) = (**shown).clone() {
                <div class="copied" role="status">
                    <span>{ "Link copied. It reopens this run at this step:" }</span>
                    <input readonly=true value={link} aria-label="Link to this run" onfocus={Callback::from(|e: FocusEvent| e.target_unchecked_into::<web_sys::HtmlInputElement>().select())} />
                    <button class="btn small" aria-label="Close" onclick={close}>{ "×" }</button>
                </div>
            }
        </>
    }
}

/// The keyboard help, over everything.
pub fn help_dialog(dispatch: &Callback<Action>) -> Html {
    let d = dispatch.clone();
    html! {
        <div class="overlay" onclick={let d = d.clone(); Callback::from(move |_| d.emit(Action::ToggleHelp))}>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2 id="help-title">{ "Keyboard" }</h2>
                <dl class="keys">
                    { for KEYS.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
                </dl>
                <h2>{ "Glossary" }</h2>
                { crate::view::glossary::glossary() }
                <p class="hint">{ "On the timeline: drag a pause block to move it, drag its right edge to resize it, click a lane to add a fault there. A focused pause block moves with ← → and resizes with Shift + ← →." }</p>
                <button class="btn primary" autofocus=true onclick={Callback::from(move |_| d.emit(Action::ToggleHelp))}>{ "Close" }</button>
            </div>
        </div>
    }
}
