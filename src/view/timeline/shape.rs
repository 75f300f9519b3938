//! Shapes of the shared vocabulary ([`draw::glyph`]) as Yew `Html`: the same elements the SVG
//! export writes as text.

use draw::glyph::{Glyph, Shape};
use yew::prelude::*;

fn class(c: Option<&'static str>) -> Option<&'static str> {
    c.filter(|c| !c.is_empty())
}

/// One shape as an element.
pub fn shape(s: &Shape) -> Html {
    match s {
        Shape::Rect { x, y, w, h, rx, transform, class: c, title } => html! {
            <rect class={class(*c)} x={x.to_string()} y={y.to_string()} width={w.to_string()} height={h.to_string()}
                  rx={rx.map(|r| r.to_string())} transform={transform.clone()}>
                if let Some(t) = title { <title>{ t }</title> }
            </rect>
        },
        Shape::Circle { cx, cy, r } => html! { <circle cx={cx.to_string()} cy={cy.to_string()} r={r.to_string()} /> },
        Shape::Path { d, class: c } => html! { <path d={d.clone()} class={class(*c)} /> },
        Shape::Line { x1, y1, x2, y2, class: c, marker_end, title } => html! {
            <line class={class(*c)} x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} marker-end={*marker_end}>
                if let Some(t) = title { <title>{ t }</title> }
            </line>
        },
        Shape::Text { x, y, class: c, text } => html! { <text class={class(Some(c))} x={x.to_string()} y={y.to_string()}>{ text }</text> },
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
