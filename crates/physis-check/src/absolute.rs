//! `abs` settings of the integrate clause: absolute tolerances with units, for one state
//! (`abs x 1 mm`), for every state of a quantity kind (`abs Length 1 µm`) or for every
//! state no other `abs` names (`abs 1e-12 mol/m³`). Each is checked against the dimension
//! of every state it applies to; the most specific one wins (state, then kind, then bare).

use crate::expr::Shape;
use crate::infer::{Reported, dim_name};
use crate::model::{State, Value};
use crate::scope::Ctx;
use crate::simulate::SimChecker;
use physis_syntax::ast::{self, ExprKind};
use physis_syntax::{Code, Diagnostic, Span};
use units::Dimension;

/// What one `abs` applies to.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    /// Every state no other `abs` names.
    Rest,
    /// One state, by index.
    State(usize),
    /// Every state declared with this kind.
    Kind(String),
}

/// One checked `abs`: its target, value in SI base units and dimension.
struct Abs {
    target: Target,
    value: f64,
    dim: Dimension,
    /// The unit as written (else the whole value), where a wrong unit is reported.
    unit: Span,
    keyword: Span,
}

/// Where a wrong unit is shown: the unit after the number, else the whole value.
fn unit_span(e: &ast::Expr) -> Span {
    match &e.kind {
        ExprKind::Number { unit: Some(u), .. } => u.span,
        _ => e.span,
    }
}

fn target(c: &mut SimChecker<'_>, states: &[State], name: &ast::Name) -> Result<Target, Reported> {
    let key = name.key();
    if let Some(i) = states.iter().position(|s| s.key == key) {
        return Ok(Target::State(i));
    }
    if name.primes == 0 && units::kind(&name.text).is_some() {
        return Ok(Target::Kind(name.text.clone()));
    }
    Err(c.err(
        Diagnostic::error(
            Code::UnknownName,
            name.span,
            format!("`{key}` is neither a state nor a quantity kind"),
        )
        .with_label("not a state or kind")
        .with_hint("write `abs x 1 mm` for state x, `abs Length 1 µm` for every Length state"),
    ))
}

/// The value of one `abs`: a positive scalar constant (its dimension is checked later,
/// against the states it applies to).
fn value(c: &mut SimChecker<'_>, e: &ast::Expr) -> Result<(f64, Dimension), Reported> {
    let ctx = Ctx {
        what: "a setting",
        ..Ctx::CONSTANT
    };
    let x = c.expr(e, ctx)?;
    if x.shape != Shape::Scalar {
        return Err(c.err(Diagnostic::error(
            Code::BadSetting,
            e.span,
            "an absolute tolerance is one number",
        )));
    }
    match c.constant(&x, "an absolute tolerance")? {
        Value::Scalar(v) if v > 0.0 && v.is_finite() => Ok((v, x.dim)),
        _ => Err(c.err(Diagnostic::error(
            Code::BadSetting,
            e.span,
            "an absolute tolerance must be positive",
        ))),
    }
}

/// `a Length`, `an Angle`.
fn a(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "AEIOUaeiou".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// The error for an absolute tolerance applied to states (`wrong`, at least one) of
/// another dimension.
fn wrong_unit(abs: &Abs, states: &[State], wrong: &[usize]) -> Diagnostic {
    let first = &states[wrong[0]];
    let how = match abs.target {
        Target::State(_) => "",
        Target::Kind(_) => " (by its kind)",
        Target::Rest => " (no other `abs` names it)",
    };
    let others = match wrong.len() {
        1 => String::new(),
        2 => " and 1 other state".to_string(),
        n => format!(" and {} other states", n - 1),
    };
    let found = dim_name(abs.dim);
    let (unit, example) = if first.dim == Dimension::NONE {
        ("as a pure number".to_string(), "1e-9".to_string())
    } else {
        let si = first.dim.si_unit();
        (
            format!("in a unit of {} ({si})", first.kind),
            format!("1e-9 {si}"),
        )
    };
    Diagnostic::error(
        Code::AbsoluteTolerance,
        abs.unit,
        format!(
            "this absolute tolerance is {}, but it applies to `{}`{how}{others}, {}",
            a(&found),
            first.name,
            a(&first.kind)
        ),
    )
    .with_label(format!("{}, not {}", a(&found), a(&first.kind)))
    .with_secondary(first.span, format!("`{}` declared here", first.name))
    .with_hint(match abs.target {
        Target::State(_) => format!("write it {unit}: `abs {} {example}`", first.name),
        _ => format!(
            "write it {unit}, or give `{}` its own: `abs {} {example}`",
            first.name, first.name
        ),
    })
}

/// Checks every `abs` setting and returns each state's absolute tolerance (SI base
/// units), `None` where none applies. `settings` are the `abs` settings only.
pub(crate) fn absolute(
    c: &mut SimChecker<'_>,
    states: &[State],
    settings: &[&ast::Setting],
) -> Vec<Option<f64>> {
    if settings.is_empty() {
        return Vec::new();
    }
    let mut all: Vec<Abs> = Vec::new();
    for s in settings {
        let Ok(target) = s
            .target
            .as_ref()
            .map_or(Ok(Target::Rest), |n| target(c, states, n))
        else {
            continue;
        };
        let Ok((value, dim)) = value(c, &s.value) else {
            continue;
        };
        if let Some(prev) = all.iter().find(|a| a.target == target) {
            let what = match &target {
                Target::Rest => "an `abs` for every state".to_string(),
                Target::State(i) => format!("an `abs` for `{}`", states[*i].name),
                Target::Kind(k) => format!("an `abs` for {k}"),
            };
            let prev = prev.keyword;
            c.err(
                Diagnostic::error(Code::Duplicate, s.keyword, format!("{what} is given twice"))
                    .with_secondary(prev, "first here"),
            );
            continue;
        }
        all.push(Abs {
            target,
            value,
            dim,
            unit: unit_span(&s.value),
            keyword: s.keyword,
        });
    }
    let mut out = vec![None; states.len()];
    // Per `abs`: whether it applies to some state, and the states of another dimension.
    let mut used = vec![false; all.len()];
    let mut wrong: Vec<Vec<usize>> = vec![Vec::new(); all.len()];
    for (i, state) in states.iter().enumerate() {
        let pick = |t: &Target| all.iter().position(|a| &a.target == t);
        let Some(k) = pick(&Target::State(i))
            .or_else(|| pick(&Target::Kind(state.kind.clone())))
            .or_else(|| pick(&Target::Rest))
        else {
            continue;
        };
        used[k] = true;
        if all[k].dim == state.dim {
            out[i] = Some(all[k].value);
        } else {
            wrong[k].push(i);
        }
    }
    for ((abs, used), wrong) in all.iter().zip(used).zip(wrong) {
        if !wrong.is_empty() {
            c.err(wrong_unit(abs, states, &wrong));
        } else if !used {
            let mut kinds: Vec<&str> = states.iter().map(|s| s.kind.as_str()).collect();
            kinds.sort_unstable();
            kinds.dedup();
            let why = match &abs.target {
                Target::Kind(k) => format!("no state is declared as {}", a(k)),
                _ => "every state has its own".to_string(),
            };
            c.err(
                Diagnostic::error(
                    Code::AbsoluteTolerance,
                    abs.keyword,
                    format!("this `abs` applies to no state: {why}"),
                )
                .with_label("applies to nothing")
                .with_hint(format!("the states are of kinds {}", kinds.join(", "))),
            );
        }
    }
    out
}
