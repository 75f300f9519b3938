//! The timeline's marks (grants, expiries, writes, faults, violations): drawn once per run and
//! width, in chunks drawn again only where an edit changed them (`chunks`).

use draw::layout::Layout;
use yew::prelude::*;

use super::chunks::{Chunk, Of, Parts};
use crate::state::{Action, ByPtr};

#[derive(Properties, PartialEq)]
pub struct MarksProps {
    pub layout: ByPtr<Layout>,
    pub parts: ByPtr<Parts>,
    pub dispatch: Callback<Action>,
    /// The stretch (in x) whose marks are drawn (`zoom::drawn`); a violation's line crosses
    /// every lane, so it is drawn by its x too.
    pub window: (f64, f64),
}

#[component]
pub fn Marks(p: &MarksProps) -> Html {
    crate::view::probe::rendered("Marks");
    let (height, window) = (p.layout.height, p.window);
    let chunks = p.parts.marks.iter().map(|marks| html! { <Chunk of={Of::Marks(marks.clone(), height, p.dispatch.clone())} {window} /> });
    html! { <>{ for chunks }</> }
}
