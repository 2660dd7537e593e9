//! Modules and dotted names in the syntax tree, and `physis fmt` on them.

use physis_syntax::ast::{ExprKind, Item, ModuleItem};
use physis_syntax::format::format;
use physis_syntax::parse;

const TEXT: &str = "open Physis.Thermal
// Helpers.
module Lab.Tools {
  // Doubled.
  fn double(x) ≔ 2·x
  fn speed(d : Length, t : Time[1]) : Velocity ≔ d/t[0]
const g ≔ 9.81 m/s²
  scheme heun {
      next ≔ y + h·f(t, y)
  }
}
simulate S {
  state y : Length = Lab.Tools.double(1 m)
  law y' = Physis.Thermal.σ·(1 K)⁴·(1 m²)/(1 J/m)
  integrate Lab.Tools.heun step 1 ms
  stop when t ≥ 1 s
}
";

#[test]
fn a_module_parses_with_its_items_and_dotted_names() {
    let parsed = parse(TEXT);
    assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
    let Item::Module(m) = &parsed.file.items[1] else {
        panic!("{:?}", parsed.file.items[1]);
    };
    assert_eq!(m.name(), "Lab.Tools");
    assert_eq!(m.items.len(), 4);
    let ModuleItem::Fn(speed) = &m.items[1] else {
        panic!()
    };
    assert_eq!(speed.params.len(), 2);
    assert!(speed.params[0].ty.is_some() && speed.ret.is_some());
    let ModuleItem::Fn(double) = &m.items[0] else {
        panic!()
    };
    assert!(double.params[0].ty.is_none() && double.ret.is_none());
    assert!(matches!(m.items[2], ModuleItem::Const(_)));
    assert!(matches!(m.items[3], ModuleItem::Scheme(_)));
    let Item::Simulate(sim) = &parsed.file.items[2] else {
        panic!()
    };
    let physis_syntax::ast::ClauseKind::State { init, .. } = &sim.clauses[0].kind else {
        panic!()
    };
    let ExprKind::Call { callee, .. } = &init.kind else {
        panic!("{init:?}")
    };
    assert_eq!(callee.text, "Lab.Tools.double");
    let physis_syntax::ast::ClauseKind::Integrate { scheme, .. } = &sim.clauses[2].kind else {
        panic!()
    };
    assert_eq!(scheme.text, "Lab.Tools.heun");
}

#[test]
fn spaces_around_a_dot_do_not_join_names() {
    let parsed = parse("simulate S {\n  state y : Length = a . b\n}\n");
    assert!(!parsed.diagnostics.is_empty());
}

#[test]
fn fmt_is_idempotent_on_modules() {
    let once = format(TEXT);
    assert_eq!(format(&once), once);
    assert!(once.contains("\n  const g ≔ 9.81 m/s²\n"), "{once}");
    assert!(once.contains("\n    next ≔ y + h·f(t, y)\n"), "{once}");
    assert!(parse(&once).diagnostics.is_empty());
}
