//! The tape: a [`Function`] compiled to a flat list of instructions over one register
//! file. Constants are preset in the registers, registers are reused once a value is dead,
//! and running a tape allocates nothing and walks no tree.

use std::collections::HashMap;

use crate::error::IrError;
use crate::eval;
use crate::ir::{Bc, BinOp, Function, Grid, Op, ReduceOp, Source, StencilOp, Ty, UnOp};
use crate::kernels::{self, BcValue};

/// The inputs a tape may read; unused ones stay empty.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    /// `t`.
    pub t: f64,
    /// `h`.
    pub h: f64,
    /// The state.
    pub y: &'a [f64],
    /// `f(t, y)` at the step's start.
    pub f0: &'a [f64],
    /// Parameters.
    pub p: &'a [f64],
    /// Wiener increments.
    pub dw: &'a [f64],
    /// Implicit unknown `next`.
    pub guess: &'a [f64],
    /// `dydt` for conditions, observes and resets.
    pub rate: &'a [f64],
    /// Tangent direction.
    pub seed: &'a [f64],
    /// The implicit stages solved earlier in the step, one state after another.
    pub stages: &'a [f64],
}

impl Inputs<'_> {
    #[inline]
    fn get(&self, src: Source, k: u32) -> f64 {
        let s = match src {
            Source::T => return self.t,
            Source::H => return self.h,
            Source::State => self.y,
            Source::F0 => self.f0,
            Source::Param => self.p,
            Source::Dw => self.dw,
            Source::Guess => self.guess,
            Source::Rate => self.rate,
            Source::Seed => self.seed,
            Source::Stages => self.stages,
            // Noise never reaches a tape: laws are split into drift and diffusion first.
            Source::Noise => return 0.0,
        };
        s.get(k as usize).copied().unwrap_or(f64::NAN)
    }

    /// `out[k] = get(src, off + k)` for every `k`, copying a whole slice at once.
    #[inline]
    fn get_range(&self, src: Source, off: u32, out: &mut [f64]) {
        let s = match src {
            Source::State => self.y,
            Source::F0 => self.f0,
            Source::Param => self.p,
            Source::Dw => self.dw,
            Source::Guess => self.guess,
            Source::Rate => self.rate,
            Source::Seed => self.seed,
            Source::Stages => self.stages,
            Source::T | Source::H | Source::Noise => {
                out.fill(self.get(src, off));
                return;
            }
        };
        let off = off as usize;
        let have = s.len().saturating_sub(off).min(out.len());
        if have > 0 {
            out[..have].copy_from_slice(&s[off..off + have]);
        }
        out[have..].fill(f64::NAN);
    }
}

/// One instruction of a tape, over register indices (`d` the destination, `a`, `b`, `c`
/// operands; an array occupies `n` consecutive registers, and a stride `s·` of 0 broadcasts a
/// scalar operand). Public so that a native back end (`physis-jit`) can translate a tape
/// instruction by instruction; [`Tape::run`] is its meaning.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // the fields are named as in `Tape::run`, which documents them by use
pub enum Ins {
    /// `d = input(src)[k]` (NaN past the input's end).
    Load { d: u32, src: Source, k: u32 },
    /// `d..d+n = input(src)[off..off+n]` (NaN past the input's end).
    LoadRange {
        d: u32,
        src: Source,
        off: u32,
        n: u32,
    },
    /// `d = a + b`.
    Add { d: u32, a: u32, b: u32 },
    /// `d = a − b`.
    Sub { d: u32, a: u32, b: u32 },
    /// `d = a · b`.
    Mul { d: u32, a: u32, b: u32 },
    /// `d = a / b`.
    Div { d: u32, a: u32, b: u32 },
    /// `d = −a`.
    Neg { d: u32, a: u32 },
    /// `d = op a` ([`UnOp::apply`]).
    Un { op: UnOp, d: u32, a: u32 },
    /// `d = a op b` ([`BinOp::apply`]).
    Bin { op: BinOp, d: u32, a: u32, b: u32 },
    /// `d = aⁿ` ([`eval::powi`]).
    Powi { d: u32, a: u32, n: i32 },
    /// `d = c ≠ 0 ? a : b` ([`eval::select`]).
    Select { d: u32, c: u32, a: u32, b: u32 },
    /// `d = a`.
    Copy { d: u32, a: u32 },
    /// Elementwise [`Ins::Un`] over `n` registers.
    VUn { op: UnOp, d: u32, a: u32, n: u32 },
    /// Elementwise [`Ins::Bin`]: `d+k = (a+k·sa) op (b+k·sb)`.
    VBin {
        op: BinOp,
        d: u32,
        a: u32,
        b: u32,
        n: u32,
        sa: u32,
        sb: u32,
    },
    /// Elementwise [`Ins::Powi`].
    VPowi { d: u32, a: u32, p: i32, n: u32 },
    /// Elementwise [`Ins::Select`] with strides.
    VSelect {
        d: u32,
        c: u32,
        a: u32,
        b: u32,
        n: u32,
        sc: u32,
        sa: u32,
        sb: u32,
    },
    /// `d+k = src[k]`.
    Pack { d: u32, src: Box<[u32]> },
    /// `d+k = a` for `k < n`.
    Splat { d: u32, a: u32, n: u32 },
    /// `d+k = a + idx[k]`.
    Gather { d: u32, a: u32, idx: Box<[u32]> },
    /// A stencil over a grid (`kernels::stencil`).
    Stencil {
        op: StencilOp,
        grid: Grid,
        d: u32,
        u: u32,
        dx: u32,
        dy: u32,
        bc: BcReg,
    },
    /// `d = reduce(a..a+n)` (`kernels::reduce`).
    Reduce {
        op: ReduceOp,
        d: u32,
        a: u32,
        n: u32,
    },
    /// `d = kernels::pick_max_abs(u..u+n, du..du+n)`.
    PickMaxAbs { d: u32, u: u32, du: u32, n: u32 },
    /// `d = M⁻¹·b`, with `n²` scratch registers at `s` for the elimination.
    Solve {
        d: u32,
        m: u32,
        b: u32,
        n: u32,
        s: u32,
    },
}

/// The boundary value of a stencil, as a register.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BcReg {
    /// Fixed value, held in this register.
    Dirichlet(u32),
    /// Fixed outward slope, held in this register.
    Neumann(u32),
    /// Wraps around.
    Periodic,
}

/// A compiled function.
#[derive(Clone, Debug, PartialEq)]
pub struct Tape {
    pub(crate) code: Vec<Ins>,
    pub(crate) init: Vec<f64>,
    pub(crate) flat: Vec<u32>,
}

impl Tape {
    /// Compiles a function.
    pub fn compile(f: &Function) -> Result<Tape, IrError> {
        let n = f.insts.len();
        let mut last = vec![0usize; n];
        for (i, inst) in f.insts.iter().enumerate() {
            inst.op.for_each_operand(|v| last[v.index()] = i);
        }
        for v in &f.outputs {
            last[v.index()] = usize::MAX;
        }
        let mut reg = vec![0u32; n];
        let mut init: Vec<f64> = Vec::new();
        let mut free: HashMap<usize, Vec<u32>> = HashMap::new();
        let mut code = Vec::new();
        // Values known at compile time: constants, and arrays moved out of them unchanged
        // (a Dirichlet mask gathered from `[0, 1]`), preset like constants instead of being
        // rebuilt by every run. Only data moves, so the bits are the same.
        let mut known: Vec<Option<Vec<f64>>> = vec![None; n];
        for (i, inst) in f.insts.iter().enumerate() {
            let len = inst.ty.len();
            let scalar = |v: &crate::ir::ValueId| match known.get(v.index()) {
                Some(Some(k)) if k.len() == 1 => Some(k[0]),
                _ => None,
            };
            let folded: Option<Vec<f64>> = match &inst.op {
                Op::Const(_) => inst.op.as_const().map(|c| vec![c]),
                Op::Pack(vs) => vs.iter().map(scalar).collect(),
                Op::Splat(a, m) => scalar(a).map(|x| vec![x; *m as usize]),
                Op::Gather(a, ks) => match known.get(a.index()) {
                    Some(Some(src)) => ks.iter().map(|k| src.get(*k as usize).copied()).collect(),
                    _ => None,
                },
                _ => None,
            };
            if let Some(vals) = folded.filter(|v| v.len() == len) {
                reg[i] = init.len() as u32;
                init.extend_from_slice(&vals);
                known[i] = Some(vals);
                last[i] = usize::MAX; // constants are never overwritten
                continue;
            }
            let d = match free.get_mut(&len).and_then(Vec::pop) {
                Some(r) => r,
                None => {
                    let r = init.len() as u32;
                    init.resize(init.len() + len, 0.0);
                    r
                }
            };
            reg[i] = d;
            let r = |v: crate::ir::ValueId| reg[v.index()];
            let arr = |v: crate::ir::ValueId| f.ty(v) != Ty::Scalar;
            let stride = |v: crate::ir::ValueId| u32::from(arr(v));
            let n = len as u32;
            let ins = match &inst.op {
                Op::Const(_) => continue,
                Op::Load(src, k) => Ins::Load {
                    d,
                    src: *src,
                    k: *k,
                },
                Op::LoadRange(src, off, n) => Ins::LoadRange {
                    d,
                    src: *src,
                    off: *off,
                    n: *n,
                },
                Op::Unary(op, a) if inst.ty == Ty::Scalar => match op {
                    UnOp::Neg => Ins::Neg { d, a: r(*a) },
                    _ => Ins::Un {
                        op: *op,
                        d,
                        a: r(*a),
                    },
                },
                Op::Unary(op, a) => Ins::VUn {
                    op: *op,
                    d,
                    a: r(*a),
                    n,
                },
                Op::Binary(op, a, b) if inst.ty == Ty::Scalar => {
                    let (a, b) = (r(*a), r(*b));
                    match op {
                        BinOp::Add => Ins::Add { d, a, b },
                        BinOp::Sub => Ins::Sub { d, a, b },
                        BinOp::Mul => Ins::Mul { d, a, b },
                        BinOp::Div => Ins::Div { d, a, b },
                        _ => Ins::Bin { op: *op, d, a, b },
                    }
                }
                Op::Binary(op, a, b) => Ins::VBin {
                    op: *op,
                    d,
                    a: r(*a),
                    b: r(*b),
                    n,
                    sa: stride(*a),
                    sb: stride(*b),
                },
                Op::Powi(a, p) if inst.ty == Ty::Scalar => Ins::Powi { d, a: r(*a), n: *p },
                Op::Powi(a, p) => Ins::VPowi {
                    d,
                    a: r(*a),
                    p: *p,
                    n,
                },
                Op::Select(c, a, b) if inst.ty == Ty::Scalar => Ins::Select {
                    d,
                    c: r(*c),
                    a: r(*a),
                    b: r(*b),
                },
                Op::Select(c, a, b) => Ins::VSelect {
                    d,
                    c: r(*c),
                    a: r(*a),
                    b: r(*b),
                    n,
                    sc: stride(*c),
                    sa: stride(*a),
                    sb: stride(*b),
                },
                Op::Pack(vs) => Ins::Pack {
                    d,
                    src: vs.iter().map(|v| r(*v)).collect(),
                },
                Op::Splat(s, _) => Ins::Splat { d, a: r(*s), n },
                Op::Index(a, k) => Ins::Copy { d, a: r(*a) + k },
                Op::Gather(a, ks) => Ins::Gather {
                    d,
                    a: r(*a),
                    idx: ks.clone().into_boxed_slice(),
                },
                Op::Stencil(s) => Ins::Stencil {
                    op: s.op,
                    grid: s.grid,
                    d,
                    u: r(s.u),
                    dx: r(s.spacing[0]),
                    dy: r(s.spacing[1]),
                    bc: match s.bc {
                        Bc::Dirichlet(v) => BcReg::Dirichlet(r(v)),
                        Bc::Neumann(v) => BcReg::Neumann(r(v)),
                        Bc::Periodic => BcReg::Periodic,
                    },
                },
                Op::Reduce(op, a) => Ins::Reduce {
                    op: *op,
                    d,
                    a: r(*a),
                    n: f.ty(*a).len() as u32,
                },
                Op::PickMaxAbs(u, du) => Ins::PickMaxAbs {
                    d,
                    u: r(*u),
                    du: r(*du),
                    n: f.ty(*u).len() as u32,
                },
                Op::Solve(m, b) => {
                    // Scratch of its own, never shared, so the matrix operand stays intact.
                    let s = init.len() as u32;
                    init.resize(init.len() + len * len, 0.0);
                    Ins::Solve {
                        d,
                        m: r(*m),
                        b: r(*b),
                        n,
                        s,
                    }
                }
            };
            code.push(ins);
            // Operands dead after this instruction give their registers back; the result
            // never shares a register with an operand, so kernels need not care about aliasing.
            let mut seen = Vec::new();
            inst.op.for_each_operand(|v| {
                if last[v.index()] == i && !seen.contains(&v) {
                    seen.push(v);
                    free.entry(f.ty(v).len()).or_default().push(reg[v.index()]);
                }
            });
            if last[i] == 0 && !f.outputs.iter().any(|o| o.index() == i) {
                // Never read: give it back at once.
                free.entry(len).or_default().push(d);
            }
        }
        let mut flat = Vec::with_capacity(f.output_len());
        for v in &f.outputs {
            let base = reg[v.index()];
            flat.extend((0..f.ty(*v).len() as u32).map(|k| base + k));
        }
        Ok(Tape { code, init, flat })
    }

    /// A register file for this tape (constants preset). Allocate once, reuse per call.
    pub fn registers(&self) -> Vec<f64> {
        self.init.clone()
    }

    /// The instructions, in the order [`Tape::run`] executes them.
    pub fn code(&self) -> &[Ins] {
        &self.code
    }

    /// The register file's starting values (constants preset, the rest zero).
    pub fn init(&self) -> &[f64] {
        &self.init
    }

    /// The register holding each output slot, in output order.
    pub fn outputs(&self) -> &[u32] {
        &self.flat
    }

    /// Number of instructions executed per run.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// True for a tape that only returns constants or nothing.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// Number of output slots.
    pub fn output_len(&self) -> usize {
        self.flat.len()
    }

    /// Copies output slots `from..from + out.len()` into `out`.
    #[inline]
    pub fn write(&self, regs: &[f64], from: usize, out: &mut [f64]) {
        for (o, r) in out.iter_mut().zip(self.flat.iter().skip(from)) {
            *o = regs[*r as usize];
        }
    }

    /// Runs the tape; `regs` must come from [`Tape::registers`].
    pub fn run(&self, regs: &mut [f64], inp: &Inputs<'_>) {
        for ins in &self.code {
            match *ins {
                Ins::Load { d, src, k } => regs[d as usize] = inp.get(src, k),
                Ins::Add { d, a, b } => regs[d as usize] = regs[a as usize] + regs[b as usize],
                Ins::Sub { d, a, b } => regs[d as usize] = regs[a as usize] - regs[b as usize],
                Ins::Mul { d, a, b } => regs[d as usize] = regs[a as usize] * regs[b as usize],
                Ins::Div { d, a, b } => regs[d as usize] = regs[a as usize] / regs[b as usize],
                Ins::Neg { d, a } => regs[d as usize] = -regs[a as usize],
                Ins::Un { op, d, a } => regs[d as usize] = eval::unary(op, regs[a as usize]),
                Ins::Bin { op, d, a, b } => {
                    regs[d as usize] = eval::binary(op, regs[a as usize], regs[b as usize])
                }
                Ins::Powi { d, a, n } => regs[d as usize] = eval::powi(regs[a as usize], n),
                Ins::Select { d, c, a, b } => {
                    regs[d as usize] =
                        eval::select(regs[c as usize], regs[a as usize], regs[b as usize]);
                }
                Ins::Copy { d, a } => regs[d as usize] = regs[a as usize],
                Ins::LoadRange { d, src, off, n } => {
                    inp.get_range(src, off, &mut regs[d as usize..(d + n) as usize]);
                }
                Ins::VUn { op, d, a, n } => {
                    if crate::vecops::unary(regs, op, d, a, n) {
                        continue;
                    }
                    for k in 0..n {
                        regs[(d + k) as usize] = eval::unary(op, regs[(a + k) as usize]);
                    }
                }
                Ins::VBin {
                    op,
                    d,
                    a,
                    b,
                    n,
                    sa,
                    sb,
                } => {
                    if crate::vecops::binary(regs, op, d, a, b, n, sa, sb) {
                        continue;
                    }
                    for k in 0..n {
                        regs[(d + k) as usize] = eval::binary(
                            op,
                            regs[(a + k * sa) as usize],
                            regs[(b + k * sb) as usize],
                        );
                    }
                }
                Ins::VPowi { d, a, p, n } => {
                    for k in 0..n {
                        regs[(d + k) as usize] = eval::powi(regs[(a + k) as usize], p);
                    }
                }
                Ins::VSelect {
                    d,
                    c,
                    a,
                    b,
                    n,
                    sc,
                    sa,
                    sb,
                } => {
                    if crate::vecops::select(regs, d, (c, a, b), n, (sc, sa, sb)) {
                        continue;
                    }
                    for k in 0..n {
                        regs[(d + k) as usize] = eval::select(
                            regs[(c + k * sc) as usize],
                            regs[(a + k * sa) as usize],
                            regs[(b + k * sb) as usize],
                        );
                    }
                }
                Ins::Pack { d, ref src } => {
                    for (k, s) in src.iter().enumerate() {
                        regs[d as usize + k] = regs[*s as usize];
                    }
                }
                Ins::Splat { d, a, n } => {
                    let v = regs[a as usize];
                    regs[d as usize..(d + n) as usize].fill(v);
                }
                Ins::Gather { d, a, ref idx } => {
                    for (k, i) in idx.iter().enumerate() {
                        regs[d as usize + k] = regs[(a + i) as usize];
                    }
                }
                Ins::Stencil {
                    op,
                    grid,
                    d,
                    u,
                    dx,
                    dy,
                    bc,
                } => {
                    let len = grid.len();
                    let bc = match bc {
                        BcReg::Dirichlet(v) => BcValue::Dirichlet(regs[v as usize]),
                        BcReg::Neumann(v) => BcValue::Neumann(regs[v as usize]),
                        BcReg::Periodic => BcValue::Periodic,
                    };
                    let spacing = [regs[dx as usize], regs[dy as usize]];
                    // The result never aliases its operand, so split the file around it.
                    let (d, u) = (d as usize, u as usize);
                    if d > u {
                        let (lo, hi) = regs.split_at_mut(d);
                        kernels::stencil(op, grid, &lo[u..u + len], spacing, bc, &mut hi[..len]);
                    } else {
                        let (lo, hi) = regs.split_at_mut(u);
                        kernels::stencil(op, grid, &hi[..len], spacing, bc, &mut lo[d..d + len]);
                    }
                }
                Ins::Reduce { op, d, a, n } => {
                    regs[d as usize] = kernels::reduce(op, &regs[a as usize..(a + n) as usize]);
                }
                Ins::PickMaxAbs { d, u, du, n } => {
                    regs[d as usize] = kernels::pick_max_abs(
                        &regs[u as usize..(u + n) as usize],
                        &regs[du as usize..(du + n) as usize],
                    );
                }
                Ins::Solve { d, m, b, n, s } => {
                    let (d, s, n) = (d as usize, s as usize, n as usize);
                    regs.copy_within(m as usize..m as usize + n * n, s);
                    regs.copy_within(b as usize..b as usize + n, d);
                    // Scratch and result are disjoint ranges: split the file between them.
                    if s > d {
                        let (lo, hi) = regs.split_at_mut(s);
                        eval::solve_in_place(&mut hi[..n * n], &mut lo[d..d + n]);
                    } else {
                        let (lo, hi) = regs.split_at_mut(d);
                        eval::solve_in_place(&mut lo[s..s + n * n], &mut hi[..n]);
                    }
                }
            }
        }
    }
}
