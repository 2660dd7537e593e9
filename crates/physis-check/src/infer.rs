//! Dimension and shape inference of expressions and conditions, over a [`Scope`] that
//! resolves names (a simulation's or a scheme's).

use crate::expr::{ArithOp, Builtin, CmpOp, Cond, Expr, ExprKind, SchemeFn, Shape};
use physis_syntax::ast::{self, BinOp, UnOp};
use physis_syntax::{Code, Diagnostic, Span};
use units::{Dimension, Exponent};

/// An error that has already been reported.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reported;

pub(crate) type CResult<T> = Result<T, Reported>;

/// The grid as expressions see it.
#[derive(Clone, Debug)]
pub(crate) struct GridInfo {
    pub dim: Dimension,
    pub sizes: Vec<usize>,
}

/// Signature of a scheme's model function: `f(Time, Y) -> ret`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SchemeFnSig {
    pub func: SchemeFn,
    pub arg: Dimension,
    pub ret: Dimension,
}

/// Name resolution for one context.
pub(crate) trait Scope {
    /// Resolve a name to a leaf expression, or report why not.
    fn resolve(&mut self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> CResult<Expr>;
    /// A model function a scheme may call.
    fn scheme_fn(
        &mut self,
        _name: &ast::Name,
        _diags: &mut Vec<Diagnostic>,
    ) -> Option<CResult<SchemeFnSig>> {
        None
    }
    /// The grid, if any.
    fn grid(&self) -> Option<&GridInfo> {
        None
    }
    /// How a dimension reads in messages.
    fn dim_name(&self, d: Dimension) -> String {
        dim_name(d)
    }
    /// The module whose function body is being checked, if any ([`crate::inline`]).
    fn module(&self) -> Option<&str> {
        None
    }
    /// For an array of vectors (`Length[7][2]`, [`crate::arrays`]), the size of each vector.
    fn element(&self, _name: &ast::Name) -> Option<usize> {
        None
    }
}

/// A dimension's kind name when it has one (`Velocity`), else its symbolic form.
pub(crate) fn dim_name(d: Dimension) -> String {
    match d.kind_name() {
        Some(k) => k.to_string(),
        None => d.to_string(),
    }
}

/// An exact small rational for a float exponent (`0.5` → 1/2).
pub(crate) fn to_exponent(v: f64) -> Option<Exponent> {
    (1..=12).find_map(|den| {
        let num = (v * f64::from(den)).round();
        let close = (num / f64::from(den) - v).abs() < 1e-9 && num.abs() < 1e6;
        if close {
            // The cast is exact: num is a whole number below 1e6.
            Exponent::new(num as i64, i64::from(den))
        } else {
            None
        }
    })
}

/// The expression checker: a scope and the diagnostics sink.
pub(crate) struct Cx<'a> {
    pub scope: &'a mut dyn Scope,
    pub diags: &'a mut Vec<Diagnostic>,
}

fn leaf(kind: ExprKind, dim: Dimension, shape: Shape, span: Span) -> Expr {
    Expr {
        kind,
        dim,
        shape,
        span,
    }
}

impl Cx<'_> {
    fn err(&mut self, d: Diagnostic) -> Reported {
        self.diags.push(d);
        Reported
    }

    fn name_of(&self, d: Dimension) -> String {
        self.scope.dim_name(d)
    }

    /// A quantity expression; its dimension and shape go to the [`crate::types`] recorder.
    pub fn expr(&mut self, e: &ast::Expr) -> CResult<Expr> {
        let checked = self.expr_form(e);
        if let Ok(x) = &checked {
            crate::types::record(e.span, x.dim, x.shape);
        }
        checked
    }

    fn expr_form(&mut self, e: &ast::Expr) -> CResult<Expr> {
        match &e.kind {
            ast::ExprKind::Number { value, unit } => self.number(*value, unit.as_ref(), e.span),
            ast::ExprKind::Name(name) => match self.scope.element(name) {
                Some(width) => Err(self.whole_array(name, width)),
                None => crate::inline::name(self, name),
            },
            ast::ExprKind::Unary { op, operand } => match op {
                UnOp::Neg => {
                    let x = self.expr(operand)?;
                    Ok(leaf(
                        ExprKind::Neg(Box::new(x.clone())),
                        x.dim,
                        x.shape,
                        e.span,
                    ))
                }
                UnOp::Sqrt => {
                    let x = self.expr(operand)?;
                    Ok(self.builtin(Builtin::Sqrt, vec![x], e.span)?)
                }
                UnOp::Not => Err(self.not_quantity(e)),
            },
            ast::ExprKind::Binary { op, lhs, rhs } => {
                let arith = match op {
                    BinOp::Add => ArithOp::Add,
                    BinOp::Sub => ArithOp::Sub,
                    BinOp::Mul => ArithOp::Mul,
                    BinOp::Div => ArithOp::Div,
                    _ => return Err(self.not_quantity(e)),
                };
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                self.arith(arith, l?, r?, e.span)
            }
            ast::ExprKind::Power { base, exponent } => {
                let b = self.expr(base);
                let x = self.expr(exponent);
                self.power(b?, x?, e.span)
            }
            ast::ExprKind::Call { callee, args } => self.call(callee, args, e.span),
            ast::ExprKind::Index { base, indices } => self.index(base, indices, e.span),
            ast::ExprKind::Vector(items) => self.vector(items, e.span),
            ast::ExprKind::Sum(s) => self.sum(s, e.span),
            ast::ExprKind::Range { .. } => Err(self.stray_range(e.span)),
            ast::ExprKind::Error => Err(Reported),
        }
    }

    fn not_quantity(&mut self, e: &ast::Expr) -> Reported {
        self.err(
            Diagnostic::error(
                Code::NotACondition,
                e.span,
                "a condition is used where a quantity is expected",
            )
            .with_label("this is true or false, not a number")
            .with_hint("conditions belong in `stop when` and `on ... do` clauses"),
        )
    }

    fn number(&mut self, value: f64, unit: Option<&ast::UnitText>, span: Span) -> CResult<Expr> {
        let Some(unit) = unit else {
            return Ok(leaf(
                ExprKind::Const(value),
                Dimension::NONE,
                Shape::Scalar,
                span,
            ));
        };
        match units::parse_unit(&unit.text) {
            Ok(u) => Ok(leaf(
                ExprKind::Const(value * u.scale_f64()),
                u.dim(),
                Shape::Scalar,
                span,
            )),
            Err(e) => Err(self.err(
                Diagnostic::error(Code::UnknownUnit, unit.span, e.to_string())
                    .with_label("not a unit")
                    .with_hint(
                        "a unit follows a number directly; to multiply by a name write `2·x`",
                    ),
            )),
        }
    }

    /// Two operands combined: dimensions and shapes.
    pub fn arith(&mut self, op: ArithOp, l: Expr, r: Expr, span: Span) -> CResult<Expr> {
        let dim = match op {
            ArithOp::Add | ArithOp::Sub => {
                if l.dim != r.dim {
                    let verb = if op == ArithOp::Add {
                        "add"
                    } else {
                        "subtract"
                    };
                    return Err(self.mismatch(verb, &l, &r));
                }
                l.dim
            }
            ArithOp::Mul => l.dim * r.dim,
            ArithOp::Div => l.dim / r.dim,
        };
        let shape = self.broadcast(&l, &r, span)?;
        Ok(leaf(
            ExprKind::Binary {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r),
            },
            dim,
            shape,
            span,
        ))
    }

    /// "cannot add Length and Time", labelled on both operands.
    pub fn mismatch(&mut self, verb: &str, l: &Expr, r: &Expr) -> Reported {
        let (ln, rn) = (self.name_of(l.dim), self.name_of(r.dim));
        self.err(
            Diagnostic::error(
                Code::DimensionMismatch,
                l.span.to(r.span),
                format!("cannot {verb} {ln} and {rn}"),
            )
            .with_secondary(l.span, ln)
            .with_secondary(r.span, rn),
        )
    }

    /// The shape of a component-by-component combination; a scalar broadcasts.
    pub fn broadcast(&mut self, l: &Expr, r: &Expr, span: Span) -> CResult<Shape> {
        match (l.shape, r.shape) {
            (a, b) if a == b => Ok(a),
            (Shape::Scalar, b) => Ok(b),
            (a, Shape::Scalar) => Ok(a),
            (a, b) => Err(self.err(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    format!("shapes do not fit: {} and {}", a.describe(), b.describe()),
                )
                .with_secondary(l.span, a.describe())
                .with_secondary(r.span, b.describe()),
            )),
        }
    }

    fn power(&mut self, base: Expr, exponent: Expr, span: Span) -> CResult<Expr> {
        if !exponent.dim.is_dimensionless() || exponent.shape != Shape::Scalar {
            let what = self.name_of(exponent.dim);
            return Err(self.err(
                Diagnostic::error(
                    Code::BadArgument,
                    exponent.span,
                    format!("an exponent must be a single pure number, found {what}"),
                )
                .with_label("exponent"),
            ));
        }
        let dim = if base.dim.is_dimensionless() {
            Dimension::NONE
        } else {
            let value = crate::eval::constant(&exponent).and_then(|v| match v {
                crate::Value::Scalar(x) => Some(x),
                _ => None,
            });
            let Some(p) = value.and_then(to_exponent) else {
                let what = self.name_of(base.dim);
                return Err(self.err(
                    Diagnostic::error(
                        Code::BadArgument,
                        exponent.span,
                        format!("a power of {what} needs a constant rational exponent"),
                    )
                    .with_label("not a constant fraction")
                    .with_secondary(base.span, what),
                ));
            };
            base.dim.pow(p)
        };
        Ok(leaf(
            ExprKind::Pow {
                base: Box::new(base.clone()),
                exponent: Box::new(exponent),
            },
            dim,
            base.shape,
            span,
        ))
    }

    fn vector(&mut self, items: &[ast::Expr], span: Span) -> CResult<Expr> {
        let checked: Vec<CResult<Expr>> = items.iter().map(|i| self.expr(i)).collect();
        let checked: Vec<Expr> = checked.into_iter().collect::<CResult<_>>()?;
        let Some(first) = checked.first() else {
            return Err(self.err(Diagnostic::error(
                Code::ShapeMismatch,
                span,
                "an empty vector has no size",
            )));
        };
        let dim = first.dim;
        for item in &checked {
            if item.shape != Shape::Scalar {
                return Err(self.err(
                    Diagnostic::error(
                        Code::ShapeMismatch,
                        item.span,
                        format!(
                            "a vector's components are single numbers, found {}",
                            item.shape.describe()
                        ),
                    )
                    .with_label("not a single number"),
                ));
            }
            if item.dim != dim {
                let first = first.clone();
                return Err(self.mismatch("mix", &first, item));
            }
        }
        let n = checked.len();
        Ok(leaf(ExprKind::Vector(checked), dim, Shape::Vector(n), span))
    }

    fn index(&mut self, base: &ast::Expr, indices: &[ast::Expr], span: Span) -> CResult<Expr> {
        if let [
            ast::Expr {
                kind: ast::ExprKind::Range { from, to },
                ..
            },
        ] = indices
        {
            return self.slice(base, from, to, span);
        }
        // An array of vectors: `q[j]`, `q[j, k]`, or `q[j][k]` (the inner index on the base).
        if let ast::ExprKind::Name(n) = &base.kind
            && let Some(width) = self.scope.element(n)
        {
            let all: Vec<&ast::Expr> = indices.iter().collect();
            return self.array_index(n, width, &all, span);
        }
        if let ast::ExprKind::Index {
            base: inner,
            indices: first,
        } = &base.kind
            && let ast::ExprKind::Name(n) = &inner.kind
            && let Some(width) = self.scope.element(n)
        {
            let all: Vec<&ast::Expr> = first.iter().chain(indices).collect();
            return self.array_index(n, width, &all, span);
        }
        let b = self.expr(base)?;
        let mut index = Vec::new();
        for i in indices {
            index.push(self.constant_index(i)?);
        }
        let bounds: Vec<usize> = match b.shape {
            Shape::Vector(n) => vec![n],
            Shape::Field => self
                .scope
                .grid()
                .map(|g| g.sizes.clone())
                .unwrap_or_default(),
            Shape::Scalar => {
                return Err(self.err(
                    Diagnostic::error(Code::ShapeMismatch, span, "cannot index a single number")
                        .with_secondary(b.span, "a single number"),
                ));
            }
        };
        if bounds.len() != index.len() {
            return Err(self.err(Diagnostic::error(
                Code::ShapeMismatch,
                span,
                format!("expected {} index(es), found {}", bounds.len(), index.len()),
            )));
        }
        for ((i, n), e) in index.iter().zip(&bounds).zip(indices) {
            if i >= n {
                return Err(self.err(
                    Diagnostic::error(
                        Code::ShapeMismatch,
                        e.span,
                        format!("index {i} is out of bounds for size {n}"),
                    )
                    .with_label(format!("valid indices are 0 to {}", n - 1)),
                ));
            }
        }
        Ok(leaf(
            ExprKind::Index {
                base: Box::new(b.clone()),
                index,
            },
            b.dim,
            Shape::Scalar,
            span,
        ))
    }

    /// An index: a constant whole number from 0.
    pub(crate) fn constant_index(&mut self, i: &ast::Expr) -> CResult<usize> {
        let e = self.expr(i)?;
        let value = crate::eval::constant(&e).and_then(|v| match v {
            crate::Value::Scalar(x) if e.dim.is_dimensionless() => Some(x),
            _ => None,
        });
        match value {
            // The cast is exact: a whole number below 1e15.
            Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 1e15 => Ok(x as usize),
            _ => Err(self.err(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    i.span,
                    "an index must be a whole number from 0",
                )
                .with_label("not a constant index"),
            )),
        }
    }

    fn call(&mut self, callee: &ast::Name, args: &[ast::Expr], span: Span) -> CResult<Expr> {
        if let Some(sig) = self.scope.scheme_fn(callee, self.diags) {
            let sig = sig?;
            let checked: Vec<CResult<Expr>> = args.iter().map(|a| self.expr(a)).collect();
            let checked: Vec<Expr> = checked.into_iter().collect::<CResult<_>>()?;
            if checked.len() != 2 {
                return Err(self.arity(callee, 2, checked.len(), span));
            }
            let expected = [units::dims::TIME, sig.arg];
            for (a, want) in checked.iter().zip(expected) {
                if a.dim != want {
                    let (found, want) = (self.name_of(a.dim), self.name_of(want));
                    return Err(self.err(
                        Diagnostic::error(
                            Code::BadArgument,
                            a.span,
                            format!("`{}` expects {want} here, found {found}", callee.text),
                        )
                        .with_label(found),
                    ));
                }
            }
            return Ok(leaf(
                ExprKind::SchemeCall {
                    func: sig.func,
                    args: checked,
                },
                sig.ret,
                Shape::Scalar,
                span,
            ));
        }
        if let Some(f) = crate::inline::find(self, callee) {
            let f = f?;
            return crate::inline::call(self, &f, args, span);
        }
        let Some(func) = Builtin::from_name(&callee.text).filter(|_| callee.primes == 0) else {
            return Err(self.err(
                Diagnostic::error(
                    Code::NotAFunction,
                    callee.span,
                    format!("`{}` is not a function", callee.key()),
                )
                .with_label("not a built-in function")
                .with_hint("functions: sin cos tan exp log sqrt abs min max atan2 norm dot cross dx dy laplacian sum mean maxAbs ..."),
            ));
        };
        let checked: Vec<CResult<Expr>> = args.iter().map(|a| self.expr(a)).collect();
        let checked: Vec<Expr> = checked.into_iter().collect::<CResult<_>>()?;
        self.builtin(func, checked, span)
    }

    fn arity(&mut self, callee: &ast::Name, want: usize, got: usize, span: Span) -> Reported {
        self.err(Diagnostic::error(
            Code::BadArgument,
            span,
            format!("`{}` takes {want} argument(s), found {got}", callee.key()),
        ))
    }

    /// Check a built-in call on checked arguments.
    pub fn builtin(&mut self, func: Builtin, args: Vec<Expr>, span: Span) -> CResult<Expr> {
        crate::builtins::check(self, func, args, span)
    }

    /// Report a diagnostic and fail.
    pub fn fail(&mut self, d: Diagnostic) -> Reported {
        self.err(d)
    }

    /// Add diagnostics found elsewhere.
    pub fn extend(&mut self, found: Vec<Diagnostic>) {
        self.diags.extend(found);
    }

    /// Resolve a name in the scope.
    pub fn resolve(&mut self, name: &ast::Name) -> CResult<Expr> {
        self.scope.resolve(name, self.diags)
    }

    /// Resolve a name in the scope, its diagnostics going to `into`.
    pub fn resolve_into(&mut self, name: &ast::Name, into: &mut Vec<Diagnostic>) -> CResult<Expr> {
        self.scope.resolve(name, into)
    }

    /// The module whose function body is being checked, if any.
    pub fn scope_module(&self) -> Option<String> {
        self.scope.module().map(str::to_string)
    }

    /// The grid, if the scope has one.
    pub fn grid(&self) -> Option<GridInfo> {
        self.scope.grid().cloned()
    }

    /// The name of a dimension in this scope.
    pub fn dim_text(&self, d: Dimension) -> String {
        self.name_of(d)
    }

    /// A condition: comparisons joined by ∧, ∨, ¬.
    pub fn cond(&mut self, e: &ast::Expr) -> CResult<Cond> {
        match &e.kind {
            ast::ExprKind::Binary { op, lhs, rhs } if op.is_logical() => {
                let l = self.cond(lhs);
                let r = self.cond(rhs);
                let (l, r) = (Box::new(l?), Box::new(r?));
                Ok(if *op == BinOp::And {
                    Cond::And(l, r)
                } else {
                    Cond::Or(l, r)
                })
            }
            ast::ExprKind::Unary {
                op: UnOp::Not,
                operand,
            } => Ok(Cond::Not(Box::new(self.cond(operand)?))),
            ast::ExprKind::Binary { op, lhs, rhs } if op.is_comparison() => {
                for side in [lhs, rhs] {
                    if let ast::ExprKind::Binary { op, .. } = &side.kind
                        && (op.is_comparison() || op.is_logical())
                    {
                        return Err(self.err(
                            Diagnostic::error(
                                Code::NotACondition,
                                side.span,
                                "comparisons cannot be chained",
                            )
                            .with_hint("join comparisons with ∧: `a < b ∧ b < c`"),
                        ));
                    }
                }
                let l = self.expr(lhs);
                let r = self.expr(rhs);
                let (l, r) = (l?, r?);
                if l.dim != r.dim {
                    return Err(self.mismatch("compare", &l, &r));
                }
                for side in [&l, &r] {
                    if side.shape != Shape::Scalar {
                        return Err(self.err(
                            Diagnostic::error(
                                Code::ShapeMismatch,
                                side.span,
                                format!(
                                    "a comparison needs single numbers, found {}",
                                    side.shape.describe()
                                ),
                            )
                            .with_hint(
                                "index a component (`x[1]`) or reduce (`norm(v)`, `maxAbs(u)`)",
                            ),
                        ));
                    }
                }
                let op = match op {
                    BinOp::Lt => CmpOp::Lt,
                    BinOp::Le => CmpOp::Le,
                    BinOp::Gt => CmpOp::Gt,
                    BinOp::Ge => CmpOp::Ge,
                    BinOp::Eq => CmpOp::Eq,
                    _ => CmpOp::Ne,
                };
                Ok(Cond::Compare {
                    op,
                    lhs: Box::new(l),
                    rhs: Box::new(r),
                })
            }
            ast::ExprKind::Error => Err(Reported),
            _ => Err(self.err(
                Diagnostic::error(Code::NotACondition, e.span, "expected a condition")
                    .with_label("not a comparison")
                    .with_hint("compare two quantities, e.g. `t ≥ 10 s`"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponents_become_small_fractions() {
        assert_eq!(to_exponent(2.0), Some(Exponent::int(2)));
        assert_eq!(to_exponent(-0.5), Exponent::new(-1, 2));
        assert_eq!(to_exponent(1.0 / 3.0), Exponent::new(1, 3));
        assert_eq!(to_exponent(0.123456), None);
    }
}
