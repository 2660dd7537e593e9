//! Model-wide rules: velocity and conjugate relations, what moves each state (PH0101), scheme
//! compatibility (PH0102, PH0114), stops (PH0104), mechanics (PH0112, PH0115, PH0117, PH0212),
//! and what lowering cannot build yet (PH0120).

use crate::clauses::time;
use crate::expr::{ArithOp, Expr, ExprKind, StateId};
use crate::model::{BoundaryCondition, CheckedModel, LawOrder, Motion, SchemeOrder, State};
use crate::simulate::SimChecker;
use physis_syntax::{Code, Diagnostic};

/// Link `y'` to `y` and momenta to their coordinates.
pub(crate) fn relations(c: &mut SimChecker<'_>, states: &mut [State]) {
    for i in 0..states.len() {
        let name = c.state_decls[i].name;
        if name.primes > 0 {
            let mut base = name.text.clone();
            for _ in 1..name.primes {
                base.push('\'');
            }
            match states.iter().position(|s| s.key == base) {
                Some(j) => {
                    let want = states[j].dim / time();
                    if states[i].dim != want {
                        let (w, f) = (
                            crate::infer::dim_name(want),
                            crate::infer::dim_name(states[i].dim),
                        );
                        c.err(
                            Diagnostic::error(
                                Code::WrongDimension,
                                name.span,
                                format!(
                                    "velocity state `{}` must be {w}, found {f}",
                                    states[i].key
                                ),
                            )
                            .with_secondary(states[j].span, format!("`{base}` declared here")),
                        );
                    }
                    let rows = |k: &str| c.names.map.get(k).and_then(|info| info.element);
                    if states[i].shape != states[j].shape
                        || rows(&states[i].key) != rows(&states[j].key)
                    {
                        c.err(Diagnostic::error(
                            Code::ShapeMismatch,
                            name.span,
                            format!(
                                "velocity state `{}` must have the shape of `{base}`",
                                states[i].key
                            ),
                        ));
                    }
                    states[i].velocity_of = Some(StateId(j));
                    states[j].velocity = Some(StateId(i));
                }
                None => {
                    c.err(
                        Diagnostic::error(
                            Code::StateLaw,
                            name.span,
                            format!("velocity state `{}` has no state `{base}`", states[i].key),
                        )
                        .with_hint(format!("declare `state {base} : ... = ...`")),
                    );
                }
            }
        }
        if let Some(q) = c.state_decls[i].conjugate {
            match states.iter().position(|s| s.key == q.key()) {
                Some(j) => {
                    let action = units::dims::ACTION;
                    if states[i].dim * states[j].dim != action {
                        let want = crate::infer::dim_name(action / states[j].dim);
                        c.err(Diagnostic::error(
                            Code::WrongDimension,
                            name.span,
                            format!("the momentum conjugate to `{}` must be {want}", q.key()),
                        ));
                    }
                    states[i].conjugate_of = Some(StateId(j));
                    states[j].momentum = Some(StateId(i));
                }
                None => {
                    c.err(Diagnostic::error(
                        Code::UnknownName,
                        q.span,
                        format!("conjugate of unknown state `{}`", q.key()),
                    ));
                }
            }
        }
    }
}

/// PH0112: functions without derivative rules in a differentiated expression.
pub(crate) fn differentiable(c: &mut SimChecker<'_>, e: &Expr, what: &str) {
    let mut bad = Vec::new();
    e.walk(&mut |x| {
        if let ExprKind::Call { func, .. } = &x.kind
            && !func.is_differentiable()
        {
            bad.push(x.span);
        }
    });
    for span in bad {
        c.err(
            Diagnostic::error(
                Code::NotDifferentiable,
                span,
                format!("the {what} is differentiated, and this function has no derivative rule"),
            )
            .with_label("not differentiable"),
        );
    }
}

/// How an expression depends on noise: 0 not at all, 1 affinely, 2 otherwise.
fn noise_degree(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Noise(_) => 1,
        ExprKind::Neg(x) => noise_degree(x),
        ExprKind::Vector(items) => items.iter().map(noise_degree).max().unwrap_or(0),
        ExprKind::Index { base, .. } => noise_degree(base),
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (noise_degree(lhs), noise_degree(rhs));
            match op {
                ArithOp::Add | ArithOp::Sub => l.max(r),
                ArithOp::Mul => (l + r).min(2),
                ArithOp::Div if r == 0 => l,
                ArithOp::Div => 2,
            }
        }
        ExprKind::Pow { base, exponent } => {
            let is_one = matches!(crate::eval::constant(exponent), Some(crate::Value::Scalar(v)) if v == 1.0);
            match (noise_degree(base), noise_degree(exponent)) {
                (0, 0) => 0,
                (1, 0) if is_one => 1,
                _ => 2,
            }
        }
        _ => {
            if e.any(|x| matches!(x.kind, ExprKind::Noise(_))) {
                2
            } else {
                0
            }
        }
    }
}

/// PH0114: a law must be affine in its noise.
pub(crate) fn noise_linear(c: &mut SimChecker<'_>, rhs: &Expr) {
    if noise_degree(rhs) > 1 {
        c.err(
            Diagnostic::error(Code::Noise, rhs.span, "the law is not linear in its noise")
                .with_label("noise must enter as drift + diffusion·w")
                .with_hint("the build splits a law into drift and diffusion; products or functions of noise cannot be split"),
        );
    }
}

fn reads_velocity(model: &CheckedModel, e: &Expr) -> bool {
    e.any(|x| match x.kind {
        ExprKind::State(s) => model.states[s.0].velocity_of.is_some(),
        ExprKind::Rate(_) => true,
        _ => false,
    })
}

pub(crate) fn model_rules(c: &mut SimChecker<'_>, model: &mut CheckedModel) {
    let sim_span = c.sim.name.span;
    state_size(c, model);
    let mech = &model.mechanics;
    // Presence of the clause counts, even when its expression had an error.
    let (has_l, has_h) = (c.has_lagrangian, c.has_hamiltonian);
    if has_l && has_h {
        c.err(
            Diagnostic::error(
                Code::Conflict,
                sim_span,
                "a simulation has a lagrangian or a hamiltonian, not both",
            )
            .with_label("both declared in this simulation"),
        );
    }
    if has_l && !model.states.iter().any(|s| s.velocity_of.is_some()) {
        c.err(
            Diagnostic::error(
                Code::NothingToMove,
                sim_span,
                "the lagrangian has nothing to move",
            )
            .with_hint("declare a velocity state: `state q' : ... = ...`"),
        );
    }
    if has_h && !model.states.iter().any(|s| s.conjugate_of.is_some()) {
        c.err(
            Diagnostic::error(
                Code::NothingToMove,
                sim_span,
                "the hamiltonian has nothing to move",
            )
            .with_hint("declare a momentum: `state p : Momentum conjugate q = ...`"),
        );
    }
    if mech.dissipation.is_some() && !has_l {
        let msg = if has_h {
            "a dissipation cannot extend a hamiltonian"
        } else {
            "a dissipation needs a lagrangian"
        };
        c.err(Diagnostic::error(Code::Effort, sim_span, msg));
    }
    efforts(c, model, has_l, has_h);
    motions(c, model, has_l, has_h);
    scheme_fit(c, model);
    not_built_yet(c, model);
    let has_stop = c
        .sim
        .clauses
        .iter()
        .any(|cl| matches!(cl.kind, physis_syntax::ast::ClauseKind::Stop { .. }));
    if !has_stop {
        c.err(
            Diagnostic::error(
                Code::NoStop,
                sim_span,
                format!("simulation `{}` has no `stop when`", model.name),
            )
            .with_hint("add a stop, e.g. `stop when t ≥ 10 s`"),
        );
    }
    for s in model
        .states
        .iter_mut()
        .filter(|s| s.is_field && s.boundary.is_none())
    {
        s.boundary = Some(BoundaryCondition::Neumann(None));
    }
}

fn efforts(c: &mut SimChecker<'_>, model: &CheckedModel, has_l: bool, has_h: bool) {
    let mut seen: Vec<(StateId, physis_syntax::Span)> = Vec::new();
    for e in &model.mechanics.efforts {
        let q = &model.states[e.coordinate.0];
        if !has_l && !has_h {
            c.err(Diagnostic::error(
                Code::Effort,
                e.span,
                "an effort needs a lagrangian or a hamiltonian",
            ));
            continue;
        }
        let coordinate = (has_l && q.velocity.is_some()) || (has_h && q.momentum.is_some());
        if !coordinate {
            c.err(
                Diagnostic::error(Code::Effort, e.span, format!("effort on `{}`, which is no coordinate", q.name))
                    .with_hint("a coordinate has a velocity state (lagrangian) or a conjugate momentum (hamiltonian)"),
            );
        }
        if let Some((_, prev)) = seen.iter().find(|(s, _)| *s == e.coordinate) {
            c.err(
                Diagnostic::error(Code::Effort, e.span, format!("two efforts on `{}`", q.name))
                    .with_secondary(*prev, "first effort"),
            );
        }
        seen.push((e.coordinate, e.span));
    }
}

fn motions(c: &mut SimChecker<'_>, model: &mut CheckedModel, has_l: bool, has_h: bool) {
    for i in 0..model.states.len() {
        let laws: Vec<usize> = (0..model.laws.len())
            .filter(|&k| model.laws[k].target.0 == i)
            .collect();
        let s = &model.states[i];
        let by_l = has_l && s.velocity_of.is_some();
        let by_h = has_h && (s.conjugate_of.is_some() || s.momentum.is_some());
        let motion = if let Some(v) = s.velocity {
            Motion::Kinematic(v)
        } else if laws.len() > 1 {
            let first = model.laws[laws[0]].span;
            c.err(
                Diagnostic::error(
                    Code::StateLaw,
                    model.laws[laws[1]].span,
                    format!("state `{}` has two laws", s.name),
                )
                .with_secondary(first, "first law"),
            );
            Motion::Law(laws[0])
        } else if let Some(&k) = laws.first() {
            if by_l || by_h {
                c.err(Diagnostic::error(
                    Code::StateLaw,
                    model.laws[k].span,
                    format!(
                        "state `{}` has a law and is also moved by the {}",
                        s.name,
                        if by_l { "lagrangian" } else { "hamiltonian" }
                    ),
                ));
            }
            Motion::Law(k)
        } else if by_l {
            Motion::Lagrangian
        } else if by_h {
            Motion::Hamiltonian
        } else if c.failed_laws.contains(&StateId(i)) {
            Motion::Unmoved
        } else {
            c.err(
                Diagnostic::error(
                    Code::StateLaw,
                    s.span,
                    format!("state `{}` has no law", s.name),
                )
                .with_hint(format!("add `law {}' = ...`", s.key)),
            );
            Motion::Unmoved
        };
        model.states[i].motion = motion;
    }
}

/// What lowering cannot build yet, refused here with a span (PH0120) so that `physis check`
/// reports it without lowering a grid model (which would build every node's arrays).
fn not_built_yet(c: &mut SimChecker<'_>, model: &CheckedModel) {
    if model.grid.is_some() {
        let mech = &model.mechanics;
        if let Some(e) = mech.lagrangian.as_ref().or(mech.hamiltonian.as_ref()) {
            c.err(
                Diagnostic::error(
                    Code::NotYetSupported,
                    e.span,
                    "lagrangian and hamiltonian mechanics on a grid cannot be built yet",
                )
                .with_hint("write the laws of motion of the states directly"),
            );
        }
        stencils_over_gradients(c, model);
    }
}

/// A stencil (dx, laplacian, ...) of an expression, not of a field itself, that reads a
/// field whose neumann gradient is not zero: its edge values are not built yet.
fn stencils_over_gradients(c: &mut SimChecker<'_>, model: &CheckedModel) {
    let with_gradient = |id: StateId| {
        model.states.get(id.0).is_some_and(|s| {
            matches!(&s.boundary, Some(BoundaryCondition::Neumann(Some(g)))
                if !matches!(crate::eval::constant(g), Some(crate::Value::Scalar(0.0))))
        })
    };
    let mut found = Vec::new();
    let mut visit = |e: &Expr| {
        if let ExprKind::Call { func, args } = &e.kind
            && func.is_stencil()
            && let [arg] = args.as_slice()
            && !matches!(arg.kind, ExprKind::State(_))
            && arg.any(|x| matches!(x.kind, ExprKind::State(id) if with_gradient(id)))
        {
            found.push(e.span);
        }
    };
    for law in &model.laws {
        law.rhs.walk(&mut visit);
    }
    for o in &model.observes {
        o.expr.walk(&mut visit);
    }
    for cond in model
        .stops
        .iter()
        .map(|s| &s.cond)
        .chain(model.events.iter().map(|e| &e.cond))
    {
        cond.walk(&mut visit);
    }
    for r in model.events.iter().flat_map(|e| &e.resets) {
        r.value.walk(&mut visit);
    }
    for span in found {
        c.err(
            Diagnostic::error(
                Code::NotYetSupported,
                span,
                "a stencil of an expression over a field with a non-zero neumann gradient \
                 cannot be built yet",
            )
            .with_hint("apply the stencil to the field itself, e.g. `2·laplacian(u)`"),
        );
    }
}

fn scheme_fit(c: &mut SimChecker<'_>, model: &CheckedModel) {
    let scheme = model.integrate.scheme.clone();
    let span = model.integrate.span;
    if !model.noises.is_empty() && !scheme.stochastic {
        c.err(
            Diagnostic::error(
                Code::Noise,
                span,
                format!(
                    "`{}` is not a stochastic scheme, and the model has noise",
                    scheme.name
                ),
            )
            .with_hint("integrate with eulerMaruyama"),
        );
    }
    if model.noises.is_empty() && scheme.stochastic {
        c.err(
            Diagnostic::error(
                Code::Noise,
                span,
                format!(
                    "`{}` is a stochastic scheme, and the model has no noise",
                    scheme.name
                ),
            )
            .with_hint("declare a noise (`noise w`) or integrate with a deterministic scheme"),
        );
    }
    if scheme.stochastic && (scheme.adaptive.is_some() || scheme.implicit) {
        let kind = if scheme.implicit {
            "implicit"
        } else {
            "adaptive"
        };
        c.err(
            Diagnostic::error(
                Code::Noise,
                span,
                format!(
                    "`{}` is {kind} and stochastic, which the driver does not run",
                    scheme.name
                ),
            )
            .with_hint("a stochastic scheme is explicit with a fixed step, like eulerMaruyama"),
        );
    }
    if scheme.order != SchemeOrder::Second {
        return;
    }
    for law in &model.laws {
        if law.order == LawOrder::First {
            c.err(
                Diagnostic::error(
                    Code::SecondOrderScheme,
                    law.span,
                    format!(
                        "`{}` steps x'' = a(t, x); this law is first order",
                        scheme.name
                    ),
                )
                .with_secondary(span, "second-order scheme chosen here"),
            );
        } else if reads_velocity(model, &law.rhs) {
            c.err(
                Diagnostic::error(
                    Code::SecondOrderScheme,
                    law.rhs.span,
                    format!(
                        "`{}` needs an acceleration that reads no velocity",
                        scheme.name
                    ),
                )
                .with_secondary(span, "second-order scheme chosen here"),
            );
        }
    }
    let m = &model.mechanics;
    if m.hamiltonian.is_some()
        || m.dissipation.is_some()
        || m.efforts.iter().any(|e| reads_velocity(model, &e.expr))
    {
        c.err(Diagnostic::error(
            Code::SecondOrderScheme,
            span,
            format!(
                "`{}` cannot step a hamiltonian, a dissipation or a velocity-dependent effort",
                scheme.name
            ),
        ));
    }
}

/// Most numbers a model's state may hold (vectors and fields over the grid counted in full;
/// PH0118 beyond it; docs/limits.md). A step keeps several copies of the state (stages,
/// errors, Newton iterates), so this bounds a run's memory to a few hundred MiB.
pub const MAX_STATE_LEN: usize = 4_000_000;

fn state_size(c: &mut SimChecker<'_>, model: &CheckedModel) {
    let nodes = model.grid_nodes();
    let mut total: usize = 0;
    for s in &model.states {
        total = total.saturating_add(s.shape.len(nodes));
        if total > MAX_STATE_LEN {
            c.err(
                Diagnostic::error(Code::TooBig, s.span, "a state too large to step")
                    .with_label(format!(
                        "the states reach more than {MAX_STATE_LEN} numbers here"
                    ))
                    .with_hint("use fewer components or grid nodes"),
            );
            return;
        }
    }
}
