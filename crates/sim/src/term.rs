//! Text for a terminal: what a scenario file or a book says is shown, never obeyed (the rule of
//! `leaselab`'s output and messages and of `mdbook-leaselab`'s messages, written once here).
//!
//! A scenario's title, its key moments' text and the keys of a JSON file are the file author's
//! words. Written raw, an escape sequence among them would set the reader's window title, colour
//! or clear the screen, and a bidirectional override would make a line read other than it is.
//! So every text output and every message writes them as escapes (`\x1b`, `\u{202e}`), whether
//! or not the output is a terminal: the same text in a file as on screen. JSON (`--json`,
//! `show`) escapes control characters itself, and SVG is XML.

use std::borrow::Cow;

/// Control characters (C0, DEL, C1) and the bidirectional formatting characters (embeddings,
/// overrides and isolates), which a terminal obeys or which reorder what it shows.
pub fn unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each such character written as an escape; with `newlines`, a line feed is kept
/// (text the command line laid out in lines itself).
pub fn escape(text: &str, newlines: bool) -> Cow<'_, str> {
    let keep = |c: char| newlines && c == '\n';
    if !text.chars().any(|c| unsafe_char(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if keep(c) || !unsafe_char(c) => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}
