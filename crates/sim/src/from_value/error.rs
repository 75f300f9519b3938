//! Why a value was refused: [`ReadError`] (where) and [`ReadErrorKind`] (what), made by the
//! readers where they find it, as data; [`Expected`] names the type, [`Found`] the value.
//!
//! Words are made in one place, `Display`, in a reader's words: "expected a whole number (0 or
//! more), found the text \"ten\"", not serde's "invalid type: string \"ten\", expected u64".
//! What has no plainer words (an unknown field or name, a missing field, a range's length, a
//! value given to a name that takes none) keeps serde's. `tests/from_value.rs` renders each
//! kind through serde_json's own error and compares it with the derived `Deserialize`'s, so
//! the kinds are checked against serde's, and the words kept from serde with them.

use std::fmt;

use crate::json::Number;

/// The first thing wrong in a value: the path of the innermost value at fault (`lock.ttl_ms`,
/// `clients[0].steps[2]`; empty for the whole) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub path: String,
    pub kind: ReadErrorKind,
}

/// What is wrong, as the reader found it (each arm says which of serde's errors it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// A value of another kind than the type (serde's `invalid_type`).
    WrongType { expected: Expected, found: Found },
    /// A number outside the type's range: negative, or too large (serde's `invalid_value`).
    OutOfRange { expected: Expected, found: Found },
    /// An object for an enum's variant whose keys are not exactly one, the variant's name
    /// (serde's `invalid_value`: "map, expected map with a single key").
    NotOneKey,
    /// A list where an object with named fields belongs (serde would read it as the fields in
    /// order; refused here by name).
    ListForObject,
    /// A field the object lacks that has no default (serde's `missing_field`).
    MissingField { name: &'static str },
    /// A key that is none of the object's fields (serde's `unknown_field`), and the fields.
    UnknownField { name: String, expected: &'static [&'static str] },
    /// A name that is none of the enum's (serde's `unknown_variant`), and the names.
    UnknownVariant { name: String, expected: &'static [&'static str] },
    /// A range (`[low, high]`) of another length than two (serde's `invalid_length`).
    WrongLength { length: usize },
}

/// The type a value is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    U64,
    Usize,
    U32,
    U8,
    I64,
    F64,
    Bool,
    String,
    /// A `Vec`.
    List,
    /// A map with keys of the reader's choosing.
    Map,
    /// A range: an array of two numbers.
    Pair,
    /// A struct, or an enum's variant with fields: serde's name for it ("struct Network",
    /// "struct variant Step::Work").
    Struct(&'static str),
    /// An enum's variant: its name, or an object with the name as its one key.
    Variant,
    /// A variant without content given some: nothing (or null) is expected.
    Unit,
    /// A variant with fields given none (only its name): its object is expected.
    StructVariant,
}

/// What was found instead: the value, or its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    List,
    Object,
    /// An enum's variant written as its name alone.
    Name,
}

/// The message for a list where an object with named fields belongs.
const LIST_FOR_OBJECT: &str = "expected an object with named fields, not a list";

impl Expected {
    /// What is expected in a reader's words; `None` where serde's words are kept.
    fn words(self) -> Option<&'static str> {
        Some(match self {
            Expected::U64 | Expected::Usize => "a whole number (0 or more)",
            Expected::U32 => "a whole number from 0 to 4294967295",
            Expected::U8 => "a whole number from 0 to 255",
            Expected::I64 => "a whole number",
            Expected::F64 => "a number",
            Expected::Bool => "true or false",
            Expected::String => "a string",
            Expected::List => "a list",
            Expected::Map => "an object",
            Expected::Struct(_) | Expected::StructVariant => "an object with named fields",
            Expected::Variant => "a kind: its name, or an object with just one key (the kind)",
            Expected::Pair | Expected::Unit => return None,
        })
    }

    /// What is expected as serde names it ("u64", "struct Network", "string or map").
    pub fn serde_name(self) -> &'static str {
        match self {
            Expected::U64 => "u64",
            Expected::Usize => "usize",
            Expected::U32 => "u32",
            Expected::U8 => "u8",
            Expected::I64 => "i64",
            Expected::F64 => "f64",
            Expected::Bool => "a boolean",
            Expected::String => "a string",
            Expected::List => "a sequence",
            Expected::Map => "a map",
            Expected::Pair => "an array of length 2",
            Expected::Struct(name) => name,
            Expected::Variant => "string or map",
            Expected::Unit => "unit",
            Expected::StructVariant => "struct variant",
        }
    }

    fn whole_number(self) -> bool {
        matches!(self, Expected::U64 | Expected::Usize | Expected::U32 | Expected::U8 | Expected::I64)
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.as_str() {
            "" => write!(f, "{}", self.kind),
            path => write!(f, "{path}: {}", self.kind),
        }
    }
}

/// In a reader's words where there are plainer ones than serde's, else in serde's.
impl fmt::Display for ReadErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::WrongType { expected, found } | ReadErrorKind::OutOfRange { expected, found } => {
                let Some(words) = expected.words() else {
                    let invalid = if matches!(self, ReadErrorKind::WrongType { .. }) { "type" } else { "value" };
                    return write!(f, "invalid {invalid}: {}, expected {}", SerdeFound(found), expected.serde_name());
                };
                write!(f, "expected {words}, found ")?;
                match found {
                    Found::Number(n) => {
                        let n = n.to_string();
                        // A whole number past 2^63 is still a whole number: say why it is refused.
                        let too_large = if expected.whole_number() && huge(&n) { ", which is too large" } else { "" };
                        write!(f, "{n}{too_large}")
                    }
                    Found::Null => f.write_str("null"),
                    Found::Bool(b) => f.write_str(if *b { "true" } else { "false" }),
                    Found::String(s) => write!(f, "the text {}", Quoted(s)),
                    Found::List => f.write_str("a list"),
                    Found::Object => f.write_str("an object"),
                    Found::Name => f.write_str("a name"),
                }
            }
            ReadErrorKind::NotOneKey => {
                f.write_str("expected an object with just one key (its kind), found an object with another number of keys")
            }
            ReadErrorKind::ListForObject => f.write_str(LIST_FOR_OBJECT),
            ReadErrorKind::MissingField { name } => write!(f, "missing field `{name}`"),
            ReadErrorKind::UnknownField { name, expected } => unknown(f, "field", name, expected),
            ReadErrorKind::UnknownVariant { name, expected } => unknown(f, "variant", name, expected),
            ReadErrorKind::WrongLength { length } => {
                let expected = if *length < 2 { "an array of length 2" } else { "fewer elements in array" };
                write!(f, "invalid length {length}, expected {expected}")
            }
        }
    }
}

/// serde's words for a name that is none of `names`: "unknown field `ttl`, expected one of
/// `kind`, `ttl_ms`, …" (`what` is "field" or "variant").
fn unknown(f: &mut fmt::Formatter<'_>, what: &str, name: &str, names: &[&str]) -> fmt::Result {
    write!(f, "unknown {what} `{name}`, ")?;
    match names {
        [] => write!(f, "there are no {what}s"),
        [one] => write!(f, "expected `{one}`"),
        [a, b] => write!(f, "expected `{a}` or `{b}`"),
        _ => {
            f.write_str("expected one of ")?;
            for (i, n) in names.iter().enumerate() {
                write!(f, "{}`{n}`", if i > 0 { ", " } else { "" })?;
            }
            Ok(())
        }
    }
}

/// What was found, as serde_json words it (`integer `5``, `string "x"`, `null`), for the
/// messages that keep serde's words.
struct SerdeFound<'a>(&'a Found);

impl fmt::Display for SerdeFound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Found::Null => f.write_str("null"),
            Found::Bool(b) => write!(f, "boolean `{b}`"),
            Found::Number(n) if n.as_u64().is_some() || n.as_i64().is_some() => write!(f, "integer `{n}`"),
            Found::Number(n) => write!(f, "floating point `{n}`"),
            Found::String(s) => write!(f, "string {}", Quoted(s)),
            Found::List => f.write_str("sequence"),
            Found::Object => f.write_str("map"),
            Found::Name => f.write_str("unit variant"),
        }
    }
}

/// Whether a number as JSON writes it (`5`, `-3`, `1.5e+29`) is 2^63 or more in size. Read from
/// its digits: parsing it as a float would bring the standard library's decimal tables into
/// the browser build (15 KB).
fn huge(v: &str) -> bool {
    let v = v.trim_start_matches('-');
    match v.split_once(['e', 'E']) {
        // One digit before the point: at 10^19 and above.
        Some((_, exp)) => exp.trim_start_matches('+').parse::<i32>().is_ok_and(|e| e >= 19),
        None if v.contains('.') => false,
        None => v.len() > 19 || (v.len() == 19 && v >= "9223372036854775808"),
    }
}

/// A text in quotes, escaped as serde quotes it in its messages (`"ten"`, `"a\"b"`), which is
/// how Rust's `Debug` writes a string: quotes, backslashes and controls escaped, and the
/// invisible characters that could hide or reorder text (zero-width, bidirectional, byte order
/// mark) written as `\u{…}`. Written out here, without the Unicode tables of `Debug`, so that
/// what ships stays small (tests/lean.rs); other characters are written as they are.
struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char('"')?;
        for c in self.0.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                '\0' => f.write_str("\\0")?,
                c if c.is_control()
                    || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}') =>
                {
                    write!(f, "\\u{{{:x}}}", c as u32)?
                }
                c => f.write_char(c)?,
            }
        }
        f.write_char('"')
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_text_is_quoted_as_a_strings_debug_quotes_it() {
        for s in [
            "ten",
            "a\"b",
            "it's",
            "tab\there",
            "new\nline",
            "\u{1}",
            "\0",
            "é",
            "back\\slash",
            "\u{200b}",
            "\u{202e}",
            "\u{feff}",
            "\u{7f}",
        ] {
            assert_eq!(super::Quoted(s).to_string(), format!("{s:?}"));
        }
    }
}
