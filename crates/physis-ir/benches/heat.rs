//! Fields on grids through the tape interpreter and the driver's sparse Newton:
//! ANCHORS A4 (1-D heat, 100 interior nodes) with backwardEuler and crankNicolson at the
//! step that gives SciPy BDF's accuracy (max error ≈ 3e-7), and one implicit step of the
//! 2-D heat equation on N×N grids (N = 50, 100, 200).
//!
//! `cargo bench -p physis-ir --bench heat`; SciPy's figures come from
//! `bench/anchors/ode_anchors.py` run beside it.

#![allow(clippy::print_stderr, missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_ir::{IrModel, TapeModel, lower_with_source};
use physis_runtime::{Run, RunOptions};

fn lowered(src: &str, name: &str) -> IrModel {
    let checked = physis_check::check_source(src);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    lower_with_source(checked.program.model(name).expect("model"), src).expect("lowers")
}

fn a4(integrate: &str) -> IrModel {
    let src = format!(
        "simulate Heat {{
  param D : Diffusivity = 1 m²/s
  grid (x) : Length[102] from 0 m to 1 m
  field u : Temperature = 1 K·sin(π·x/1 m)
  boundary u dirichlet 0 K
  law u' = D·laplacian(u)
  integrate {integrate}
  stop when t ≥ 0.1 s
}}
"
    );
    lowered(&src, "Heat")
}

fn a4_error(r: &Run) -> f64 {
    let h = 1.0 / 101.0;
    let lam = -(4.0 / (h * h)) * (std::f64::consts::PI * h / 2.0).sin().powi(2);
    let decay = (lam * r.final_t()).exp();
    r.final_state()
        .iter()
        .enumerate()
        .map(|(i, u)| (u - (std::f64::consts::PI * i as f64 * h).sin() * decay).abs())
        .fold(0.0, f64::max)
}

fn heat2d(n: usize, steps: usize) -> IrModel {
    let src = format!(
        "simulate Plate {{
  param D : Diffusivity = 1 m²/s
  grid (x, y) : Length[{n}, {n}] from 0 m to 1 m
  field u : Temperature = 1 K·sin(π·x/1 m)·sin(π·y/1 m)
  boundary u dirichlet 0 K
  law u' = D·laplacian(u)
  integrate backwardEuler step 1 ms
  stop when t ≥ {} s
}}
",
        steps as f64 * 1e-3
    );
    lowered(&src, "Plate")
}

fn run(m: &TapeModel) -> Run {
    physis_runtime::run(m.clone(), &RunOptions::default()).expect("runs")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("a4_heat_1d");
    g.sample_size(10);
    // Steps for max error ≈ 3e-7: first order needs h ≈ 1.7e-7, second order h ≈ 3e-4.
    for (name, integrate) in [
        ("crankNicolson_320_steps", "crankNicolson step 3.125e-4 s"),
        (
            "backwardEuler_600000_steps",
            "backwardEuler step 1.6666666666666667e-7 s",
        ),
        ("rk45_tol_1e-6", "rk45 tolerance 1e-6"),
    ] {
        let m = TapeModel::new(&a4(integrate)).expect("binds");
        let r = run(&m);
        eprintln!(
            "{name}: max error {:.2e}, {} steps, {} rate evaluations",
            a4_error(&r),
            r.stats().steps,
            r.stats().evaluations
        );
        g.bench_function(name, |b| b.iter(|| black_box(run(&m))));
    }
    g.finish();
    let mut g = c.benchmark_group("heat_2d_backward_euler");
    g.sample_size(10);
    for n in [50usize, 100, 200] {
        for steps in [1usize, 11] {
            let model = heat2d(n, steps);
            let p = model.jacobian_pattern.as_ref().expect("sparse");
            eprintln!(
                "{n}×{n}: {} unknowns, {} entries, {} colours",
                p.n(),
                p.nnz(),
                p.colours()
            );
            let m = TapeModel::new(&model).expect("binds");
            g.bench_function(format!("{n}x{n}_{steps}_steps"), |b| {
                b.iter(|| black_box(run(&m)))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
