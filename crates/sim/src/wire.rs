//! The lock services' own messages and events, as data: what travels inside
//! [`crate::msg::Payload`] and what a run records inside [`crate::trace::EventKind`], one module
//! per service. This is the ground floor a service's slice (`service/<name>/`) and the envelope
//! both stand on: it names no server, no client and no envelope, so the envelope can hold a
//! service's messages while the service builds envelopes, without an import cycle.

pub mod consensus;
pub mod kubernetes;
pub mod redis;
pub mod zookeeper;
