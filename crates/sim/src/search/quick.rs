//! The quick pass's schedules: the changes of the space made to the scenario's faults, and
//! random schedules of three.

use crate::scenario::Fault;
use crate::time::Millis;

use super::{Candidate, Search};

impl Search {
    /// Three faults shaped like those of the space, at random times and sizes.
    pub(super) fn random_schedule(&mut self) -> Vec<Candidate> {
        self.cov.random += 1;
        let k = 3;
        let end = self.base.duration_ms.get().max(2) as i64;
        let ttl = self.base.lock.ttl_ms.get().max(1) as i64;
        (0..k)
            .map(|_| {
                let mut c = self.space[self.rng.range_inclusive(0, self.space.len() as i64 - 1) as usize].clone();
                let at = self.rng.range_inclusive(0, end - 2);
                let size = self.rng.range_inclusive(1, 3 * ttl);
                let mut prev = at;
                for f in &mut c.faults {
                    // A restart follows its crash.
                    let t = if matches!(f, Fault::Restart(_)) { self.rng.range_inclusive(prev + 1, end - 1) } else { at };
                    *f.at_ms_mut() = Millis::new(t as u64);
                    prev = t;
                    *f = f.resized(Millis::new(size as u64));
                }
                c
            })
            .collect()
    }

    /// The scenario's faults with the changes of the space: its own stay in their places (a
    /// fix may name them by place), each changed or removed where a candidate replaces it;
    /// added faults follow.
    pub(super) fn changed(&mut self, added: Vec<Candidate>) -> Vec<Fault> {
        for k in added.iter().map(|c| c.kind).collect::<crate::flat::Set<_>>() {
            *self.cov.by_kind.entry(k).or_default() += 1;
        }
        self.cov.max_faults = self.cov.max_faults.max(added.len());
        if added.iter().any(|c| c.replaces.is_some()) {
            self.cov.own += 1;
        }
        let mut faults = Vec::with_capacity(self.base.faults.len() + added.len());
        for (i, f) in self.base.faults.iter().enumerate() {
            match added.iter().find(|c| c.replaces == Some(i)) {
                Some(c) => faults.extend(c.faults.iter().cloned()),
                None => faults.push(f.clone()),
            }
        }
        faults.extend(added.into_iter().filter(|c| c.replaces.is_none()).flat_map(|c| c.faults));
        faults
    }
}
