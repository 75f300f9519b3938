//! `sim::json` reads and writes JSON as serde_json does: the same values from the same text,
//! the same message at the same line and column for text that is not JSON (against the strict
//! reader the app used before, serde_json with a visitor that refuses a key twice), the same
//! compact and indented text, and the same digits for every float.

use sim::json;

/// The reader `sim::json::parse` replaced: serde_json's, refusing a key twice in an object.
mod oracle {
    use std::cell::RefCell;
    use std::fmt;

    use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    /// A key found twice: its path, and where in the text.
    #[derive(Debug, PartialEq, Eq)]
    pub struct Duplicate {
        pub path: String,
        pub line: usize,
        pub column: usize,
    }

    /// Why the text is not one JSON value with distinct keys.
    #[derive(Debug)]
    pub enum Error {
        Syntax(serde_json::Error),
        Duplicate(Duplicate),
    }

    /// Parses JSON text; every object's keys must differ.
    pub fn parse(text: &str) -> Result<Value, Error> {
        let found = RefCell::new(None);
        let mut de = serde_json::Deserializer::from_str(text);
        let value = Strict { path: String::new(), found: &found }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
        match (value, found.into_inner()) {
            (Err(e), Some(path)) => Err(Error::Duplicate(Duplicate { path, line: e.line(), column: e.column() })),
            (Err(e), None) => Err(Error::Syntax(e)),
            (Ok(v), _) => Ok(v),
        }
    }

    struct Strict<'a> {
        path: String,
        /// Where the first duplicate key was found (the error itself can only carry a message).
        found: &'a RefCell<Option<String>>,
    }

    impl<'de> DeserializeSeed<'de> for Strict<'_> {
        type Value = Value;

        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Strict<'_> {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
        }

        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_owned()))
        }

        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }

        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut items = Vec::new();
            while let Some(v) = seq.next_element_seed(Strict { path: format!("{}[{}]", self.path, items.len()), found: self.found })? {
                items.push(v);
            }
            Ok(Value::Array(items))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut obj = Map::new();
            while let Some(key) = map.next_key::<String>()? {
                let path = if self.path.is_empty() { key.clone() } else { format!("{}.{key}", self.path) };
                if obj.contains_key(&key) {
                    *self.found.borrow_mut() = Some(path);
                    return Err(de::Error::custom("duplicate key"));
                }
                let v = map.next_value_seed(Strict { path, found: self.found })?;
                obj.insert(key, v);
            }
            Ok(Value::Object(obj))
        }
    }
}

/// Ours and the oracle agree on `text`: the same value, or the same error at the same place.
fn same(text: &str) -> Result<json::Value, String> {
    let ours = json::parse(text);
    let theirs = oracle::parse(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, &serde_json::from_value::<json::Value>(b.clone()).unwrap(), "{text:?}"),
        (Err(json::Error::Syntax(a)), Err(oracle::Error::Syntax(b))) => {
            let message = b.to_string();
            let message = message.split(" at line ").next().unwrap_or_default();
            assert_eq!((a.message(), a.line(), a.column()), (message, b.line(), b.column()), "{text:?}");
        }
        (Err(json::Error::Duplicate(a)), Err(oracle::Error::Duplicate(b))) => {
            assert_eq!((&a.path, a.line, a.column), (&b.path, b.line, b.column), "{text:?}")
        }
        _ => panic!("{text:?}: ours {ours:?}, serde_json {theirs:?}"),
    }
    ours.map_err(|e| format!("{e:?}"))
}

#[test]
fn reads_every_library_file_as_serde_json_does_and_writes_it_back_the_same() {
    for (id, text) in sim::library::FILES {
        let v = same(text).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(json::to_string_pretty(&v), serde_json::to_string_pretty(&theirs).unwrap(), "{id}");
        assert_eq!(v.to_string(), theirs.to_string(), "{id}");
    }
}

/// Every prefix of a scenario file, and the file with each byte replaced by each byte that
/// matters to JSON: over ten thousand broken texts, each refused with serde_json's message
/// at its line and column (or read to the same value).
#[test]
fn refuses_broken_text_as_serde_json_does() {
    let text = sim::library::FILES.iter().find(|(id, _)| *id == "lease-basics").unwrap().1;
    let mut refused = 0;
    for end in 0..text.len() {
        if text.is_char_boundary(end) {
            refused += usize::from(same(&text[..end]).is_err());
        }
    }
    let special = ["{", "}", "[", "]", ",", ":", "\"", "\\", "-", ".", "e", "0", "x", " ", "\n", "\u{1}", "n", "t", "/"];
    for (i, _) in text.char_indices().step_by(3) {
        let c = text[i..].chars().next().unwrap();
        for s in special {
            let broken = format!("{}{s}{}", &text[..i], &text[i + c.len_utf8()..]);
            refused += usize::from(same(&broken).is_err());
        }
    }
    assert!(refused > 10_000, "{refused} refused");
}

#[test]
fn reads_values_escapes_and_numbers_as_serde_json_does() {
    let texts = [
        "null",
        "true",
        "false",
        "tru",
        "nul",
        "[]",
        "{}",
        "[1,]",
        "{\"a\":1,}",
        "[1 2]",
        "{\"a\" 1}",
        "{1:2}",
        "{\"a\":1 \"b\":2}",
        " [ 1 , [ 2 , { } ] ] ",
        "\"\\u00e9\\n\\t\\\"\\/\\b\\f\\r\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud83d\"",
        "\"\\ude00\"",
        "\"\\ud83dx\"",
        "\"\\ud83d\\x\"",
        "\"\\ud83d\\u0041\"",
        "\"\\u12\"",
        "\"\\u12g4\"",
        "\"\\q\"",
        "\"a\u{1}b\"",
        "\"abc",
        "\"é ∞ 😀\"",
        "0",
        "-0",
        "1",
        "-1",
        "01",
        "-01",
        "1.",
        "1.e5",
        ".5",
        "-",
        "1e",
        "1e+",
        "1e-",
        "1E+5",
        "1e-5",
        "0.1",
        "1.5",
        "3.14159",
        "-2.5e-3",
        "1.0001",
        "1e22",
        "1e-22",
        "123456789",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999.5e3",
        "1e400",
        "-1e400",
        "1e-400",
        "0e400",
        "1e99999999999",
        "1e-99999999999",
        "0.000001",
        "1x",
        "[1]x",
        "{\"a\":{\"b\":1,\"b\":2}}",
        "{\"a\":1, \"a\" }",
        "[{\"x\":[0,{\"y\":1,\"y\":1}]}]",
        "",
        "   ",
        "\u{feff}{}",
    ];
    for text in texts {
        let _ = same(text);
    }
    // Nesting past serde_json's limit of 128.
    for depth in [126, 127, 128, 129, 300] {
        let _ = same(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        let _ = same(&format!("{}{}", "{\"a\":".repeat(depth), "}".repeat(depth)));
    }
}

/// Floats from every part of the range: written with the digits serde_json writes, and read
/// back to the bits serde_json reads.
#[test]
fn writes_and_reads_floats_as_serde_json_does() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut xs =
        vec![0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e15, 1e16, 1e17, 1e-5, 1e-6, 123456.789, 5e-324, f64::MAX, f64::MIN_POSITIVE, 1.0001];
    for _ in 0..20_000 {
        let x = f64::from_bits(next());
        if x.is_finite() {
            xs.push(x);
        }
        // Numbers of the size scenarios hold.
        xs.push((next() % 2_000_000) as f64 / 1000.0 - 1000.0);
    }
    let mut ties = 0;
    let count = xs.len();
    for x in xs {
        let theirs = serde_json::to_string(&x).unwrap();
        let ours = json::Value::from(x).to_string();
        if ours != theirs {
            // A tie at the 17th digit: the standard library's shortest digits round it up,
            // serde_json's to even. Both read back to `x`, and differ in that digit only.
            ties += 1;
            assert_eq!((ours.parse::<f64>(), theirs.parse::<f64>()), (Ok(x), Ok(x)), "{ours} for {theirs}");
            let (a, b) = (ours.replace(['.', '-'], ""), theirs.replace(['.', '-'], ""));
            assert_eq!(a.len(), b.len(), "{ours} for {theirs}");
            assert_eq!(a.bytes().zip(b.bytes()).filter(|(p, q)| p != q).count(), 1, "{ours} for {theirs}");
        }
        let back = json::parse(&theirs).unwrap().as_f64().unwrap();
        let serde_back: f64 = serde_json::from_str(&theirs).unwrap();
        assert_eq!(back.to_bits(), serde_back.to_bits(), "{theirs}");
    }
    assert!(ties * 100 < count, "{ties} ties in {count}");
}

/// An object too large to scan for a key given twice as each is read: the same error as
/// serde_json's strict reader, wherever the repeat is and whatever follows it.
#[test]
fn finds_a_key_given_twice_in_a_large_object_as_in_a_small_one() {
    for n in [15usize, 16, 17, 18, 40] {
        for (first, second) in [(0, n - 1), (3, 16), (15, 16), (16, 17), (n - 2, n - 1)] {
            if first >= second || second >= n {
                continue;
            }
            let keys: Vec<String> = (0..n).map(|i| format!("k{}", if i == second { first } else { i })).collect();
            let body = keys.iter().map(|k| format!("\"{k}\": {{\"x\": [1]}}")).collect::<Vec<_>>().join(",\n ");
            assert!(same(&format!("{{{body}}}")).is_err());
            assert!(same(&format!("{{{body}, \"bad\": [1,}}")).is_err());
            assert!(same(&format!("{{{body}  }}")).is_err());
            assert!(same(&format!("[{{{body}}}, {{\"a\": 1, \"a\": 2}}]")).is_err());
        }
        let distinct: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
        assert!(same(&format!("{{{}}}", distinct.join(","))).is_ok());
        assert!(same(&format!("{{{}, \"k3\" }}", distinct.join(","))).is_err());
    }
    // 100,000 keys, the last one a repeat: found by one sort, not a scan for each key.
    let body: Vec<String> = (0..100_000).map(|i| format!("\"{}\":0", if i == 99_999 { 5 } else { i })).collect();
    assert!(same(&format!("{{{}}}", body.join(","))).is_err());
}

#[test]
fn writes_strings_as_serde_json_does() {
    let mut all: String = (0u8..0x80).map(char::from).collect();
    all.push_str("é ∞ 😀 \u{7f} \u{2028}");
    for s in [all.as_str(), "", "\"", "\\", "plain"] {
        let v = json::Value::from(s);
        assert_eq!(v.to_string(), serde_json::Value::from(s).to_string());
        assert_eq!(json::parse(&v.to_string()).unwrap(), v);
    }
}

#[test]
fn a_key_twice_is_refused_with_its_path_and_position() {
    match json::parse("{\"lock\": {\"ttl_ms\": 1,\n \"ttl_ms\": 2}}") {
        Err(json::Error::Duplicate(d)) => assert_eq!((d.path.as_str(), d.line, d.column), ("lock.ttl_ms", 2, 9)),
        other => panic!("{other:?}"),
    }
    match json::parse("{\"a\": [{\"b\": 1, \"b\": 1}]}") {
        Err(json::Error::Duplicate(d)) => assert_eq!(d.path, "a[0].b"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn objects_keep_their_keys_in_order_and_compare_in_any_order() {
    let a = json::parse("{\"b\": 1, \"a\": [true, null]}").unwrap();
    let b = json::parse("{\"a\": [true, null], \"b\": 1}").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "{\"b\":1,\"a\":[true,null]}");
    assert_eq!(a.pointer("/a/0"), Some(&json::Value::Bool(true)));
    assert_eq!(a.pointer("/a/01"), None);
    assert_ne!(a, json::parse("{\"a\": [true, null], \"b\": 1.0}").unwrap());
}
