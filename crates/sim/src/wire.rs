//! The lock services' own messages and events, as data: what travels inside
//! [`crate::msg::Payload`] and what a run records inside [`crate::trace::EventKind`], one module
//! per service (declared from the list, `registry::services!`). This is the ground floor a
//! service's slice (`service/<name>/`) and the envelope both stand on: it names no server, no
//! client and no envelope, so the envelope can hold a service's messages while the service
//! builds envelopes, without an import cycle.

/// One module per lock service, from the list.
macro_rules! modules {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        $(pub mod $module;)*
    };
}
crate::registry::services!(modules);
