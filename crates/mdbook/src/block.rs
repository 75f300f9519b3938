//! One ```` ```leaselab ```` fenced block, read: [`Block`] from its info string and body by
//! [`parse`], or a [`Bad`] that says what is wrong and on which of its lines.
//!
//! ````text
//! ```leaselab scenario=redlock-clock-jump fix compare=fix step=key:3
//! ```
//! ````
//!
//! The options are words after `leaselab`, separated by spaces: `scenario=<library id>`, `fix`,
//! `compare=fix`, `step=<N>` (1 is the first event) or `step=key:<N>` (the N-th key moment),
//! and `height=<px>`; and the live lab's own, which only the `<lease-lab>` element reads:
//! `loading=lazy|eager|visible`, `controls=full|play|none`, `theme=page|light|dark|system`,
//! `autoplay` and `edit` ([`LIVE`]). A block without `scenario=` holds a scenario's JSON as its
//! body.

/// What a block asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub source: Source,
    /// The scenario with its one-click fix.
    pub fix: bool,
    /// The run drawn above the other run of its pair (`compare=fix`): the run with its fix below
    /// the run as written, or with `fix`, the run as written below the run with its fix.
    pub compare_fix: bool,
    pub step: Option<Step>,
    /// The live lab's height in pixels, for the element to reserve.
    pub height: Option<u32>,
    /// The live lab's options, for the element only, in the order given: (name, value), a
    /// flag without one.
    pub live: Vec<(&'static str, Option<&'static str>)>,
}

/// Where the block's scenario comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A library scenario by id (`scenario=gc-pause-fenced`).
    Library(String),
    /// A scenario of the author's own: the block's body, JSON.
    Json(String),
}

/// Where the cursor is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A step number, 1 for the first event (as `leaselab svg --step` and the app's `&step=`).
    Number(usize),
    /// The N-th key moment of the run, from 1 (`step=key:3`).
    Key(usize),
}

/// What is wrong with a block, and where: `line` counts from the fence's line (0), so that the
/// body's first line is 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad {
    pub line: usize,
    pub message: String,
}

impl Bad {
    /// A problem with the fence's line (its options).
    pub fn fence(message: impl Into<String>) -> Bad {
        Bad { line: 0, message: message.into() }
    }
}

/// The options a block takes.
pub const OPTIONS: [&str; 10] = ["scenario", "fix", "compare", "step", "height", "loading", "controls", "theme", "autoplay", "edit"];

/// The options the live lab alone reads, passed to the element as they are: each with its
/// choices and what they mean (none for a flag), as static/embed.js takes them.
pub const LIVE: [(&str, &[(&str, &str)]); 5] = [
    ("loading", &[("lazy", "on a click or focus"), ("eager", "at once"), ("visible", "when scrolled into view")]),
    ("controls", &[("full", "every control"), ("play", "play and step only"), ("none", "no controls")]),
    ("theme", &[("page", "the page's colours"), ("light", "light"), ("dark", "dark"), ("system", "the reader's system's")]),
    ("autoplay", &[]),
    ("edit", &[]),
];

/// The `height=` range, in pixels: the element's (static/embed.js).
const HEIGHT: std::ops::RangeInclusive<u32> = 100..=100_000;

/// Whether a fenced block's info string makes it ours: its first word is `leaselab`.
pub fn is_ours(info: &str) -> bool {
    info.split_whitespace().next() == Some("leaselab")
}

/// Reads a block from its info string (`leaselab scenario=… fix`) and its body.
pub fn parse(info: &str, body: &str) -> Result<Block, Bad> {
    let mut scenario = None;
    let mut block =
        Block { source: Source::Json(String::new()), fix: false, compare_fix: false, step: None, height: None, live: Vec::new() };
    let mut seen: Vec<&str> = Vec::new();
    for word in info.split_whitespace().skip(1) {
        let (name, value) = match word.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (word, None),
        };
        if !OPTIONS.contains(&name) {
            return Err(Bad::fence(format!(
                "there is no option `{name}`{}; the options are {}",
                crate::closest::suggest(name, OPTIONS.iter().copied()),
                OPTIONS.join(", ")
            )));
        }
        if seen.contains(&name) {
            return Err(Bad::fence(format!("`{name}` is given twice; keep one")));
        }
        seen.push(name);
        if let Some(&(name, choices)) = LIVE.iter().find(|(n, _)| *n == name) {
            block.live.push((name, live(name, choices, value)?));
            continue;
        }
        match (name, value) {
            ("fix", None) => block.fix = true,
            ("fix", Some(v)) => return Err(Bad::fence(format!("`fix` takes no value (write `fix`, not `fix={v}`)"))),
            (_, None) => return Err(Bad::fence(format!("`{name}` needs a value: {}", usage(name)))),
            (_, Some("")) => return Err(Bad::fence(format!("`{name}=` is empty: {}", usage(name)))),
            ("scenario", Some(v)) => scenario = Some(v.to_string()),
            ("compare", Some("fix")) => block.compare_fix = true,
            ("compare", Some(v)) => {
                return Err(Bad::fence(format!("compare={v}: the only comparison is compare=fix (the run with its one-click fix)")))
            }
            ("step", Some(v)) => block.step = Some(step(v)?),
            ("height", Some(v)) => block.height = Some(height(v)?),
            _ => unreachable!("every option in OPTIONS is matched"),
        }
    }
    let has_body = !body.trim().is_empty();
    block.source = match (scenario, has_body) {
        (Some(id), false) => Source::Library(id),
        (Some(id), true) => {
            let first = body.lines().position(|l| !l.trim().is_empty()).unwrap_or(0) + 1;
            return Err(Bad {
                line: first,
                message: format!(
                    "a block with scenario={id} has no body; to run a scenario of your own, leave out scenario= and write its JSON here"
                ),
            });
        }
        (None, true) => Source::Json(body.to_string()),
        (None, false) => {
            return Err(Bad::fence("which run? Give scenario=<library id> (see `leaselab list`), or a scenario's JSON as the block's body"))
        }
    };
    Ok(block)
}

/// How to write an option's value.
fn usage(name: &str) -> &'static str {
    match name {
        "scenario" => "a library id such as scenario=gc-pause-fenced (see `leaselab list`)",
        "compare" => "compare=fix",
        "step" => "a step number (step=12; 1 is the first event) or a key moment (step=key:3)",
        _ => "the live lab's height in pixels, such as height=420",
    }
}

fn step(v: &str) -> Result<Step, Bad> {
    let (key, digits) = match v.strip_prefix("key:") {
        Some(n) => (true, n),
        None => (false, v),
    };
    let n = whole(digits).ok_or_else(|| Bad::fence(format!("step={v}: use {}", usage("step"))))?;
    match (key, n) {
        (true, 0) => Err(Bad::fence(format!("step={v}: key moments count from 1 (key:1 is the first)"))),
        (false, 0) => Err(Bad::fence(format!("step={v}: steps count from 1 (step=1 is the first event)"))),
        (true, n) => Ok(Step::Key(n)),
        (false, n) => Ok(Step::Number(n)),
    }
}

fn height(v: &str) -> Result<u32, Bad> {
    match whole(v).and_then(|n| u32::try_from(n).ok()) {
        Some(n) if HEIGHT.contains(&n) => Ok(n),
        _ => Err(Bad::fence(format!(
            "height={v}: use a whole number of pixels from {} to {}, such as height=420",
            HEIGHT.start(),
            HEIGHT.end()
        ))),
    }
}

/// A live lab's option: a flag alone, or one of its choices.
fn live(name: &'static str, choices: &[(&'static str, &str)], value: Option<&str>) -> Result<Option<&'static str>, Bad> {
    let words = || choices.iter().map(|(c, what)| format!("{name}={c} ({what})")).collect::<Vec<_>>().join(", ");
    match (choices.is_empty(), value) {
        (true, None) => Ok(None),
        (true, Some(v)) => Err(Bad::fence(format!("`{name}` takes no value (write `{name}`, not `{name}={v}`)"))),
        (false, None) => Err(Bad::fence(format!("`{name}` needs a value: {}", words()))),
        (false, Some(v)) => match choices.iter().find(|(c, _)| *c == v) {
            Some(&(c, _)) => Ok(Some(c)),
            None => Err(Bad::fence(format!("{name}={v}{}: use {}", crate::closest::suggest(v, choices.iter().map(|(c, _)| *c)), words()))),
        },
    }
}

/// Digits only (no sign, no spaces), as a number; `None` past `usize`.
fn whole(s: &str) -> Option<usize> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests;
