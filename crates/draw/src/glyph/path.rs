//! Numbers and path data as SVG attributes: [`num`], [`push_num`], [`num_in`], [`d`].

/// A coordinate as SVG writes it: to a tenth of a pixel, without a trailing `.0` (integer
/// formatting only, which is much cheaper in WebAssembly than printing a float).
pub fn num(x: f64) -> String {
    let mut s = String::with_capacity(8);
    push_num(&mut s, x);
    s
}

/// Appends [`num`]`(x)` to `out`, without `format!` (thousands of coordinates are written for
/// each drawing of a large run, and the formatting machinery was a tenth of a drag's time).
pub fn push_num(out: &mut String, x: f64) {
    out.push_str(num_in(x, &mut [0; NUM_BYTES]));
}

/// The longest [`num`]: a sign, 19 digits, a point and a tenth.
pub const NUM_BYTES: usize = 24;

/// [`num`]`(x)` written at the end of `buf` and borrowed from it, for a caller that keeps the
/// text in a buffer of its own (no allocation here).
pub fn num_in(x: f64, buf: &mut [u8; NUM_BYTES]) -> &str {
    let tenths = if x.is_finite() { (x * 10.0).round() as i64 } else { 0 };
    let t = tenths.unsigned_abs();
    let mut i = buf.len();
    if t % 10 != 0 {
        buf[i - 1] = b'0' + (t % 10) as u8;
        buf[i - 2] = b'.';
        i -= 2;
    }
    let mut n = t / 10;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if tenths < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    std::str::from_utf8(&buf[i..]).unwrap_or_default()
}

/// Path data from commands and their coordinates: `d(&[("M", &[x, y]), ("L", &[x1, y1])])` is
/// `M{x} {y}L{x1} {y1}`, each number as [`num`] writes it.
pub fn d(commands: &[(&str, &[f64])]) -> String {
    let mut out = String::with_capacity(commands.len() * 12);
    for (c, xs) in commands {
        out.push_str(c);
        for (i, x) in xs.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            push_num(&mut out, *x);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn coordinates_are_written_to_a_tenth_of_a_pixel() {
        for (x, want) in [
            (0.0, "0"),
            (12.0, "12"),
            (12.34, "12.3"),
            (12.35, "12.4"),
            (-0.04, "0"),
            (-3.26, "-3.3"),
            (0.96, "1"),
            (f64::NAN, "0"),
            (1_234_567.89, "1234567.9"),
            (-100.0, "-100"),
            (-0.5, "-0.5"),
            (f64::MAX, "922337203685477580.7"),
            (f64::MIN, "-922337203685477580.8"),
        ] {
            assert_eq!(super::num(x), want, "{x}");
            assert_eq!(super::num_in(x, &mut [b'x'; super::NUM_BYTES]), want, "{x}");
        }
        assert_eq!(super::d(&[("M", &[1.0, 2.25]), ("Q", &[3.0, -4.0, 5.5, 6.0]), ("Z", &[])]), "M1 2.3Q3 -4 5.5 6Z");
    }
}
