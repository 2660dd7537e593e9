//! Indexed forms, expanded at check time: a sum `Σ j in a..b, c: e` becomes the sum of its
//! terms, a slice `m[a..b]` the vector of its components, and a per-index law
//! `law x[i]'' = e` the vector law `[e(0), e(1), …]`. Each index is substituted by a whole
//! number in the syntax tree before the term is checked, so a term is an ordinary checked
//! expression: the symbolic layer (derivatives, Jacobians), lowering, the interpreter and
//! generated code see nothing new.

use crate::expr::{ArithOp, CmpOp, Cond, Expr, ExprKind, Shape};
use crate::infer::{CResult, Cx, Reported};
use crate::model::Value;
use physis_syntax::ast::{self, SumExpr};
use physis_syntax::{Code, Diagnostic, Span};
use std::cell::Cell;

/// How many terms (or components) one outermost indexed form may expand to in all, nested
/// forms included: a checked expression is walked recursively by every later pass.
pub const MAX_TERMS: usize = 65_536;

thread_local! {
    /// Indexed forms being expanded around the current one, and the terms still allowed.
    static BUDGET: Cell<(usize, usize)> = const { Cell::new((0, MAX_TERMS)) };
}

/// Runs `f` inside one indexed form, the budget set afresh by the outermost.
fn nested<T>(f: impl FnOnce() -> T) -> T {
    BUDGET.with(|b| {
        let (depth, left) = b.get();
        b.set((depth + 1, if depth == 0 { MAX_TERMS } else { left }));
    });
    let out = f();
    BUDGET.with(|b| {
        let (depth, left) = b.get();
        b.set((depth.saturating_sub(1), left));
    });
    out
}

/// Take `n` terms from the budget; false when it is spent.
fn take(n: usize) -> bool {
    BUDGET.with(|b| {
        let (depth, left) = b.get();
        match left.checked_sub(n) {
            Some(rest) => {
                b.set((depth, rest));
                true
            }
            None => false,
        }
    })
}

/// `e` with every free `name` (unprimed) replaced by the whole number `value`, keeping spans;
/// a nested sum over the same name shadows it in its condition and summand.
pub(crate) fn subst(e: &ast::Expr, name: &str, value: i64) -> ast::Expr {
    use ast::ExprKind as K;
    let go = |x: &ast::Expr| Box::new(subst(x, name, value));
    let kind = match &e.kind {
        K::Name(n) if n.primes == 0 && n.text == name => K::Number {
            // Indices are small whole numbers, exact in a float.
            value: value as f64,
            unit: None,
        },
        K::Number { .. } | K::Name(_) | K::Error => e.kind.clone(),
        K::Unary { op, operand } => K::Unary {
            op: *op,
            operand: go(operand),
        },
        K::Binary { op, lhs, rhs } => K::Binary {
            op: *op,
            lhs: go(lhs),
            rhs: go(rhs),
        },
        K::Power { base, exponent } => K::Power {
            base: go(base),
            exponent: go(exponent),
        },
        K::Call { callee, args } => K::Call {
            callee: callee.clone(),
            args: args.iter().map(|a| subst(a, name, value)).collect(),
        },
        K::Index { base, indices } => K::Index {
            base: go(base),
            indices: indices.iter().map(|i| subst(i, name, value)).collect(),
        },
        K::Vector(items) => K::Vector(items.iter().map(|i| subst(i, name, value)).collect()),
        K::Range { from, to } => K::Range {
            from: go(from),
            to: go(to),
        },
        K::Sum(s) => {
            let shadowed = s.index.text == name;
            let inner = |x: &ast::Expr| {
                if shadowed {
                    x.clone()
                } else {
                    subst(x, name, value)
                }
            };
            K::Sum(Box::new(SumExpr {
                index: s.index.clone(),
                from: subst(&s.from, name, value),
                to: subst(&s.to, name, value),
                filter: s.filter.as_ref().map(inner),
                body: inner(&s.body),
            }))
        }
    };
    ast::Expr { kind, span: e.span }
}

/// The value of a constant condition (`j ≠ i` once both are numbers).
fn cond_value(c: &Cond) -> Option<bool> {
    Some(match c {
        Cond::Compare { op, lhs, rhs } => {
            let (Value::Scalar(a), Value::Scalar(b)) =
                (crate::eval::constant(lhs)?, crate::eval::constant(rhs)?)
            else {
                return None;
            };
            match op {
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
            }
        }
        Cond::And(a, b) => cond_value(a)? && cond_value(b)?,
        Cond::Or(a, b) => cond_value(a)? || cond_value(b)?,
        Cond::Not(a) => !cond_value(a)?,
    })
}

/// The largest index bound accepted (far past [`MAX_TERMS`], but exact in a float).
const MAX_BOUND: f64 = 1e9;

impl Cx<'_> {
    /// A whole number written as a range bound, after the outer indices are substituted.
    fn bound(&mut self, e: &ast::Expr, what: &str) -> CResult<i64> {
        let x = self.expr(e)?;
        let value = crate::eval::constant(&x).and_then(|v| match v {
            Value::Scalar(v) if x.dim.is_dimensionless() => Some(v),
            _ => None,
        });
        match value {
            // The cast is exact: a whole number below 1e9 in magnitude.
            Some(v) if v.fract() == 0.0 && v.abs() <= MAX_BOUND => Ok(v as i64),
            _ => Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    e.span,
                    format!("{what} must be a constant whole number"),
                )
                .with_label("not a constant whole number")
                .with_hint(
                    "bounds are numbers or expressions of enclosing indices: `0..7`, `i + 1..7`",
                ),
            )),
        }
    }

    /// `from..to` as a non-empty list of whole numbers, within the term budget.
    fn range(&mut self, from: &ast::Expr, to: &ast::Expr, span: Span) -> CResult<(i64, i64)> {
        let lo = self.bound(from, "a range's start");
        let hi = self.bound(to, "a range's end");
        let (lo, hi) = (lo?, hi?);
        if hi < lo {
            return Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    format!("the range {lo}..{hi} runs backwards"),
                )
                .with_label("its end is before its start")
                .with_hint("`a..b` runs over a ≤ k < b, so `0..7` is 0 to 6"),
            ));
        }
        // hi − lo ≤ 2e9 fits a usize on every target we build for.
        let n = usize::try_from(hi - lo).unwrap_or(usize::MAX);
        if !take(n) {
            return Err(self.fail(
                Diagnostic::error(
                    Code::TooBig,
                    span,
                    format!("indexed forms here expand to more than {MAX_TERMS} terms"),
                )
                .with_label(format!("{n} more terms"))
                .with_hint("split the model or use fewer bodies"),
            ));
        }
        Ok((lo, hi))
    }

    /// Check `body` with `index` = k for each k, stopping at the first term that fails (its
    /// diagnostic then names k).
    fn terms(
        &mut self,
        index: &ast::Name,
        ks: impl Iterator<Item = i64>,
        body: &ast::Expr,
    ) -> CResult<Vec<Expr>> {
        let mut out = Vec::new();
        for k in ks {
            let before = self.diags.len();
            match self.expr(&subst(body, &index.text, k)) {
                Ok(term) => out.push(term),
                Err(Reported) => {
                    if self.diags.len() > before
                        && let Some(d) = self.diags.last_mut()
                    {
                        d.hints
                            .push(format!("in the term with {} = {k}", index.text));
                    }
                    return Err(Reported);
                }
            }
        }
        Ok(out)
    }

    /// `Σ j in a..b, c: e`: the checked sum of its terms, added pairwise (a balanced tree,
    /// so no long chain reaches the recursive passes after checking).
    pub(crate) fn sum(&mut self, s: &SumExpr, span: Span) -> CResult<Expr> {
        nested(|| {
            let (lo, hi) = self.range(&s.from, &s.to, span)?;
            let mut ks = Vec::new();
            for k in lo..hi {
                let keep = match &s.filter {
                    None => true,
                    Some(f) => {
                        let c = self.cond(&subst(f, &s.index.text, k))?;
                        match cond_value(&c) {
                            Some(keep) => keep,
                            None => {
                                return Err(self.fail(
                                    Diagnostic::error(
                                        Code::ShapeMismatch,
                                        f.span,
                                        "a sum's condition must compare indices and constants",
                                    )
                                    .with_label("not known before the run")
                                    .with_hint("e.g. `j ≠ i`, `j < i ∧ j ≠ 2`"),
                                ));
                            }
                        }
                    }
                };
                if keep {
                    ks.push(k);
                }
            }
            if ks.is_empty() {
                return self.empty_sum(s, lo, span);
            }
            let terms = self.terms(&s.index, ks.into_iter(), &s.body)?;
            self.add_pairwise(terms, span)
        })
    }

    /// A sum with no term (`Σ j in 0..i` at i = 0) is zero, with the dimension and shape its
    /// summand has at the range's start; when the summand means nothing there (it indexes
    /// out of bounds, say), the sum is refused.
    fn empty_sum(&mut self, s: &SumExpr, lo: i64, span: Span) -> CResult<Expr> {
        let before = self.diags.len();
        let trial = self.expr(&subst(&s.body, &s.index.text, lo));
        self.diags.truncate(before);
        let Ok(trial) = trial else {
            return Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    "no index of the sum takes part, and its summand means nothing at its start",
                )
                .with_label("an empty sum whose dimension is unknown")
                .with_hint("widen the range or loosen the condition"),
            ));
        };
        let zero = |dim| Expr {
            kind: ExprKind::Const(0.0),
            dim,
            shape: Shape::Scalar,
            span,
        };
        Ok(match trial.shape {
            Shape::Vector(n) => Expr {
                kind: ExprKind::Vector(vec![zero(trial.dim); n]),
                dim: trial.dim,
                shape: trial.shape,
                span,
            },
            // A field's zero broadcasts from a scalar, as a literal does.
            Shape::Scalar | Shape::Field => zero(trial.dim),
        })
    }

    fn add_pairwise(&mut self, mut terms: Vec<Expr>, span: Span) -> CResult<Expr> {
        while terms.len() > 1 {
            let mut next = Vec::with_capacity(terms.len().div_ceil(2));
            let mut it = terms.into_iter();
            while let Some(a) = it.next() {
                match it.next() {
                    Some(b) => next.push(self.arith(ArithOp::Add, a, b, span)?),
                    None => next.push(a),
                }
            }
            terms = next;
        }
        // Not empty: the caller checked that some index takes part.
        let mut sum = terms.pop().ok_or(Reported)?;
        sum.span = span;
        Ok(sum)
    }

    /// `base[a..b]`: the vector of components `a ≤ k < b` of a vector.
    pub(crate) fn slice(
        &mut self,
        base: &ast::Expr,
        from: &ast::Expr,
        to: &ast::Expr,
        span: Span,
    ) -> CResult<Expr> {
        let b = self.expr(base)?;
        let Shape::Vector(n) = b.shape else {
            return Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    format!("only a vector can be sliced, found {}", b.shape.describe()),
                )
                .with_secondary(b.span, b.shape.describe()),
            ));
        };
        let (lo, hi) = nested(|| self.range(from, to, from.span.to(to.span)))?;
        if lo < 0 || hi > n as i64 {
            return Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    from.span.to(to.span),
                    format!("the slice {lo}..{hi} is out of bounds for size {n}"),
                )
                .with_label(format!("valid indices are 0 to {}", n - 1)),
            ));
        }
        let items = (lo..hi)
            .map(|k| Expr {
                kind: ExprKind::Index {
                    base: Box::new(b.clone()),
                    // In bounds, so 0 ≤ k < n.
                    index: vec![k as usize],
                },
                dim: b.dim,
                shape: Shape::Scalar,
                span,
            })
            .collect::<Vec<_>>();
        let len = items.len();
        Ok(Expr {
            kind: ExprKind::Vector(items),
            dim: b.dim,
            shape: Shape::Vector(len),
            span,
        })
    }

    /// A range outside an index: refused.
    pub(crate) fn stray_range(&mut self, span: Span) -> Reported {
        self.fail(
            Diagnostic::error(Code::ShapeMismatch, span, "a range stands only in an index")
                .with_label("`a..b` here has no meaning")
                .with_hint("slice a vector with `m[1..3]`, or sum with `Σ j in 0..3: …`"),
        )
    }

    /// The components of a per-index law: `body` with `index` = 0, 1, …, n − 1, as a vector;
    /// for an array of vectors (`width` components each, [`crate::arrays`]) each `body` is a
    /// vector and the rows are laid end to end.
    pub(crate) fn each(
        &mut self,
        index: &ast::Name,
        n: usize,
        width: Option<usize>,
        body: &ast::Expr,
    ) -> CResult<Expr> {
        nested(|| {
            if !take(n) {
                return Err(self.fail(
                    Diagnostic::error(
                        Code::TooBig,
                        body.span,
                        format!("indexed forms here expand to more than {MAX_TERMS} terms"),
                    )
                    .with_hint("use fewer components"),
                ));
            }
            // n is a declared vector size, far below i64::MAX.
            let mut items = self.terms(index, 0..n as i64, body)?;
            if let Some(width) = width {
                items = self.flatten_law(items, width)?;
            }
            let n = items.len();
            for item in &items {
                if item.shape != Shape::Scalar {
                    return Err(self.fail(
                        Diagnostic::error(
                            Code::ShapeMismatch,
                            item.span,
                            format!(
                                "a per-index law gives one component, found {}",
                                item.shape.describe()
                            ),
                        )
                        .with_label("not a single number")
                        .with_hint(format!("index the vectors it reads: `x[{}]`", index.text)),
                    ));
                }
            }
            let Some(first) = items.first().cloned() else {
                return Err(self.fail(Diagnostic::error(
                    Code::ShapeMismatch,
                    body.span,
                    "a per-index law over no components",
                )));
            };
            if let Some(bad) = items.iter().find(|e| e.dim != first.dim) {
                let bad = bad.clone();
                return Err(self.mismatch("mix", &first, &bad));
            }
            let dim = first.dim;
            Ok(Expr {
                kind: ExprKind::Vector(items),
                dim,
                shape: Shape::Vector(n),
                span: body.span,
            })
        })
    }
}
