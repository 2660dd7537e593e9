//! Why source could not be generated.

use physis_syntax::Code;
use thiserror::Error;

/// A problem generating one model from its IR (a construct this back end does not emit).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum GenError {
    /// An IR construct the generator does not emit yet.
    #[error("{what} cannot be generated as Rust yet")]
    Unsupported {
        /// The construct.
        what: String,
    },
    /// A function reads an input it is not given.
    #[error("function `{function}` reads {input}, which it is not given")]
    Input {
        /// The IR function.
        function: String,
        /// The input.
        input: String,
    },
}

impl GenError {
    /// PH0120 for a construct not generated yet; PH0122 for a fault of the generator.
    pub fn code(&self) -> Code {
        match self {
            GenError::Unsupported { .. } => Code::NotYetSupported,
            GenError::Input { .. } => Code::Internal,
        }
    }
}

/// Why a file of models could not be turned into Rust. Each message starts with its code
/// (`error[PHxxxx]`), as every `physis` refusal does.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EmitError {
    /// The file has errors, or lowering refuses one of its models: `rendered` is what
    /// `physis check` prints for it.
    #[error("{rendered}")]
    Check {
        /// The file's name as given.
        file: String,
        /// The diagnostics, rendered like rustc.
        rendered: String,
        /// Number of errors among them.
        errors: usize,
    },
    /// The generator could not emit the model.
    #[error("error[{}]: {file}: simulation `{model}`: {source}", .source.code())]
    Generate {
        /// The file.
        file: String,
        /// The simulation.
        model: String,
        /// The problem.
        source: GenError,
    },
    /// Two simulations would generate types of the same name.
    #[error(
        "error[{}]: simulation `{name}` is declared in {first} and again in {second}",
        Code::DuplicateSimulation
    )]
    Duplicate {
        /// The generated type name.
        name: String,
        /// Where it was first declared.
        first: String,
        /// Where it was declared again.
        second: String,
    },
    /// The generated tokens did not parse back as Rust (a bug in the generator).
    #[error(
        "error[{}]: generated code for `{model}` is not valid Rust: {problem}",
        Code::Internal
    )]
    Syntax {
        /// The simulation (or `file` for the whole output).
        model: String,
        /// The parser's message.
        problem: String,
    },
}
