//! Numbers, as serde_json reads them: a whole number that fits a `u64` (or an `i64` when
//! negative), else an `f64`; a number too large for one is an error, and a fraction too small
//! is zero.

use super::{Parser, Syntax, EOF_VALUE, INVALID_NUMBER};
use crate::json::{Number, Value, N};

pub(super) const OUT_OF_RANGE: &str = "number out of range";

/// The powers of ten an `f64` holds exactly.
const EXACT: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/// 10^`n` rounded once to an `f64`, as the literal `1e{n}` is (and as serde_json's table of
/// them holds it), for `n` up to 308; `None` beyond. Past 10^22, from 5^`n` computed exactly
/// (10^n = 5^n × 2^n), rounded to 53 bits, ties to even.
fn pow10(n: usize) -> Option<f64> {
    if let Some(&p) = EXACT.get(n) {
        return Some(p);
    }
    if n > 308 {
        return None;
    }
    let mut limbs: Vec<u64> = vec![1];
    for _ in 0..n {
        let mut carry = 0u128;
        for limb in &mut limbs {
            let x = u128::from(*limb) * 5 + carry;
            *limb = x as u64;
            carry = x >> 64;
        }
        if carry > 0 {
            limbs.push(carry as u64);
        }
    }
    let top = limbs.len() - 1;
    let bits = top * 64 + (64 - limbs[top].leading_zeros() as usize);
    // The top 54 bits (53 and the rounding bit), and whether any bit below them is set.
    let dropped = bits - 54;
    let (word, offset) = (dropped / 64, dropped % 64);
    let pair = u128::from(limbs[word]) | limbs.get(word + 1).map_or(0, |&hi| u128::from(hi) << 64);
    let top54 = ((pair >> offset) as u64) & ((1 << 54) - 1);
    let sticky = limbs[..word].iter().any(|&l| l != 0) || limbs[word] & ((1u64 << offset) - 1) != 0;
    let mut mantissa = top54 >> 1;
    let mut exponent = dropped + 1 + n;
    if top54 & 1 == 1 && (sticky || mantissa & 1 == 1) {
        mantissa += 1;
        if mantissa == 1 << 53 {
            mantissa >>= 1;
            exponent += 1;
        }
    }
    // mantissa × 2^exponent: both exact in an f64 (10^308 is below 2^1024).
    Some(mantissa as f64 * f64::from_bits(((1023 + exponent) as u64) << 52))
}

impl Parser<'_> {
    /// A number, its sign read.
    pub(super) fn integer(&mut self, positive: bool) -> Result<Value, Syntax> {
        let Some(c) = self.next() else { return Err(self.error(EOF_VALUE)) };
        let significand = match c {
            b'0' => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(INVALID_NUMBER));
                }
                0
            }
            b'1'..=b'9' => {
                let mut s = u64::from(c - b'0');
                while let c @ b'0'..=b'9' = self.peek_or_null() {
                    let digit = u64::from(c - b'0');
                    if overflows(s, digit) {
                        return self.long_integer(positive, s).map(float);
                    }
                    self.i += 1;
                    s = s * 10 + digit;
                }
                s
            }
            _ => return Err(self.error(INVALID_NUMBER)),
        };
        Ok(match self.peek_or_null() {
            b'.' => float(self.decimal(positive, significand, 0)?),
            b'e' | b'E' => float(self.exponent(positive, significand, 0)?),
            _ if positive => Value::Number(Number::from(significand)),
            _ => {
                let neg = (significand as i64).wrapping_neg();
                // Past i64 (or -0): a float, as serde_json reads it.
                if neg >= 0 {
                    float(-(significand as f64))
                } else {
                    Value::Number(Number::from(neg))
                }
            }
        })
    }

    /// Digits past what a `u64` holds count as powers of ten.
    fn long_integer(&mut self, positive: bool, significand: u64) -> Result<f64, Syntax> {
        let mut exponent = 0;
        loop {
            match self.peek_or_null() {
                b'0'..=b'9' => {
                    self.i += 1;
                    exponent += 1;
                }
                b'.' => return self.decimal(positive, significand, exponent),
                b'e' | b'E' => return self.exponent(positive, significand, exponent),
                _ => return self.scaled(positive, significand, exponent),
            }
        }
    }

    fn decimal(&mut self, positive: bool, mut significand: u64, before_point: i32) -> Result<f64, Syntax> {
        self.i += 1;
        let mut after_point = 0;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = u64::from(c - b'0');
            if overflows(significand, digit) {
                // Digits past what the significand holds are skipped.
                while self.peek_or_null().is_ascii_digit() {
                    self.i += 1;
                }
                return self.maybe_exponent(positive, significand, before_point + after_point);
            }
            self.i += 1;
            significand = significand * 10 + digit;
            after_point -= 1;
        }
        // At least one digit after the point.
        if after_point == 0 {
            return Err(self.peek_error(if self.peek().is_some() { INVALID_NUMBER } else { EOF_VALUE }));
        }
        self.maybe_exponent(positive, significand, before_point + after_point)
    }

    fn maybe_exponent(&mut self, positive: bool, significand: u64, exponent: i32) -> Result<f64, Syntax> {
        match self.peek_or_null() {
            b'e' | b'E' => self.exponent(positive, significand, exponent),
            _ => self.scaled(positive, significand, exponent),
        }
    }

    fn exponent(&mut self, positive: bool, significand: u64, starting: i32) -> Result<f64, Syntax> {
        self.i += 1;
        let positive_exp = match self.peek_or_null() {
            b'+' => {
                self.i += 1;
                true
            }
            b'-' => {
                self.i += 1;
                false
            }
            _ => true,
        };
        let mut exp = match self.next() {
            None => return Err(self.error(EOF_VALUE)),
            Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
            Some(_) => return Err(self.error(INVALID_NUMBER)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.i += 1;
            let digit = i32::from(c - b'0');
            if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || digit > i32::MAX % 10) {
                // An exponent past i32: out of range upwards, zero downwards.
                if significand != 0 && positive_exp {
                    return Err(self.error(OUT_OF_RANGE));
                }
                while self.peek_or_null().is_ascii_digit() {
                    self.i += 1;
                }
                return Ok(if positive { 0.0 } else { -0.0 });
            }
            exp = exp * 10 + digit;
        }
        let exponent = if positive_exp { starting.saturating_add(exp) } else { starting.saturating_sub(exp) };
        self.scaled(positive, significand, exponent)
    }

    /// `significand` × 10^`exponent`, as serde_json computes it: one step by a power of ten
    /// (more for fractions below 10^-308); out of range when it overflows.
    fn scaled(&self, positive: bool, significand: u64, mut exponent: i32) -> Result<f64, Syntax> {
        let mut f = significand as f64;
        loop {
            match pow10(exponent.unsigned_abs() as usize) {
                Some(pow) => {
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                None => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }
}

/// Whether `s * 10 + digit` is past `u64::MAX`.
fn overflows(s: u64, digit: u64) -> bool {
    s >= u64::MAX / 10 && (s > u64::MAX / 10 || digit > u64::MAX % 10)
}

fn float(x: f64) -> Value {
    Value::Number(Number(N::Float(x)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_power_of_ten_is_the_literal() {
        for n in 0..=308 {
            let literal: f64 = format!("1e{n}").parse().unwrap();
            assert_eq!(super::pow10(n).map(f64::to_bits), Some(literal.to_bits()), "10^{n}");
        }
        assert_eq!(super::pow10(309), None);
    }
}
