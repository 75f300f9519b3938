//! The sentences of Kubernetes leader election, made when an event is shown.

use crate::scenario::Scenario;
use crate::time::fmt;
use crate::trace::{ActorId, EventKind, Why};
use crate::wire::kubernetes::{Change, Event};

/// The sentence for an event a Kubernetes run words its own way (`None`: a common one).
pub fn narrate(sc: &Scenario, me: &str, kind: &EventKind) -> Option<String> {
    let l = &sc.lock;
    let deadline = fmt(l.renew_deadline_ms.to_micros());
    Some(match kind {
        EventKind::Acquired { token, until_local_us, .. } => {
            let t = token.map(|t| format!(" with token {t}, the Lease's leaseTransitions")).unwrap_or_default();
            format!(
                "{me} has written itself into the Lease: it is the leader{t}. It renews every {}; by its own clock it leads until {} unless it renews first.",
                fmt(l.retry_period_ms.to_micros()),
                fmt(*until_local_us)
            )
        }
        EventKind::Renewed { until_local_us } => {
            format!(
                "{me} renewed the Lease: by its own clock it leads until {} at least ({deadline} after its next round of tries begins).",
                fmt(*until_local_us)
            )
        }
        EventKind::Released { removed: true } => {
            format!("{me} gave the Lease up: its holder is now empty, and a candidate may take it at once.")
        }
        EventKind::Released { removed: false } => format!("{me}'s release was refused: the Lease had changed since it last saw it."),
        EventKind::LostLock { why: Why::RenewDeadline { deadline_us } } => {
            format!("{me} learns it no longer holds the lock: {}.", renew_deadline(*deadline_us))
        }
        EventKind::Abandoned { why: Why::RenewDeadline { deadline_us } } => {
            format!("{me} gives up the lock on its own judgment and stops: {}.", renew_deadline(*deadline_us))
        }
        _ => return None,
    })
}

/// Why a leader stops leading: its renew deadline passed.
fn renew_deadline(deadline_us: crate::time::Micros) -> String {
    format!(
        "its tries at renewing the Lease have failed for the renew deadline ({}, by its own clock), so it stops leading",
        fmt(deadline_us)
    )
}

/// Its own events, in its words.
impl crate::service::Words for Event {
    fn words(&self, sc: &Scenario, me: &str, name: &dyn Fn(ActorId) -> String) -> String {
        event(self, me, &fmt(sc.lock.ttl_ms.to_micros()), name)
    }
}

fn event(e: &Event, me: &str, lease: &str, name: &dyn Fn(ActorId) -> String) -> String {
    match e {
        Event::Held { holder, unchanged_us: crate::time::Micros::ZERO } => format!(
            "{me} reads the Lease: {holder} holds it, and the record is not the one {me} saw last (or {me} had seen none). {me} counts the lease duration ({lease}) from now, by its own clock, and waits."
        ),
        Event::Held { holder, unchanged_us } => format!(
            "{me} reads the Lease: {holder} holds it, and by {me}'s own clock the record has not changed for {}, less than the lease duration ({lease}): {me} waits and tries again.",
            fmt(*unchanged_us)
        ),
        Event::Written { client, change, rv, transitions } => {
            let c = name(*client);
            match change {
                Change::Created => format!("{me} creates the Lease with {c} as its holder (leaseTransitions {transitions}, resourceVersion {rv})."),
                Change::TookOver => format!(
                    "{me} accepts {c}'s update, which names the current resourceVersion: {c} is the holder now, and leaseTransitions is {transitions}. The API server checks versions, not who is still working."
                ),
                Change::Renewed => format!("{me} accepts {c}'s renewal: renewTime changes, and the Lease is at resourceVersion {rv}."),
                Change::Released => format!("{me} accepts {c}'s release: the Lease has no holder (resourceVersion {rv})."),
            }
        }
        Event::Conflict { client, sent: Some(s), rv: Some(rv) } => format!(
            "{me} refuses {}'s update with 409 Conflict: it names resourceVersion {s}, and the Lease is at {rv}: someone wrote it since {} read it.",
            name(*client),
            name(*client)
        ),
        Event::Conflict { client, .. } => format!("{me} refuses {}'s request with 409 Conflict.", name(*client)),
        Event::RenewFailed { holder: None, left_us } => format!(
            "{me}'s last try at renewing got no answer; by its own clock it has {} left before it must stop leading, and it tries again.",
            fmt(*left_us)
        ),
        Event::RenewFailed { holder: Some(holder), left_us } => format!(
            "{me} tries to renew and finds {holder} in the Lease. It goes on trying until its renew deadline, {} away by its own clock; its program is not told.",
            fmt(*left_us)
        ),
    }
}
