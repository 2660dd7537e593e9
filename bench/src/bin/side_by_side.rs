//! Side by side in one process: ours (generated code and the interpreter), diffsol, a
//! hand-written Dormand–Prince and SciPy (subprocess) on the ODE anchors, with errors against
//! independent references and time ratios (see `bench/src/side/`).
//!
//! `cargo run --release -p bench --bin side_by_side -- [--rounds N] [--quick] [--stiff-only]
//!  [--tables a1,a3,a4]
//!  [--problems robertson,van_der_pol,hires,heat,brusselator] [--tolerances 1e-4,1e-6,1e-8]
//!  [--python bench/.venv/bin/python | --no-scipy]` (`bench/run-stiff.sh` runs the stiff
//!  tables with SciPy in one command)
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

use bench::side::stiff::Problem;
use bench::side::{Config, NonStiff, run_all};
use clap::Parser;

#[derive(Parser)]
#[command(about = "ODE anchors side by side: ours, diffsol, hand DP5, SciPy; ratios in one run")]
struct Args {
    /// Interleaved rounds per table (medians over them).
    #[arg(long, default_value_t = 15)]
    rounds: usize,
    /// One round, tolerance 1e-8, no SciPy (what the test runs; timings meaningless).
    #[arg(long)]
    quick: bool,
    /// Relative tolerances of the stiff work-precision tables (none below 1e-8 for the
    /// Brusselator).
    #[arg(long, value_delimiter = ',', default_values_t = vec![1e-4, 1e-6, 1e-8, 1e-10])]
    tolerances: Vec<f64>,
    /// Stiff problems to run: robertson, van_der_pol, hires, heat, brusselator (default all;
    /// naming problems or tables runs only those named).
    #[arg(long, value_delimiter = ',')]
    problems: Vec<String>,
    /// Only the stiff tables.
    #[arg(long)]
    stiff_only: bool,
    /// Which of the A1, A3 and A4 tables to run: a1, a3, a4 (default all; e.g. one table
    /// under a profiler with many rounds).
    #[arg(long, value_delimiter = ',')]
    tables: Vec<String>,
    /// Python with SciPy (default: bench/.venv/bin/python when it exists).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Leave SciPy out.
    #[arg(long)]
    no_scipy: bool,
    /// SciPy solves per row (median).
    #[arg(long, default_value_t = 3)]
    scipy_repeat: usize,
}

fn main() -> ExitCode {
    let a = Args::parse();
    let mut problems = Vec::new();
    for key in &a.problems {
        match Problem::from_key(key) {
            Some(p) => problems.push(p),
            None => {
                eprintln!("error: unknown problem `{key}`");
                return ExitCode::from(2);
            }
        }
    }
    // Naming tables or problems runs only those named.
    if problems.is_empty() && a.tables.is_empty() {
        problems = Problem::ALL.to_vec();
    }
    let stiff_only = a.stiff_only || (a.tables.is_empty() && !a.problems.is_empty());
    let mut nonstiff = Vec::new();
    for key in &a.tables {
        match NonStiff::from_key(key) {
            Some(t) => nonstiff.push(t),
            None => {
                eprintln!("error: unknown table `{key}` (a1, a3, a4)");
                return ExitCode::from(2);
            }
        }
    }
    let cfg = if a.quick {
        Config {
            problems,
            stiff_only,
            nonstiff,
            ..Config::quick()
        }
    } else {
        let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
        let python = match (a.no_scipy, a.python) {
            (true, _) => None,
            (false, Some(p)) => Some(p),
            (false, None) => venv.exists().then_some(venv),
        };
        Config {
            rounds: a.rounds,
            min_round_s: 1e-2,
            tolerances: a.tolerances,
            problems,
            stiff_only,
            nonstiff,
            python,
            scipy_repeat: a.scipy_repeat,
        }
    };
    match run_all(&cfg) {
        Ok(tables) => {
            for t in tables {
                println!("{}", t.to_markdown());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
