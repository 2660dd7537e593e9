//! Issue 19 item 8: periodic fields beside fields with ends on one grid passed `check`
//! and then failed at run time ("cannot be lowered to IR yet"). Each field of
//! `tests/models/mixed_grid.hph` starts on one eigenvector of its semi-discrete operator,
//! so the answer is known in closed form (computed here, sharing no code with the driver);
//! both back ends are checked against it.

use std::f64::consts::PI;
use std::path::PathBuf;

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{Collect, ReasonKind, RunEnd, RunOptions};

#[allow(dead_code)]
mod test_models {
    include!(concat!(env!("OUT_DIR"), "/test_models.rs"));
}

const FILE: &str = "tests/models/mixed_grid.hph";
/// Nodes, node spacing (x_i = iΔ from 0 m to 2 m), D and c of the models.
const N: usize = 101;
const DX: f64 = 0.02;
const D: f64 = 0.01;
const C: f64 = 0.5;

/// The final state and end of model `name` by the interpreter and by its generated code.
fn both(name: &str) -> [(&'static str, Vec<f64>, RunEnd); 2] {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let source = std::fs::read_to_string(path).expect("model file");
    let checked = physis_check::check_source(&source);
    assert!(!checked.has_errors(), "{FILE} checks");
    let m = checked
        .program
        .models
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{name} in {FILE}"));
    let ir = lower_with_source(m, &source).unwrap_or_else(|e| panic!("{name}: {e}"));
    let params = ir.default_params();
    let options = RunOptions::default();
    let mut tape = Collect::default();
    let model = TapeModel::with_params(&ir, params.clone()).expect("tape model");
    let tape_end = physis_runtime::run_into(model, &options, &mut tape).expect("interpreter runs");
    let (_, generated) = test_models::MODELS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} generated"));
    let mut out = Collect::default();
    let gen_end = generated(&params, &options, &mut out)
        .expect("parameters fit")
        .expect("generated code runs");
    [
        ("interpreter", tape_end.state.clone(), tape_end),
        ("generated", gen_end.state.clone(), gen_end),
    ]
}

/// The semi-discrete Laplacian's eigenvalue for the mode of wavenumber `k`.
fn lambda(k: f64) -> f64 {
    -4.0 * D / (DX * DX) * (k * DX / 2.0).sin().powi(2)
}

fn max_err(got: &[f64], want: impl Fn(f64) -> f64) -> f64 {
    got.iter()
        .enumerate()
        .map(|(i, u)| (u - want(i as f64 * DX)).abs())
        .fold(0.0, f64::max)
}

#[test]
fn periodic_fields_beside_fields_with_ends_were_refused_at_run_time() {
    for (who, s, end) in both("MixedBoundaries") {
        assert_eq!(end.reason.kind, ReasonKind::When, "{who}");
        let t = end.t;
        assert!((t - 1.0).abs() < 1e-12, "{who}: {t}");
        let (u, v, w, z) = (&s[..N], &s[N..2 * N], &s[2 * N..3 * N], &s[3 * N..]);
        let (k1, k2) = (PI / 2.0, PI);
        // Dirichlet u = sin(πx/2 m), Neumann w = cos(πx/2 m): their edges at 0 m and 2 m.
        let eu = max_err(u, |x| (k1 * x).sin() * (lambda(k1) * t).exp());
        let ew = max_err(w, |x| (k1 * x).cos() * (lambda(k1) * t).exp());
        // Periodic v = cos(πx/1 m): period 2 m over the 100 distinct nodes.
        let ev = max_err(v, |x| (k2 * x).cos() * (lambda(k2) * t).exp());
        // Periodic z advected by the central difference: sin(k(x − c't)), c' = c·sin(kΔ)/(kΔ).
        let omega = C * (k2 * DX).sin() / DX;
        let ez = max_err(z, |x| (k2 * x - omega * t).sin());
        // Measured (both back ends): u 5.6e-16, w 4.4e-16, v 5.6e-14, z 4.0e-9.
        for (name, e) in [("u", eu), ("w", ew), ("v", ev), ("z", ez)] {
            assert!(e < 1e-8, "{who}: {name} off by {e:e}");
        }
        assert_eq!((u[0], u[N - 1]), (0.0, 0.0), "{who}: the Dirichlet ends");
        // A periodic field's last node is its first node again, exactly.
        assert_eq!(v[N - 1].to_bits(), v[0].to_bits(), "{who}");
        assert_eq!(z[N - 1].to_bits(), z[0].to_bits(), "{who}");
        // sum and mean of a periodic field count each of its 100 distinct nodes once.
        let a = (lambda(k2) * t).exp();
        let (vsq, vmean, zlast) = (end.observe[0], end.observe[1], end.observe[2]);
        assert!((vsq - 50.0 * a * a).abs() < 1e-7, "{who}: sum(v·v) = {vsq}");
        assert!(vmean.abs() < 1e-12, "{who}: mean(v) = {vmean}");
        assert!(
            (zlast + (omega * t).sin()).abs() < 1e-8,
            "{who}: z[100] = {zlast}"
        );
    }
}

#[test]
fn periodic_fields_beside_fields_with_ends_run_implicit_schemes() {
    for (who, s, end) in both("MixedBoundariesImplicit") {
        assert_eq!(end.reason.kind, ReasonKind::When, "{who}");
        assert_eq!(end.stats.steps, 10, "{who}");
        let (u, v, w) = (&s[..N], &s[N..2 * N], &s[2 * N..]);
        // Backward Euler multiplies an eigenvector by (1 − hλ)⁻¹ per step.
        let amp = |k: f64| (1.0 - 0.1 * lambda(k)).powi(-10);
        let (k1, k2) = (PI / 2.0, PI);
        let eu = max_err(u, |x| (k1 * x).sin() * amp(k1));
        let ew = max_err(w, |x| (k1 * x).cos() * amp(k1));
        let ev = max_err(v, |x| (k2 * x).cos() * amp(k2));
        // Measured (both back ends): u 5.6e-16, w 5.6e-16, v 1.1e-15.
        for (name, e) in [("u", eu), ("w", ew), ("v", ev)] {
            assert!(e < 1e-12, "{who}: {name} off by {e:e}");
        }
        // The repeated node is its own unknown in Newton's solve: equal up to rounding.
        assert!((v[N - 1] - v[0]).abs() < 1e-13, "{who}");
        let vsq = end.observe[0];
        assert!((vsq - 50.0 * amp(k2).powi(2)).abs() < 1e-10, "{who}: {vsq}");
    }
}
