//! `physis explain CODE`: what a diagnostic code means, with an example that triggers it.

use physis_syntax::Code;
use std::process::ExitCode;

/// Arguments of `physis explain`.
#[derive(clap::Args)]
pub struct Args {
    /// The code, e.g. PH0104; without it, every code is listed.
    code: Option<String>,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(text) = &args.code else {
        for code in Code::ALL {
            println!("{code}  {}", code.title());
        }
        return ExitCode::SUCCESS;
    };
    let Some(code) = Code::from_str_code(text) else {
        eprintln!("error: unknown diagnostic code `{text}`; `physis explain` lists them");
        return ExitCode::from(2);
    };
    println!("{code}: {}\n", code.title());
    println!("{}\n", code.explanation());
    if !code.example().is_empty() {
        println!("Example:\n");
        for line in code.example().lines() {
            println!("    {line}");
        }
    }
    ExitCode::SUCCESS
}
