//! Hover answers a dimension for every expression form of the language: the test walks every
//! node of a model that uses each form, names the form by an exhaustive match (a new form
//! breaks this build), and checks the form set is complete and each node is hovered with its
//! own span and the dimension the physics says (independently written here).

use physis_lsp::Analysis;
use physis_lsp::analysis::walk;
use physis_syntax::ast::{BinOp, ExprKind, UnOp};
use std::collections::BTreeSet;

const SRC: &str = "simulate Forms {
  param v₀ : Velocity = 30 m/s
  param α : Angle = 45 deg
  param k : Frequency = 0.5 Hz
  param w : Dimensionless[3] = [1, 2, 3]
  state x : Length[2] = [0 m, 0 m]
  state v : Velocity[2] = v₀·[cos(α), sin(α)]
  state s : Length = 1 m
  state s' : Velocity = 0 m/s
  law x' = v
  law v' = [0 m/s², −g₀] − k·v
  law s'' = −k²·s + √(k^4·s²)/k·k − k·(s'·2 s)/(1 s)
  integrate rk45 tolerance 1e-9
  observe height ≔ x[1]
  observe energy ≔ s'² + k·s·s'
  observe total ≔ (Σ j in 0..3, j ≠ 1: w[j]) + sum(w[1..3])
  stop when x[1] < 0 m ∧ t > 0 s ∨ not (s > 2 m)
}
";

/// The form of a node, by an exhaustive match over the syntax tree's expression kinds.
fn form(kind: &ExprKind) -> &'static str {
    match kind {
        ExprKind::Number { unit: Some(_), .. } => "number with unit",
        ExprKind::Number { unit: None, .. } => "pure number",
        ExprKind::Name(n) if n.primes > 0 => "derivative name",
        ExprKind::Name(_) => "name",
        ExprKind::Unary { op: UnOp::Neg, .. } => "negation",
        ExprKind::Unary { op: UnOp::Sqrt, .. } => "square root",
        ExprKind::Unary { op: UnOp::Not, .. } => "not",
        ExprKind::Binary { op, .. } if op.is_comparison() => "comparison",
        ExprKind::Binary { op, .. } if op.is_logical() => "logical",
        ExprKind::Binary { op: BinOp::Add, .. } => "sum",
        ExprKind::Binary { op: BinOp::Sub, .. } => "difference",
        ExprKind::Binary { op: BinOp::Mul, .. } => "product",
        ExprKind::Binary { op: BinOp::Div, .. } => "quotient",
        ExprKind::Binary { .. } => "other binary",
        ExprKind::Power { .. } => "power",
        ExprKind::Call { .. } => "call",
        ExprKind::Index { .. } => "index",
        ExprKind::Vector(_) => "vector",
        ExprKind::Sum(_) => "indexed sum",
        ExprKind::Range { .. } => "range",
        ExprKind::Error => "error",
    }
}

/// The hover at some cursor position whose innermost node is exactly `span` (an operator, a
/// bracket, or any character of a leaf): every node has one.
fn hover_of(a: &Analysis, span: physis_syntax::Span) -> Option<physis_lsp::analysis::hover::Hover> {
    (span.start as usize..=span.end as usize)
        .filter(|o| SRC.is_char_boundary(*o))
        .filter_map(|o| a.hover(o))
        .find(|h| h.span == span)
}

/// What each hovered text must say: kind and SI unit, worked out by hand.
const EXPECTED: &[(&str, &str)] = &[
    ("30 m/s", "Velocity · m/s"),
    ("v₀", "Velocity · m/s"),
    ("[0 m, 0 m]", "vector of Length · m"),
    ("v₀·[cos(α), sin(α)]", "vector of Velocity · m/s"),
    ("sin(α)", "Dimensionless · 1"),
    ("−g₀", "Acceleration · m/s^2"),
    ("[0 m/s², −g₀] − k·v", "vector of Acceleration · m/s^2"),
    ("k²", "AngularAcceleration · 1/s^2"),
    ("−k²·s", "Acceleration · m/s^2"),
    ("√(k^4·s²)", "Acceleration · m/s^2"),
    ("k^4", "T⁻⁴ · 1/s^4"),
    ("s'", "Velocity · m/s"),
    ("(s'·2 s)", "Length · m"),
    ("k·(s'·2 s)/(1 s)", "Acceleration · m/s^2"),
    ("x[1]", "Length · m"),
    ("s'²", "m^2/s^2"),
    ("1e-9", ""),
    ("(Σ j in 0..3, j ≠ 1: w[j])", "Dimensionless · 1"),
    ("w[1..3]", "vector of Dimensionless · 1"),
];

#[test]
fn every_expression_form_is_hovered_with_its_dimension() {
    let a = Analysis::new(SRC.to_string());
    assert!(a.diagnostics().is_empty(), "{:#?}", a.diagnostics());
    let mut seen = BTreeSet::new();
    for e in walk::all_exprs(&a.file) {
        let name = form(&e.kind);
        seen.insert(name);
        let text = e.span.text(SRC);
        // Hover at the node's first character finds the innermost node there; the node itself
        // must be in the checker's table with exactly its span.
        let typed = a.types.nodes().iter().find(|n| n.span == e.span);
        match name {
            "comparison" | "logical" | "not" => {
                assert!(typed.is_none(), "{text}");
                // No dimension: hovering the operator says it is a condition.
                let op_at = match &e.kind {
                    ExprKind::Binary { lhs, .. } => lhs.span.end as usize + 1,
                    _ => e.span.start as usize,
                };
                let h = a
                    .hover(op_at)
                    .unwrap_or_else(|| panic!("no hover on {text}"));
                assert!(h.markdown.contains("condition"), "{text}: {}", h.markdown);
            }
            "range" => {
                // A slice's range has no value of its own: the slice is typed instead.
                assert!(typed.is_none(), "{text}");
            }
            _ if text.starts_with('²') => {
                // A superscript exponent: hovered as its power.
                assert!(typed.is_some(), "`{text}` has no type");
                let h = a.hover(e.span.start as usize).expect("hover");
                assert!(h.span.len() > e.span.len() && h.span.end == e.span.end);
            }
            _ => {
                assert!(typed.is_some(), "{name} `{text}` has no type");
                let h = hover_of(&a, e.span).unwrap_or_else(|| panic!("`{text}` not hovered"));
                assert!(h.markdown.contains(" · "), "`{text}`: {}", h.markdown);
            }
        }
    }
    let all: BTreeSet<&str> = [
        "number with unit",
        "pure number",
        "derivative name",
        "name",
        "negation",
        "square root",
        "not",
        "comparison",
        "logical",
        "sum",
        "difference",
        "product",
        "quotient",
        "power",
        "call",
        "index",
        "vector",
        "indexed sum",
        "range",
    ]
    .into_iter()
    .collect();
    let missing: Vec<_> = all.difference(&seen).collect();
    assert!(
        missing.is_empty(),
        "forms not in the test model: {missing:?}"
    );
}

#[test]
fn hover_texts_name_kind_and_si_unit() {
    let a = Analysis::new(SRC.to_string());
    let mut wrong = Vec::new();
    for (text, want) in EXPECTED {
        let node = walk::all_exprs(&a.file)
            .into_iter()
            .find(|e| e.span.text(SRC) == *text)
            .unwrap_or_else(|| panic!("no node `{text}`"));
        let h = hover_of(&a, node.span).unwrap_or_else(|| panic!("`{text}` not hovered"));
        if !h.markdown.contains(want) {
            wrong.push(format!("`{text}`: {}", h.markdown));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn hover_tells_params_constants_and_schemes() {
    let a = Analysis::new(SRC.to_string());
    let at = |needle: &str, n: usize| SRC.match_indices(needle).nth(n).unwrap().0;
    let h = a.hover(at("v₀·", 0)).unwrap();
    assert!(
        h.markdown.contains("param v₀ : Velocity = 30 m/s"),
        "{}",
        h.markdown
    );
    assert!(h.markdown.contains("value: 30 m/s"), "{}", h.markdown);
    let h = a.hover(at("α)", 0)).unwrap();
    assert!(
        h.markdown
            .contains(&format!("value: {}", std::f64::consts::FRAC_PI_4)),
        "{}",
        h.markdown
    );
    let h = a.hover(at("g₀", 0) + 1).unwrap();
    assert!(
        h.markdown.contains("constant `g0` = 9.80665 m/s^2"),
        "{}",
        h.markdown
    );
    let h = a.hover(at("rk45", 0)).unwrap();
    assert!(h.markdown.contains("scheme rk45"), "{}", h.markdown);
    // A declaration's name: the clause and the kind.
    let h = a.hover(at("s' :", 0)).unwrap();
    assert!(h.markdown.contains("state s' : Velocity"), "{}", h.markdown);
    assert!(h.markdown.contains("Velocity · m/s"), "{}", h.markdown);
}
