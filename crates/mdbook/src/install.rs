//! `mdbook-leaselab install <book>`: adds `[preprocessor.leaselab]` to the book's `book.toml`,
//! as `mdbook-mermaid install` does, and nothing else: the pictures are inline and `embed.js`
//! comes from the site, so there are no files to copy and no `additional-js`. Run twice, it
//! changes nothing the second time. [`install`] returns what it did, in words.

use std::io::Read;
use std::path::Path;

use mdbook_preprocessor::config::Config;

use crate::NAME;

/// The largest book.toml read, in bytes: 1 MB, as `leaselab` reads a scenario file. A book's
/// settings are a few hundred bytes; the bound is for a link to a device that never ends.
pub const MAX_BYTES: u64 = 1_000_000;

/// Adds the table to `<book>/book.toml` unless it is there, with `site` if given (checked as the
/// preprocessor checks it), appended so that the rest of the file stays as written.
pub fn install(book: &Path, site: Option<&str>) -> Result<String, String> {
    let path = book.join("book.toml");
    let shown = path.display();
    let cannot = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{shown}: no such file; give the book's folder (the one with book.toml)"),
        _ => format!("{shown}: cannot read it: {e}"),
    };
    // A regular file only, before it is opened: a link to /dev/zero never ends, and a FIFO
    // would wait for a writer forever.
    let meta = std::fs::metadata(&path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file; give the book's folder, whose book.toml is a file"));
    }
    let too_large = |len: u64| format!("{shown}: {len} bytes, over the 1 MB a book.toml is read to; give the book's own book.toml");
    if meta.len() > MAX_BYTES {
        return Err(too_large(meta.len()));
    }
    // Bounded again as it is read, for a file that grows in between.
    let mut bytes = Vec::new();
    std::fs::File::open(&path).and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes)).map_err(cannot)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("{shown}: not UTF-8 text (at byte {})", e.utf8_error().valid_up_to()))?;
    let config: Config = text.parse().map_err(|e: mdbook_preprocessor::errors::Error| format!("{shown}: {e:#}"))?;
    if config.contains_key(&format!("preprocessor.{NAME}")) {
        let has = match crate::Settings::from_config(&config) {
            Ok(crate::Settings { site: Some(s) }) => format!("with site = {}", toml_string(&s)),
            Ok(crate::Settings { site: None }) => "without a site (the blocks are pictures only)".to_string(),
            Err(e) => format!("but it says: {e}"),
        };
        return Ok(format!("{shown} already has [preprocessor.{NAME}], {has}; nothing changed"));
    }
    let site = site.map(|s| crate::site(&serde_json::Value::from(s)).map_err(|e| format!("--site {e}"))).transpose()?;
    let line = match &site {
        Some(s) => format!("site = {}", toml_string(s)),
        None => "# site = \"https://example.org/leaselab/\"".to_string(),
    };
    let gap = if text.is_empty() || text.ends_with("\n\n") {
        ""
    } else if text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let table = format!(
        "{gap}[preprocessor.{NAME}]\n# Where Lease Lab is deployed (the folder of its embed.js): each ```leaselab block becomes a\n# live lab from there. Without it, each block is drawn as its picture only.\n{line}\n"
    );
    let written = format!("{text}{table}");
    // Read back as mdBook will read it before it is written: the same site, or nothing changed
    // (a book.toml whose `preprocessor` is not a table cannot take the table).
    let back = written
        .parse::<Config>()
        .map_err(|e: mdbook_preprocessor::errors::Error| format!("{e:#}"))
        .and_then(|config| crate::Settings::from_config(&config));
    match back {
        Ok(crate::Settings { site: back }) if back == site => {}
        Ok(crate::Settings { site: back }) => {
            let said = |s: Option<String>| s.map_or("none".to_string(), |s| toml_string(&s));
            return Err(format!("{shown}: the table added would read back with site {}, not {}; nothing changed", said(back), said(site)));
        }
        Err(e) => return Err(format!("{shown}: cannot add [preprocessor.{NAME}] to it: with it, it would not read: {e}; nothing changed")),
    }
    std::fs::write(&path, written).map_err(|e| format!("{shown}: cannot write it: {e}"))?;
    Ok(match site {
        Some(s) => format!("added [preprocessor.{NAME}] to {shown}, with site = {}: each ```leaselab block becomes a live lab from {s}embed.js", toml_string(&s)),
        None => format!(
            "added [preprocessor.{NAME}] to {shown}, without a site: each ```leaselab block is drawn as its picture; set site (or run install with --site) to make them live labs"
        ),
    })
}

/// `s` as a TOML basic string, which reads back as `s`: `"` and `\` escaped, and every control
/// character (which TOML does not take raw) as `\uXXXX`. The site check refuses `"` and control
/// characters, but a `\` (or a `\u0022` written out) is the site's own and is kept as given.
fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(toml: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("mdbook-leaselab-install-{}-{}", std::process::id(), toml.len()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("book.toml"), toml).unwrap();
        dir
    }

    #[test]
    fn install_adds_the_table_once_and_keeps_the_rest_as_written() {
        let written = "[book]\ntitle = \"Locks\"  # ours\n";
        let dir = book(written);
        let said = install(&dir, Some("https://example.org/lab")).unwrap();
        assert!(said.contains("added [preprocessor.leaselab]") && said.contains("https://example.org/lab/embed.js"), "{said}");
        let after = std::fs::read_to_string(dir.join("book.toml")).unwrap();
        assert!(after.starts_with(written), "{after}");
        let config: Config = after.parse().unwrap();
        assert_eq!(crate::Settings::from_config(&config).unwrap().site.as_deref(), Some("https://example.org/lab/"));
        let again = install(&dir, Some("https://other.example/")).unwrap();
        assert!(
            again.contains("already has") && again.contains("nothing changed") && again.contains("https://example.org/lab/"),
            "{again}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("book.toml")).unwrap(), after);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn install_without_a_site_says_the_blocks_are_pictures() {
        let dir = book("[book]\ntitle = \"No site\"");
        let said = install(&dir, None).unwrap();
        assert!(said.contains("without a site"), "{said}");
        let config: Config = std::fs::read_to_string(dir.join("book.toml")).unwrap().parse().unwrap();
        assert!(config.contains_key("preprocessor.leaselab"));
        assert_eq!(crate::Settings::from_config(&config).unwrap().site, None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn install_refuses_a_folder_without_a_book_and_a_site_that_is_no_address() {
        let nowhere = std::env::temp_dir().join("mdbook-leaselab-no-such-book");
        assert!(install(&nowhere, None).unwrap_err().contains("give the book's folder"));
        let dir = book("[book]\ntitle = \"Bad site\"\n\n");
        let e = install(&dir, Some("example.org")).unwrap_err();
        assert!(e.starts_with("--site \"example.org\": give the address") && e.contains("the folder of its embed.js"), "{e}");
        assert!(!std::fs::read_to_string(dir.join("book.toml")).unwrap().contains("leaselab"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn install_refuses_a_book_toml_that_is_no_regular_file_or_too_large() {
        let dir = std::env::temp_dir().join(format!("mdbook-leaselab-install-bounded-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("book.toml")).unwrap();
        let e = install(&dir, None).unwrap_err();
        assert!(e.contains("book.toml: not a regular file"), "{e}");
        std::fs::remove_dir(dir.join("book.toml")).unwrap();
        // A device that never ends, refused before a byte of it is read.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/dev/zero", dir.join("book.toml")).unwrap();
            let e = install(&dir, None).unwrap_err();
            assert!(e.contains("book.toml: not a regular file"), "{e}");
            std::fs::remove_file(dir.join("book.toml")).unwrap();
        }
        let big = std::fs::File::create(dir.join("book.toml")).unwrap();
        big.set_len(MAX_BYTES + 1).unwrap();
        let e = install(&dir, None).unwrap_err();
        assert!(e.contains("book.toml: 1000001 bytes, over the 1 MB"), "{e}");
        assert_eq!(std::fs::metadata(dir.join("book.toml")).unwrap().len(), MAX_BYTES + 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_site_is_written_as_a_toml_string_that_reads_back_as_it() {
        for s in ["https://example.org/lab/", "https://example.org/lab\\/", "/\\u0022x/", "/a\"b\u{1}\u{7f}\u{9b}\u{202e}/"] {
            let config: Config = format!("[preprocessor.leaselab]\nsite = {}\n", toml_string(s)).parse().unwrap();
            assert_eq!(config.get::<String>("preprocessor.leaselab.site").unwrap().as_deref(), Some(s), "{}", toml_string(s));
        }
        assert_eq!(toml_string("https://example.org/\\u0022x/"), r#""https://example.org/\\u0022x/""#);
    }

    #[test]
    fn install_refuses_a_site_with_controls_and_a_book_toml_that_cannot_take_the_table() {
        let dir = book("[book]\ntitle = \"Controls\"\n");
        for site in ["https://example.org/lab\u{1}", "https://example.org/\u{202e}bal", "https://example.org/\u{1b}[2J"] {
            let e = install(&dir, Some(site)).unwrap_err();
            assert!(
                e.starts_with("--site \"https://example.org/") && e.contains(": an address has no control or bidirectional characters"),
                "{e}"
            );
        }
        std::fs::write(dir.join("book.toml"), "preprocessor = \"none\"\n").unwrap();
        let e = install(&dir, None).unwrap_err();
        assert!(e.contains("cannot add [preprocessor.leaselab] to it") && e.contains("nothing changed"), "{e}");
        assert_eq!(std::fs::read_to_string(dir.join("book.toml")).unwrap(), "preprocessor = \"none\"\n");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
