//! The symbolic DAG to SSA: each node of `physis-symbolic`'s graph becomes one IR value,
//! memoised, children first, so a subexpression shared by several equations is computed
//! once. Sums subtract their negative terms and products divide by their negative powers,
//! which keeps the IR close to what one would write by hand.

use std::collections::HashMap;

use physis_symbolic::{Func, Graph, Node, NodeId, SymbolId};

use super::LowerError;
use crate::builder::Builder;
use crate::ir::{BinOp, Source, UnOp, ValueId};

/// The DAG → SSA walk: each node becomes one value, memoised, children first.
pub(crate) struct ToIr<'g> {
    g: &'g Graph,
    symbols: &'g HashMap<SymbolId, (Source, u32)>,
    memo: HashMap<NodeId, ValueId>,
}

impl<'g> ToIr<'g> {
    pub(crate) fn new(g: &'g Graph, symbols: &'g HashMap<SymbolId, (Source, u32)>) -> ToIr<'g> {
        ToIr {
            g,
            symbols,
            memo: HashMap::new(),
        }
    }

    /// The value of `root`; nodes are visited in ascending id order, which puts every
    /// child before its parents, so no recursion is needed however deep the expression.
    pub(crate) fn value(&mut self, b: &mut Builder, root: NodeId) -> Result<ValueId, LowerError> {
        if let Some(v) = self.memo.get(&root) {
            return Ok(*v);
        }
        for id in self.g.reachable(&[root]) {
            if !self.memo.contains_key(&id) {
                let v = self.node(b, id)?;
                self.memo.insert(id, v);
            }
        }
        self.memo
            .get(&root)
            .copied()
            .ok_or_else(|| invalid("a node the walk did not reach"))
    }

    fn get(&self, id: NodeId) -> Result<ValueId, LowerError> {
        self.memo
            .get(&id)
            .copied()
            .ok_or_else(|| invalid("a child converted after its parent"))
    }

    fn node(&mut self, b: &mut Builder, id: NodeId) -> Result<ValueId, LowerError> {
        Ok(match self.g.node(id) {
            Node::Const(c) => b.constant(c.to_f64()),
            Node::Time => b.load(Source::T, 0),
            Node::Symbol(s) => {
                let (src, off) = self.symbols.get(&s.id).copied().ok_or_else(|| {
                    invalid("a symbol of the derived equations that the model does not have")
                })?;
                b.load(src, off + s.component)
            }
            Node::Add(terms) => self.sum(b, terms)?,
            Node::Mul(factors) => {
                let (c, rest) = self.split_coefficient(factors);
                self.product(b, c, rest)?
            }
            Node::Pow([base, e]) => {
                let x = self.get(*base)?;
                self.power(b, x, *e)?
            }
            Node::Call(f, args) => {
                let a = args
                    .iter()
                    .map(|x| self.get(*x))
                    .collect::<Result<Vec<_>, _>>()?;
                call(b, *f, &a)?
            }
            Node::Opaque(..) => {
                return Err(LowerError::NotYetSupported {
                    feature: "a grid reduction inside derived equations",
                });
            }
            _ => return Err(invalid("a node kind the IR does not know")),
        })
    }

    /// The numeric coefficient of a canonical product (first factor) and the rest.
    fn split_coefficient<'a>(&self, factors: &'a [NodeId]) -> (f64, &'a [NodeId]) {
        match factors.split_first() {
            Some((first, rest)) => match self.g.node(*first) {
                Node::Const(c) => (c.to_f64(), rest),
                _ => (1.0, factors),
            },
            None => (1.0, factors),
        }
    }

    /// `Σ terms`, with a term of negative coefficient subtracted rather than added.
    fn sum(&mut self, b: &mut Builder, terms: &[NodeId]) -> Result<ValueId, LowerError> {
        let mut acc: Option<ValueId> = None;
        let mut pending_neg: Vec<ValueId> = Vec::new();
        for t in terms {
            let (neg, mag) = self.signed_term(b, *t)?;
            match (neg, acc) {
                (false, None) => acc = Some(mag),
                (false, Some(a)) => acc = Some(b.add(a, mag)?),
                (true, Some(a)) => acc = Some(b.sub(a, mag)?),
                (true, None) => pending_neg.push(mag),
            }
            // Terms subtracted before any positive term are settled once one arrives.
            if let (Some(a), false) = (acc, pending_neg.is_empty()) {
                let mut a = a;
                for m in pending_neg.drain(..) {
                    a = b.sub(a, m)?;
                }
                acc = Some(a);
            }
        }
        match acc {
            Some(a) => Ok(a),
            None => {
                // Every term negative: −(m₀ + m₁ + …).
                let mut it = pending_neg.into_iter();
                let mut s = it.next().ok_or_else(|| invalid("an empty sum"))?;
                for m in it {
                    s = b.add(s, m)?;
                }
                Ok(b.neg(s)?)
            }
        }
    }

    /// A term as (negative?, magnitude): `−3·x` is (true, 3·x).
    fn signed_term(&mut self, b: &mut Builder, t: NodeId) -> Result<(bool, ValueId), LowerError> {
        match self.g.node(t) {
            Node::Mul(factors) => {
                let (c, rest) = self.split_coefficient(factors);
                if c < 0.0 {
                    return Ok((true, self.product(b, -c, rest)?));
                }
                Ok((false, self.get(t)?))
            }
            Node::Const(c) if c.to_f64() < 0.0 => Ok((true, b.constant(-c.to_f64()))),
            _ => Ok((false, self.get(t)?)),
        }
    }

    /// `c · Π numerators / Π denominators`, where a factor `x^(−k)` is a denominator.
    fn product(
        &mut self,
        b: &mut Builder,
        c: f64,
        factors: &[NodeId],
    ) -> Result<ValueId, LowerError> {
        let (mut num, mut den): (Option<ValueId>, Option<ValueId>) = (None, None);
        let times = |b: &mut Builder, acc: Option<ValueId>, v| -> Result<_, LowerError> {
            Ok(Some(match acc {
                Some(a) => b.mul(a, v)?,
                None => v,
            }))
        };
        for f in factors {
            let inverse = match self.g.node(*f) {
                Node::Pow([base, e]) => match self.g.as_const(*e).map(|n| n.to_f64()) {
                    Some(k) if k < 0.0 => {
                        let x = self.get(*base)?;
                        Some(self.power_const(b, x, -k)?)
                    }
                    _ => None,
                },
                _ => None,
            };
            match inverse {
                Some(v) => den = times(b, den, v)?,
                None => {
                    let v = self.get(*f)?;
                    num = times(b, num, v)?;
                }
            }
        }
        let scaled = match (num, c) {
            (Some(n), 1.0) => n,
            (Some(n), -1.0) => b.neg(n)?,
            (Some(n), c) => {
                let k = b.constant(c);
                b.mul(k, n)?
            }
            (None, c) => b.constant(c),
        };
        Ok(match den {
            Some(d) => b.div(scaled, d)?,
            None => scaled,
        })
    }

    fn power(&mut self, b: &mut Builder, x: ValueId, e: NodeId) -> Result<ValueId, LowerError> {
        match self.g.as_const(e).map(|n| n.to_f64()) {
            Some(k) if k < 0.0 => {
                let one = b.constant(1.0);
                let d = self.power_const(b, x, -k)?;
                Ok(b.div(one, d)?)
            }
            Some(k) => self.power_const(b, x, k),
            None => {
                let y = self.get(e)?;
                Ok(b.binary(BinOp::Pow, x, y)?)
            }
        }
    }

    /// `xᵏ` for a constant `k ≥ 0`: whole powers by `powi`, halves through `√`.
    fn power_const(&mut self, b: &mut Builder, x: ValueId, k: f64) -> Result<ValueId, LowerError> {
        if k == k.trunc() && k <= 64.0 {
            return Ok(b.powi(x, k as i32)?);
        }
        let twice = 2.0 * k;
        if twice == twice.trunc() && twice <= 64.0 {
            // x^(m/2) = x^⌊m/2⌋·√x
            let s = b.unary(UnOp::Sqrt, x)?;
            let whole = (k - 0.5) as i32;
            if whole == 0 {
                return Ok(s);
            }
            let p = b.powi(x, whole)?;
            return Ok(b.mul(p, s)?);
        }
        let y = b.constant(k);
        Ok(b.binary(BinOp::Pow, x, y)?)
    }
}

fn call(b: &mut Builder, f: Func, a: &[ValueId]) -> Result<ValueId, LowerError> {
    let un = |b: &mut Builder, op: UnOp| -> Result<ValueId, LowerError> {
        let [x] = a else {
            return Err(invalid("a one-argument function with another count"));
        };
        Ok(b.unary(op, *x)?)
    };
    let bin = |b: &mut Builder, op: BinOp| -> Result<ValueId, LowerError> {
        let [x, y] = a else {
            return Err(invalid("a two-argument function with another count"));
        };
        Ok(b.binary(op, *x, *y)?)
    };
    match f {
        Func::Sin => un(b, UnOp::Sin),
        Func::Cos => un(b, UnOp::Cos),
        Func::Tan => un(b, UnOp::Tan),
        Func::Asin => un(b, UnOp::Asin),
        Func::Acos => un(b, UnOp::Acos),
        Func::Atan => un(b, UnOp::Atan),
        Func::Sinh => un(b, UnOp::Sinh),
        Func::Cosh => un(b, UnOp::Cosh),
        Func::Tanh => un(b, UnOp::Tanh),
        Func::Exp => un(b, UnOp::Exp),
        Func::Log => un(b, UnOp::Log),
        Func::Abs => un(b, UnOp::Abs),
        Func::Sign => un(b, UnOp::Sign),
        Func::Floor => un(b, UnOp::Floor),
        Func::Ceil => un(b, UnOp::Ceil),
        Func::Atan2 => bin(b, BinOp::Atan2),
        Func::Min => bin(b, BinOp::Min),
        Func::Max => bin(b, BinOp::Max),
        _ => Err(invalid("a function the IR does not know")),
    }
}

fn invalid(problem: &str) -> LowerError {
    LowerError::Invalid {
        problem: problem.to_string(),
    }
}
