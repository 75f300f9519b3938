//! Each actor's own clock: [`Clock`], a piecewise-linear map from true time to local time.
//!
//! A clock starts at an offset and ticks at `1 + drift_ppm / 10^6` local microseconds per true
//! microsecond. Faults scheduled in the scenario (jumps, drift changes) split it into segments.
//! Because every fault's true time is known before the run starts, the whole clock is known in
//! advance: the driver asks "what does B's clock read at true time t?" and "when does the Redis
//! node's clock first reach the key's expiry?", and both answers are exact.

use crate::time::Micros;

/// One piece of a clock: from `start` (true time) the clock reads `local` and ticks at `ppm`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    start: Micros,
    local: Micros,
    ppm: i64,
}

/// An actor's clock over the whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    segments: Vec<Segment>,
}

/// A change to a clock at a true time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockChange {
    /// The clock is stepped by this many microseconds (NTP stepping, an operator).
    Jump(Micros),
    /// From now on the clock drifts at this many parts per million.
    Drift(i64),
}

#[inline]
fn advance(local: Micros, elapsed: Micros, ppm: i64) -> Micros {
    if ppm == 0 {
        return local + elapsed;
    }
    // In 64 bits when the product fits (it does for any run the limits allow), else in 128: the
    // same truncating division either way.
    let e = elapsed.get();
    match e.checked_mul(ppm) {
        Some(p) => local + elapsed + Micros::us(p / 1_000_000),
        None => {
            let e = i128::from(e);
            local + Micros::us((e + e * i128::from(ppm) / 1_000_000) as i64)
        }
    }
}

impl Clock {
    /// A clock that reads `offset` at true time 0 and drifts at `ppm`, changed at the given
    /// true times. `changes` need not be sorted; changes at the same time apply in order.
    pub fn new(offset: Micros, ppm: i64, changes: &[(Micros, ClockChange)]) -> Clock {
        let mut sorted: Vec<(usize, &(Micros, ClockChange))> = changes.iter().enumerate().collect();
        crate::sort::by_key(&mut sorted, |(i, (t, _))| (*t, *i));
        let mut segments = vec![Segment { start: Micros::ZERO, local: offset, ppm }];
        for (_, (t, change)) in sorted {
            let t = (*t).max(Micros::ZERO);
            let now = Clock { segments: segments.clone() }.local_at(t);
            let last_ppm = segments.last().map(|s| s.ppm).unwrap_or(ppm);
            let seg = match change {
                ClockChange::Jump(by) => Segment { start: t, local: now + *by, ppm: last_ppm },
                ClockChange::Drift(p) => Segment { start: t, local: now, ppm: *p },
            };
            if segments.last().map(|s| s.start) == Some(t) {
                *segments.last_mut().expect("at least one segment") = seg;
            } else {
                segments.push(seg);
            }
        }
        Clock { segments }
    }

    /// A perfect clock: local time equals true time.
    pub fn perfect() -> Clock {
        Clock::new(Micros::ZERO, 0, &[])
    }

    #[inline]
    fn segment_at(&self, t: Micros) -> usize {
        // Most clocks never change (one segment), and the driver mostly reads the present, past
        // the last change.
        let last = self.segments.len() - 1;
        if self.segments[last].start <= t {
            return last;
        }
        self.earlier(t)
    }

    /// The last segment whose start is at or before t, looked for from the end: a clock has a
    /// segment for each change the scenario makes to it, and the driver asks near the present.
    #[inline(never)]
    fn earlier(&self, t: Micros) -> usize {
        self.segments.iter().rposition(|s| s.start <= t).unwrap_or(0)
    }

    /// What the clock reads at true time `t`.
    #[inline]
    pub fn local_at(&self, t: Micros) -> Micros {
        // The present is past the last change (the driver mostly asks that), so its segment is
        // read without a search.
        match self.segments.last() {
            Some(s) if s.start <= t => advance(s.local, t - s.start, s.ppm),
            _ => {
                let s = &self.segments[self.earlier(t)];
                advance(s.local, t - s.start, s.ppm)
            }
        }
    }

    /// The first true time at or after `from` when the clock reads at least `target`.
    /// `None` if it never does (a clock that jumps back forever is not possible here, so this
    /// only happens for absurd targets).
    pub fn when_reads(&self, target: Micros, from: Micros) -> Option<Micros> {
        let first = self.segment_at(from);
        for i in first..self.segments.len() {
            let s = &self.segments[i];
            let seg_from = if i == first { from } else { s.start };
            let seg_end = self.segments.get(i + 1).map(|n| n.start);
            let at_from = advance(s.local, seg_from - s.start, s.ppm);
            if at_from >= target {
                return Some(seg_from);
            }
            // Solve local(t) >= target within this segment; the rate is positive (|ppm| < 10^6).
            let need = i128::from((target - s.local).get());
            let rate = 1_000_000 + i128::from(s.ppm);
            let mut t = s.start + Micros::us(((need * 1_000_000 + rate - 1) / rate) as i64);
            while advance(s.local, t - s.start, s.ppm) < target {
                t += Micros::us(1);
            }
            let t = t.max(seg_from);
            match seg_end {
                Some(end) if t >= end => continue,
                _ => return Some(t),
            }
        }
        None
    }

    /// How fast the clock runs at true time `t`, in parts per million off true time.
    pub fn ppm_at(&self, t: Micros) -> i64 {
        self.segments[self.segment_at(t)].ppm
    }

    /// The clock's offset from true time at `t` (local minus true).
    pub fn offset_at(&self, t: Micros) -> Micros {
        self.local_at(t) - t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::{MS, SEC};

    #[test]
    fn perfect_clock_reads_true_time() {
        let c = Clock::perfect();
        assert_eq!(c.local_at(5 * SEC), 5 * SEC);
        assert_eq!(c.when_reads(7 * SEC, Micros::ZERO), Some(7 * SEC));
    }

    #[test]
    fn drift_runs_fast() {
        // 10 % fast: after 10 s of true time the clock reads 11 s.
        let c = Clock::new(Micros::ZERO, 100_000, &[]);
        assert_eq!(c.local_at(10 * SEC), 11 * SEC);
        assert_eq!(c.when_reads(11 * SEC, Micros::ZERO), Some(10 * SEC));
    }

    #[test]
    fn a_jump_moves_expiry_earlier() {
        // At true 5 s the clock jumps forward 20 s: it reads 10 s already at true 5 s.
        let c = Clock::new(Micros::ZERO, 0, &[(5 * SEC, ClockChange::Jump(20 * SEC))]);
        assert_eq!(c.local_at(5 * SEC - Micros::us(1)), 5 * SEC - Micros::us(1));
        assert_eq!(c.local_at(5 * SEC), 25 * SEC);
        assert_eq!(c.when_reads(10 * SEC, Micros::ZERO), Some(5 * SEC));
        assert_eq!(c.when_reads(30 * SEC, Micros::ZERO), Some(10 * SEC));
    }

    #[test]
    fn a_backward_jump_delays_expiry() {
        let c = Clock::new(Micros::ZERO, 0, &[(5 * SEC, ClockChange::Jump(-3 * SEC))]);
        assert_eq!(c.when_reads(6 * SEC, Micros::ZERO), Some(9 * SEC));
        assert_eq!(c.when_reads(4 * SEC, Micros::ZERO), Some(4 * SEC));
    }

    #[test]
    fn offset_and_drift_change() {
        let c = Clock::new(2 * SEC, 0, &[(10 * SEC, ClockChange::Drift(-500_000))]);
        assert_eq!(c.offset_at(Micros::ZERO), 2 * SEC);
        assert_eq!(c.local_at(12 * SEC), 13 * SEC);
        assert_eq!(c.when_reads(13 * SEC, Micros::ZERO), Some(12 * SEC));
        assert_eq!(c.when_reads(12 * SEC + 500 * MS, Micros::ZERO), Some(11 * SEC));
    }
}
