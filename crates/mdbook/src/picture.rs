//! A block's picture: [`draw`] runs its scenario and draws it with `draw::svg`, as
//! `leaselab svg` does, into a [`Picture`].

use draw::svg;
use sim::facts::Facts;
use sim::library;
use sim::scenario::Scenario;

use crate::block::{Bad, Block, Source, Step};

/// A block's scenario, run and drawn.
#[derive(Clone, Debug)]
pub struct Picture {
    /// The SVG on one line, its ids prefixed ([`inline`]): ready to sit in a page beside others.
    pub svg: String,
    /// The scenario as the block gave it (before its fix).
    pub scenario: Scenario,
    /// The cursor's step, from 1, when the block asks for one (a key moment resolved).
    pub step: Option<usize>,
}

/// What every id in a picture starts with, so that it cannot meet a page's own (a heading
/// called "Lost" has the id `lost`, one of the arrowheads').
pub const ID_PREFIX: &str = "leaselab-";

/// Runs the block's scenario and draws it: the cursor at its step, the pair of runs for
/// `compare=fix`.
pub fn draw(block: &Block) -> Result<Picture, Bad> {
    let written = scenario(&block.source)?;
    let shown = if block.fix { fixed(&written, "fix")? } else { written.clone() };
    let run = sim::run(&shown).map_err(|e| Bad::fence(format!("the scenario cannot run: {e}")))?;
    let step = match block.step {
        None => None,
        Some(Step::Number(n)) if n > run.events.len() => {
            return Err(Bad::fence(format!("step={n}: the run has {} steps (step=1 to step={})", run.events.len(), run.events.len())))
        }
        Some(Step::Number(n)) => Some(n),
        Some(Step::Key(k)) => {
            let facts = Facts::of(&run);
            let moments = facts.moments();
            match moments.get(k - 1) {
                Some(&event) => Some(event + 1),
                None if moments.is_empty() => {
                    return Err(Bad::fence(format!("step=key:{k}: {} has no key moments; give a step number", name(&shown))))
                }
                None => {
                    return Err(Bad::fence(format!(
                        "step=key:{k}: {} has {} key moments (key:1 to key:{})",
                        name(&shown),
                        moments.len(),
                        moments.len()
                    )))
                }
            }
        }
    };
    let cursor = step.map(|n| n - 1);
    let drawing = if block.compare_fix {
        // The app's pair: the run shown above, the other below (with `fix`, the run as written).
        let (other, top, bottom) = if block.fix {
            let label = written.fix.as_ref().map_or("", |f| f.label.as_str());
            (written.clone(), format!("With the fix: {label}"), format!("As written: {}", written.title))
        } else {
            let other = fixed(&written, "compare=fix")?;
            let label = written.fix.as_ref().map_or("", |f| f.label.as_str());
            (other, format!("As written: {}", written.title), format!("With the fix: {label}"))
        };
        let other_run = sim::run(&other).map_err(|e| Bad::fence(format!("compare=fix: the run with the fix cannot run: {e}")))?;
        let cursor_us = cursor.map(|c| run.events[c].at_us);
        svg::render_compare((&run, &shown, &top), (&other_run, &other, &bottom), svg::WIDTH, cursor_us)
    } else {
        svg::render(&run, &shown, svg::WIDTH, cursor)
    };
    Ok(Picture { svg: inline(&drawing), scenario: written, step })
}

/// The block's scenario as written: from the library, or read from its body.
fn scenario(source: &Source) -> Result<Scenario, Bad> {
    match source {
        Source::Library(id) => library::get(id).ok_or_else(|| {
            let ids = library::INDEX.iter().map(|e| e.id);
            let near = crate::closest::suggest(id, ids);
            let also = if near.is_empty() { "; see `leaselab list` for the library's ids" } else { "" };
            Bad::fence(format!("scenario={id}: there is no such scenario in the library{near}{also}"))
        }),
        Source::Json(text) => Scenario::parse(text).map_err(|e| match e.line_col {
            // The body's line 1 is the line after the fence.
            Some((line, column)) => {
                let at = if e.path.is_empty() { String::new() } else { format!("{}: ", e.path) };
                Bad { line, message: format!("the scenario's JSON, column {column}: {at}{}", e.problem) }
            }
            None => Bad::fence(format!("the scenario in this block: {e}")),
        }),
    }
}

/// The scenario with its one-click fix; `what` names the option that asked for it.
fn fixed(s: &Scenario, what: &str) -> Result<Scenario, Bad> {
    match s.fixed() {
        Some(Ok(f)) => Ok(f),
        Some(Err(e)) => Err(Bad::fence(format!("{what}: the fix of {} does not apply: {e}", name(s)))),
        None => Err(Bad::fence(format!("{what}: {} has no one-click fix", name(s)))),
    }
}

/// A scenario as a message names it: its id, or its title when it has none.
fn name(s: &Scenario) -> String {
    if s.id.is_empty() {
        format!("“{}”", s.title)
    } else {
        s.id.clone()
    }
}

/// An SVG document made ready to sit in a page: on one line (a blank line would end the HTML
/// block that holds it in Markdown; in SVG and CSS a line break is a space), and its ids (the
/// arrowheads) and the references to them prefixed with [`ID_PREFIX`]. `draw::svg` escapes
/// every `"` of text, so the two patterns can only be attributes.
pub fn inline(svg: &str) -> String {
    svg.trim_end()
        .replace(['\n', '\r'], " ")
        .replace(r#" id=""#, &format!(r#" id="{ID_PREFIX}"#))
        .replace(r#"="url(#"#, &format!(r#"="url(#{ID_PREFIX}"#))
        .replacen("<svg ", r#"<svg style="max-width:100%;height:auto" "#, 1)
}

#[cfg(test)]
mod tests;
