//! `physis emit FILE.hph`: the Rust that `physis-build` generates for the file's models.

use physis_codegen::EmitError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `physis emit`.
#[derive(clap::Args)]
pub struct Args {
    /// The .hph file.
    file: PathBuf,
}

pub fn run(args: &Args) -> ExitCode {
    let name = args.file.display().to_string();
    let source = match super::read_source(&args.file) {
        Ok(s) => s,
        Err(failure) => return failure.report(),
    };
    match physis_codegen::emit(&source, &name) {
        Ok(code) => {
            print!("{code}");
            ExitCode::SUCCESS
        }
        Err(EmitError::Check { rendered, .. }) => {
            eprint!("{rendered}");
            ExitCode::FAILURE
        }
        // Every other refusal's message starts with its code, `error[PHxxxx]: `.
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
