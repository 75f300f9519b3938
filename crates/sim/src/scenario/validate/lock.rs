//! The lock service's settings, the token source and the resource: the ranges every scenario
//! has, then what its lock service refuses (its declaration's `validate`: a replica it does not
//! have, a token it cannot give).

use super::super::{limits, LockKind, Scenario, ScenarioError, LOCK_DELAY_MS_MAX};
use crate::time::Millis;

impl Scenario {
    /// Every lock setting given a value other than its default is one the service has (issue
    /// 49, D6: Redlock's `parallel` on ZooKeeper, Pacemaker's timeouts on any other service, were
    /// taken at any value and ignored, where `watchdog` was refused): refused by name otherwise.
    fn check_settings_it_has(&self) -> Result<(), ScenarioError> {
        match self.lock.strays().first() {
            Some(key) => {
                let kind = match crate::to_value::ToValue::to_value(&self.lock.kind) {
                    crate::json::Value::String(k) => k,
                    _ => String::new(),
                };
                Err(ScenarioError::at(format!("lock.{key}"), format!("is not a setting of the {kind} lock service (lock.kind): remove it")))
            }
            None => Ok(()),
        }
    }

    /// The lock service, the token source and the resource.
    pub(super) fn check_lock(&self) -> Result<(), ScenarioError> {
        use limits::*;
        let err = |p: String, m: String| Err(ScenarioError::at(p, m));
        let l = &self.lock;
        if l.ttl_ms == Millis::ZERO || l.ttl_ms > DURATION_MS {
            return err("lock.ttl_ms".into(), format!("must be between 1 and {DURATION_MS}"));
        }
        if let Some(r) = &l.replica {
            if r.lag_ms > DURATION_MS {
                return err("lock.replica.lag_ms".into(), format!("must be at most {DURATION_MS}"));
            }
        }
        // Checked whatever the kind: a scenario switched to Redlock later must still be valid.
        if !(0.0..=0.5).contains(&l.clock_drift_factor) {
            return err("lock.clock_drift_factor".into(), "must be between 0 and 0.5".into());
        }
        if l.lock_delay_ms > LOCK_DELAY_MS_MAX {
            return err(
                "lock.lock_delay_ms".into(),
                format!("is Chubby's lock-delay: at most {LOCK_DELAY_MS_MAX} (one minute, Chubby's bound)"),
            );
        }
        (l.kind.declaration().validate)(self)?;
        if l.watchdog && l.kind != LockKind::Redis {
            return err(
                "lock.watchdog".into(),
                "Redisson's watchdog renews a single Redis lock (kind redis); this lock service renews its own way: remove it".into(),
            );
        }
        if l.sentinel && (l.kind != LockKind::Redis || l.replica.is_none()) {
            return err(
                "lock.sentinel".into(),
                "Sentinel fails a Redis primary over to its replica: it needs kind redis and lock.replica".into(),
            );
        }
        if l.lock_delay_ms > Millis::ZERO && !matches!(l.kind, LockKind::Consensus | LockKind::ZooKeeper) {
            return err(
                "lock.lock_delay_ms".into(),
                "is Chubby's lock-delay, which only the consensus and ZooKeeper services have here; this lock service has none: remove it"
                    .into(),
            );
        }
        if l.fence_first && l.kind != LockKind::Pacemaker {
            return err("lock.fence_first".into(), "says when a node of a Pacemaker pair takes over (kind pacemaker); this lock service has no nodes that take over: remove it".into());
        }
        self.check_settings_it_has()?;
        if self.token.start == 0 || self.token.start > SEED {
            return err("token.start".into(), format!("must be between 1 and {SEED}"));
        }
        if self.resource.check_write_gap_ms > DURATION_MS {
            return err("resource.check_write_gap_ms".into(), format!("must be at most {DURATION_MS}"));
        }
        Ok(())
    }
}
