//! Simulated time: [`Micros`], integer microseconds, and how it is written for people.

/// A point or span of simulated time, in microseconds.
pub type Micros = i64;

/// Microseconds in a millisecond.
pub const MS: Micros = 1_000;
/// Microseconds in a second.
pub const SEC: Micros = 1_000_000;

/// Milliseconds (as written in scenarios) to microseconds.
pub fn from_ms(v: i64) -> Micros {
    v.saturating_mul(MS)
}

/// A time for narration: `12 s`, `41.2 s`, `350 ms`, `1.5 ms`.
pub fn fmt(us: Micros) -> String {
    let neg = us < 0;
    let a = us.unsigned_abs();
    let body = if a >= SEC as u64 {
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
    format!("{:>9.3}s", us as f64 / 1e6)
}

/// Microseconds as fractional milliseconds, for JSON output.
pub fn to_ms_f64(us: Micros) -> f64 {
    us as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_read_naturally() {
        assert_eq!(fmt(12 * SEC), "12 s");
        assert_eq!(fmt(41_200_000), "41.2 s");
        assert_eq!(fmt(41_203_400), "41.203 s");
        assert_eq!(fmt(350 * MS), "350 ms");
        assert_eq!(fmt(1_500), "1.5 ms");
        assert_eq!(fmt(-2 * SEC), "-2 s");
        assert_eq!(fmt(19_999_999), "20 s");
    }
}
