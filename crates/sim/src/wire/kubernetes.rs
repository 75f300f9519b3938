//! What Kubernetes leader election sends and records (the service is `service/kubernetes/`).
//!
//! The `Lease` object of coordination.k8s.io/v1 as client-go's `LeaseLock` reads and writes it:
//! `holderIdentity`, `leaseDurationSeconds`, `acquireTime`, `renewTime`, `leaseTransitions`,
//! and the object's `resourceVersion`, which an update must name (optimistic concurrency: the
//! API server answers 409 Conflict if the object has changed since).

use serde::Serialize;

use crate::time::{fmt, Micros};

/// The Lease's spec: client-go's `LeaderElectionRecord`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// `holderIdentity`: the leader's identity, empty when released.
    pub holder: String,
    /// `leaseTransitions`: how many times the holder has changed.
    pub transitions: u64,
    /// `acquireTime` and `renewTime`, as the writer's own clock read them. No candidate compares
    /// them with its own clock: it only notices that they change (client-go's package doc).
    pub acquire_local: Micros,
    pub renew_local: Micros,
}

/// A request to the API server, or its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// `GET` the Lease.
    Get { req: u64 },
    /// The Lease and its `resourceVersion` (`None`: 404 Not Found).
    Got { req: u64, lease: Option<(Record, u64)> },
    /// `POST` (create) the Lease.
    Create { req: u64, record: Record },
    /// `PUT` (update) the Lease, if its `resourceVersion` is still `rv`.
    Update { req: u64, rv: u64, record: Record },
    /// 200 OK (or 201 Created): the Lease is now at `rv`. For the record only (the client keeps
    /// it with its lease; its logic never reads it): the grant it stands for.
    Done { req: u64, rv: u64, grant: Option<usize> },
    /// 409 Conflict: the `resourceVersion` is stale (or the Lease already exists).
    Conflict { req: u64 },
}

impl Msg {
    /// How the message is written on its arrow.
    pub fn describe(&self) -> String {
        let record = |r: &Record| {
            if r.holder.is_empty() {
                format!("no holder, leaseTransitions {}", r.transitions)
            } else {
                format!("holder {}, renewTime {}, leaseTransitions {}", r.holder, fmt(r.renew_local), r.transitions)
            }
        };
        match self {
            Msg::Get { .. } => "GET lease".into(),
            Msg::Got { lease: None, .. } => "404 Not Found".into(),
            Msg::Got { lease: Some((r, rv)), .. } => format!("lease: {}, resourceVersion {rv}", record(r)),
            Msg::Create { record: r, .. } => format!("POST lease: {}", record(r)),
            Msg::Update { rv, record: r, .. } => format!("PUT lease: {}, if resourceVersion {rv}", record(r)),
            Msg::Done { rv, .. } => format!("200 OK, resourceVersion {rv}"),
            Msg::Conflict { .. } => "409 Conflict".into(),
        }
    }
}

/// What changed when the API server wrote the Lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The Lease was created, with its first holder.
    Created,
    /// Another candidate wrote itself in as the holder.
    TookOver,
    /// The holder renewed it.
    Renewed,
    /// The holder gave it up (an empty holder).
    Released,
}

/// An event of Kubernetes leader election. `client` names an actor by its lane; `holder` is the
/// Lease's holderIdentity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kubernetes", rename_all = "kebab-case")]
pub enum Event {
    /// A candidate read the Lease: `holder` holds it, and by the candidate's own clock the
    /// record has not changed for `unchanged_us`, less than the lease duration: it waits.
    Held { holder: String, unchanged_us: Micros },
    /// The API server wrote the Lease for `client`, now at `rv`.
    Written { client: usize, change: Change, rv: u64, transitions: u64 },
    /// The API server refused `client`'s update: it named `sent` and the Lease is at `rv`.
    Conflict { client: usize, sent: Option<u64>, rv: Option<u64> },
    /// A leader's try at renewing failed: `holder` holds the Lease now (`None`: no answer came).
    RenewFailed { holder: Option<String>, left_us: Micros },
}

impl Event {
    /// The `leaseTransitions` a new holder takes the Lease with: its token, if tokens are used.
    pub fn token(&self) -> Option<u64> {
        match *self {
            Event::Written { change: Change::Created | Change::TookOver, transitions, .. } => Some(transitions),
            _ => None,
        }
    }

    /// The word a key moment matches, and whose the event is (`actor` for a client's own).
    pub fn tag(&self, actor: usize) -> (&'static str, usize) {
        match *self {
            Event::Held { .. } => ("held", actor),
            Event::Written { client, change: Change::Created | Change::TookOver, .. } => ("taken", client),
            Event::Written { client, change: Change::Renewed, .. } => ("lease-renewed", client),
            Event::Written { client, change: Change::Released, .. } => ("lease-released", client),
            Event::Conflict { client, .. } => ("conflict-409", client),
            Event::RenewFailed { .. } => ("renew-failed", actor),
        }
    }
}

/// What `msg::Payload`'s Kubernetes arm carries: a message, boxed (a Lease's record is larger
/// than the other messages, and every message is stored as large as the largest).
pub type BoxedMsg = Box<Msg>;
