//! Shrinking an unsafe schedule, as a property-testing library shrinks a failing input:
//! [`Shrinker`] proposes smaller schedules (fewer faults, then shorter pauses, delays, cut-offs,
//! clock jumps and drift, each by a binary search, then later starts) and keeps each one whose
//! run is still unsafe, round after round until a round makes nothing smaller. Every schedule
//! it keeps was run and found unsafe, so the result is unsafe even where harm is not monotone
//! in a fault's size or start (then it is small, not necessarily the smallest).

use std::collections::VecDeque;

#[cfg(test)]
use crate::scenario::fault;
use crate::scenario::fault::{Crash, Restart};
use crate::scenario::Fault;
use crate::time::Millis;

/// One shrinking step in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    /// Remove fault `i` (a crash with its restart).
    Remove(usize),
    /// Binary search for the smallest size of fault `i` still unsafe: `hi` is known unsafe.
    Size { i: usize, lo: i64, hi: i64 },
    /// Binary search for the latest start of fault `i` still unsafe: `lo` is known unsafe.
    Later { i: usize, lo: i64, hi: i64 },
}

/// The schedule shrunk so far and the steps still to take.
#[derive(Clone, Debug)]
pub struct Shrinker {
    /// The smallest unsafe schedule found so far (the scenario's whole list of faults).
    pub best: Vec<Fault>,
    plans: VecDeque<Plan>,
    /// This round of plans made the schedule smaller: another round follows.
    changed: bool,
    end_ms: Millis,
}

/// `faults` without fault `i`, and without the restart that follows it if it is a crash.
fn without(faults: &[Fault], i: usize) -> Vec<Fault> {
    let mut c = faults.to_vec();
    let gone = c.remove(i);
    if let Fault::Crash(Crash { actor, at_ms }) = &gone {
        if let Some(j) = c.iter().position(|f| matches!(f, Fault::Restart(Restart { actor: a, at_ms: t }) if a == actor && t >= at_ms)) {
            c.remove(j);
        }
    }
    c
}

impl Shrinker {
    /// Starts from an unsafe schedule; `end_ms` is the run's end (starts move no later).
    pub fn new(best: Vec<Fault>, end_ms: Millis) -> Shrinker {
        let mut s = Shrinker { best, plans: VecDeque::new(), changed: false, end_ms };
        s.round();
        s
    }

    /// The plans of one round: removals (last fault first), then sizes, then starts.
    fn round(&mut self) {
        let n = self.best.len();
        let last = self.end_ms.get().saturating_sub(1) as i64;
        self.plans = (0..n).rev().map(Plan::Remove).collect();
        self.plans.extend((0..n).filter_map(|i| self.best[i].shrink_size().map(|hi| Plan::Size { i, lo: 1, hi })));
        // Not a restart (it follows its crash) nor a drop (a scenario's setting of the scene).
        let later = (0..n).filter(|&i| self.best[i].moves_later());
        let later: Vec<Plan> = later.map(|i| Plan::Later { i, lo: self.best[i].at_ms().get() as i64, hi: self.latest(i, last) }).collect();
        self.plans.extend(later);
        self.changed = false;
    }

    /// The latest fault `i` may start: a crash stays before its restart.
    fn latest(&self, i: usize, last: i64) -> i64 {
        let Fault::Crash(Crash { actor, at_ms }) = &self.best[i] else { return last };
        let restart = self.best.iter().filter_map(|f| match f {
            Fault::Restart(Restart { actor: a, at_ms: t }) if a == actor && t > at_ms => Some(t.get() as i64 - 1),
            _ => None,
        });
        restart.min().unwrap_or(last)
    }

    /// The next schedule to try, or `None` when a whole round made nothing smaller.
    pub fn propose(&mut self) -> Option<Vec<Fault>> {
        loop {
            let Some(&plan) = self.plans.front() else {
                if !self.changed {
                    return None;
                }
                self.round();
                continue;
            };
            match plan {
                Plan::Remove(i) if i < self.best.len() => return Some(without(&self.best, i)),
                Plan::Size { i, lo, hi } if lo < hi => {
                    let mut c = self.best.clone();
                    c[i] = c[i].shrunk_to(lo + (hi - lo) / 2);
                    return Some(c);
                }
                Plan::Later { i, lo, hi } if lo < hi => {
                    let mut c = self.best.clone();
                    *c[i].at_ms_mut() = Millis::new((lo + (hi - lo + 1) / 2) as u64);
                    return Some(c);
                }
                _ => {
                    self.plans.pop_front();
                }
            }
        }
    }

    /// What the schedule [`Shrinker::propose`] gave ended as: unsafe, or not.
    pub fn tell(&mut self, tried: Vec<Fault>, unsafe_: bool) {
        let Some(plan) = self.plans.front_mut() else { return };
        match plan {
            Plan::Remove(_) => {
                self.plans.pop_front();
                if unsafe_ {
                    // The indices have moved: start a new round from the smaller schedule.
                    self.best = tried;
                    self.round();
                    self.changed = true;
                }
                return;
            }
            Plan::Size { i, lo, hi } => {
                let v = tried[*i].shrink_size().unwrap_or(*hi);
                if unsafe_ {
                    *hi = v;
                } else {
                    *lo = v + 1;
                }
            }
            Plan::Later { i, lo, hi } => {
                let v = tried[*i].at_ms().get() as i64;
                if unsafe_ {
                    *lo = v;
                } else {
                    *hi = v - 1;
                }
            }
        }
        if unsafe_ {
            self.best = tried;
            self.changed = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives a shrinker with a judge, to the end.
    fn shrink(faults: Vec<Fault>, end_ms: u64, is_unsafe: impl Fn(&[Fault]) -> bool) -> (Vec<Fault>, usize) {
        let mut s = Shrinker::new(faults, Millis::new(end_ms));
        let mut runs = 0;
        while let Some(c) = s.propose() {
            runs += 1;
            let u = is_unsafe(&c);
            s.tell(c, u);
        }
        (s.best, runs)
    }

    fn pause(actor: &str, at_ms: u64, duration_ms: u64) -> Fault {
        Fault::Pause(fault::Pause { actor: actor.into(), at_ms: Millis::new(at_ms), duration_ms: Millis::new(duration_ms) })
    }

    #[test]
    fn a_pause_shrinks_to_the_shortest_and_latest_that_still_harms() {
        // Harm when the pause covers 100..=150 ms and lasts at least 70 ms.
        let harms = |f: &[Fault]| {
            f.iter().any(|f| matches!(f, Fault::Pause(fault::Pause { at_ms, duration_ms, .. }) if *at_ms <= Millis::new(100) && *at_ms + *duration_ms >= Millis::new(150) && *duration_ms >= Millis::new(70)))
        };
        let (best, runs) = shrink(vec![pause("B", 0, 5000), pause("A", 10, 900)], 10_000, harms);
        assert_eq!(best.len(), 1, "{best:?}");
        assert!(harms(&best));
        let Fault::Pause(fault::Pause { at_ms, duration_ms, .. }) = best[0] else { unreachable!() };
        assert_eq!((at_ms.get(), duration_ms.get()), (100, 70), "as late as harm allows, and as short");
        assert!(runs < 120, "{runs} runs");
    }

    #[test]
    fn a_crash_goes_with_its_restart_and_a_backward_jump_stays_backward() {
        let faults = vec![
            Fault::Crash(fault::Crash { actor: "redis".into(), at_ms: Millis::new(10) }),
            Fault::Restart(fault::Restart { actor: "redis".into(), at_ms: Millis::new(20) }),
            Fault::ClockJump(fault::ClockJump { actor: "redis".into(), at_ms: Millis::new(5), by_ms: -800 }),
        ];
        let harms = |f: &[Fault]| f.iter().any(|f| matches!(f, Fault::ClockJump(fault::ClockJump { by_ms, .. }) if *by_ms <= -300));
        let (best, _) = shrink(faults, 1000, harms);
        assert_eq!(best, vec![Fault::ClockJump(fault::ClockJump { actor: "redis".into(), at_ms: Millis::new(999), by_ms: -300 })]);
        assert_eq!(
            without(
                &[
                    Fault::Crash(fault::Crash { actor: "r".into(), at_ms: Millis::new(1) }),
                    pause("A", 2, 3),
                    Fault::Restart(fault::Restart { actor: "r".into(), at_ms: Millis::new(4) })
                ],
                0
            ),
            vec![pause("A", 2, 3)]
        );
    }

    /// With judges that are not monotone at all, the shrinker still ends within a bound and only
    /// ever keeps a schedule it was told is unsafe.
    #[test]
    fn any_judge_ends_and_keeps_only_what_it_was_told_is_unsafe() {
        for seed in 0..200u64 {
            let start = vec![
                pause("A", 100, 9000),
                Fault::ClockJump(fault::ClockJump { actor: "r".into(), at_ms: Millis::new(50), by_ms: -700 }),
                pause("B", 7, 300),
            ];
            let mut s = Shrinker::new(start.clone(), Millis::new(20_000));
            let mut unsafe_seen = vec![start];
            let mut runs = 0;
            while let Some(c) = s.propose() {
                runs += 1;
                assert!(runs < 5_000, "seed {seed}: no end in sight");
                let h = crate::rng::Rng::stream(seed, &format!("{c:?}")).next_u64();
                let harms = h.is_multiple_of(3);
                if harms {
                    unsafe_seen.push(c.clone());
                }
                s.tell(c, harms);
            }
            assert!(unsafe_seen.contains(&s.best), "seed {seed}: kept {:?}", s.best);
        }
    }
}
