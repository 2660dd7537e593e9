//! Physis symbolic calculus: the stage between the checker and the IR.
//!
//! It takes expressions (scalars, or vectors as lists of scalar components) over declared
//! symbols and the time, and hands on expressions derived from them: simplified right sides,
//! derivatives, Jacobians with their sparsity, and the equations of motion of a lagrangian
//! (with dissipation and efforts) or a hamiltonian.
//!
//! - [`Graph`] is an arena of hash-consed [`Node`]s: equal expressions share one [`NodeId`].
//!   Its constructors ([`Graph::add`], [`Graph::mul`], [`Graph::pow`], [`Graph::call`], ...)
//!   keep every node canonical: constants folded, like terms collected, powers merged,
//!   `sin² + cos² = 1`; [`Graph::simplify`] re-canonicalises raw input.
//! - [`Graph::diff`] differentiates every construct; a construct with no rule is
//!   [`SymbolicError::NotDifferentiable`], which becomes diagnostic PH0112 at the origin the
//!   caller recorded with [`Graph::set_origin`].
//! - [`Graph::jacobian`], [`Graph::sparsity`] and [`Graph::sparse_jacobian`] serve implicit
//!   schemes and the stability check.
//! - [`LagrangianSystem`] and [`HamiltonianSystem`] derive equations of motion.
//! - [`Lowering`] turns a [`physis_check::CheckedModel`]'s expressions into the DAG and
//!   derives its [`DerivedMotion`].
//! - [`Graph::to_unicode`] and [`Graph::to_latex`] print for `physis derive`; [`Graph::eval`]
//!   evaluates in `f64` for tests.

mod algebra;
mod diff;
mod error;
mod eval;
mod functions;
mod graph;
mod jacobian;
mod lower;
mod mechanics;
mod names;
mod node;
mod number;
mod print;
mod simplify;
mod vector;

pub use diff::Kinks;
pub use error::{EvalError, SymbolicError};
pub use eval::Bindings;
pub use graph::{Graph, MAX_DERIVATION_WORK, MAX_DERIVED_NODES, SymbolInfo};
pub use jacobian::{SparseJacobian, SparsityPattern};
pub use lower::{DerivedMotion, Lowering, StateComponent};
pub use mechanics::{
    Acceleration, Conjugate, Coordinate, EulerLagrange, HamiltonEquations, HamiltonianSystem,
    LagrangianSystem, lagrangian_energy,
};
pub use names::latex_name;
pub use node::{Func, Node, NodeId, OpaqueId, Symbol, SymbolId, Var};
pub use number::{Number, SmallRational};
pub use print::Notation;
pub use vector::{Arith, Value};
