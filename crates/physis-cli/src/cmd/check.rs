//! `physis check FILE...`: diagnostics like rustc on stderr, or JSON on stdout.

use physis_syntax::render::{JsonDiagnostic, json_records, render_text};
use std::path::PathBuf;
use std::process::ExitCode;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// rustc-style text on stderr.
    Text,
    /// `[{"code","severity","line","column","message"}]` on stdout.
    Json,
}

/// Arguments of `physis check`.
#[derive(clap::Args)]
pub struct Args {
    /// The .hph files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

pub fn run(args: &Args) -> ExitCode {
    let mut failed = false;
    let mut records: Vec<JsonDiagnostic> = Vec::new();
    let several = args.files.len() > 1;
    for path in &args.files {
        let name = path.display().to_string();
        let bytes = match physis_syntax::read_source_bytes(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: cannot read {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let (source, not_utf8) = physis_syntax::decode_source(&bytes);
        let mut checked = physis_check::check_source(&source);
        if let Some(d) = not_utf8 {
            checked.diagnostics = vec![d];
        } else if !checked.has_errors() {
            // What only lowering can see (a velocity L never reads, a derived acceleration
            // that reads velocities under verlet, a derivative the rules cannot take, a
            // derivation past its size limit, a construct not built yet) is a model error
            // too, so `check` reports it with its code as `run` would. A model with a grid
            // is not lowered, since lowering builds every node's arrays: what lowering
            // refuses on a grid the checker refuses itself (PH0120), so checking costs
            // nothing per node.
            for model in checked.program.models.iter().filter(|m| m.grid.is_none()) {
                if let Err(e) = physis_ir::lower_with_source(model, &source) {
                    checked.diagnostics.push(e.to_diagnostic(model));
                }
            }
        }
        failed |= checked.has_errors();
        match args.format {
            Format::Text => eprint!("{}", render_text(&checked.diagnostics, &name, &source)),
            Format::Json => {
                let file = several.then_some(name.as_str());
                records.extend(json_records(&checked.diagnostics, file, &source));
            }
        }
    }
    if args.format == Format::Json {
        match serde_json::to_string(&records) {
            Ok(json) => println!("{json}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
