//! Shapes of the shared vocabulary ([`draw::glyph`]) as Yew `Html`: the same elements the SVG
//! export writes as text.

use draw::glyph::{num, Glyph, Shape};
use yew::prelude::*;

fn class(c: Option<&'static str>) -> Option<&'static str> {
    c.filter(|c| !c.is_empty())
}

/// One shape as an element.
pub fn shape(s: &Shape) -> Html {
    match s {
        Shape::Rect { x, y, w, h, rx, transform, class: c, title } => html! {
            <rect class={class(*c)} x={num(*x)} y={num(*y)} width={num(*w)} height={num(*h)}
                  rx={rx.map(num)} transform={transform.clone()}>
                if let Some(t) = title { <title>{ t }</title> }
            </rect>
        },
        Shape::Circle { cx, cy, r } => html! { <circle cx={num(*cx)} cy={num(*cy)} r={num(*r)} /> },
        Shape::Path { d, class: c, marker_end, dot_start, title } => html! {
            <path d={d.clone()} class={class(*c)} marker-end={*marker_end} marker-start={dot_start.then_some("url(#dot)")}>
                if let Some(t) = title { <title>{ t }</title> }
            </path>
        },
        Shape::Line { x1, y1, x2, y2, class: c, marker_end, title } => html! {
            <line class={class(*c)} x1={num(*x1)} y1={num(*y1)} x2={num(*x2)} y2={num(*y2)} marker-end={*marker_end}>
                if let Some(t) = title { <title>{ t }</title> }
            </line>
        },
        Shape::Text { x, y, class: c, text } => html! { <text class={class(Some(c))} x={num(*x)} y={num(*y)}>{ text }</text> },
    }
}

/// A glyph's inside: its tooltip, then its shapes (the caller draws the `<g>` with its own
/// handlers).
pub fn inside(g: &Glyph) -> Html {
    html! {
        <>
            if let Some(t) = &g.title { <title>{ t }</title> }
            { for g.shapes.iter().map(shape) }
        </>
    }
}
