//! `centl-physics --serve`: the version-1 JSON Lines protocol on stdin/stdout.

use centl_protocol::{Limits, serve_with_workers};
use std::process::ExitCode;

/// Serves until stdin ends, running up to `workers` requests at once. Only a broken output
/// stream stops it early.
pub fn run(workers: usize) -> ExitCode {
    let stdin = std::io::stdin();
    match serve_with_workers(stdin.lock(), std::io::stdout(), &Limits::default(), workers) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: serving JSON Lines: {e}");
            ExitCode::FAILURE
        }
    }
}
