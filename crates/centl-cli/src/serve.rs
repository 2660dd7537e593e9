//! `centl-physics --serve`: the version-1 JSON Lines protocol on stdin/stdout.

use centl_protocol::{Limits, serve};
use std::process::ExitCode;

/// Serves until stdin ends. Only a broken output stream stops it early.
pub fn run() -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    match serve(stdin.lock(), stdout.lock(), &Limits::default()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: serving JSON Lines: {e}");
            ExitCode::FAILURE
        }
    }
}
