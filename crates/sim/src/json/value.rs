//! What a [`Value`] holds, and the value at a JSON Pointer (`/clients/0/name`).

use super::{Map, Value};

impl Value {
    /// The value under `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value at a JSON Pointer (`/clients/0/name`; `~1` is `/` and `~0` is `~` in a key).
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut cur = self;
        for token in tokens(pointer)? {
            cur = match cur {
                Value::Object(m) => m.get(&token)?,
                Value::Array(a) => a.get(index(&token)?)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// The value at a JSON Pointer, to change.
    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut cur = self;
        for token in tokens(pointer)? {
            cur = match cur {
                Value::Object(m) => m.get_mut(&token)?,
                Value::Array(a) => a.get_mut(index(&token)?)?,
                _ => return None,
            };
        }
        Some(cur)
    }
}

/// A pointer's keys, unescaped; `None` for a pointer that neither is empty nor starts with
/// `/`.
fn tokens(pointer: &str) -> Option<impl Iterator<Item = String> + '_> {
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    Some(pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")))
}

/// An array index as a pointer writes it: digits, without a leading zero.
fn index(token: &str) -> Option<usize> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.bytes().try_fold(0usize, |n, b| n.checked_mul(10)?.checked_add(usize::from(b - b'0')))
}
