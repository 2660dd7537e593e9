//! Why source could not be generated.

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

/// Why a file of models could not be turned into Rust.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EmitError {
    /// The file has errors: `rendered` is what `physis check` prints for it.
    #[error("{rendered}")]
    Check {
        /// The file's name as given.
        file: String,
        /// The diagnostics, rendered like rustc.
        rendered: String,
        /// Number of errors among them.
        errors: usize,
    },
    /// A model uses a feature the IR cannot lower yet.
    #[error("{file}: simulation `{model}`: {feature} cannot be compiled to Rust yet")]
    NotYetSupported {
        /// The file.
        file: String,
        /// The simulation.
        model: String,
        /// The feature.
        feature: String,
    },
    /// Lowering to IR refused the model: `rendered` is its diagnostic (PH0121, PH0122 or
    /// the symbolic layer's code) as `physis check` prints it.
    #[error("{rendered}")]
    Lower {
        /// The file.
        file: String,
        /// The simulation.
        model: String,
        /// The diagnostic, rendered like rustc.
        rendered: String,
    },
    /// The generator could not emit the model.
    #[error("{file}: simulation `{model}`: {source}")]
    Generate {
        /// The file.
        file: String,
        /// The simulation.
        model: String,
        /// The problem.
        source: GenError,
    },
    /// Two simulations would generate types of the same name.
    #[error("simulation `{name}` is declared in {first} and again in {second}")]
    Duplicate {
        /// The generated type name.
        name: String,
        /// Where it was first declared.
        first: String,
        /// Where it was declared again.
        second: String,
    },
    /// The generated tokens did not parse back as Rust (a bug in the generator).
    #[error("generated code for `{model}` is not valid Rust: {problem}")]
    Syntax {
        /// The simulation (or `file` for the whole output).
        model: String,
        /// The parser's message.
        problem: String,
    },
}
