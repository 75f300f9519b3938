//! The verdict: safe or unsafe, the violations that decide it, and the hazards and notes that
//! explain it, each a button to its moment.

use sim::render::{final_value, how_it_came_about};
use sim::time::fmt;
use sim::Run;
use yew::prelude::*;

use crate::state::{Action, ByPtr};

#[derive(Properties, PartialEq)]
pub struct VerdictProps {
    pub run: ByPtr<Run>,
    /// Predict mode hides the verdict until the end.
    pub hidden: bool,
    pub dispatch: Callback<Action>,
}

#[component]
pub fn VerdictPanel(p: &VerdictProps) -> Html {
    crate::view::probe::rendered("VerdictPanel");
    if p.hidden {
        return html! {
            <section class="verdict hidden-verdict" aria-label="Verdict">
                <h2>{ "Verdict: hidden until the end" }</h2>
                <p class="hint">{ "Predict mode keeps the outcome to itself. Answer the questions on the way; the verdict appears at the last step." }</p>
            </section>
        };
    }
    let v = &p.run.verdict;
    let run = &p.run;
    let finding = |f: &sim::Finding, class: &'static str| {
        let jump = f.event.map(|ev| {
            let d = p.dispatch.clone();
            Callback::from(move |e: MouseEvent| {
                d.emit(Action::Seek(ev));
                // The verdict is below the timeline: bring the timeline into view to show where.
                let app = e.target_dyn_into::<web_sys::Element>().and_then(|el| el.closest(".app").ok().flatten());
                if let Some(t) = app.and_then(|a| a.query_selector(".timeline-wrap").ok().flatten()) {
                    let opts = web_sys::ScrollIntoViewOptions::new();
                    opts.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    t.scroll_into_view_with_scroll_into_view_options(&opts);
                }
            })
        });
        let body = html! { <>
            <span class="prop">{ f.property.as_str() }</span>
            <span class="at">{ format!(" at {} ", fmt(f.at_us)) }</span>
            <span class="why">{ sim::checker::words::explanation(run, f) }</span>
        </> };
        match jump {
            Some(cb) => {
                html! { <li class={class}><button class="finding" onclick={cb} title="Jump to this moment on the timeline">{ body }</button></li> }
            }
            None => html! { <li class={class}><div class="finding">{ body }</div></li> },
        }
    };
    html! {
        <section class={classes!("verdict", if v.is_safe() { "safe" } else { "unsafe" })} aria-label="Verdict">
            <h2>
                { v.headline() }
                <span class="final">{ format!(" · final value {}", final_value(run)) }</span>
            </h2>
            if !v.violations.is_empty() {
                <ul class="findings">{ for v.violations.iter().map(|f| finding(f, "violation")) }</ul>
            }
            if !v.hazards.is_empty() || !v.notes.is_empty() {
                <details class="hazards">
                    <summary>{ how_it_came_about(v.hazards.len(), v.notes.len()) }</summary>
                    <ul class="findings">
                        { for v.hazards.iter().map(|f| finding(f, "hazard")) }
                        { for v.notes.iter().map(|f| finding(f, "note")) }
                    </ul>
                </details>
            }
        </section>
    }
}
