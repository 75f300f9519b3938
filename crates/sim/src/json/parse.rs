//! JSON text to a [`Value`], as serde_json reads it into its own value (its grammar, numbers,
//! messages and positions: this follows its `Deserializer` step by step), except that a key
//! twice in one object is refused with its path (serde_json lets the last one win).

use std::fmt;

mod number;

use super::{Map, Path, Value};

/// Why the text is not one JSON value with distinct keys.
#[derive(Debug, PartialEq)]
pub enum Error {
    Syntax(Syntax),
    Duplicate(Duplicate),
}

/// A syntax error: serde_json's message, and where (line and column from 1; the column counts
/// bytes; for a number out of range, also the path of the value it is).
#[derive(Debug, PartialEq, Eq)]
pub struct Syntax {
    message: &'static str,
    line: usize,
    column: usize,
    path: String,
}

impl Syntax {
    pub fn message(&self) -> &'static str {
        self.message
    }

    pub fn line(&self) -> usize {
        self.line
    }

    pub fn column(&self) -> usize {
        self.column
    }

    /// The path of the value (`lock.ttl_ms`) where the error is a number out of range, else
    /// empty (a syntax error is not inside a value that has one).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// A number too large for a float (`1e400`): the text is JSON, the number is not one it holds.
    pub fn out_of_range(&self) -> bool {
        self.message == number::OUT_OF_RANGE
    }
}

impl Syntax {
    /// A number out of range, placed at the value it is.
    fn within(mut self, at: &Path) -> Syntax {
        if self.out_of_range() {
            at.write(&mut self.path);
        }
        self
    }
}

/// As serde_json words it: "expected `,` or `]` at line 3 column 5".
impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

/// A key found twice: its path (`lock.ttl_ms`, `a[0].b`), and where in the text.
#[derive(Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub path: String,
    pub line: usize,
    pub column: usize,
}

/// Parses JSON text; every object's keys must differ.
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut p = Parser { b: text.as_bytes(), i: 0, depth: 128 };
    let v = p.value(&Path::Root)?;
    match p.whitespace() {
        Some(_) => Err(p.peek_error(TRAILING_CHARACTERS).into()),
        None => Ok(v),
    }
}

const EOF_LIST: &str = "EOF while parsing a list";
const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";
const EOF_VALUE: &str = "EOF while parsing a value";
const TRAILING_CHARACTERS: &str = "trailing characters";
const TRAILING_COMMA: &str = "trailing comma";
const INVALID_NUMBER: &str = "invalid number";
const INVALID_ESCAPE: &str = "invalid escape";
const KEY_MUST_BE_A_STRING: &str = "key must be a string";
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
const END_OF_HEX_ESCAPE: &str = "unexpected end of hex escape";

impl From<Syntax> for Error {
    fn from(e: Syntax) -> Error {
        Error::Syntax(e)
    }
}

/// Objects up to this many keys are checked for a key given twice as each key is read; past
/// it, the keys are sorted once (so that a hostile object of 100,000 keys costs a sort rather
/// than billions of comparisons).
const SCAN: usize = 16;

/// The index of the earliest key that repeats one before it (the second of its name).
fn first_repeat(map: &Map) -> Option<usize> {
    let mut order: Vec<usize> = (0..map.len()).collect();
    // Stable: keys of one name stay in the order they were written.
    crate::sort::by(&mut order, |&a, &b| map.0[a].0.cmp(&map.0[b].0));
    order.windows(2).filter(|w| map.0[w[0]].0 == map.0[w[1]].0).map(|w| w[1]).min()
}

struct Parser<'a> {
    b: &'a [u8],
    /// The next byte to read.
    i: usize,
    /// How many more arrays or objects may open (serde_json's recursion limit).
    depth: u8,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    /// The line and column of the byte before index `i`, as serde_json counts them.
    fn at(&self, i: usize) -> Syntax {
        let start = self.b[..i].iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        let line = 1 + self.b[..start].iter().filter(|&&c| c == b'\n').count();
        Syntax { message: "", line, column: i - start, path: String::new() }
    }

    /// An error at the byte just read.
    fn error(&self, message: &'static str) -> Syntax {
        Syntax { message, ..self.at(self.i) }
    }

    /// An error at the byte just looked at.
    fn peek_error(&self, message: &'static str) -> Syntax {
        Syntax { message, ..self.at((self.i + 1).min(self.b.len())) }
    }

    /// Skips whitespace; the next byte, not read.
    fn whitespace(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.i += 1;
        }
        self.peek()
    }

    fn value(&mut self, at: &Path) -> Result<Value, Error> {
        let Some(c) = self.whitespace() else { return Err(self.peek_error(EOF_VALUE).into()) };
        Ok(match c {
            b'n' => self.ident(b"null", Value::Null)?,
            b't' => self.ident(b"true", Value::Bool(true))?,
            b'f' => self.ident(b"false", Value::Bool(false))?,
            b'-' => {
                self.i += 1;
                self.integer(false).map_err(|e| e.within(at))?
            }
            b'0'..=b'9' => self.integer(true).map_err(|e| e.within(at))?,
            b'"' => {
                self.i += 1;
                Value::String(self.string()?)
            }
            b'[' | b'{' => {
                self.depth -= 1;
                if self.depth == 0 {
                    return Err(self.peek_error("recursion limit exceeded").into());
                }
                self.i += 1;
                let v = if c == b'[' { self.array(at) } else { self.object(at) };
                self.depth += 1;
                v?
            }
            _ => return Err(self.peek_error("expected value").into()),
        })
    }

    fn ident(&mut self, word: &[u8], v: Value) -> Result<Value, Syntax> {
        self.i += 1;
        for &want in &word[1..] {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(c) if c != want => return Err(self.error("expected ident")),
                Some(_) => {}
            }
        }
        Ok(v)
    }

    fn array(&mut self, at: &Path) -> Result<Value, Error> {
        let mut items = Vec::new();
        loop {
            let Some(c) = self.whitespace() else { return Err(self.peek_error(EOF_LIST).into()) };
            if c == b']' {
                self.i += 1;
                return Ok(Value::Array(items));
            }
            if !items.is_empty() {
                if c != b',' {
                    return Err(self.peek_error("expected `,` or `]`").into());
                }
                self.i += 1;
                match self.whitespace() {
                    Some(b']') => return Err(self.peek_error(TRAILING_COMMA).into()),
                    Some(_) => {}
                    None => return Err(self.peek_error(EOF_VALUE).into()),
                }
            }
            let v = self.value(&Path::Index(at, items.len()))?;
            items.push(v);
        }
    }

    fn object(&mut self, at: &Path) -> Result<Value, Error> {
        let mut map = Map::new();
        // Where each key's text ends (past its closing quote), to place a key given twice.
        let mut ends = Vec::new();
        let read = self.members(at, &mut map, &mut ends);
        // A key given twice among those not checked as they were read is found now, and
        // reported rather than an error after it (serde_json stops at the key).
        if map.len() > SCAN {
            if let Some(k) = first_repeat(&map) {
                return Err(self.duplicate(at, &map.0[k].0, ends[k]));
            }
        }
        read.map(|()| Value::Object(map))
    }

    /// An object's members, its `{` read: each key is in `map` (with its value once read).
    fn members(&mut self, at: &Path, map: &mut Map, ends: &mut Vec<usize>) -> Result<(), Error> {
        loop {
            let Some(c) = self.whitespace() else { return Err(self.peek_error(EOF_OBJECT).into()) };
            if c == b'}' {
                self.i += 1;
                return Ok(());
            }
            if map.is_empty() {
                if c != b'"' {
                    return Err(self.peek_error(KEY_MUST_BE_A_STRING).into());
                }
            } else if c == b',' {
                self.i += 1;
                match self.whitespace() {
                    Some(b'"') => {}
                    Some(b'}') => return Err(self.peek_error(TRAILING_COMMA).into()),
                    Some(_) => return Err(self.peek_error(KEY_MUST_BE_A_STRING).into()),
                    None => return Err(self.peek_error(EOF_VALUE).into()),
                }
            } else {
                return Err(self.peek_error("expected `,` or `}`").into());
            }
            self.i += 1;
            let key = self.string()?;
            ends.push(self.i);
            if map.len() < SCAN && map.contains_key(&key) {
                return Err(self.duplicate(at, &key, self.i));
            }
            map.0.push((key, Value::Null));
            match self.whitespace() {
                Some(b':') => self.i += 1,
                Some(_) => return Err(self.peek_error("expected `:`").into()),
                None => return Err(self.peek_error(EOF_OBJECT).into()),
            }
            let last = map.0.len() - 1;
            let v = self.value(&Path::Key(at, &map.0[last].0))?;
            map.0[last].1 = v;
        }
    }

    /// A key given twice, its text ending at `end`: placed where serde_json places an error
    /// raised there, past the whitespace after the key and past a `}` that ends the object.
    fn duplicate(&self, at: &Path, key: &str, end: usize) -> Error {
        let mut i = end;
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.b.get(i) {
            i += 1;
        }
        if self.b.get(i) == Some(&b'}') {
            i += 1;
        }
        let mut path = String::new();
        Path::Key(at, key).write(&mut path);
        let Syntax { line, column, .. } = self.at(i);
        Error::Duplicate(Duplicate { path, line, column })
    }

    /// The rest of a string, its opening quote read.
    fn string(&mut self) -> Result<String, Syntax> {
        let mut out = Vec::new();
        let mut start = self.i;
        loop {
            while self.i < self.b.len() && !matches!(self.b[self.i], b'"' | b'\\' | 0..=0x1f) {
                self.i += 1;
            }
            let Some(c) = self.peek() else { return Err(self.error(EOF_STRING)) };
            out.extend_from_slice(&self.b[start..self.i]);
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => self.escape(&mut out)?,
                _ => return Err(self.error("control character (\\u0000-\\u001F) found while parsing a string")),
            }
            start = self.i;
        }
        Ok(String::from_utf8(out).expect("text cut at ASCII bytes, and escapes that are whole characters"))
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Result<(), Syntax> {
        let Some(c) = self.next() else { return Err(self.error(EOF_STRING)) };
        let plain = match c {
            b'"' | b'\\' | b'/' => c,
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error(INVALID_ESCAPE)),
        };
        out.push(plain);
        Ok(())
    }

    /// Four hex digits of a `\u` escape.
    fn hex4(&mut self) -> Result<u32, Syntax> {
        for _ in 0..4 {
            if self.next().is_none() {
                return Err(self.error(EOF_STRING));
            }
        }
        let mut n = 0;
        for &c in &self.b[self.i - 4..self.i] {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return Err(self.error(INVALID_ESCAPE)),
            };
            n = n * 16 + u32::from(d);
        }
        Ok(n)
    }

    /// A `\u` escape, read as far as `\u`; a surrogate must be followed by its pair.
    fn unicode_escape(&mut self, out: &mut Vec<u8>) -> Result<(), Syntax> {
        let n = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&n) {
            return Err(self.error(LONE_SURROGATE));
        }
        let code = if (0xD800..=0xDBFF).contains(&n) {
            for want in [b'\\', b'u'] {
                let Some(c) = self.peek() else { return Err(self.error(EOF_STRING)) };
                self.i += 1;
                if c != want {
                    return Err(self.error(END_OF_HEX_ESCAPE));
                }
            }
            let n2 = self.hex4()?;
            if !(0xDC00..=0xDFFF).contains(&n2) {
                return Err(self.error(LONE_SURROGATE));
            }
            (((n - 0xD800) << 10) | (n2 - 0xDC00)) + 0x1_0000
        } else {
            n
        };
        let ch = char::from_u32(code).expect("a code point outside the surrogates");
        out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }
}
