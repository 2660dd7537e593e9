//! Laws that read rates: `law Q' = mean(u')` reads the right side of `u`'s law. Once every law
//! is checked, each rate a law reads is replaced by the right side it names (itself with its
//! own rates replaced), so every later stage sees ordinary expressions and the derivatives and
//! Jacobians of the symbolic layer follow. Laws that read each other's rates in a cycle have no
//! order to be evaluated in: that is PH0209 with every law of the cycle marked.
//!
//! The run holds a dirichlet field's edge nodes, so their rate is zero and not what the law's
//! right side says there: the rate read is the right side times a field that is 1 inside and
//! 0 on the edge ([`interior`]), the same nodes the run holds.

use crate::expr::{ArithOp, Builtin, Shape};
use crate::expr::{Expr, ExprKind, StateId};
use crate::model::{BoundaryCondition, Grid, Law, State};
use crate::simulate::SimChecker;
use physis_syntax::{Code, Diagnostic};

/// Where a law stands in the substitution.
#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Todo,
    /// On the current path (reaching it again closes a cycle).
    Open,
    Done,
    /// Refused (reads of it say nothing more).
    Failed,
}

/// Replaces every rate a law reads by the right side of the law it names.
pub(crate) fn substitute(c: &mut SimChecker<'_>, states: &[State], laws: &mut [Law]) {
    if !laws.iter().any(|l| reads_rate(&l.rhs)) {
        return;
    }
    let mut marks = vec![Mark::Todo; laws.len()];
    let mut path = Vec::new();
    for i in 0..laws.len() {
        visit(c, states, laws, &mut marks, &mut path, i);
    }
}

fn reads_rate(e: &Expr) -> bool {
    e.any(|x| matches!(x.kind, ExprKind::Rate(_)))
}

fn visit(
    c: &mut SimChecker<'_>,
    states: &[State],
    laws: &mut [Law],
    marks: &mut [Mark],
    path: &mut Vec<usize>,
    i: usize,
) {
    if marks[i] != Mark::Todo {
        return;
    }
    if !reads_rate(&laws[i].rhs) {
        marks[i] = Mark::Done;
        return;
    }
    marks[i] = Mark::Open;
    path.push(i);
    let mut read = Vec::new();
    laws[i].rhs.walk(&mut |x| {
        if let ExprKind::Rate(id) = x.kind
            && !read.contains(&id)
        {
            read.push(id);
        }
    });
    let mut ok = true;
    for id in read {
        ok &= settle_read(c, states, laws, marks, path, i, id);
    }
    path.pop();
    if !ok {
        marks[i] = Mark::Failed;
        return;
    }
    let mut rhs = std::mem::replace(&mut laws[i].rhs, placeholder());
    let held: Vec<StateId> = (0..states.len())
        .map(StateId)
        .filter(|id| matches!(states[id.0].boundary, Some(BoundaryCondition::Dirichlet(_))))
        .collect();
    let mask = c.grid.as_ref().map(interior);
    replace(&mut rhs, laws, &held, mask.as_ref());
    laws[i].rhs = rhs;
    marks[i] = Mark::Done;
}

/// Makes the law of `id` ready to be read by law `i`; false (reported) when it cannot be.
fn settle_read(
    c: &mut SimChecker<'_>,
    states: &[State],
    laws: &mut [Law],
    marks: &mut [Mark],
    path: &mut Vec<usize>,
    i: usize,
    id: StateId,
) -> bool {
    let name = &states[id.0].name;
    let Some(j) = laws.iter().position(|l| l.target == id) else {
        if c.failed_laws.contains(&id) {
            return false;
        }
        c.err(
            Diagnostic::error(
                Code::MisplacedRead,
                laws[i].span,
                format!("a law cannot read the rate of `{name}`: `{name}` has no law of its own"),
            )
            .with_label("reads the rate here")
            .with_hint("a law reads the rate of a state moved by another `law`"),
        );
        return false;
    };
    match marks[j] {
        Mark::Done => {}
        Mark::Failed => return false,
        Mark::Open => {
            let start = path.iter().position(|&k| k == j).unwrap_or(0);
            let cycle: Vec<usize> = path[start..].to_vec();
            let names: Vec<String> = cycle
                .iter()
                .map(|&k| format!("`{}`", states[laws[k].target.0].name))
                .collect();
            let message = if cycle.len() == 1 {
                format!("the law of {} reads its own rate", names[0])
            } else {
                format!(
                    "the laws of {} read each other's rates in a cycle",
                    names.join(", ")
                )
            };
            let mut d = Diagnostic::error(Code::MisplacedRead, laws[i].span, message)
                .with_label("reads a rate that depends on its own");
            for &k in cycle.iter().filter(|&&k| k != i) {
                d = d.with_secondary(laws[k].span, "in the cycle");
            }
            c.err(d.with_hint("write one of these rates out in terms of states"));
            for k in cycle {
                marks[k] = Mark::Failed;
            }
            return false;
        }
        Mark::Todo => {
            visit(c, states, laws, marks, path, j);
            if marks[j] != Mark::Done {
                return false;
            }
        }
    }
    if laws[j].rhs.any(|x| matches!(x.kind, ExprKind::Noise(_))) {
        c.err(
            Diagnostic::error(
                Code::MisplacedRead,
                laws[i].span,
                format!("a law cannot read the rate of `{name}`: its law has noise"),
            )
            .with_label("reads the rate here")
            .with_secondary(laws[j].span, "the law with noise"),
        );
        return false;
    }
    true
}

/// Replaces each rate in `e` by the (already substituted) right side of its law; the rate of
/// a `held` (dirichlet) field is masked by `mask`, zero on the edge.
fn replace(e: &mut Expr, laws: &[Law], held: &[StateId], mask: Option<&Expr>) {
    e.walk_mut(&mut |x| {
        let ExprKind::Rate(id) = x.kind else {
            return true;
        };
        if let Some(law) = laws.iter().find(|l| l.target == id) {
            let span = x.span;
            let rhs = Expr {
                span,
                ..law.rhs.clone()
            };
            *x = match mask {
                Some(mask) if held.contains(&id) => Expr {
                    kind: ExprKind::Binary {
                        op: ArithOp::Mul,
                        lhs: Box::new(rhs),
                        rhs: Box::new(mask.clone()),
                    },
                    dim: x.dim,
                    shape: Shape::Field,
                    span,
                },
                _ => rhs,
            };
        }
        false
    });
}

/// A field that is exactly 1 at the grid's interior nodes and exactly 0 on its edge (a node
/// at either end of some axis, the nodes a dirichlet boundary holds), from the node
/// coordinates: per axis from a to b with spacing h, (1 + sign((c − a)·(b − c) − h·(b − a)/4))/2.
/// At an interior node (c − a)·(b − c) ≥ h·(b − a − h) ≥ h·(b − a)/2 (an axis has at least
/// 3 nodes); at an end it is zero up to rounding, far below h·(b − a)/4.
fn interior(g: &Grid) -> Expr {
    let span = g.span;
    let leaf = |kind, dim, shape| Expr {
        kind,
        dim,
        shape,
        span,
    };
    let bin = |op, l: Expr, r: Expr, dim, shape| {
        leaf(
            ExprKind::Binary {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r),
            },
            dim,
            shape,
        )
    };
    let none = units::Dimension::NONE;
    let (d, d2) = (g.dim, g.dim * g.dim);
    let mut mask: Option<Expr> = None;
    for (axis, &n) in g.sizes.iter().enumerate() {
        let (a, b) = (g.from[axis], g.to[axis]);
        let h = (b - a) / (n.max(2) - 1) as f64;
        let c = || leaf(ExprKind::GridCoord(axis), d, Shape::Field);
        let k = |v| leaf(ExprKind::Const(v), d, Shape::Scalar);
        let product = bin(
            ArithOp::Mul,
            bin(ArithOp::Sub, c(), k(a), d, Shape::Field),
            bin(ArithOp::Sub, k(b), c(), d, Shape::Field),
            d2,
            Shape::Field,
        );
        let margin = leaf(ExprKind::Const(h * (b - a) / 4.0), d2, Shape::Scalar);
        let sign = leaf(
            ExprKind::Call {
                func: Builtin::Sign,
                args: vec![bin(ArithOp::Sub, product, margin, d2, Shape::Field)],
            },
            none,
            Shape::Field,
        );
        let one = || leaf(ExprKind::Const(1.0), none, Shape::Scalar);
        let two = leaf(ExprKind::Const(2.0), none, Shape::Scalar);
        let axis_mask = bin(
            ArithOp::Div,
            bin(ArithOp::Add, one(), sign, none, Shape::Field),
            two,
            none,
            Shape::Field,
        );
        mask = Some(match mask {
            None => axis_mask,
            Some(m) => bin(ArithOp::Mul, m, axis_mask, none, Shape::Field),
        });
    }
    mask.unwrap_or_else(|| leaf(ExprKind::Const(1.0), none, Shape::Scalar))
}

fn placeholder() -> Expr {
    Expr {
        kind: ExprKind::Const(0.0),
        dim: units::Dimension::NONE,
        shape: crate::expr::Shape::Scalar,
        span: physis_syntax::Span::default(),
    }
}
