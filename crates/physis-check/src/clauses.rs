//! The clauses after the declarations: laws, integrate, record, observes, stops, events, runs,
//! mechanics, conserve and boundaries.

use crate::expr::{Expr, ObserveId, Shape, StateId};
use crate::infer::Reported;
use crate::model::{
    BoundaryCondition, CheckedModel, CheckedScheme, Conserve, Effort, Event, Integrate, Law,
    LawOrder, Mechanics, NamedRun, Observe, Reset, State, Stop, Value,
};
use crate::scope::{Ctx, Info, Sym};
use crate::simulate::{SimChecker, display};
use physis_syntax::ast::{self, Boundary, ClauseKind, SettingKind};
use physis_syntax::{Code, Diagnostic, Span};
use units::Dimension;

pub(crate) fn time() -> Dimension {
    Dimension::base(units::Base::Time)
}

fn energy() -> Dimension {
    units::dims::ENERGY
}

/// Context of laws: everything but rates.
const LAW: Ctx = Ctx {
    params: true,
    states: true,
    time: true,
    // Another law's rate, substituted after every law is checked (`crate::rates`).
    rates: true,
    grid: true,
    noise: true,
    what: "a law",
    code: Code::MisplacedRead,
};

/// Context of lagrangians and the like: no rates, no noise.
const ENERGY: Ctx = Ctx {
    noise: false,
    rates: false,
    what: "an energy function",
    ..LAW
};

pub(crate) fn check_clauses(mut c: SimChecker<'_>, mut states: Vec<State>) -> CheckedModel {
    let sim = c.sim;
    crate::rules::relations(&mut c, &mut states);
    let mut laws = Vec::new();
    let mut observes = Vec::new();
    let mut stops = Vec::new();
    let mut events = Vec::new();
    let mut runs: Vec<NamedRun> = Vec::new();
    let mut mechanics = Mechanics::default();
    let mut conserves = Vec::new();
    let mut integrate = None;
    let mut record_every = None;
    let mut seen: Vec<(&'static str, Span)> = Vec::new();
    for clause in &sim.clauses {
        let span = clause.span;
        let once = |c: &mut SimChecker<'_>,
                    seen: &mut Vec<(&'static str, Span)>,
                    what: &'static str| {
            if let Some((_, prev)) = seen.iter().find(|(w, _)| *w == what) {
                let prev = *prev;
                c.err(
                    Diagnostic::error(Code::Duplicate, span, format!("a second `{what}` clause"))
                        .with_secondary(prev, "first here"),
                );
                false
            } else {
                seen.push((what, span));
                true
            }
        };
        match &clause.kind {
            ClauseKind::Law { target, value } => {
                let rhs = |c: &mut SimChecker<'_>, _: Shape| c.expr(value, LAW);
                if let Ok(law) = law(&mut c, &states, target, rhs, span) {
                    laws.push(law);
                }
            }
            ClauseKind::LawEach {
                target,
                index,
                value,
            } => {
                let rhs = |c: &mut SimChecker<'_>, shape| law_each(c, target, index, value, shape);
                if let Ok(law) = law(&mut c, &states, target, rhs, span) {
                    laws.push(law);
                }
            }
            ClauseKind::Integrate { scheme, settings } if once(&mut c, &mut seen, "integrate") => {
                integrate = integrate_clause(&mut c, &states, scheme, settings, span).ok();
            }
            ClauseKind::Record { every } => {
                if once(&mut c, &mut seen, "record")
                    && let Ok(v) = setting(&mut c, every, time(), "record every")
                {
                    record_every = Some(v);
                }
            }
            ClauseKind::Observe(b) => {
                if let Ok(e) = c.expr(&b.value, Ctx::OBSERVE)
                    && c.expect_shape(&e, Shape::Scalar, "an observe").is_ok()
                {
                    observes.push(Observe {
                        name: display(c.source, &b.name),
                        key: b.name.key(),
                        expr: e,
                        span,
                    });
                } else {
                    // Keep ObserveIds aligned with declaration order.
                    observes.push(Observe {
                        name: display(c.source, &b.name),
                        key: b.name.key(),
                        expr: zero(b.value.span),
                        span,
                    });
                }
            }
            ClauseKind::Stop { when } => {
                if let Ok(cond) = c.cond(when) {
                    stops.push(Stop {
                        cond,
                        text: when.span.text(c.source).to_string(),
                        line: c.lines.line(span.start as usize),
                        span,
                    });
                }
            }
            ClauseKind::On { when, resets } => {
                let cond = c.cond(when);
                let resets = resets
                    .iter()
                    .map(|b| reset(&mut c, &states, b))
                    .collect::<Vec<_>>();
                if let (Ok(cond), Some(resets)) =
                    (cond, resets.into_iter().collect::<Option<Vec<_>>>())
                {
                    events.push(Event {
                        cond,
                        text: when.span.text(c.source).to_string(),
                        line: c.lines.line(span.start as usize),
                        resets,
                        span,
                    });
                }
            }
            ClauseKind::Run { name, overrides } => {
                if let Some(prev) = runs.iter().find(|r| r.name == display(c.source, name)) {
                    let prev = prev.span;
                    c.err(
                        Diagnostic::error(
                            Code::Duplicate,
                            name.span,
                            format!("run `{}` is declared twice", name.key()),
                        )
                        .with_secondary(prev, "first here"),
                    );
                    continue;
                }
                let run = named_run(&mut c, name, overrides, span);
                runs.push(run);
            }
            ClauseKind::Lagrangian(e) | ClauseKind::Hamiltonian(e) | ClauseKind::Dissipation(e) => {
                let (what, dim) = match &clause.kind {
                    ClauseKind::Lagrangian(_) => ("lagrangian", energy()),
                    ClauseKind::Hamiltonian(_) => ("hamiltonian", energy()),
                    _ => ("dissipation", energy() / time()),
                };
                if !once(&mut c, &mut seen, what) {
                    continue;
                }
                let Ok(x) = c.expr(
                    e,
                    Ctx {
                        what: "an energy function",
                        ..ENERGY
                    },
                ) else {
                    continue;
                };
                if c.expect_dim(&x, dim, &format!("the {what}")).is_err()
                    || c.expect_shape(&x, Shape::Scalar, &format!("the {what}"))
                        .is_err()
                {
                    continue;
                }
                crate::rules::differentiable(&mut c, &x, what);
                match what {
                    "lagrangian" => mechanics.lagrangian = Some(x),
                    "hamiltonian" => mechanics.hamiltonian = Some(x),
                    _ => mechanics.dissipation = Some(x),
                }
            }
            ClauseKind::Effort(b) => {
                if let Ok(e) = effort(&mut c, &states, b, span) {
                    mechanics.efforts.push(e);
                }
            }
            ClauseKind::Conserve { name, within } => {
                let Some(id) = observes_index(&c, name) else {
                    c.err(
                        Diagnostic::error(
                            Code::ConserveUnknown,
                            name.span,
                            format!("`{}` is not an observed column", name.key()),
                        )
                        .with_hint(format!("declare `observe {} ≔ ...`", name.key())),
                    );
                    continue;
                };
                if let Ok(v) = setting(&mut c, within, Dimension::NONE, "conserve within") {
                    conserves.push(Conserve {
                        observe: id,
                        within: v,
                        span,
                    });
                }
            }
            ClauseKind::Boundary { field, condition } => {
                boundary(&mut c, &mut states, field, condition, &mut seen, span)
            }
            _ => {}
        }
    }
    crate::rates::substitute(&mut c, &states, &mut laws);
    if let Some(every) = c.overrides.and_then(|o| o.record_every) {
        record_every = Some(every);
    }
    let had_clause = seen.iter().any(|(w, _)| *w == "integrate");
    let integrate = match integrate {
        Some(i) => i,
        None => default_integrate(&mut c, had_clause),
    };
    let mut model = CheckedModel {
        name: display(c.source, &sim.name),
        key: sim.name.key(),
        span: sim.span,
        params: std::mem::take(&mut c.params),
        states,
        laws,
        noises: std::mem::take(&mut c.noises),
        grid: c.grid.take(),
        observes,
        stops,
        events,
        runs,
        integrate,
        record_every,
        mechanics,
        conserves,
    };
    crate::rules::model_rules(&mut c, &mut model);
    model
}

fn zero(span: Span) -> Expr {
    Expr {
        kind: crate::expr::ExprKind::Const(0.0),
        dim: Dimension::NONE,
        shape: Shape::Scalar,
        span,
    }
}

fn observes_index(c: &SimChecker<'_>, name: &ast::Name) -> Option<ObserveId> {
    match c.names.map.get(&name.key()) {
        Some(Info {
            sym: Sym::Observe(id),
            ..
        }) => Some(*id),
        _ => None,
    }
}

fn state_of(c: &SimChecker<'_>, key: &str) -> Option<StateId> {
    match c.names.map.get(key) {
        Some(Info {
            sym: Sym::State(id),
            ..
        }) => Some(*id),
        _ => None,
    }
}

fn primed(text: &str, primes: u8) -> String {
    let mut s = text.to_string();
    for _ in 0..primes {
        s.push('\'');
    }
    s
}

/// The right side of `law x[i]'' = e` for a state of `shape`: `e` for each component.
fn law_each(
    c: &mut SimChecker<'_>,
    target: &ast::Name,
    index: &ast::Name,
    value: &ast::Expr,
    shape: Shape,
) -> Result<Expr, Reported> {
    let Shape::Vector(n) = shape else {
        return Err(c.err(
            Diagnostic::error(
                Code::ShapeMismatch,
                target.span,
                format!(
                    "a per-index law needs a vector state, `{}` has {}",
                    target.text,
                    shape.describe()
                ),
            )
            .with_label("not a vector")
            .with_hint(format!(
                "write `law {}' = ...` for the whole state",
                target.text
            )),
        ));
    };
    // The state is the target with one prime less; an array of vectors has rows.
    let width = c
        .names
        .map
        .get(&primed(&target.text, target.primes.saturating_sub(1)))
        .and_then(|info| info.element);
    match width {
        Some(w) => c.each(index, n / w.max(1), Some(w), value, LAW),
        None => c.each(index, n, None, value, LAW),
    }
}

/// `law y' = e` / `law y'' = e`: the law gives the rate of the state named with one prime less.
fn law(
    c: &mut SimChecker<'_>,
    states: &[State],
    target: &ast::Name,
    value: impl FnOnce(&mut SimChecker<'_>, Shape) -> Result<Expr, Reported>,
    span: Span,
) -> Result<Law, Reported> {
    if target.primes == 0 {
        return Err(c.err(
            Diagnostic::error(Code::StateLaw, target.span, "a law names a derivative")
                .with_hint(format!("write `law {}' = ...`", target.text)),
        ));
    }
    let of_key = primed(&target.text, target.primes - 1);
    if matches!(
        c.names.map.get(&of_key),
        Some(Info {
            sym: Sym::Poisoned,
            ..
        })
    ) {
        return Err(Reported);
    }
    let Some(of) = state_of(c, &of_key) else {
        let coordinate = (target.primes >= 2).then(|| primed(&target.text, target.primes - 2));
        let d = match coordinate.as_deref().and_then(|k| state_of(c, k)) {
            Some(_) => Diagnostic::error(
                Code::StateLaw,
                target.span,
                format!("second-order law with no velocity state `{of_key}`"),
            )
            .with_hint(format!(
                "declare `state {of_key} : ... = ...` for the initial velocity"
            )),
            None => Diagnostic::error(
                Code::StateLaw,
                target.span,
                format!("law names no state `{of_key}`"),
            )
            .with_label("no such state"),
        };
        return Err(c.err(d));
    };
    if let Some(v) = states[of.0].velocity {
        let vname = states[v.0].name.clone();
        return Err(c.err(
            Diagnostic::error(
                Code::StateLaw,
                target.span,
                format!("`{of_key}` moves with its velocity state `{vname}`"),
            )
            .with_hint(format!(
                "give the acceleration instead: `law {}'' = ...`",
                of_key
            )),
        ));
    }
    let rhs = match value(c, states[of.0].shape) {
        Ok(rhs) => rhs,
        Err(Reported) => {
            c.failed_laws.push(of);
            return Err(Reported);
        }
    };
    let want = states[of.0].dim / time();
    let fits = c
        .expect_dim(&rhs, want, &format!("the rate of `{of_key}`"))
        .and_then(|()| {
            c.expect_shape(&rhs, states[of.0].shape, &format!("the rate of `{of_key}`"))
        });
    if fits.is_err() {
        c.failed_laws.push(of);
        return Err(Reported);
    }
    let coordinate = states[of.0].velocity_of.unwrap_or(of);
    let order = if states[of.0].velocity_of.is_some() {
        LawOrder::Second
    } else {
        LawOrder::First
    };
    crate::rules::noise_linear(c, &rhs);
    Ok(Law {
        target: of,
        coordinate,
        order,
        rhs,
        span,
    })
}

/// A constant setting of dimension `dim`, positive.
fn setting(
    c: &mut SimChecker<'_>,
    e: &ast::Expr,
    dim: Dimension,
    what: &str,
) -> Result<f64, Reported> {
    let ctx = Ctx {
        what: "a setting",
        ..Ctx::CONSTANT
    };
    let x = c.expr(e, ctx)?;
    if x.dim != dim || x.shape != Shape::Scalar {
        let (want, found) = (crate::infer::dim_name(dim), crate::infer::dim_name(x.dim));
        return Err(c.err(
            Diagnostic::error(
                Code::BadSetting,
                x.span,
                format!("{what} must be {want}, found {found}"),
            )
            .with_label(found),
        ));
    }
    match c.constant(&x, what)? {
        Value::Scalar(v) if v > 0.0 => Ok(v),
        _ => Err(c.err(Diagnostic::error(
            Code::BadSetting,
            x.span,
            format!("{what} must be positive"),
        ))),
    }
}

fn integrate_clause(
    c: &mut SimChecker<'_>,
    states: &[State],
    scheme: &ast::Name,
    settings: &[ast::Setting],
    span: Span,
) -> Result<Integrate, Reported> {
    // A scheme asked for from outside the text takes the clause's place, checked as if
    // written there.
    let wanted =
        (c.overrides.and_then(|o| o.scheme.clone())).unwrap_or_else(|| scheme.text.clone());
    let wanted = wanted.as_str();
    let found = crate::model::lookup(c.schemes, wanted).cloned();
    let mut out = Integrate {
        scheme: found.clone().unwrap_or_else(fallback_scheme),
        step: None,
        tolerance: None,
        absolute: Vec::new(),
        limit: None,
        seed: None,
        span,
    };
    let abs: Vec<&ast::Setting> = settings
        .iter()
        .filter(|s| s.kind == SettingKind::Absolute)
        .collect();
    out.absolute = crate::absolute::absolute(c, states, &abs);
    let mut seen: Vec<SettingKind> = Vec::new();
    for s in settings.iter().filter(|s| s.kind != SettingKind::Absolute) {
        if seen.contains(&s.kind) {
            c.err(Diagnostic::error(
                Code::Duplicate,
                s.keyword,
                format!("`{}` is given twice", s.kind.keyword()),
            ));
            continue;
        }
        seen.push(s.kind);
        let (dim, what) = match s.kind {
            SettingKind::Step => (time(), "step"),
            SettingKind::Tolerance | SettingKind::Absolute => (Dimension::NONE, "tolerance"),
            SettingKind::Limit => (Dimension::NONE, "limit"),
            SettingKind::Seed => (Dimension::NONE, "seed"),
        };
        let Ok(v) = setting(c, &s.value, dim, what) else {
            continue;
        };
        let whole = || (v.fract() == 0.0 && v <= 9.007e15).then_some(v as u64);
        match s.kind {
            SettingKind::Step => out.step = Some(v),
            SettingKind::Tolerance | SettingKind::Absolute => out.tolerance = Some(v),
            SettingKind::Limit | SettingKind::Seed => {
                let Some(n) = whole() else {
                    c.err(Diagnostic::error(
                        Code::BadSetting,
                        s.value.span,
                        format!("{what} must be a whole number"),
                    ));
                    continue;
                };
                if s.kind == SettingKind::Limit {
                    out.limit = Some(n);
                } else {
                    out.seed = Some(n);
                }
            }
        }
    }
    let step_given = seen.contains(&SettingKind::Step);
    let found = found.ok_or_else(|| not_in_scope(c, wanted, &scheme.text, scheme.span))?;
    out.scheme = found;
    settle(c, &mut out, step_given);
    Ok(out)
}

/// Fills in what the clause (or its absence) left to defaults and to settings from outside
/// the text, then asks for the step a fixed-step scheme needs.
fn settle(c: &mut SimChecker<'_>, out: &mut Integrate, step_given: bool) {
    let mut step_given = step_given;
    if let Some(o) = c.overrides {
        if let Some(h) = o.step {
            out.step = Some(h);
            step_given = true;
        }
        if let Some(tol) = o.tolerance {
            out.tolerance = Some(tol);
        }
    }
    if out.scheme.adaptive.is_some() && out.tolerance.is_none() {
        out.tolerance = Some(crate::DEFAULT_TOLERANCE);
    }
    if out.scheme.is_fixed_step() && !step_given {
        let name = out.scheme.name.clone();
        let mut d = Diagnostic::error(
            Code::MissingStep,
            out.span,
            format!("`{name}` is a fixed-step scheme and needs a step"),
        );
        d = if c.overrides.is_some_and(|o| o.scheme.is_some()) {
            d.with_hint("give a step with the scheme, e.g. `--step 1 ms`")
        } else {
            d.with_hint(format!("write `integrate {name} step 1 ms`"))
        };
        c.err(d);
    }
}

/// PH0107 for `wanted`; `written` is the name the text gives (they differ when the scheme
/// was asked for from outside the text).
fn not_in_scope(c: &mut SimChecker<'_>, wanted: &str, written: &str, span: Span) -> Reported {
    let label = if wanted == written {
        "unknown scheme".to_string()
    } else {
        format!("asked for in place of `{written}`")
    };
    c.err(
        Diagnostic::error(
            Code::SchemeNotInScope,
            span,
            format!("scheme `{wanted}` is not in scope"),
        )
        .with_label(label)
        .with_hint(format!("built in: {}", crate::prelude::names().join(", "))),
    )
}

/// The scheme a clause carries on with after naming none in scope: the prelude's first.
fn fallback_scheme() -> std::sync::Arc<CheckedScheme> {
    crate::prelude::first()
        .cloned()
        .unwrap_or_else(|| std::sync::Arc::new(crate::prelude::empty_scheme()))
}

/// The clause a simulation without `integrate` runs with: `rk45` at the default tolerance,
/// or the scheme asked for from outside the text. `had_clause` is true when the clause was
/// there but failed to check (nothing more is reported then).
fn default_integrate(c: &mut SimChecker<'_>, had_clause: bool) -> Integrate {
    let rk45 = crate::prelude::scheme("rk45")
        .cloned()
        .unwrap_or_else(fallback_scheme);
    let mut out = Integrate {
        scheme: rk45,
        step: None,
        tolerance: Some(crate::DEFAULT_TOLERANCE),
        absolute: Vec::new(),
        limit: None,
        seed: None,
        span: c.sim.name.span,
    };
    if had_clause {
        return out;
    }
    if let Some(wanted) = c.overrides.and_then(|o| o.scheme.clone()) {
        match crate::model::lookup(c.schemes, &wanted).cloned() {
            Some(found) => {
                out.tolerance = None;
                out.scheme = found;
            }
            None => {
                not_in_scope(c, &wanted, "rk45", c.sim.name.span);
                return out;
            }
        }
    }
    settle(c, &mut out, false);
    out
}

fn reset(c: &mut SimChecker<'_>, states: &[State], b: &ast::Binding) -> Option<Reset> {
    let key = b.name.key();
    let Some(id) = state_of(c, &key) else {
        let d = if c.names.map.contains_key(&key) || crate::constants::lookup(&key).is_some() {
            Diagnostic::error(
                Code::NotAState,
                b.name.span,
                format!("`{key}` is not a state and cannot be reset"),
            )
        } else {
            Diagnostic::error(
                Code::UnknownName,
                b.name.span,
                format!("unknown name `{key}`"),
            )
        };
        c.err(d);
        return None;
    };
    let value = c
        .value_of(
            &key,
            &b.value,
            Ctx {
                what: "a reset",
                ..Ctx::OBSERVE
            },
        )
        .ok()?;
    c.expect_dim(
        &value,
        states[id.0].dim,
        &format!("the new value of `{key}`"),
    )
    .ok()?;
    c.expect_shape(&value, states[id.0].shape, "a reset").ok()?;
    Some(Reset { state: id, value })
}

fn named_run(
    c: &mut SimChecker<'_>,
    name: &ast::Name,
    overrides: &[ast::Binding],
    span: Span,
) -> NamedRun {
    let mut out = Vec::new();
    for b in overrides {
        let key = b.name.key();
        let id = match c.names.map.get(&key) {
            Some(Info {
                sym: Sym::Param(id),
                ..
            }) => *id,
            _ => {
                c.err(
                    Diagnostic::error(
                        Code::RunOverride,
                        b.name.span,
                        format!("`{key}` is not a param"),
                    )
                    .with_label("a run can only set params"),
                );
                continue;
            }
        };
        let ctx = Ctx {
            what: "a run value",
            ..Ctx::CONSTANT
        };
        let Ok(e) = c.value_of(&key, &b.value, ctx) else {
            continue;
        };
        let (dim, shape) = (c.params[id.0].dim, c.params[id.0].shape);
        if c.expect_dim(&e, dim, &format!("the value of `{key}`"))
            .is_err()
            || c.expect_shape(&e, shape, "a run value").is_err()
        {
            continue;
        }
        if let Ok(v) = c.constant(&e, "a run value") {
            out.push((id, v));
        }
    }
    NamedRun {
        name: display(c.source, name),
        overrides: out,
        span,
    }
}

fn effort(
    c: &mut SimChecker<'_>,
    states: &[State],
    b: &ast::Binding,
    span: Span,
) -> Result<Effort, Reported> {
    let key = b.name.key();
    let Some(q) = state_of(c, &key) else {
        return Err(c.err(
            Diagnostic::error(
                Code::Effort,
                b.name.span,
                format!("effort on `{key}`, which is no coordinate"),
            )
            .with_label("not a state"),
        ));
    };
    let x = c.expr(
        &b.value,
        Ctx {
            what: "an effort",
            ..ENERGY
        },
    )?;
    let want = energy() / states[q.0].dim;
    c.expect_dim(&x, want, &format!("the effort on `{key}`"))?;
    if x.shape != states[q.0].shape && x.shape != Shape::Scalar {
        return Err(c.err(Diagnostic::error(
            Code::Effort,
            x.span,
            format!(
                "an effort on `{key}` has {}, found {}",
                states[q.0].shape.describe(),
                x.shape.describe()
            ),
        )));
    }
    Ok(Effort {
        coordinate: q,
        expr: x,
        span,
    })
}

fn boundary(
    c: &mut SimChecker<'_>,
    states: &mut [State],
    field: &ast::Name,
    condition: &Boundary,
    seen: &mut Vec<(&'static str, Span)>,
    span: Span,
) {
    let key = field.key();
    let Some(id) = state_of(c, &key).filter(|id| states[id.0].is_field) else {
        let code = if c.names.map.contains_key(&key) {
            Code::GridOperator
        } else {
            Code::UnknownName
        };
        c.err(Diagnostic::error(
            code,
            field.span,
            format!("`{key}` is not a field"),
        ));
        return;
    };
    if states[id.0].boundary.is_some() {
        let prev = seen
            .iter()
            .find(|(w, _)| *w == "boundary")
            .map(|(_, s)| *s)
            .unwrap_or(span);
        c.err(
            Diagnostic::error(
                Code::Duplicate,
                span,
                format!("a second boundary for `{key}`"),
            )
            .with_secondary(prev, "first here"),
        );
        return;
    }
    seen.push(("boundary", span));
    let ctx = Ctx {
        params: true,
        what: "a boundary value",
        code: Code::MisplacedRead,
        ..Ctx::CONSTANT
    };
    let dim = states[id.0].dim;
    let grid_dim = c.grid.as_ref().map_or(Dimension::NONE, |g| g.dim);
    let bc = match condition {
        Boundary::Dirichlet(e) => {
            let Ok(x) = c.expr(e, ctx) else { return };
            if c.expect_dim(&x, dim, "a dirichlet value").is_err()
                || c.expect_shape(&x, Shape::Scalar, "a boundary value")
                    .is_err()
            {
                return;
            }
            BoundaryCondition::Dirichlet(x)
        }
        Boundary::Neumann(Some(e)) => {
            let Ok(x) = c.expr(e, ctx) else { return };
            if c.expect_dim(&x, dim / grid_dim, "a neumann gradient")
                .is_err()
            {
                return;
            }
            BoundaryCondition::Neumann(Some(x))
        }
        Boundary::Neumann(None) => BoundaryCondition::Neumann(None),
        Boundary::Periodic => BoundaryCondition::Periodic,
    };
    states[id.0].boundary = Some(bc);
}
