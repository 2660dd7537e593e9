//! The errors of the symbolic layer, and their mapping to diagnostics.

use physis_syntax::{Code, Diagnostic, Span};

/// Why a symbolic operation could not be carried out. None of these is a panic: each is a
/// property of the model that the caller reports.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SymbolicError {
    /// A construct with no derivative rule (or with a kink, when kinks are refused) depends on
    /// the variable of differentiation.
    #[error("cannot differentiate {construct} with respect to {variable}")]
    NotDifferentiable {
        /// The construct, as printed (`abs`, `maxAbs`).
        construct: String,
        /// The variable, as printed (`s'`, `t`).
        variable: String,
        /// Where the construct was written, when the caller recorded it.
        origin: Option<Span>,
    },
    /// A construct the symbolic stage does not model (grid stencils and scheme bodies are
    /// lowered by the IR, which acts on whole arrays).
    #[error("{construct} has no symbolic form")]
    NotSymbolic {
        /// The construct, as written.
        construct: String,
        /// Where it was written.
        origin: Option<Span>,
    },
    /// Two vectors of different sizes met in `dot` or a component-wise operation.
    #[error("{operation} needs operands of one size, got {left} and {right}")]
    SizeMismatch {
        /// The operation (`dot`, `+`).
        operation: &'static str,
        /// Size of the left operand.
        left: usize,
        /// Size of the right operand.
        right: usize,
    },
    /// `cross` of an operand whose size is not 3.
    #[error("cross needs two operands of size 3, got {left} and {right}")]
    CrossSize {
        /// Size of the left operand.
        left: usize,
        /// Size of the right operand.
        right: usize,
    },
    /// A component index past the end of a vector.
    #[error("index {index} is out of range for a vector of size {len}")]
    IndexOutOfRange {
        /// The index.
        index: usize,
        /// The vector's size.
        len: usize,
    },
    /// A vector where a scalar is needed.
    #[error("{operation} needs a scalar, got a vector of size {len}")]
    NotScalar {
        /// The operation.
        operation: &'static str,
        /// The vector's size.
        len: usize,
    },
    /// The mass matrix of a lagrangian is singular for every state: the row of `coordinate`
    /// is identically zero (the lagrangian does not read that velocity).
    #[error("the lagrangian does not read the velocity of {}", coordinate_name(*coordinate, name))]
    SingularMass {
        /// Index of the coordinate in the order given.
        coordinate: usize,
        /// The coordinate as written in the model (`θ`, `x[1]`), when known.
        name: Option<String>,
    },
    /// A derivation past one of its size limits ([`MAX_DERIVATION_WORK`] before it starts,
    /// [`MAX_DERIVED_NODES`] while it runs).
    ///
    /// [`MAX_DERIVATION_WORK`]: crate::MAX_DERIVATION_WORK
    /// [`MAX_DERIVED_NODES`]: crate::MAX_DERIVED_NODES
    #[error("the derivation needs {size} {what}, more than the limit of {limit}")]
    TooLarge {
        /// What is counted (`expression nodes`, `node derivatives`).
        what: &'static str,
        /// How many it needs (for nodes: at least this many).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// A list of efforts, conjugates or coordinates of the wrong length.
    #[error("{what}: expected {expected} entries, got {found}")]
    CountMismatch {
        /// What the list is.
        what: &'static str,
        /// The number of coordinates.
        expected: usize,
        /// The number given.
        found: usize,
    },
}

impl SymbolicError {
    /// The origin recorded on the offending node, if any.
    pub fn origin(&self) -> Option<Span> {
        match self {
            SymbolicError::NotDifferentiable { origin, .. }
            | SymbolicError::NotSymbolic { origin, .. } => *origin,
            _ => None,
        }
    }

    /// A diagnostic at the node's origin, or at `fallback` (the clause being lowered).
    /// A failed derivative is PH0112 (so is a construct with no symbolic form, met only when
    /// something asks for its derivative); the other errors are shape or model errors
    /// (PH0109 for sizes, PH0115 for a lagrangian that moves a coordinate it does not read,
    /// PH0117 for a list of efforts of the wrong length, PH0121 for a derivation past its
    /// size limit).
    pub fn to_diagnostic(&self, fallback: Span) -> Diagnostic {
        let span = self.origin().unwrap_or(fallback);
        let code = match self {
            SymbolicError::NotDifferentiable { .. } | SymbolicError::NotSymbolic { .. } => {
                Code::NotDifferentiable
            }
            SymbolicError::SingularMass { .. } => Code::NothingToMove,
            SymbolicError::CountMismatch { .. } => Code::Effort,
            SymbolicError::TooLarge { .. } => Code::DerivationTooLarge,
            _ => Code::ShapeMismatch,
        };
        let d = Diagnostic::error(code, span, self.to_string());
        match self {
            SymbolicError::NotDifferentiable { .. } => d.with_hint(
                "the calculus laws have no derivative for this construct; write the energy \
                 without it or move it into an effort",
            ),
            SymbolicError::TooLarge { .. } => d.with_hint(
                "use fewer coordinates (each component of a vector state counts), a shorter \
                 energy, or write the laws of motion directly",
            ),
            _ => d,
        }
    }
}

/// Why a numeric evaluation of the DAG failed (the evaluator serves tests and tools; the
/// run-time back ends evaluate the IR).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// A symbol component with no value.
    #[error("no value for {name}")]
    Unbound {
        /// The symbol component, as printed.
        name: String,
    },
    /// An opaque construct, which only its owner can evaluate.
    #[error("cannot evaluate the opaque construct {name}")]
    Opaque {
        /// Its name.
        name: String,
    },
}

/// `` `θ` `` when the name is known, else `coordinate 2`.
fn coordinate_name(index: usize, name: &Option<String>) -> String {
    match name {
        Some(n) => format!("`{n}`"),
        None => format!("coordinate {index}"),
    }
}
