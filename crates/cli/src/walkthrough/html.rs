//! The walkthrough as one HTML page: the pictures inline (their styles and arrowheads once), no
//! script and nothing loaded from elsewhere, so that it opens from a file, passes a strict
//! Content-Security-Policy and prints: each moment kept on one page, light colours on paper.
//! It is also well-formed XML (void elements closed, attributes quoted), which the tests check.

use std::fmt::Write;

use draw::svg::esc;
use draw::svg::walk::{self, Picture};

use super::{Moment, Walk, Writer};

/// The page's own style. Its classes begin with `w-`, apart from the pictures' (`draw::svg`).
const STYLE: &str = r#"
:root { --ink: #1b2330; --muted: #5b6472; --bg: #ffffff; --rule: #dde1e7; --code: #f2f4f7; --safe: #0b7a4b; --unsafe: #c0392b; --accent: #1f6feb; }
@media screen and (prefers-color-scheme: dark) {
  :root { color-scheme: dark; --ink: #e6eaf0; --muted: #9aa4b2; --bg: #0f141b; --rule: #2a3340; --code: #1f2630; --safe: #3fb27f; --unsafe: #ff7b6b; --accent: #6ea8ff; }
}
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
main { max-width: 780px; margin: 0 auto; padding: 28px 20px 56px; }
h1 { font-size: 30px; line-height: 1.2; margin: 0 0 6px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--rule); }
h3 { font-size: 17px; margin: 0 0 6px; }
p { margin: 0 0 12px; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
.w-about { color: var(--muted); font-size: 15px; margin-bottom: 20px; }
.w-moment { margin: 28px 0; }
.w-n { color: var(--muted); }
.w-why { border-left: 3px solid var(--accent); padding: 2px 0 2px 12px; }
.w-headline { font-size: 19px; font-weight: 700; }
.w-safe { color: var(--safe); } .w-unsafe { color: var(--unsafe); }
.w-list { padding-left: 22px; } .w-list li { margin-bottom: 6px; }
.w-made { color: var(--muted); font-size: 13px; border-top: 1px solid var(--rule); margin-top: 40px; padding-top: 10px; }
svg.timeline { display: block; width: 100%; max-width: 100%; height: auto; margin: 10px 0 4px; }
svg.defs { position: absolute; }
@media screen and (max-width: 640px) { .w-picture { overflow-x: auto; } .w-picture svg.timeline { min-width: 600px; } }
@page { margin: 14mm; }
@media print {
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  h2 { margin-top: 18pt; }
  h2, h3 { break-after: avoid; }
  .w-moment, .w-picture, li { break-inside: avoid; }
  .w-moment { margin: 14pt 0; }
}
"#;

/// The page being written.
pub struct Page {
    h: String,
}

impl Default for Page {
    fn default() -> Page {
        Page { h: String::from("<!DOCTYPE html>\n") }
    }
}

impl Page {
    /// The page, whole.
    pub fn finish(mut self) -> String {
        self.h.push_str("</main></body></html>\n");
        // A control character or a bidirectional override anywhere in the page (the scenario's
        // words, the pictures' labels and titles) is written as the text output writes it: a
        // browser would reorder what it shows, and a terminal showing the file obey it.
        if let std::borrow::Cow::Owned(escaped) = crate::term::escape(&self.h, true) {
            return escaped;
        }
        self.h
    }
}

impl Writer for Page {
    /// The head (the title, the styles) and the title.
    fn title(&mut self, title: &str, about: &str) {
        let _ = write!(
            self.h,
            "<html lang=\"en\"><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
             <meta name=\"generator\" content=\"leaselab walkthrough\"/><title>{} · a Lease Lab walkthrough</title><style>{STYLE}{}</style></head>\n<body>{}<main>\n",
            esc(title),
            walk::page_style(),
            walk::page_defs()
        );
        let _ = writeln!(self.h, "<h1>{}</h1><p class=\"w-about\">{}</p>", text(title), text(about));
    }

    fn heading(&mut self, t: &str) {
        let _ = writeln!(self.h, "<h2>{}</h2>", text(t));
    }

    fn subheading(&mut self, t: &str) {
        let _ = writeln!(self.h, "<h3>{}</h3>", text(t));
    }

    fn paragraph(&mut self, bold: Option<&str>, t: &str) {
        let bold = bold.map(|b| format!("<strong>{}</strong> ", text(b))).unwrap_or_default();
        let _ = writeln!(self.h, "<p>{bold}{}</p>", text(t));
    }

    fn list(&mut self, items: &[String]) {
        self.h.push_str("<ul class=\"w-list\">");
        for item in items {
            let _ = write!(self.h, "<li>{}</li>", text(item));
        }
        self.h.push_str("</ul>\n");
    }

    /// The picture inline: its description is its `aria-label` and its title.
    fn picture(&mut self, _: Picture, svg: &dyn Fn(bool) -> String, _alt: &str) {
        let _ = writeln!(self.h, "<div class=\"w-picture\">{}</div>", svg(false).trim_end());
    }

    fn moment(&mut self, n: usize, m: &Moment, w: &Walk) {
        let _ = write!(
            self.h,
            "<section class=\"w-moment\" id=\"moment-{n}\"><h3><span class=\"w-n\">{n}.</span> {}</h3><p>{}</p>",
            text(&m.heading),
            text(&m.said)
        );
        if !m.why.is_empty() {
            let _ = write!(self.h, "<p class=\"w-why\">{}</p>", text(&m.why));
        }
        super::picture(self, w, m.picture);
        self.h.push_str("</section>\n");
    }

    fn verdict(&mut self, safe: bool, headline: &str, value: &str) {
        let class = if safe { "w-safe" } else { "w-unsafe" };
        let _ = writeln!(self.h, "<p><span class=\"w-headline {class}\">{}.</span> Final value {}.</p>", text(headline), text(value));
    }

    fn made_by(&mut self, t: &str) {
        let _ = writeln!(self.h, "<p class=\"w-made\">{}</p>", text(t));
    }
}

/// A scenario's words as HTML text: its quoted parts as code; control characters written as the
/// text output writes them.
fn text(s: &str) -> String {
    sim::narrate::code_spans(&crate::term::escape(s, false))
        .into_iter()
        .map(|(code, part)| if code { format!("<code>{}</code>", esc(part)) } else { esc(part) })
        .collect()
}
