//! Tapes run over a batch of ensemble members at once ([`physis_runtime::LaneKernel`]).
//!
//! A lane tape is an ordinary [`Tape`] whose every register holds [`WIDTH`] values, one per
//! member: each instruction is dispatched once and applied to the whole row, so the
//! interpreter's per-instruction cost is shared by the batch and the row loops vectorise.
//! Parameters stay loads (one value per lane) instead of being folded in; folding applies
//! exactly the operations the loads then feed (see [`crate::bind_params`]), so a lane
//! computes the same bits as its member's own [`crate::TapeModel`]. Only scalar
//! instructions have lane forms: a model with arrays (grids, vector states) runs member by
//! member. A [`LaneTier`] hands the lane tapes to native code (`physis-jit`) once an
//! ensemble has interpreted enough rows to repay compiling them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use physis_runtime::{LaneKernel, StepArgs};

use crate::error::IrError;
use crate::interpreter::fuse::fuse;
use crate::interpreter::lane_code::{Op, lower, run_code};
use crate::interpreter::native::{LaneArgs, LaneCompiler, LaneTier, NativeLanes};
use crate::interpreter::tape::{Ins, Tape};
use crate::ir::{Function, Source};
use crate::model::IrModel;
use crate::step::SchemeFns;

/// Members per batch. Wide enough to share the dispatch, small enough that a tape's
/// registers stay in the first-level cache.
pub const WIDTH: usize = 64;

/// One register: a value per lane.
pub(crate) type Row = [f64; WIDTH];

/// What a slot not given reads (as in the scalar tape).
pub(crate) static NAN_ROW: Row = [f64::NAN; WIDTH];

/// The inputs of a lane tape, slot-major (slot `k` of lane `l` at `k·WIDTH + l`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LaneInputs<'a> {
    t: f64,
    /// A time per lane, read instead of `t` when given.
    ts: Option<&'a Row>,
    h: f64,
    y: &'a [f64],
    f0: &'a [f64],
    p: &'a [f64],
    dw: &'a [f64],
    rate: &'a [f64],
}

impl<'a> LaneInputs<'a> {
    /// Slot `k` of `src` in place (`src` one of those with a row per slot).
    #[inline(always)]
    pub(crate) fn row(&self, src: Source, k: u32) -> &'a Row {
        let s: &'a [f64] = match src {
            Source::State => self.y,
            Source::F0 => self.f0,
            Source::Param => self.p,
            Source::Dw => self.dw,
            Source::Rate => self.rate,
            _ => &[],
        };
        let k = k as usize * WIDTH;
        s.get(k..k + WIDTH)
            .and_then(|r| <&Row>::try_from(r).ok())
            .unwrap_or(&NAN_ROW)
    }

    /// The same inputs for native code, `t` spread over `row` unless each lane has its own.
    fn args<'r>(&'r self, row: &'r mut Row) -> LaneArgs<'r> {
        let ts = match self.ts {
            Some(ts) => ts,
            None => {
                row.fill(self.t);
                let row: &'r Row = row;
                row
            }
        };
        LaneArgs {
            ts,
            h: self.h,
            y: self.y,
            f0: self.f0,
            p: self.p,
            dw: self.dw,
            rate: self.rate,
        }
    }

    /// Loads slot `k` of `src` into `out`.
    #[inline(always)]
    pub(crate) fn load(&self, src: Source, k: u32, out: &mut Row) {
        match src {
            Source::T => match self.ts {
                Some(ts) => out.copy_from_slice(ts),
                None => out.fill(self.t),
            },
            Source::H => out.fill(self.h),
            _ => out.copy_from_slice(self.row(src, k)),
        }
    }
}

/// A [`Tape`] of scalar instructions, run over [`WIDTH`] lanes.
#[derive(Clone, Debug)]
struct LaneTape {
    tape: Tape,
    /// The tape's code with multiply-adds fused and inputs read in place.
    code: Vec<Op>,
}

/// Whether every lane of the parameter rows `p` gives the tape the same inputs but for
/// `t`: it loads no state, rate or noise, and each parameter it loads is equal in every
/// lane (to the bit).
fn same_in_every_lane(tape: &Tape, p: &[f64]) -> bool {
    tape.code.iter().all(|i| match *i {
        Ins::Load {
            src: Source::T | Source::H,
            ..
        } => true,
        Ins::Load {
            src: Source::Param,
            k,
            ..
        } => {
            let k = k as usize * WIDTH;
            p.get(k..k + WIDTH)
                .is_some_and(|row| row.iter().all(|v| v.to_bits() == row[0].to_bits()))
        }
        Ins::Load { .. } => false,
        _ => true,
    })
}

impl LaneTape {
    /// The lane form of `f`, or `None` when it has array instructions.
    fn compile(f: &Function) -> Result<Option<Self>, IrError> {
        let tape = Tape::compile(f)?;
        let scalar = tape.code.iter().all(|i| {
            matches!(
                i,
                Ins::Load { .. }
                    | Ins::Add { .. }
                    | Ins::Sub { .. }
                    | Ins::Mul { .. }
                    | Ins::Div { .. }
                    | Ins::Neg { .. }
                    | Ins::Un { .. }
                    | Ins::Bin { .. }
                    | Ins::Powi { .. }
                    | Ins::Select { .. }
                    | Ins::Copy { .. }
            )
        });
        Ok(scalar.then(|| Self {
            code: lower(&fuse(&tape.code, &tape.flat), &tape.flat, tape.init.len()),
            tape,
        }))
    }

    fn registers(&self) -> Vec<Row> {
        self.tape.init.iter().map(|&v| [v; WIDTH]).collect()
    }

    fn run(&self, regs: &mut [Row], inp: &LaneInputs<'_>) {
        run_code(&self.code, regs, inp);
    }

    /// Output slots `from..from + out.len() / WIDTH` into `out`, slot-major.
    fn write(&self, regs: &[Row], from: usize, out: &mut [f64]) {
        for (row, r) in out
            .chunks_exact_mut(WIDTH)
            .zip(self.tape.flat.iter().skip(from))
        {
            row.copy_from_slice(&regs[*r as usize]);
        }
    }
}

/// The lane tapes of a program, by role, in [`LaneProgram::tapes`]' order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    Step = 0,
    Rate = 1,
    Margins = 2,
    Observe = 3,
}

/// A model's lane tapes, compiled once and shared by every batch of an ensemble, with
/// native code for them once a [`LaneTier`] asks for it (once per program, whichever batch
/// or thread spends the budget).
#[derive(Debug)]
pub struct LaneProgram {
    dim: usize,
    fsal: bool,
    params: usize,
    step: LaneTape,
    rate: LaneTape,
    margins: LaneTape,
    observe: LaneTape,
    /// The tier, taken by the call that compiles.
    tier: Mutex<Option<LaneTier>>,
    /// Rows still to interpret before compiling (`u64::MAX`: no tier).
    left: AtomicU64,
    /// Native code by [`Which`], once compiled.
    native: OnceLock<[Option<Arc<dyn NativeLanes>>; 4]>,
}

impl LaneProgram {
    /// The lane tapes of `model`, or `None` when it cannot run in lanes: an implicit or
    /// adaptive scheme, or arrays anywhere in its functions.
    pub fn new(model: &IrModel) -> Result<Option<Arc<Self>>, IrError> {
        let SchemeFns::Explicit {
            step,
            adaptive: false,
            fsal,
            ..
        } = &model.scheme.fns
        else {
            return Ok(None);
        };
        let (Some(step), Some(rate), Some(margins), Some(observe)) = (
            LaneTape::compile(step)?,
            LaneTape::compile(&model.rate)?,
            LaneTape::compile(&model.margins)?,
            LaneTape::compile(&model.observe)?,
        ) else {
            return Ok(None);
        };
        Ok(Some(Arc::new(Self {
            dim: model.dynamics.dim(),
            fsal: *fsal,
            params: model.param_len(),
            step,
            rate,
            margins,
            observe,
            tier: Mutex::new(None),
            left: AtomicU64::new(u64::MAX),
            native: OnceLock::new(),
        })))
    }

    /// The lane tapes with their roles, in [`Which`] order.
    fn tapes(&self) -> [(&'static str, &Tape); 4] {
        [
            ("step", &self.step.tape),
            ("rate", &self.rate.tape),
            ("margins", &self.margins.tape),
            ("observe", &self.observe.tape),
        ]
    }

    /// Instructions in the lane tapes (for a [`LaneTier::after_rows`] budget).
    pub fn size(&self) -> usize {
        self.tapes().iter().map(|(_, t)| t.len()).sum()
    }

    /// Asks `tier.compiler` for native code once the lane tapes have interpreted
    /// `tier.budget` rows, counted over every batch of the program (at the first call for a
    /// budget of zero). The bits are the same either way.
    pub fn set_tier(&self, tier: LaneTier) {
        let budget = tier.budget;
        if budget == 0 {
            self.compile_native(&*tier.compiler);
            return;
        }
        if let Ok(mut t) = self.tier.lock() {
            *t = Some(tier);
            self.left.store(budget, Ordering::Relaxed);
        }
    }

    /// Compiles now through `compiler` (a second call does nothing).
    pub fn compile_native(&self, compiler: &dyn LaneCompiler) {
        self.left.store(u64::MAX, Ordering::Relaxed);
        self.native.get_or_init(|| {
            let got = compiler.compile_lanes(&self.tapes());
            let mut out: [Option<Arc<dyn NativeLanes>>; 4] = Default::default();
            for (slot, n) in out.iter_mut().zip(got) {
                *slot = n;
            }
            out
        });
    }

    /// Whether native code has been compiled for this program.
    pub fn is_native(&self) -> bool {
        self.native.get().is_some()
    }

    /// Counts `rows` interpreted rows against the tier's budget, compiling when spent.
    #[inline]
    fn tick(&self, rows: usize) {
        let left = self.left.load(Ordering::Relaxed);
        if left == u64::MAX {
            return;
        }
        let rows = rows as u64;
        if left > rows {
            // Another batch may count at the same time: the budget is a rule of thumb, and
            // a lost count only compiles a little later.
            self.left.store(left - rows, Ordering::Relaxed);
            return;
        }
        let tier = self.tier.lock().ok().and_then(|mut t| t.take());
        if let Some(tier) = tier {
            self.compile_native(&*tier.compiler);
        }
    }

    /// Runs the lane tape `which` over `regs`: natively when compiled (and able), else
    /// interpreted and counted.
    #[inline]
    fn run(&self, which: Which, regs: &mut [Row], inp: &LaneInputs<'_>) {
        let tape = match which {
            Which::Step => &self.step,
            Which::Rate => &self.rate,
            Which::Margins => &self.margins,
            Which::Observe => &self.observe,
        };
        if let Some(native) = self.native.get().and_then(|n| n[which as usize].as_ref()) {
            let mut row = [0.0; WIDTH];
            if native.run(regs.as_flattened_mut(), &inp.args(&mut row)) {
                return;
            }
        }
        tape.run(regs, inp);
        self.tick(tape.code.len());
    }

    /// A kernel for members with these parameter vectors (at most [`WIDTH`]; lanes past
    /// them repeat the first). `None` when a vector has the wrong length or there are
    /// none or too many.
    pub fn kernel(self: &Arc<Self>, params: &[Vec<f64>]) -> Option<TapeLanes> {
        if params.is_empty()
            || params.len() > WIDTH
            || params.iter().any(|p| p.len() != self.params)
        {
            return None;
        }
        let mut p = vec![0.0; self.params * WIDTH];
        for l in 0..WIDTH {
            let own = params.get(l).unwrap_or(&params[0]);
            for (k, v) in own.iter().enumerate() {
                p[k * WIDTH + l] = *v;
            }
        }
        Some(TapeLanes {
            uniform_margins: same_in_every_lane(&self.margins.tape, &p),
            step: self.step.registers(),
            rate: self.rate.registers(),
            margins: self.margins.registers(),
            observe: self.observe.registers(),
            prog: Arc::clone(self),
            p,
        })
    }
}

/// A batch of [`WIDTH`] members run by lane tapes.
#[derive(Debug)]
pub struct TapeLanes {
    prog: Arc<LaneProgram>,
    p: Vec<f64>,
    /// The margins are the same function of `t` in every lane.
    uniform_margins: bool,
    step: Vec<Row>,
    rate: Vec<Row>,
    margins: Vec<Row>,
    observe: Vec<Row>,
}

impl LaneKernel for TapeLanes {
    fn lanes(&self) -> usize {
        WIDTH
    }

    fn step(&mut self, args: &StepArgs<'_>, next: &mut [f64], f1: &mut [f64]) {
        let inp = LaneInputs {
            t: args.t,
            h: args.h,
            y: args.y,
            f0: args.f0,
            p: &self.p,
            dw: args.dw,
            ..LaneInputs::default()
        };
        self.prog.run(Which::Step, &mut self.step, &inp);
        // `next`, then `f1` when fsal (an adaptive error never reaches lanes).
        self.prog.step.write(&self.step, 0, next);
        if self.prog.fsal {
            self.prog.step.write(&self.step, self.prog.dim, f1);
        }
    }

    fn rate(&mut self, t: f64, y: &[f64], out: &mut [f64]) {
        let inp = LaneInputs {
            t,
            y,
            p: &self.p,
            ..LaneInputs::default()
        };
        self.prog.run(Which::Rate, &mut self.rate, &inp);
        self.prog.rate.write(&self.rate, 0, out);
    }

    fn margins(&mut self, t: f64, out: &mut [f64]) {
        let inp = LaneInputs {
            t,
            p: &self.p,
            ..LaneInputs::default()
        };
        self.prog.run(Which::Margins, &mut self.margins, &inp);
        self.prog.margins.write(&self.margins, 0, out);
    }

    fn margins_ahead(&mut self, ts: &[f64], out: &mut [f64]) -> bool {
        let Some(&last) = ts.last() else {
            return false;
        };
        if !self.uniform_margins || ts.len() > WIDTH {
            return false;
        }
        // Lane `j` evaluates time `j` (lanes past `ts` repeat its last time).
        let row: Row = std::array::from_fn(|j| ts.get(j).copied().unwrap_or(last));
        let inp = LaneInputs {
            ts: Some(&row),
            p: &self.p,
            ..LaneInputs::default()
        };
        self.prog.run(Which::Margins, &mut self.margins, &inp);
        self.prog.margins.write(&self.margins, 0, out);
        true
    }

    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let inp = LaneInputs {
            t,
            y,
            rate: dydt,
            p: &self.p,
            ..LaneInputs::default()
        };
        self.prog.run(Which::Observe, &mut self.observe, &inp);
        self.prog.observe.write(&self.observe, 0, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::interpreter::lane_code::Op;
    use crate::interpreter::tape::Inputs;

    /// Every lane of a lane tape equals the scalar tape on that lane's inputs, bit for bit,
    /// with products fused into the adds and subtracts that alone read them.
    #[test]
    fn lane_tapes_fuse_and_match_the_scalar_tape() -> Result<(), IrError> {
        let mut b = Builder::new();
        let (x, y, z) = (
            b.load(Source::State, 0),
            b.load(Source::State, 1),
            b.load(Source::Param, 0),
        );
        let xz = b.mul(x, z)?;
        let o0 = b.add(xz, y)?; // y + x·z, its operands live on: fused
        let xy = b.mul(x, y)?;
        let o1 = b.add(xy, z)?; // z + x·y (the product also read below: not fused)
        let o2 = b.sub(xy, z)?;
        let xx = b.mul(x, x)?;
        let zz = b.mul(z, y)?;
        let o3 = b.sub(zz, xx)?; // z·y − x·x
        let s = b.unary(crate::ir::UnOp::Sin, o3)?;
        let yz = b.mul(y, z)?;
        let o4 = b.sub(s, yz)?; // sin(...) − y·z (y·z hash-conses with z·y)
        // `z` is an output as loaded: its load stays, the other inputs are read in place.
        let f = b.finish("f", &[o0, o1, o2, o3, o4, z])?;
        let lane = LaneTape::compile(&f)?.expect("scalar");
        let fused = lane
            .code
            .iter()
            .filter(|i| matches!(i, Op::Fused { .. }))
            .count();
        // x·z is fused; x·y (read twice), x·x (x's register reused before the subtract)
        // and z·y (shared with y·z) are not.
        assert_eq!(fused, 1, "{:?}", lane.code);
        assert!(lane.code.len() < lane.tape.code.len());
        let loads: Vec<_> = lane
            .code
            .iter()
            .filter_map(|i| match i {
                Op::Load { src, k, .. } => Some((*src, *k)),
                _ => None,
            })
            .collect();
        assert_eq!(loads, [(Source::Param, 0)], "{:?}", lane.code);
        let mut ys = vec![0.0; 2 * WIDTH];
        let mut ps = vec![0.0; WIDTH];
        for l in 0..WIDTH {
            let v = l as f64;
            ys[l] = 0.1 * v - 1.7;
            ys[WIDTH + l] = 1.0 / (v + 0.3);
            ps[l] = (v * 0.37).sin() * 1e3;
        }
        ys[3] = f64::INFINITY;
        ys[WIDTH + 5] = f64::NAN;
        let mut regs = lane.registers();
        let inp = LaneInputs {
            y: &ys,
            p: &ps,
            ..LaneInputs::default()
        };
        lane.run(&mut regs, &inp);
        let mut out = vec![0.0; 6 * WIDTH];
        lane.write(&regs, 0, &mut out);
        let mut sregs = lane.tape.registers();
        for l in 0..WIDTH {
            let (y0, p0) = ([ys[l], ys[WIDTH + l]], [ps[l]]);
            lane.tape.run(
                &mut sregs,
                &Inputs {
                    y: &y0,
                    p: &p0,
                    ..Inputs::default()
                },
            );
            let mut want = [0.0; 6];
            lane.tape.write(&sregs, 0, &mut want);
            for (k, w) in want.iter().enumerate() {
                assert_eq!(
                    out[k * WIDTH + l].to_bits(),
                    w.to_bits(),
                    "lane {l} out {k}"
                );
            }
        }
        Ok(())
    }
}
