//! The timeline's many elements (arrows, bars, marks) in chunks that are drawn again only where
//! an edit changed them. A chunk equal to the one at its place in the previous layout is that
//! same allocation ([`Parts::of`]), so the component that draws it is skipped: a longer TTL
//! leaves every message where it was, and a pause moved late in a run leaves what came before
//! it. A run of 10,000 events has thousands of arrows; building and comparing them all was most
//! of an edit's drawing.

use draw::glyph;
use draw::layout::{Arrow, Bar, Layout, Mark};
use yew::prelude::*;

use super::shape::{inside, lone};
use crate::state::{Action, ByPtr};

/// Elements per chunk: enough that a large run has a few hundred components, few enough that a
/// change redraws little around it.
pub const CHUNK: usize = 48;

/// A list cut into shared chunks.
pub type Chunks<T> = Vec<ByPtr<Vec<T>>>;

/// A layout's arrows, bars and marks in chunks.
#[derive(Clone, Default)]
pub struct Parts {
    pub arrows: Chunks<Arrow>,
    pub bars: Chunks<Bar>,
    pub marks: Chunks<Mark>,
}

impl Parts {
    /// `lay`'s parts, sharing every chunk that equals the one at its place in `prev`.
    pub fn of(lay: &Layout, prev: Option<&Parts>) -> Parts {
        Parts {
            arrows: chunked(&lay.arrows, prev.map(|p| &p.arrows[..])),
            bars: chunked(&lay.bars, prev.map(|p| &p.bars[..])),
            marks: chunked(&lay.marks, prev.map(|p| &p.marks[..])),
        }
    }
}

fn chunked<T: Clone + PartialEq>(items: &[T], prev: Option<&[ByPtr<Vec<T>>]>) -> Chunks<T> {
    items
        .chunks(CHUNK)
        .enumerate()
        .map(|(i, c)| match prev.and_then(|p| p.get(i)) {
            Some(old) if old.as_slice() == c => old.clone(),
            _ => ByPtr::new(c.to_vec()),
        })
        .collect()
}

/// Whether a span of x meets the drawn stretch (`zoom::drawn`).
fn seen((from, to): (f64, f64), x0: f64, x1: f64) -> bool {
    x0.max(x1) >= from && x0.min(x1) <= to
}

/// One chunk of elements (one component for the three kinds: each kind of component costs the
/// download its own machinery).
#[derive(Clone, PartialEq)]
pub enum Of {
    /// Arrows, and the index of the first in the layout (`data-i`, for the tooltip worded on
    /// hover).
    Arrows(ByPtr<Vec<Arrow>>, usize),
    Bars(ByPtr<Vec<Bar>>),
    /// Marks, and the layout's height (a violation's line crosses every lane); clicking one
    /// moves the cursor to its event.
    Marks(ByPtr<Vec<Mark>>, f64, Callback<Action>),
}

#[derive(Properties, PartialEq)]
pub struct ChunkProps {
    pub of: Of,
    /// The stretch (in x) whose elements are drawn (`zoom::drawn`).
    pub window: (f64, f64),
}

/// A chunk of arrows, bars or marks.
#[component]
pub fn Chunk(p: &ChunkProps) -> Html {
    crate::view::probe::rendered("Chunk");
    let window = p.window;
    match &p.of {
        Of::Arrows(arrows, start) => {
            let arrows = arrows.iter().enumerate().filter(|(_, a)| seen(window, a.x0, a.x1));
            html! { <>{ for arrows.map(|(i, a)| lone(&glyph::arrow(a, None), Some(start + i))) }</> }
        }
        Of::Bars(bars) => html! { <>{ for bars.iter().filter(|b| seen(window, b.x0, b.x1)).map(|b| lone(&glyph::bar_span(b), None)) }</> },
        Of::Marks(marks, height, dispatch) => {
            // A mark's label reaches past its x.
            let marks = marks.iter().filter(|m| seen((window.0 - 60.0, window.1 + 60.0), m.x, m.x)).map(|m| {
                let onclick = m.event.map(|ev| {
                    let d = dispatch.clone();
                    Callback::from(move |e: MouseEvent| {
                        e.stop_propagation();
                        d.emit(Action::Seek(ev));
                    })
                });
                let g = glyph::mark(m, *height);
                html! { <g class={g.class.clone()} {onclick}>{ inside(&g) }</g> }
            });
            html! { <>{ for marks }</> }
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct BarLabelsProps {
    pub layout: ByPtr<Layout>,
    /// The part in view: the scroll box's left edge and its width, in whole pixels.
    pub view: (i32, i32),
}

/// The labels of the bars in view, each from where its bar comes into view (after the lane
/// names): zoomed in, a bar begun to the left still says what it is, and no label is cut in two
/// by the lane names. Drawn again when the view moves, not at every step.
#[component]
pub fn BarLabels(p: &BarLabelsProps) -> Html {
    let (left, width) = (f64::from(p.view.0), f64::from(p.view.1));
    let from = left + draw::layout::GUTTER;
    let labels = p.layout.bars.iter().filter(|b| b.x1 > from && b.x0 < left + width).filter_map(|b| {
        let text = glyph::bar_label(b, from)?;
        // In a group with its bar's classes, which colour the label as they colour the bar's.
        let class = format!("{} {}", glyph::bar_class(b.kind), glyph::color_class(b.color));
        Some(html! { <g {class}>{ super::shape::shape(&text) }</g> })
    });
    html! { <g class="bar-labels">{ for labels }</g> }
}
