//! Native code for tapes, supplied from outside this crate (`physis-jit` compiles tapes with
//! Cranelift): the two traits a native back end implements, and the rule for when a
//! [`TapeModel`](crate::TapeModel) asks for it.
//!
//! A native tape computes exactly what [`Tape::run`] computes, into the same register file,
//! so the model can switch from the tape to native code at any call without changing a bit
//! of the run. That is what makes tiering safe: a run starts on the tapes, and once the
//! tapes have done as much work as compiling them would cost, the model compiles them and
//! carries on natively ([`Tier`]).

use std::fmt::Debug;
use std::sync::Arc;

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
