//! Edited library scenarios in links, as their changes from the library scenario:
//! `?scenario=gc-pause-unfenced&set=faults.0.pause.duration_ms=9000&v=…`. The paths are a fix's
//! (dot-separated, list items by number); `v` fingerprints the library scenario the changes
//! start from, so that a link made before the library changed says so ([`stale_note`]).

use sim::from_value::ReadErrorKind;
use sim::json::Value;
use sim::scenario::{Problem, Scenario, Setting};

/// The most changes a `set` link carries, and its longest readable form; beyond either, the
/// scenario goes whole in the fragment.
pub const MAX_SETTINGS: usize = 64;
const MAX_READABLE: usize = 1_500;

/// An edited library scenario as `?scenario=<id>[&fix=1]&set=<path>=<value>…`: the shorter of
/// its changes from the library scenario and from its fixed variant, if either is short enough
/// and reproduces it exactly.
pub(super) fn as_settings(lib: &Scenario, target: &Scenario) -> Option<String> {
    let want = target.to_value();
    let mut bases = vec![(false, library_base(lib, false)?)];
    if let Some(f) = library_base(lib, true) {
        bases.push((true, f));
    }
    bases
        .into_iter()
        .filter_map(|(fixed, base)| {
            let mut set = Vec::new();
            diff("", &base.to_value(), &want, &mut set);
            if set.len() > MAX_SETTINGS || base.with_settings(&set).ok().as_ref() != Some(target) {
                return None;
            }
            let mut q = format!("?scenario={}{}", lib.id, if fixed { "&fix=1" } else { "" });
            for st in &set {
                q.push_str(&format!("&set={}={}", st.path, encode_value(&st.value)));
            }
            q.push_str(&format!("&v={}", version_of(&base)));
            Some(q)
        })
        .filter(|q| q.len() <= MAX_READABLE)
        .min_by_key(String::len)
}

/// The library scenario a `set` link starts from: as written or fixed, without its questions.
pub(super) fn library_base(lib: &Scenario, fixed: bool) -> Option<Scenario> {
    let mut base = if fixed { lib.fixed()?.ok()? } else { lib.clone() };
    base.questions.clear();
    Some(base)
}

/// A short fingerprint of the library scenario a `set` link starts from (FNV-1a of its JSON,
/// every object's keys in byte order), so that a link made before the library changed can say
/// so.
pub(super) fn version_of(base: &Scenario) -> String {
    let h = sorted(&base.to_value())
        .to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{:08x}", h >> 32)
}

/// `v` with every object's keys in byte order: the fingerprints were first taken over
/// serde_json's objects, which sort their keys, and the links made then still match.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut pairs: Vec<(&String, &Value)> = map.iter().collect();
            sim::sort::by(&mut pairs, |a, b| a.0.cmp(b.0));
            Value::Object(pairs.into_iter().map(|(k, x)| (k.clone(), sorted(x))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// The settings (dot paths, as a fix's) that turn `a` into `b`.
fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<Setting>) {
    let at = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    let set = |out: &mut Vec<Setting>, path: String, value: &Value| out.push(Setting { path, value: value.clone() });
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, vb) in y {
                match x.get(k) {
                    Some(va) => diff(&at(k), va, vb, out),
                    None => set(out, at(k), vb),
                }
            }
            // A field gone back to its default is absent: clear it (an option), or set the
            // whole object below the top level. The caller checks the result.
            for k in x.keys().filter(|k| !y.contains_key(k)) {
                if path.is_empty() {
                    set(out, at(k), &Value::Null);
                } else {
                    out.retain(|st| !st.path.starts_with(&format!("{path}.")));
                    return set(out, path.to_string(), b);
                }
            }
        }
        // A list that grew keeps its items' paths; the new ones are appended.
        (Value::Array(x), Value::Array(y)) if y.len() >= x.len() && !path.is_empty() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                diff(&at(&i.to_string()), va, vb, out);
            }
            for (i, vb) in y.iter().enumerate().skip(x.len()) {
                set(out, at(&i.to_string()), vb);
            }
        }
        _ => set(out, path.to_string(), b),
    }
}

/// A setting's value in a link: a string as itself when that cannot be read as anything else
/// (`fencing=atomic`), anything else as JSON; then percent-encoded where a query needs it.
fn encode_value(v: &Value) -> String {
    percent_encode(&link_text(v), b"-_.~:,=[]")
}

/// `text` with every byte of its UTF-8 but ASCII letters, digits and those of `keep` written as
/// `%XX` (with `-_.!~*'()` kept, as JavaScript's `encodeURIComponent` writes it).
pub(crate) fn percent_encode(text: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A setting's value as a link carries it (already percent-decoded): JSON, or else a string. A
/// number beyond what JSON's numbers hold (`1e400`) is refused as the number it was meant to be,
/// rather than read as a string.
fn decode_value(text: &str) -> Result<Value, String> {
    match sim::json::parse(text) {
        Ok(v) => Ok(v),
        Err(sim::json::Error::Syntax(e)) if e.out_of_range() => Err(format!("`{text}` is beyond the numbers a scenario can hold")),
        Err(_) => Ok(Value::String(text.to_string())),
    }
}

/// A setting's value as a link writes it, before percent-encoding: a string bare where it reads
/// back as itself, anything else as JSON.
fn link_text(v: &Value) -> String {
    match v {
        Value::String(s) if read_as_string(s) => s.clone(),
        v => v.to_string(),
    }
}

/// Whether a link can carry this string bare (`fencing=atomic`): it is not empty, and
/// [`decode_value`] reads it back as a string (not as JSON, nor refuses it as a number).
fn read_as_string(s: &str) -> bool {
    !s.is_empty() && matches!(sim::json::parse(s), Err(e) if !matches!(&e, sim::json::Error::Syntax(x) if x.out_of_range()))
}

/// A link made from an earlier version of a library scenario (its `&v=` differs): its changes
/// are applied to today's version, and the reader is told.
pub fn stale_note(id: &str, fixed: bool, version: Option<&str>) -> Option<String> {
    let base = library_base(&sim::library::get(id)?, fixed)?;
    (version? != version_of(&base)).then(|| {
        format!("This link was made from an earlier version of “{id}”; its changes are applied to today's version, so the run may differ from the one shared.")
    })
}

/// The scenario of a `?scenario=<id>[&fix=1]&set=…` link: the library scenario (fixed if
/// asked), without its questions, with each `<path>=<value>` applied.
pub fn decode_settings(id: &str, fixed: bool, sets: &[String]) -> Result<Scenario, String> {
    let lib = sim::library::get(id).ok_or_else(|| format!("there is no scenario called “{id}” in the library"))?;
    if sets.len() > MAX_SETTINGS {
        return Err(format!("the link changes {} settings; at most {MAX_SETTINGS}", sets.len()));
    }
    let base = library_base(&lib, fixed).ok_or_else(|| format!("{id} has no one-click fix"))?;
    apply(&base, sets, "of the link", "the link's changes")
}

/// The changes (as `path=value`, the form of `set`) that turn `from` into `to`, if there are
/// few enough and they reproduce it exactly: how a link carries the run a comparison shows
/// beside the one it opens (`&was=…`).
pub fn as_changes(from: &Scenario, to: &Scenario) -> Option<Vec<String>> {
    let mut set = Vec::new();
    diff("", &from.to_value(), &to.to_value(), &mut set);
    if set.len() > MAX_SETTINGS || from.with_settings(&set).ok().as_ref() != Some(to) {
        return None;
    }
    Some(set.iter().map(|st| format!("{}={}", st.path, encode_value(&st.value))).collect())
}

/// `base` with a link's changes (`path=value`, percent-decoded) applied; each refused in words
/// that say which change of what (`whose`: "of the link") is wrong, and why (`what`: "the
/// link's changes" make an invalid scenario).
pub fn apply(base: &Scenario, sets: &[String], whose: &str, what: &str) -> Result<Scenario, String> {
    if sets.len() > MAX_SETTINGS {
        return Err(format!("{what} are {} settings; at most {MAX_SETTINGS}", sets.len()));
    }
    let mut settings = Vec::new();
    for (i, text) in sets.iter().enumerate() {
        let (path, value) = text
            .split_once('=')
            .filter(|(p, _)| !p.is_empty())
            .ok_or_else(|| format!("change {} {whose} (`{text}`) is not of the form path=value", i + 1))?;
        let value = decode_value(value).map_err(|why| format!("change {} {whose}: {why}", i + 1))?;
        settings.push(Setting { path: path.to_string(), value });
    }
    let sc = base.with_settings(&settings).map_err(|e| {
        let n = match &e.problem {
            // A setting `with_settings` cannot place.
            Problem::NoSetting { index, .. } => Some(*index),
            // A misspelt last key is placed, then refused by name: `lock.tll_ms: unknown field`.
            Problem::Read(ReadErrorKind::UnknownField { .. }) => {
                let serde_path = |p: &str| {
                    p.split('.').map(|k| if k.parse::<usize>().is_ok() { format!("[{k}]") } else { format!(".{k}") }).collect::<String>()
                };
                settings.iter().position(|st| serde_path(&st.path)[1..] == e.path)
            }
            _ => None,
        };
        match n {
            Some(n) => format!("change {} {whose}: there is no setting `{}`", n + 1, settings[n].path),
            None => format!("{what} make an invalid scenario: {e}"),
        }
    })?;
    // As for any loaded scenario: a fix or a solution the link changed must still apply.
    sc.check_settings().map_err(|e| format!("{what} make an invalid scenario: {e}"))?;
    Ok(sc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::time::Millis;

    /// The fingerprint links have carried since they began: FNV-1a of the scenario's JSON as
    /// serde_json wrote it, its objects' keys sorted (built here through serde_json itself).
    #[test]
    fn the_fingerprint_is_the_one_earlier_links_carry() {
        fn sorted(v: serde_json::Value) -> serde_json::Value {
            match v {
                serde_json::Value::Object(m) => {
                    let mut pairs: Vec<_> = m.into_iter().collect();
                    pairs.sort_by(|a, b| a.0.cmp(&b.0));
                    serde_json::Value::Object(pairs.into_iter().map(|(k, x)| (k, sorted(x))).collect())
                }
                serde_json::Value::Array(items) => serde_json::Value::Array(items.into_iter().map(sorted).collect()),
                other => other,
            }
        }
        for lib in sim::library::all() {
            let base = library_base(&lib, false).unwrap();
            let text = sorted(serde_json::from_str(&base.to_value().to_string()).unwrap()).to_string();
            let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
            assert_eq!(version_of(&base), format!("{:08x}", h >> 32), "{}", lib.id);
        }
    }

    #[test]
    fn a_link_from_an_earlier_library_version_says_so() {
        let s = sim::library::get("gc-pause-unfenced").unwrap();
        let mut e = s.clone();
        e.lock.ttl_ms = Millis::new(12_345);
        let q = as_settings(&s, &crate::share::portable(&e)).expect("a short link");
        let v = q.split('&').find_map(|kv| kv.strip_prefix("v=")).expect("a version");
        assert_eq!(stale_note("gc-pause-unfenced", false, Some(v)), None);
        assert_eq!(stale_note("gc-pause-unfenced", false, None), None, "a hand-written link has none");
        let note = stale_note("gc-pause-unfenced", false, Some("00000000")).expect("a note");
        assert!(note.contains("earlier version of “gc-pause-unfenced”"), "{note}");
    }

    /// Every value a setting can hold comes back from a link as it went in: a string that reads
    /// as JSON, or as a number too large for JSON, is quoted; any other string goes bare.
    #[test]
    fn values_come_back_from_a_link_as_they_went_in() {
        let strings = ["atomic", "1e400", "-1e400", "5", "true", "null", "a b", "{"];
        let values = strings.iter().map(|s| Value::String(s.to_string())).chain([Value::from(5u64), Value::Bool(true), Value::Null]);
        for v in values {
            let text = link_text(&v);
            assert_eq!(decode_value(&text).as_ref(), Ok(&v), "{text}");
        }
        assert!(read_as_string("atomic") && !read_as_string("1e400") && !read_as_string("5") && !read_as_string(""));
    }

    #[test]
    fn bad_settings_in_a_link_get_clear_messages() {
        let cases: Vec<(&str, bool, Vec<&str>, &str)> = vec![
            ("nope", false, vec![], "no scenario called “nope”"),
            ("lease-basics", true, vec![], "lease-basics has no one-click fix"),
            ("gc-pause-unfenced", false, vec!["lock.tll_ms=5"], "change 1 of the link: there is no setting `lock.tll_ms`"),
            (
                "gc-pause-unfenced",
                false,
                vec!["seed=2", "clients.0.steps.0.acquire.retyr_ms=5"],
                "change 2 of the link: there is no setting `clients.0.steps.0.acquire.retyr_ms`",
            ),
            (
                "gc-pause-unfenced",
                false,
                vec!["seed=1", "faults.7.pause.at_ms=5"],
                "change 2 of the link: there is no setting `faults.7.pause.at_ms`",
            ),
            (
                "gc-pause-unfenced",
                false,
                vec!["lock.ttl_ms=ten"],
                "lock.ttl_ms: expected a whole number (0 or more), found the text \"ten\"",
            ),
            ("gc-pause-unfenced", false, vec!["lock.ttl_ms=0"], "lock.ttl_ms: must be between 1"),
            (
                "gc-pause-unfenced",
                false,
                vec!["seed=1", "lock.ttl_ms=1e400"],
                "change 2 of the link: `1e400` is beyond the numbers a scenario can hold",
            ),
            ("gc-pause-unfenced", false, vec!["lock.ttl_ms"], "change 1 of the link (`lock.ttl_ms`) is not of the form path=value"),
            ("gc-pause-unfenced", false, vec!["=5"], "not of the form path=value"),
            ("gc-pause-unfenced", false, vec!["faults.0.pause.actor=<b>Z</b>"], "no actor is called `<b>Z</b>`"),
            // A fix of two settings, the second wrong, in a link of one change (it panicked).
            (
                "gc-pause-unfenced",
                false,
                vec![r#"fix.set=[{"path":"resource.fencing","value":"atomic"},{"path":"zzz.q","value":1}]"#],
                "invalid scenario: fix.set[1].path: no setting at `zzz.q`",
            ),
            ("gc-pause-unfenced", false, vec![r#"fix.set.1={"path":"zzz.q","value":1}"#], "fix.set[1].path: no setting at `zzz.q`"),
            (
                "gc-pause-unfenced",
                false,
                vec!["challenge.solution.0.path=nope"],
                "challenge.solution: the changed scenario would be invalid",
            ),
        ];
        for (id, fix, sets, want) in cases {
            let sets: Vec<String> = sets.into_iter().map(String::from).collect();
            let err = decode_settings(id, fix, &sets).expect_err(want);
            assert!(err.contains(want), "{sets:?}: {err}");
        }
        let many: Vec<String> = (0..=MAX_SETTINGS).map(|i| format!("seed={i}")).collect();
        assert!(decode_settings("gc-pause-unfenced", false, &many).unwrap_err().contains("at most 64"));
    }
}
