//! The lock services' own events ([`ServiceEvent`]): one arm per service that records events
//! of its own (`records` in the list, `registry::services!`), each carrying its
//! `wire::<module>::Event`, which answers `token()` and `tag(actor)` as [`EventKind`] does. A
//! run records one as [`EventKind::Service`]; its words are the service's (`lock::words`).

use serde::Serialize;

use super::{ActorId, EventKind};

/// The services' own events, and each one's way into [`EventKind`] (`Event::Held { .. }.into()`).
macro_rules! service_events {
    ($($arm:ident in $module:ident as $json:literal $(sends $msg:ident)? $(records $event:ident)?),* $(,)?) => {
        /// An event of one lock service's own. Its JSON is the service's event as it has always
        /// been written: `"type"` is the service's name.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
        #[serde(tag = "type")]
        pub enum ServiceEvent {
            $($(
                #[serde(rename = $json)]
                $arm(crate::wire::$module::$event),
            )?)*
        }

        impl ServiceEvent {
            /// The token the event carries (a new holder's), if any.
            pub fn token(&self) -> Option<u64> {
                match *self {
                    $($(ServiceEvent::$arm(ref e) => {
                        let e: &crate::wire::$module::$event = e;
                        e.token()
                    })?)*
                }
            }

            /// The word a key moment matches, and whose the event is.
            pub fn tag(&self, actor: ActorId) -> (&'static str, ActorId) {
                match *self {
                    $($(ServiceEvent::$arm(ref e) => {
                        let e: &crate::wire::$module::$event = e;
                        e.tag(actor)
                    })?)*
                }
            }
        }

        $($(
            impl From<crate::wire::$module::$event> for EventKind {
                fn from(e: crate::wire::$module::$event) -> EventKind {
                    EventKind::Service(ServiceEvent::$arm(e))
                }
            }
        )?)*
    };
}
crate::registry::services!(service_events);
