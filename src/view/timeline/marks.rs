//! The timeline's marks (grants, expiries, writes, faults, violations): drawn once per run and
//! width; clicking one moves the cursor to its event.

use draw::glyph;
use draw::layout::Layout;
use yew::prelude::*;

use super::shape::inside;
use crate::state::{Action, ByPtr};

#[derive(Properties, PartialEq)]
pub struct MarksProps {
    pub layout: ByPtr<Layout>,
    pub dispatch: Callback<Action>,
    /// The stretch (in x) whose marks are drawn (`zoom::drawn`); a violation's line crosses
    /// every lane, so it is drawn by its x too.
    pub window: (f64, f64),
}

#[component]
pub fn Marks(p: &MarksProps) -> Html {
    crate::view::probe::rendered("Marks");
    let (from, to) = p.window;
    let marks = p.layout.marks.iter().filter(|m| m.x >= from - 60.0 && m.x <= to + 60.0).map(|m| {
        let onclick = m.event.map(|ev| {
            let d = p.dispatch.clone();
            Callback::from(move |e: MouseEvent| {
                e.stop_propagation();
                d.emit(Action::Seek(ev));
            })
        });
        let g = glyph::mark(m, p.layout.height);
        html! { <g class={g.class.clone()} {onclick}>{ inside(&g) }</g> }
    });
    html! { <>{ for marks }</> }
}
