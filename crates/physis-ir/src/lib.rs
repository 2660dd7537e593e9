//! Physis IR: the flat intermediate representation every back end consumes, and the tape
//! interpreter that runs it.
//!
//! **Takes in** a model's pieces as IR functions ([`ModelSpec`]: rate over a state
//! [`Layout`], initial state, atom margins, observes, resets) and a scheme description
//! ([`SchemeDef`], from the prelude or a user `scheme`). **Hands on** an [`IrModel`]: every
//! function the driver needs, with the scheme specialised onto the rate and the implicit
//! Jacobian derived exactly; [`TapeModel`] runs it through `physis-runtime`'s [`Model`]
//! trait, and the code generator and a later JIT read the same [`IrModel`].
//!
//! The stages, in order:
//! 1. [`Builder`] makes straight-line SSA ([`ir`]) with constant folding and
//!    hash-consing (common subexpressions are shared as they are built).
//! 2. [`specialise()`] evaluates a scheme body through a [`SchemeCtx`], inlining the
//!    rate at each `f(t′, y′)` ([`tangent::inline`]), reusing `f0` at `f(t, y)`.
//! 3. [`tangent`] is forward-mode differentiation of IR: exact Jacobians ([`derive`]);
//!    [`sparsity`] finds which inputs each output reads (a grid's sparse Jacobian).
//! 4. [`assemble`] collects everything into an [`IrModel`].
//! 5. The [`interpreter`]: [`Tape`] compiles a function to flat instructions over one
//!    register file; [`TapeModel`] implements the driver's model trait with tapes;
//!    [`TapeLanes`] runs 64 ensemble members at once. Generated code
//!    (`physis-codegen`) must agree with it bit for bit, as
//!    `examples/rust-api/tests/differential.rs` tests.
//!
//! [`Model`]: physis_runtime::Model

pub mod affine;
pub mod amplification;
pub mod builder;
pub mod derive;
mod drift;
pub mod error;
pub mod eval;
pub mod front;
pub mod interpreter;
pub mod ir;
/// The whole-array kernels, shared with generated code through the runtime.
pub use physis_runtime::kernels;
pub mod layout;
pub mod linearity;
pub mod lower;
pub mod model;
pub mod prelude;
pub mod scheme;
pub mod sparsity;
pub mod specialise;
pub mod staged;
pub mod step;
pub mod tangent;
mod vecops;

pub use builder::Builder;
pub use error::IrError;
pub use interpreter::compact::CompactTape;
pub use interpreter::interp::{BindError, TapeModel, UnboundTapes, bind_params};
pub use interpreter::lanes::WIDTH as LANE_WIDTH;
pub use interpreter::lanes::{LaneProgram, TapeLanes};
pub use interpreter::native::{
    LaneArgs, LaneCompiler, LaneTier, NativeLanes, NativeTape, TapeCompiler, Tier,
};
pub use interpreter::tape::{BcReg, Inputs, Ins, Tape};
pub use ir::{
    Bc, BinOp, Function, Grid, Inst, Op, ReduceOp, Source, Stencil, StencilOp, Ty, UnOp, ValueId,
};
pub use layout::{Dynamics, Layout, Part};
pub use lower::{LowerError, lower, lower_with_source};
pub use model::{Conserved, IrModel, ModelSpec, NamedRun, ParamSpec, ResetSpec, assemble};
pub use scheme::{Role, SBinding, SExpr, SchemeDef};
pub use specialise::{SVal, SchemeCtx, SchemeFns, Specialised, specialise};
