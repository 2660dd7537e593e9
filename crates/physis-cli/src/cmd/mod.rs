//! One module per subcommand.

pub mod backend;
pub mod check;
#[cfg(feature = "plot")]
pub mod collect;
#[cfg(feature = "plot")]
pub mod columns;
pub mod derive;
pub mod doc;
pub mod emit;
pub mod ensemble;
pub mod explain;
pub mod fmt;
pub mod lsp;
pub mod memory;
#[cfg(feature = "plot")]
pub mod observed;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(feature = "plot")]
pub mod plot;
#[cfg(feature = "plot")]
pub mod plot_ensemble;
pub mod prepare;
pub mod progress;
pub mod refusal;
pub mod run;
pub mod schemes;

/// A failure with its exit code: 1 for a model that does not check or run, 2 for usage.
pub struct Failure {
    /// Text for stderr.
    pub message: String,
    /// Process exit code.
    pub code: u8,
}

impl Failure {
    /// A mistake in how the command was called (exit 2).
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A model that does not check, lower or run (exit 1).
    pub fn model(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }

    /// Writes the message to stderr, ending its line, and gives the exit code.
    pub fn report(self) -> std::process::ExitCode {
        eprint!("{}", self.message);
        if !self.message.ends_with('\n') {
            eprintln!();
        }
        std::process::ExitCode::from(self.code)
    }
}

/// Reads a `.hph` file's bytes (no more than one byte past the size limit); a file that
/// cannot be read is a usage failure.
pub fn read_bytes(path: &std::path::Path) -> Result<Vec<u8>, Failure> {
    physis_syntax::read_source_bytes(path)
        .map_err(|e| Failure::usage(format!("error: cannot read {}: {e}", path.display())))
}

/// Reads a `.hph` file and checks it through the front door; a file that does not decode or
/// check is refused with its diagnostics rendered. Nothing is lowered yet.
pub fn open(path: &std::path::Path) -> Result<physis_ir::front::Checked, Failure> {
    open_with(path, &physis_check::Overrides::default())
}

/// [`open`] with settings from the command line in place of the file's own, checked as if
/// the file said them.
pub fn open_with(
    path: &std::path::Path,
    overrides: &physis_check::Overrides,
) -> Result<physis_ir::front::Checked, Failure> {
    let bytes = read_bytes(path)?;
    let checked =
        physis_ir::front::check_bytes_with(&bytes, &path.display().to_string(), overrides);
    if checked.has_errors() {
        return Err(Failure::model(checked.rendered()));
    }
    Ok(checked)
}

/// Reads a `.hph` file as text; bytes that are not UTF-8 are PH0008 with their byte offset,
/// a file past 16 MiB PH0009 (both rendered, exit 1).
pub fn read_source(path: &std::path::Path) -> Result<String, Failure> {
    let bytes = read_bytes(path)?;
    match physis_syntax::decode_source(&bytes) {
        (text, None) => Ok(text),
        (text, Some(d)) => Err(Failure::model(physis_syntax::render::render_text(
            &[d],
            &path.display().to_string(),
            &text,
        ))),
    }
}
