//! The lock service's settings, the token source and the resource: each service's own ranges,
//! and what it refuses (a replica it does not have, a token it cannot give).

use super::super::{limits, CounterStore, LockKind, Scenario, ScenarioError, TokenKind, LOCK_DELAY_MS_MAX, ZK_SESSION_TIMEOUT_MS};

impl Scenario {
    /// The lock service, the token source and the resource.
    pub(super) fn check_lock(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        let l = &self.lock;
        if l.ttl_ms == 0 || l.ttl_ms > DURATION_MS {
            return err("lock.ttl_ms".into(), format!("must be between 1 and {DURATION_MS}"));
        }
        if let Some(r) = &l.replica {
            if r.lag_ms > DURATION_MS {
                return err("lock.replica.lag_ms".into(), format!("must be at most {DURATION_MS}"));
            }
        }
        // The replicated services: their members, their election timeout, and their own token.
        let replicated = match l.kind {
            LockKind::Consensus => Some(("a consensus service", "members", "a consensus lock's token is its key's revision")),
            LockKind::ZooKeeper => Some(("a ZooKeeper ensemble", "servers", "a ZooKeeper lock's token is its znode's creation zxid")),
            _ => None,
        };
        if let Some((what, members, token)) = replicated {
            if l.nodes == 0 || l.nodes > 9 {
                return err("lock.nodes".into(), format!("{what} needs between 1 and 9 {members}"));
            }
            if l.replica.is_some() {
                return err("lock.replica".into(), format!("{what} replicates by itself; remove lock.replica"));
            }
            if l.election_timeout_ms == 0 || l.election_timeout_ms > DURATION_MS {
                return err("lock.election_timeout_ms".into(), format!("must be between 1 and {DURATION_MS}"));
            }
            if self.token.source == TokenKind::RandomOwner {
                return err("token.source".into(), format!("{token}: use counter (or none)"));
            }
        }
        if l.lock_delay_ms > LOCK_DELAY_MS_MAX {
            return err(
                "lock.lock_delay_ms".into(),
                format!("is Chubby's lock-delay: at most {LOCK_DELAY_MS_MAX} (one minute, Chubby's bound)"),
            );
        }
        if l.lock_delay_ms > 0 && l.kind == LockKind::ZooKeeper {
            // FIXME: the ensemble would keep an expired holder's znode for the delay.
            return err(
                "lock.lock_delay_ms".into(),
                "only the consensus service has a lock-delay in this model: set it to 0 for ZooKeeper".into(),
            );
        }
        if l.kind == LockKind::ZooKeeper {
            let [lo, hi] = ZK_SESSION_TIMEOUT_MS;
            if !(lo..=hi).contains(&l.ttl_ms) {
                return err(
                    "lock.ttl_ms".into(),
                    format!("is ZooKeeper's session timeout: between {lo} and {hi} (2 to 20 ticks of tickTime=2000)"),
                );
            }
        }
        if l.kind == LockKind::Kubernetes {
            // client-go's NewLeaderElector refuses the same (tools/leaderelection).
            let (lease, deadline, retry) = (l.ttl_ms, l.renew_deadline_ms, l.retry_period_ms);
            let bad = if l.replica.is_some() {
                Some(("lock.replica", "the API server keeps the Lease in etcd, which replicates it; remove lock.replica".into()))
            } else if retry == 0 || retry > DURATION_MS {
                Some(("lock.retry_period_ms", format!("must be between 1 and {DURATION_MS}")))
            } else if lease <= deadline {
                // First: it bounds the deadline (the lease is at most DURATION_MS) for the product below.
                Some(("lock.ttl_ms", "is the LeaseDuration: it must be greater than renew_deadline_ms".into()))
            } else if deadline * 5 <= retry * 6 {
                Some(("lock.renew_deadline_ms", "must be greater than retry_period_ms × 1.2 (client-go's JitterFactor)".into()))
            } else if self.token.source == TokenKind::RandomOwner {
                Some(("token.source", "a Lease's token is its leaseTransitions, counted by the API server: use counter (or none)".into()))
            } else {
                None
            };
            if let Some((path, why)) = bad {
                return err(path.into(), why);
            }
        }
        // Checked whatever the kind: a scenario switched to Redlock later must still be valid.
        if !(0.0..=0.5).contains(&l.clock_drift_factor) {
            return err("lock.clock_drift_factor".into(), "must be between 0 and 0.5".into());
        }
        if l.kind == LockKind::Redlock {
            if l.nodes == 0 || l.nodes > 9 {
                return err("lock.nodes".into(), "Redlock needs between 1 and 9 nodes".into());
            }
            if l.replica.is_some() {
                return err("lock.replica".into(), "Redlock's nodes are independent masters without replicas".into());
            }
            if l.node_timeout_ms == 0 || l.node_timeout_ms > DURATION_MS {
                return err("lock.node_timeout_ms".into(), format!("must be between 1 and {DURATION_MS}"));
            }
            if self.token.source == TokenKind::Counter && self.token.store == CounterStore::Redis {
                return err(
                    "token.store".into(),
                    "Redlock has no counter of its own: a counter on one node is lost with that node; use durable".into(),
                );
            }
        }
        if l.watchdog && l.kind != LockKind::Redis {
            return err(
                "lock.watchdog".into(),
                "Redisson's watchdog renews a single Redis lock (kind redis); this lock service renews its own way: remove it".into(),
            );
        }
        if self.token.start == 0 || self.token.start > SEED {
            return err("token.start".into(), format!("must be between 1 and {SEED}"));
        }
        if self.resource.check_write_gap_ms > DURATION_MS {
            return err("resource.check_write_gap_ms".into(), format!("must be at most {DURATION_MS}"));
        }
        Ok(())
    }
}
