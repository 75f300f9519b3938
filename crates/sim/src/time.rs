//! Simulated time: [`Micros`], integer microseconds; [`Millis`], the milliseconds a scenario
//! writes; and how they are written for people.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Rem, Sub, SubAssign};

/// A point or span of simulated time, in microseconds: a type of its own, so that a count of
/// milliseconds (as scenarios write them) or a bare number cannot be taken for one. Made from
/// milliseconds by [`from_ms`], from microseconds by [`Micros::us`]; read back with
/// [`Micros::get`]. Spans add and subtract, scale by a number, and divide into a ratio.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Micros(i64);

/// Microseconds in a millisecond.
pub const MS: Micros = Micros(1_000);
/// Microseconds in a second.
pub const SEC: Micros = Micros(1_000_000);

/// Milliseconds (as written in scenarios) to microseconds.
pub fn from_ms(v: i64) -> Micros {
    Micros(v.saturating_mul(MS.0))
}

impl Micros {
    /// A count of milliseconds (as scenarios write them) as microseconds.
    pub const fn ms(n: u64) -> Micros {
        Micros(n as i64 * MS.0)
    }

    /// No time: the start of a run, or an empty span.
    pub const ZERO: Micros = Micros(0);
    /// Later than any run: a time that never comes.
    pub const MAX: Micros = Micros(i64::MAX);

    /// `n` seconds.
    pub const fn secs(n: i64) -> Micros {
        Micros(n * SEC.0)
    }

    /// `n` microseconds.
    pub const fn us(n: i64) -> Micros {
        Micros(n)
    }

    /// The number of microseconds.
    pub const fn get(self) -> i64 {
        self.0
    }

    /// Microseconds from a fractional count of them, toward zero (as `as i64` does).
    pub fn from_f64(us: f64) -> Micros {
        Micros(us as i64)
    }

    /// The microseconds as a float, for drawing and ratios.
    pub fn as_f64(self) -> f64 {
        self.0 as f64
    }

    /// In seconds, for drawing and rates.
    pub fn secs_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }

    /// In milliseconds, for drawing and JSON.
    pub fn ms_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// Whole milliseconds (toward zero).
    pub const fn whole_ms(self) -> i64 {
        self.0 / 1_000
    }

    pub fn saturating_add(self, o: Micros) -> Micros {
        Micros(self.0.saturating_add(o.0))
    }

    pub fn saturating_sub(self, o: Micros) -> Micros {
        Micros(self.0.saturating_sub(o.0))
    }

    pub fn abs(self) -> Micros {
        Micros(self.0.abs())
    }

    pub fn unsigned_abs(self) -> u64 {
        self.0.unsigned_abs()
    }

    pub fn is_positive(self) -> bool {
        self.0 > 0
    }

    pub fn is_negative(self) -> bool {
        self.0 < 0
    }
}

/// Debug and Display as the number's: a trace listing, a test's message, the editor's field
/// (sentences word a time with [`fmt`]).
macro_rules! as_number {
    ($($ty:ty),*) => {$(
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }
    )*};
}
as_number!(Micros, Millis);

impl serde::Serialize for Micros {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

impl Add for Micros {
    type Output = Micros;
    fn add(self, o: Micros) -> Micros {
        Micros(self.0 + o.0)
    }
}

impl Sub for Micros {
    type Output = Micros;
    fn sub(self, o: Micros) -> Micros {
        Micros(self.0 - o.0)
    }
}

impl AddAssign for Micros {
    fn add_assign(&mut self, o: Micros) {
        self.0 += o.0;
    }
}

impl SubAssign for Micros {
    fn sub_assign(&mut self, o: Micros) {
        self.0 -= o.0;
    }
}

impl Neg for Micros {
    type Output = Micros;
    fn neg(self) -> Micros {
        Micros(-self.0)
    }
}

/// A span scaled: `3 * SEC`.
impl Mul<Micros> for i64 {
    type Output = Micros;
    fn mul(self, t: Micros) -> Micros {
        Micros(self * t.0)
    }
}

impl Mul<i64> for Micros {
    type Output = Micros;
    fn mul(self, n: i64) -> Micros {
        Micros(self.0 * n)
    }
}

/// A span divided: `ttl / 3`.
impl Div<i64> for Micros {
    type Output = Micros;
    fn div(self, n: i64) -> Micros {
        Micros(self.0 / n)
    }
}

/// How many times one span goes into another.
impl Div for Micros {
    type Output = i64;
    fn div(self, o: Micros) -> i64 {
        self.0 / o.0
    }
}

impl Rem for Micros {
    type Output = Micros;
    fn rem(self, o: Micros) -> Micros {
        Micros(self.0 % o.0)
    }
}

impl std::iter::Sum for Micros {
    fn sum<I: Iterator<Item = Micros>>(it: I) -> Micros {
        Micros(it.map(|t| t.0).sum())
    }
}

/// A count of milliseconds, as a scenario writes its times (`ttl_ms`, `at_ms`): a type of its
/// own, so that it cannot be taken for microseconds or for a bare number. Never negative (a
/// clock's offset or jump, which may be, stays an `i64`). Made by [`Millis::new`], read back
/// with [`Millis::get`], and a time in the engine only through [`Millis::to_micros`]. Its JSON,
/// its Debug and its Display are the number's.
/// (`Default`, zero, is what the derived readers' `#[serde(default)]` gives.)
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Millis(u64);

impl Millis {
    /// No time: a fault at the start, no lock-delay.
    pub const ZERO: Millis = Millis(0);

    /// `n` milliseconds.
    pub const fn new(n: u64) -> Millis {
        Millis(n)
    }

    /// The number of milliseconds.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The same time in microseconds (the longest a [`Micros`] holds, beyond it).
    pub const fn to_micros(self) -> Micros {
        if self.0 > (i64::MAX / MS.0) as u64 {
            Micros::MAX
        } else {
            Micros(self.0 as i64 * MS.0)
        }
    }
}

/// The end of a span that starts at a time: `at_ms + duration_ms` (the longest a `u64` holds,
/// beyond it, as [`Millis::to_micros`] does, rather than overflowing).
impl Add for Millis {
    type Output = Millis;
    fn add(self, o: Millis) -> Millis {
        Millis(self.0.saturating_add(o.0))
    }
}

/// A time for narration: `12 s`, `41.2 s`, `350 ms`, `1.5 ms`.
pub fn fmt(us: Micros) -> String {
    let neg = us.is_negative();
    let a = us.unsigned_abs();
    let body = if a >= SEC.get() as u64 {
        let whole = a / 1_000_000;
        let frac = a % 1_000_000;
        // Milliseconds are enough for a sentence; trailing zeros go.
        let ms3 = (frac + 500) / 1000;
        if ms3 == 0 {
            format!("{whole} s")
        } else if ms3 == 1000 {
            format!("{} s", whole + 1)
        } else {
            let s = format!("{whole}.{ms3:03}");
            format!("{} s", s.trim_end_matches('0'))
        }
    } else if a.is_multiple_of(1000) {
        format!("{} ms", a / 1000)
    } else {
        let s = format!("{}.{:03}", a / 1000, a % 1000);
        format!("{} ms", s.trim_end_matches('0'))
    };
    if neg {
        format!("-{body}")
    } else {
        body
    }
}

/// A fixed-width time for trace listings: `  41.203s`.
pub fn fmt_column(us: Micros) -> String {
    format!("{:>9.3}s", us.secs_f64())
}

/// Microseconds as fractional milliseconds, for JSON output.
pub fn to_ms_f64(us: Micros) -> f64 {
    us.ms_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_read_naturally() {
        assert_eq!(fmt(12 * SEC), "12 s");
        assert_eq!(fmt(Micros(41_200_000)), "41.2 s");
        assert_eq!(fmt(Micros(41_203_400)), "41.203 s");
        assert_eq!(fmt(350 * MS), "350 ms");
        assert_eq!(fmt(Micros(1_500)), "1.5 ms");
        assert_eq!(fmt(-2 * SEC), "-2 s");
        assert_eq!(fmt(Micros(19_999_999)), "20 s");
    }

    #[test]
    fn milliseconds_become_microseconds_and_the_longest_stays_the_longest() {
        assert_eq!(Millis::new(1_500).to_micros(), Micros(1_500_000));
        assert_eq!(Millis::ZERO.to_micros(), Micros::ZERO);
        assert_eq!(Millis::new(i64::MAX as u64 / 1_000).to_micros(), Micros(i64::MAX / 1_000 * 1_000));
        assert_eq!(Millis::new(i64::MAX as u64 / 1_000 + 1).to_micros(), Micros::MAX);
        assert_eq!(Millis::new(u64::MAX).to_micros(), Micros::MAX);
        assert_eq!(format!("{} {:?}", Millis::new(250), Millis::new(250)), "250 250");
        assert_eq!(Millis::new(u64::MAX) + Millis::new(1), Millis::new(u64::MAX));
    }
}
