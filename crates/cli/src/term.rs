//! Text for a terminal: the rule is the engine's (`sim::term`), shared with mdbook-leaselab.

pub use sim::term::escape;

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn controls_and_overrides_are_written_as_escapes() {
        assert_eq!(escape("T\u{1b}]0;PWNED\u{7}\u{1b}[31mRED", false), "T\\x1b]0;PWNED\\x07\\x1b[31mRED");
        assert_eq!(escape("a\u{7f}b\u{9b}c\u{202e}d\u{2066}", false), "a\\x7fb\\x9bc\\u{202e}d\\u{2066}");
        assert_eq!(escape("one\ntwo\tthree\r", false), "one\\ntwo\\tthree\\r");
        assert_eq!(escape("one\ntwo\t", true), "one\ntwo\\t");
        // Ordinary text, accents, dashes and arrows pass as they are, without a copy.
        assert!(matches!(escape("A's lease — 33 < 34 → é", false), std::borrow::Cow::Borrowed(_)));
    }
}
