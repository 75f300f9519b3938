//! serde's `Deserialize` for [`super::Fault`], read as serde reads an enum of struct variants
//! (`{"pause": {...}}`, with serde's words for each error), although each arm holds its kind's
//! struct: the derived reader would say "newtype variant" and "struct Pause" where a scenario's
//! reader ([`crate::from_value`], which the tests compare with serde) says "struct variant".

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, Error, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::Deserialize;

/// Reads a variant's content as a struct variant does, into the kind's struct `T`.
pub(super) struct Content<T>(pub &'static str, pub PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Content<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct variant Fault::{}", self.0)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::deserialize(SeqAccessDeserializer::new(seq))
    }
}

/// Reads a variant's name (or index) among `names`, as a derived enum does.
pub(super) struct Name(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Name {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for Name {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_u64<E: Error>(self, v: u64) -> Result<usize, E> {
        match usize::try_from(v) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(Unexpected::Unsigned(v), &format!("variant index 0 <= i < {}", self.0.len()).as_str())),
        }
    }

    fn visit_str<E: Error>(self, v: &str) -> Result<usize, E> {
        self.0.iter().position(|n| *n == v).ok_or_else(|| E::unknown_variant(v, self.0))
    }

    fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<usize, E> {
        match std::str::from_utf8(v) {
            Ok(s) => self.visit_str(s),
            Err(_) => Err(E::unknown_variant(&String::from_utf8_lossy(v), self.0)),
        }
    }
}
