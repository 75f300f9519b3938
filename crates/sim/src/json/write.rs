//! A [`Value`] as JSON text, laid out as serde_json lays it out: compact (`Display`) or
//! indented by two spaces ([`to_string_pretty`]), strings escaped as it escapes them, floats
//! written as it writes them (`1.0`, `0.001`, `1e+300`).

use std::fmt;

use super::{Number, Value, N};

impl fmt::Display for Value {
    /// Compact JSON: `{"a":[1,2]}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        write(self, None, &mut out);
        f.write_str(&out)
    }
}

/// JSON indented by two spaces, as `serde_json::to_string_pretty` writes it.
pub fn to_string_pretty(v: &Value) -> String {
    let mut out = String::new();
    write(v, Some(0), &mut out);
    out
}

/// Writes `v`; `indent` is the depth of the value when pretty, `None` when compact.
fn write(v: &Value, indent: Option<usize>, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(n, out),
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                separate(i, indent, out);
                write(item, indent.map(|d| d + 1), out);
            }
            close(items.is_empty(), indent, ']', out);
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                separate(i, indent, out);
                string(k, out);
                out.push_str(if indent.is_some() { ": " } else { ":" });
                write(item, indent.map(|d| d + 1), out);
            }
            close(map.is_empty(), indent, '}', out);
        }
    }
}

/// Before the `i`th item: a comma after the first, and when pretty a new line indented.
fn separate(i: usize, indent: Option<usize>, out: &mut String) {
    if i > 0 {
        out.push(',');
    }
    if let Some(d) = indent {
        line(d + 1, out);
    }
}

/// The closing bracket: on its own line when pretty and something came before it.
fn close(empty: bool, indent: Option<usize>, bracket: char, out: &mut String) {
    if let (Some(d), false) = (indent, empty) {
        line(d, out);
    }
    out.push(bracket);
}

fn line(depth: usize, out: &mut String) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A string in quotes: `"` and `\` escaped, control characters as `\n` or `\u001f`.
fn string(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// A number as serde_json writes it.
pub(super) fn number(n: &Number, out: &mut String) {
    use std::fmt::Write;
    match n.0 {
        N::Pos(u) => {
            let _ = write!(out, "{u}");
        }
        N::Neg(i) => {
            let _ = write!(out, "{i}");
        }
        N::Float(x) => float(x, out),
    }
}

/// A finite float as serde_json (its `zmij`) writes it: the shortest digits that read back as
/// `x`, in decimal notation from 10^-5 to 10^16 (with `.0` when whole) and in scientific
/// notation beyond (`1e+16`, `1.5e-7`).
pub(super) fn float(x: f64, out: &mut String) {
    // Not in a value (a number is finite); in a message, as serde_json words them.
    if !x.is_finite() {
        out.push_str(if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        });
        return;
    }
    if x.is_sign_negative() {
        out.push('-');
    }
    if x == 0.0 {
        out.push_str("0.0");
        return;
    }
    // The shortest digits, from the standard library: `1.2345e3`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: isize = exp.strip_prefix('-').map_or_else(|| parse_digits(exp), |e| -parse_digits(e));
    let length = digits.len() as isize;
    // The decimal point falls after `kk` digits: 10^(kk-1) <= x < 10^kk.
    let kk = exp + 1;
    let k = kk - length;
    if 0 <= k && kk <= 16 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', k as usize));
        out.push_str(".0");
    } else if 0 < kk && kk <= 16 {
        out.push_str(&digits[..kk as usize]);
        out.push('.');
        out.push_str(&digits[kk as usize..]);
    } else if -5 < kk && kk <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-kk) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if length > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = std::fmt::Write::write_fmt(out, format_args!("e{}{}", if kk >= 1 { "+" } else { "" }, kk - 1));
    }
}

fn parse_digits(s: &str) -> isize {
    s.bytes().fold(0, |n, b| n * 10 + isize::from(b - b'0'))
}
