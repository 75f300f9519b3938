//! The components. They draw what `state` and `layout` give them and forward events as
//! `Action`s; they decide nothing. Each receives only what it draws (see `lab.rs`).

pub mod address;
pub mod app;
pub mod compare;
pub mod controls;
pub mod course;
#[cfg(feature = "prerender")]
pub mod debate;
pub mod dismiss;
pub mod drill;
pub mod editor;
pub mod embed;
pub mod embed_dialog;
pub mod embed_options;
pub mod glossary;
#[cfg(feature = "prerender")]
pub mod guide;
pub mod header;
pub mod inspector;
pub mod keys;
pub mod lab;
pub mod lesson;
pub mod pages;
pub mod predict;
pub mod probe;
pub mod progress;
#[cfg(feature = "prerender")]
pub mod revise;
pub mod search;
pub mod timeline;
pub mod verdict;

/// Text whose `quoted` parts are code: the narration quotes each message it tells of
/// (`SET lock … NX PX 10000`), and a scenario's prose may quote a setting. Each is shown as code,
/// without its backticks ([`code_spans`]).
pub fn prose(text: &str) -> yew::Html {
    use yew::html;
    code_spans(text)
        .into_iter()
        .map(|(code, part)| {
            if code {
                html! { <code>{ part }</code> }
            } else {
                yew::Html::from(part)
            }
        })
        .collect()
}

/// A scenario's source as the story shows it: its words as text, and each `https://` address
/// in it a link that opens beside the lab (`rel="noopener"`, so the page opened cannot reach
/// back into the lab). Nothing else in a source is markup: a scenario's text is only ever
/// text ([`address_spans`] says where the addresses are).
pub fn linked(text: &str) -> yew::Html {
    use yew::html;
    address_spans(text)
        .into_iter()
        .map(|(address, part)| {
            if address {
                html! { <a href={part.to_string()} target="_blank" rel="noopener">{ part }</a> }
            } else {
                yew::Html::from(part)
            }
        })
        .collect()
}

/// A text cut into its `https://` addresses (true) and the words between them (false), in
/// order. An address runs to the next space (or `<`, `>`, `"`, which no address holds); a closing parenthesis, bracket or punctuation
/// mark that ends it is the sentence's (`(https://etcd.io/docs/)` links `https://etcd.io/docs/`),
/// unless the address opened that bracket itself. `https://` with nothing after it is text.
pub fn address_spans(text: &str) -> Vec<(bool, &str)> {
    const SCHEME: &str = "https://";
    let (mut out, mut from, mut at) = (Vec::new(), 0, 0);
    while let Some(found) = text[at..].find(SCHEME) {
        let start = at + found;
        let tail = &text[start..];
        let mut end = tail.find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"')).unwrap_or(tail.len());
        while let Some(last) = tail[..end].chars().next_back() {
            let unmatched = |open, close| last == close && tail[..end].matches(open).count() < tail[..end].matches(close).count();
            if !(matches!(last, '.' | ',' | ';' | ':' | '!' | '?' | '"' | '\'' | '”' | '’') || unmatched('(', ')') || unmatched('[', ']'))
            {
                break;
            }
            end -= last.len_utf8();
        }
        at = start + end.max(SCHEME.len());
        if end > SCHEME.len() {
            if from < start {
                out.push((false, &text[from..start]));
            }
            out.push((true, &text[start..at]));
            from = at;
        }
    }
    if from < text.len() {
        out.push((false, &text[from..]));
    }
    out
}

#[cfg(test)]
#[test]
fn a_source_links_its_https_addresses_and_leaves_the_sentence_its_punctuation() {
    let faq = "etcd docs, FAQ (https://etcd.io/docs/v3.5/faq/)";
    assert_eq!(address_spans(faq), [(false, "etcd docs, FAQ ("), (true, "https://etcd.io/docs/v3.5/faq/"), (false, ")")]);
    let issue = "etcd-io/etcd#10811 (2019): https://github.com/etcd-io/etcd/issues/10811";
    assert_eq!(address_spans(issue), [(false, "etcd-io/etcd#10811 (2019): "), (true, "https://github.com/etcd-io/etcd/issues/10811")]);
    assert_eq!(
        address_spans("see https://a.example/x, and https://b.example/y_(z)."),
        [(false, "see "), (true, "https://a.example/x"), (false, ", and "), (true, "https://b.example/y_(z)"), (false, ".")]
    );
    assert_eq!(
        address_spans("no address, http://plain.example and https:// alone"),
        [(false, "no address, http://plain.example and https:// alone")]
    );
    assert_eq!(address_spans("https://x.example"), [(true, "https://x.example")]);
    assert_eq!(address_spans(""), []);
    // What is not an address stays text, markup or not: Yew escapes it.
    assert_eq!(address_spans("<b>https://x.example/?a=1<i></b>"), [(false, "<b>"), (true, "https://x.example/?a=1"), (false, "<i></b>")]);
}

/// The same text where it cannot be styled (an attribute read aloud, a tooltip, an SVG label):
/// the quoted parts without their backticks.
pub fn unquoted(text: &str) -> String {
    code_spans(text).into_iter().map(|(_, part)| part).collect()
}

pub use sim::narrate::code_spans;

#[cfg(test)]
#[test]
fn quoted_parts_are_code_and_a_lone_backtick_stays() {
    assert_eq!(code_spans("A sends `SET lock a1` to redis."), [(false, "A sends "), (true, "SET lock a1"), (false, " to redis.")]);
    assert_eq!(code_spans("`x` and `y`"), [(true, "x"), (false, " and "), (true, "y")]);
    assert_eq!(code_spans("no quotes"), [(false, "no quotes")]);
    assert_eq!(code_spans("`a` then a lone ` here"), [(true, "a"), (false, " then a lone ` here")]);
    assert_eq!(code_spans(""), []);
    assert_eq!(code_spans("a `` b"), [(false, "a "), (false, " b")], "an empty quote is no code");
    assert_eq!(unquoted("A sends `SET lock a1` to redis."), "A sends SET lock a1 to redis.");
}

/// The browser's window; none when the views are rendered ahead of time, natively
/// (`prerender`: the first view's picture, made when the site is built).
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Whether the reader's only pointer is a finger (a phone or a tablet): hints then speak of
/// tapping and swiping, not of keys. Rendered ahead of time: as the picture's screen says.
pub fn touch_only() -> bool {
    match window() {
        Some(w) => w.match_media("(hover: none) and (pointer: coarse)").ok().flatten().is_some_and(|m| m.matches()),
        None => crate::prerender::screen().narrow,
    }
}

/// Whether the screen is a phone's width (the legend then starts folded).
pub fn narrow() -> bool {
    match window() {
        Some(w) => w.match_media("(max-width: 700px)").ok().flatten().is_some_and(|m| m.matches()),
        None => crate::prerender::screen().narrow,
    }
}

/// Whether a library scenario (with its fix, or as written) is safe, by running it; each is run
/// once per page load and remembered, for the course, the guide and the debate page.
pub fn library_safe(id: &str, fixed: bool) -> bool {
    thread_local! {
        static SAFE: std::cell::RefCell<sim::flat::Map<(String, bool), bool>> = Default::default();
    }
    if let Some(v) = SAFE.with(|m| m.borrow().get(&(id.to_string(), fixed)).copied()) {
        return v;
    }
    // Not kept while the scenario's file is not in: the answer would be wrong once it is.
    let Some(sc) = sim::library::get(id) else { return false };
    let safe = (if fixed { sc.fixed().and_then(Result::ok) } else { Some(sc) })
        .and_then(|sc| sim::run(&sc).ok())
        .is_some_and(|r| r.verdict.is_safe());
    SAFE.with(|m| m.borrow_mut().insert((id.to_string(), fixed), safe));
    safe
}
