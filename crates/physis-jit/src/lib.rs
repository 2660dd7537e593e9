//! Native code for `physis run`: a model's tapes (`physis_ir::Tape`) compiled with Cranelift
//! into functions that compute the same bits into the same registers, handed to the
//! interpreter's [`TapeModel`] through [`physis_ir::TapeCompiler`].
//!
//! What is compiled: every instruction of a scalar model (loads, arithmetic, every unary and
//! binary operation, powers, selects, and arrays unrolled slot by slot up to
//! [`MAX_SLOTS`](codegen::MAX_SLOTS)), for each tape a run calls more than once (rate, step or
//! stages, Jacobians, margins, observe, resets). A tape holding a stencil, reduction, pivot
//! pick or linear solve stays interpreted, per tape, and [`JitReport`] says which. An
//! ensemble's lane tapes (`physis_ir::LaneProgram`) compile to code over pairs of lanes
//! (`lanes`), handed over through [`physis_ir::LaneCompiler`] and tiered by [`tier_lanes`].
//!
//! Same bits: `+ − · /`, negation, absolute value, square root and comparisons are single
//! IEEE operations in both, no multiply is fused into an add (Cranelift fuses only when asked),
//! and every other function is a call of the same `physis_runtime::scalar` function the tape
//! calls ([`libm`]). `tests/jit.rs` runs the examples both ways and compares the final states
//! bit for bit.
//!
//! When: compiling costs about as much as interpreting a few thousand steps of a small model,
//! so [`tier`] starts a run on the tapes and compiles once they have done as much work
//! (`Tier::after_work`); `--jit` compiles at once and `--no-jit` never.
//!
//! Unsafe code is allowed in this crate alone (its Cargo.toml), and used in one place,
//! `native.rs`, to call the compiled code.

mod codegen;
mod lanes;
mod libm;
mod native;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module, default_libcall_names};
use physis_ir::{
    LaneCompiler, LaneProgram, LaneTier, NativeLanes, NativeTape, Tape, TapeCompiler, TapeModel,
    Tier,
};

pub use codegen::MAX_SLOTS;

/// What the JIT did for one model.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JitReport {
    /// Roles compiled to native code, in the model's order (`rate`, `step`, ...).
    pub compiled: Vec<&'static str>,
    /// Roles left to the tape, each with the reason.
    pub interpreted: Vec<(&'static str, String)>,
    /// Wall time spent compiling.
    pub compile_time: Duration,
    /// Why nothing could be compiled at all (no native target, a Cranelift error).
    pub failure: Option<String>,
}

impl fmt::Display for JitReport {
    /// `jit: rate, step, margins (compile 1.8 ms); tape: observe (reduce)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(why) = &self.failure {
            return write!(f, "interpreter (jit failed: {why})");
        }
        if self.compiled.is_empty() {
            write!(f, "interpreter")?;
        } else {
            write!(
                f,
                "jit: {} (compile {:.2} ms)",
                dedup(self.compiled.iter().copied()).join(", "),
                self.compile_time.as_secs_f64() * 1e3
            )?;
        }
        if !self.interpreted.is_empty() {
            let parts: Vec<String> = dedup_pairs(&self.interpreted);
            write!(f, "; tape: {}", parts.join(", "))?;
        }
        Ok(())
    }
}

fn dedup<'a>(it: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for s in it {
        if !v.contains(&s) {
            v.push(s);
        }
    }
    v
}

fn dedup_pairs(v: &[(&'static str, String)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (role, why) in v {
        let s = format!("{role} ({why})");
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The Cranelift compiler of tapes. It records what it did in a report shared by its
/// clones, so a caller that hands one to a model keeps a clone to read it after the run.
#[derive(Debug, Clone, Default)]
pub struct Jit {
    report: Arc<Mutex<Option<JitReport>>>,
    lane_report: Arc<Mutex<Option<JitReport>>>,
}

impl Jit {
    /// A compiler with an empty report.
    pub fn new() -> Self {
        Self::default()
    }

    /// What the last compilation did, or `None` if the model never asked (a run too short
    /// to repay compiling).
    pub fn report(&self) -> Option<JitReport> {
        self.report.lock().ok().and_then(|r| r.clone())
    }

    /// What the last compilation of lane tapes did, or `None` if no ensemble asked.
    pub fn lane_report(&self) -> Option<JitReport> {
        self.lane_report.lock().ok().and_then(|r| r.clone())
    }

    /// Compiles lane tapes, recording a lane report.
    pub fn compile_lane_tapes(
        &self,
        tapes: &[(&'static str, &Tape)],
    ) -> Vec<Option<Arc<dyn NativeLanes>>> {
        let start = Instant::now();
        let mut report = JitReport::default();
        let only: Vec<&Tape> = tapes.iter().map(|(_, t)| *t).collect();
        let out = match compile_module(tapes, &LANES, &mut report) {
            Ok(Some(done)) => done.lanes(&only),
            Ok(None) => vec![None; tapes.len()],
            Err(why) => {
                report.failure = Some(why);
                vec![None; tapes.len()]
            }
        };
        report.compile_time = start.elapsed();
        if let Ok(mut r) = self.lane_report.lock() {
            *r = Some(report);
        }
        out
    }

    /// Compiles `tapes`, recording a report.
    pub fn compile_tapes(
        &self,
        tapes: &[(&'static str, Arc<Tape>)],
    ) -> Vec<Option<Arc<dyn NativeTape>>> {
        let start = Instant::now();
        let mut report = JitReport::default();
        let refs: Vec<(&'static str, &Tape)> = tapes.iter().map(|(r, t)| (*r, &**t)).collect();
        let only: Vec<&Tape> = refs.iter().map(|(_, t)| *t).collect();
        let out = match compile_module(&refs, &SCALAR, &mut report) {
            Ok(Some(done)) => done.scalar(&only),
            Ok(None) => vec![None; tapes.len()],
            Err(why) => {
                report.failure = Some(why);
                vec![None; tapes.len()]
            }
        };
        report.compile_time = start.elapsed();
        if let Ok(mut r) = self.report.lock() {
            *r = Some(report);
        }
        out
    }
}

impl TapeCompiler for Jit {
    fn compile(&self, tapes: &[(&'static str, Arc<Tape>)]) -> Vec<Option<Arc<dyn NativeTape>>> {
        self.compile_tapes(tapes)
    }
}

impl LaneCompiler for Jit {
    fn compile_lanes(&self, tapes: &[(&'static str, &Tape)]) -> Vec<Option<Arc<dyn NativeLanes>>> {
        self.compile_lane_tapes(tapes)
    }
}

/// Interpreted tape instructions per instruction to compile before a tiered run compiles
/// (measured: compiling costs about as much as interpreting each compiled instruction this
/// many times; see docs/performance.md).
pub const WORK_PER_INSTRUCTION: u64 = 2_000;

/// Interpreted instructions a tiered run does before compiling, beside
/// [`WORK_PER_INSTRUCTION`]: the fixed cost of a JIT module.
pub const WORK_FIXED: u64 = 100_000;

/// When to compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Never (`--no-jit`).
    Never,
    /// Once the tapes have done as much work as compiling costs (the default).
    Tiered,
    /// Before the first call (`--jit`).
    AtOnce,
}

/// Hands `jit` to `model` to compile `when` asked; read [`Jit::report`] after the run.
pub fn tier(model: &mut TapeModel, jit: &Jit, when: When) {
    let compiler: Arc<dyn TapeCompiler> = Arc::new(jit.clone());
    match when {
        When::Never => {}
        When::AtOnce => model.set_tier(Tier::at_once(compiler)),
        When::Tiered => {
            let size = model.hot_size();
            model.set_tier(Tier::after_work(
                compiler,
                size,
                WORK_PER_INSTRUCTION,
                WORK_FIXED,
            ));
        }
    }
}

/// Interpreted lane rows (one instruction over all 64 lanes) per lane instruction to compile
/// before a tiered ensemble compiles its lane program. A row does the work of 64 scalar
/// instructions at a fraction of their dispatch; this is [`WORK_PER_INSTRUCTION`] scaled by
/// the measured ratio of the two (docs/performance.md, "Lanes in the JIT").
pub const LANE_ROWS_PER_INSTRUCTION: u64 = 200;

/// Interpreted lane rows before compiling, beside [`LANE_ROWS_PER_INSTRUCTION`]: the fixed
/// cost of a JIT module.
pub const LANE_ROWS_FIXED: u64 = 10_000;

/// Hands `jit` to an ensemble's lane program to compile `when` asked (once per program);
/// read [`Jit::lane_report`] after the run.
pub fn tier_lanes(program: &LaneProgram, jit: &Jit, when: When) {
    let compiler: Arc<dyn LaneCompiler> = Arc::new(jit.clone());
    match when {
        When::Never => {}
        When::AtOnce => program.set_tier(LaneTier::at_once(compiler)),
        When::Tiered => program.set_tier(LaneTier::after_rows(
            compiler,
            program.size(),
            LANE_ROWS_PER_INSTRUCTION,
            LANE_ROWS_FIXED,
        )),
    }
}

/// How one kind of tape is translated: which tapes it takes and how it fills a function.
struct Translation {
    check: fn(&Tape) -> Result<(), codegen::Unsupported>,
    translate: fn(
        &mut JITModule,
        &mut FunctionBuilder<'_>,
        &mut codegen::Calls<'_>,
        &Tape,
    ) -> Result<(), codegen::Unsupported>,
}

/// Scalar tapes ([`codegen`]).
const SCALAR: Translation = Translation {
    check: codegen::check,
    translate: codegen::translate::<JITModule>,
};

/// Lane tapes ([`lanes`]).
const LANES: Translation = Translation {
    check: lanes::check,
    translate: lanes::translate::<JITModule>,
};

/// Compiles `tapes` into one module with `how`, recording in `report` what compiled and
/// what stays interpreted; `None` when nothing compiles.
fn compile_module(
    tapes: &[(&'static str, &Tape)],
    how: &Translation,
    report: &mut JitReport,
) -> Result<Option<native::Compiled>, String> {
    // Which tapes compile, decided before any Cranelift work.
    let wanted: Vec<bool> = tapes
        .iter()
        .map(|(role, tape)| match (how.check)(tape) {
            Ok(()) => true,
            Err(why) => {
                report.interpreted.push((*role, describe(&why)));
                false
            }
        })
        .collect();
    if !wanted.iter().any(|w| *w) {
        return Ok(None);
    }
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, k: &str, v: &str| {
        flags.set(k, v).map_err(|e| format!("setting {k}: {e}"))
    };
    set(&mut flags, "opt_level", "speed")?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    // The verifier checks Cranelift's own invariants; our translation is tested instead.
    set(
        &mut flags,
        "enable_verifier",
        if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        },
    )?;
    let isa = cranelift_native::builder()
        .map_err(|e| format!("no native target: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("no native target: {e}"))?;
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    let symbols = libm::symbols();
    for (name, addr) in &symbols {
        builder.symbol(*name, *addr);
    }
    let mut module = JITModule::new(builder);
    let sig = codegen::signature(&module);
    let mut call_sig = module.make_signature();
    let mut ids: HashMap<&'static str, FuncId> = HashMap::new();
    for (name, _) in &symbols {
        call_sig.clear(module.isa().default_call_conv());
        let f64t = cranelift_codegen::ir::types::F64;
        use cranelift_codegen::ir::AbiParam;
        let arity = if *name == libm::POWI {
            call_sig.params.push(AbiParam::new(f64t));
            call_sig
                .params
                .push(AbiParam::new(cranelift_codegen::ir::types::I32));
            0
        } else if physis_runtime::scalar::BinOp::ALL
            .iter()
            .any(|op| libm::binary(*op).is_some_and(|(n, _)| n == *name))
        {
            2
        } else {
            1
        };
        for _ in 0..arity {
            call_sig.params.push(AbiParam::new(f64t));
        }
        call_sig.returns.push(AbiParam::new(f64t));
        let id = module
            .declare_function(name, Linkage::Import, &call_sig)
            .map_err(|e| format!("declaring {name}: {e}"))?;
        ids.insert(*name, id);
    }

    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    let mut defined: Vec<Option<FuncId>> = vec![None; tapes.len()];
    for (i, ((role, tape), want)) in tapes.iter().zip(&wanted).enumerate() {
        if !want {
            continue;
        }
        let id = module
            .declare_function(&format!("tape{i}"), Linkage::Local, &sig)
            .map_err(|e| format!("declaring tape {i}: {e}"))?;
        ctx.func.signature = sig.clone();
        ctx.func.name = cranelift_codegen::ir::UserFuncName::user(0, id.as_u32());
        let built = {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let mut calls = codegen::Calls::new(&ids);
            let r = (how.translate)(&mut module, &mut b, &mut calls, tape);
            if r.is_ok() {
                b.finalize(module.target_config());
            }
            r
        };
        match built {
            Ok(()) => match module.define_function(id, &mut ctx) {
                Ok(()) => {
                    defined[i] = Some(id);
                    report.compiled.push(*role);
                }
                Err(e) => report.interpreted.push((*role, format!("cranelift: {e}"))),
            },
            Err(why) => report.interpreted.push((*role, describe(&why))),
        }
        module.clear_context(&mut ctx);
    }
    native::Compiled::finalize(module, &defined).map(Some)
}

fn describe(why: &codegen::Unsupported) -> String {
    match why {
        codegen::Unsupported::Instruction(what) => (*what).to_string(),
        codegen::Unsupported::TooLarge(n) => format!("{n} slots unrolled, over {MAX_SLOTS}"),
        codegen::Unsupported::Register => "malformed tape".to_string(),
    }
}
