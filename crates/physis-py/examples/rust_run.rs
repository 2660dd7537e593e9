//! The Rust side of `bench/bench_python.py`: the same model through the Rust API in one
//! process (check, lower, bind, run with the samples collected as columns), timed over
//! repeated runs. Prints one JSON line: `{"compile_s": median, "run_s": median}`.
//! `cargo run --release -p physis-py --example rust_run -- FILE.hph REPEATS`
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use physis_ir::TapeModel;
use physis_runtime::{Columns, RunOptions};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: rust_run FILE.hph REPEATS")?;
    let repeats: usize = args.next().map_or(Ok(200), |r| r.parse())?;
    let source = std::fs::read_to_string(&file)?;
    let (mut compile, mut run) = (Vec::new(), Vec::new());
    for _ in 0..repeats.max(1) {
        let t0 = Instant::now();
        let checked = physis_check::check_source(&source);
        let model = checked.program.models.first().ok_or("no simulation")?;
        let ir = physis_ir::lower_with_source(model, &source).map_err(|e| format!("{e:?}"))?;
        compile.push(t0.elapsed().as_secs_f64());
        let t1 = Instant::now();
        let tapes = TapeModel::with_params(&ir, ir.default_params())?;
        let mut cols = Columns::default();
        physis_runtime::run_into(tapes, &RunOptions::default(), &mut cols)?;
        std::hint::black_box(&cols);
        run.push(t1.elapsed().as_secs_f64());
    }
    println!(
        "{{\"compile_s\": {:e}, \"run_s\": {:e}}}",
        median(compile),
        median(run)
    );
    Ok(())
}
