//! The legend under the timeline: each kind of glyph this run draws, drawn by the same glyph
//! code at a small size, with its meaning in words. Always there (no hover needed), and only
//! what the run shows (in predict mode, only what has been shown so far), so that it stays one
//! or two lines. The list is `draw::legend`'s, which the SVG export reads too.

use draw::legend::{entries, Kinds, Sample};
use yew::prelude::*;

use super::shape::inside;
use sim::time::Micros;

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub kinds: Kinds,
}

/// What this run draws, in words.
#[component]
pub fn Legend(p: &LegendProps) -> Html {
    crate::view::probe::rendered("Legend");
    let items = entries(p.kinds).into_iter().map(|e| match e.sample {
        Sample::Glyph(g, width) => html! {
            <li>
                <svg class="legend-glyph" width={width.to_string()} height="22" viewBox={format!("0 0 {width} 22")} aria-hidden="true">
                    <g class={g.class.clone()}>{ inside(&draw::glyph::Glyph { title: None, ..g }) }</g>
                </svg>
                <span>{ e.text }</span>
            </li>
        },
        Sample::Ring(left) => {
            let c = draw::lease::Countdown { left_us: Micros::from_f64(left * 10.0), ttl_us: Micros::us(10), holder: true };
            html! {
                <li>
                    <span class="legend-ring" aria-hidden="true">{ super::labels::ring(&c, e.text.into()) }</span>
                    <span>{ e.text }</span>
                </li>
            }
        }
    });
    html! {
        // Folded on a phone, where it would push the controls off the screen.
        <details class="legend" open={!crate::view::narrow()}>
            <summary>{ "Legend" }</summary>
            <ul>{ for items }</ul>
        </details>
    }
}
