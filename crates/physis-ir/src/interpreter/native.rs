//! Native code for tapes, supplied from outside this crate (`physis-jit` compiles tapes with
//! Cranelift): the two traits a native back end implements, and the rule for when a
//! [`TapeModel`](crate::TapeModel) asks for it.
//!
//! A native tape computes exactly what [`Tape::run`] computes, into the same register file,
//! so the model can switch from the tape to native code at any call without changing a bit
//! of the run. That is what makes tiering safe: a run starts on the tapes, and once the
//! tapes have done as much work as compiling them would cost, the model compiles them and
//! carries on natively ([`Tier`]). Lane tapes (ensembles) have the same pair of traits
//! ([`NativeLanes`], [`LaneCompiler`]) and rule ([`LaneTier`]), once per lane program.

use std::fmt::Debug;
use std::sync::Arc;

use crate::interpreter::lanes::WIDTH;
use crate::interpreter::tape::{Inputs, Tape};

/// Native code for one tape.
pub trait NativeTape: Send + Sync + Debug {
    /// Runs the code over `regs` (a register file from [`Tape::registers`] of the tape it was
    /// compiled from) as [`Tape::run`] would. Returns false, having changed nothing, when it
    /// cannot (an input shorter than the code was compiled to read): the caller then runs the
    /// tape.
    fn run(&self, regs: &mut [f64], inp: &Inputs<'_>) -> bool;
}

/// Compiles a model's tapes to native code.
pub trait TapeCompiler: Send + Sync + Debug {
    /// Native code for each tape, in the order given (`None` where a tape stays
    /// interpreted); each tape comes with its role (`rate`, `step`, `margins`, ...).
    fn compile(&self, tapes: &[(&'static str, Arc<Tape>)]) -> Vec<Option<Arc<dyn NativeTape>>>;
}

/// When a model asks its [`TapeCompiler`] for native code.
#[derive(Clone, Debug)]
pub struct Tier {
    /// The compiler.
    pub compiler: Arc<dyn TapeCompiler>,
    /// Tape instructions still to interpret before compiling; zero compiles at the first
    /// call.
    pub budget: u64,
}

impl Tier {
    /// Compiles once the tapes have interpreted `per_instruction` instructions for each
    /// instruction there is to compile (`size`), plus `fixed`: the work already done then
    /// matches the compile cost, so a run is never more than about twice as slow as the better
    /// of the two choices made in hindsight, and a short run never pays for compiling.
    pub fn after_work(
        compiler: Arc<dyn TapeCompiler>,
        size: usize,
        per_instruction: u64,
        fixed: u64,
    ) -> Tier {
        Tier {
            compiler,
            budget: (size as u64)
                .saturating_mul(per_instruction)
                .saturating_add(fixed),
        }
    }

    /// Compiles at the first call.
    pub fn at_once(compiler: Arc<dyn TapeCompiler>) -> Tier {
        Tier {
            compiler,
            budget: 0,
        }
    }
}

/// The inputs of a lane tape as native code reads them: slot `k` of lane `l` of an input at
/// `k·WIDTH + l` ([`crate::interpreter::lanes::WIDTH`]), and `t` as one value per lane.
#[derive(Clone, Copy, Debug)]
pub struct LaneArgs<'a> {
    /// The time of each lane.
    pub ts: &'a [f64; WIDTH],
    /// The step.
    pub h: f64,
    /// The states.
    pub y: &'a [f64],
    /// The rates at the step's start.
    pub f0: &'a [f64],
    /// The parameters.
    pub p: &'a [f64],
    /// The noise increments.
    pub dw: &'a [f64],
    /// The rates (for observes).
    pub rate: &'a [f64],
}

/// Native code for one lane tape (a tape of scalar instructions run over [`WIDTH`] lanes).
pub trait NativeLanes: Send + Sync + Debug {
    /// Runs the code over `regs`, the lane tape's register rows laid end to end (register
    /// `r` of lane `l` at `r·WIDTH + l`), as the lane interpreter would: afterwards every
    /// output register's row holds what the interpreter computes. Returns false, having
    /// changed nothing, when it cannot (an input shorter than the code reads); the caller
    /// then interprets.
    fn run(&self, regs: &mut [f64], args: &LaneArgs<'_>) -> bool;
}

/// Compiles lane tapes to native code.
pub trait LaneCompiler: Send + Sync + Debug {
    /// Native code for each lane tape, in the order given (`None` where one stays
    /// interpreted), each with its role (`step`, `rate`, `margins`, `observe`).
    fn compile_lanes(&self, tapes: &[(&'static str, &Tape)]) -> Vec<Option<Arc<dyn NativeLanes>>>;
}

/// When a [`LaneProgram`](crate::LaneProgram) asks its [`LaneCompiler`] for native code: once
/// per program, shared by every batch and thread of the ensemble.
#[derive(Clone, Debug)]
pub struct LaneTier {
    /// The compiler.
    pub compiler: Arc<dyn LaneCompiler>,
    /// Lane-tape instructions (each a row of [`WIDTH`] lanes) still to interpret before
    /// compiling; zero compiles at the first call.
    pub budget: u64,
}

impl LaneTier {
    /// Compiles once the lane tapes have interpreted `per_instruction` rows for each
    /// instruction there is to compile (`size`), plus `fixed` rows: as [`Tier::after_work`],
    /// counted in rows because one lane instruction does [`WIDTH`] lanes' work.
    pub fn after_rows(
        compiler: Arc<dyn LaneCompiler>,
        size: usize,
        per_instruction: u64,
        fixed: u64,
    ) -> LaneTier {
        LaneTier {
            compiler,
            budget: (size as u64)
                .saturating_mul(per_instruction)
                .saturating_add(fixed),
        }
    }

    /// Compiles at the first call.
    pub fn at_once(compiler: Arc<dyn LaneCompiler>) -> LaneTier {
        LaneTier {
            compiler,
            budget: 0,
        }
    }
}
