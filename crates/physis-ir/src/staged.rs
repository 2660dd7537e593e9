//! Specialising a scheme with implicit stages (`k₁ ≔ f(t + γ·h, y + γ·h·k₁)`): one residual
//! per unknown, solved in binding order by the driver's Newton, then a `finish` function
//! that computes `next` (and `error`) from the solved stages.
//!
//! The unknowns are the groups of bindings that read themselves or each other (a group
//! of `w` stages is one unknown of `w` state-sized blocks, solved as one Newton system)
//! and, when `next` appears on its own right side, `next`. The residual of unknown `j`
//! reads the blocks solved before it as [`Source::Stages`] (block `i`'s slot `s` at
//! `i·dim + s`) and its own blocks as [`Source::Guess`]; only the bindings it needs are
//! inlined, so each function evaluates the rate no more often than its formula does.

use std::collections::BTreeSet;
use std::sync::Arc;

use physis_runtime::{SparsePattern, StageKind};

use crate::error::IrError;
use crate::ir::{Function, Source, ValueId};
use crate::layout::{Dynamics, Layout, Part};
use crate::scheme::{Role, SExpr, SchemeDef};
use crate::specialise::{NextIs, SVal, SchemeCtx, Specialised};
use crate::step::SchemeFns;

/// The functions of one implicit stage, or of a group of stages that read each other.
#[derive(Clone, Debug, PartialEq)]
pub struct StageFns {
    /// `k − (the stage's right side at k)` per part, block after block for a group.
    pub residual: Function,
    /// `∂residual/∂k` row-major (scalar layouts up to [`crate::specialise::DENSE_JACOBIAN_MAX`]
    /// unknowns).
    pub jacobian: Option<Function>,
    /// `(∂residual/∂k)·seed` per part.
    pub jvp: Function,
    /// Rate evaluations per residual call.
    pub evals: u32,
    /// What the unknown is beside the state.
    pub kind: StageKind,
    /// State-sized blocks of the unknown: the stages of the group.
    pub width: u32,
    /// True for a linearly implicit stage (one reading `J`, a Rosenbrock method's): its
    /// residual is affine in the unknown, so one Newton update with its exact Jacobian
    /// solves it.
    pub affine: bool,
}

/// Specialises a scheme whose stages read themselves (or each other).
pub(crate) fn specialise_staged(
    scheme: &SchemeDef,
    dynamics: &Dynamics,
) -> Result<Specialised, IrError> {
    let parts = dynamics.layout.parts.len();
    let dim = dynamics.dim();
    let next_pos = scheme
        .bindings
        .iter()
        .position(|b| b.role == Role::Next)
        .ok_or_else(|| IrError::SchemeBindings {
            scheme: scheme.name.clone(),
            expected: "`next`",
        })?;
    let mut groups = scheme.implicit_groups();
    if groups
        .iter()
        .flatten()
        .any(|&u| scheme.bindings[u].role != Role::Local)
    {
        return Err(IrError::SchemeBindings {
            scheme: scheme.name.clone(),
            expected: "implicit stages that are intermediates, not outputs",
        });
    }
    if scheme.is_implicit() {
        groups.push(vec![next_pos]);
        groups.sort_unstable_by_key(|g| g[0]);
    }
    // The first block of each group in the solved stages.
    let firsts: Vec<usize> = groups
        .iter()
        .scan(0, |at, g| {
            let first = *at;
            *at += g.len();
            Some(first)
        })
        .collect();
    let mut stages = Vec::with_capacity(groups.len());
    for (j, group) in groups.iter().enumerate() {
        let mut ctx = SchemeCtx::new(&scheme.name, dynamics);
        let mut vars = solved_vars(&mut ctx, scheme, &groups[..j], &firsts);
        let mut owns = Vec::with_capacity(group.len());
        for m in 0..group.len() {
            owns.push(block(&dynamics.layout, m * dim).load(ctx.builder(), Source::Guess));
        }
        let next = if group[0] == next_pos {
            NextIs::Guess
        } else {
            for (&u, own) in group.iter().zip(&owns) {
                vars[u] = Some(SVal::State(own.clone()));
            }
            match groups[..j].iter().position(|g| g[0] == next_pos) {
                Some(i) => NextIs::Solved(parts_of(ctx.solved_stage(firsts[i]))),
                None => NextIs::Unsolved,
            }
        };
        ctx.set_next(next);
        let mut res = Vec::with_capacity(group.len() * parts);
        for (&u, own) in group.iter().zip(&owns) {
            let value = eval_lazily(&mut ctx, scheme, u, &mut vars)?;
            let value = ctx.state(&value, parts, "an implicit stage")?;
            let b = ctx.builder();
            for (g, v) in own.iter().zip(&value) {
                res.push(b.sub(*g, *v)?);
            }
        }
        let evals = ctx.stages().evals;
        let residual = ctx
            .into_builder()
            .finish(&format!("stage{j}_residual"), &res)?;
        let wide = widened(&dynamics.layout, group.len(), dim);
        let jvp = crate::derive::jvp(&residual, &wide, Source::Guess, &format!("stage{j}_jvp"))?;
        let jacobian = crate::derive::dense_jacobian(
            &residual,
            &wide,
            Source::Guess,
            &format!("stage{j}_jacobian"),
        )?;
        // Linearly implicit (a Rosenbrock stage): every member reads `J` and the residual
        // is affine in the unknown.
        let affine = group
            .iter()
            .all(|&u| scheme.bindings[u].value.reads(&|e| *e == SExpr::J))
            && crate::affine::residual_form(&residual, &jvp, jacobian.as_ref())
                != physis_runtime::ResidualForm::General;
        let kind_of = |u: usize| {
            if u == next_pos {
                StageKind::State
            } else {
                scheme.bindings[u].kind
            }
        };
        let kind = if group.iter().all(|&u| kind_of(u) == kind_of(group[0])) {
            kind_of(group[0])
        } else {
            StageKind::Other
        };
        stages.push(StageFns {
            residual,
            jacobian,
            jvp,
            evals,
            kind,
            width: group.len() as u32,
            affine,
        });
    }
    let mut ctx = SchemeCtx::new(&scheme.name, dynamics);
    let mut vars = solved_vars(&mut ctx, scheme, &groups, &firsts);
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

/// The layout shifted by `shift` slots: one block of a group's unknown.
fn block(layout: &Layout, shift: usize) -> Layout {
    Layout {
        parts: layout
            .parts
            .iter()
            .map(|p| Part {
                offset: p.offset + shift as u32,
                ..*p
            })
            .collect(),
    }
}

/// `width` copies of the layout end to end: the unknown of a group of stages.
fn widened(layout: &Layout, width: usize, dim: usize) -> Layout {
    Layout {
        parts: (0..width)
            .flat_map(|m| block(layout, m * dim).parts)
            .collect(),
    }
}

/// The bindings of the already solved groups, read from [`Source::Stages`] (group `i`'s
/// member `m` at block `firsts[i] + m`).
fn solved_vars(
    ctx: &mut SchemeCtx<'_>,
    scheme: &SchemeDef,
    solved: &[Vec<usize>],
    firsts: &[usize],
) -> Vec<Option<SVal>> {
    let mut vars = vec![None; scheme.bindings.len()];
    for (g, &first) in solved.iter().zip(firsts) {
        for (m, &u) in g.iter().enumerate() {
            vars[u] = Some(ctx.solved_stage(first + m));
        }
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

/// The union of the stages' sparse Jacobian patterns folded onto the state (fields on
/// grids), when it is sparse: one Newton serves every state-sized stage, and a group of
/// stages that read each other solves over its blocks (`SparsePattern::blocks`), so a
/// group's entry `(b·dim + i, c·dim + j)` counts as `(i, j)`.
pub(crate) fn union_pattern(
    stages: &[StageFns],
    dim: usize,
) -> Result<Option<Arc<SparsePattern>>, IrError> {
    let mut rows: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); dim];
    for st in stages {
        let deps = crate::sparsity::output_deps(&st.residual, Source::Guess)?;
        if deps.len() != st.width as usize * dim {
            return Err(IrError::Layout {
                problem: format!(
                    "{} outputs for a stage of {} blocks of {dim}",
                    deps.len(),
                    st.width
                ),
            });
        }
        for (r, cols) in deps.iter().enumerate() {
            rows[r % dim].extend(cols.iter().map(|&j| j as usize % dim));
        }
    }
    // Not worth storing sparsely past a quarter of the entries (as a single residual's).
    let nnz: usize = rows.iter().map(|r| r.len() + 1).sum();
    if nnz.saturating_mul(4) > dim.saturating_mul(dim) {
        return Ok(None);
    }
    let p = SparsePattern::from_rows(dim, rows).map_err(|e| IrError::Layout {
        problem: e.to_string(),
    })?;
    Ok(Some(Arc::new(p)))
}
