//! `physis lsp`: the language server over stdin/stdout (see `physis-lsp` and docs/editor.md).

use std::process::ExitCode;

/// Arguments of `physis lsp`.
#[derive(clap::Args)]
pub struct Args {
    /// Accepted for clients that pass it (stdio is the only transport).
    #[arg(long)]
    stdio: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let _ = args.stdio;
    match physis_lsp::run_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: language server: {e}");
            ExitCode::from(2)
        }
    }
}
