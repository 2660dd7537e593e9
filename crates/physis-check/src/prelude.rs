//! The prelude: Physis.Schemes, written in the language and checked like user code.

use crate::model::{CheckedScheme, SchemeOrder, SchemeOutputs};
use crate::scheme::check_scheme;
use physis_syntax::ast::{Item, SchemeDecl};
use physis_syntax::{Diagnostic, Span};
use std::sync::{Arc, OnceLock};

/// The text of the prelude (`prelude.hph`).
pub const PRELUDE: &str = include_str!("prelude.hph");

/// The prelude's parse, once per process: each scheme's declaration beside the cell its
/// check fills on first use.
struct Parsed {
    decls: Vec<SchemeDecl>,
    checked: Vec<OnceLock<Arc<CheckedScheme>>>,
}

fn parsed() -> &'static Parsed {
    static PARSED: OnceLock<Parsed> = OnceLock::new();
    PARSED.get_or_init(|| {
        let decls: Vec<SchemeDecl> = physis_syntax::parse(PRELUDE)
            .file
            .items
            .into_iter()
            .filter_map(|item| match item {
                Item::Scheme(s) => Some(s),
                _ => None,
            })
            .collect();
        let checked = decls.iter().map(|_| OnceLock::new()).collect();
        Parsed { decls, checked }
    })
}

/// The built-in scheme at `index` of the prelude, checked on first use. A run checks only
/// the scheme it integrates with (checking all of them was a sixth of a small model's
/// start-up); the prelude's own test checks every one.
fn checked(index: usize) -> Option<&'static Arc<CheckedScheme>> {
    let p = parsed();
    let decl = p.decls.get(index)?;
    Some(p.checked[index].get_or_init(|| {
        // The prelude's nodes have the prelude's spans: keep them out of a type table being
        // recorded for the source whose check happens to come first.
        crate::types::suspended(|| Arc::new(check_scheme(decl, true, &mut Vec::new())))
    }))
}

/// The built-in scheme named `name`, checked once per process on first use.
pub fn scheme(name: &str) -> Option<&'static Arc<CheckedScheme>> {
    let index = parsed().decls.iter().position(|d| d.name.text == name)?;
    checked(index)
}

/// The first built-in scheme in the prelude's order (what a clause naming no known scheme
/// carries on after its error), checked on first use.
pub fn first() -> Option<&'static Arc<CheckedScheme>> {
    checked(0)
}

/// Every built-in scheme, in the prelude's order, each checked once per process.
pub fn schemes() -> &'static [Arc<CheckedScheme>] {
    static SCHEMES: OnceLock<Vec<Arc<CheckedScheme>>> = OnceLock::new();
    SCHEMES.get_or_init(|| {
        (0..parsed().decls.len())
            .filter_map(|i| checked(i).cloned())
            .collect()
    })
}

/// Parse and check the prelude, returning its diagnostics too (a test demands none).
pub fn prelude_with_diagnostics() -> (Vec<Arc<CheckedScheme>>, Vec<Diagnostic>) {
    let parsed = physis_syntax::parse(PRELUDE);
    let mut diags = parsed.diagnostics;
    let schemes = parsed
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Scheme(s) => Some(Arc::new(check_scheme(s, true, &mut diags))),
            _ => None,
        })
        .collect();
    (schemes, diags)
}

/// The names of the built-in schemes, in the prelude's order (for hints and listings, so
/// that a scheme added to the prelude's text is named everywhere without another edit).
/// Parsed only, not checked.
pub fn names() -> Vec<&'static str> {
    parsed()
        .decls
        .iter()
        .map(|d| d.name.text.as_str())
        .collect()
}

/// True when `name` is a built-in scheme's.
pub fn is_builtin(name: &str) -> bool {
    parsed().decls.iter().any(|d| d.name.text == name)
}

/// The comment written just above a built-in scheme in the prelude's text, its lines joined
/// by spaces (`None` for a user scheme or a name not in the prelude).
pub fn comment(scheme: &CheckedScheme) -> Option<String> {
    if !scheme.builtin {
        return None;
    }
    let before = PRELUDE.get(..scheme.span.start as usize)?;
    let mut lines: Vec<&str> = before
        .lines()
        .rev()
        .skip_while(|l| l.trim().is_empty())
        .map_while(|l| l.trim().strip_prefix("//"))
        .map(str::trim)
        .collect();
    lines.reverse();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// The prelude's source text of a built-in scheme's declaration.
pub fn text(scheme: &CheckedScheme) -> Option<&'static str> {
    if !scheme.builtin {
        return None;
    }
    PRELUDE.get(scheme.span.start as usize..scheme.span.end as usize)
}

/// A scheme with no body, used only when even the prelude is missing (never in practice).
pub(crate) fn empty_scheme() -> CheckedScheme {
    CheckedScheme {
        name: String::new(),
        order: SchemeOrder::First,
        stochastic: false,
        adaptive: None,
        stable: None,
        implicit: false,
        locals: Vec::new(),
        body: Vec::new(),
        outputs: SchemeOutputs::default(),
        builtin: true,
        span: Span::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::ExprKind;

    #[test]
    fn prelude_checks_clean_and_has_every_scheme() {
        let (schemes, diags) = prelude_with_diagnostics();
        assert!(diags.is_empty(), "{diags:?}");
        let find = |n: &str| schemes.iter().find(|s| s.name == n).unwrap();
        assert_eq!(find("rk4").stable, Some(2.78));
        assert_eq!(find("rk45").adaptive, Some(5));
        assert!(find("rk45").outputs.error.is_some());
        assert!(find("backwardEuler").implicit && find("crankNicolson").implicit);
        assert!(!find("rk4").implicit && !find("rk45").implicit && !find("leapfrog").implicit);
        assert_eq!(find("verlet").order, SchemeOrder::Second);
        assert!(find("eulerMaruyama").stochastic && !find("euler").stochastic);
        for name in [
            "euler",
            "midpoint",
            "rk4",
            "verlet",
            "leapfrog",
            "backwardEuler",
            "crankNicolson",
            "eulerMaruyama",
        ] {
            assert!(find(name).is_fixed_step(), "{name}");
        }
    }

    /// A file's program lists its own schemes only; a built-in one is found by name, the
    /// same `Arc` as the prelude's list holds, and a file's scheme of a built-in name shadows
    /// it.
    #[test]
    fn built_in_schemes_are_found_by_name_and_a_files_own_shadows_them() {
        let src = "scheme rk4 stable 2 {\n  next ≔ y + h·f(t, y)\n}\n\
                   simulate S {\n  state x : Length = 1 m\n  law x' = 1 m/s\n  \
                   integrate midpoint step 1 ms\n  stop when t ≥ 1 s\n}\n";
        let checked = crate::check_source(src);
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
        let program = &checked.program;
        assert_eq!(program.schemes.len(), 1, "{:?}", program.schemes);
        let own = program.scheme("rk4").unwrap();
        assert!(!own.builtin);
        let midpoint = program.scheme("midpoint").unwrap();
        assert!(midpoint.builtin);
        let listed = schemes().iter().find(|s| s.name == "midpoint").unwrap();
        assert!(Arc::ptr_eq(midpoint, listed));
        assert!(Arc::ptr_eq(&program.models[0].integrate.scheme, listed));
        assert!(program.scheme("noSuchScheme").is_none());
        assert_eq!(
            names(),
            schemes()
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_builtin_scheme_has_its_comment_and_text() {
        for s in schemes() {
            let comment = comment(s).unwrap_or_else(|| panic!("{} has no comment", s.name));
            assert!(!comment.contains("//"), "{comment}");
            let text = text(s).unwrap();
            assert!(text.starts_with(&format!("scheme {}", s.name)), "{text}");
            assert!(text.trim_end().ends_with('}'), "{text}");
        }
        assert!(
            comment(find_builtin("rk4"))
                .unwrap()
                .starts_with("Classical Runge–Kutta")
        );
        assert_eq!(names().first(), Some(&"euler"));
    }

    fn find_builtin(n: &str) -> &'static CheckedScheme {
        schemes().iter().find(|s| s.name == n).unwrap()
    }

    /// The Dormand–Prince weights: b sums to 1, each row of a sums to its c, and the error
    /// weights (b − b*) sum to 0. Evaluated from the prelude text itself.
    #[test]
    fn dormand_prince_coefficients_are_consistent() {
        let rk45 = schemes().iter().find(|s| s.name == "rk45").unwrap();
        let next = rk45.outputs.next.unwrap();
        let step = rk45.body.iter().find(|s| s.target == next).unwrap();
        // next = y + h·(Σ b_i k_i): with every k_i = 1, y = 0 and h = 1 the sum is Σ b_i.
        assert!((weights(&step.expr) - 1.0).abs() < 1e-15);
        let error = rk45.outputs.error.unwrap();
        let step = rk45.body.iter().find(|s| s.target == error).unwrap();
        assert!(weights(&step.expr).abs() < 1e-15);
    }

    /// Evaluate a scheme expression with y = 0, h = 1, t = 0 and every k (local) = 1.
    fn weights(e: &crate::Expr) -> f64 {
        use crate::expr::{ArithOp, SchemeInput};
        match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Local(_) => 1.0,
            ExprKind::SchemeInput(SchemeInput::H) => 1.0,
            ExprKind::SchemeInput(_) => 0.0,
            ExprKind::Neg(x) => -weights(x),
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (weights(lhs), weights(rhs));
                match op {
                    ArithOp::Add => a + b,
                    ArithOp::Sub => a - b,
                    ArithOp::Mul => a * b,
                    ArithOp::Div => a / b,
                }
            }
            _ => f64::NAN,
        }
    }
}
