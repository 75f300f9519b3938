//! Kubernetes leader election as a lock service (client-go, `tools/leaderelection`): a `Lease` object
//! (coordination.k8s.io/v1) kept by an API server whose updates are optimistic (each names the
//! `resourceVersion` it read; a stale one is answered 409 Conflict), and candidates that follow
//! client-go's `tools/leaderelection`:
//!
//! - A candidate reads the Lease every RetryPeriod (with jitter). It takes over only when the
//!   record has not changed for LeaseDuration by its own clock since it first saw it so: it never
//!   compares the record's times with its clock, only notices that they change.
//! - The leader renews every RetryPeriod; if it cannot within RenewDeadline, it stops leading.
//! - `leaseTransitions` grows by one at each change of holder: the token, if the resource checks
//!   it. client-go's own package doc warns that it "does not guarantee that only one client is
//!   acting as a leader (a.k.a. fencing)", and that it is "tolerant to arbitrary clock skew, but
//!   is not tolerant to arbitrary clock skew rate".
//!
//! The messages and events are in [`crate::wire::kubernetes`]; the API server is
//! `kubernetes/server.rs`, a candidate `kubernetes/client.rs`, their sentences
//! `kubernetes/words.rs`.
//!
//! Simplifications, said in the scenarios: one API server, whose etcd is not modelled (it keeps
//! the Lease across its own crash); a leader renews with one `PUT` naming the version it last
//! saw while that record names it and is young (client-go's fast path, since 1.30), and reads
//! first otherwise; a request unanswered by the next try is given up; times are compared on the
//! monotonic clock (`Cx::mono`: drift moves it, a jump does not), as Go's `time.Now()` does; a
//! candidate waits its own LeaseDuration, not the record's `leaseDurationSeconds`.

pub mod client;
pub mod server;
mod slice;
pub mod words;

/// client-go's `JitterFactor`: a candidate waits RetryPeriod × (1 + up to 1.2) between tries.
pub const JITTER_FACTOR: f64 = 1.2;
