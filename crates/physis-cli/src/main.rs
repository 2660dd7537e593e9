//! The `physis` command line: a small dispatcher with one module per subcommand
//! (`check`, `explain`; `run`, `plot`, `emit` and `derive` join them as later stages land).
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cmd;
#[cfg(feature = "studio")]
mod studio;

/// mimalloc instead of the system allocator, with the opt-in `mimalloc` feature. The default
/// is the system's: measured side by side it starts a run sooner (fewer page faults) and
/// ensembles, which reuse their buffers per member, run the same (docs/performance.md,
/// "Startup").
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Physis: declarative physical simulations.
#[derive(Parser)]
#[command(name = "physis", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check .hph files; exit 0 when every file is valid.
    Check(cmd::check::Args),
    /// Explain a diagnostic code (e.g. PH0104) with a small example.
    Explain(cmd::explain::Args),
    /// List the built-in schemes, or print one's text from the prelude.
    Schemes(cmd::schemes::Args),
    /// Print a standard module's functions with their units and physics.
    Doc(cmd::doc::Args),
    /// Run a simulation; samples as CSV or JSON, or a one-object --summary.
    Run(cmd::run::Args),
    /// Plot a run to an SVG or PNG image: observes over time, phase plots, fields, ensembles.
    #[cfg(feature = "plot")]
    Plot(cmd::plot::Args),
    /// Print the equations of motion derived from a lagrangian or hamiltonian.
    Derive(cmd::derive::Args),
    /// Print the Rust source the build step generates for a file's simulations.
    Emit(cmd::emit::Args),
    /// Rewrite .hph files in the canonical layout (indentation, blank lines); --check to verify.
    Fmt(cmd::fmt::Args),
    /// Serve the language server protocol over stdin/stdout, for editors.
    Lsp(cmd::lsp::Args),
    /// Serve a local web page to edit, check and run models (127.0.0.1; prints the URL).
    #[cfg(feature = "studio")]
    Studio(studio::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => cmd::check::run(&args),
        Command::Explain(args) => cmd::explain::run(&args),
        Command::Schemes(args) => cmd::schemes::run(&args),
        Command::Doc(args) => cmd::doc::run(&args),
        Command::Run(args) => cmd::run::run(&args),
        #[cfg(feature = "plot")]
        Command::Plot(args) => cmd::plot::run(&args),
        Command::Derive(args) => cmd::derive::run(&args),
        Command::Emit(args) => cmd::emit::run(&args),
        Command::Fmt(args) => cmd::fmt::run(&args),
        Command::Lsp(args) => cmd::lsp::run(&args),
        #[cfg(feature = "studio")]
        Command::Studio(args) => studio::run(&args),
    }
}
