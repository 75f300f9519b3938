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
}

#[component]
pub fn Marks(p: &MarksProps) -> Html {
    crate::view::probe::rendered("Marks");
    let marks = p.layout.marks.iter().map(|m| {
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
