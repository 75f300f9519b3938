//! A typed value from a [`json::Value`](crate::json::Value), with the path of the first thing wrong in it:
//! [`deserialize`] gives `faults[1].pause.at_ms` and serde's message for it.
//!
//! Written for the types a scenario holds ([`FromValue`]; `scenario/read.rs` has their fields
//! and names), not through serde's derived `Deserialize`: that code, generic over
//! deserializers and visitors, was 89 KB of the download. Here each kind of value is read by
//! one function, a struct is a loop over its object with one match arm per field (`fields!`),
//! and an enum is a table of its names.
//!
//! The derived `Deserialize` stays on the types as the specification. `tests/from_value.rs`
//! checks that both read the same values and refuse the same wrong ones, with serde's message
//! at the path `serde_path_to_error` gives, on every library scenario broken in every way and
//! on generated ones. The one deliberate difference: a list where a struct belongs is refused by
//! name ([`LIST_FOR_OBJECT`]); serde would read it as the struct's fields in order.

use crate::json::{Message as Error, Value};
use serde::de::{self, Unexpected};

/// Reads `T` from `value`; on failure, the path of the innermost value at fault ("" for the
/// whole) and serde's error.
pub fn deserialize<T: FromValue>(value: &Value) -> Result<T, (String, Error)> {
    T::read(value, &Path::Root).map_err(|f| (f.path, f.error))
}

/// A type read from a JSON value, as its derived `Deserialize` reads it from serde_json's.
pub trait FromValue: Sized {
    fn read(v: &Value, at: &Path) -> Read<Self>;
}

/// A value read, or where and why it was refused.
pub type Read<T> = Result<T, Failed>;

/// The first thing wrong: its path, and serde's error for it.
pub struct Failed {
    path: String,
    error: Error,
}

pub use crate::json::Path;

/// The error `error` at `at`.
fn fail(at: &Path, error: Error) -> Failed {
    let mut path = String::new();
    at.write(&mut path);
    Failed { path, error }
}

/// The message for a list where an object with named fields belongs.
pub const LIST_FOR_OBJECT: &str = "expected an object with named fields, not a list";

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// `v` is not the kind of value `expected` names: serde's message for it.
fn refuse<T>(v: &Value, at: &Path, expected: &str) -> Read<T> {
    Err(fail(at, de::Error::invalid_type(unexpected(v), &expected)))
}

/// A whole number from 0 to `max`; `expected` is serde's name for the type ("u32").
fn unsigned(v: &Value, at: &Path, max: u64, expected: &str) -> Read<u64> {
    let Value::Number(n) = v else { return refuse(v, at, expected) };
    let out_of_range = match (n.as_u64(), n.as_i64()) {
        (Some(u), _) if u <= max => return Ok(u),
        (Some(u), _) => Unexpected::Unsigned(u),
        (None, Some(i)) => Unexpected::Signed(i),
        _ => return refuse(v, at, expected),
    };
    Err(fail(at, de::Error::invalid_value(out_of_range, &expected)))
}

impl FromValue for u64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u64::MAX, "u64")
    }
}

impl FromValue for u32 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u32::MAX.into(), "u32").map(|n| n as u32)
    }
}

impl FromValue for u8 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u8::MAX.into(), "u8").map(|n| n as u8)
    }
}

impl FromValue for usize {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, usize::MAX as u64, "usize").map(|n| n as usize)
    }
}

impl FromValue for i64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Number(n) = v else { return refuse(v, at, "i64") };
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Ok(i),
            (None, Some(u)) => Err(fail(at, de::Error::invalid_value(Unexpected::Unsigned(u), &"i64"))),
            _ => refuse(v, at, "i64"),
        }
    }
}

impl FromValue for f64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v.as_f64() {
            Some(x) => Ok(x),
            None => refuse(v, at, "f64"),
        }
    }
}

impl FromValue for bool {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => refuse(v, at, "a boolean"),
        }
    }
}

impl FromValue for String {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => refuse(v, at, "a string"),
        }
    }
}

impl FromValue for Value {
    fn read(v: &Value, _: &Path) -> Read<Self> {
        Ok(v.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v {
            Value::Null => Ok(None),
            _ => T::read(v, at).map(Some),
        }
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Array(items) = v else { return refuse(v, at, "a sequence") };
        items.iter().enumerate().map(|(i, item)| T::read(item, &Path::Index(at, i))).collect()
    }
}

/// A range `[low, high]`: serde's array of two.
impl FromValue for [u64; 2] {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        const EXPECTED: &str = "an array of length 2";
        let Value::Array(items) = v else { return refuse(v, at, EXPECTED) };
        let mut out = [0; 2];
        for (i, slot) in out.iter_mut().enumerate() {
            match items.get(i) {
                Some(item) => *slot = u64::read(item, &Path::Index(at, i))?,
                None => return Err(fail(at, de::Error::invalid_length(i, &EXPECTED))),
            }
        }
        match items.len() {
            2 => Ok(out),
            n => Err(fail(at, de::Error::invalid_length(n, &"fewer elements in array"))),
        }
    }
}

impl<T: FromValue> FromValue for crate::flat::Map<String, T> {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Object(map) = v else { return refuse(v, at, "a map") };
        let mut items = map.iter().map(|(k, item)| Ok((k.clone(), T::read(item, &Path::Key(at, k))?))).collect::<Read<Vec<_>>>()?;
        // Sorted once (an object's keys differ), not inserted one by one: a hostile object of
        // many keys in reverse order would move the map's items for each.
        crate::sort::by(&mut items, |a, b| a.0.cmp(&b.0));
        Ok(crate::flat::Map::from_sorted(items))
    }
}

/// The object a struct is read from (`expected` names the struct, as serde does).
pub(crate) fn object<'v>(v: &'v Value, at: &Path, expected: &str) -> Read<&'v crate::json::Map> {
    match v {
        Value::Object(map) => Ok(map),
        Value::Array(_) => Err(fail(at, de::Error::custom(LIST_FOR_OBJECT))),
        _ => refuse(v, at, expected),
    }
}

/// A field the object at `at` lacks.
pub(crate) fn need<T>(field: Option<T>, name: &'static str, at: &Path) -> Read<T> {
    field.ok_or_else(|| fail(at, de::Error::missing_field(name)))
}

/// An enum's variant, written as its name or as an object with the name as its one key: the
/// index of the name in `names`, the name, and what the object holds under it.
fn variant<'v>(v: &'v Value, at: &Path, names: &'static [&'static str]) -> Read<(usize, &'v str, Option<&'v Value>)> {
    let (name, content) = match v {
        Value::String(name) => (name, None),
        Value::Object(map) => match map.iter().next() {
            Some((name, content)) if map.len() == 1 => (name, Some(content)),
            _ => return Err(fail(at, de::Error::invalid_value(Unexpected::Map, &"map with a single key"))),
        },
        _ => return refuse(v, at, "string or map"),
    };
    match names.iter().position(|n| n == name) {
        Some(i) => Ok((i, name, content)),
        None => Err(fail(at, de::Error::unknown_variant(name, names))),
    }
}

/// The index in `names` of a variant without content.
pub(crate) fn unit_variant(v: &Value, at: &Path, names: &'static [&'static str]) -> Read<usize> {
    match variant(v, at, names)? {
        (i, _, None | Some(Value::Null)) => Ok(i),
        (_, name, Some(content)) => refuse(content, &Path::Key(at, name), "unit"),
    }
}

/// An enum whose variants hold structs: the variant's index in `names`, its path (its name
/// under the enum's: `faults[0].pause`) and its object.
pub(crate) fn struct_variant<'a>(v: &'a Value, at: &'a Path<'a>, names: &'static [&'static str]) -> Read<(usize, Path<'a>, &'a Value)> {
    let (i, name, content) = variant(v, at, names)?;
    let at = Path::Key(at, name);
    match content {
        Some(v) if v.is_object() => Ok((i, at, v)),
        Some(v) => refuse(v, &at, "struct variant"),
        None => Err(fail(&at, de::Error::invalid_type(Unexpected::UnitVariant, &"struct variant"))),
    }
}

/// Reads the struct (or struct variant) `$ty` from the value `$v` at `$at`, one match arm per
/// field, in the order of the object's keys as serde does; then a missing field in the order
/// declared. A field with `= default` may be left out. `$expected` is serde's name for it.
macro_rules! fields {
    ($v:expr, $at:ident, $expected:literal, $($ty:ident)::+ { $($field:ident $(= $default:expr)?),* $(,)? }) => {{
        const FIELDS: &[&str] = &[$(stringify!($field)),*];
        $(let mut $field = None;)*
        #[allow(unused_variables)] // a struct variant without fields
        for (key, item) in $crate::from_value::object($v, $at, $expected)? {
            let here = &$crate::from_value::Path::Key($at, key);
            match key.as_str() {
                $(stringify!($field) => $field = Some($crate::from_value::FromValue::read(item, here)?),)*
                _ => return Err($crate::from_value::unknown_field(key, FIELDS, here)),
            }
        }
        Ok($($ty)::+ { $($field: fields!(@get $field, $at $(, $default)?),)* })
    }};
    (@get $field:ident, $at:ident) => { $crate::from_value::need($field, stringify!($field), $at)? };
    (@get $field:ident, $at:ident, $default:expr) => { $field.unwrap_or_else(|| $default) };
}
pub(crate) use fields;

pub(crate) fn unknown_field(key: &str, fields: &'static [&'static str], at: &Path) -> Failed {
    fail(at, de::Error::unknown_field(key, fields))
}

/// Enums whose variants have no content, each a table of serde's names for its variants: read
/// here, and written by `to_value` (whose `match` checks that the table names every variant).
macro_rules! unit_enums {
    ($($ty:ty { $($name:literal => $variant:path),* $(,)? })*) => {$(
        impl $crate::from_value::FromValue for $ty {
            fn read(v: &$crate::json::Value, at: &$crate::from_value::Path) -> $crate::from_value::Read<Self> {
                const NAMES: &[&str] = &[$($name),*];
                const VARIANTS: &[$ty] = &[$($variant),*];
                $crate::from_value::unit_variant(v, at, NAMES).map(|i| VARIANTS[i])
            }
        }

        impl $crate::to_value::ToValue for $ty {
            fn to_value(&self) -> $crate::json::Value {
                $crate::json::Value::String(match self { $($variant => $name),* }.into())
            }
        }
    )*};
}
pub(crate) use unit_enums;

/// serde's message for a value of the wrong kind, in a reader's words: `invalid type: string
/// "ten", expected u64` becomes `expected a whole number (0 or more), found the text "ten"`.
/// The readers keep serde's wording, which the tests compare with serde's own; a scenario's
/// error is shown in these words. Other messages (an unknown field or name, a missing field, a
/// list's length) keep serde's words.
pub fn plain(message: &str) -> String {
    // serde's names for what was expected, as the readers above give them.
    const EXPECTED: &[(&str, &str)] = &[
        ("u64", "a whole number (0 or more)"),
        ("usize", "a whole number (0 or more)"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u8", "a whole number from 0 to 255"),
        ("i64", "a whole number"),
        ("f64", "a number"),
        ("a boolean", "true or false"),
        ("a string", "a string"),
        ("a sequence", "a list"),
        ("a map", "an object"),
        ("struct variant", "an object with named fields"),
        ("map with a single key", "an object with just one key (its kind)"),
        ("string or map", "a kind: its name, or an object with just one key (the kind)"),
    ];
    let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) else {
        return message.to_string();
    };
    let split = EXPECTED
        .iter()
        .find_map(|(serde, words)| Some((rest.strip_suffix(serde)?.strip_suffix(", expected ")?, *words)))
        .or_else(|| rest.find(", expected struct ").map(|i| (&rest[..i], "an object with named fields")));
    let Some((found, expected)) = split else { return message.to_string() };
    // serde's `Unexpected`, as it writes it: integer `5`, floating point `1.5`, string "x",
    // boolean `true`; or a kind: null, sequence, map, unit variant.
    let found = match found.split_once(' ') {
        Some(("integer" | "floating", v)) => {
            let v = v.strip_prefix("point ").unwrap_or(v).trim_matches('`');
            // A whole number past 2^63 is still a whole number: say why it is refused.
            let too_large = if huge(v) && expected.starts_with("a whole number") { ", which is too large" } else { "" };
            format!("{v}{too_large}")
        }
        Some(("boolean", v)) => v.trim_matches('`').to_string(),
        Some(("string", s)) => format!("the text {s}"),
        _ => match found {
            "sequence" => "a list",
            // The object given for a kind has none or several keys.
            "map" if expected.starts_with("an object with just one key") => "an object with another number of keys",
            "map" => "an object",
            "unit value" => "null",
            "unit variant" => "a name",
            other => other,
        }
        .to_string(),
    };
    format!("expected {expected}, found {found}")
}

/// Whether a number as serde writes it (`5`, `-3`, `1.5e+29`) is 2^63 or more in size. Read from
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
