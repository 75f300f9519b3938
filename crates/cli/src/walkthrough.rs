//! `leaselab walkthrough`: a scenario told as a handout. Its story, then a picture of each key
//! moment with its narration, then the verdict and why, what to notice, where it simplifies and
//! its sources: as Markdown with the pictures as SVG files beside it ([`markdown`]), or as one
//! self-contained HTML page without scripts, made to print ([`html`]).
//!
//! The words are the app's: the story and notes of the `Scenario`, each moment's sentence
//! (`sim::narrate`) and its key-moment text (attached by the run where it holds), the verdict's
//! headline and findings (`Verdict::headline`, `sim::render`). The pictures are
//! `draw::svg::walk`'s, drawn by the export's code. [`Walk`] gathers what both formats write.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use draw::svg::walk::{self, Picture};
use sim::scenario::Scenario;
use sim::time::fmt;
use sim::Run;

use crate::{apply_fix, load, run_of, Bad, Failure};

mod html;
mod markdown;

/// The arguments of `leaselab walkthrough`.
#[derive(clap::Args)]
#[command(
    about = "A handout of one run: its story, each key moment with a picture, then the verdict and why.",
    long_about = "A handout of one run: its story, each key moment with a picture, then the verdict and why.\n\n`--format md` (the default) writes a directory: README.md, with a picture of each key moment beside it (moment-01.svg, …), the legend (legend.svg) and the whole run (run.svg), linked by relative paths. `--format html` writes one page with the pictures and styles inside it and no script, which prints one moment to a block, in light colours. A moment that is a tangle at the whole run's scale (a Redlock round of a few milliseconds) is drawn zoomed in, with a strip that shows where it lies in the run. Nothing is overwritten without --force."
)]
pub struct Args {
    /// A library id, a scenario file (JSON, at most 1 MB), or `-` for standard input.
    scenario: OsString,
    /// Tell the scenario with its one-click fix.
    #[arg(long)]
    fix: bool,
    /// `md`: a directory with README.md and the pictures as SVG files; `html`: one page, pictures
    /// and styles inside it, no script, made to print.
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    /// Where to write. md: a directory, new or empty (default `./<id>-walkthrough`, or
    /// `./<id>-fixed-walkthrough` with --fix); html: a file that does not exist yet (default:
    /// standard output).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Write all the same. md: into a directory that is not empty, replacing the walkthrough's own
    /// files (README.md, legend.svg, run.svg, moment-NN.svg; moment pictures it no longer has are
    /// removed) and leaving every other file alone; html: over the file.
    #[arg(long)]
    force: bool,
    /// The pictures' width in pixels (a page's column by default).
    #[arg(long, value_name = "PX", default_value_t = draw::svg::WIDTH as u32, value_parser = clap::value_parser!(u32).range(640..=10_000))]
    width: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Markdown, with the pictures as SVG files beside it.
    Md,
    /// One self-contained HTML page.
    Html,
}

/// The run and what the walkthrough tells of it, for [`tell`].
struct Walk<'a> {
    sc: &'a Scenario,
    run: &'a Run,
    width: f64,
    /// The fix's label and what it changes, when the run is the scenario with its fix.
    fix: Option<(&'a str, &'a str)>,
    /// Where it comes from, for its last line: "the library scenario `gc-pause-unfenced`".
    origin: String,
    moments: Vec<Moment>,
}

/// One key moment: its step, the run's sentence for it, the moment's own text, and its picture.
struct Moment {
    /// "Step 6 of 95 · 1.004 s" (and the actor's own clock when it reads otherwise).
    heading: String,
    said: String,
    why: String,
    picture: Picture,
}

/// A format: how it writes each part of a walkthrough. The words come as the scenario and the
/// run give them (a format escapes them as it must, and shows their quoted parts as code);
/// [`tell`] says what comes in which order, once for both formats.
trait Writer {
    /// The title, above a line that says what the page is and which run it tells.
    fn title(&mut self, title: &str, about: &str);
    /// A section's heading.
    fn heading(&mut self, text: &str);
    /// A heading within a section.
    fn subheading(&mut self, text: &str);
    /// A paragraph, its first words in bold when given.
    fn paragraph(&mut self, bold: Option<&str>, text: &str);
    /// A list.
    fn list(&mut self, items: &[String]);
    /// A picture, drawn by `draw` (standalone or bare) and described by `alt`.
    fn picture(&mut self, picture: Picture, svg: &dyn Fn(bool) -> String, alt: &str);
    /// Key moment number `n` (from 1), its picture through [`Writer::picture`].
    fn moment(&mut self, n: usize, m: &Moment, w: &Walk);
    /// The verdict's headline, in the colour of safe or unsafe, and the final value.
    fn verdict(&mut self, safe: bool, headline: &str, value: &str);
    /// The last line: what made it.
    fn made_by(&mut self, text: &str);
}

/// What the pictures are, before the legend.
const READING: &str = "Each picture is the run's timeline: a lane for each actor, true time from left to right. The blue line is the step told, and what happens after it is veiled. A moment that is crowded at the whole run's scale is drawn zoomed in: its caption says how far, and a strip under it shows where it lies in the run.";

/// The picture as a format asks for it.
fn picture(out: &mut impl Writer, w: &Walk, p: Picture) {
    let draw = |standalone: bool| walk::draw(w.run, w.sc, w.width, p, standalone);
    out.picture(p, &draw, &walk::describe(w.run, w.sc, w.width, p));
}

/// The walkthrough, part by part: the story (and the fix), how to read the pictures, each key
/// moment, the verdict with the whole run and its findings, what to notice, simplifications,
/// sources, and what made it.
fn tell(w: &Walk, out: &mut impl Writer) {
    let (sc, run) = (w.sc, w.run);
    let variant = w.fix.map_or("as written".to_string(), |(label, _)| format!("with the fix: {label}"));
    out.title(&sc.title, &format!("A Lease Lab walkthrough · {} · {variant}", sim::library::chapter_title(&sc.chapter)));
    if !sc.story.is_empty() {
        out.heading("The story");
        // The story tells the scenario as written (as the app says of a changed run).
        out.paragraph(w.fix.map(|_| "As written:"), &sc.story);
        if let Some((label, explain)) = w.fix {
            out.paragraph(Some(&format!("With the fix: {label}.")), explain);
        }
    }
    out.heading("Reading the pictures");
    out.paragraph(None, READING);
    picture(out, w, Picture::Legend);
    out.heading("Key moments");
    if w.moments.is_empty() {
        out.paragraph(
            None,
            if sc.moments.is_empty() {
                "This scenario names no key moments; the whole run is pictured with the verdict."
            } else {
                "None of this scenario's key moments happens in this run; the whole run is pictured with the verdict."
            },
        );
    }
    for (i, m) in w.moments.iter().enumerate() {
        out.moment(i + 1, m, w);
    }
    out.heading("The verdict");
    out.verdict(run.verdict.is_safe(), run.verdict.headline(), &sim::render::final_value(run));
    picture(out, w, Picture::Whole);
    let v = &run.verdict;
    let lines = |f: &mut dyn Iterator<Item = &sim::Finding>| f.map(|f| sim::render::finding(run, f)).collect::<Vec<_>>();
    if !v.violations.is_empty() {
        out.subheading("Violations");
        out.list(&lines(&mut v.violations.iter()));
    }
    if !v.hazards.is_empty() || !v.notes.is_empty() {
        out.subheading(&sim::render::how_it_came_about(v.hazards.len(), v.notes.len()));
        out.list(&lines(&mut v.hazards.iter().chain(&v.notes)));
    }
    if !sc.notice.is_empty() {
        // The notices tell the scenario as written, as its story does (the app's words).
        out.heading(if w.fix.is_some() { "What to notice in the run as written" } else { "What to notice" });
        out.list(&sc.notice);
    }
    if !sc.simplifications.is_empty() {
        out.paragraph(Some("Simplified:"), &sc.simplifications.join(" "));
    }
    if !sc.sources.is_empty() {
        out.paragraph(Some("Sources:"), &sc.sources.join("; "));
    }
    out.made_by(&format!(
        "Made by `leaselab walkthrough` (Lease Lab {}) from {}: seed {}, {} steps, {} of simulated time.",
        env!("CARGO_PKG_VERSION"),
        w.origin,
        run.seed,
        run.events.len(),
        fmt(run.end_us)
    ));
}

/// `leaselab walkthrough`.
pub fn walkthrough(a: Args, out: &mut impl Write) -> Result<(), Failure> {
    let written = load(&a.scenario)?;
    // The fix's words are the scenario's as written (a fixed scenario has no fix of its own).
    let fix = written.fix.clone().filter(|_| a.fix);
    let sc = apply_fix(written, a.fix)?;
    let run = run_of(&sc, &a.scenario)?;
    let width = f64::from(a.width);
    let origin = origin(&a.scenario, &sc, a.fix);
    let fix = fix.as_ref().map(|f| (f.label.as_str(), f.explain.as_str()));
    let walk = Walk { sc: &sc, run: &run, width, fix, origin, moments: moments(&sc, &run, width) };
    match a.format {
        Format::Html => {
            let mut page = html::Page::default();
            tell(&walk, &mut page);
            let page = page.finish();
            match &a.out {
                None => out.write_all(page.as_bytes()).map_err(Failure::Write),
                Some(path) => {
                    if path.is_dir() {
                        return Err(Bad(format!("{}: is a directory; --format html writes one file", path.display())).into());
                    }
                    if !a.force && std::fs::symlink_metadata(path).is_ok() {
                        return Err(Bad(format!("{}: already exists; give --force to replace it", path.display())).into());
                    }
                    write_file(path, &page)
                }
            }
        }
        Format::Md => {
            let dir = a
                .out
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("{}-{}walkthrough", file_stem(&sc.id), if a.fix { "fixed-" } else { "" })));
            let mut md = markdown::Markdown::default();
            tell(&walk, &mut md);
            let files = md.finish();
            write_dir(&dir, &files, a.force)?;
            let mut stderr = std::io::stderr();
            let _ = writeln!(
                stderr,
                "leaselab: wrote {} ({} files)",
                crate::term::escape(&dir.join(markdown::README).to_string_lossy(), false),
                files.len()
            );
            Ok(())
        }
    }
}

/// The run's key moments, each with its words and its picture (zoomed in where the whole run is
/// a tangle at its step).
fn moments(sc: &Scenario, run: &Run, width: f64) -> Vec<Moment> {
    let tell = sim::narrate::Cx::new(sc, run);
    let facts = sim::facts::Facts::of(run);
    let steps = run.events.len();
    facts
        .moments()
        .iter()
        .map(|&step| {
            let e = &run.events[step];
            let mut heading = format!("Step {} of {steps} · {}", step + 1, fmt(e.at_us));
            if e.local_us != e.at_us {
                heading.push_str(&format!(" ({}'s clock: {})", run.name(e.actor), fmt(e.local_us)));
            }
            let window = walk::focus(run, step, width);
            Moment {
                heading,
                said: tell.event(e),
                why: run.moment(e.id).unwrap_or_default().to_string(),
                picture: Picture::Moment { cursor: step, window },
            }
        })
        .collect()
}

/// Where the scenario comes from, for the walkthrough's last line.
fn origin(arg: &std::ffi::OsStr, sc: &Scenario, fix: bool) -> String {
    let with = if fix { ", with its fix" } else { "" };
    match arg.to_str() {
        Some("-") => format!("a scenario read from standard input (`{}`){with}", sc.id),
        _ if sim::library::get(&sc.id).is_some() && *arg == *sc.id => format!("the library scenario `{}`{with}", sc.id),
        // Only the file's name: a page made from it may be published, its folders are private.
        _ => format!("the scenario file `{}`{with}", Path::new(arg).file_name().unwrap_or(arg).to_string_lossy()),
    }
}

/// A scenario's id as a file name: letters, digits, `-`, `_` and `.`, no leading dot.
fn file_stem(id: &str) -> String {
    let s: String = id.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' }).collect();
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        "scenario".into()
    } else {
        s.into()
    }
}

/// Writes a file; an error names it (exit status 1).
fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text).map_err(|e| Failure::Write(std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))))
}

/// Writes the Markdown walkthrough's files into `dir`: a new or empty directory, or with `force`
/// any directory, where moment pictures left from a longer walkthrough are removed.
fn write_dir(dir: &Path, files: &[(String, String)], force: bool) -> Result<(), Failure> {
    let cannot = |e: std::io::Error| Failure::Write(std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())));
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if !force && entries.next().is_some() {
                let msg = format!("{}: not empty; give --force to write the walkthrough's files into it, or another --out", dir.display());
                return Err(Bad(msg).into());
            }
        }
        Err(e) if dir.is_dir() => return Err(cannot(e)),
        Err(_) if dir.exists() => return Err(Bad(format!("{}: not a directory; --format md writes a directory", dir.display())).into()),
        Err(_) => std::fs::create_dir_all(dir).map_err(cannot)?,
    }
    if force {
        for entry in std::fs::read_dir(dir).map_err(cannot)?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if markdown::is_moment_file(&name) && !files.iter().any(|(f, _)| *f == name) {
                std::fs::remove_file(entry.path()).map_err(cannot)?;
            }
        }
    }
    for (name, text) in files {
        write_file(&dir.join(name), text)?;
    }
    Ok(())
}
