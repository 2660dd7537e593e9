//! The builder: the only way to make IR. It types every operation, folds constants,
//! applies the identities that hold bit for bit in IEEE arithmetic (`x·1 = x`,
//! `−(−x) = x`, ...), and hash-conses: asking twice for the same operation on the same
//! operands returns the first value, which is common-subexpression elimination for free.

use std::collections::HashMap;

use crate::error::IrError;
use crate::eval;
use crate::ir::{BinOp, Function, Inst, Op, ReduceOp, Source, Stencil, Ty, UnOp, ValueId};

/// Builds one function. Cheap to clone (to try something and roll back).
#[derive(Clone, Debug, Default)]
pub struct Builder {
    insts: Vec<Inst>,
    memo: HashMap<Op, ValueId>,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of instructions so far (constants and loads included).
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// True before the first instruction.
    pub fn is_empty(&self) -> bool {
        self.insts.is_empty()
    }

    /// The type of a value.
    pub fn ty(&self, v: ValueId) -> Result<Ty, IrError> {
        self.insts
            .get(v.index())
            .map(|i| i.ty)
            .ok_or(IrError::UnknownValue(v.0))
    }

    /// The operation defining a value.
    pub fn op(&self, v: ValueId) -> Option<&Op> {
        self.insts.get(v.index()).map(|i| &i.op)
    }

    /// The value of a constant, if `v` is one.
    pub fn const_of(&self, v: ValueId) -> Option<f64> {
        self.op(v).and_then(Op::as_const)
    }

    /// A scalar constant.
    pub fn constant(&mut self, c: f64) -> ValueId {
        self.intern(Op::constant(c), Ty::Scalar)
    }

    /// A scalar input (`t`, a state slot, a parameter, ...).
    pub fn load(&mut self, src: Source, index: u32) -> ValueId {
        self.intern(Op::Load(src, index), Ty::Scalar)
    }

    /// `len` consecutive inputs from `offset`, as one array.
    pub fn load_range(&mut self, src: Source, offset: u32, len: u32) -> ValueId {
        self.intern(Op::LoadRange(src, offset, len), Ty::Array(len))
    }

    /// `op a`.
    pub fn unary(&mut self, op: UnOp, a: ValueId) -> Result<ValueId, IrError> {
        self.push(Op::Unary(op, a))
    }

    /// `a op b`.
    pub fn binary(&mut self, op: BinOp, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.push(Op::Binary(op, a, b))
    }

    /// `a + b`.
    pub fn add(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.binary(BinOp::Add, a, b)
    }

    /// `a − b`.
    pub fn sub(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.binary(BinOp::Sub, a, b)
    }

    /// `a · b`.
    pub fn mul(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.binary(BinOp::Mul, a, b)
    }

    /// `a / b`.
    pub fn div(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.binary(BinOp::Div, a, b)
    }

    /// `−a`.
    pub fn neg(&mut self, a: ValueId) -> Result<ValueId, IrError> {
        self.unary(UnOp::Neg, a)
    }

    /// `aⁿ` for a whole `n`.
    pub fn powi(&mut self, a: ValueId, n: i32) -> Result<ValueId, IrError> {
        self.push(Op::Powi(a, n))
    }

    /// `c ≠ 0 ? a : b`.
    pub fn select(&mut self, c: ValueId, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        self.push(Op::Select(c, a, b))
    }

    /// Scalars into one array.
    pub fn pack(&mut self, vs: Vec<ValueId>) -> Result<ValueId, IrError> {
        self.push(Op::Pack(vs))
    }

    /// A scalar repeated `len` times.
    pub fn splat(&mut self, s: ValueId, len: u32) -> Result<ValueId, IrError> {
        self.push(Op::Splat(s, len))
    }

    /// Element `k` of an array.
    pub fn index(&mut self, a: ValueId, k: u32) -> Result<ValueId, IrError> {
        self.push(Op::Index(a, k))
    }

    /// Elements of an array, by index.
    pub fn gather(&mut self, a: ValueId, ks: Vec<u32>) -> Result<ValueId, IrError> {
        self.push(Op::Gather(a, ks))
    }

    /// A stencil over a field.
    pub fn stencil(&mut self, s: Stencil) -> Result<ValueId, IrError> {
        self.push(Op::Stencil(s))
    }

    /// An array reduced to a scalar.
    pub fn reduce(&mut self, op: ReduceOp, a: ValueId) -> Result<ValueId, IrError> {
        self.push(Op::Reduce(op, a))
    }

    /// Σ aᵢ·bᵢ of two arrays (or the product of two scalars).
    pub fn dot(&mut self, a: ValueId, b: ValueId) -> Result<ValueId, IrError> {
        let p = self.mul(a, b)?;
        match self.ty(p)? {
            Ty::Scalar => Ok(p),
            Ty::Array(_) => self.reduce(ReduceOp::Sum, p),
        }
    }

    /// Any operation: typed, folded, simplified and interned.
    pub fn push(&mut self, op: Op) -> Result<ValueId, IrError> {
        let ty = self.type_of(&op)?;
        let op = self.canonical(op);
        if let Some(v) = self.simplify(&op, ty)? {
            return Ok(v);
        }
        Ok(self.intern(op, ty))
    }

    /// Ends the function: keeps only what the outputs need and renumbers densely.
    pub fn finish(self, name: &str, outputs: &[ValueId]) -> Result<Function, IrError> {
        for v in outputs {
            self.ty(*v)?;
        }
        let (insts, outputs) = crate::ir::live_only(&self.insts, outputs);
        Ok(Function {
            name: name.to_string(),
            insts,
            outputs,
        })
    }

    fn intern(&mut self, op: Op, ty: Ty) -> ValueId {
        if let Some(v) = self.memo.get(&op) {
            return *v;
        }
        let v = ValueId(self.insts.len() as u32);
        self.memo.insert(op.clone(), v);
        self.insts.push(Inst { op, ty });
        v
    }

    fn type_of(&self, op: &Op) -> Result<Ty, IrError> {
        let scalar = |name: &'static str, v: ValueId| -> Result<(), IrError> {
            match self.ty(v)? {
                Ty::Scalar => Ok(()),
                got => Err(IrError::WrongType {
                    op: name,
                    expected: "a scalar",
                    got,
                }),
            }
        };
        let array = |name: &'static str, v: ValueId| -> Result<u32, IrError> {
            match self.ty(v)? {
                Ty::Array(n) => Ok(n),
                got => Err(IrError::WrongType {
                    op: name,
                    expected: "an array",
                    got,
                }),
            }
        };
        Ok(match op {
            Op::Const(_) | Op::Load(..) => Ty::Scalar,
            Op::LoadRange(_, _, n) => Ty::Array(*n),
            Op::Unary(_, a) | Op::Powi(a, _) => self.ty(*a)?,
            Op::Binary(_, a, b) => self.broadcast("binary", self.ty(*a)?, self.ty(*b)?)?,
            Op::Select(c, a, b) => {
                let ab = self.broadcast("select", self.ty(*a)?, self.ty(*b)?)?;
                self.broadcast("select", self.ty(*c)?, ab)?
            }
            Op::Pack(vs) => {
                for v in vs {
                    scalar("pack", *v)?;
                }
                Ty::Array(vs.len() as u32)
            }
            Op::Splat(s, n) => {
                scalar("splat", *s)?;
                Ty::Array(*n)
            }
            Op::Index(a, k) => {
                let n = array("index", *a)?;
                if *k >= n {
                    return Err(IrError::IndexOutOfRange { index: *k, len: n });
                }
                Ty::Scalar
            }
            Op::Gather(a, ks) => {
                let n = array("gather", *a)?;
                if let Some(k) = ks.iter().find(|k| **k >= n) {
                    return Err(IrError::IndexOutOfRange { index: *k, len: n });
                }
                Ty::Array(ks.len() as u32)
            }
            Op::Stencil(s) => {
                let n = array("stencil", s.u)? as usize;
                if n != s.grid.len() {
                    return Err(IrError::GridMismatch {
                        grid: s.grid.len(),
                        len: n,
                    });
                }
                if let crate::ir::StencilOp::Central(a)
                | crate::ir::StencilOp::Backward(a)
                | crate::ir::StencilOp::Forward(a) = s.op
                    && a >= s.grid.axes()
                {
                    return Err(IrError::WrongType {
                        op: "stencil axis",
                        expected: "an axis of the grid",
                        got: Ty::Array(n as u32),
                    });
                }
                scalar("stencil spacing", s.spacing[0])?;
                scalar("stencil spacing", s.spacing[1])?;
                if let crate::ir::Bc::Dirichlet(v) | crate::ir::Bc::Neumann(v) = s.bc {
                    scalar("boundary value", v)?;
                }
                Ty::Array(n as u32)
            }
            Op::Reduce(_, a) => {
                array("reduce", *a)?;
                Ty::Scalar
            }
            Op::PickMaxAbs(u, du) => {
                let n = array("maxAbs tangent", *u)?;
                let m = array("maxAbs tangent", *du)?;
                if n != m {
                    return Err(IrError::ShapeMismatch {
                        op: "maxAbs tangent",
                        lhs: Ty::Array(n),
                        rhs: Ty::Array(m),
                    });
                }
                Ty::Scalar
            }
            Op::Solve(m, rhs) => {
                let n = array("solve right side", *rhs)?;
                let nn = array("solve matrix", *m)?;
                if u64::from(nn) != u64::from(n) * u64::from(n) {
                    return Err(IrError::ShapeMismatch {
                        op: "solve",
                        lhs: Ty::Array(nn),
                        rhs: Ty::Array(n),
                    });
                }
                Ty::Array(n)
            }
        })
    }

    fn broadcast(&self, op: &'static str, a: Ty, b: Ty) -> Result<Ty, IrError> {
        match (a, b) {
            (Ty::Scalar, t) | (t, Ty::Scalar) => Ok(t),
            (Ty::Array(n), Ty::Array(m)) if n == m => Ok(a),
            _ => Err(IrError::ShapeMismatch { op, lhs: a, rhs: b }),
        }
    }

    /// Orders the operands of commuting operations so `a+b` and `b+a` intern alike.
    fn canonical(&self, op: Op) -> Op {
        match op {
            Op::Binary(o, a, b) if o.commutes() && b < a => Op::Binary(o, b, a),
            other => other,
        }
    }

    /// Folds and exact identities; `None` means "emit the operation as is".
    fn simplify(&mut self, op: &Op, ty: Ty) -> Result<Option<ValueId>, IrError> {
        let c = |s: &Self, v: ValueId| s.const_of(v);
        Ok(match *op {
            Op::Unary(o, a) => {
                if let Some(x) = c(self, a) {
                    Some(self.constant(eval::unary(o, x)))
                } else if let (UnOp::Neg, Some(Op::Unary(UnOp::Neg, inner))) = (o, self.op(a)) {
                    Some(*inner)
                } else {
                    None
                }
            }
            Op::Binary(o, a, b) => self.simplify_binary(o, a, b)?,
            Op::Powi(a, n) => {
                if let Some(x) = c(self, a) {
                    Some(self.constant(eval::powi(x, n)))
                } else {
                    match n {
                        0 => {
                            let one = self.constant(1.0);
                            Some(match ty {
                                Ty::Scalar => one,
                                Ty::Array(len) => self.splat(one, len)?,
                            })
                        }
                        1 => Some(a),
                        2 => Some(self.mul(a, a)?),
                        -1 => {
                            let one = self.constant(1.0);
                            Some(self.div(one, a)?)
                        }
                        _ => None,
                    }
                }
            }
            Op::Select(cond, a, b) => match c(self, cond) {
                Some(x) => {
                    let pick = if eval::select(x, 1.0, 0.0) != 0.0 {
                        a
                    } else {
                        b
                    };
                    (self.ty(pick)? == ty).then_some(pick)
                }
                None => (a == b && self.ty(a)? == ty).then_some(a),
            },
            Op::Index(a, k) => match self.op(a) {
                Some(Op::Pack(vs)) => vs.get(k as usize).copied(),
                Some(Op::Splat(s, _)) => Some(*s),
                Some(Op::LoadRange(src, off, _)) => {
                    let (src, off) = (*src, *off);
                    Some(self.load(src, off + k))
                }
                _ => None,
            },
            _ => None,
        })
    }

    fn simplify_binary(
        &mut self,
        o: BinOp,
        a: ValueId,
        b: ValueId,
    ) -> Result<Option<ValueId>, IrError> {
        let (ca, cb) = (self.const_of(a), self.const_of(b));
        if let (Some(x), Some(y)) = (ca, cb) {
            // A known exponent folds by the same rule whether or not the base is known too.
            let v = match o {
                BinOp::Pow => eval::pow_known(x, y),
                _ => eval::binary(o, x, y),
            };
            return Ok(Some(self.constant(v)));
        }
        // Identities keep the other operand, so they apply only when it carries the type.
        let is = |v: Option<f64>, k: f64| v.is_some_and(|x| x.to_bits() == k.to_bits());
        Ok(match o {
            BinOp::Add if is(cb, -0.0) => Some(a),
            BinOp::Add if is(ca, -0.0) => Some(b),
            BinOp::Sub if is(cb, 0.0) => Some(a),
            BinOp::Mul if is(cb, 1.0) => Some(a),
            BinOp::Mul if is(ca, 1.0) => Some(b),
            BinOp::Mul if is(cb, -1.0) => Some(self.neg(a)?),
            BinOp::Mul if is(ca, -1.0) => Some(self.neg(b)?),
            BinOp::Div if is(cb, 1.0) => Some(a),
            BinOp::Div if is(cb, -1.0) => Some(self.neg(a)?),
            // Dividing by a power of two is multiplying by its exact inverse.
            BinOp::Div => match cb {
                Some(y)
                    if y != 0.0 && y.is_finite() && (1.0 / y).is_finite() && exact_inverse(y) =>
                {
                    let inv = self.constant(1.0 / y);
                    Some(self.mul(a, inv)?)
                }
                _ => None,
            },
            BinOp::Pow => match cb.map(eval::pow_rule) {
                Some(eval::PowRule::Powi(n)) => Some(self.powi(a, n)?),
                Some(eval::PowRule::Sqrt) => Some(self.unary(UnOp::Sqrt, a)?),
                _ => None,
            },
            _ => None,
        })
    }
}

/// True when `1/y` is exact (y a power of two, normal on both sides).
fn exact_inverse(y: f64) -> bool {
    let m = y.abs();
    m.is_normal() && (1.0 / m).is_normal() && m.to_bits() & ((1u64 << 52) - 1) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_operations_are_shared() {
        let mut b = Builder::new();
        let x = b.load(Source::State, 0);
        let y = b.load(Source::State, 1);
        let p = b.mul(x, y).unwrap();
        let q = b.mul(y, x).unwrap();
        assert_eq!(p, q);
        let before = b.len();
        let s1 = b.add(p, x).unwrap();
        let s2 = b.add(x, q).unwrap();
        assert_eq!(s1, s2);
        assert_eq!(b.len(), before + 1);
    }

    #[test]
    fn constants_fold_and_identities_hold() {
        let mut b = Builder::new();
        let two = b.constant(2.0);
        let three = b.constant(3.0);
        let six = b.mul(two, three).unwrap();
        assert_eq!(b.const_of(six), Some(6.0));
        let x = b.load(Source::T, 0);
        let one = b.constant(1.0);
        assert_eq!(b.mul(x, one).unwrap(), x);
        let n = b.neg(x).unwrap();
        assert_eq!(b.neg(n).unwrap(), x);
        let half = b.div(x, two).unwrap();
        assert!(matches!(b.op(half), Some(Op::Binary(BinOp::Mul, _, _))));
        let third = b.div(x, three).unwrap();
        assert!(matches!(b.op(third), Some(Op::Binary(BinOp::Div, _, _))));
        let sq = b.powi(x, 2).unwrap();
        assert!(matches!(b.op(sq), Some(Op::Binary(BinOp::Mul, a, c)) if *a == x && *c == x));
    }

    #[test]
    fn shapes_are_checked() {
        let mut b = Builder::new();
        let u = b.load_range(Source::State, 0, 4);
        let w = b.load_range(Source::State, 4, 3);
        assert!(matches!(b.add(u, w), Err(IrError::ShapeMismatch { .. })));
        let s = b.load(Source::T, 0);
        let us = b.mul(u, s).unwrap();
        assert_eq!(b.ty(us).unwrap(), Ty::Array(4));
        assert!(matches!(
            b.index(u, 4),
            Err(IrError::IndexOutOfRange { index: 4, len: 4 })
        ));
        let e = b.index(u, 2).unwrap();
        assert_eq!(b.op(e), Some(&Op::Load(Source::State, 2)));
    }

    #[test]
    fn finish_drops_dead_code() {
        let mut b = Builder::new();
        let x = b.load(Source::State, 0);
        let y = b.load(Source::State, 1);
        let _dead = b.mul(x, y).unwrap();
        let live = b.add(x, y).unwrap();
        let f = b.finish("f", &[live]).unwrap();
        assert_eq!(f.insts.len(), 3);
        assert_eq!(f.op_count(), 1);
    }
}
