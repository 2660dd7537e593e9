//! Generated code against the tape interpreter. Criterion times Lotka–Volterra (ANCHORS
//! A1: t to 10 s, rk45 tolerance 1e-8) both ways; then every example model the generator
//! emits is timed both ways (median of repeated whole runs) and a Markdown table of the
//! times and the speed-up printed (grid models included).
//! Run: `cargo bench -p rust-api --bench generated`.
#![allow(clippy::print_stderr, missing_docs)]

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use physis_ir::{IrModel, TapeModel, lower_with_source};
use physis_runtime::{RunOptions, Sample, SampleSink};
use rust_api::LotkaVolterra;

#[allow(dead_code)]
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

/// Keeps nothing: measures the run, not the storage of its samples.
struct Discard;

impl SampleSink for Discard {
    fn sample(&mut self, _: &Sample<'_>) -> std::io::Result<()> {
        Ok(())
    }
}

fn lowered(file: &str, name: &str) -> IrModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
    let src = std::fs::read_to_string(path).unwrap();
    let checked = physis_check::check_source(&src);
    lower_with_source(checked.program.model(name).unwrap(), &src).unwrap()
}

fn lotka_volterra(c: &mut Criterion) {
    let opts = RunOptions::default();
    let ir = lowered("models/lotka_volterra.hph", "LotkaVolterra");
    let tape = TapeModel::new(&ir).unwrap();
    let mut g = c.benchmark_group("lotka_volterra_rk45_1e-8");
    g.bench_function("generated", |b| {
        b.iter(|| physis_runtime::run_into(black_box(LotkaVolterra::new()), &opts, &mut Discard))
    });
    g.bench_function("interpreter", |b| {
        b.iter(|| physis_runtime::run_into(black_box(tape.clone()), &opts, &mut Discard))
    });
    g.finish();
}

fn median_us(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    f();
    let once = start.elapsed().as_secs_f64();
    let reps = ((0.2 / once.max(1e-7)) as usize).clamp(3, 2000);
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn ratios(_: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let opts = RunOptions::default();
    eprintln!(
        "\n| model | interpreter µs/run | generated µs/run | speed-up (interpreter / generated) |"
    );
    eprintln!("|---|---:|---:|---:|");
    for (name, run) in examples::MODELS {
        let ir = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "hph"))
            .find_map(|p| {
                let src = std::fs::read_to_string(&p).unwrap();
                let checked = physis_check::check_source(&src);
                let m = checked.program.model(name)?;
                lower_with_source(m, &src).ok()
            })
            .unwrap();
        let params = ir.default_params();
        let tape = TapeModel::new(&ir).unwrap();
        let g = median_us(|| {
            black_box(run(&params, &opts, &mut Discard));
        });
        let i = median_us(|| {
            black_box(physis_runtime::run_into(tape.clone(), &opts, &mut Discard).ok());
        });
        eprintln!("| {name} | {i:.2} | {g:.2} | {:.2} |", i / g);
    }
}

criterion_group!(benches, lotka_volterra, ratios);
criterion_main!(benches);
