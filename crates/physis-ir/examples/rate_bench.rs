//! Measures the tape interpreter on Lotka–Volterra (ANCHORS A1): ns per rate evaluation,
//! per specialised rk45 step, and µs per whole run to t = 10 at tolerance 1e-8.
//!
//! `cargo run --release -p physis-ir --example rate_bench`

#![allow(clippy::print_stdout)]

use std::hint::black_box;
use std::time::Instant;

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{Model, RunOptions, StepArgs, StepOut};

const LV: &str = "simulate LotkaVolterra {
  param a : Frequency = 0.6666666666666666 Hz
  param b : Frequency = 1.3333333333333333 Hz
  state x : Dimensionless = 1
  state y : Dimensionless = 1
  law x' = a·x − b·x·y
  law y' = −y·1 Hz + x·y·1 Hz
  integrate rk45 tolerance 1e-8
  stop when t ≥ 10 s
}
";

/// Keeps nothing: measures the run, not the storage of its samples.
struct Discard;

impl physis_runtime::SampleSink for Discard {
    fn sample(&mut self, _: &physis_runtime::Sample<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let checked = physis_check::check_source(LV);
    let model = lower_with_source(checked.program.model("LotkaVolterra").expect("model"), LV)
        .expect("lowers");
    let mut m = TapeModel::new(&model).expect("compiles");
    println!("rate tape: {} instructions", m.rate_len());
    let n = 5_000_000;
    let mut y = [1.0, 1.0];
    let mut d = [0.0; 2];
    let mut rate_ns = Vec::new();
    for _ in 0..7 {
        let t0 = Instant::now();
        for i in 0..n {
            y[0] = 1.0 + (i & 7) as f64 * 1e-3;
            m.rate(black_box(0.0), black_box(&y), &mut d);
            black_box(&d);
        }
        rate_ns.push(t0.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("rate: {:.1} ns/eval (median of 7)", median(rate_ns));
    // The same rate written by hand, in the same process, for the ratio.
    let p = [2.0 / 3.0, 4.0 / 3.0];
    let hand = |y: &[f64; 2], d: &mut [f64; 2]| {
        d[0] = p[0] * y[0] - p[1] * (y[0] * y[1]);
        d[1] = -y[1] + y[0] * y[1];
    };
    let mut hand_ns = Vec::new();
    for _ in 0..7 {
        let t0 = Instant::now();
        for i in 0..n {
            y[0] = 1.0 + (i & 7) as f64 * 1e-3;
            hand(black_box(&y), &mut d);
            black_box(&d);
        }
        hand_ns.push(t0.elapsed().as_nanos() as f64 / n as f64);
    }
    println!(
        "hand-written rate, same loop: {:.1} ns/eval",
        median(hand_ns)
    );
    let t0 = Instant::now();
    for _ in 0..1000 {
        black_box(TapeModel::new(&model).expect("compiles"));
    }
    println!(
        "compiling every tape of the model: {:.1} µs",
        t0.elapsed().as_secs_f64() * 1e3
    );
    let (f0, mut next, mut err, mut f1) = ([0.3, -0.2], [0.0; 2], [0.0; 2], [0.0; 2]);
    let mut step_ns = Vec::new();
    for _ in 0..7 {
        let t0 = Instant::now();
        for _ in 0..n / 5 {
            let args = StepArgs {
                t: 0.0,
                h: black_box(0.01),
                y: &y,
                f0: &f0,
                dw: &[],
            };
            m.step(
                &args,
                StepOut {
                    next: &mut next,
                    err: Some(&mut err),
                    f1: Some(&mut f1),
                    dense: None,
                },
            );
            black_box(&next);
        }
        step_ns.push(t0.elapsed().as_nanos() as f64 / (n / 5) as f64);
    }
    println!(
        "rk45 step (6 inlined stages + error + f1): {:.1} ns/step",
        median(step_ns)
    );
    let mut run_us = Vec::new();
    let mut last = None;
    for _ in 0..7 {
        let reps = 2000;
        let t0 = Instant::now();
        for _ in 0..reps {
            let tm = m.clone();
            let end =
                physis_runtime::run_into(tm, &RunOptions::default(), &mut Discard).expect("runs");
            last = Some(end);
        }
        run_us.push(t0.elapsed().as_secs_f64() * 1e6 / f64::from(reps));
    }
    let end = last.expect("ran");
    println!(
        "whole run to t = 10 (compiled model cloned per run): {:.1} µs, y(10) = {:?}, steps = {}",
        median(run_us),
        end.state,
        end.stats.steps
    );
}
