//! Specialising a scheme with implicit stages (`k₁ ≔ f(t + γ·h, y + γ·h·k₁)`): one residual
//! per unknown, solved in binding order by the driver's Newton, then a `finish` function
//! that computes `next` (and `error`) from the solved stages.
//!
//! The unknowns are the bindings that read themselves and, when `next` appears on its own
//! right side, `next`. The residual of unknown `j` reads the unknowns before it as
//! [`Source::Stages`] (unknown `i`'s slot `s` at `i·dim + s`) and its own value as
//! [`Source::Guess`]; only the bindings it needs are inlined, so each function evaluates
//! the rate no more often than its formula does.

use std::collections::BTreeSet;
use std::sync::Arc;

use physis_runtime::{SparsePattern, StageKind};

use crate::error::IrError;
use crate::ir::{Function, Source, ValueId};
use crate::layout::Dynamics;
use crate::scheme::{Role, SExpr, SchemeDef};
use crate::specialise::{NextIs, SVal, SchemeCtx, Specialised};
use crate::step::SchemeFns;

/// The functions of one implicit stage.
#[derive(Clone, Debug, PartialEq)]
pub struct StageFns {
    /// `k − (the stage's right side at k)` per part.
    pub residual: Function,
    /// `∂residual/∂k` row-major (scalar layouts up to [`crate::specialise::DENSE_JACOBIAN_MAX`]).
    pub jacobian: Option<Function>,
    /// `(∂residual/∂k)·seed` per part.
    pub jvp: Function,
    /// Rate evaluations per residual call.
    pub evals: u32,
    /// What the unknown is beside the state.
    pub kind: StageKind,
    /// True for a linearly implicit stage (one reading `J`, a Rosenbrock method's): its
    /// residual is affine in the unknown, so one Newton update with its exact Jacobian
    /// solves it.
    pub affine: bool,
}

/// Specialises a scheme whose stages read themselves.
pub(crate) fn specialise_staged(
    scheme: &SchemeDef,
    dynamics: &Dynamics,
) -> Result<Specialised, IrError> {
    let parts = dynamics.layout.parts.len();
    let next_pos = scheme
        .bindings
        .iter()
        .position(|b| b.role == Role::Next)
        .ok_or_else(|| IrError::SchemeBindings {
            scheme: scheme.name.clone(),
            expected: "`next`",
        })?;
    let mut unknowns = scheme.implicit_stages();
    if scheme.is_implicit() && !unknowns.contains(&next_pos) {
        unknowns.push(next_pos);
        unknowns.sort_unstable();
    }
    let mut stages = Vec::with_capacity(unknowns.len());
    for (j, &u) in unknowns.iter().enumerate() {
        let mut ctx = SchemeCtx::new(&scheme.name, dynamics);
        let mut vars = solved_vars(&mut ctx, scheme, &unknowns[..j]);
        let own = dynamics.layout.load(ctx.builder(), Source::Guess);
        let next = if u == next_pos {
            NextIs::Guess
        } else {
            vars[u] = Some(SVal::State(own.clone()));
            match unknowns[..j].iter().position(|&x| x == next_pos) {
                Some(i) => NextIs::Solved(parts_of(ctx.solved_stage(i))),
                None => NextIs::Unsolved,
            }
        };
        ctx.set_next(next);
        let value = eval_lazily(&mut ctx, scheme, u, &mut vars)?;
        let value = ctx.state(&value, parts, "an implicit stage")?;
        let b = ctx.builder();
        let res = own
            .iter()
            .zip(&value)
            .map(|(g, v)| b.sub(*g, *v))
            .collect::<Result<Vec<_>, _>>()?;
        let evals = ctx.stages().evals;
        let residual = ctx
            .into_builder()
            .finish(&format!("stage{j}_residual"), &res)?;
        let jvp = crate::derive::jvp(
            &residual,
            &dynamics.layout,
            Source::Guess,
            &format!("stage{j}_jvp"),
        )?;
        let jacobian = crate::derive::dense_jacobian(
            &residual,
            &dynamics.layout,
            Source::Guess,
            &format!("stage{j}_jacobian"),
        )?;
        let affine = scheme.bindings[u].value.reads(&|e| *e == SExpr::J)
            && crate::affine::residual_form(&residual, &jvp, jacobian.as_ref())
                != physis_runtime::ResidualForm::General;
        let kind = if u == next_pos {
            StageKind::State
        } else {
            scheme.bindings[u].kind
        };
        stages.push(StageFns {
            residual,
            jacobian,
            jvp,
            evals,
            kind,
            affine,
        });
    }
    let mut ctx = SchemeCtx::new(&scheme.name, dynamics);
    let mut vars = solved_vars(&mut ctx, scheme, &unknowns);
    let next_solved = vars[next_pos].clone().map(parts_of);
    ctx.set_next(next_solved.map_or(NextIs::Unsolved, NextIs::Solved));
    let next = match vars[next_pos].clone() {
        Some(v) => v,
        None => eval_lazily(&mut ctx, scheme, next_pos, &mut vars)?,
    };
    let mut outs = ctx.state(&next, parts, "`next`")?;
    let error_pos = scheme.bindings.iter().position(|b| b.role == Role::Error);
    if let Some(e) = error_pos {
        let err = eval_lazily(&mut ctx, scheme, e, &mut vars)?;
        outs.extend(ctx.state(&err, parts, "`error`")?);
    }
    let evals = ctx.stages();
    let finish = ctx.into_builder().finish("finish", &outs)?;
    Ok(Specialised {
        fns: SchemeFns::Staged {
            stages,
            finish,
            adaptive: error_pos.is_some(),
        },
        stages: evals,
        stochastic: false,
    })
}

/// The bindings of the already solved unknowns, read from [`Source::Stages`].
fn solved_vars(ctx: &mut SchemeCtx<'_>, scheme: &SchemeDef, solved: &[usize]) -> Vec<Option<SVal>> {
    let mut vars = vec![None; scheme.bindings.len()];
    for (i, &u) in solved.iter().enumerate() {
        vars[u] = Some(ctx.solved_stage(i));
    }
    vars
}

fn parts_of(v: SVal) -> Vec<ValueId> {
    match v {
        SVal::State(xs) => xs,
        _ => Vec::new(),
    }
}

/// Binding `target`'s value, inlining only the earlier bindings it reads (and those they
/// read) that `vars` does not hold yet.
fn eval_lazily(
    ctx: &mut SchemeCtx<'_>,
    scheme: &SchemeDef,
    target: usize,
    vars: &mut [Option<SVal>],
) -> Result<SVal, IrError> {
    let mut need = BTreeSet::new();
    let value = &scheme.bindings[target].value;
    needs(value, scheme, vars, &mut need);
    for &i in &need {
        if i >= target {
            return Err(IrError::UnboundName {
                scheme: scheme.name.clone(),
                index: i,
            });
        }
        let v = ctx.eval(&scheme.bindings[i].value, vars)?;
        vars[i] = Some(v);
    }
    ctx.eval(value, vars)
}

fn needs(e: &SExpr, scheme: &SchemeDef, vars: &[Option<SVal>], out: &mut BTreeSet<usize>) {
    match e {
        SExpr::Var(i) if vars.get(*i).is_some_and(Option::is_none) && out.insert(*i) => {
            if let Some(b) = scheme.bindings.get(*i) {
                needs(&b.value, scheme, vars, out);
            }
        }
        SExpr::Unary(_, a) => needs(a, scheme, vars, out),
        SExpr::Binary(_, a, b) | SExpr::F(a, b) | SExpr::A(a, b) | SExpr::G(a, b) => {
            needs(a, scheme, vars, out);
            needs(b, scheme, vars, out);
        }
        _ => {}
    }
}

/// The union of the stages' sparse Jacobian patterns, when every stage has one (fields on
/// grids): one Newton serves every stage.
pub(crate) fn union_pattern(
    stages: &[StageFns],
    dim: usize,
) -> Result<Option<Arc<SparsePattern>>, IrError> {
    let mut rows: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); dim];
    for st in stages {
        let Some(p) = crate::sparsity::jacobian_pattern(&st.residual, Source::Guess, dim)? else {
            return Ok(None);
        };
        for (i, row) in rows.iter_mut().enumerate() {
            row.extend(p.row(i).iter().copied());
        }
    }
    let p = SparsePattern::from_rows(dim, rows).map_err(|e| IrError::Layout {
        problem: e.to_string(),
    })?;
    Ok(Some(Arc::new(p)))
}
