//! Kubernetes leader election: a `Lease` object (coordination.k8s.io/v1) on an API server
//! whose updates are optimistic (resourceVersion), and candidates that follow client-go's
//! `leaderelection`: `ttl_ms` is its LeaseDuration, with `renew_deadline_ms` and
//! `retry_period_ms`. Its slice is `service/kubernetes/`.

use super::super::{limits, Scenario, ScenarioError, TokenKind};
use super::super::settings::list;
use super::{Declaration, Inspector, Situation};

/// The lane of the Kubernetes API server that keeps the `Lease`.
pub const APISERVER: &str = "apiserver";

/// Kubernetes leader election, as the scenario's layer knows it.
pub static DECLARATION: Declaration = Declaration {
    title: "Lock service (Kubernetes Lease)",
    lock_word: "Lease",
    server_label: Some(["API server (Lease)", "API server (Lease)"]),
    lanes: |_| vec![APISERVER.into()],
    reserved: &[APISERVER],
    settings: &[
        // client-go's three durations (validation keeps LeaseDuration > RenewDeadline > 1.2 × RetryPeriod).
        &list::lock_ms("lock.ttl_ms", "ttl", "Lease duration", "the Lease's duration", |s| s.lock.ttl_ms.to_string()),
        &list::lock_ms("lock.renew_deadline_ms", "renewdeadline", "Renew deadline", "the leader's renew deadline", |s| s.lock.renew_deadline_ms.to_string()),
        &list::lock_ms("lock.retry_period_ms", "retryperiod", "Retry period", "the time between tries", |s| s.lock.retry_period_ms.to_string()),
        &list::OWN_TOKEN,
    ],
    validate,
    renews_itself: Some("a Kubernetes leader renews its Lease by itself every retry period; remove this step"),
    inspector: Inspector::Holder { held: "Lease held by", free: "Lease has no holder" },
    situations: Situation::SERVICE,
};

/// What client-go's `NewLeaderElector` refuses (tools/leaderelection), and a token it cannot give.
fn validate(sc: &Scenario) -> Result<(), ScenarioError> {
    let l = &sc.lock;
    let (lease, deadline, retry) = (l.ttl_ms, l.renew_deadline_ms.get(), l.retry_period_ms.get());
    let bad = if l.replica.is_some() {
        Some(("lock.replica", "the API server keeps the Lease in etcd, which replicates it; remove lock.replica".into()))
    } else if retry == 0 || retry > limits::DURATION_MS.get() {
        Some(("lock.retry_period_ms", format!("must be between 1 and {}", limits::DURATION_MS)))
    } else if lease <= l.renew_deadline_ms {
        // First: it bounds the deadline (the lease is at most DURATION_MS) for the product below.
        Some(("lock.ttl_ms", "is the LeaseDuration: it must be greater than renew_deadline_ms".into()))
    } else if deadline * 5 <= retry * 6 {
        Some(("lock.renew_deadline_ms", "must be greater than retry_period_ms × 1.2 (client-go's JitterFactor)".into()))
    } else if sc.token.source == TokenKind::RandomOwner {
        Some(("token.source", "a Lease's token is its leaseTransitions, counted by the API server: use counter (or none)".into()))
    } else {
        None
    };
    match bad {
        Some((path, why)) => Err(ScenarioError::at(path, why)),
        None => Ok(()),
    }
}
