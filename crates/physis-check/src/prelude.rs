//! The prelude: Physis.Schemes, written in the language and checked like user code.

use crate::model::{CheckedScheme, SchemeOrder, SchemeOutputs};
use crate::scheme::check_scheme;
use physis_syntax::ast::Item;
use physis_syntax::{Diagnostic, Span};
use std::sync::{Arc, OnceLock};

/// The text of the prelude (`prelude.hph`).
pub const PRELUDE: &str = include_str!("prelude.hph");

/// The built-in schemes, parsed and checked once per process.
pub fn schemes() -> &'static [Arc<CheckedScheme>] {
    static SCHEMES: OnceLock<Vec<Arc<CheckedScheme>>> = OnceLock::new();
    // The prelude's nodes have the prelude's spans: keep them out of a type table being
    // recorded for the source whose check happens to come first.
    SCHEMES.get_or_init(|| crate::types::suspended(|| prelude_with_diagnostics().0))
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
pub fn names() -> Vec<&'static str> {
    schemes().iter().map(|s| s.name.as_str()).collect()
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
