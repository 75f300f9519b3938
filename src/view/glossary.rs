//! The words a first-time reader meets: [`TERMS`] (each with a one-sentence meaning), shown in a
//! text where they first appear ([`glossed`]: focus or hover a term, or tap it on a phone, to
//! read its meaning) and as a list ([`glossary`], in the help).

use yew::prelude::*;

/// The jargon of the course, with what it means. The first spelling is the one looked for in a
/// text (as written, case-sensitive), the meaning is one sentence.
pub const TERMS: &[(&str, &str)] = &[
    ("lease", "A lock that runs out by itself after a time (its TTL), so that a crashed holder cannot keep it forever."),
    ("TTL", "Time to live: how long a lease or a key lasts unless it is renewed."),
    (
        "fencing token",
        "A number that grows with every grant of the lock; the resource refuses a write with a lower number than one it has seen.",
    ),
    ("token", "The number a lock service hands out with each grant; with fencing, the resource compares it."),
    ("protected resource", "The data the lock is meant to protect: here a counter in a storage service."),
    ("SET NX PX", "The Redis command that takes a lock: set the key only if it does not exist (NX), with an expiry in milliseconds (PX)."),
    ("compare-and-extend", "Renewing a lock with a script that first checks the key still holds this client's value."),
    ("compare-and-delete", "Releasing a lock with a script that deletes the key only if it still holds this client's value."),
    ("Redlock", "A lock over five independent Redis nodes: a client holds it when a majority said yes, within the validity time."),
    ("quorum", "A majority of the members of a cluster; a decision needs one."),
    ("majority", "More than half of the nodes: 3 of 5."),
    ("GC pause", "A stop-the-world garbage collection: the whole process freezes, and does not notice the time that passed."),
    ("stop-the-world", "A pause of the whole process: nothing in it runs, including the code that would check the lease."),
    ("clock drift", "A clock that runs a little fast or slow, so that two machines disagree more as time goes on."),
    ("clock jump", "A clock set forward or back at once (by NTP or an operator)."),
    ("lost update", "A write made from a stale read, which overwrites a newer write: the data is corrupted."),
    ("lost-update", "A write made from a stale read, which overwrites a newer write: the data is corrupted."),
    ("hazards", "Things that went wrong without corrupting the data this time (two holders at once, a stale release)."),
    ("failover", "A replica taking over from a failed primary; what it had not yet received is lost."),
    ("etcd", "A consensus-backed key-value store: writes are committed by a majority, leases are kept by the leader."),
    ("ZooKeeper", "A consensus-backed coordination service: sessions, ephemeral and sequential znodes, watches."),
    ("validity", "Redlock's time left on the lease after acquiring it: TTL minus the time taken minus an allowance for drift."),
    (
        "lock-delay",
        "Chubby's: after a holder is lost (not released), the lock goes to no one for a while. Neither etcd nor ZooKeeper has one; Lease Lab adds it to both as a setting.",
    ),
];

/// A text with the first appearance of each term as a term to focus, hover or tap.
pub fn glossed(text: &str) -> Html {
    // (position, length, meaning), first appearances only, not overlapping, in order.
    let mut found: Vec<(usize, usize, &str)> = Vec::new();
    for (term, meaning) in TERMS {
        if let Some(at) = find_word(text, term) {
            if !found.iter().any(|(p, l, _)| at < p + l && *p < at + term.len()) {
                found.push((at, term.len(), meaning));
            }
        }
    }
    sim::sort::by_key(&mut found, |f| f.0);
    let mut out = Vec::new();
    let mut at = 0;
    for (p, l, meaning) in found {
        out.push(html! { { &text[at..p] } });
        out.push(html! {
            <span class="term" tabindex="0" role="button" title={meaning} aria-label={format!("{}: {meaning}", &text[p..p + l])}>
                { &text[p..p + l] }<span class="def" role="tooltip" aria-hidden="true">{ meaning }</span>
            </span>
        });
        at = p + l;
    }
    out.push(html! { { &text[at..] } });
    html! { <>{ for out }</> }
}

/// Where `term` first appears in `text` as a whole word.
fn find_word(text: &str, term: &str) -> Option<usize> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-');
    let mut from = 0;
    while let Some(i) = text[from..].find(term) {
        let at = from + i;
        if !word(text[..at].chars().next_back()) && !word(text[at + term.len()..].chars().next()) {
            return Some(at);
        }
        from = at + term.len();
    }
    None
}

/// Every term and its meaning, as a list.
pub fn glossary() -> Html {
    // One entry per meaning: "lost-update" is the verdict's spelling of "lost update".
    let mut seen = Vec::new();
    let terms = TERMS.iter().filter(|(_, m)| {
        let new = !seen.contains(m);
        seen.push(*m);
        new
    });
    html! {
        <dl class="glossary">
            { for terms.map(|(t, m)| html! { <><dt>{ *t }</dt><dd>{ *m }</dd></> }) }
        </dl>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_found_as_whole_words_only() {
        assert_eq!(find_word("a lease and a leaseholder", "lease"), Some(2));
        assert_eq!(find_word("leases", "lease"), None);
        assert_eq!(find_word("the fencing token 34", "token"), Some(12));
        assert_eq!(find_word("lost-update", "lost update"), None);
    }

    #[test]
    fn the_first_lesson_explains_its_jargon() {
        // The course's first lesson meets the words a newcomer does not know yet.
        let s = sim::library::catalog()[0].story.clone();
        let found: Vec<&str> = TERMS.iter().map(|t| t.0).filter(|t| find_word(&s, t).is_some()).collect();
        assert!(found.contains(&"SET NX PX") && found.contains(&"compare-and-extend") && found.contains(&"lease"), "{found:?} in {s}");
    }

    /// The lock-delay, which neither etcd nor ZooKeeper has, is explained where its lesson
    /// first names it, in the story and in the setup predict mode shows.
    #[test]
    fn the_lock_delay_is_explained_where_its_lesson_names_it() {
        let sc = sim::library::get("chubby-lock-delay").expect("in the library");
        let (term, meaning) = TERMS.iter().find(|t| t.0 == "lock-delay").expect("a term");
        assert!(meaning.contains("Neither etcd nor ZooKeeper has one"), "{meaning}");
        for text in [&sc.story, &sc.setup] {
            assert!(find_word(text, term).is_some(), "{text}");
        }
    }
}
