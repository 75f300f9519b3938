//! A typed value from a [`serde_json::Value`], with the path of the first thing wrong in it:
//! [`deserialize`] gives `faults[1].pause.at_ms` and serde's message for it.
//!
//! This is what `serde_path_to_error` does for any deserializer, written for the one this
//! program needs. That crate wraps every visitor, which cost 89 KB of the download; here the
//! path is a chain of steps on the stack, noted once when an error passes back through it. The
//! values visited and the messages given are those of serde_json's own `&Value` deserializer
//! (`tests/from_value.rs` compares the two on many wrong scenarios).

use std::cell::RefCell;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor};
use serde_json::{Error, Value};

/// Reads `T` from `value`; on failure, the path of the innermost value at fault ("" for the
/// whole) and serde's error.
pub fn deserialize<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, (String, Error)> {
    let failed = RefCell::new(None);
    T::deserialize(At { v: value, path: Path::Root, failed: &failed }).map_err(|e| (failed.into_inner().unwrap_or_default(), e))
}

/// Where a value is: the steps from the root, each borrowing the one before it.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(up, key) => {
                up.write(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Path::Index(up, i) => {
                up.write(out);
                out.push_str(&format!("[{i}]"));
            }
        }
    }
}

/// A value being read, where it is, and where the first error was noted.
struct At<'de, 'p> {
    v: &'de Value,
    path: Path<'p>,
    failed: &'p RefCell<Option<String>>,
}

/// Notes `path` as the place of the error, unless a deeper one was noted already.
fn note<T>(failed: &RefCell<Option<String>>, path: &Path, r: Result<T, Error>) -> Result<T, Error> {
    if r.is_err() && failed.borrow().is_none() {
        let mut s = String::new();
        path.write(&mut s);
        *failed.borrow_mut() = Some(s);
    }
    r
}

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

impl<'de> At<'de, '_> {
    /// The value's kind is not what `visitor` reads: serde's own message for it.
    fn refuse<T>(&self, visitor: &impl Visitor<'de>) -> Result<T, Error> {
        Err(de::Error::invalid_type(unexpected(self.v), visitor))
    }

    /// Only the visitor's methods for this kind of value are called (and so compiled), as
    /// serde_json does: each type's `deserialize_any` would pull in all of them.
    fn any<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(_) => self.number(visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(_) => self.seq(visitor),
            Value::Object(_) => self.map(visitor),
        }
    }

    fn number<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        let Value::Number(n) = self.v else { return self.refuse(&visitor) };
        match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => visitor.visit_u64(u),
            (None, Some(i)) => visitor.visit_i64(i),
            _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    fn bool<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => self.refuse(&visitor),
        }
    }

    fn unit<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_unit(),
            _ => self.refuse(&visitor),
        }
    }

    fn str<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::String(s) => visitor.visit_borrowed_str(s),
            _ => self.refuse(&visitor),
        }
    }

    fn seq<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        let Value::Array(items) = self.v else { return self.refuse(&visitor) };
        let mut seq = Seq { items: items.iter(), index: 0, path: &self.path, failed: self.failed };
        let v = visitor.visit_seq(&mut seq)?;
        match seq.items.len() {
            0 => Ok(v),
            _ => Err(de::Error::invalid_length(items.len(), &"fewer elements in array")),
        }
    }

    fn map<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        let Value::Object(map) = self.v else { return self.refuse(&visitor) };
        let mut access = Map { entries: map.iter(), value: None, path: &self.path, failed: self.failed };
        let v = visitor.visit_map(&mut access)?;
        match access.entries.len() {
            0 => Ok(v),
            _ => Err(de::Error::invalid_length(map.len(), &"fewer elements in map")),
        }
    }

    /// A struct is an object with named fields. (serde would also take a list of the fields in
    /// order, which nobody writing a scenario means.)
    fn object<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Array(_) => Err(de::Error::custom(LIST_FOR_OBJECT)),
            _ => self.map(visitor),
        }
    }
}

/// The message for a list where an object with named fields belongs.
pub const LIST_FOR_OBJECT: &str = "expected an object with named fields, not a list";

/// Each `deserialize_*` method reads its kind of value and notes the path of an error.
macro_rules! reads {
    ($($method:ident => $how:ident),* $(,)?) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            let r = self.$how(visitor);
            note(self.failed, &self.path, r)
        })*
    };
}

impl<'de> Deserializer<'de> for At<'de, '_> {
    type Error = Error;

    reads! {
        deserialize_any => any, deserialize_bool => bool, deserialize_unit => unit, deserialize_bytes => any,
        deserialize_byte_buf => any, deserialize_i8 => number, deserialize_i16 => number,
        deserialize_i32 => number, deserialize_i64 => number, deserialize_i128 => number,
        deserialize_u8 => number, deserialize_u16 => number, deserialize_u32 => number,
        deserialize_u64 => number, deserialize_u128 => number, deserialize_f32 => number,
        deserialize_f64 => number, deserialize_char => str, deserialize_str => str,
        deserialize_string => str, deserialize_identifier => str, deserialize_seq => seq,
        deserialize_map => map,
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let r = self.object(visitor);
        note(self.failed, &self.path, r)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.v {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let (failed, path) = (self.failed, &self.path);
        let r = match self.v {
            Value::String(variant) => visitor.visit_enum(Enum { variant, value: None, path, failed }),
            Value::Object(map) => match map.iter().next() {
                Some((variant, value)) if map.len() == 1 => visitor.visit_enum(Enum { variant, value: Some(value), path, failed }),
                _ => Err(de::Error::invalid_value(Unexpected::Map, &"map with a single key")),
            },
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        };
        note(failed, path, r)
    }
}

struct Seq<'de, 'p> {
    items: std::slice::Iter<'de, Value>,
    index: usize,
    path: &'p Path<'p>,
    failed: &'p RefCell<Option<String>>,
}

impl<'de> SeqAccess<'de> for Seq<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(v) = self.items.next() else { return Ok(None) };
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        seed.deserialize(At { v, path, failed: self.failed }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Map<'de, 'p> {
    entries: serde_json::map::Iter<'de>,
    value: Option<(&'de str, &'de Value)>,
    path: &'p Path<'p>,
    failed: &'p RefCell<Option<String>>,
}

impl<'de> MapAccess<'de> for Map<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        self.value = Some((key, value));
        // A key refused (an unknown field) is placed at the key itself.
        let r = seed.deserialize(de::value::BorrowedStrDeserializer::new(key)).map(Some);
        note(self.failed, &Path::Key(self.path, key), r)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, v) = self.value.take().ok_or_else(|| de::Error::custom("a value was read before its key"))?;
        seed.deserialize(At { v, path: Path::Key(self.path, key), failed: self.failed })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct Enum<'de, 'p> {
    variant: &'de str,
    value: Option<&'de Value>,
    path: &'p Path<'p>,
    failed: &'p RefCell<Option<String>>,
}

impl<'de, 'p> EnumAccess<'de> for Enum<'de, 'p> {
    type Error = Error;
    type Variant = Variant<'de, 'p>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Variant<'de, 'p>), Error> {
        let name = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(self.variant))?;
        Ok((name, Variant { variant: self.variant, value: self.value, path: self.path, failed: self.failed }))
    }
}

struct Variant<'de, 'p> {
    variant: &'de str,
    value: Option<&'de Value>,
    path: &'p Path<'p>,
    failed: &'p RefCell<Option<String>>,
}

impl<'de> Variant<'de, '_> {
    /// The variant's content, read where it is (`faults[0].pause`), if it is a `kind` of value.
    fn content<T>(self, kind: fn(&Value) -> bool, read: impl FnOnce(At<'de, '_>) -> Result<T, Error>, expected: &str) -> Result<T, Error> {
        let path = Path::Key(self.path, self.variant);
        let r = match self.value {
            Some(v) if kind(v) => return read(At { v, path, failed: self.failed }),
            Some(v) => Err(de::Error::invalid_type(unexpected(v), &expected)),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &expected)),
        };
        note(self.failed, &path, r)
    }
}

impl<'de> VariantAccess<'de> for Variant<'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            None | Some(Value::Null) => Ok(()),
            Some(v) => Err(de::Error::invalid_type(unexpected(v), &"unit")),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        self.content(|_| true, |at| seed.deserialize(at), "newtype variant")
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.content(Value::is_array, |at| at.deserialize_seq(visitor), "tuple variant")
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        self.content(Value::is_object, |at| at.deserialize_map(visitor), "struct variant")
    }
}
