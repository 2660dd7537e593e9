//! Canonicalising constructors for function calls and opaque constructs.

use crate::graph::Graph;
use crate::node::{Func, Node, NodeId, OpaqueId};
use crate::number::Number;

impl Graph {
    /// `f(args)`, folded when every argument is a constant and the value is finite (exactly
    /// for `sin 0`, `cos 0`, `exp 0`, `log 1` and their kin, `abs`, `sign`, `min`, `max` of exact constants),
    /// with cheap identities: odd functions pull out a negative coefficient (`sin(−x) =
    /// −sin x`), even ones drop it, `log(exp u) = u`, `|c·u| = |c|·|u|`, `min(u, u) = u`.
    ///
    /// Missing arguments are read as 0 and extra ones ignored, so a wrong arity cannot panic;
    /// callers check arity against [`Func::arity`].
    pub fn call(&mut self, f: Func, args: &[NodeId]) -> NodeId {
        let mut a: Vec<NodeId> = args.iter().copied().take(f.arity()).collect();
        a.resize(f.arity(), Graph::ZERO);
        if let Some(v) = self.fold(f, &a) {
            return v;
        }
        match f {
            Func::Sin
            | Func::Tan
            | Func::Asin
            | Func::Atan
            | Func::Sinh
            | Func::Tanh
            | Func::Sign
            | Func::Cos
            | Func::Cosh
            | Func::Abs => {
                let (c, rest) = self.split_coefficient(a[0]);
                if c.is_negative() {
                    let inner = self.scale(-c, rest);
                    let outer = self.call(f, &[inner]);
                    return if matches!(f, Func::Cos | Func::Cosh | Func::Abs) {
                        outer
                    } else {
                        self.neg(outer)
                    };
                }
                if f == Func::Abs && !c.is_one() {
                    let inner = self.call(Func::Abs, &[rest]);
                    return self.scale(c, inner);
                }
                if f == Func::Abs
                    && let Node::Call(Func::Abs | Func::Exp, _) = self.node(a[0])
                {
                    return a[0];
                }
            }
            Func::Log => {
                if let Node::Call(Func::Exp, inner) = self.node(a[0]) {
                    return inner[0];
                }
            }
            Func::Min | Func::Max if a[0] == a[1] => return a[0],
            Func::Min | Func::Max => a.sort_unstable(),
            _ => {}
        }
        self.intern(Node::Call(f, a.into()))
    }

    fn fold(&mut self, f: Func, a: &[NodeId]) -> Option<NodeId> {
        let cs: Vec<Number> = a.iter().map(|x| self.as_const(*x)).collect::<Option<_>>()?;
        let exact = match (f, cs.as_slice()) {
            (Func::Sin | Func::Tan | Func::Asin | Func::Atan | Func::Sinh | Func::Tanh, [c])
                if c.is_zero() =>
            {
                Some(Number::ZERO)
            }
            (Func::Cos | Func::Cosh | Func::Exp, [c]) if c.is_zero() => Some(Number::ONE),
            (Func::Log, [c]) if c.is_one() => Some(Number::ZERO),
            (Func::Abs, [c]) => Some(c.abs()),
            (Func::Sign, [c]) => Some(Number::int(c.signum() as i64)),
            (Func::Floor | Func::Ceil, [Number::SmallRational(_)]) => {
                Some(Number::from_f64(f.apply(&[cs[0].to_f64()])))
            }
            (Func::Min, [x, y]) => Some(if y.to_f64() < x.to_f64() { *y } else { *x }),
            (Func::Max, [x, y]) => Some(if y.to_f64() > x.to_f64() { *y } else { *x }),
            _ => None,
        };
        let value = match exact {
            Some(v) => v,
            None => {
                let xs: Vec<f64> = cs.iter().map(|c| c.to_f64()).collect();
                let v = f.apply(&xs);
                if !v.is_finite() {
                    return None;
                }
                Number::from_f64(v)
            }
        };
        Some(self.number(value))
    }

    /// `sin a`.
    pub fn sin(&mut self, a: NodeId) -> NodeId {
        self.call(Func::Sin, &[a])
    }

    /// `cos a`.
    pub fn cos(&mut self, a: NodeId) -> NodeId {
        self.call(Func::Cos, &[a])
    }

    /// `exp a`.
    pub fn exp(&mut self, a: NodeId) -> NodeId {
        self.call(Func::Exp, &[a])
    }

    /// `log a` (natural).
    pub fn log(&mut self, a: NodeId) -> NodeId {
        self.call(Func::Log, &[a])
    }

    /// `|a|`.
    pub fn abs(&mut self, a: NodeId) -> NodeId {
        self.call(Func::Abs, &[a])
    }

    /// An opaque construct applied to `args` (kept as given: the caller owns its meaning).
    pub fn opaque(&mut self, id: OpaqueId, args: &[NodeId]) -> NodeId {
        self.intern(Node::Opaque(id, args.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_parity() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 1);
        let x = g.symbol(x, 0);
        assert_eq!(g.sin(Graph::ZERO), Graph::ZERO);
        assert_eq!(g.cos(Graph::ZERO), Graph::ONE);
        let m = g.neg(x);
        let s = g.sin(m);
        let sx = g.sin(x);
        assert_eq!(s, g.neg(sx));
        assert_eq!(g.cos(m), g.cos(x));
        let e = g.exp(x);
        assert_eq!(g.log(e), x);
        let l = g.log(Graph::ZERO);
        assert!(
            matches!(g.node(l), Node::Call(Func::Log, _)),
            "log 0 is not folded to -inf"
        );
        let three = g.int(-3);
        let t = g.mul(&[three, x]);
        let a = g.abs(t);
        let ax = g.abs(x);
        assert_eq!(a, g.scale(Number::int(3), ax));
        assert_eq!(g.call(Func::Max, &[x, x]), x);
        assert_eq!(g.call(Func::Min, &[x, ax]), g.call(Func::Min, &[ax, x]));
    }
}
