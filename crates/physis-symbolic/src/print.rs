//! Printing expressions as readable Unicode math (`m·ℓ²·θ'`, `−g·sin(θ)/ℓ`) or as LaTeX, for
//! `physis derive`. Products with negative powers print as fractions, `x^(1/2)` as `√x`.

use std::fmt::Write;

use crate::graph::Graph;
use crate::names::{latex_name, superscript};
use crate::node::{Func, Node, NodeId, Symbol, Var};
use crate::number::Number;

/// The output language of the printer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Notation {
    /// Plain text with Unicode operators and superscripts.
    Unicode,
    /// LaTeX math (without surrounding `$`).
    Latex,
}

// Binding strength, weakest first.
const SUM: u8 = 1;
const PRODUCT: u8 = 2;
const POWER: u8 = 4;

impl Graph {
    /// The expression as Unicode text.
    pub fn to_unicode(&self, id: NodeId) -> String {
        self.print(id, Notation::Unicode)
    }

    /// The expression as LaTeX.
    pub fn to_latex(&self, id: NodeId) -> String {
        self.print(id, Notation::Latex)
    }

    /// The expression in the given notation.
    pub fn print(&self, id: NodeId, notation: Notation) -> String {
        let mut out = String::new();
        Printer {
            g: self,
            n: notation,
            limit: usize::MAX,
        }
        .expr(&mut out, id, 0);
        out
    }

    /// The expression in the given notation, or `None` when its text passes `max_bytes`: a
    /// DAG prints as a tree, so a shared sub-expression is written once per use and a
    /// derived expression's text can grow as a power of its depth. Printing stops soon after
    /// the limit is passed.
    pub fn print_within(&self, id: NodeId, notation: Notation, max_bytes: usize) -> Option<String> {
        let mut out = String::new();
        Printer {
            g: self,
            n: notation,
            limit: max_bytes,
        }
        .expr(&mut out, id, 0);
        (out.len() <= max_bytes).then_some(out)
    }

    /// A symbol component as printed: `x` for a scalar, `x[1]` for a component.
    pub fn symbol_text(&self, s: Symbol) -> String {
        let mut out = String::new();
        Printer {
            g: self,
            n: Notation::Unicode,
            limit: usize::MAX,
        }
        .symbol(&mut out, s);
        out
    }

    /// A variable as printed (`t` for the time).
    pub fn var_text(&self, v: Var) -> String {
        match v {
            Var::Symbol(s) => self.symbol_text(s),
            Var::Time => "t".into(),
        }
    }
}

struct Printer<'g> {
    g: &'g Graph,
    n: Notation,
    /// Past this many bytes of output nothing more is descended into.
    limit: usize,
}

impl Printer<'_> {
    fn latex(&self) -> bool {
        self.n == Notation::Latex
    }

    fn expr(&self, out: &mut String, id: NodeId, ctx: u8) {
        if out.len() > self.limit {
            return;
        }
        if let Some((neg, _)) = self.negated(id) {
            // A leading minus binds like a product term of a sum.
            let wrap = ctx > SUM;
            self.open(out, wrap);
            out.push_str(if self.latex() { "-" } else { "−" });
            self.expr(out, neg, PRODUCT);
            self.close(out, wrap);
            return;
        }
        match self.g.node(id) {
            Node::Const(c) => self.number(out, *c, ctx),
            Node::Symbol(s) => self.symbol(out, *s),
            Node::Time => out.push('t'),
            Node::Add(ts) => {
                let wrap = ctx > SUM;
                self.open(out, wrap);
                // The constant last (`x + 1`, not `1 + x`) and a positive term first (`ℓ − g`,
                // not `−g + ℓ`); the stored order is by id, which is not meant for reading.
                let mut order: Vec<NodeId> = ts.to_vec();
                if order.len() > 1 && self.g.as_const(order[0]).is_some() {
                    order.rotate_left(1);
                }
                if let Some(p) = order.iter().position(|t| self.negated(*t).is_none()) {
                    let first = order.remove(p);
                    order.insert(0, first);
                }
                for (i, t) in order.iter().enumerate() {
                    match (i, self.negated(*t)) {
                        (0, _) => self.expr(out, *t, SUM),
                        (_, Some((pos, _))) => {
                            out.push_str(if self.latex() { " - " } else { " − " });
                            self.expr(out, pos, SUM + 1);
                        }
                        (_, None) => {
                            out.push_str(" + ");
                            self.expr(out, *t, SUM + 1);
                        }
                    }
                }
                self.close(out, wrap);
            }
            Node::Mul(fs) => self.product(out, fs, ctx),
            Node::Pow([b, e]) => self.power(out, *b, *e),
            Node::Call(f, args) => self.call(out, *f, args),
            Node::Opaque(o, args) => {
                self.name(out, self.g.opaque_name(*o));
                self.args(out, args);
            }
        }
    }

    /// If `id` prints with a leading minus, the node without it (only when that node exists).
    fn negated(&self, id: NodeId) -> Option<(NodeId, Number)> {
        match self.g.node(id) {
            Node::Const(c) if c.is_negative() => self.g.lookup(&Node::Const(-*c)).map(|p| (p, *c)),
            Node::Mul(fs) => {
                let c = self.g.as_const(fs[0])?;
                if !c.is_negative() {
                    return None;
                }
                let rest: Vec<NodeId> = if c == Number::MINUS_ONE {
                    fs[1..].to_vec()
                } else {
                    let pc = self.g.lookup(&Node::Const(-c))?;
                    std::iter::once(pc).chain(fs[1..].iter().copied()).collect()
                };
                let p = if rest.len() == 1 {
                    rest[0]
                } else {
                    self.g.lookup(&Node::Mul(rest.into()))?
                };
                Some((p, c))
            }
            _ => None,
        }
    }

    fn open(&self, out: &mut String, wrap: bool) {
        if wrap {
            out.push_str(if self.latex() { "\\left(" } else { "(" });
        }
    }

    fn close(&self, out: &mut String, wrap: bool) {
        if wrap {
            out.push_str(if self.latex() { "\\right)" } else { ")" });
        }
    }

    fn number(&self, out: &mut String, c: Number, ctx: u8) {
        match c {
            Number::SmallRational(r) if r.denom() != 1 => {
                if self.latex() {
                    let sign = if r.numer() < 0 { "-" } else { "" };
                    let _ = write!(out, "{sign}\\frac{{{}}}{{{}}}", r.numer().abs(), r.denom());
                } else {
                    let wrap = ctx > SUM;
                    self.open(out, wrap);
                    let _ = write!(out, "{}/{}", r.numer(), r.denom());
                    self.close(out, wrap);
                }
            }
            _ => {
                let v = c.to_f64();
                let wrap = v < 0.0 && ctx > SUM;
                self.open(out, wrap);
                let text = if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e15) {
                    format!("{v:e}")
                } else {
                    format!("{v}")
                };
                if self.latex() {
                    match text.split_once('e') {
                        Some((m, e)) => {
                            let _ = write!(out, "{m} \\times 10^{{{e}}}");
                        }
                        None => out.push_str(&text),
                    }
                } else {
                    out.push_str(&text.replace('-', "−"));
                }
                self.close(out, wrap);
            }
        }
    }

    fn symbol(&self, out: &mut String, s: Symbol) {
        let (name, len) = self
            .g
            .symbol_info(s.id)
            .map_or(("?", 1), |i| (i.name.as_str(), i.len));
        self.name(out, name);
        if len > 1 {
            if self.latex() {
                let _ = write!(out, "_{{[{}]}}", s.component);
            } else {
                let _ = write!(out, "[{}]", s.component);
            }
        }
    }

    fn name(&self, out: &mut String, name: &str) {
        if self.latex() {
            out.push_str(&latex_name(name));
        } else {
            out.push_str(name);
        }
    }

    /// A product as `numerator/denominator`, factors with negative constant exponents below.
    fn product(&self, out: &mut String, fs: &[NodeId], ctx: u8) {
        let mut num: Vec<Piece> = Vec::new();
        let mut den: Vec<Piece> = Vec::new();
        // Reading order, stable within a rank: sums, then symbols and their powers (by base), then
        // function calls (`(M + m)·s'`, `m·ℓ·cos(φ)`).
        let mut fs = fs.to_vec();
        fs.sort_by_key(|f| self.rank(*f));
        for f in &fs {
            match self.g.node(*f) {
                Node::Const(Number::SmallRational(r)) => {
                    if r.numer() != 1 {
                        num.push(Piece::Int(r.numer()));
                    }
                    if r.denom() != 1 {
                        den.push(Piece::Int(r.denom()));
                    }
                }
                Node::Pow([b, e]) => match self.g.as_const(*e) {
                    Some(c) if c.is_negative() => den.push(Piece::Power(*b, -c)),
                    _ => num.push(Piece::Node(*f)),
                },
                _ => num.push(Piece::Node(*f)),
            }
        }
        let wrap = ctx > PRODUCT;
        self.open(out, wrap);
        if self.latex() && !den.is_empty() {
            out.push_str("\\frac{");
            self.pieces(out, &num);
            out.push_str("}{");
            self.pieces(out, &den);
            out.push('}');
        } else {
            self.pieces(out, &num);
            if !den.is_empty() {
                out.push('/');
                let group = den.len() > 1;
                self.open(out, group);
                self.pieces(out, &den);
                self.close(out, group);
            }
        }
        self.close(out, wrap);
    }

    fn rank(&self, f: NodeId) -> (u8, NodeId) {
        let base = match self.g.node(f) {
            Node::Pow([b, _]) => *b,
            _ => f,
        };
        let rank = match self.g.node(base) {
            Node::Const(_) => 0,
            Node::Add(_) => 1,
            Node::Symbol(_) | Node::Time => 2,
            _ => 3,
        };
        (rank, base)
    }

    fn pieces(&self, out: &mut String, ps: &[Piece]) {
        if ps.is_empty() {
            out.push('1');
        }
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                out.push_str(if self.latex() { " \\, " } else { "·" });
            }
            match p {
                Piece::Int(k) => self.number(out, Number::int(*k), PRODUCT + 1),
                Piece::Node(id) => self.expr(out, *id, PRODUCT + 1),
                Piece::Power(b, e) => self.power_of(out, *b, *e),
            }
        }
    }

    fn power(&self, out: &mut String, b: NodeId, e: NodeId) {
        match self.g.as_const(e) {
            Some(c) => self.power_of(out, b, c),
            None => {
                self.expr(out, b, POWER + 1);
                if self.latex() {
                    out.push_str("^{");
                    self.expr(out, e, 0);
                    out.push('}');
                } else {
                    out.push('^');
                    self.expr(out, e, POWER + 1);
                }
            }
        }
    }

    fn power_of(&self, out: &mut String, b: NodeId, e: Number) {
        if e.is_one() {
            self.expr(out, b, POWER + 1);
            return;
        }
        if e == Number::from_f64(0.5) {
            if self.latex() {
                out.push_str("\\sqrt{");
                self.expr(out, b, 0);
                out.push('}');
            } else {
                out.push('√');
                self.expr(out, b, POWER + 1);
            }
            return;
        }
        self.expr(out, b, POWER + 1);
        match (self.n, e) {
            (Notation::Latex, Number::SmallRational(r)) if r.denom() == 1 => {
                let _ = write!(out, "^{{{}}}", r.numer());
            }
            (Notation::Latex, _) => {
                out.push_str("^{");
                self.number(out, e, 0);
                out.push('}');
            }
            (Notation::Unicode, Number::SmallRational(r)) if r.denom() == 1 => {
                out.push_str(&superscript(r.numer()));
            }
            (Notation::Unicode, _) => {
                out.push('^');
                self.number(out, e, POWER + 1);
            }
        }
    }

    fn call(&self, out: &mut String, f: Func, args: &[NodeId]) {
        if f == Func::Abs {
            out.push_str(if self.latex() { "\\left|" } else { "|" });
            self.expr(out, args[0], 0);
            out.push_str(if self.latex() { "\\right|" } else { "|" });
            return;
        }
        if self.latex() {
            // LaTeX's own operator names where it has one (`\arcsin`, `\ln`).
            let builtin = match f {
                Func::Asin => Some("arcsin"),
                Func::Acos => Some("arccos"),
                Func::Atan => Some("arctan"),
                Func::Log => Some("ln"),
                Func::Sin
                | Func::Cos
                | Func::Tan
                | Func::Sinh
                | Func::Cosh
                | Func::Tanh
                | Func::Exp
                | Func::Min
                | Func::Max => Some(f.name()),
                _ => None,
            };
            match builtin {
                Some(name) => {
                    let _ = write!(out, "\\{name}");
                }
                None => {
                    let _ = write!(out, "\\operatorname{{{}}}", f.name());
                }
            }
        } else {
            out.push_str(f.name());
        }
        self.args(out, args);
    }

    fn args(&self, out: &mut String, args: &[NodeId]) {
        out.push_str(if self.latex() { "\\left(" } else { "(" });
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.expr(out, *a, 0);
        }
        out.push_str(if self.latex() { "\\right)" } else { ")" });
    }
}

enum Piece {
    Int(i64),
    Node(NodeId),
    Power(NodeId, Number),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_print_as_fractions() {
        let mut g = Graph::new();
        let gs = g.declare_symbol("g", 1);
        let ls = g.declare_symbol("ℓ", 1);
        let th = g.declare_symbol("θ", 1);
        let (gv, lv, tv) = (g.symbol(gs, 0), g.symbol(ls, 0), g.symbol(th, 0));
        let s = g.sin(tv);
        let num = g.mul(&[gv, s]);
        let q = g.div(num, lv);
        let e = g.neg(q);
        assert_eq!(g.to_unicode(e), "−g·sin(θ)/ℓ");
        assert_eq!(
            g.to_latex(e),
            "-\\frac{g \\, \\sin\\left(\\theta \\right)}{\\ell }"
        );
        let half = g.rational(1, 2);
        let l2 = g.powi(lv, 2);
        let k = g.mul(&[half, gv, l2]);
        assert_eq!(g.to_unicode(k), "g·ℓ²/2");
        let one = g.add2(gv, Graph::ONE);
        let p = g.mul(&[one, lv]);
        assert_eq!(g.to_unicode(p), "(g + 1)·ℓ");
        let r = g.sqrt(one);
        assert_eq!(g.to_unicode(r), "√(g + 1)");
        let d = g.sub(lv, gv);
        assert_eq!(g.to_unicode(d), "ℓ − g");
        let m = g.neg(d);
        assert_eq!(g.to_unicode(m), "g − ℓ");
        let inner = g.mul(&[gv, lv]);
        let p = g.powi(inner, -1);
        assert_eq!(g.to_unicode(p), "1/(g·ℓ)");
        let p = g.sqrt(inner);
        assert_eq!(g.to_unicode(p), "√(g·ℓ)");
        let t = g.sub(Graph::TIME, Graph::ONE);
        assert_eq!(g.to_latex(t), "t - 1");
    }
}
