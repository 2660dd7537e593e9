//! The IR's data: values, operations and functions.
//!
//! A [`Function`] is a list of instructions in SSA form: instruction `i` defines value `i`,
//! and an operand always names an earlier value, so one forward pass evaluates it. Values
//! are scalars or arrays of a fixed length; an operation on arrays (elementwise arithmetic,
//! a stencil, a reduction) is one instruction whatever the length, so a big grid stays a
//! small program (DESIGN §7).

use std::fmt;

/// A value of a function: the result of instruction `index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub(crate) u32);

impl ValueId {
    /// Position of the defining instruction.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ValueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// One `f64`.
    Scalar,
    /// A fixed number of `f64`s (a field, or a vector kept whole).
    Array(u32),
}

impl Ty {
    /// Number of `f64`s the value occupies.
    pub fn len(self) -> usize {
        match self {
            Ty::Scalar => 1,
            Ty::Array(n) => n as usize,
        }
    }

    /// True for an array of length zero (never built, but keeps clippy's pairing).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// Where a load reads from: the inputs of the model's functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The time `t` (index 0).
    T,
    /// The step `h` (index 0).
    H,
    /// The state `y` by slot.
    State,
    /// `f(t, y)` at the step's start, by slot.
    F0,
    /// A parameter by slot.
    Param,
    /// A Wiener increment `dW` by noise.
    Dw,
    /// A white-noise value `w` inside a law (split into drift and diffusion).
    Noise,
    /// The unknown `next` of an implicit scheme, by slot.
    Guess,
    /// The derivative `dydt` given to conditions and observes, by slot.
    Rate,
    /// A tangent direction (Jacobian-vector products), by slot.
    Seed,
    /// The implicit stages solved earlier in the step: stage `j`'s slot `s` at `j·dim + s`.
    Stages,
}

pub use physis_runtime::kernels::{Grid, ReduceOp, StencilOp};
pub use physis_runtime::scalar::{BinOp, UnOp};

/// How a stencil reads past the ends of an axis. The ghost node sits one spacing beyond
/// the last node: Dirichlet puts the value there (so `N` interior nodes with spacing
/// `1/(N+1)` model a rod with fixed ends); Neumann places it so that the difference
/// across the boundary, `(u[0] − u[−1])/Δ` and `(u[n] − u[n−1])/Δ`, is the given
/// derivative along the axis; periodic wraps around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bc {
    /// Ghost value fixed to this scalar.
    Dirichlet(ValueId),
    /// Derivative along the axis at both ends fixed to this scalar.
    Neumann(ValueId),
    /// Ends wrap around.
    Periodic,
}

/// A stencil over a grid: its operand, the spacing per axis and the boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stencil {
    /// Which difference.
    pub op: StencilOp,
    /// Grid extents (the operand's length is `grid.len()`).
    pub grid: Grid,
    /// The field.
    pub u: ValueId,
    /// Spacing along x and y (scalars; the same value twice on a line).
    pub spacing: [ValueId; 2],
    /// Boundary treatment of both ends of every axis.
    pub bc: Bc,
}

/// One operation. Operands name earlier values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A constant, stored as its bits so that equal constants hash alike.
    Const(u64),
    /// A scalar input.
    Load(Source, u32),
    /// A contiguous run of inputs as an array.
    LoadRange(Source, u32, u32),
    /// `op a`
    Unary(UnOp, ValueId),
    /// `a op b`
    Binary(BinOp, ValueId, ValueId),
    /// `aⁿ` for a whole `n`.
    Powi(ValueId, i32),
    /// `c ≠ 0 ? a : b` (elementwise when any operand is an array).
    Select(ValueId, ValueId, ValueId),
    /// Scalars gathered into an array.
    Pack(Vec<ValueId>),
    /// A scalar repeated into an array of the given length.
    Splat(ValueId, u32),
    /// One element of an array.
    Index(ValueId, u32),
    /// Elements of an array, by index, as a new array.
    Gather(ValueId, Vec<u32>),
    /// A stencil over a field.
    Stencil(Stencil),
    /// An array reduced to a scalar.
    Reduce(ReduceOp, ValueId),
    /// `sign(u[k])·du[k]` at the first `k` of largest `|u[k]|`: the tangent of `maxAbs`.
    PickMaxAbs(ValueId, ValueId),
    /// `x` with `M·x = b`: a dense `n × n` matrix `M` (an array of `n²`, row-major) and a
    /// right side `b` (an array of `n`), solved by Gaussian elimination with partial
    /// pivoting ([`crate::eval::solve_in_place`]); every component is NaN when `M` is
    /// singular or not finite.
    Solve(ValueId, ValueId),
}

impl Op {
    /// A constant operation.
    pub fn constant(v: f64) -> Op {
        Op::Const(v.to_bits())
    }

    /// The constant's value, if this is one.
    pub fn as_const(&self) -> Option<f64> {
        match self {
            Op::Const(b) => Some(f64::from_bits(*b)),
            _ => None,
        }
    }

    /// Every value this operation reads, in order.
    pub fn operands(&self) -> Vec<ValueId> {
        let mut out = Vec::new();
        self.for_each_operand(|v| out.push(v));
        out
    }

    /// Calls `f` on every operand.
    pub fn for_each_operand(&self, mut f: impl FnMut(ValueId)) {
        match self {
            Op::Const(_) | Op::Load(..) | Op::LoadRange(..) => {}
            Op::Unary(_, a)
            | Op::Powi(a, _)
            | Op::Splat(a, _)
            | Op::Index(a, _)
            | Op::Gather(a, _)
            | Op::Reduce(_, a) => f(*a),
            Op::Binary(_, a, b) | Op::PickMaxAbs(a, b) | Op::Solve(a, b) => {
                f(*a);
                f(*b);
            }
            Op::Select(c, a, b) => {
                f(*c);
                f(*a);
                f(*b);
            }
            Op::Pack(vs) => vs.iter().copied().for_each(f),
            Op::Stencil(s) => {
                f(s.u);
                f(s.spacing[0]);
                f(s.spacing[1]);
                if let Bc::Dirichlet(v) | Bc::Neumann(v) = s.bc {
                    f(v);
                }
            }
        }
    }

    /// The same operation with every operand renamed by `f`.
    pub fn map_operands(&self, mut f: impl FnMut(ValueId) -> ValueId) -> Op {
        match self {
            Op::Const(_) | Op::Load(..) | Op::LoadRange(..) => self.clone(),
            Op::Unary(o, a) => Op::Unary(*o, f(*a)),
            Op::Powi(a, n) => Op::Powi(f(*a), *n),
            Op::Splat(a, n) => Op::Splat(f(*a), *n),
            Op::Index(a, k) => Op::Index(f(*a), *k),
            Op::Gather(a, ks) => Op::Gather(f(*a), ks.clone()),
            Op::Reduce(o, a) => Op::Reduce(*o, f(*a)),
            Op::Binary(o, a, b) => Op::Binary(*o, f(*a), f(*b)),
            Op::PickMaxAbs(a, b) => Op::PickMaxAbs(f(*a), f(*b)),
            Op::Solve(m, b) => Op::Solve(f(*m), f(*b)),
            Op::Select(c, a, b) => Op::Select(f(*c), f(*a), f(*b)),
            Op::Pack(vs) => Op::Pack(vs.iter().map(|v| f(*v)).collect()),
            Op::Stencil(s) => {
                let bc = match s.bc {
                    Bc::Dirichlet(v) => Bc::Dirichlet(f(v)),
                    Bc::Neumann(v) => Bc::Neumann(f(v)),
                    Bc::Periodic => Bc::Periodic,
                };
                Op::Stencil(Stencil {
                    op: s.op,
                    grid: s.grid,
                    u: f(s.u),
                    spacing: [f(s.spacing[0]), f(s.spacing[1])],
                    bc,
                })
            }
        }
    }
}

/// An instruction: the operation and the type of the value it defines.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it computes.
    pub op: Op,
    /// Scalar or array.
    pub ty: Ty,
}

/// A straight-line function: instructions, then the values it returns, flattened in order
/// (an array output covers as many slots as its length).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// Name, for listings (`rate`, `step`).
    pub name: String,
    /// Instructions; instruction `i` defines value `i`.
    pub insts: Vec<Inst>,
    /// Returned values.
    pub outputs: Vec<ValueId>,
}

impl Function {
    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> Ty {
        self.insts.get(v.index()).map_or(Ty::Scalar, |i| i.ty)
    }

    /// Number of `f64` slots the outputs fill.
    pub fn output_len(&self) -> usize {
        self.outputs.iter().map(|v| self.ty(*v).len()).sum()
    }

    /// Number of instructions that compute something (constants and loads excluded).
    pub fn op_count(&self) -> usize {
        self.insts
            .iter()
            .filter(|i| !matches!(i.op, Op::Const(_) | Op::Load(..) | Op::LoadRange(..)))
            .count()
    }

    /// True when some reachable instruction loads from `src`.
    pub fn reads(&self, src: Source) -> bool {
        self.insts
            .iter()
            .any(|i| matches!(i.op, Op::Load(s, _) | Op::LoadRange(s, _, _) if s == src))
    }

    /// The function returning only the outputs `keep` (indices into [`Function::outputs`],
    /// in that order), with every instruction they do not need removed and the rest
    /// renumbered densely in their order. The kept outputs are computed by the very same
    /// operations, so they are the same bits.
    pub fn keep_outputs(&self, name: &str, keep: &[usize]) -> Function {
        let outputs: Vec<ValueId> = keep
            .iter()
            .filter_map(|&k| self.outputs.get(k))
            .copied()
            .collect();
        let (insts, outputs) = live_only(&self.insts, &outputs);
        Function {
            name: name.to_string(),
            insts,
            outputs,
        }
    }

    /// Largest index + 1 loaded from `src` (0 when none): the input length it needs.
    pub fn input_extent(&self, src: Source) -> usize {
        self.insts
            .iter()
            .filter_map(|i| match i.op {
                Op::Load(s, k) if s == src => Some(k as usize + 1),
                Op::LoadRange(s, o, n) if s == src => Some(o as usize + n as usize),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// The instructions of `insts` that `outputs` need, renumbered densely in their order, and
/// `outputs` renamed to match (the one dead-code pass: [`crate::builder::Builder::finish`]
/// and [`Function::keep_outputs`]).
pub(crate) fn live_only(insts: &[Inst], outputs: &[ValueId]) -> (Vec<Inst>, Vec<ValueId>) {
    let mut live = vec![false; insts.len()];
    for v in outputs {
        live[v.index()] = true;
    }
    for i in (0..insts.len()).rev() {
        if live[i] {
            insts[i].op.for_each_operand(|v| live[v.index()] = true);
        }
    }
    let mut rename = vec![ValueId(u32::MAX); insts.len()];
    let mut kept = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        if live[i] {
            rename[i] = ValueId(kept.len() as u32);
            kept.push(Inst {
                op: inst.op.map_operands(|v| rename[v.index()]),
                ty: inst.ty,
            });
        }
    }
    (kept, outputs.iter().map(|v| rename[v.index()]).collect())
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "fn {}:", self.name)?;
        for (i, inst) in self.insts.iter().enumerate() {
            match inst.op.as_const() {
                Some(c) => writeln!(f, "  %{i} = const {c:e}")?,
                None => writeln!(f, "  %{i}: {:?} = {:?}", inst.ty, inst.op)?,
            }
        }
        let outs: Vec<String> = self.outputs.iter().map(ToString::to_string).collect();
        writeln!(f, "  return {}", outs.join(", "))
    }
}
