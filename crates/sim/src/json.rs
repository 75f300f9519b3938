//! JSON as this program reads and writes it: scenarios, links, stored progress. A [`Value`], a
//! strict parser ([`parse`]: a key twice in one object is refused, with its path) and a writer
//! (`Display` writes compact text, [`to_string_pretty`] indented text).
//!
//! Written here rather than taken from serde_json for the download's size: serde_json's parser
//! goes through serde's visitors, its serializer is compiled once per output, and its objects
//! are B-tree maps whose node code is compiled for its keys (36 KB of the WebAssembly module).
//! The text is the same: the parser follows serde_json's grammar, numbers, messages and
//! positions, and the writer its layout, which `tests/json.rs` checks against serde_json on the
//! library, on text broken at every byte and on floats from the whole range. Two differences,
//! both deliberate:
//! - an object keeps its keys in the order written (serde_json sorts them unless its
//!   `preserve_order` is on, as it is for the command line: the app and the command line now
//!   write the same text);
//! - a float whose 17th digit is a tie is written rounded up (the standard library's shortest
//!   digits) where serde_json rounds it to even: both read back to the same number.
//!
//! `Value` implements serde's `Serialize` and `Deserialize` so that the command line and the
//! tests can pass it to serde_json; the app does not use them.

mod parse;
mod serde_impls;
mod value;
mod write;

use std::fmt;

pub use parse::{parse, Duplicate, Error, Syntax};
pub use write::to_string_pretty;

/// Where a value is in a document: the steps from the root, each borrowing the one before
/// it. Written `lock.ttl_ms`, `clients[0].steps[2]`.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    pub(crate) fn write(&self, out: &mut String) {
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
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

/// A JSON value.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number: a whole number that fits a `u64` or an `i64`, or else a finite `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(N);

#[derive(Clone, Copy, Debug, PartialEq)]
enum N {
    /// From 0 up.
    Pos(u64),
    /// Below 0.
    Neg(i64),
    Float(f64),
}

// A number is never NaN (JSON cannot write one), so equality is an equivalence.
impl Eq for Number {}
impl Eq for Map {}
impl Eq for Value {}

impl Number {
    /// `None` for infinities and NaN, which JSON cannot write.
    pub fn from_f64(x: f64) -> Option<Number> {
        x.is_finite().then_some(Number(N::Float(x)))
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::Pos(u) => Some(u),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self.0 {
            N::Pos(u) => i64::try_from(u).ok(),
            N::Neg(i) => Some(i),
            N::Float(_) => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        Some(match self.0 {
            N::Pos(u) => u as f64,
            N::Neg(i) => i as f64,
            N::Float(x) => x,
        })
    }
}

impl From<u64> for Number {
    fn from(u: u64) -> Number {
        Number(N::Pos(u))
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        Number(if i < 0 { N::Neg(i) } else { N::Pos(i as u64) })
    }
}

/// A JSON object: its keys in the order they were written (or inserted). A lookup scans the
/// keys (objects here are small; the parser checks a large one for a key given twice by
/// sorting its keys once).
#[derive(Clone, Debug, Default)]
pub struct Map(Vec<(String, Value)>);

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` (in its place if it is there, else last) and gives back the value it had.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// Takes `key` out, keeping the others in order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }
}

/// Two objects are equal when they have the same keys with equal values, in any order.
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl FromIterator<(String, Value)> for Map {
    /// A key given twice keeps its first place and its last value.
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(items: I) -> Map {
        let mut map = Map::new();
        for (k, v) in items {
            map.insert(k, v);
        }
        map
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, Value)>, fn(&'a (String, Value)) -> (&'a String, &'a Value)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

macro_rules! from_numbers {
    ($($ty:ty => $wide:ty),*) => {$(
        impl From<$ty> for Value {
            fn from(n: $ty) -> Value {
                Value::Number(Number::from(n as $wide))
            }
        }
    )*};
}
from_numbers!(u8 => u64, u32 => u64, u64 => u64, usize => u64, i32 => i64, i64 => i64);

impl From<f64> for Value {
    /// Infinities and NaN are `null`, as serde_json writes them.
    fn from(x: f64) -> Value {
        Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write::number(self, &mut out);
        f.write_str(&out)
    }
}
