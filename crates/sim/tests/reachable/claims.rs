//! What a key moment's text claims, read from its words and checked against the run at the
//! event it is shown on, from the run's own events (not from the moment's `when`, which is what
//! decides whether it is shown: this is the independent check).
//!
//! Each claim is a phrase with a fact behind it: "the counter is 1" (the resource's value once
//! the event has happened), "A's plain DEL deletes B's key" (whose key the delete removed),
//! "B's random value is smaller than A's" (the two tokens), "now for 30 seconds" (the TTL), "five
//! SET requests in flight" (replies not yet received), and so on. A phrase this reader does not
//! know is not judged here; the library lint asks such a text to carry a condition.

use sim::scenario::LockKind;
use sim::time::Micros;
use sim::trace::EventId;
use sim::{EventKind, QuorumEvent, Run, Scenario};

/// The false claims of `text`, shown at event `id` of `run`, each as a sentence.
pub fn false_claims(sc: &Scenario, run: &Run, id: EventId, text: &str) -> Vec<String> {
    let t = text.to_ascii_lowercase();
    let e = &run.events[id];
    let mut wrong = Vec::new();
    let mut claim = |ok: bool, what: String| {
        if !ok {
            wrong.push(what);
        }
    };
    // The resource's value once the event has happened.
    for pat in ["the counter is ", "counter reads ", "but reads ", "the value is now "] {
        for n in numbers_after(&t, pat) {
            let v = value_after(run, id);
            claim(v == n, format!("says the value is {n}; it is {v}"));
        }
    }
    // A token the resource rejected, and the highest it had accepted.
    if let EventKind::Rejected { token, highest, .. } = e.kind {
        let rejects = t.find("rejects ").map(|i| &t[i..]).map(|r| r.split([':', '.']).next().unwrap_or(r)).unwrap_or("");
        for n in numbers_after(rejects, "token ") {
            claim(token == Some(n as u64), format!("says the rejected token is {n}; it is {token:?}"));
        }
        for n in numbers_after(&t, "token ") {
            let known = token == Some(n as u64) || highest == n as u64;
            claim(known, format!("names token {n}; the write's was {token:?} and the highest {highest}"));
        }
        for n in numbers_after(&t, "already accepted ") {
            claim(highest == n as u64, format!("says {n} was accepted before; the highest was {highest}"));
        }
        // "has accepted czxid 4", "has accepted B's leaseTransitions 1": the first number of
        // the next three words.
        for (i, _) in t.match_indices("has accepted ") {
            let said = t[i + "has accepted ".len()..].split_whitespace().take(3).find_map(number);
            if let Some(n) = said {
                claim(highest == n as u64, format!("says {n} had been accepted; the highest was {highest}"));
            }
        }
    }
    // The token of a grant, or of a write the check passed.
    if matches!(e.kind, EventKind::Acquired { .. } | EventKind::Checked { .. }) {
        for n in numbers_after(&t, "token ").into_iter().take(1) {
            claim(e.kind.token() == Some(n as u64), format!("says the token is {n}; it is {:?}", e.kind.token()));
        }
    }
    // The lease's length, said when it is granted or renewed.
    if matches!(e.kind, EventKind::Acquired { .. } | EventKind::Renewed { .. }) {
        let ttl_s = sc.lock.ttl_ms.get() as i64 / 1000;
        for pat in ["for ", "the ", "a "] {
            for n in numbers_before(&t, pat, &[" seconds", "-second lease", " s forward"]) {
                claim(n == ttl_s, format!("says the lease is {n} s; the TTL is {ttl_s} s"));
            }
        }
    }
    if let EventKind::Paused { until_us } = e.kind {
        for n in numbers_after(&t, "paused for ") {
            let s = (until_us - e.at_us) / Micros::secs(1);
            claim(n == s, format!("says the pause is {n} s; it is {s} s"));
        }
        if t.contains("between the check and the write") || t.contains("after the check has passed") {
            claim(between_check_and_write(run, id), "says the pause falls between a passed check and the write".into());
        }
        if let Some(n) = in_flight_claim(&t) {
            let f = in_flight(run, id);
            claim(
                n.is_none_or(|n| n == f) && f > 0,
                format!("says {} requests are in flight; {f} are", n.map_or("some".into(), |n| n.to_string())),
            );
        }
    }
    if let Some((subject, lower, object)) = comparison(&t) {
        let last = |who: &str| last_token(run, id, who);
        let ours = subject.and_then(last).or(e.kind.token());
        let theirs = match object {
            Err(n) => Some(n as u64),
            Ok(who) => last(who),
        };
        let ok = matches!((ours, theirs), (Some(a), Some(b)) if (a < b) == lower && a != b);
        claim(ok, format!("compares tokens {ours:?} and {theirs:?} wrongly"));
    }
    // Whose key a key event touched (other events, as a question's, are not about one key).
    let key_event = matches!(e.kind, EventKind::KeyDeleted { .. } | EventKind::KeyExtended { .. } | EventKind::KeyExpired { .. });
    for pat in ["deletes ", "extends "].into_iter().filter(|_| key_event) {
        if let Some(who) = word_after(&t, pat).and_then(|w| w.strip_suffix("'s")) {
            let owner = match e.kind {
                EventKind::KeyDeleted { owner, .. } | EventKind::KeyExtended { owner, .. } | EventKind::KeyExpired { owner } => {
                    owner.map(|o| run.name(o))
                }
                _ => None,
            };
            claim(owner.is_some_and(|o| o.eq_ignore_ascii_case(who)), format!("says it {pat}{who}'s key; the key was {owner:?}'s"));
        }
    }
    // What the resource has seen at the event.
    let highest = run.resource_log.iter().filter(|s| s.event <= id).last().map_or(0, |s| s.highest);
    for n in numbers_after(&t, "the resource has seen is ") {
        claim(highest == n as u64, format!("says the highest token seen is {n}; it is {highest}"));
    }
    if t.contains("has seen no token") {
        claim(highest == 0, format!("says the resource has seen no token; it has seen {highest}"));
    }
    if t.contains("deleted with it") {
        claim(held_until(run, id), "says the expiry deletes the client's znode, which it had already released".into());
    }
    if t.contains("comes back empty") || t.contains("restarts empty") {
        claim(matches!(e.kind, EventKind::Restarted { kept_data: false }), "says the node restarts empty; it kept its data".into());
    }
    // "A, cut off, …": A is in a partition at the event; "the partition has healed": one has.
    for (i, _) in text.match_indices(", cut off") {
        let who = text[..i].rsplit(' ').next().unwrap_or_default();
        let cut = run
            .actor_id(who)
            .is_some_and(|a| run.intervals.partitions.iter().any(|p| p.actor == a && p.from_us <= e.at_us && e.at_us < p.to_us));
        claim(cut, format!("says {who} is cut off; it is not in a partition then"));
    }
    if t.contains("partition has healed") {
        let healed = run.intervals.partitions.iter().any(|p| p.to_us <= e.at_us);
        claim(healed, "says a partition has healed; none had".into());
    }
    // The service's size, counted in words: "three of five", "two of the three members",
    // "all five nodes" (a count of the nodes, members or servers the service has; the Change
    // panel changes it).
    if matches!(sc.lock.kind, LockKind::Redlock | LockKind::Consensus | LockKind::ZooKeeper) {
        let n = i64::from(sc.lock.nodes);
        for pat in [" of the ", " of ", "all "] {
            for (i, _) in t.match_indices(pat) {
                let rest = &t[i + pat.len()..];
                let Some(w) = rest.split(|c: char| !c.is_ascii_alphabetic()).next() else { continue };
                let after = &rest[w.len()..];
                let counted = [" nodes", " members", " servers", " masters", " votes"].iter().any(|x| after.starts_with(x))
                    || (pat != "all " && (after.is_empty() || after.starts_with(['.', ':', ',', ';'])));
                // Words only ("five", not "5 s"), and not "no": "none of the".
                if let Some(said) = number(w).filter(|&m| m > 1 && counted) {
                    claim(said == n, format!("counts {said} in the service; it has {n}"));
                }
            }
        }
    }
    if let EventKind::Tally { ref votes, elapsed_us, .. } = e.kind {
        for n in numbers_before(&t, "", &[" votes"]) {
            claim(votes.len() as i64 == n, format!("says {n} votes; there were {}", votes.len()));
        }
        for n in numbers_before(&t, "", &[" seconds have passed"]) {
            let s = (elapsed_us + Micros::us(500_000)) / Micros::secs(1);
            claim(s == n, format!("says {n} s passed; {s} s did"));
        }
    }
    wrong
}

/// The resource's value once event `id` has happened: the last write applied up to it.
fn value_after(run: &Run, id: EventId) -> i64 {
    run.events[..=id]
        .iter()
        .rev()
        .find_map(|e| if let EventKind::Accepted { value, .. } = e.kind { Some(value) } else { None })
        .unwrap_or(0)
}

/// The last token issued to `who` by the time of event `id`.
fn last_token(run: &Run, id: EventId, who: &str) -> Option<u64> {
    let c = run.actors.iter().position(|a| a.name.eq_ignore_ascii_case(who))?;
    run.events[..=id].iter().rev().find_map(|e| match e.kind {
        EventKind::Acquired { token, .. } if e.actor == c => token,
        _ => None,
    })
}

/// The pause at `id` comes after its client's passed deadline check, and the client's write
/// lands at the resource after it.
fn between_check_and_write(run: &Run, id: EventId) -> bool {
    let a = run.events[id].actor;
    let checked = run.events[..id].iter().any(|e| e.actor == a && matches!(e.kind, EventKind::DeadlineOk { .. }));
    let lands = run.events[id..]
        .iter()
        .any(|e| matches!(e.kind, EventKind::Accepted { client, .. } | EventKind::Rejected { client, .. } if client == a));
    checked && lands
}

/// How many of the paused client's requests are unanswered at `id`: sends since its last
/// round's tally (or grant) less the replies received since.
fn in_flight(run: &Run, id: EventId) -> i64 {
    let a = run.events[id].actor;
    let mut n = 0i64;
    for e in run.events[..id].iter().filter(|e| e.actor == a) {
        match e.kind {
            EventKind::Tally { .. } | EventKind::Acquired { .. } => n = 0,
            EventKind::Send { .. } => n += 1,
            EventKind::Receive { .. } => n -= 1,
            _ => {}
        }
    }
    n.max(0)
}

/// The client of a lease expiry still held its lock (had not released it) when it expired.
fn held_until(run: &Run, id: EventId) -> bool {
    let EventKind::Quorum(QuorumEvent::LeaseExpired { client }) = run.events[id].kind else { return true };
    let mut held = false;
    for e in run.events[..id].iter().filter(|e| e.actor == client) {
        match e.kind {
            EventKind::Acquired { .. } => held = true,
            EventKind::Releasing | EventKind::Released { .. } => held = false,
            _ => {}
        }
    }
    held
}

/// "five SET requests in flight" → Some(Some(5)); "requests in flight" → Some(None).
fn in_flight_claim(t: &str) -> Option<Option<i64>> {
    let i = t.find(" in flight")?;
    Some(t[..i].split_whitespace().rev().take(3).find_map(number))
}

/// "X's … smaller than Y's" → (Some(X), true, Ok(Y)); "… higher than 1" → (…, false, Err(1)).
fn comparison(t: &str) -> Option<(Option<&str>, bool, Result<&str, i64>)> {
    let (before, after) = t.split_once(" than ")?;
    let lower = match before.split_whitespace().last()? {
        "smaller" | "lower" => true,
        "larger" | "higher" | "bigger" => false,
        _ => return None,
    };
    let clause = before.rsplit(['.', ':', ';']).next().unwrap_or(before);
    let subject = clause.split_whitespace().find_map(|w| w.strip_suffix("'s"));
    let first = after.split_whitespace().next()?.trim_end_matches(|c: char| !c.is_ascii_alphanumeric() && c != '\'');
    let object = match number(first) {
        Some(n) => Err(n),
        None => Ok(first.strip_suffix("'s")?),
    };
    Some((subject, lower, object))
}

/// The numbers written right after each `pat` in `t`.
fn numbers_after(t: &str, pat: &str) -> Vec<i64> {
    t.match_indices(pat).filter_map(|(i, _)| word_after(&t[i..], pat).and_then(number)).collect()
}

/// The numbers written right before one of `ends`, after `pat` (or anywhere, for "").
fn numbers_before(t: &str, pat: &str, ends: &[&str]) -> Vec<i64> {
    let mut out = Vec::new();
    for end in ends {
        for (i, _) in t.match_indices(end) {
            let head = &t[..i];
            let word = head.rsplit(|c: char| c == ' ').next().unwrap_or("");
            let before = &head[..head.len() - word.len()];
            if pat.is_empty() || before.ends_with(pat) {
                out.extend(number(word));
            }
        }
    }
    out
}

fn word_after<'a>(t: &'a str, pat: &str) -> Option<&'a str> {
    let rest = &t[t.find(pat)? + pat.len()..];
    let w = rest.split_whitespace().next()?;
    Some(w.trim_end_matches(['.', ',', ':', ';', ')']))
}

fn number(w: &str) -> Option<i64> {
    const WORDS: [&str; 13] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
    let w = w.trim_end_matches(['.', ',', ':', ';']);
    w.parse().ok().or_else(|| WORDS.iter().position(|x| *x == w).map(|n| n as i64))
}
