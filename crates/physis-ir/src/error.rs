//! Errors of building, specialising and lowering IR.

use thiserror::Error;

use crate::ir::{Source, Ty};

/// Why a piece of IR could not be built. These are errors in what a lowering pass asks
/// for (shapes that do not fit, a scheme that reads what the model lacks), never panics.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum IrError {
    /// Two operands of an elementwise operation have different array lengths.
    #[error("operation `{op}` on values of shapes {lhs:?} and {rhs:?}")]
    ShapeMismatch {
        /// The operation.
        op: &'static str,
        /// Left operand's type.
        lhs: Ty,
        /// Right operand's type.
        rhs: Ty,
    },
    /// An operation needs a scalar (a condition, a spacing, an index result) or an array.
    #[error("operation `{op}` expects {expected}, got {got:?}")]
    WrongType {
        /// The operation.
        op: &'static str,
        /// What it expects.
        expected: &'static str,
        /// What it got.
        got: Ty,
    },
    /// An element index past an array's end.
    #[error("index {index} out of range for an array of length {len}")]
    IndexOutOfRange {
        /// The index.
        index: u32,
        /// The array's length.
        len: u32,
    },
    /// A value id that the builder never handed out.
    #[error("unknown value %{0}")]
    UnknownValue(u32),
    /// A stencil whose operand does not have the grid's length.
    #[error("stencil over a grid of {grid} nodes applied to a value of {len} elements")]
    GridMismatch {
        /// Nodes of the grid.
        grid: usize,
        /// Length of the operand.
        len: usize,
    },
    /// The tangent pass met an operation it cannot differentiate.
    #[error("cannot differentiate `{op}`")]
    NotDifferentiable {
        /// The operation.
        op: &'static str,
    },
    /// A scheme reads something the model does not have or that its kind forbids.
    #[error("scheme `{scheme}` reads `{what}`, which {why}")]
    SchemeReads {
        /// The scheme's name.
        scheme: String,
        /// What it reads (`a(·,·)`, `dW`, `next`).
        what: &'static str,
        /// Why that is refused.
        why: &'static str,
    },
    /// A scheme binds the wrong outputs.
    #[error("scheme `{scheme}` must bind {expected}")]
    SchemeBindings {
        /// The scheme's name.
        scheme: String,
        /// What it must bind.
        expected: &'static str,
    },
    /// A scheme expression mixes values that do not combine (a state plus a noise vector).
    #[error("scheme `{scheme}`: {problem}")]
    SchemeShape {
        /// The scheme's name.
        scheme: String,
        /// What does not fit.
        problem: String,
    },
    /// A scheme refers to a binding that is not (yet) defined.
    #[error("scheme `{scheme}` reads binding #{index} before it is defined")]
    UnboundName {
        /// The scheme's name.
        scheme: String,
        /// The binding's position.
        index: usize,
    },
    /// An acceleration that reads a velocity under a second-order scheme.
    #[error("the acceleration reads the velocity slot {slot}, which a second-order scheme forbids")]
    AccelerationReadsVelocity {
        /// The velocity slot.
        slot: u32,
    },
    /// A model function reads an input that the function cannot have.
    #[error("function `{function}` reads {input:?}, which it has no access to")]
    ForbiddenInput {
        /// The function.
        function: String,
        /// The input.
        input: Source,
    },
    /// The state layout does not fit the functions given for it.
    #[error("model layout: {problem}")]
    Layout {
        /// What does not fit.
        problem: String,
    },
}
