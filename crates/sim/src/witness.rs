//! The authored run as the witness (issue 49): what a run did, as a fingerprint, so that a key
//! moment written for one run is shown on another only where that run did the same.
//!
//! A moment's words were read and judged true on the runs its author wrote it for: the scenario
//! as written, with its fix, with its challenge's solution ([`authored`]; a moment's `not_on`
//! names those it is not true on). Each moment keeps, in its `seen`, the fingerprint of each of
//! those runs where it is shown (`tests/witness.rs` computes them and checks the files;
//! `LEASELAB_BLESS=1` writes them). On any other run (an edit, a search find) the moment is shown
//! only where the run's fingerprint is one of those: the same service with the same choices, and
//! the same story, from the first event to the last. Whatever the moment says (who wrote over
//! whom, whose key a delete removed, that a check failed, which copy arrived first, that a retry
//! happened, what happens next, by which mechanism) is then as true as it was on the authored
//! run, whatever its words are. A change that leaves the story as it was (a pause a little
//! longer, a TTL a step up, with the same events in the same order and the same outcomes) keeps
//! the moments; any other hides them, and the narration, made from the events, still tells the
//! run. The numbers a text names are pinned by its `when` (`tests/texts.rs`).
//!
//! The fingerprint covers:
//! - the scenario's choices: its lock service, tokens, resource, network and clients' programs
//!   as the JSON writes them, without their numbers (the kind of lock, the token source, fencing,
//!   the release and renewal styles, each program's steps);
//! - the run's story: its events in order, each as its actor and what happened with every value
//!   it carries except times: no true or local time, no duration (a field whose name ends in
//!   `_us`, `_ms` or `_local`, or is `ms`), no message id (`msg`), no count of tries
//!   (`attempt`). A message's sending and receipt are not in it (its loss is); a cycle of one or
//!   two elements repeated in a row counts once (a renewal, or a refusal at the node and its
//!   client, more or less).

use serde::ser::{self, Serialize};

use crate::json::Value;
use crate::scenario::Scenario;
use crate::trace::{EventKind, Run};

/// The run's fingerprint, as a moment's `seen` writes it (16 hex digits).
pub fn fingerprint(sc: &Scenario, run: &Run) -> String {
    let mut h = Fnv::default();
    if let Value::Object(fields) = sc.to_value() {
        for (key, v) in &fields {
            if matches!(key.as_str(), "lock" | "token" | "resource" | "network" | "clients") {
                h.str(key);
                choices(v, &mut h);
            }
        }
    }
    let mut story: Vec<u64> = Vec::new();
    for e in &run.events {
        if !matches!(e.kind, EventKind::Send { .. } | EventKind::Receive { .. }) {
            let mut el = Fnv::default();
            el.u64(e.actor as u64);
            // Infallible: the hasher takes every value.
            let _ = e.kind.serialize(&mut el);
            story.push(el.0);
            // A cycle of one or two elements repeated counts once: a refusal, a renewal, a
            // node's refusal and its client's, more or less.
            for period in [1, 2] {
                let n = story.len();
                if n >= 2 * period && story[n - 2 * period..n - period] == story[n - period..] {
                    story.truncate(n - period);
                }
            }
        }
    }
    let story = story.iter().fold(h, |mut h, &el| *h.u64(el)).0;
    format!("{story:016x}")
}

/// A run's behaviour (issue 51): its events in order, each with its actor and every value it
/// carries but times, durations, message ids and counts of tries (as the story's, but every
/// event, and no cycle collapsed), leaving out the faults' own marks (a pause's start and end,
/// a crash, a partition and its healing, …: [`is_behaviour`]), which are what was done to the
/// run rather than what it did. Two runs with the same behaviour did the same things in the
/// same order, at other times.
pub fn behaviour(run: &Run) -> u64 {
    let mut h = Fnv::default();
    for e in run.events.iter().filter(|e| is_behaviour(&e.kind)) {
        h.u64(e.actor as u64);
        // Infallible: the hasher takes every value.
        let _ = e.kind.serialize(&mut h);
    }
    h.0
}

/// Whether an event is the run's doing rather than a fault's mark.
pub fn is_behaviour(e: &EventKind) -> bool {
    !(e.is_fault() || matches!(e, EventKind::Resumed { .. } | EventKind::Healed))
}

/// A scenario value without its numbers: its keys, texts, truths and nulls, in order.
fn choices(v: &Value, h: &mut Fnv) {
    match v {
        Value::Null => {
            h.u64(0);
        }
        Value::Bool(b) => {
            h.u64(2 + *b as u64);
        }
        Value::Number(_) => {
            h.u64(4);
        }
        Value::String(s) => {
            h.u64(5).str(s);
        }
        Value::Array(items) => {
            h.u64(6).u64(items.len() as u64);
            items.iter().for_each(|i| choices(i, h));
        }
        Value::Object(fields) => {
            h.u64(7).u64(fields.len() as u64);
            for (k, v) in fields {
                h.str(k);
                choices(v, h);
            }
        }
    }
}

/// FNV-1a, 64 bits: the same on every platform, and small.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A string, with its length first so that two strings never run together.
    fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64).bytes(s.as_bytes())
    }
}

/// Whether a field is a time, a duration, an id or a count of tries, which the story leaves out.
fn left_out(field: &str) -> bool {
    field.ends_with("_us") || field.ends_with("_ms") || field.ends_with("_local") || matches!(field, "ms" | "msg" | "attempt")
}

/// Never made: the hasher takes every value.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

type Done = Result<(), Never>;

impl ser::Serializer for &mut Fnv {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Done {
        self.u64(v as u64 + 2);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Done {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Done {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Done {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Done {
        self.u64(v as u64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Done {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Done {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Done {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Done {
        self.u64(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Done {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Done {
        self.u64(v.to_bits());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Done {
        self.serialize_u64(v.into())
    }
    fn serialize_str(self, v: &str) -> Done {
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Done {
        self.u64(v.len() as u64).bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Done {
        self.u64(0);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Done {
        self.u64(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Done {
        Ok(())
    }
    fn serialize_unit_struct(self, name: &'static str) -> Done {
        self.str(name);
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Done {
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(self, _: &'static str, _: u32, variant: &'static str, value: &T) -> Done {
        self.str(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Never> {
        self.u64(len.unwrap_or(0) as u64);
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, name: &'static str, _: usize) -> Result<Self, Never> {
        self.str(name);
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Never> {
        self.str(variant);
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Never> {
        self.u64(len.unwrap_or(0) as u64);
        Ok(self)
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Self, Never> {
        self.str(name);
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Self, Never> {
        self.str(variant);
        Ok(self)
    }
}

/// The compound parts of a value: each element or field goes into the hasher as it comes, but a
/// struct's fields that are times, durations or ids (`left_out`).
macro_rules! compound {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Fnv {
            type Ok = ();
            type Error = Never;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Done {
                value.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
    (fields $($trait:ident),*) => {$(
        impl ser::$trait for &mut Fnv {
            type Ok = ();
            type Error = Never;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Done {
                if left_out(key) {
                    return Ok(());
                }
                self.str(key);
                value.serialize(&mut **self)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);
compound!(fields SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for &mut Fnv {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Done {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Done {
        value.serialize(&mut **self)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

/// The runs a scenario's moments were written for: as written, with its fix, with its
/// challenge's solution (those that can be made).
pub fn authored(sc: &Scenario) -> Vec<(&'static str, Scenario)> {
    let mut out = vec![("as written", sc.clone())];
    if let Some(Ok(f)) = sc.fixed() {
        out.push(("fixed", f));
    }
    if let Some(Ok(c)) = crate::predict::solved(sc) {
        out.push(("solved", c));
    }
    out
}

/// Each moment's witnesses, as its `seen` should be: the fingerprint of each authored run on
/// which it is shown by its `when` alone, but those its `not_on` names; sorted and without repeats
/// (empty for a moment shown on none of them).
pub fn witnesses(sc: &Scenario) -> Vec<Vec<String>> {
    let mut bare = sc.clone();
    for m in &mut bare.moments {
        m.seen.clear();
    }
    let mut out = vec![Vec::new(); bare.moments.len()];
    for (label, authored) in authored(&bare) {
        let Ok(run) = crate::run(&authored) else { continue };
        let print = fingerprint(&authored, &run);
        for (i, m) in authored.moments.iter().enumerate() {
            let Some(id) = run.find(&m.on) else { continue };
            if run.moment(id).is_some_and(|t| t.contains(m.text.as_str())) && !m.not_on.iter().any(|n| n == label) {
                out[i].push(print.clone());
            }
        }
    }
    for seen in &mut out {
        seen.sort();
        seen.dedup();
    }
    out
}
