//! `leaselab`: list, show, run and draw Lease Lab scenarios from the command line.
//!
//! A thin binary over the `sim` and `draw` crates, its arguments parsed by clap ([`Cli`]).
//! Exit status: 0 when the command did its work (a run that ends unsafe is still a run that
//! completed), 1 when its output could not be written (a full disk), 2 for bad input (clap's
//! usage errors included), with a message on stderr that says what is wrong and where. What a
//! scenario file says reaches the terminal escaped ([`term`]).

use std::ffi::{OsStr, OsString};
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use sim::library;
use sim::render;
use sim::scenario::Scenario;

mod pictures;
mod search;
mod term;
mod walkthrough;

/// Distributed locks, leases and fencing, simulated.
///
/// Runs Lease Lab's deterministic simulation of clients, a lock service and a protected
/// resource, and says whether the protected data was corrupted, and why.
#[derive(Parser)]
#[command(
    name = "leaselab",
    version,
    after_help = "Exit status: 0 when the command did its work (a run that ends unsafe is still a run that completed), 1 when its output could not be written, 2 for bad input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The scenario library, by chapter.
    List {
        /// Print the library as JSON.
        #[arg(long)]
        json: bool,
    },
    /// A library scenario's JSON, to start your own from.
    Show {
        /// The scenario's id (see `leaselab list`).
        id: String,
        /// Apply the scenario's one-click fix.
        #[arg(long)]
        fix: bool,
    },
    /// The narrated trace and the verdict.
    Run {
        /// A library id, a scenario file (JSON, at most 1 MB), or `-` for standard input.
        scenario: OsString,
        /// Apply the scenario's one-click fix.
        #[arg(long)]
        fix: bool,
        /// Run with this seed instead of the scenario's.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=sim::scenario::limits::SEED))]
        seed: Option<u64>,
        /// Print the verdict and the trace as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The timeline as a standalone SVG image.
    Svg {
        /// A library id, a scenario file (JSON, at most 1 MB), or `-` for standard input.
        scenario: OsString,
        /// Apply the scenario's one-click fix.
        #[arg(long)]
        fix: bool,
        /// Draw the cursor at this step (1 is the first event).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        step: Option<u64>,
        /// The image's width in pixels. The default is a page's column: shown narrower than its
        /// width, an image's labels shrink below their 11 pixels.
        #[arg(long, value_name = "PX", default_value_t = draw::svg::WIDTH as u32, value_parser = clap::value_parser!(u32).range(640..=10_000))]
        width: u32,
        /// Draw a second run below on the same time axis, the first difference marked: `fix` for
        /// the scenario with its one-click fix, or another scenario (a library id or a file; write
        /// `./fix` for a file named fix). `--step` puts the cursor at that step's time in both.
        #[arg(long, value_name = "WHAT", conflicts_with = "fix")]
        compare: Option<OsString>,
    },
    Walkthrough(walkthrough::Args),
    /// Every library scenario's picture, as the site's build writes them for `<lease-lab>`.
    ///
    /// Writes `<id>.svg` and, for a scenario with a one-click fix, `<id>.fix.svg` into DIR (made
    /// if missing), each drawn as `leaselab svg <id>` draws it (760 pixels wide, no cursor), and
    /// prints their sizes.
    Pictures {
        /// The directory to write them in (e.g. dist/pictures).
        dir: std::path::PathBuf,
    },
    /// "Can this break?": search fault schedules for one that makes the run unsafe.
    ///
    /// Changes the scenario's fault schedule (pauses, delays, clock jumps and drift, crashes,
    /// failover, cut-offs): a quick pass over the likeliest changes, then every order class of
    /// one added fault and of two (where the faults fall among the run's events), then random
    /// schedules of three if allowed; it shrinks the first unsafe schedule it finds, and where it
    /// finds none, says within which bounds.
    Search {
        /// A library id, a scenario file (JSON, at most 1 MB), or `-` for standard input.
        scenario: OsString,
        /// Search from the scenario with its one-click fix.
        #[arg(long)]
        fix: bool,
        /// The most faults added to one schedule.
        #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
        faults: u8,
        /// The most schedules run (unless given, the time limit ends the search first).
        #[arg(long, value_name = "N", default_value_t = 1_000_000_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000_000))]
        budget: u32,
        /// The seed of the search's own choices (the pairs it samples, its random schedules).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=sim::scenario::limits::SEED))]
        seed: u64,
        /// Stop after this many seconds and print what was found or covered so far (as Ctrl-C
        /// does). The search's pace depends on the scenario: from thousands of schedules a second
        /// down to a few for a run of 100,000 events.
        #[arg(long, value_name = "SECONDS", default_value_t = TIME_LIMIT, value_parser = clap::value_parser!(u32).range(1..=86_400))]
        time_limit: u32,
        /// Print one JSON object: `found` (the unsafe scenario, or null), `schedules`, `stopped`
        /// (`time-limit`, `interrupted` or null), and more.
        #[arg(long)]
        json: bool,
        /// Write the unsafe scenario found to this file (a file `leaselab run` takes); nothing
        /// is written when nothing is found.
        #[arg(long, value_name = "FILE")]
        save: Option<std::path::PathBuf>,
    },
    /// A completion script for your shell (e.g. `leaselab completions bash > /etc/bash_completion.d/leaselab`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// A user error: printed on stderr, exit status 2.
struct Bad(String);

/// How a command ends when it does not succeed.
enum Failure {
    /// Bad input: exit status 2.
    Bad(String),
    /// A search stopped by Ctrl-C, once it has printed what it had: exit status 130.
    Interrupted,
    /// The output could not be written (a full disk): exit status 1. A closed pipe
    /// (`leaselab run … | head`) is not a failure worth a message, and ends the command quietly.
    Write(std::io::Error),
}

impl From<Bad> for Failure {
    fn from(Bad(msg): Bad) -> Failure {
        Failure::Bad(msg)
    }
}

/// `leaselab search`'s time limit unless given, in seconds.
const TIME_LIMIT: u32 = 60;

/// The largest scenario file read, in bytes (as `Scenario::from_bytes` accepts).
const MAX_FILE: u64 = sim::scenario::limits::SCENARIO_BYTES as u64;

fn main() -> ExitCode {
    // clap prints usage errors itself, with exit status 2, and --help and --version with 0.
    let cli = Cli::parse();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = dispatch(cli.command, &mut out);
    let flushed = out.flush().map_err(Failure::Write);
    match result.and(flushed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Bad(msg)) => {
            eprintln!("leaselab: {}", term::escape(&msg, false));
            ExitCode::from(2)
        }
        Err(Failure::Interrupted) => ExitCode::from(130),
        Err(Failure::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Write(e)) => {
            eprintln!("leaselab: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}

fn dispatch(command: Command, out: &mut impl Write) -> Result<(), Failure> {
    match command {
        Command::List { json: true } => write(out, &list(true)),
        Command::List { json: false } => write_text(out, &list(false)),
        Command::Show { id, fix } => write(out, &format!("{}\n", apply_fix(library_scenario(&id)?, fix)?.to_json())),
        Command::Run { scenario, fix, seed, json } => {
            let mut s = apply_fix(load(&scenario)?, fix)?;
            if let Some(seed) = seed {
                s.seed = seed;
            }
            let mut run = run_of(&s, &scenario)?;
            if json {
                // Written straight out: a long trace is never held twice.
                serde_json::to_writer_pretty(&mut *out, &render::run_json(&run, &s)).map_err(|e| Failure::Write(e.into()))?;
                writeln!(out).map_err(Failure::Write)
            } else {
                // The file's own words, each on its one line.
                s.title = term::escape(&s.title, false).into_owned();
                for m in run.moments.texts_mut() {
                    *m = term::escape(m, false).into_owned();
                }
                write_text(out, &render::trace_text(&run, &s))
            }
        }
        Command::Svg { scenario, fix, step, width, compare } => {
            write(out, &svg(&scenario, fix, step, f64::from(width), compare.as_deref())?)
        }
        Command::Walkthrough(args) => walkthrough::walkthrough(args, out),
        Command::Pictures { dir } => {
            let written = pictures::write_all(&dir).map_err(Failure::Write)?;
            write_text(out, &pictures::summary(&dir, &written))
        }
        Command::Search { scenario, fix, faults, budget, seed, time_limit, json, save } => {
            let s = apply_fix(load(&scenario)?, fix)?;
            // Not before: Ctrl-C while standard input is read ends the program as usual.
            search::catch_interrupt();
            let opts = sim::search::Options {
                faults: faults.into(),
                budget: budget as usize,
                seed,
                max_events: sim::scenario::limits::EVENTS,
                ..Default::default()
            };
            let mut running = sim::search::Search::new(&s, opts).map_err(|e| Bad(format!("{}: {e}", scenario.to_string_lossy())))?;
            let mut stderr = std::io::stderr();
            let progress = stderr.is_terminal().then_some(&mut stderr as &mut dyn Write);
            let limit = std::time::Duration::from_secs(time_limit.into());
            let (outcome, stop, secs) = search::drive(&mut running, limit, progress);
            if json {
                write(out, &format!("{}\n", serde_json::to_string_pretty(&search::json(&outcome, stop, secs)).expect("json")))?;
            } else {
                let limit = if time_limit == TIME_LIMIT { String::new() } else { format!(" --time-limit {time_limit}") };
                let again = format!(
                    "{} {}--faults {faults} --budget {budget} --seed {seed}{limit}",
                    shell_word(&scenario),
                    if fix { "--fix " } else { "" }
                );
                write_text(out, &search::text(&s, &outcome, stop, secs, &again))?;
            }
            // After the report, so that a file that cannot be written loses nothing of it.
            if let (Some(path), sim::search::Outcome::Found(f, _)) = (&save, &outcome) {
                let text = format!("{}\n", f.standalone().to_json());
                std::fs::write(path, text).map_err(|e| Bad(format!("--save {}: {e}", path.display())))?;
            }
            match stop {
                Some(search::Stop::Interrupted) => Err(Failure::Interrupted),
                _ => Ok(()),
            }
        }
        Command::Completions { shell } => {
            // Into memory first: clap_complete panics when it cannot write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "leaselab", &mut script);
            out.write_all(&script).map_err(Failure::Write)
        }
    }
}

/// `leaselab svg`: one run, or two one above the other with `--compare`.
fn svg(scenario: &OsStr, fix: bool, step: Option<u64>, width: f64, compare: Option<&OsStr>) -> Result<String, Bad> {
    let s = apply_fix(load(scenario)?, fix)?;
    let run = run_of(&s, scenario)?;
    let cursor = match step {
        Some(n) if n > run.events.len() as u64 => return Err(Bad(format!("--step: the run has {} steps", run.events.len()))),
        Some(n) => Some(n as usize - 1),
        None => None,
    };
    let Some(what) = compare else {
        return Ok(draw::svg::render(&run, &s, width, cursor));
    };
    let (other, top, bottom) = if what == "fix" {
        let fixed = apply_fix(s.clone(), true).map_err(|Bad(e)| Bad(format!("--compare fix: {e}")))?;
        let label = s.fix.as_ref().map_or("", |f| f.label.as_str());
        (fixed, format!("As written: {}", s.title), format!("With the fix: {label}"))
    } else {
        // The argument beside each title tells two versions of one story apart.
        let other = load(what)?;
        let top = format!("{} ({})", s.title, scenario.to_string_lossy());
        let bottom = format!("{} ({})", other.title, what.to_string_lossy());
        (other, top, bottom)
    };
    let other_run = run_of(&other, what)?;
    let cursor_us = cursor.map(|c| run.events[c].at_us);
    Ok(draw::svg::render_compare((&run, &s, &top), (&other_run, &other, &bottom), width, cursor_us))
}

/// Runs a scenario; an error names the argument it came from.
fn run_of(s: &Scenario, arg: &OsStr) -> Result<sim::Run, Bad> {
    sim::run(s).map_err(|e| Bad(format!("{}: {e}", arg.to_string_lossy())))
}

/// An argument as a shell word (quoted if it needs to be), to print a command to run again.
fn shell_word(arg: &OsStr) -> String {
    let s = arg.to_string_lossy();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Writes the command's output.
fn write(out: &mut impl Write, text: &str) -> Result<(), Failure> {
    out.write_all(text.as_bytes()).map_err(Failure::Write)
}

/// Writes text for people, what came from the input escaped ([`term`]).
fn write_text(out: &mut impl Write, text: &str) -> Result<(), Failure> {
    write(out, &term::escape(text, true))
}

fn list(json: bool) -> String {
    let all = library::all();
    if json {
        let items: Vec<_> = all
            .iter()
            .map(|s| {
                serde_json::json!({
                    "id": s.id, "title": s.title, "chapter": s.chapter,
                    "chapter_title": library::chapter_title(&s.chapter), "has_fix": s.fix.is_some(),
                })
            })
            .collect();
        return format!("{}\n", serde_json::to_string_pretty(&items).expect("json"));
    }
    let mut out = String::new();
    for (chapter, title) in library::CHAPTERS {
        let in_chapter: Vec<&Scenario> = all.iter().filter(|s| s.chapter == chapter).collect();
        if in_chapter.is_empty() {
            continue;
        }
        out.push_str(&format!("{title}\n"));
        for s in in_chapter {
            let fix = if s.fix.is_some() { "  [fix]" } else { "" };
            out.push_str(&format!("  {:<26} {}{fix}\n", s.id, s.title));
        }
    }
    out
}

fn library_scenario(id: &str) -> Result<Scenario, Bad> {
    library::get(id).ok_or_else(|| {
        let ids: Vec<&str> = library::FILES.iter().map(|(i, _)| *i).collect();
        Bad(format!("no scenario `{id}` in the library; try one of: {}", ids.join(", ")))
    })
}

fn apply_fix(s: Scenario, fix: bool) -> Result<Scenario, Bad> {
    if !fix {
        return Ok(s);
    }
    match s.fixed() {
        Some(Ok(f)) => Ok(f),
        Some(Err(e)) => Err(Bad(format!("{}: the fix does not apply: {e}", s.id))),
        None => Err(Bad(format!("{} has no one-click fix", s.id))),
    }
}

/// A library scenario by id, a scenario file by path (any bytes a path may hold), or `-` for
/// standard input.
fn load(arg: &OsStr) -> Result<Scenario, Bad> {
    let path = std::path::Path::new(arg);
    let shown = arg.to_string_lossy();
    let cannot = |e: std::io::Error| Bad(format!("{shown}: cannot read the file: {e}"));
    let bytes = match arg.to_str() {
        Some("-") => read_limited(std::io::stdin().lock()).map_err(cannot)?,
        Some(id) if !(id.ends_with(".json") || id.contains('/') || path.exists()) => return library_scenario(id),
        _ => {
            // A regular file only: opening a FIFO would wait for a writer forever, and a device
            // never ends.
            if !std::fs::metadata(path).map_err(cannot)?.is_file() {
                return Err(Bad(format!("{shown}: not a regular file; give a scenario file, or `-` to read standard input")));
            }
            read_limited(std::fs::File::open(path).map_err(cannot)?).map_err(cannot)?
        }
    };
    // The app opens files by the same rule (size, UTF-8), with the same words.
    Scenario::from_bytes(&bytes).map_err(|e| Bad(format!("{shown}: {e}")))
}

/// At most the limit and one byte more: enough to tell that a file is too large.
fn read_limited(r: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    r.take(MAX_FILE + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}
