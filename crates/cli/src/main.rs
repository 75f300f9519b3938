//! `leaselab`: list, show and run Lease Lab scenarios from the command line.
//!
//! A thin binary over the `sim` crate. Exit status: 0 when the command did its work (a run
//! that ends unsafe is still a run that completed), 2 for bad input, with a message on stderr
//! that says what is wrong and where.

use std::process::ExitCode;

use sim::library;
use sim::render;
use sim::scenario::Scenario;

const USAGE: &str = "\
leaselab: distributed locks, leases and fencing, simulated

usage:
  leaselab list [--json]                                 the scenario library
  leaselab show <id> [--fix]                             a scenario's JSON, to start your own from
  leaselab run <id|file.json> [--fix] [--seed N] [--json] the narrated trace and the verdict
  leaselab svg <id|file.json> [--fix] [--step N] [--width PX]  the timeline as a standalone SVG

exit status: 0 when the run completed (safe or unsafe), 2 for bad input";

/// A user error: printed on stderr, exit status 2.
struct Bad(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(out) => {
            // A closed pipe (`leaselab run … | head`) is not an error worth a panic.
            use std::io::Write;
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(Bad(msg)) => {
            eprintln!("leaselab: {msg}");
            ExitCode::from(2)
        }
    }
}

#[derive(Default)]
struct Flags {
    json: bool,
    fix: bool,
    seed: Option<u64>,
    step: Option<usize>,
    width: Option<f64>,
    positional: Vec<String>,
}

fn parse_flags(args: &[String], allowed: &[&str]) -> Result<Flags, Bad> {
    let mut f = Flags::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let flag = a.as_str();
        if flag.starts_with("--") && !allowed.contains(&flag) {
            return Err(Bad(format!("unknown option `{flag}` (see `leaselab --help`)")));
        }
        match flag {
            "--json" => f.json = true,
            "--fix" => f.fix = true,
            "--seed" => {
                let v = it.next().ok_or_else(|| Bad("--seed needs a number, e.g. --seed 7".into()))?;
                let n: u64 = v.parse().map_err(|_| Bad(format!("--seed: `{v}` is not a whole number from 0 to 9007199254740991")))?;
                if n > sim::scenario::limits::SEED {
                    return Err(Bad(format!("--seed: {n} is above 9007199254740991 (2^53 - 1)")));
                }
                f.seed = Some(n);
            }
            "--step" => {
                let v = it.next().ok_or_else(|| Bad("--step needs a step number, e.g. --step 40".into()))?;
                let n: usize = v.parse().map_err(|_| Bad(format!("--step: `{v}` is not a step number (1, 2, 3, …)")))?;
                if n == 0 {
                    return Err(Bad("--step: steps are numbered from 1".into()));
                }
                f.step = Some(n);
            }
            "--width" => {
                let v = it.next().ok_or_else(|| Bad("--width needs a number of pixels, e.g. --width 1000".into()))?;
                let n: u32 = v.parse().map_err(|_| Bad(format!("--width: `{v}` is not a whole number of pixels")))?;
                if !(640..=10_000).contains(&n) {
                    return Err(Bad(format!("--width: {n} is outside 640 to 10000 pixels")));
                }
                f.width = Some(f64::from(n));
            }
            _ => f.positional.push(a.clone()),
        }
    }
    Ok(f)
}

fn dispatch(args: &[String]) -> Result<String, Bad> {
    let Some(cmd) = args.first() else {
        return Err(Bad(format!("no command given\n\n{USAGE}")));
    };
    let rest = &args[1..];
    match cmd.as_str() {
        "list" => list(parse_flags(rest, &["--json"])?),
        "show" => show(parse_flags(rest, &["--fix"])?),
        "run" => run(parse_flags(rest, &["--fix", "--seed", "--json"])?),
        "svg" => svg(parse_flags(rest, &["--fix", "--step", "--width"])?),
        "help" | "--help" | "-h" => Ok(format!("{USAGE}\n")),
        other => Err(Bad(format!("unknown command `{other}`\n\n{USAGE}"))),
    }
}

fn one_positional(f: &Flags, what: &str) -> Result<String, Bad> {
    match f.positional.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(Bad(format!("missing {what} (see `leaselab list`)"))),
        more => Err(Bad(format!("expected one {what}, got {}: {}", more.len(), more.join(" ")))),
    }
}

fn list(f: Flags) -> Result<String, Bad> {
    if !f.positional.is_empty() {
        return Err(Bad(format!("`list` takes no arguments, got `{}`", f.positional.join(" "))));
    }
    let all = library::all();
    if f.json {
        let items: Vec<_> = all
            .iter()
            .map(|s| {
                serde_json::json!({
                    "id": s.id, "title": s.title, "chapter": s.chapter,
                    "chapter_title": library::chapter_title(&s.chapter), "has_fix": s.fix.is_some(),
                })
            })
            .collect();
        return Ok(format!("{}\n", serde_json::to_string_pretty(&items).expect("json")));
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
    Ok(out)
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

fn show(f: Flags) -> Result<String, Bad> {
    let id = one_positional(&f, "scenario id")?;
    let s = apply_fix(library_scenario(&id)?, f.fix)?;
    Ok(format!("{}\n", s.to_json()))
}

fn load(arg: &str) -> Result<Scenario, Bad> {
    let looks_like_file = arg.ends_with(".json") || arg.contains('/') || std::path::Path::new(arg).exists();
    if !looks_like_file {
        return library_scenario(arg);
    }
    let text = std::fs::read_to_string(arg).map_err(|e| Bad(format!("{arg}: cannot read the file: {e}")))?;
    Scenario::parse(&text).map_err(|e| Bad(format!("{arg}: {e}")))
}

fn svg(f: Flags) -> Result<String, Bad> {
    let arg = one_positional(&f, "scenario id or file")?;
    let s = apply_fix(load(&arg)?, f.fix)?;
    let run = sim::run(&s).map_err(|e| Bad(format!("{arg}: {e}")))?;
    let cursor = match f.step {
        Some(n) if n > run.events.len() => return Err(Bad(format!("--step: the run has {} steps", run.events.len()))),
        Some(n) => Some(n - 1),
        None => None,
    };
    Ok(draw::svg::render(&run, &s, f.width.unwrap_or(1000.0), cursor))
}

fn run(f: Flags) -> Result<String, Bad> {
    let arg = one_positional(&f, "scenario id or file")?;
    let mut s = apply_fix(load(&arg)?, f.fix)?;
    if let Some(seed) = f.seed {
        s.seed = seed;
    }
    let run = sim::run(&s).map_err(|e| Bad(format!("{arg}: {e}")))?;
    if f.json {
        Ok(format!("{}\n", serde_json::to_string_pretty(&render::verdict_json(&run)).expect("json")))
    } else {
        Ok(render::trace_text(&run, &s.title))
    }
}
