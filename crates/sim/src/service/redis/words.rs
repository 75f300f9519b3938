//! The sentences of a Redis lock's own events, made when an event is shown.

use super::{Event, Op};
use crate::scenario::Scenario;
use crate::trace::{ActorId, EventKind};

impl crate::service::Words for Event {
    fn words(&self, _: &Scenario, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        const REPLICA: &str = "a Redis that had become a replica, which answered READONLY";
        match *self {
            Event::ReadOnly { client, primary, op } => {
                let of = primary.map(|p| format!(" of {}", name(p))).unwrap_or_default();
                let what = match op {
                    Op::Acquire => "acquire script",
                    Op::Renew => "renewal",
                    Op::Release => "release",
                };
                format!(
                    "{me} is a replica{of} now, and a replica takes no writes: it answers {}'s {what} with READONLY (“You can't write against a read only replica”).",
                    name(client)
                )
            }
            Event::Answered { op: Op::Acquire, attempt } => format!("{me}'s attempt {attempt} fails: its command reached {REPLICA}."),
            Event::Answered { op: Op::Renew, .. } => format!("{me}'s renewal fails: it reached {REPLICA}."),
            Event::Answered { op: Op::Release, .. } => format!("{me}'s release fails: it reached {REPLICA}. {me} goes on without the lock."),
            Event::Resync { primary } => format!(
                "{me} can reach {p} again and catches up on the writes the partition held back: it asks {p} for them (a partial resync), and {p} sends the keys as they are now.",
                p = name(primary)
            ),
            Event::WatchdogStopped => format!(
                "{me}'s watchdog's renewal reached {REPLICA}, and the watchdog stops; {me}'s program is not told, {}.",
                EventKind::goes_on(true)
            ),
        }
    }
}
