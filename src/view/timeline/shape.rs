//! Shapes of the shared vocabulary ([`draw::glyph`]) as Yew `Html`: the same elements the SVG
//! export writes as text.
//!
//! They are built directly ([`element`]) rather than by `html!`, which turns each `class` into a
//! set of classes and back into text: a large run's drawing has thousands of them, and that was a
//! tenth of the time an edit took to draw.

use std::borrow::Cow;
use std::rc::Rc;

use draw::glyph::{num_in, Glyph, Shape, NUM_BYTES};
use yew::prelude::*;
use yew::virtual_dom::{AttributeOrProperty, Attributes, Listeners, VList, VNode, VTag, VText};

/// An element with attributes `keys` (a value of `None` leaves its key out) and children, as
/// `html!` builds it, without listeners.
pub fn element(tag: &'static str, keys: &'static [&'static str], values: Vec<Option<AttrValue>>, children: Vec<Html>) -> Html {
    let values = values.into_iter().map(|v| v.map(AttributeOrProperty::Attribute)).collect();
    let children = if children.is_empty() { VNode::default() } else { VNode::VList(Rc::new(VList::with_children(children, None))) };
    VTag::__new_other(AttrValue::Static(tag), NodeRef::default(), None, Attributes::Dynamic { keys, values }, Listeners::None, children)
        .into()
}

/// A class (none if empty) as an attribute value, without copying a fixed one.
pub fn class(c: Cow<'static, str>) -> Option<AttrValue> {
    match c {
        _ if c.is_empty() => None,
        Cow::Borrowed(s) => Some(AttrValue::Static(s)),
        Cow::Owned(s) => Some(AttrValue::from(s)),
    }
}

fn fixed(c: Option<&'static str>) -> Option<AttrValue> {
    c.filter(|c| !c.is_empty()).map(AttrValue::Static)
}

/// A coordinate as an attribute value: written on the stack and copied once into the value
/// (thousands are written for each drawing of a large run).
fn at(x: f64) -> Option<AttrValue> {
    Some(text(num_in(x, &mut [0; NUM_BYTES])))
}

/// An index (`data-i`) as an attribute value, written as a coordinate is (a whole number).
fn index(i: usize) -> AttrValue {
    text(num_in(i as f64, &mut [0; NUM_BYTES]))
}

/// Text as an attribute value, copied once (`AttrValue::from(String)` copies it a second time).
fn text(s: &str) -> AttrValue {
    AttrValue::from(Rc::<str>::from(s))
}

/// A `<title>` (a tooltip), if there is one.
fn title(t: &Option<String>) -> Vec<Html> {
    t.iter().map(|t| element("title", &[], Vec::new(), vec![VNode::from(VText::new(t.clone()))])).collect()
}

/// One shape as an element.
pub fn shape(s: &Shape) -> Html {
    element_of(s, None, None)
}

/// `s` as an element; a path or a rectangle with no class of its own takes `class`, and
/// `data_i` names it ([`lone`] gives them; the other shapes never get them).
fn element_of(s: &Shape, class: Option<AttrValue>, data_i: Option<AttrValue>) -> Html {
    match s {
        Shape::Rect { x, y, w, h, rx, transform, class: c, title: t } => element(
            "rect",
            &["class", "data-i", "x", "y", "width", "height", "rx", "transform"],
            vec![fixed(*c).or(class), data_i, at(*x), at(*y), at(*w), at(*h), rx.and_then(at), transform.as_deref().map(text)],
            title(t),
        ),
        Shape::Circle { cx, cy, r } => element("circle", &["cx", "cy", "r"], vec![at(*cx), at(*cy), at(*r)], Vec::new()),
        Shape::Path { d, class: c, marker_end, dot_start, title: t } => element(
            "path",
            &["class", "data-i", "d", "marker-end", "marker-start"],
            vec![
                fixed(*c).or(class),
                data_i,
                Some(text(d)),
                marker_end.map(AttrValue::Static),
                dot_start.then_some(AttrValue::Static("url(#dot)")),
            ],
            title(t),
        ),
        Shape::Line { x1, y1, x2, y2, class: c, marker_end, title: t } => element(
            "line",
            &["class", "x1", "y1", "x2", "y2", "marker-end"],
            vec![fixed(*c), at(*x1), at(*y1), at(*x2), at(*y2), marker_end.map(AttrValue::Static)],
            title(t),
        ),
        Shape::Text { x, y, class: c, text } => {
            element("text", &["class", "x", "y"], vec![fixed(Some(c)), at(*x), at(*y)], vec![VNode::from(VText::new(text.clone()))])
        }
    }
}

/// A glyph's inside: its tooltip, then its shapes (the caller draws the `<g>` with its own
/// handlers).
pub fn inside(g: &Glyph) -> Html {
    VNode::VList(Rc::new(VList::with_children(children(g), None)))
}

fn children(g: &Glyph) -> Vec<Html> {
    let mut children = title(&g.title);
    children.extend(g.shapes.iter().map(shape));
    children
}

/// A glyph that is one path or one rectangle is drawn as that element alone, with the glyph's
/// class (and `data-i`, naming it, if given), not as a group around it; any other glyph as
/// [`group`]. A large run has more than a thousand arrows and hundreds of bars, and each group
/// was one more element to diff, style and paint on every change. (The SVG export keeps the
/// groups; the stylesheet matches both.)
pub fn lone(g: &Glyph, data_i: Option<usize>) -> Html {
    match g.shapes.as_slice() {
        [s @ (Shape::Path { class: None, .. } | Shape::Rect { class: None, .. })] if g.title.is_none() => {
            element_of(s, class(g.class.clone()), data_i.map(index))
        }
        _ => group(g, data_i),
    }
}

/// A glyph as a group (`<g class>`), with a `data-i` naming it if given.
fn group(g: &Glyph, data_i: Option<usize>) -> Html {
    element("g", &["class", "data-i"], vec![class(g.class.clone()), data_i.map(index)], children(g))
}
