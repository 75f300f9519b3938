//! A typed value from a [`json::Value`](crate::json::Value), with the path of the first thing wrong in it:
//! [`deserialize`] gives a [`ReadError`]: `faults[1].pause.at_ms` and what is wrong there, a
//! [`ReadErrorKind`] (`from_value/error.rs`, which alone words it).
//!
//! Written for the types a scenario holds ([`FromValue`]; `scenario/read.rs` has their fields
//! and names), not through serde's derived `Deserialize`: that code, generic over
//! deserializers and visitors, was 89 KB of the download. Here each kind of value is read by
//! one function, a struct is a loop over its object with one match arm per field (`fields!`),
//! and an enum is a table of its names.
//!
//! The derived `Deserialize` stays on the types as the specification. `tests/from_value.rs`
//! checks that both read the same values and refuse the same wrong ones (each kind rendered
//! through serde_json's own error, compared with serde's message) at the path
//! `serde_path_to_error` gives, on every library scenario broken in every way and on generated
//! ones. The one deliberate difference: a list where a struct belongs is refused by
//! name ([`ReadErrorKind::ListForObject`]); serde would read it as the struct's fields in order.

mod error;

pub use error::{Expected, Found, ReadError, ReadErrorKind};

use crate::json::Value;

/// Reads `T` from `value`; on failure, the path of the innermost value at fault ("" for the
/// whole) and what is wrong with it.
pub fn deserialize<T: FromValue>(value: &Value) -> Result<T, ReadError> {
    T::read(value, &Path::Root).map_err(|e| *e)
}

/// A type read from a JSON value, as its derived `Deserialize` reads it from serde_json's.
pub trait FromValue: Sized {
    fn read(v: &Value, at: &Path) -> Read<Self>;
}

/// A value read, or where and why it was refused. Boxed, so that a reader's result is hardly
/// larger than its value: the code that passes it up is smaller (4 KB of the browser build).
pub type Read<T> = Result<T, Box<ReadError>>;

pub use crate::json::Path;

/// The error `kind` at `at`.
fn fail(at: &Path, kind: ReadErrorKind) -> Box<ReadError> {
    let mut path = String::new();
    at.write(&mut path);
    Box::new(ReadError { path, kind })
}

/// What `v` is, for an error.
fn found(v: &Value) -> Found {
    match v {
        Value::Null => Found::Null,
        Value::Bool(b) => Found::Bool(*b),
        Value::Number(n) => Found::Number(*n),
        Value::String(s) => Found::String(s.clone()),
        Value::Array(_) => Found::List,
        Value::Object(_) => Found::Object,
    }
}

/// `v` is not the kind of value `expected` names.
fn refuse<T>(v: &Value, at: &Path, expected: Expected) -> Read<T> {
    Err(fail(at, ReadErrorKind::WrongType { expected, found: found(v) }))
}

/// A whole number from 0 to `max`, the largest of the type `expected`.
fn unsigned(v: &Value, at: &Path, max: u64, expected: Expected) -> Read<u64> {
    let Value::Number(n) = v else { return refuse(v, at, expected) };
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) if u <= max => Ok(u),
        // A float is of another type; a negative or larger number, out of the type's range.
        (None, None) => refuse(v, at, expected),
        _ => Err(fail(at, ReadErrorKind::OutOfRange { expected, found: found(v) })),
    }
}

impl FromValue for u64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u64::MAX, Expected::U64)
    }
}

impl FromValue for u32 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u32::MAX.into(), Expected::U32).map(|n| n as u32)
    }
}

impl FromValue for u8 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, u8::MAX.into(), Expected::U8).map(|n| n as u8)
    }
}

impl FromValue for usize {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        unsigned(v, at, usize::MAX as u64, Expected::Usize).map(|n| n as usize)
    }
}

impl FromValue for i64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Number(n) = v else { return refuse(v, at, Expected::I64) };
        match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Ok(i),
            (None, Some(_)) => Err(fail(at, ReadErrorKind::OutOfRange { expected: Expected::I64, found: found(v) })),
            _ => refuse(v, at, Expected::I64),
        }
    }
}

impl FromValue for f64 {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v.as_f64() {
            Some(x) => Ok(x),
            None => refuse(v, at, Expected::F64),
        }
    }
}

impl FromValue for bool {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v {
            Value::Bool(b) => Ok(*b),
            _ => refuse(v, at, Expected::Bool),
        }
    }
}

impl FromValue for String {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        match v {
            Value::String(s) => Ok(s.clone()),
            _ => refuse(v, at, Expected::String),
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
        let Value::Array(items) = v else { return refuse(v, at, Expected::List) };
        items.iter().enumerate().map(|(i, item)| T::read(item, &Path::Index(at, i))).collect()
    }
}

impl FromValue for crate::time::Millis {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        u64::read(v, at).map(crate::time::Millis::new)
    }
}

/// A range `[low, high]`: serde's array of two.
impl FromValue for [crate::time::Millis; 2] {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Array(items) = v else { return refuse(v, at, Expected::Pair) };
        let mut out = [crate::time::Millis::ZERO; 2];
        for (i, slot) in out.iter_mut().enumerate() {
            match items.get(i) {
                Some(item) => *slot = FromValue::read(item, &Path::Index(at, i))?,
                None => return Err(fail(at, ReadErrorKind::WrongLength { length: i })),
            }
        }
        match items.len() {
            2 => Ok(out),
            length => Err(fail(at, ReadErrorKind::WrongLength { length })),
        }
    }
}

impl<T: FromValue> FromValue for crate::flat::Map<String, T> {
    fn read(v: &Value, at: &Path) -> Read<Self> {
        let Value::Object(map) = v else { return refuse(v, at, Expected::Map) };
        let mut items = map.iter().map(|(k, item)| Ok((k.clone(), T::read(item, &Path::Key(at, k))?))).collect::<Read<Vec<_>>>()?;
        // Sorted once (an object's keys differ), not inserted one by one: a hostile object of
        // many keys in reverse order would move the map's items for each.
        crate::sort::by(&mut items, |a, b| a.0.cmp(&b.0));
        Ok(crate::flat::Map::from_sorted(items))
    }
}

/// The object a struct is read from (`name` is serde's for the struct: "struct Network").
pub(crate) fn object<'v>(v: &'v Value, at: &Path, name: &'static str) -> Read<&'v crate::json::Map> {
    match v {
        Value::Object(map) => Ok(map),
        Value::Array(_) => Err(fail(at, ReadErrorKind::ListForObject)),
        _ => refuse(v, at, Expected::Struct(name)),
    }
}

/// A field the object at `at` lacks.
pub(crate) fn need<T>(field: Option<T>, name: &'static str, at: &Path) -> Read<T> {
    field.ok_or_else(|| fail(at, ReadErrorKind::MissingField { name }))
}

/// An enum's variant, written as its name or as an object with the name as its one key: the
/// index of the name in `names`, the name, and what the object holds under it.
fn variant<'v>(v: &'v Value, at: &Path, names: &'static [&'static str]) -> Read<(usize, &'v str, Option<&'v Value>)> {
    let (name, content) = match v {
        Value::String(name) => (name, None),
        Value::Object(map) => match map.iter().next() {
            Some((name, content)) if map.len() == 1 => (name, Some(content)),
            _ => return Err(fail(at, ReadErrorKind::NotOneKey)),
        },
        _ => return refuse(v, at, Expected::Variant),
    };
    match names.iter().position(|n| n == name) {
        Some(i) => Ok((i, name, content)),
        None => Err(fail(at, ReadErrorKind::UnknownVariant { name: name.clone(), expected: names })),
    }
}

/// The index in `names` of a variant without content.
pub(crate) fn unit_variant(v: &Value, at: &Path, names: &'static [&'static str]) -> Read<usize> {
    match variant(v, at, names)? {
        (i, _, None | Some(Value::Null)) => Ok(i),
        (_, name, Some(content)) => refuse(content, &Path::Key(at, name), Expected::Unit),
    }
}

/// An enum whose variants hold structs: the variant's index in `names`, its path (its name
/// under the enum's: `faults[0].pause`) and its object.
pub(crate) fn struct_variant<'a>(v: &'a Value, at: &'a Path<'a>, names: &'static [&'static str]) -> Read<(usize, Path<'a>, &'a Value)> {
    let (i, name, content) = variant(v, at, names)?;
    let at = Path::Key(at, name);
    match content {
        Some(v) if v.is_object() => Ok((i, at, v)),
        Some(v) => refuse(v, &at, Expected::StructVariant),
        None => Err(fail(&at, ReadErrorKind::WrongType { expected: Expected::StructVariant, found: Found::Name })),
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

pub(crate) fn unknown_field(key: &str, fields: &'static [&'static str], at: &Path) -> Box<ReadError> {
    fail(at, ReadErrorKind::UnknownField { name: key.to_string(), expected: fields })
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
