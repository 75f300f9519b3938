//! JSON text to a [`serde_json::Value`], refusing what `serde_json::from_str::<Value>` lets
//! through silently: a key twice in one object (the last would win). [`parse`] names the key's
//! path (`lock.ttl_ms`) and where it is in the text.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// A key found twice: its path, and where in the text.
#[derive(Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub path: String,
    pub line: usize,
    pub column: usize,
}

/// Why the text is not one JSON value with distinct keys.
#[derive(Debug)]
pub enum Error {
    Syntax(serde_json::Error),
    Duplicate(Duplicate),
}

/// Parses JSON text; every object's keys must differ.
pub fn parse(text: &str) -> Result<Value, Error> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict { path: String::new(), found: &found }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match (value, found.into_inner()) {
        (Err(e), Some(path)) => Err(Error::Duplicate(Duplicate { path, line: e.line(), column: e.column() })),
        (Err(e), None) => Err(Error::Syntax(e)),
        (Ok(v), _) => Ok(v),
    }
}

struct Strict<'a> {
    path: String,
    /// Where the first duplicate key was found (the error itself can only carry a message).
    found: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(Strict { path: format!("{}[{}]", self.path, items.len()), found: self.found })? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.path.is_empty() { key.clone() } else { format!("{}.{key}", self.path) };
            if obj.contains_key(&key) {
                *self.found.borrow_mut() = Some(path);
                return Err(de::Error::custom("duplicate key"));
            }
            let v = map.next_value_seed(Strict { path, found: self.found })?;
            obj.insert(key, v);
        }
        Ok(Value::Object(obj))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_twice_is_refused_with_its_path_and_position() {
        let text = "{\"lock\": {\"ttl_ms\": 1,\n \"ttl_ms\": 2}}";
        match parse(text) {
            Err(Error::Duplicate(d)) => assert_eq!((d.path.as_str(), d.line), ("lock.ttl_ms", 2)),
            other => panic!("{other:?}"),
        }
        match parse("{\"a\": [{\"b\": 1, \"b\": 1}]}") {
            Err(Error::Duplicate(d)) => assert_eq!(d.path, "a[0].b"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn it_reads_what_serde_json_reads() {
        let text = r#"{"a": [1, -2, 3.5, "x\u00e9", null, true, {}], "b": {"c": []}}"#;
        assert_eq!(parse(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        assert!(matches!(parse("{\"a\": 1} x"), Err(Error::Syntax(_))));
        assert!(matches!(parse("[1,"), Err(Error::Syntax(_))));
    }
}
