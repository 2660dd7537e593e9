//! `physis fmt FILE...`: rewrite files in the canonical layout, or `--check` that they are.

use physis_syntax::format::{first_difference, format};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `physis fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// The .hph files to format in place.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Change nothing; exit 1 and name the first differing line of each file that would change.
    #[arg(long)]
    check: bool,
}

pub fn run(args: &Args) -> ExitCode {
    let mut would_change = false;
    for path in &args.files {
        let source = match super::read_source(path) {
            Ok(s) => s,
            Err(failure) => return failure.report(),
        };
        let formatted = format(&source);
        let Some((line, was, now)) = first_difference(&source, &formatted) else {
            continue;
        };
        let name = path.display();
        if args.check {
            would_change = true;
            eprintln!("{name}:{line}: would be reformatted\n- {was}\n+ {now}");
        } else if let Err(e) = std::fs::write(path, &formatted) {
            eprintln!("error: cannot write {name}: {e}");
            return ExitCode::from(2);
        }
    }
    if would_change {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
