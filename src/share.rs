//! Sharing a run: the scenario in a link (`?s=…`, base64url of its compact JSON) or by its
//! library id (`?scenario=<id>&fix=1`), with the step (`&step=N`). [`decode`] treats a link as
//! untrusted input: every way it can be wrong gets a message that says what is wrong, and the
//! text it carries is only ever shown as text.

use sim::scenario::Scenario;

/// The longest scenario link accepted, in characters.
pub const MAX_LINK: usize = 200_000;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url without padding.
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url (padding and standard base64's `+` `/` are tolerated).
pub fn unbase64url(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut buf, mut bits) = (0u32, 0u32);
    for (i, c) in s.trim_end_matches('=').chars().enumerate() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '-' | '+' => 62,
            '_' | '/' => 63,
            _ => {
                return Err(format!(
                    "the link contains `{}` at position {}, which cannot appear in a scenario link",
                    c.escape_default(),
                    i + 1
                ))
            }
        };
        buf = (buf << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
        }
    }
    if s.trim_end_matches('=').len() % 4 == 1 {
        return Err("the link is cut short: its last character is incomplete".into());
    }
    Ok(out)
}

/// The scenario as the `s` parameter of a link.
pub fn encode(sc: &Scenario) -> String {
    base64url(sc.to_value().to_string().as_bytes())
}

/// A scenario from the `s` parameter of a link.
pub fn decode(s: &str) -> Result<Scenario, String> {
    if s.is_empty() {
        return Err("the link carries an empty scenario".into());
    }
    if s.len() > MAX_LINK {
        return Err(format!("the link is too long ({} characters; at most {MAX_LINK})", s.len()));
    }
    let bytes = unbase64url(s)?;
    let text = String::from_utf8(bytes).map_err(|_| "the link is cut short or corrupted: its scenario is not readable text".to_string())?;
    Scenario::parse(&text).map_err(|e| format!("the link's scenario is not valid: {e}"))
}

/// The query string that reopens this run: the library id when the scenario is the library's
/// (with or without its fix), the whole scenario otherwise; and the step (1-based).
pub fn query(sc: &Scenario, original: &Scenario, fixed: bool, step: usize) -> String {
    let lib = sim::library::catalog().iter().find(|l| l.id == original.id);
    let as_library = lib.is_some_and(|l| {
        l == original
            && if fixed {
                l.fixed().and_then(Result::ok).is_some_and(|f| f.with_settings(&[]).is_ok() && same_but_fix(&f, sc))
            } else {
                sc == original
            }
    });
    let base = if as_library {
        if fixed {
            format!("?scenario={}&fix=1", original.id)
        } else {
            format!("?scenario={}", original.id)
        }
    } else {
        // The questions are about the scenario as written, not an edited one: links go without them.
        let mut lean = sc.clone();
        lean.questions.clear();
        format!("?s={}", encode(&lean))
    };
    format!("{base}&step={step}")
}

/// A fixed library scenario differs from the fixed variant only by the removed `fix` field.
fn same_but_fix(fixed_variant: &Scenario, sc: &Scenario) -> bool {
    let mut a = fixed_variant.clone();
    let mut b = sc.clone();
    a.fix = None;
    b.fix = None;
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(unbase64url(&base64url(&bytes)).unwrap(), bytes);
        }
        assert_eq!(base64url(b"hi?"), "aGk_");
    }

    #[test]
    fn every_library_scenario_round_trips_through_a_link_to_an_identical_run() {
        for s in sim::library::catalog() {
            let back = decode(&encode(s)).unwrap();
            assert_eq!(&back, s);
            assert_eq!(sim::run(&back).unwrap(), sim::run(s).unwrap(), "{}", s.id);
            let json = s.to_json();
            assert_eq!(&Scenario::parse(&json).unwrap(), s, "{} through JSON", s.id);
        }
    }

    #[test]
    fn links_name_library_scenarios_and_carry_edits() {
        let s = sim::library::get("gc-pause-unfenced").unwrap();
        assert_eq!(query(&s, &s, false, 5), "?scenario=gc-pause-unfenced&step=5");
        let f = s.fixed().unwrap().unwrap();
        let mut f2 = f.clone();
        f2.fix = s.fix.clone();
        assert_eq!(query(&f2, &s, true, 1), "?scenario=gc-pause-unfenced&fix=1&step=1");
        let mut edited = s.clone();
        edited.lock.ttl_ms = 12_345;
        let q = query(&edited, &s, false, 3);
        assert!(q.starts_with("?s=") && q.ends_with("&step=3"));
        let enc = q.trim_start_matches("?s=").trim_end_matches("&step=3");
        // An edited scenario travels without its predict questions (they are about the
        // scenario as written); everything else, its challenge included, is kept.
        edited.questions.clear();
        assert_eq!(decode(enc).unwrap(), edited);
        assert!(edited.challenge.is_some());
    }

    /// A corpus of bad links: truncated, corrupted, oversized, hostile. Each gets a clear
    /// message; none panics.
    #[test]
    fn bad_links_get_clear_messages() {
        let good = encode(&sim::library::get("gc-pause-unfenced").unwrap());
        let json = |v: serde_json::Value| base64url(v.to_string().as_bytes());
        let base: serde_json::Value = serde_json::from_str(&sim::library::get("gc-pause-unfenced").unwrap().to_json()).unwrap();
        let with = |path: &str, val: serde_json::Value| {
            let mut v = base.clone();
            *v.pointer_mut(path).unwrap() = val;
            json(v)
        };
        let many_clients: Vec<serde_json::Value> = (0..5000).map(|i| serde_json::json!({"name": format!("c{i}"), "steps": []})).collect();
        let corpus: Vec<(String, &str)> = vec![
            (String::new(), "empty scenario"),
            (good[..good.len() / 2].to_string(), "not valid"),
            (good[..good.len() - 1].to_string(), ""),
            (format!("{good}!"), "contains `!`"),
            (good.replace('A', "%"), "contains `%`"),
            ("<script>alert(1)</script>".into(), "contains `<`"),
            ("javascript:alert(1)".into(), "contains `:`"),
            ("A".repeat(MAX_LINK + 1), "too long"),
            ("AAAA".into(), "not valid"),
            (base64url(&[0xff, 0xfe, 0xfd]), "not readable text"),
            (base64url(b"null"), "not valid"),
            (base64url(b"[]"), "not valid"),
            (base64url(b"{}"), "not valid"),
            (base64url(b"\"just a string\""), "not valid"),
            (base64url(b"{\"version\": 1"), "line 1"),
            (base64url(b"{\"version\": 2}"), "only version 1"),
            (with("/lock/ttl_ms", serde_json::json!("ten")), "lock.ttl_ms"),
            (with("/lock/ttl_ms", serde_json::json!(-5)), "lock.ttl_ms"),
            (with("/lock/ttl_ms", serde_json::json!(1e300)), "lock.ttl_ms"),
            (with("/duration_ms", serde_json::json!(18446744073709551615u64)), "duration_ms"),
            (with("/seed", serde_json::json!(9007199254740993u64)), "seed"),
            (with("/faults/0/pause/duration_ms", serde_json::json!(-1)), "duration_ms"),
            (with("/faults/0/pause/actor", serde_json::json!("Z")), "no actor is called `Z`"),
            (with("/clients", serde_json::json!([])), "at least one client"),
            (with("/clients", serde_json::Value::Array(many_clients)), "at most 12"),
            (with("/title", serde_json::json!("x".repeat(10_000))), "title"),
            (with("/clients/0/name", serde_json::json!("<img src=x onerror=alert(1)>")), "clients[0].name"),
            (with("/network/latency_ms", serde_json::json!([10, 1])), "minimum 10 is above the maximum 1"),
            (with("/resource/fencing", serde_json::json!("sometimes")), "unknown variant"),
            (with("/clients/0/steps/0", serde_json::json!({"teleport": {}})), "unknown variant `teleport`"),
            (with("/lock/kind", serde_json::json!("zookeeper")), "unknown variant `zookeeper`"),
            (with("/clients/0/steps/2/work/ms", serde_json::json!(999_999_999_999u64)), "work.ms"),
        ];
        assert!(corpus.len() >= 30);
        for (link, want) in &corpus {
            let err = decode(link).expect_err(&format!("must refuse: {}", &link[..link.len().min(60)]));
            assert!(err.contains(want), "for {:?}…: {err}", &link[..link.len().min(40)]);
        }
    }
}
