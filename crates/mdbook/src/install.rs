//! `mdbook-leaselab install <book>`: adds `[preprocessor.leaselab]` to the book's `book.toml`,
//! as `mdbook-mermaid install` does, and nothing else: the pictures are inline and `embed.js`
//! comes from the site, so there are no files to copy and no `additional-js`. Run twice, it
//! changes nothing the second time. [`install`] returns what it did, in words.

use std::path::Path;

use mdbook_preprocessor::config::Config;

use crate::NAME;

/// Adds the table to `<book>/book.toml` unless it is there, with `site` if given (checked as the
/// preprocessor checks it), appended so that the rest of the file stays as written.
pub fn install(book: &Path, site: Option<&str>) -> Result<String, String> {
    let path = book.join("book.toml");
    let shown = path.display();
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("{shown}: no such file; give the book's folder (the one with book.toml)"),
        _ => format!("{shown}: cannot read it: {e}"),
    })?;
    let config: Config = text.parse().map_err(|e: mdbook_preprocessor::errors::Error| format!("{shown}: {e:#}"))?;
    if config.contains_key(&format!("preprocessor.{NAME}")) {
        let has = match crate::Settings::from_config(&config) {
            Ok(crate::Settings { site: Some(s) }) => format!("with site = \"{s}\""),
            Ok(crate::Settings { site: None }) => "without a site (the blocks are pictures only)".to_string(),
            Err(e) => format!("but it says: {e}"),
        };
        return Ok(format!("{shown} already has [preprocessor.{NAME}], {has}; nothing changed"));
    }
    let site = site.map(|s| crate::site(&serde_json::Value::from(s))).transpose()?;
    let line = match &site {
        Some(s) => format!("site = \"{s}\""),
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
    std::fs::write(&path, format!("{text}{table}")).map_err(|e| format!("{shown}: cannot write it: {e}"))?;
    Ok(match site {
        Some(s) => format!("added [preprocessor.{NAME}] to {shown}, with site = \"{s}\": each ```leaselab block becomes a live lab from {s}embed.js"),
        None => format!(
            "added [preprocessor.{NAME}] to {shown}, without a site: each ```leaselab block is drawn as its picture; set site (or run install with --site) to make them live labs"
        ),
    })
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
        assert!(e.contains("site = \"example.org\"") && e.contains("the folder of its embed.js"), "{e}");
        assert!(!std::fs::read_to_string(dir.join("book.toml")).unwrap().contains("leaselab"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
