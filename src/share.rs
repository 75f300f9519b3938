//! Sharing a run. An [`Address`] names a library scenario by id (`?scenario=<id>&fix=1`), an
//! edited one as its changes from the library's, readably
//! (`?scenario=gc-pause-unfenced&set=faults.0.pause.duration_ms=9000`), and any other scenario
//! in the fragment, which the browser never sends to a server: `#s=` (base64url of its compact
//! JSON) or, shorter, `#z=` (the same, deflated by the browser's `CompressionStream`; see
//! `compress.rs`). The step is `&step=N`. Links of the older form `?s=…` keep opening.
//!
//! [`decode`] and [`decode_settings`] treat a link as untrusted input: every way it can be
//! wrong gets a message that says what is wrong, and the text it carries is only ever shown as
//! text.

pub(crate) mod changes;
mod find;

use changes::as_settings;
pub use changes::{apply, as_changes, decode_settings, stale_note, MAX_SETTINGS};
use find::as_find;
pub use find::retell;
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
    decode_bytes(unbase64url(s)?)
}

/// A scenario from the `#z=` fragment of a link: base64url of its deflated JSON, inflated by
/// the browser (at most `limits::SCENARIO_BYTES`, so a small hostile link cannot expand into
/// gigabytes).
pub async fn decode_deflated(z: &str) -> Result<Scenario, String> {
    if z.len() > MAX_LINK {
        return Err(format!("the link is too long ({} characters; at most {MAX_LINK})", z.len()));
    }
    let bytes = unbase64url(z)?;
    decode_bytes(crate::compress::inflate(&bytes, sim::scenario::limits::SCENARIO_BYTES).await?)
}

/// A scenario from a link's bytes (base64url-decoded, and inflated for `#z=`).
fn decode_bytes(bytes: Vec<u8>) -> Result<Scenario, String> {
    let text = String::from_utf8(bytes).map_err(|_| "the link is cut short or corrupted: its scenario is not readable text".to_string())?;
    Scenario::parse(&text).map_err(|e| match e.line_col {
        // The reader never saw the link's JSON: a place in it means nothing to them; that the
        // text is not JSON means the link was cut short or changed on the way.
        Some((line, column)) if e.path.is_empty() => format!(
            "the link is cut short or corrupted: its scenario is not readable ({} at line {line}, column {column} of its JSON)",
            e.problem
        ),
        _ => format!("the link's scenario is not valid: {e}"),
    })
}

/// Where a run lives in an address: the query, and for a scenario not from the library, the
/// fragment (`#s=…`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Address {
    /// `?scenario=…&set=…&step=N`, or `?step=N` when the scenario is in the fragment.
    pub query: String,
    /// Empty, or `#s=<base64url of the scenario's JSON>`.
    pub fragment: String,
}

impl Address {
    /// The address at a step (1-based).
    pub fn at_step(&self, step: usize) -> Address {
        let sep = if self.query.is_empty() { '?' } else { '&' };
        Address { query: format!("{}{sep}step={step}", self.query), fragment: self.fragment.clone() }
    }

    /// The address with more parameters (`&embed=1`) in its query.
    pub fn with(&self, extra: &str) -> String {
        format!("{}{extra}{}", self.query, self.fragment)
    }
}

/// The address that reopens this run: the library id when the scenario is the library's (with
/// or without its fix), its changes from the library's when it is an edited library scenario,
/// the whole scenario in the fragment otherwise; and the step (1-based).
pub fn query(sc: &Scenario, original: &Scenario, fixed: bool, step: usize) -> Address {
    link(sc, original, fixed).at_step(step)
}

/// [`query`] without the step: the costly part (an edited scenario is compared with the
/// library's), which a caller can keep while only the step changes.
pub fn link(sc: &Scenario, original: &Scenario, fixed: bool) -> Address {
    let lib = sim::library::find(&original.id);
    let as_library = lib.is_some_and(|l| {
        l == original
            && if fixed {
                l.fixed().and_then(Result::ok).is_some_and(|f| f.with_settings(&[]).is_ok() && same_but_fix(&f, sc))
            } else {
                sc == original
            }
    });
    let plain = |query: String| Address { query, fragment: String::new() };
    if as_library {
        let fix = if fixed { "&fix=1" } else { "" };
        return plain(format!("?scenario={}{fix}", original.id));
    }
    if let Some(q) = lib.and_then(|l| as_find(l, sc)) {
        return plain(q);
    }
    let lean = portable(sc);
    if let Some(q) = lib.and_then(|l| as_settings(l, &lean)) {
        return plain(q);
    }
    Address { query: String::new(), fragment: format!("#s={}", encode(&lean)) }
}

/// A scenario as it is shared: without its questions (they are about the scenario as written)
/// and [`loadable`].
pub fn portable(sc: &Scenario) -> Scenario {
    let mut lean = loadable(sc);
    lean.questions.clear();
    lean
}

/// A scenario without a fix or a challenge that edits have left behind (their paths name a
/// fault or a step that is gone): a loaded scenario's fix and solution must apply
/// (`Scenario::check_settings`), so this is what links and local storage keep.
pub fn loadable(sc: &Scenario) -> Scenario {
    let mut sc = sc.clone();
    if matches!(sc.fixed(), Some(Err(_))) {
        sc.fix = None;
    }
    if sc.challenge.as_ref().is_some_and(|c| sc.with_settings(&c.solution).is_err()) {
        sc.challenge = None;
    }
    sc
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
    use sim::time::Millis;

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

    /// What the browser's `URLSearchParams` does to a query: split, then percent-decode.
    pub(super) fn params(query: &str) -> Vec<(String, String)> {
        let unescape = |s: &str| {
            let b = s.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'%' {
                    out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                    i += 3;
                } else {
                    out.push(if b[i] == b'+' { b' ' } else { b[i] });
                    i += 1;
                }
            }
            String::from_utf8(out).unwrap()
        };
        query.trim_start_matches('?').split('&').map(|kv| kv.split_once('=').unwrap()).map(|(k, v)| (unescape(k), unescape(v))).collect()
    }

    /// Opens an address as the app does (`?scenario=…&set=…` or `#s=…`).
    fn open(a: &Address) -> Scenario {
        if let Some(enc) = a.fragment.strip_prefix("#s=") {
            return decode(enc).unwrap();
        }
        let p = params(&a.query);
        let get = |k: &str| p.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let sets: Vec<String> = p.iter().filter(|(n, _)| n == "set").map(|(_, v)| v.clone()).collect();
        decode_settings(&get("scenario").unwrap(), get("fix").is_some(), &sets).unwrap_or_else(|e| panic!("{}: {e}", a.query))
    }

    #[test]
    fn links_name_library_scenarios_and_carry_edits_readably() {
        let s = sim::library::get("gc-pause-unfenced").unwrap();
        assert_eq!(query(&s, &s, false, 5).with(""), "?scenario=gc-pause-unfenced&step=5");
        let f = s.fixed().unwrap().unwrap();
        let mut f2 = f.clone();
        f2.fix = s.fix.clone();
        assert_eq!(query(&f2, &s, true, 1).with(""), "?scenario=gc-pause-unfenced&fix=1&step=1");
        let mut edited = s.clone();
        edited.faults[0] = sim::scenario::Fault::Pause(sim::scenario::fault::Pause {
            actor: "A".into(),
            at_ms: Millis::new(1500),
            duration_ms: Millis::new(9000),
        });
        let a = query(&edited, &s, false, 3);
        let v = changes::version_of(&changes::library_base(&s, false).unwrap());
        assert_eq!(a.with(""), format!("?scenario=gc-pause-unfenced&set=faults.0.pause.duration_ms=9000&v={v}&step=3"));
        // An edited scenario travels without its predict questions (they are about the
        // scenario as written); everything else, its challenge included, is kept.
        edited.questions.clear();
        assert_eq!(open(&a), edited);
        assert!(edited.challenge.is_some());
        // A string reads as itself; one that would read as something else is quoted.
        edited.resource.fencing = sim::scenario::Fencing::Atomic;
        edited.title = "true & #1".into();
        let a = query(&edited, &s, false, 3);
        assert!(a.query.contains("&set=resource.fencing=atomic"), "{}", a.query);
        assert!(a.query.contains("&set=title=true%20%26%20%231"), "{}", a.query);
        assert_eq!(open(&a), edited);
    }

    #[test]
    fn every_library_scenario_edited_round_trips_through_a_short_link() {
        for s in sim::library::catalog() {
            let mut e = s.clone();
            e.lock.ttl_ms = Millis::new(e.lock.ttl_ms.get() + 1);
            e.duration_ms = Millis::new(e.duration_ms.get() - 1);
            e.faults
                .push(sim::scenario::Fault::Crash(sim::scenario::fault::Crash { actor: e.clients[0].name.clone(), at_ms: Millis::new(1) }));
            e.clients[0].steps.pop();
            e.fix = None;
            let a = query(&e, s, false, 2);
            assert!(a.fragment.is_empty() && a.query.len() < 600, "{}: {}", s.id, a.with(""));
            let e = portable(&e);
            assert!(e.questions.is_empty());
            assert_eq!(open(&a), e, "{}", s.id);
            assert_eq!(sim::run(&open(&a)).unwrap(), sim::run(&e).unwrap(), "{}", s.id);
            if let Some(Ok(mut f)) = s.fixed() {
                f.seed += 1;
                let a = query(&f, s, false, 2);
                assert!(a.query.contains("&fix=1&set=seed="), "{}: {}", s.id, a.query);
                f.questions.clear();
                assert_eq!(open(&a), f, "{}", s.id);
            }
        }
    }

    /// An edit that removes the fault a fix moves leaves the fix behind: the link goes without
    /// it (a loaded scenario's fix must apply), and still opens.
    #[test]
    fn a_fix_left_behind_by_an_edit_is_not_shared() {
        let s = sim::library::get("redlock-restart").unwrap();
        let mut e = s.clone();
        e.faults.pop();
        assert!(matches!(e.fixed(), Some(Err(_))));
        let opened = open(&query(&e, &s, false, 1));
        assert_eq!(opened.fix, None);
        assert_eq!(opened.faults, e.faults);
        e.id = "mine".into();
        let opened = open(&query(&e, &e, false, 1));
        assert_eq!((opened.fix, opened.faults), (None, e.faults));
    }

    #[test]
    fn a_scenario_not_from_the_library_goes_in_the_fragment() {
        let mut s = sim::library::get("lease-basics").unwrap();
        s.id = "my-own".into();
        let a = query(&s, &s, false, 7);
        assert_eq!(a.query, "?step=7");
        assert!(a.fragment.starts_with("#s="));
        assert_eq!(a.with("&embed=1"), format!("?step=7&embed=1{}", a.fragment));
        s.questions.clear();
        assert_eq!(open(&a), s);
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
            // Cut at a whole base64 quantum, so that what is left decodes but is not a scenario.
            (good[..good.len() / 8 * 4].to_string(), "cut short or corrupted"),
            (good[..good.len() - 1].to_string(), ""),
            (format!("{good}!"), "contains `!`"),
            (good.replace('A', "%"), "contains `%`"),
            ("<script>alert(1)</script>".into(), "contains `<`"),
            ("javascript:alert(1)".into(), "contains `:`"),
            ("A".repeat(MAX_LINK + 1), "too long"),
            ("AAAA".into(), "cut short or corrupted"),
            (base64url(&[0xff, 0xfe, 0xfd]), "not readable text"),
            (base64url(b"null"), "not valid"),
            (base64url(b"[]"), "not valid"),
            (base64url(b"{}"), "not valid"),
            (base64url(b"\"just a string\""), "not valid"),
            (
                base64url(b"{\"version\": 1"),
                "cut short or corrupted: its scenario is not readable (invalid JSON: EOF while parsing an object at line 1, column 13",
            ),
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
            (with("/lock/kind", serde_json::json!("chubby")), "unknown variant `chubby`"),
            (with("/clients/0/steps/2/work/ms", serde_json::json!(999_999_999_999u64)), "work.ms"),
        ];
        assert!(corpus.len() >= 30);
        for (link, want) in &corpus {
            let err = decode(link).expect_err(&format!("must refuse: {}", &link[..link.len().min(60)]));
            assert!(err.contains(want), "for {:?}…: {err}", &link[..link.len().min(40)]);
        }
    }
}
