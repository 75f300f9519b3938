//! `mdbook-leaselab`: an mdBook preprocessor that turns a fenced block
//!
//! ````text
//! ```leaselab scenario=redlock-clock-jump fix compare=fix step=key:3
//! ```
//! ````
//!
//! into a Lease Lab run: for the HTML renderer a `<lease-lab>` element with the run's picture
//! inside (drawn now by `draw::svg`, as `leaselab svg` draws it), which the `embed.js` of the
//! book's Lease Lab `site` makes live; for every other renderer the picture alone. A block whose
//! body is a scenario's JSON runs that scenario. A bad block fails the build with the chapter's
//! file, the line and what is wrong.
//!
//! The principal items: [`preprocess`] (a whole book, for one renderer), [`Settings`] (the
//! book's `[preprocessor.leaselab]` table), [`block::parse`] (a block's options),
//! [`picture::draw`] (its picture), [`chapter::rewrite`] (a chapter) and [`install`] (the
//! `install` command).

use std::path::Path;

use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::config::Config;

pub mod block;
pub mod chapter;
mod closest;
pub mod html;
pub mod install;
pub mod picture;
pub mod term;

/// The preprocessor's name: its table in `book.toml` is `[preprocessor.leaselab]`.
pub const NAME: &str = "leaselab";

/// The settings of `[preprocessor.leaselab]` that are ours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Where Lease Lab is deployed (the folder of its `embed.js`), ending in `/`; without it, the
    /// HTML has the elements and their pictures, but nothing makes them live.
    pub site: Option<String>,
}

/// mdBook's own settings of a preprocessor's table.
const MDBOOK_KEYS: [&str; 5] = ["command", "before", "after", "renderers", "optional"];

impl Settings {
    /// Reads `[preprocessor.leaselab]`; a setting it does not know, or a `site` that is no
    /// address, is refused with what to write.
    pub fn from_config(config: &Config) -> Result<Settings, String> {
        let table: Option<serde_json::Map<String, serde_json::Value>> =
            config.get(&format!("preprocessor.{NAME}")).map_err(|e| format!("book.toml: [preprocessor.{NAME}] is not a table: {e}"))?;
        let mut settings = Settings::default();
        for (key, value) in table.unwrap_or_default() {
            match key.as_str() {
                "site" => settings.site = Some(site(&value).map_err(|e| format!("book.toml: [preprocessor.{NAME}] site = {e}"))?),
                k if MDBOOK_KEYS.contains(&k) => {}
                k => {
                    return Err(format!(
                        "book.toml: [preprocessor.{NAME}] has no setting `{k}`{}; its setting is `site` (beside mdBook's own: {})",
                        closest::suggest(k, ["site"].into_iter().chain(MDBOOK_KEYS)),
                        MDBOOK_KEYS.join(", ")
                    ))
                }
            }
        }
        Ok(settings)
    }
}

/// A `site` value: an http(s) address or a path from the host's root, made to end in `/`. What
/// is wrong is said after the value as given, for the caller to say where it was given.
fn site(value: &serde_json::Value) -> Result<String, String> {
    let wrong = |shown: String, why: &str| {
        format!(
            "{shown}: {why}give the address where Lease Lab is deployed (the folder of its embed.js), such as \"https://example.org/leaselab/\" or \"/leaselab/\""
        )
    };
    let Some(s) = value.as_str() else { return Err(wrong(value.to_string(), "")) };
    // No address has them, and a site that had one could be neither shown as it is nor written
    // into book.toml as it was given (`install --site`).
    if s.chars().any(term::unsafe_char) {
        return Err(wrong(format!("\"{s}\""), "an address has no control or bidirectional characters; "));
    }
    let address = s.starts_with("https://") || s.starts_with("http://") || s.starts_with('/');
    if !address || s.chars().any(|c| c.is_whitespace() || c == '"' || c == '<') || s.ends_with(".js") {
        return Err(wrong(format!("\"{s}\""), ""));
    }
    Ok(if s.ends_with('/') { s.to_string() } else { format!("{s}/") })
}

/// Why a book is not built: its settings, or its blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A setting of `[preprocessor.leaselab]` in book.toml is wrong (said as [`Settings`] says
    /// it); no block is read.
    Settings(String),
    /// Each bad block's `<chapter file>:<line>: <what is wrong>`, the file named from the
    /// book's folder.
    Blocks(Vec<String>),
}

/// Replaces every block of ours in the book's chapters, for `renderer` (`html` gets the
/// elements, any other the pictures alone), and says how many chapters have one.
pub fn preprocess(book: &mut Book, config: &Config, renderer: &str) -> Result<usize, Failure> {
    let settings = Settings::from_config(config).map_err(Failure::Settings)?;
    let output = match renderer {
        "html" => chapter::Output::Html { site: settings.site.as_deref() },
        _ => chapter::Output::Other,
    };
    let src = &config.book.src;
    let mut errors = Vec::new();
    let mut drawn = 0;
    book.for_each_mut(|item| {
        let BookItem::Chapter(ch) = item else { return };
        match chapter::rewrite(&ch.content, output) {
            Ok(Some(content)) => {
                ch.content = content;
                drawn += 1;
            }
            Ok(None) => {}
            Err(problems) => {
                let file = ch.source_path.as_deref().map_or_else(|| ch.name.clone(), |p| Path::new(src).join(p).display().to_string());
                errors.extend(problems.into_iter().map(|p| format!("{file}:{}: {}", p.line, p.message)));
            }
        }
    });
    if errors.is_empty() {
        Ok(drawn)
    } else {
        Err(Failure::Blocks(errors))
    }
}
