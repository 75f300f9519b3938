//! A scenario as a [`json::Value`](crate::json::Value), written for its types ([`ToValue`]; `scenario/write.rs`
//! has their fields) rather than through serde's derived `Serialize`, for the download's size
//! (see `from_value`). A field is left out where its serde attribute skips it
//! (`skip_serializing_if`), and the fields are put in the order they are declared, which is
//! the order their keys are written in (a [`Map`] keeps it). The derived `Serialize` stays as the
//! specification: `tests/from_value.rs` checks that both give the same JSON text for every
//! library scenario and many generated ones.

use crate::json::{Map, Value};

/// A value as its derived `Serialize` gives it to serde_json.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! numbers {
    ($($ty:ty),*) => {$(
        impl ToValue for $ty {
            fn to_value(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}
numbers!(u64, u32, u8, usize, i64, f64, bool);

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_value)
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(T::to_value).collect())
    }
}

impl ToValue for crate::time::Millis {
    fn to_value(&self) -> Value {
        Value::from(self.get())
    }
}

impl ToValue for [crate::time::Millis; 2] {
    fn to_value(&self) -> Value {
        Value::Array(self.iter().map(ToValue::to_value).collect())
    }
}

impl<T: ToValue> ToValue for crate::flat::Map<String, T> {
    fn to_value(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
    }
}

/// An object being written.
pub(crate) struct Object(Map);

impl Object {
    pub(crate) fn new() -> Object {
        Object(Map::new())
    }

    pub(crate) fn put(mut self, key: &str, v: &impl ToValue) -> Object {
        self.0.insert(key.into(), v.to_value());
        self
    }

    /// Puts the field unless its serde attribute skips it (`skip` true).
    pub(crate) fn put_unless(self, skip: bool, key: &str, v: &impl ToValue) -> Object {
        if skip {
            self
        } else {
            self.put(key, v)
        }
    }

    pub(crate) fn done(self) -> Value {
        Value::Object(self.0)
    }

    /// The object as an enum's variant: `{ name: object }`.
    pub(crate) fn variant(self, name: &str) -> Value {
        Value::Object(Map::from_iter([(name.to_string(), self.done())]))
    }
}
