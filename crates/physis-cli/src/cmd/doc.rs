//! `physis doc MODULE`: a standard module's functions with their signatures (kinds and SI
//! units) and the physics each one states.

use std::process::ExitCode;

/// Arguments of `physis doc`.
#[derive(clap::Args)]
pub struct Args {
    /// The module, e.g. Physis.Electromechanics; without it, the modules are listed.
    module: Option<String>,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(name) = &args.module else {
        println!("Physis.Constants");
        for name in physis_check::modules::standard_names() {
            println!("{name}");
        }
        return ExitCode::SUCCESS;
    };
    match physis_check::modules::doc(name) {
        Some(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None => {
            eprintln!("error: unknown module `{name}`; `physis doc` lists the standard modules");
            ExitCode::from(2)
        }
    }
}
