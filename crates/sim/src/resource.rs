//! The protected resource: [`Store`], a counter with a version, the highest token it has
//! accepted, and the request ids it has applied. It follows SEMANTICS §6: atomic fencing
//! rejects a token lower than the highest accepted and records a higher one in the same step;
//! check-then-write checks in one step and writes in a later one; an external API ignores
//! tokens; idempotency keys make a request take effect at most once.

use crate::flat::Set;

use crate::scenario::{Fencing, Resource, ResourceKind, WriteOp};

pub mod server;

/// What the resource decides about a write when it arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Apply it now.
    Apply,
    /// Refuse it: its token is lower than the highest accepted.
    Reject,
    /// Already applied under this request id.
    Duplicate,
    /// A conditional write whose version no longer matches.
    Conflict { actual: u64 },
    /// Check-then-write: the check passed; apply it after the gap, without checking again.
    ApplyLater,
}

/// The resource's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub cfg: Resource,
    pub value: i64,
    pub version: u64,
    /// The highest token accepted (0: none yet).
    pub highest: u64,
    seen: Set<String>,
}

impl Store {
    pub fn new(cfg: Resource) -> Store {
        Store { cfg, value: 0, version: 0, highest: 0, seen: Set::new() }
    }

    /// Whether tokens are looked at at all.
    pub fn fences(&self) -> bool {
        self.cfg.kind != ResourceKind::External && self.cfg.fencing != Fencing::None
    }

    /// A read. With `activate`, the token is checked and recorded first (the new owner announces
    /// itself before it starts work). `Err(highest)` when the token is stale.
    pub fn read(&mut self, token: Option<u64>, activate: bool) -> Result<(i64, u64), u64> {
        if activate && self.fences() {
            if let Some(t) = token {
                if t < self.highest {
                    return Err(self.highest);
                }
                self.highest = t;
            }
        }
        Ok((self.value, self.version))
    }

    /// An external effect goes out; `false` when idempotency keys are on and this key has gone
    /// out before (the receiver recognises it and does nothing).
    pub fn send_effect(&mut self, key: &str) -> bool {
        if !self.cfg.idempotency {
            return true;
        }
        self.seen.insert(format!("effect:{key}"))
    }

    /// What to do with a write when it arrives.
    pub fn decide(&self, token: Option<u64>, request: &str, conditional: bool, read_version: Option<u64>) -> Decision {
        if self.cfg.idempotency && self.seen.contains(request) {
            return Decision::Duplicate;
        }
        if conditional {
            if let Some(v) = read_version {
                if v != self.version {
                    return Decision::Conflict { actual: self.version };
                }
            }
        }
        if !self.fences() {
            return Decision::Apply;
        }
        match token {
            Some(t) if t < self.highest => Decision::Reject,
            _ if self.cfg.fencing == Fencing::CheckThenWrite => Decision::ApplyLater,
            _ => Decision::Apply,
        }
    }

    /// Applies a write; returns the version before it and the value after it.
    pub fn apply(&mut self, token: Option<u64>, op: WriteOp, value: i64, request: &str) -> (u64, i64) {
        if self.fences() {
            if let Some(t) = token {
                self.highest = match self.cfg.fencing {
                    // The naive second step stores the token it checked earlier.
                    Fencing::CheckThenWrite => t,
                    _ => self.highest.max(t),
                };
            }
        }
        let before = self.version;
        self.value = match op {
            WriteOp::Set => value,
            WriteOp::Add => self.value + 1,
            // The entry's content does not depend on who builds it, nor on the value before.
            WriteOp::Rebuild => 1,
        };
        self.version += 1;
        if self.cfg.idempotency {
            self.seen.insert(request.to_string());
        }
        (before, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Millis;

    fn store(fencing: Fencing) -> Store {
        Store::new(Resource { kind: ResourceKind::Store, fencing, idempotency: false, check_write_gap_ms: Millis::new(10) })
    }

    #[test]
    fn atomic_fencing_rejects_older_and_accepts_equal() {
        let mut s = store(Fencing::Atomic);
        assert_eq!(s.decide(Some(34), "b", false, None), Decision::Apply);
        s.apply(Some(34), WriteOp::Set, 1, "b");
        assert_eq!(s.decide(Some(33), "a", false, None), Decision::Reject);
        assert_eq!(s.decide(Some(34), "b2", false, None), Decision::Apply);
    }

    #[test]
    fn no_fencing_accepts_anything() {
        let mut s = store(Fencing::None);
        s.apply(Some(34), WriteOp::Set, 1, "b");
        assert_eq!(s.decide(Some(33), "a", false, None), Decision::Apply);
    }

    #[test]
    fn check_then_write_defers_and_can_lower_the_highest() {
        let mut s = store(Fencing::CheckThenWrite);
        assert_eq!(s.decide(Some(34), "b", false, None), Decision::ApplyLater);
        assert_eq!(s.decide(Some(33), "a", false, None), Decision::ApplyLater);
        s.apply(Some(34), WriteOp::Set, 1, "b");
        s.apply(Some(33), WriteOp::Set, 1, "a");
        assert_eq!(s.highest, 33);
    }

    #[test]
    fn activation_advances_the_generation() {
        let mut s = store(Fencing::Atomic);
        assert_eq!(s.read(Some(34), true), Ok((0, 0)));
        assert_eq!(s.decide(Some(33), "a", false, None), Decision::Reject);
        assert_eq!(s.read(Some(33), true), Err(34));
    }

    #[test]
    fn idempotency_applies_once() {
        let mut s = Store::new(Resource {
            kind: ResourceKind::External,
            fencing: Fencing::None,
            idempotency: true,
            check_write_gap_ms: Millis::new(0),
        });
        assert_eq!(s.decide(None, "charge-17", false, None), Decision::Apply);
        s.apply(None, WriteOp::Add, 0, "charge-17");
        assert_eq!(s.decide(None, "charge-17", false, None), Decision::Duplicate);
        assert_eq!(s.value, 1);
    }

    #[test]
    fn conditional_write_conflicts_on_a_new_version() {
        let mut s = Store::new(Resource {
            kind: ResourceKind::Database,
            fencing: Fencing::None,
            idempotency: false,
            check_write_gap_ms: Millis::new(0),
        });
        s.apply(None, WriteOp::Set, 1, "b");
        assert_eq!(s.decide(None, "a", true, Some(0)), Decision::Conflict { actual: 1 });
        assert_eq!(s.decide(None, "a", true, Some(1)), Decision::Apply);
    }
}
