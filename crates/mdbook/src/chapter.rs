//! One chapter's Markdown: its ```` ```leaselab ```` blocks found where mdBook finds fenced
//! blocks ([`blocks`], with pulldown-cmark and mdBook's options: a fence shown inside a longer
//! fence is text, not a block), and each replaced by what it becomes ([`rewrite`]).

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::block::{self, Bad};

/// A fenced block of ours, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The bytes of the chapter it spans, from its opening fence to its closing one.
    pub range: Range<usize>,
    /// The line of its opening fence, from 1.
    pub line: usize,
    pub info: String,
    pub body: String,
}

/// A problem at a line of the chapter (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// What the chapter is rendered by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output<'a> {
    /// mdBook's HTML renderer: `<lease-lab>` elements, live from `site`'s `embed.js` when the
    /// book has one.
    Html { site: Option<&'a str> },
    /// Any other renderer: the pictures alone.
    Other,
}

/// The chapter's blocks of ours, in order.
pub fn blocks(content: &str) -> Vec<Found> {
    // As mdBook's parser (mdbook-markdown's `new_cmark_parser`) reads a chapter.
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_GFM;
    let mut found = Vec::new();
    let mut open: Option<Found> = None;
    for (event, range) in Parser::new_ext(content, options).into_offset_iter() {
        match (event, open.as_mut()) {
            (Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))), None) if block::is_ours(&info) => {
                let line = content[..range.start].matches('\n').count() + 1;
                open = Some(Found { range, line, info: info.to_string(), body: String::new() });
            }
            (Event::Text(text), Some(f)) => f.body.push_str(&text),
            (Event::End(TagEnd::CodeBlock), Some(_)) => found.extend(open.take()),
            _ => {}
        }
    }
    found
}

/// The chapter with each block of ours replaced, or `None` when it has none; every bad block's
/// problem otherwise.
pub fn rewrite(content: &str, output: Output<'_>) -> Result<Option<String>, Vec<Problem>> {
    let found = blocks(content);
    if found.is_empty() {
        return Ok(None);
    }
    let mut out = String::with_capacity(content.len());
    let mut problems = Vec::new();
    let mut at = 0;
    for f in &found {
        let drawn = block::parse(&f.info, &f.body).and_then(|b| Ok((crate::picture::draw(&b)?, b)));
        match drawn {
            Ok((picture, b)) => {
                out.push_str(&content[at..f.range.start]);
                out.push_str(&match output {
                    Output::Html { .. } => crate::html::element(&b, &picture),
                    Output::Other => crate::html::picture(&picture),
                });
                // A blank line ends the HTML block, so that what follows is Markdown again; in
                // a block quote, a quoted one.
                let line_start = content[..f.range.start].rfind('\n').map_or(0, |i| i + 1);
                let quotes: String = content[line_start..f.range.start].chars().filter(|&c| c == '>').collect();
                out.push_str(&format!("\n{quotes}\n"));
                at = f.range.end;
                // The closing fence's own line break is the one just written.
                if !content[..at].ends_with('\n') && content[at..].starts_with('\n') {
                    at += 1;
                }
            }
            Err(Bad { line, message }) => problems.push(Problem { line: f.line + line, message }),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.push_str(&content[at..]);
    if let Output::Html { site: Some(site) } = output {
        out.push_str(&format!("\n\n{}\n", crate::html::script(site)));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests;
