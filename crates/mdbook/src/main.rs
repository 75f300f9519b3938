//! `mdbook-leaselab`: the preprocessor's command. mdBook runs it as `mdbook-leaselab supports
//! <renderer>` and then with the book as JSON on standard input, and reads the book back from
//! standard output; `mdbook-leaselab install <book>` sets a book up. Exit status 1 for a bad
//! block (each said on standard error as `<chapter file>:<line>: <what is wrong>`) or a bad
//! setting in book.toml, which fails mdBook's build. What the book says reaches the terminal
//! escaped ([`term`]).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mdbook_leaselab::term::escape;
use mdbook_leaselab::Failure;

/// Lease Lab runs in an mdBook: a ```leaselab fenced block becomes a live lab (HTML) or its
/// picture (every other renderer).
#[derive(Parser)]
#[command(name = "mdbook-leaselab", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Whether a renderer is supported (mdBook asks): all are, HTML with live labs, the others
    /// with pictures.
    Supports {
        /// The renderer's name.
        renderer: String,
    },
    /// Adds [preprocessor.leaselab] to a book's book.toml (once).
    Install {
        /// The book's folder, where book.toml is.
        #[arg(default_value = ".")]
        book: PathBuf,
        /// Where Lease Lab is deployed (the folder of its embed.js), e.g. https://example.org/leaselab/.
        #[arg(long, value_name = "URL")]
        site: Option<String>,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Some(Command::Supports { .. }) => ExitCode::SUCCESS,
        Some(Command::Install { book, site }) => match mdbook_leaselab::install::install(&book, site.as_deref()) {
            Ok(said) => {
                println!("mdbook-leaselab: {}", escape(&said));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("mdbook-leaselab: {}", escape(&e));
                ExitCode::from(2)
            }
        },
        None => preprocess(),
    }
}

/// The book from standard input, its blocks replaced, to standard output.
fn preprocess() -> ExitCode {
    let (ctx, mut book) = match mdbook_preprocessor::parse_input(std::io::stdin().lock()) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("mdbook-leaselab: {} (mdBook runs this command with the book on standard input; to set a book up, run `mdbook-leaselab install <book>`)", escape(&format!("{e:#}")));
            return ExitCode::from(2);
        }
    };
    if ctx.mdbook_version != mdbook_preprocessor::MDBOOK_VERSION {
        eprintln!(
            "mdbook-leaselab: warning: built for mdBook {}, run by mdBook {}",
            mdbook_preprocessor::MDBOOK_VERSION,
            escape(&ctx.mdbook_version)
        );
    }
    let drawn = match mdbook_leaselab::preprocess(&mut book, &ctx.config, &ctx.renderer) {
        Ok(drawn) => drawn,
        Err(Failure::Settings(e)) => {
            eprintln!("{}", escape(&e));
            eprintln!("mdbook-leaselab: a bad setting in book.toml; the book is not built");
            return ExitCode::FAILURE;
        }
        Err(Failure::Blocks(errors)) => {
            for e in &errors {
                eprintln!("{}", escape(e));
            }
            let n = errors.len();
            eprintln!("mdbook-leaselab: {n} bad leaselab block{}; the book is not built", if n == 1 { "" } else { "s" });
            return ExitCode::FAILURE;
        }
    };
    if drawn > 0 && ctx.renderer == "html" && !ctx.config.contains_key(&format!("preprocessor.{}.site", mdbook_leaselab::NAME)) {
        eprintln!("mdbook-leaselab: no site in [preprocessor.leaselab] of book.toml: the blocks are drawn as pictures, and nothing makes them live labs");
    }
    let mut out = std::io::stdout().lock();
    match serde_json::to_writer(&mut out, &book).map_err(std::io::Error::from).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mdbook-leaselab: cannot write the book back to mdBook: {e}");
            ExitCode::FAILURE
        }
    }
}
