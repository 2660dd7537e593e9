//! Compile a folder of Physis models to Rust from a build script.
//!
//! **Takes in** a folder of `.hph` files (its own files, not subfolders, in sorted order). **Hands
//! on** one formatted Rust file in `OUT_DIR`, named after the folder (`models/` →
//! `models.rs`), holding every simulation of every file (see `physis-codegen` for what is
//! generated), and the `cargo:rerun-if-changed` lines for the folder and each file. A model
//! with errors fails the build with the diagnostics `physis check` prints.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), physis_build::BuildError> {
//!     physis_build::compile("models")?;
//!     Ok(())
//! }
//! ```
//! and in the crate: `include!(concat!(env!("OUT_DIR"), "/models.rs"));` — the crate
//! depends on `physis-runtime`, which the generated code names.

use std::io::Write;
use std::path::{Path, PathBuf};

use physis_codegen::{EmitError, Options, SourceFile};

pub use physis_codegen::Skipped;

/// Why the models could not be compiled. Its `Debug` is its `Display`, so a build script
/// that returns or unwraps it shows the rendered diagnostics as they are.
#[derive(thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A file or folder could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// Neither `OUT_DIR` nor an explicit output folder is set.
    #[error("OUT_DIR is not set: run from a build script or set Builder::out_dir")]
    NoOutDir,
    /// The folder holds no `.hph` file.
    #[error("{folder}: no .hph file in this folder")]
    Empty {
        /// The folder.
        folder: PathBuf,
    },
    /// A model has errors or cannot be generated.
    #[error("{0}")]
    Model(#[from] EmitError),
}

impl std::fmt::Debug for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")?;
        let (file, errors) = match self {
            BuildError::Model(EmitError::Check { file, errors, .. }) => (file, *errors),
            _ => return Ok(()),
        };
        let s = if errors == 1 { "" } else { "s" };
        write!(
            f,
            "\nerror: could not compile {file} due to {errors} error{s}"
        )?;
        Ok(())
    }
}

/// What a compilation wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The generated file.
    pub path: PathBuf,
    /// The `.hph` files read.
    pub files: Vec<PathBuf>,
    /// The generated simulations' type names.
    pub models: Vec<String>,
    /// Models left out by [`Builder::skip_unsupported`].
    pub skipped: Vec<Skipped>,
    /// The `cargo:` lines (printed unless [`Builder::cargo_instructions`] is off).
    pub instructions: Vec<String>,
}

/// Compiles every model under `folder` into `OUT_DIR/<folder name>.rs`.
pub fn compile(folder: impl AsRef<Path>) -> Result<Output, BuildError> {
    Builder::new().folder(folder).compile()
}

/// Options of a compilation.
#[derive(Clone, Debug)]
pub struct Builder {
    folder: PathBuf,
    out_dir: Option<PathBuf>,
    out_name: Option<String>,
    skip_unsupported: bool,
    registry: bool,
    cargo: bool,
    warn_skipped: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// Defaults: folder `models`, output in `OUT_DIR`, named after the folder, cargo lines
    /// printed, every model required.
    pub fn new() -> Self {
        Builder {
            folder: PathBuf::from("models"),
            out_dir: None,
            out_name: None,
            skip_unsupported: false,
            registry: false,
            cargo: true,
            warn_skipped: true,
        }
    }

    /// The folder of `.hph` files (relative paths are relative to the crate root, where
    /// cargo runs build scripts).
    pub fn folder(mut self, folder: impl AsRef<Path>) -> Self {
        self.folder = folder.as_ref().to_path_buf();
        self
    }

    /// Where to write (default: `OUT_DIR`).
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The output file's name (`physics` or `physics.rs`; default: the folder's name).
    pub fn out_name(mut self, name: &str) -> Self {
        self.out_name = Some(name.to_string());
        self
    }

    /// Leave out, with a cargo warning, models using features the IR cannot lower yet.
    pub fn skip_unsupported(mut self, on: bool) -> Self {
        self.skip_unsupported = on;
        self
    }

    /// Report each model left out by [`Builder::skip_unsupported`] as a cargo warning
    /// (default on).
    pub fn warn_skipped(mut self, on: bool) -> Self {
        self.warn_skipped = on;
        self
    }

    /// Also generate `MODELS`, every model's name and untyped entry point.
    pub fn registry(mut self, on: bool) -> Self {
        self.registry = on;
        self
    }

    /// Print the `cargo:` lines (default on; off for use outside a build script).
    pub fn cargo_instructions(mut self, on: bool) -> Self {
        self.cargo = on;
        self
    }

    /// Reads the folder, generates and writes the file.
    pub fn compile(self) -> Result<Output, BuildError> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir)?,
        };
        let mut files = Vec::new();
        collect(&self.folder, &mut files)?;
        files.sort();
        let mut instructions = vec![format!("cargo:rerun-if-changed={}", self.folder.display())];
        instructions.extend(
            files
                .iter()
                .map(|f| format!("cargo:rerun-if-changed={}", f.display())),
        );
        // Print the rerun lines before anything can fail, so a fixed model rebuilds.
        if self.cargo {
            emit_lines(&instructions);
        }
        if files.is_empty() {
            return Err(BuildError::Empty {
                folder: self.folder.clone(),
            });
        }
        let mut texts = Vec::with_capacity(files.len());
        for f in &files {
            texts.push((f.display().to_string(), read(f)?));
        }
        let sources: Vec<SourceFile<'_>> = texts
            .iter()
            .map(|(name, text)| SourceFile { name, text })
            .collect();
        let options = Options {
            skip_unsupported: self.skip_unsupported,
            registry: self.registry,
        };
        let generated = physis_codegen::generate(&sources, &options)?;
        let mut notes = Vec::new();
        for w in &generated.warnings {
            notes.extend(w.lines().map(|l| format!("cargo:warning={l}")));
        }
        for s in generated.skipped.iter().filter(|_| self.warn_skipped) {
            notes.push(format!(
                "cargo:warning={}: simulation `{}` skipped: {} cannot be compiled to Rust yet",
                s.file, s.model, s.feature
            ));
        }
        if self.cargo {
            emit_lines(&notes);
        }
        instructions.extend(notes);
        let name = match &self.out_name {
            Some(n) => n.trim_end_matches(".rs").to_string(),
            None => folder_name(&self.folder),
        };
        let path = out_dir.join(format!("{name}.rs"));
        write_if_changed(&path, &generated.code)?;
        Ok(Output {
            path,
            files,
            models: generated.models,
            skipped: generated.skipped,
            instructions,
        })
    }
}

/// The last component of the folder's path (`models` for `models/` or `./models`).
fn folder_name(folder: &Path) -> String {
    folder
        .components()
        .rev()
        .find_map(|c| match c {
            std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .unwrap_or_else(|| "models".to_string())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), BuildError> {
    let entries = std::fs::read_dir(dir).map_err(|e| io(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| io(dir, &e))?.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "hph") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads a model as `physis` does: no further than one byte past the 16 MiB source limit
/// (PH0009), and bytes that are not UTF-8 are PH0008 at their offset, both rendered like
/// every other diagnostic.
fn read(path: &Path) -> Result<String, BuildError> {
    let bytes = physis_syntax::read_source_bytes(path).map_err(|e| io(path, &e))?;
    match physis_syntax::decode_source(&bytes) {
        (text, None) => Ok(text),
        (text, Some(d)) => {
            let file = path.display().to_string();
            let rendered = physis_syntax::render::render_text(&[d], &file, &text);
            Err(BuildError::Model(EmitError::Check {
                file,
                rendered,
                errors: 1,
            }))
        }
    }
}

/// Writes only when the content differs, so an unchanged model does not rebuild the crate.
fn write_if_changed(path: &Path, code: &str) -> Result<(), BuildError> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == code) {
        return Ok(());
    }
    std::fs::write(path, code).map_err(|e| io(path, &e))
}

fn io(path: &Path, e: &std::io::Error) -> BuildError {
    BuildError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Build scripts talk to cargo through stdout; that is this crate's whole output channel.
fn emit_lines(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for l in lines {
        // A closed stdout in a build script leaves nothing to report to.
        let _ = writeln!(out, "{l}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_is_named_after_the_folder() {
        assert_eq!(folder_name(Path::new("models/")), "models");
        assert_eq!(folder_name(Path::new("./physics/sims")), "sims");
        assert_eq!(folder_name(Path::new(".")), "models");
    }
}
