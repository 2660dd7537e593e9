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
        // The one front door, shared with the language server: parse, check and lower.
        let (mut checked, _) = physis_lsp::analysis::front::check(&source);
        if let Some(d) = not_utf8 {
            checked.diagnostics = vec![d];
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
