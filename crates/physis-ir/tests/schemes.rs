//! Measured convergence orders of the prelude's schemes on problems with closed forms,
//! stability of the implicit ones on a stiff problem, and what specialisation shares.

use crate::common;

use common::{decay, fixed_steps, orders, oscillator, stiff};
use physis_ir::{SchemeDef, SchemeFns, TapeModel, prelude};

fn first_order_errors(scheme: &SchemeDef, steps: &[usize]) -> Vec<f64> {
    let model = decay(-1.0, scheme, Some(0.1));
    let mut m = TapeModel::new(&model).unwrap();
    steps
        .iter()
        .map(|n| (fixed_steps(&mut m, 1.0, *n)[0] - (-1.0f64).exp()).abs())
        .collect()
}

fn second_order_errors(scheme: &SchemeDef, steps: &[usize]) -> Vec<f64> {
    let model = oscillator(1.0, scheme, Some(0.1));
    let mut m = TapeModel::new(&model).unwrap();
    steps
        .iter()
        .map(|n| {
            let y = fixed_steps(&mut m, 1.0, *n);
            (y[0] - 1.0f64.cos()).abs().max((y[1] + 1.0f64.sin()).abs())
        })
        .collect()
}

/// Heun's method, the language design's example of a user scheme, from its text.
fn heun() -> SchemeDef {
    let src = "scheme heun {\n  k₁ ≔ f(t, y)\n  next ≔ y + h/2·(k₁ + f(t + h, y + h·k₁))\n}\n\
               simulate D {\n  state y : Length = 1 m\n  law y' = -y·1 Hz\n  \
               integrate heun step 1 ms\n  stop when t > 1 s\n}\n";
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    physis_ir::lower::scheme_def(checked.program.scheme("heun").unwrap()).unwrap()
}

fn assert_order(name: &str, errors: &[f64], theory: f64) {
    let os = orders(errors);
    for o in &os {
        assert!(
            (o - theory).abs() <= 0.15,
            "{name}: orders {os:?} (errors {errors:?}), expected {theory}"
        );
    }
}

#[test]
fn first_order_schemes_converge_at_their_order() {
    let cases = [
        ("euler", 1.0),
        ("midpoint", 2.0),
        ("heun", 2.0),
        ("rk4", 4.0),
        ("backwardEuler", 1.0),
        ("crankNicolson", 2.0),
    ];
    for (name, p) in cases {
        let s = prelude::builtin(name).unwrap_or_else(heun);
        let steps: &[usize] = if p >= 4.0 {
            &[8, 16, 32, 64]
        } else {
            &[32, 64, 128, 256]
        };
        assert_order(name, &first_order_errors(&s, steps), p);
    }
}

#[test]
fn dormand_prince_solution_is_fifth_order() {
    assert_order(
        "rk45",
        &first_order_errors(&prelude::builtin("rk45").unwrap(), &[12, 24, 48]),
        5.0,
    );
}

#[test]
fn symplectic_schemes_are_second_order() {
    for name in ["verlet", "leapfrog"] {
        let s = prelude::builtin(name).unwrap();
        assert_order(name, &second_order_errors(&s, &[32, 64, 128, 256]), 2.0);
    }
    // First-order schemes run a second-order model too (as two first-order laws).
    assert_order(
        "rk4 on x''",
        &second_order_errors(&prelude::builtin("rk4").unwrap(), &[4, 8, 16, 32]),
        4.0,
    );
}

#[test]
fn implicit_schemes_stay_stable_on_a_stiff_problem() {
    // k·h = 1e5: far outside every explicit stability region.
    for name in ["backwardEuler", "crankNicolson"] {
        let model = stiff(1e6, &prelude::builtin(name).unwrap(), Some(0.1));
        let mut m = TapeModel::new(&model).unwrap();
        let y = fixed_steps(&mut m, 2.0, 20)[0];
        assert!(
            (y - 2.0f64.cos()).abs() < 1e-3,
            "{name}: y(2) = {y}, cos 2 = {}",
            2.0f64.cos()
        );
    }
    let model = stiff(1e6, &prelude::builtin("euler").unwrap(), Some(0.1));
    let mut m = TapeModel::new(&model).unwrap();
    let y = fixed_steps(&mut m, 2.0, 20)[0];
    assert!(
        !y.is_finite() || y.abs() > 1e10,
        "explicit Euler should blow up, got {y}"
    );
}

#[test]
fn specialisation_reuses_f0_and_shares_stages() {
    let dp = common::lotka_volterra(&prelude::builtin("rk45").unwrap(), 1e-8);
    let info = &dp.info.scheme;
    // Seven stages, the first is f0 and the last is shared with f(t + h, next).
    assert!(info.fsal && info.adaptive && !info.implicit);
    assert_eq!(info.stages, 6);
    let rk4 = common::lotka_volterra(&prelude::builtin("rk4").unwrap(), 1e-8);
    assert_eq!(rk4.info.scheme.stages, 3);
    assert!(!rk4.info.scheme.fsal);
    let verlet = oscillator(1.0, &prelude::builtin("verlet").unwrap(), Some(0.1));
    assert!(verlet.info.scheme.fsal);
    assert_eq!(verlet.info.scheme.stages, 1);
    // Each inlined LV rate costs 7 operations; writing k2 twice costs nothing more.
    let mut twice = prelude::builtin("midpoint").unwrap();
    let k1 = physis_ir::SExpr::Var(0);
    let again = physis_ir::SExpr::f(
        physis_ir::SExpr::T + physis_ir::SExpr::H / 2.0,
        physis_ir::SExpr::Y + physis_ir::SExpr::H / 2.0 * k1,
    );
    twice.bindings.insert(
        2,
        physis_ir::SBinding {
            name: "k2b".into(),
            role: physis_ir::Role::Local,
            value: again,
            kind: physis_runtime::StageKind::Rate,
        },
    );
    let once = common::lotka_volterra(&prelude::builtin("midpoint").unwrap(), 1e-8);
    let dup = common::lotka_volterra(&twice, 1e-8);
    let count = |m: &physis_ir::IrModel| match &m.scheme.fns {
        SchemeFns::Explicit { step, .. } => step.op_count(),
        _ => unreachable!(),
    };
    assert_eq!(count(&once), count(&dup));
    assert_eq!(dup.info.scheme.stages, 1);
    // midpoint: y + h/2·k1 (2 ops per slot: 4), t + h/2 is unused by LV, rate 7, y + h·k2 (4).
    assert_eq!(count(&once), 4 + 1 + 7 + 4);
}

#[test]
fn scheme_misuse_is_a_typed_error() {
    use physis_ir::{Builder, Dynamics, IrError, Layout, SExpr, Source};
    let model = common::lotka_volterra(&prelude::builtin("rk4").unwrap(), 1e-8);
    // A second-order scheme on a first-order model.
    let e =
        physis_ir::specialise(&prelude::builtin("verlet").unwrap(), &model.dynamics).unwrap_err();
    assert!(matches!(e, IrError::SchemeReads { .. }), "{e}");
    // A stochastic scheme on a model without noise.
    let e = physis_ir::specialise(&prelude::builtin("eulerMaruyama").unwrap(), &model.dynamics)
        .unwrap_err();
    assert!(
        matches!(
            e,
            IrError::SchemeReads {
                what: "g(·,·)", ..
            }
        ),
        "{e}"
    );
    // No `next`.
    let mut no_next = SchemeDef::new("broken");
    no_next.bind("k", SExpr::f(SExpr::T, SExpr::Y));
    let e = physis_ir::specialise(&no_next, &model.dynamics).unwrap_err();
    assert!(matches!(e, IrError::SchemeBindings { .. }), "{e}");
    // A damped oscillator's acceleration reads its velocity: no Verlet.
    let mut b = Builder::new();
    let x = b.load(Source::State, 0);
    let v = b.load(Source::State, 1);
    let a = b.add(x, v).unwrap();
    let a = b.neg(a).unwrap();
    let rate = b.finish("rate", &[v, a]).unwrap();
    let d = Dynamics::new(Layout::scalars(2), rate, vec![(0, 1)], 0).unwrap();
    let e = physis_ir::specialise(&prelude::builtin("verlet").unwrap(), &d).unwrap_err();
    assert_eq!(e, IrError::AccelerationReadsVelocity { slot: 1 });
    assert!(physis_ir::specialise(&prelude::builtin("rk4").unwrap(), &d).is_ok());
}
