//! Canonicalising constructors for sums, products and powers: every expression built through
//! them is folded, flattened, has its like terms collected and its powers merged, so equal
//! expressions built in different orders get one id.

use crate::graph::Graph;
use crate::node::{Func, Node, NodeId};
use crate::number::Number;

/// How many times a product is re-merged when a merged power splits into new factors
/// (`(x·y)^(1/2)·(x·y)^(1/2)` → `x·y`); more rounds than this never happen for canonical input.
const MERGE_ROUNDS: usize = 4;

impl Graph {
    /// `a + b`.
    pub fn add2(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.add(&[a, b])
    }

    /// `a − b`.
    pub fn sub(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let nb = self.neg(b);
        self.add(&[a, nb])
    }

    /// `a · b`.
    pub fn mul2(&mut self, a: NodeId, b: NodeId) -> NodeId {
        self.mul(&[a, b])
    }

    /// `−a`.
    pub fn neg(&mut self, a: NodeId) -> NodeId {
        self.mul(&[Graph::MINUS_ONE, a])
    }

    /// `a / b`, as `a · b^(−1)`.
    pub fn div(&mut self, a: NodeId, b: NodeId) -> NodeId {
        let r = self.pow(b, Graph::MINUS_ONE);
        self.mul(&[a, r])
    }

    /// `√a`, as `a^(1/2)`.
    pub fn sqrt(&mut self, a: NodeId) -> NodeId {
        let half = self.rational(1, 2);
        self.pow(a, half)
    }

    /// `a^n` for an integer `n`.
    pub fn powi(&mut self, a: NodeId, n: i64) -> NodeId {
        let e = self.int(n);
        self.pow(a, e)
    }

    /// `c · a` for a numeric coefficient.
    pub fn scale(&mut self, c: Number, a: NodeId) -> NodeId {
        let c = self.number(c);
        self.mul(&[c, a])
    }

    /// Split a term into its numeric coefficient and the rest (`3·x·y` → `(3, x·y)`).
    pub(crate) fn split_coefficient(&mut self, term: NodeId) -> (Number, NodeId) {
        match self.node(term) {
            Node::Const(c) => (*c, Graph::ONE),
            Node::Mul(fs) => match self.as_const(fs[0]) {
                Some(c) if fs.len() == 2 => (c, fs[1]),
                Some(c) => {
                    let rest: Box<[NodeId]> = fs[1..].into();
                    (c, self.intern(Node::Mul(rest)))
                }
                None => (Number::ONE, term),
            },
            _ => (Number::ONE, term),
        }
    }

    /// The sum of `terms`: flattened, constants folded, like terms (`2·x + 3·x`) collected,
    /// `sin²u + cos²u` replaced by 1, sorted.
    pub fn add(&mut self, terms: &[NodeId]) -> NodeId {
        let mut constant = Number::ZERO;
        let mut collected: Vec<(NodeId, Number)> = Vec::with_capacity(terms.len());
        let mut stack: Vec<(Number, NodeId)> = terms.iter().map(|t| (Number::ONE, *t)).collect();
        while let Some((k, t)) = stack.pop() {
            if let Node::Add(ts) = self.node(t) {
                stack.extend(ts.iter().map(|x| (k, *x)));
                continue;
            }
            let (c, rest) = self.split_coefficient(t);
            let c = k * c;
            if rest == Graph::ONE {
                constant = constant + c;
            } else if let Node::Add(ts) = self.node(rest) {
                // A raw `c·(a + b)`: distribute so its terms can meet their like terms.
                stack.extend(ts.iter().map(|x| (c, *x)));
            } else {
                collected.push((rest, c));
            }
        }
        collected.sort_unstable_by_key(|(r, _)| *r);
        let mut merged: Vec<(NodeId, Number)> = Vec::with_capacity(collected.len());
        for (r, c) in collected {
            match merged.last_mut() {
                Some((lr, lc)) if *lr == r => *lc = *lc + c,
                _ => merged.push((r, c)),
            }
        }
        merged.retain(|(_, c)| !c.is_zero());
        if merged.len() >= 2 {
            constant = constant + self.pythagoras(&mut merged);
        }
        let mut out: Vec<NodeId> = Vec::with_capacity(merged.len() + 1);
        if !constant.is_zero() {
            out.push(self.number(constant));
        }
        for (r, c) in merged {
            let term = if c.is_one() {
                r
            } else {
                self.coefficient_times(c, r)
            };
            out.push(term);
        }
        match out.len() {
            0 => Graph::ZERO,
            1 => out[0],
            _ => self.intern(Node::Add(out.into())),
        }
    }

    /// `c · r` for a canonical, coefficient-free, non-sum `r`, without re-merging.
    fn coefficient_times(&mut self, c: Number, r: NodeId) -> NodeId {
        let cid = self.number(c);
        let factors: Vec<NodeId> = match self.node(r) {
            Node::Mul(fs) => std::iter::once(cid).chain(fs.iter().copied()).collect(),
            _ => vec![cid, r],
        };
        self.intern(Node::Mul(factors.into()))
    }

    /// Replace pairs `k·R·sin²u + k·R·cos²u` by `k·R`; returns the constant freed (pairs with
    /// `R = 1`). Looks partners up without creating nodes, so a failed match costs no memory.
    fn pythagoras(&mut self, terms: &mut Vec<(NodeId, Number)>) -> Number {
        let mut freed = Number::ZERO;
        let mut i = 0;
        while i < terms.len() {
            let (rest, coef) = terms[i];
            let Some((pos, u, factors)) = self.find_square_of(rest, Func::Sin) else {
                i += 1;
                continue;
            };
            let partner = self
                .lookup(&Node::Call(Func::Cos, vec![u].into()))
                .and_then(|cos| {
                    let two = self.lookup(&Node::Const(Number::int(2)))?;
                    let cos2 = self.lookup(&Node::Pow([cos, two]))?;
                    let mut fs = factors.clone();
                    fs[pos] = cos2;
                    fs.sort_unstable();
                    if fs.len() == 1 {
                        Some(fs[0])
                    } else {
                        self.lookup(&Node::Mul(fs.into()))
                    }
                });
            let j = partner.and_then(|p| terms.iter().position(|(r, c)| *r == p && *c == coef));
            let Some(j) = j else {
                i += 1;
                continue;
            };
            let mut others = factors;
            others.remove(pos);
            let reduced = match others.len() {
                0 => Graph::ONE,
                1 => others[0],
                _ => self.intern(Node::Mul(others.into())),
            };
            let (hi, lo) = if i > j { (i, j) } else { (j, i) };
            terms.remove(hi);
            terms.remove(lo);
            if reduced == Graph::ONE {
                freed = freed + coef;
            } else {
                match terms.iter_mut().find(|(r, _)| *r == reduced) {
                    Some((_, c)) => *c = *c + coef,
                    None => terms.push((reduced, coef)),
                }
            }
            terms.retain(|(_, c)| !c.is_zero());
            terms.sort_unstable_by_key(|(r, _)| *r);
            i = 0;
        }
        freed
    }

    /// If `term` is `f(u)²` or a product with a factor `f(u)²`: its position, `u` and the factors.
    fn find_square_of(&self, term: NodeId, f: Func) -> Option<(usize, NodeId, Vec<NodeId>)> {
        let factors: Vec<NodeId> = match self.node(term) {
            Node::Mul(fs) => fs.to_vec(),
            _ => vec![term],
        };
        factors
            .iter()
            .enumerate()
            .find_map(|(pos, x)| match self.node(*x) {
                Node::Pow([b, e]) if self.as_const(*e) == Some(Number::int(2)) => {
                    match self.node(*b) {
                        Node::Call(g, args) if *g == f => Some((pos, args[0], factors.clone())),
                        _ => None,
                    }
                }
                _ => None,
            })
    }

    /// The product of `factors`: flattened, constants folded, powers of one base merged
    /// (`x^a · x^b` → `x^(a+b)`), the coefficient first, a numeric coefficient distributed over
    /// a lone sum (`2·(x + y)` → `2·x + 2·y`) so like terms can cancel.
    pub fn mul(&mut self, factors: &[NodeId]) -> NodeId {
        let mut coef = Number::ONE;
        let mut work: Vec<NodeId> = factors.to_vec();
        let mut out: Vec<NodeId> = Vec::new();
        for round in 0..MERGE_ROUNDS {
            let mut powers: Vec<(NodeId, NodeId)> = Vec::with_capacity(work.len());
            let mut stack = std::mem::take(&mut work);
            while let Some(f) = stack.pop() {
                match self.node(f) {
                    Node::Const(c) => coef = coef * *c,
                    Node::Mul(fs) => stack.extend_from_slice(fs),
                    Node::Pow([b, e]) => powers.push((*b, *e)),
                    _ => powers.push((f, Graph::ONE)),
                }
            }
            if coef.is_zero() {
                return Graph::ZERO;
            }
            powers.sort_by_key(|(b, _)| *b);
            let mut merged: Vec<(NodeId, Vec<NodeId>)> = Vec::new();
            for (b, e) in powers {
                match merged.last_mut() {
                    Some((lb, es)) if *lb == b => es.push(e),
                    _ => merged.push((b, vec![e])),
                }
            }
            let mut again = false;
            for (b, es) in merged {
                let e = if es.len() == 1 { es[0] } else { self.add(&es) };
                let p = self.pow(b, e);
                match self.node(p) {
                    Node::Const(c) => coef = coef * *c,
                    Node::Mul(_) if round + 1 < MERGE_ROUNDS => {
                        again = true;
                        work.push(p);
                    }
                    _ => work.push(p),
                }
            }
            if !again {
                break;
            }
        }
        out.append(&mut work);
        if coef.is_zero() {
            return Graph::ZERO;
        }
        out.sort_unstable();
        if !coef.is_one()
            && out.len() == 1
            && let Node::Add(ts) = self.node(out[0])
        {
            let ts = ts.to_vec();
            let scaled: Vec<NodeId> = ts.into_iter().map(|t| self.scale_term(coef, t)).collect();
            return self.add(&scaled);
        }
        if !coef.is_one() {
            out.insert(0, self.number(coef));
        }
        match out.len() {
            0 => self.number(coef),
            1 => out[0],
            _ => self.intern(Node::Mul(out.into())),
        }
    }

    /// `c · t` for one term of a canonical sum.
    fn scale_term(&mut self, c: Number, t: NodeId) -> NodeId {
        let (k, rest) = self.split_coefficient(t);
        let k = c * k;
        if rest == Graph::ONE {
            self.number(k)
        } else if k.is_one() {
            rest
        } else {
            self.coefficient_times(k, rest)
        }
    }

    /// `base^exponent`, folded where exact: `x^0 = 1`, `x^1 = x`, `1^x = 1`, `0^c = 0` for
    /// `c > 0`, constants, `(x^a)^n = x^(a·n)` for integer `n`, `(x²)^(1/2) = |x|`,
    /// `|x|^(2k) = x^(2k)`, `(x·y)^n = x^n·y^n` for integer `n`.
    pub fn pow(&mut self, base: NodeId, exponent: NodeId) -> NodeId {
        if exponent == Graph::ZERO {
            return Graph::ONE;
        }
        if exponent == Graph::ONE || base == Graph::ONE {
            return if exponent == Graph::ONE {
                base
            } else {
                Graph::ONE
            };
        }
        let ec = self.as_const(exponent);
        let n = ec.and_then(Number::as_integer);
        if let Some(bc) = self.as_const(base) {
            if bc.is_zero() && ec.is_some_and(|e| e.signum().is_gt()) {
                return Graph::ZERO;
            }
            if let Some(v) = ec.and_then(|e| bc.pow(e)) {
                return self.number(v);
            }
        }
        match self.node(base).clone() {
            Node::Pow([b, e1]) => {
                let e1c = self.as_const(e1);
                if n.is_some() {
                    let e = self.mul(&[e1, exponent]);
                    return self.pow(b, e);
                }
                let even = e1c.and_then(Number::as_integer).is_some_and(|k| k % 2 == 0);
                if let (true, Some(e1c), Some(ec)) = (even, e1c, ec) {
                    let abs = self.call(Func::Abs, &[b]);
                    let e = self.number(e1c * ec);
                    return self.pow(abs, e);
                }
            }
            Node::Call(Func::Abs, args) if n.is_some_and(|k| k % 2 == 0) => {
                return self.pow(args[0], exponent);
            }
            Node::Mul(fs) if n.is_some() => {
                let parts: Vec<NodeId> = fs.iter().map(|f| self.pow(*f, exponent)).collect();
                return self.mul(&parts);
            }
            _ => {}
        }
        self.intern(Node::Pow([base, exponent]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(g: &mut Graph) -> (NodeId, NodeId) {
        let x = g.declare_symbol("x", 1);
        let y = g.declare_symbol("y", 1);
        (g.symbol(x, 0), g.symbol(y, 0))
    }

    #[test]
    fn like_terms_collect_and_cancel() {
        let mut g = Graph::new();
        let (x, y) = xy(&mut g);
        let two = g.int(2);
        let tx = g.mul(&[two, x]);
        let s = g.add(&[x, tx, y]);
        let three = g.int(3);
        let want = g.mul(&[three, x]);
        let want = g.add(&[y, want]);
        assert_eq!(s, want);
        let d = g.sub(s, s);
        assert_eq!(d, Graph::ZERO);
    }

    #[test]
    fn powers_merge_and_cancel() {
        let mut g = Graph::new();
        let (x, y) = xy(&mut g);
        let xy = g.mul(&[x, y]);
        let p = g.div(xy, x);
        assert_eq!(p, y);
        let r = g.sqrt(x);
        let p = g.mul(&[r, r]);
        assert_eq!(p, x);
        let x2 = g.mul(&[x, x]);
        let s = g.sqrt(x2);
        assert_eq!(s, g.call(Func::Abs, &[x]));
        let half = g.rational(1, 2);
        let two = g.int(2);
        let h = g.mul(&[half, two, x]);
        assert_eq!(h, x);
    }

    #[test]
    fn negated_sums_cancel_term_by_term() {
        let mut g = Graph::new();
        let (x, y) = xy(&mut g);
        let s = g.add(&[x, y]);
        let n = g.neg(s);
        let z = g.add(&[n, x, y]);
        assert_eq!(z, Graph::ZERO);
    }

    #[test]
    fn sin_squared_plus_cos_squared() {
        let mut g = Graph::new();
        let (x, y) = xy(&mut g);
        let s = g.call(Func::Sin, &[x]);
        let c = g.call(Func::Cos, &[x]);
        let s2 = g.powi(s, 2);
        let c2 = g.powi(c, 2);
        let ys2 = g.mul(&[y, s2]);
        let yc2 = g.mul(&[y, c2]);
        assert_eq!(g.add(&[ys2, yc2]), y);
        assert_eq!(g.add(&[s2, c2, y]), g.add2(y, Graph::ONE));
    }
}
