//! `leaselab pictures <dir>`: every library scenario's picture, drawn once when the site is
//! built ([`write_all`]), for the `<lease-lab>` element (static/embed.js) to show before the
//! program arrives: `<id>.svg`, and `<id>.fix.svg` for a scenario with a one-click fix, each
//! [`draw::svg::render`] at the export's width with no cursor, as `leaselab svg <id>` draws it.

use std::path::Path;

use sim::scenario::Scenario;

/// One picture written: its file name and its size in bytes.
pub struct Written {
    pub name: String,
    pub bytes: usize,
}

/// The scenario's pictures: (file name, SVG) as written and, if it has a fix, with it.
fn pictures_of(s: &Scenario) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut variants = vec![(format!("{}.svg", s.id), s.clone())];
    match s.fixed() {
        Some(Ok(f)) => variants.push((format!("{}.fix.svg", s.id), f)),
        Some(Err(e)) => return Err(format!("{}: the fix does not apply: {e}", s.id)),
        None => {}
    }
    for (name, scenario) in variants {
        let run = sim::run(&scenario).map_err(|e| format!("{name}: {e}"))?;
        out.push((name, draw::svg::render(&run, &scenario, draw::svg::WIDTH, None)));
    }
    Ok(out)
}

/// Writes every library scenario's pictures into `dir` (made if missing), in library order. A
/// file that cannot be written is an error that names it.
pub fn write_all(dir: &Path) -> std::io::Result<Vec<Written>> {
    // create_dir_all on a path that is a file (or /dev/full) says "File exists": say what is wrong.
    if dir.exists() && !dir.is_dir() {
        let e = std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory: the pictures go into a directory");
        return Err(named(dir)(e));
    }
    std::fs::create_dir_all(dir).map_err(named(dir))?;
    let mut written = Vec::new();
    for s in sim::library::all() {
        // The library's own scenarios run (its tests say so): a failure here is a bug.
        for (name, svg) in pictures_of(&s).map_err(std::io::Error::other)? {
            let path = dir.join(&name);
            std::fs::write(&path, &svg).map_err(named(&path))?;
            written.push(Written { name, bytes: svg.len() });
        }
    }
    Ok(written)
}

/// An I/O error that names the path it happened at.
fn named(path: &Path) -> impl FnOnce(std::io::Error) -> std::io::Error + '_ {
    move |e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// What was written, for people: one line per picture and the total.
pub fn summary(dir: &Path, written: &[Written]) -> String {
    let mut out = String::new();
    for w in written {
        out.push_str(&format!("{:>8} bytes  {}\n", w.bytes, w.name));
    }
    let total: usize = written.iter().map(|w| w.bytes).sum();
    out.push_str(&format!("{total:>8} bytes  in {} pictures in {}\n", written.len(), dir.display()));
    out
}
