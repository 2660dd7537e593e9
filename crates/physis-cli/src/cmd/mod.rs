//! One module per subcommand.

pub mod check;
pub mod collect;
pub mod columns;
pub mod derive;
pub mod emit;
pub mod ensemble;
pub mod explain;
pub mod fmt;
pub mod lsp;
pub mod memory;
pub mod observed;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod plot;
pub mod plot_ensemble;
pub mod prepare;
pub mod progress;
pub mod refusal;
pub mod run;
pub mod schemes;

/// Why a source file could not be read as text.
pub enum ReadFailure {
    /// The file could not be opened or read (exit 2).
    Io(String),
    /// The file is not UTF-8 (PH0008) or too large (PH0009), rendered (exit 1).
    NotUtf8(String),
}

impl ReadFailure {
    /// The message for stderr and the exit code.
    pub fn into_parts(self) -> (String, u8) {
        match self {
            ReadFailure::Io(message) => (message, 2),
            ReadFailure::NotUtf8(rendered) => (rendered, 1),
        }
    }
}

/// Reads a `.hph` file as text; bytes that are not UTF-8 are PH0008 with their byte offset,
/// a file past 16 MiB PH0009 (read no further than one byte past the limit).
pub fn read_source(path: &std::path::Path) -> Result<String, ReadFailure> {
    let name = path.display().to_string();
    let bytes = physis_syntax::read_source_bytes(path)
        .map_err(|e| ReadFailure::Io(format!("error: cannot read {name}: {e}")))?;
    match physis_syntax::decode_source(&bytes) {
        (text, None) => Ok(text),
        (text, Some(d)) => Err(ReadFailure::NotUtf8(physis_syntax::render::render_text(
            &[d],
            &name,
            &text,
        ))),
    }
}
