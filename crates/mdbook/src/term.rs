//! Text for a terminal: what a book says is shown, never obeyed.
//!
//! A block's options, a chapter's file and the keys of book.toml are the author's words, and
//! mdBook passes this command's messages on to the terminal as they are. Written raw, an escape
//! sequence among them would set the reader's window title, colour or clear the screen, and a
//! bidirectional override would make a line read other than it is. So every message writes them
//! as escapes (`\x1b`, `\u{202e}`): the rule of `leaselab`'s messages (`sim::term`), so that
//! both commands write the same text alike.

use std::borrow::Cow;

pub use sim::term::unsafe_char;

/// `text` with each such character written as an escape, a line feed too (every message is one
/// line).
pub fn escape(text: &str) -> Cow<'_, str> {
    sim::term::escape(text, false)
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn controls_and_overrides_are_written_as_escapes_as_leaselab_writes_them() {
        assert_eq!(escape("T\u{1b}]0;PWNED\u{7}\u{1b}[31mRED"), "T\\x1b]0;PWNED\\x07\\x1b[31mRED");
        assert_eq!(escape("a\u{7f}b\u{9b}c\u{202e}d\u{2066}"), "a\\x7fb\\x9bc\\u{202e}d\\u{2066}");
        assert_eq!(escape("one\ntwo\tthree\r"), "one\\ntwo\\tthree\\r");
        // Ordinary text, accents, dashes and arrows pass as they are, without a copy.
        assert!(matches!(escape("A's lease — 33 < 34 → é"), std::borrow::Cow::Borrowed(_)));
    }
}
