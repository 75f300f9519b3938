//! Numbers, as serde_json reads them: a whole number that fits a `u64` (or an `i64` when
//! negative), else an `f64`; a number too large for one is an error, and a fraction too small
//! is zero.

use super::{Parser, Syntax, EOF_VALUE, INVALID_NUMBER};
use crate::json::{Number, Value, N};

/// Powers of ten that an `f64` holds exactly.
const POW10: [f64; 23] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

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
                    return Err(self.error("number out of range"));
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

    /// `significand` × 10^`exponent`. Within 10^±22 this is one correctly rounded step, as in
    /// serde_json; beyond, steps of 10^22 (serde_json has a table of every power to 10^308).
    fn scaled(&self, positive: bool, significand: u64, mut exponent: i32) -> Result<f64, Syntax> {
        let mut f = significand as f64;
        while f != 0.0 && exponent != 0 {
            let step = exponent.clamp(-22, 22);
            if step > 0 {
                f *= POW10[step as usize];
                if f.is_infinite() {
                    return Err(self.error("number out of range"));
                }
            } else {
                f /= POW10[(-step) as usize];
            }
            exponent -= step;
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
