//! What a block becomes in the page: for mdBook's HTML renderer a `<lease-lab>` element with
//! the picture inside ([`element`]), which `embed.js` makes live; for every other renderer the
//! picture alone ([`picture`]). Either sits in a `<div class="leaselab">` on one line, which
//! Markdown passes through untouched as an HTML block.

use crate::block::Block;
use crate::picture::Picture;

/// The `<lease-lab>` element for a block, its picture as the fallback content (for readers
/// without scripts, and shown until the live lab is there). A scenario of the author's own is
/// its `src`, inlined as a `data:` address (see [`data_url`]).
pub fn element(block: &Block, picture: &Picture) -> String {
    let mut attrs = String::new();
    match &block.source {
        crate::block::Source::Library(id) => attrs.push_str(&format!(r#" scenario="{}""#, attr(id))),
        crate::block::Source::Json(text) => attrs.push_str(&format!(r#" src="{}""#, data_url(text.trim()))),
    }
    if block.fix {
        attrs.push_str(" fix");
    }
    if block.compare_fix {
        attrs.push_str(r#" compare="fix""#);
    }
    if let Some(step) = picture.step {
        attrs.push_str(&format!(r#" step="{step}""#));
    }
    if let Some(h) = block.height {
        attrs.push_str(&format!(r#" height="{h}""#));
    }
    for (name, value) in &block.live {
        match value {
            Some(v) => attrs.push_str(&format!(r#" {name}="{v}""#)),
            None => attrs.push_str(&format!(" {name}")),
        }
    }
    wrap(&format!("<lease-lab{attrs}>{}</lease-lab>", picture.svg))
}

/// The picture alone, for renderers other than HTML (an inline SVG).
pub fn picture(picture: &Picture) -> String {
    wrap(&picture.svg)
}

/// The script that makes a page's elements live, once per page: `embed.js` from `site`.
pub fn script(site: &str) -> String {
    format!(r#"<script src="{}embed.js" async></script>"#, attr(site))
}

/// One line in a `<div>`: an HTML block to Markdown (a `<div` line starts one, which the next
/// blank line ends), so that nothing inside is read as Markdown.
fn wrap(inner: &str) -> String {
    format!(r#"<div class="leaselab">{inner}</div>"#)
}

/// A scenario's JSON as a `data:` address, which the element fetches as it fetches a file.
/// Chosen over a file beside the chapter: mdBook's renderers empty their output folder after
/// the preprocessors have run, and a file written into the book's `src/` would be the author's
/// to clean up (and would set `mdbook serve` rebuilding again).
pub fn data_url(json: &str) -> String {
    format!("data:application/json;base64,{}", base64(json.as_bytes()))
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Text for an attribute value in double quotes.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_vectors() {
        for (plain, coded) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain}");
        }
        assert_eq!(base64("é→".as_bytes()), "w6nihpI=");
    }

    #[test]
    fn the_script_is_loaded_from_the_site() {
        assert_eq!(script("https://example.org/lab/"), r#"<script src="https://example.org/lab/embed.js" async></script>"#);
    }
}
