//! Whole-expression rewriting: re-canonicalise (simplify) and substitute.
//!
//! The constructors already simplify locally as nodes are built; [`Graph::simplify`] applies
//! them bottom-up to an expression stored raw (through [`Graph::intern`]) or built before a
//! substitution made new simplifications possible. It is idempotent: a simplified expression
//! rebuilds to itself.

use crate::graph::{FxMap, Graph};
use crate::node::{Node, NodeId, Var};

impl Graph {
    /// The canonical form of `root`.
    pub fn simplify(&mut self, root: NodeId) -> NodeId {
        self.rewrite(&[root], &[])[0]
    }

    /// The canonical forms of `roots`, sharing work.
    pub fn simplify_many(&mut self, roots: &[NodeId]) -> Vec<NodeId> {
        self.rewrite(roots, &[])
    }

    /// `roots` with each variable in `with` replaced by its node, then simplified.
    pub fn substitute(&mut self, roots: &[NodeId], with: &[(Var, NodeId)]) -> Vec<NodeId> {
        self.rewrite(roots, with)
    }

    fn rewrite(&mut self, roots: &[NodeId], with: &[(Var, NodeId)]) -> Vec<NodeId> {
        let order = self.reachable(roots);
        let mut m: FxMap<NodeId, NodeId> = FxMap::default();
        m.reserve(order.len());
        for n in order {
            let node = self.node(n).clone();
            let cs: Vec<NodeId> = node.children().iter().map(|c| m[c]).collect();
            let new = match node {
                Node::Const(_) => n,
                Node::Symbol(s) => find(with, Var::Symbol(s)).unwrap_or(n),
                Node::Time => find(with, Var::Time).unwrap_or(n),
                Node::Add(_) => self.add(&cs),
                Node::Mul(_) => self.mul(&cs),
                Node::Pow(_) => self.pow(cs[0], cs[1]),
                Node::Call(f, _) => self.call(f, &cs),
                Node::Opaque(o, _) => self.opaque(o, &cs),
            };
            if let Some(span) = self.origin(n) {
                self.set_origin(new, span);
            }
            m.insert(n, new);
        }
        roots.iter().map(|r| m[r]).collect()
    }
}

fn find(with: &[(Var, NodeId)], v: Var) -> Option<NodeId> {
    with.iter().find(|(w, _)| *w == v).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Symbol;

    #[test]
    fn raw_expressions_simplify_idempotently() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 1);
        let xs = Symbol {
            id: x,
            component: 0,
        };
        let x = g.symbol(x, 0);
        let two = g.int(2);
        let raw_m = g.intern(Node::Mul(vec![two, x].into()));
        let raw = g.intern(Node::Add(vec![x, raw_m, Graph::ZERO].into()));
        let s = g.simplify(raw);
        let three = g.int(3);
        assert_eq!(s, g.mul(&[three, x]));
        assert_eq!(g.simplify(s), s);
        let y = g.substitute(&[s], &[(Var::Symbol(xs), two)]);
        assert_eq!(g.as_const(y[0]).map(|c| c.to_f64()), Some(6.0));
    }
}
