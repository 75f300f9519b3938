//! The walkthrough as Markdown: `README.md` and its pictures as SVG files beside it, linked by
//! relative paths. What the scenario says is escaped, so that a file's words cannot become
//! Markdown or HTML (a heading, a link, a tag) or a terminal's escape sequence; its quoted parts
//! stay code.

use std::fmt::Write;

use draw::svg::walk::Picture;

use super::{Moment, Walk, Writer};

/// The Markdown file's name: a directory's README is what a code host shows for it.
pub const README: &str = "README.md";

/// A moment's picture's file name, numbered from 1: `moment-01.svg`.
fn moment_file(n: usize) -> String {
    format!("moment-{n:02}.svg")
}

/// Whether a file is one of a walkthrough's moment pictures (`--force` removes those it no
/// longer has).
pub fn is_moment_file(name: &str) -> bool {
    name.strip_prefix("moment-")
        .and_then(|r| r.strip_suffix(".svg"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The walkthrough being written as Markdown, and its pictures' files.
#[derive(Default)]
pub struct Markdown {
    md: String,
    files: Vec<(String, String)>,
    moments: usize,
}

impl Markdown {
    /// The files of the walkthrough, README.md first: each its name and its text.
    pub fn finish(mut self) -> Vec<(String, String)> {
        self.files.insert(0, (README.into(), self.md));
        self.files
    }
}

impl Writer for Markdown {
    fn title(&mut self, title: &str, about: &str) {
        let _ = writeln!(self.md, "# {}\n\n*{}*\n", text(title), text(about));
    }

    fn heading(&mut self, t: &str) {
        let _ = writeln!(self.md, "## {}\n", text(t));
    }

    fn subheading(&mut self, t: &str) {
        let _ = writeln!(self.md, "### {}\n", text(t));
    }

    fn paragraph(&mut self, bold: Option<&str>, t: &str) {
        let bold = bold.map(|b| format!("**{}** ", text(b))).unwrap_or_default();
        let _ = writeln!(self.md, "{bold}{}\n", text(t));
    }

    fn list(&mut self, items: &[String]) {
        for item in items {
            let _ = writeln!(self.md, "- {}", text(item));
        }
        self.md.push('\n');
    }

    /// A link to the picture's file beside it, the picture's description as its alternative
    /// text.
    fn picture(&mut self, p: Picture, svg: &dyn Fn(bool) -> String, alt: &str) {
        let name = match p {
            Picture::Legend => "legend.svg".to_string(),
            Picture::Whole => "run.svg".to_string(),
            Picture::Moment { .. } => {
                self.moments += 1;
                moment_file(self.moments)
            }
        };
        let _ = writeln!(self.md, "![{}]({name})\n", text(alt).replace('`', "\\`"));
        self.files.push((name, svg(true)));
    }

    fn moment(&mut self, n: usize, m: &Moment, w: &Walk) {
        let _ = writeln!(self.md, "### {n}. {}\n\n{}\n", text(&m.heading), text(&m.said));
        if !m.why.is_empty() {
            let _ = writeln!(self.md, "> {}\n", text(&m.why));
        }
        super::picture(self, w, m.picture);
    }

    fn verdict(&mut self, _safe: bool, headline: &str, value: &str) {
        let _ = writeln!(self.md, "**{}.** Final value {}.\n", text(headline), text(value));
    }

    fn made_by(&mut self, t: &str) {
        let _ = writeln!(self.md, "---\n\n*{}*", text(t));
    }
}

/// A scenario's words as Markdown text: its quoted parts as code, the rest escaped where
/// Markdown would read it otherwise; control characters and bidirectional overrides written as
/// escapes, as the command line's text output writes them; all on one line.
pub fn text(s: &str) -> String {
    let s = crate::term::escape(s, false);
    let mut out = String::with_capacity(s.len() + 8);
    for (code, part) in sim::narrate::code_spans(&s) {
        if code {
            // A quote holds no backtick.
            let _ = write!(out, "`{part}`");
        } else {
            plain(&mut out, part);
        }
    }
    out
}

/// Plain text escaped for Markdown: what would start a heading, a list, a quote or a thematic
/// break at the start of the line, and emphasis, links, tags, entities and stray backticks
/// anywhere.
fn plain(out: &mut String, part: &str) {
    let chars: Vec<char> = part.chars().collect();
    let line_start = out.is_empty();
    // An ordered list's number ("1." or "1)") at the start of a line.
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    for (i, &c) in chars.iter().enumerate() {
        let next = chars.get(i + 1).copied().unwrap_or(' ');
        let escape = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '~' => true,
            '<' => next.is_ascii_alphabetic() || matches!(next, '/' | '!' | '?'),
            '&' => next.is_ascii_alphanumeric() || next == '#',
            '#' | '>' | '-' | '+' | '=' | '|' => line_start && i == 0,
            '.' | ')' => line_start && digits > 0 && i == digits,
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}
