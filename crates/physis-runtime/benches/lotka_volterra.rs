//! ANCHORS A1: Lotka–Volterra, x' = 2/3·x − 4/3·x·y, y' = −y + x·y, x = y = 1, t to 10,
//! rk45 tolerance 1e-8, with a hand-written Dormand–Prince step on stack arrays (what
//! generated code will look like). Reports µs per run and, from the run's own count, per
//! rate evaluation. Run: `cargo bench -p physis-runtime --bench lotka_volterra`.
#![allow(clippy::print_stderr, missing_docs)]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_runtime::{
    AtomInfo, Clause, Cmp, Cond, Model, ModelInfo, RunOptions, Sample, SampleSink, SchemeInfo,
    Settings, StateInfo, StepArgs, StepOut, run_into,
};

struct Lv {
    info: Arc<ModelInfo>,
}

#[inline(always)]
fn f(y: &[f64; 2]) -> [f64; 2] {
    [
        2.0 / 3.0 * y[0] - 4.0 / 3.0 * y[0] * y[1],
        -y[1] + y[0] * y[1],
    ]
}

fn arr(s: &[f64]) -> [f64; 2] {
    [s[0], s[1]]
}

impl Model for Lv {
    fn info(&self) -> Arc<ModelInfo> {
        Arc::clone(&self.info)
    }
    fn initial(&mut self, _t0: f64, y: &mut [f64]) {
        y.copy_from_slice(&[1.0, 1.0]);
    }
    fn rate(&mut self, _t: f64, y: &[f64], d: &mut [f64]) {
        d.copy_from_slice(&f(&arr(y)));
    }
    fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
        let (h, y, k1) = (a.h, arr(a.y), arr(a.f0));
        let st = |c: [f64; 6], ks: [&[f64; 2]; 6]| {
            let mut r = y;
            for i in 0..2 {
                let mut s = 0.0;
                for j in 0..6 {
                    s += c[j] * ks[j][i];
                }
                r[i] += h * s;
            }
            r
        };
        let z = [0.0; 2];
        let k2 = f(&st(
            [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [&k1, &z, &z, &z, &z, &z],
        ));
        let k3 = f(&st(
            [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
            [&k1, &k2, &z, &z, &z, &z],
        ));
        let k4 = f(&st(
            [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
            [&k1, &k2, &k3, &z, &z, &z],
        ));
        let k5 = f(&st(
            [
                19372.0 / 6561.0,
                -25360.0 / 2187.0,
                64448.0 / 6561.0,
                -212.0 / 729.0,
                0.0,
                0.0,
            ],
            [&k1, &k2, &k3, &k4, &z, &z],
        ));
        let k6 = f(&st(
            [
                9017.0 / 3168.0,
                -355.0 / 33.0,
                46732.0 / 5247.0,
                49.0 / 176.0,
                -5103.0 / 18656.0,
                0.0,
            ],
            [&k1, &k2, &k3, &k4, &k5, &z],
        ));
        let next = st(
            [
                35.0 / 384.0,
                0.0,
                500.0 / 1113.0,
                125.0 / 192.0,
                -2187.0 / 6784.0,
                11.0 / 84.0,
            ],
            [&k1, &k2, &k3, &k4, &k5, &k6],
        );
        let k7 = f(&next);
        out.next.copy_from_slice(&next);
        if let Some(f1) = out.f1 {
            f1.copy_from_slice(&k7);
        }
        if let Some(err) = out.err {
            let e = [
                71.0 / 57600.0,
                -71.0 / 16695.0,
                71.0 / 1920.0,
                -17253.0 / 339200.0,
                22.0 / 525.0,
                -1.0 / 40.0,
            ];
            for i in 0..2 {
                err[i] = h
                    * (e[0] * k1[i]
                        + e[1] * k3[i]
                        + e[2] * k4[i]
                        + e[3] * k5[i]
                        + e[4] * k6[i]
                        + e[5] * k7[i]);
            }
        }
    }
    fn margins(&mut self, t: f64, _y: &[f64], _d: &[f64], out: &mut [f64]) {
        out[0] = t - 10.0;
    }
}

fn lv() -> Lv {
    let info = ModelInfo {
        name: "LotkaVolterra".into(),
        dim: 2,
        states: vec![
            StateInfo {
                name: "x".into(),
                offset: 0,
                shape: vec![],
                fixed_edge: false,
            },
            StateInfo {
                name: "y".into(),
                offset: 1,
                shape: vec![],
                fixed_edge: false,
            },
        ],
        observes: vec![],
        noises: 0,
        scheme: SchemeInfo {
            name: "rk45".into(),
            order: 5,
            adaptive: true,
            implicit: false,
            stochastic: false,
            stability_radius: None,
            stages: 6,
            residual_evals: 0,
            fsal: true,
            dense: false,
            implicit_stages: Vec::new(),
            bdf: false,
        },
        settings: Settings {
            tolerance: 1e-8,
            ..Settings::default()
        },
        integrate: None,
        atoms: vec![AtomInfo {
            op: Cmp::Ge,
            time_only: true,
            affine: true,
        }],
        stops: vec![Clause {
            cond: Cond::Atom(0),
            text: "t ≥ 10 s".into(),
            line: 1,
        }],
        events: vec![],
        conserves: vec![],
        conditions_read_rate: false,
        observes_read_rate: false,
    };
    Lv {
        info: Arc::new(info),
    }
}

/// Discards samples (output at t = 10 only, as in the anchor).
struct Discard;

impl SampleSink for Discard {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        black_box(s.t);
        Ok(())
    }
}

fn bench(c: &mut Criterion) {
    let opts = RunOptions::default();
    let end = run_into(lv(), &opts, &mut Discard).expect("runs");
    assert!((end.t - 10.0).abs() < 1e-12);
    assert!(
        (end.state[0] - 0.48914918).abs() < 1e-6 && (end.state[1] - 0.48439503).abs() < 1e-6,
        "{:?}",
        end.state
    );
    let n = 2000;
    let t0 = Instant::now();
    for _ in 0..n {
        black_box(run_into(lv(), &opts, &mut Discard).ok());
    }
    let us = t0.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    eprintln!(
        "lotka-volterra: {:.2} µs/run, {} steps, {} rejections, {} evaluations, {:.1} ns/evaluation (all driver work included)",
        us,
        end.stats.steps,
        end.stats.rejections,
        end.stats.evaluations,
        us * 1e3 / end.stats.evaluations as f64
    );
    c.bench_function("lotka_volterra_rk45_1e-8", |b| {
        b.iter(|| run_into(lv(), &opts, &mut Discard).ok())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
