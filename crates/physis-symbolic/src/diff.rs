//! Symbolic differentiation: forward mode over the DAG, one pass per variable, every node's
//! derivative built once through the canonicalising constructors. (The IR's tangent pass,
//! `physis-ir/src/tangent.rs`, has rules of its own for Jacobians; it says why.)

use crate::error::SymbolicError;
use crate::graph::{FxMap, Graph};
use crate::node::{Func, Node, NodeId, Var};
use crate::number::Number;

/// What to do with functions that have a kink or a jump (`abs`, `sign`, `min`, `max`,
/// `floor`, `ceil`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kinks {
    /// Refuse them: an energy with `abs` in it has no Euler–Lagrange equations (PH0112).
    #[default]
    Refuse,
    /// Take the derivative that holds almost everywhere: `|u|' = sign(u)·u'`, `sign' = 0`,
    /// `min(a, b)' = (a' + b')/2 − sign(a − b)·(a' − b')/2`. This is what Newton needs for a
    /// law with friction.
    AlmostEverywhere,
}

impl Graph {
    /// `∂root/∂var`.
    pub fn diff(&mut self, root: NodeId, var: Var, kinks: Kinks) -> Result<NodeId, SymbolicError> {
        Ok(self.diff_many(&[root], var, kinks)?[0])
    }

    /// `∂r/∂var` for each of `roots`, sharing the work on common sub-expressions.
    pub fn diff_many(
        &mut self,
        roots: &[NodeId],
        var: Var,
        kinks: Kinks,
    ) -> Result<Vec<NodeId>, SymbolicError> {
        let order = self.reachable(roots);
        let mut d: FxMap<NodeId, NodeId> = FxMap::default();
        d.reserve(order.len());
        for &n in &order {
            let dn = self
                .diff_node(n, var, kinks, &d)
                .map_err(|construct| self.not_differentiable(roots, n, construct, var))?;
            d.insert(n, dn);
        }
        Ok(roots.iter().map(|r| d[r]).collect())
    }

    /// The derivative of `n` given its children's; `Err(name)` when no rule applies.
    fn diff_node(
        &mut self,
        n: NodeId,
        var: Var,
        kinks: Kinks,
        d: &FxMap<NodeId, NodeId>,
    ) -> Result<NodeId, String> {
        let node = self.node(n).clone();
        let dc: Vec<NodeId> = node.children().iter().map(|c| d[c]).collect();
        if !matches!(node, Node::Symbol(_) | Node::Time) && dc.iter().all(|x| *x == Graph::ZERO) {
            return Ok(Graph::ZERO);
        }
        Ok(match node {
            Node::Const(_) => Graph::ZERO,
            Node::Symbol(s) => one_if(var == Var::Symbol(s)),
            Node::Time => one_if(var == Var::Time),
            Node::Add(_) => self.add(&dc),
            Node::Mul(fs) => {
                let mut terms = Vec::with_capacity(fs.len());
                for (i, di) in dc.iter().enumerate() {
                    if *di == Graph::ZERO {
                        continue;
                    }
                    let mut parts: Vec<NodeId> = fs.to_vec();
                    parts[i] = *di;
                    terms.push(self.mul(&parts));
                }
                self.add(&terms)
            }
            Node::Pow([b, e]) => {
                let (db, de) = (dc[0], dc[1]);
                if de == Graph::ZERO {
                    // e·b^(e−1)·b'
                    let em1 = self.add2(e, Graph::MINUS_ONE);
                    let p = self.pow(b, em1);
                    self.mul(&[e, p, db])
                } else {
                    // b^e·(e'·log b + e·b'/b)
                    let lb = self.log(b);
                    let t1 = self.mul(&[de, lb]);
                    let t2 = self.div(db, b);
                    let t2 = self.mul(&[e, t2]);
                    let s = self.add(&[t1, t2]);
                    self.mul(&[n, s])
                }
            }
            Node::Call(f, args) => self.diff_call(f, &args, &dc, kinks)?,
            Node::Opaque(id, _) => return Err(self.opaque_name(id).to_string()),
        })
    }

    fn diff_call(
        &mut self,
        f: Func,
        a: &[NodeId],
        da: &[NodeId],
        kinks: Kinks,
    ) -> Result<NodeId, String> {
        if f.has_kink() && kinks == Kinks::Refuse {
            return Err(f.name().to_string());
        }
        let u = a[0];
        let du = da[0];
        Ok(match f {
            Func::Sin => {
                let c = self.cos(u);
                self.mul(&[c, du])
            }
            Func::Cos => {
                let s = self.sin(u);
                self.mul(&[Graph::MINUS_ONE, s, du])
            }
            Func::Tan => {
                let c = self.cos(u);
                let c2 = self.powi(c, -2);
                self.mul(&[c2, du])
            }
            Func::Asin | Func::Acos => {
                // ±u'/√(1 − u²)
                let u2 = self.powi(u, 2);
                let nu2 = self.neg(u2);
                let s = self.add(&[Graph::ONE, nu2]);
                let e = self.rational(-1, 2);
                let r = self.pow(s, e);
                let sign = if f == Func::Asin {
                    Graph::ONE
                } else {
                    Graph::MINUS_ONE
                };
                self.mul(&[sign, r, du])
            }
            Func::Atan => {
                let u2 = self.powi(u, 2);
                let s = self.add(&[Graph::ONE, u2]);
                self.div(du, s)
            }
            Func::Sinh => {
                let c = self.call(Func::Cosh, &[u]);
                self.mul(&[c, du])
            }
            Func::Cosh => {
                let s = self.call(Func::Sinh, &[u]);
                self.mul(&[s, du])
            }
            Func::Tanh => {
                let c = self.call(Func::Cosh, &[u]);
                let c2 = self.powi(c, -2);
                self.mul(&[c2, du])
            }
            Func::Exp => {
                let e = self.exp(u);
                self.mul(&[e, du])
            }
            Func::Log => self.div(du, u),
            Func::Abs => {
                let s = self.call(Func::Sign, &[u]);
                self.mul(&[s, du])
            }
            Func::Sign | Func::Floor | Func::Ceil => Graph::ZERO,
            Func::Atan2 => {
                // atan2(y, x)' = (x·y' − y·x')/(x² + y²)
                let (y, x, dy, dx) = (a[0], a[1], da[0], da[1]);
                let xdy = self.mul(&[x, dy]);
                let ydx = self.mul(&[y, dx]);
                let num = self.sub(xdy, ydx);
                let x2 = self.powi(x, 2);
                let y2 = self.powi(y, 2);
                let den = self.add(&[x2, y2]);
                self.div(num, den)
            }
            Func::Min | Func::Max => {
                // min/max(a, b) = (a + b)/2 ∓ |a − b|/2
                let half = Number::from_f64(0.5);
                let (p, q) = (a[0], a[1]);
                let sum = self.add(&[da[0], da[1]]);
                let mean = self.scale(half, sum);
                let diff = self.sub(p, q);
                let sg = self.call(Func::Sign, &[diff]);
                let ddiff = self.sub(da[0], da[1]);
                let k = if f == Func::Min { -half } else { half };
                let k = self.number(k);
                let jump = self.mul(&[k, sg, ddiff]);
                self.add(&[mean, jump])
            }
        })
    }

    fn not_differentiable(
        &self,
        roots: &[NodeId],
        at: NodeId,
        construct: String,
        var: Var,
    ) -> SymbolicError {
        SymbolicError::NotDifferentiable {
            construct,
            variable: self.var_text(var),
            origin: self.origin(at).or_else(|| self.nearest_origin(roots, at)),
        }
    }

    /// The origin of the innermost ancestor of `target` that has one: ancestors have larger
    /// ids than their descendants, so the smallest-id ancestor with an origin is the closest.
    fn nearest_origin(&self, roots: &[NodeId], target: NodeId) -> Option<physis_syntax::Span> {
        let order = self.reachable(roots);
        let mut contains: FxMap<NodeId, bool> = FxMap::default();
        let mut best = None;
        for &n in &order {
            let c = n == target || self.node(n).children().iter().any(|c| contains[c]);
            contains.insert(n, c);
            if c && best.is_none() {
                best = self.origin(n);
            }
        }
        best
    }
}

fn one_if(b: bool) -> NodeId {
    if b { Graph::ONE } else { Graph::ZERO }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Symbol;

    #[test]
    fn polynomial_and_chain_rule() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 1);
        let xs = Symbol {
            id: x,
            component: 0,
        };
        let x = g.symbol(x, 0);
        let x3 = g.powi(x, 3);
        let d = g.diff(x3, xs.into(), Kinks::Refuse).unwrap();
        let three = g.int(3);
        let x2 = g.powi(x, 2);
        assert_eq!(d, g.mul(&[three, x2]));
        let s = g.sin(x2);
        let d = g.diff(s, xs.into(), Kinks::Refuse).unwrap();
        let c = g.cos(x2);
        let two = g.int(2);
        assert_eq!(d, g.mul(&[two, x, c]));
    }

    #[test]
    fn kinks_are_refused_or_taken_almost_everywhere() {
        let mut g = Graph::new();
        let x = g.declare_symbol("v", 1);
        let xs = Symbol {
            id: x,
            component: 0,
        };
        let x = g.symbol(x, 0);
        let a = g.abs(x);
        let span = physis_syntax::Span::new(3, 9);
        let root = g.mul2(a, x);
        g.set_origin(root, span);
        let e = g.diff(root, xs.into(), Kinks::Refuse).unwrap_err();
        assert_eq!(
            e,
            SymbolicError::NotDifferentiable {
                construct: "abs".into(),
                variable: "v".into(),
                origin: Some(span),
            }
        );
        assert_eq!(
            e.to_diagnostic(physis_syntax::Span::new(0, 1))
                .code
                .as_str(),
            "PH0112"
        );
        let d = g.diff(a, xs.into(), Kinks::AlmostEverywhere).unwrap();
        assert_eq!(d, g.call(Func::Sign, &[x]));
        // A kink that does not depend on the variable is a constant, not an error.
        assert_eq!(g.diff(a, Var::Time, Kinks::Refuse), Ok(Graph::ZERO));
    }
}
