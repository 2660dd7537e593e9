//! Native code against the tape interpreter, bit for bit, and against closed forms.
//!
//! Every example model (`examples/*.hph`), every model of the differential corpus
//! (`examples/rust-api/tests/models`) and the oracle's generated corpus is run twice, on the
//! tapes and compiled at once, and every sample (time, state, observes, kind) and the end
//! (reason, time, counts) must be identical. The oracle's models and two hand-written ones
//! (exponential decay, the harmonic oscillator) must also land on their exact solutions, so
//! the two back ends are not only equal to each other.

use std::path::PathBuf;
use std::sync::Arc;

use physis_ir::{IrModel, Tape, TapeCompiler, TapeModel, lower_with_source};
use physis_jit::{Jit, When};
use physis_runtime::{Collect, OwnedSample, RunEnd, RunOptions};

/// The `.hph` files of `folder` (relative to this crate), sorted; `lanes.rs` shares it.
pub(crate) fn hph_files(folder: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    files.sort();
    files
}

/// Every simulation of `source`, checked and lowered; `lanes.rs` shares it.
pub(crate) fn models_of(source: &str) -> Vec<IrModel> {
    let checked = physis_check::check_source(source);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    checked
        .program
        .models
        .iter()
        .map(|m| lower_with_source(m, source).unwrap_or_else(|e| panic!("{}: {e}", m.name)))
        .collect()
}

fn run(
    ir: &IrModel,
    params: &[f64],
    options: &RunOptions,
    when: When,
) -> (Vec<OwnedSample>, RunEnd, Jit) {
    let mut model = TapeModel::with_params(ir, params.to_vec()).unwrap();
    let jit = Jit::new();
    physis_jit::tier(&mut model, &jit, when);
    let mut out = Collect::default();
    let end = physis_runtime::run_into(model, options, &mut out).unwrap();
    (out.0, end, jit)
}

fn same(what: &str, a: &(Vec<OwnedSample>, RunEnd, Jit), b: &(Vec<OwnedSample>, RunEnd, Jit)) {
    let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(a.0.len(), b.0.len(), "{what}: sample counts");
    for (k, (x, y)) in a.0.iter().zip(&b.0).enumerate() {
        assert_eq!(x.t.to_bits(), y.t.to_bits(), "{what}: t of sample {k}");
        assert_eq!(
            bits(&x.state),
            bits(&y.state),
            "{what}: state of sample {k}"
        );
        assert_eq!(
            bits(&x.observe),
            bits(&y.observe),
            "{what}: observes of sample {k}"
        );
        assert_eq!(x.kind, y.kind, "{what}: kind of sample {k}");
    }
    assert_eq!(a.1.reason, b.1.reason, "{what}: reason");
    assert_eq!(a.1.t.to_bits(), b.1.t.to_bits(), "{what}: final t");
    assert_eq!(bits(&a.1.state), bits(&b.1.state), "{what}: final state");
    assert_eq!(a.1.stats, b.1.stats, "{what}: counts");
}

/// Runs `ir` on the tapes and natively, with its defaults, every named run and perturbed
/// parameters, and compares; returns how many runs compiled a rate or step, and how many ran.
fn compare_both_ways(name: &str, ir: &IrModel) -> (usize, usize) {
    let mut sets = vec![("defaults".to_string(), ir.default_params())];
    for r in &ir.runs {
        sets.push((format!("run {}", r.name), ir.run_params(&r.name).unwrap()));
    }
    sets.push((
        "perturbed".to_string(),
        ir.default_params().iter().map(|p| p * 1.125).collect(),
    ));
    let (mut native, mut total) = (0, 0);
    for (label, params) in sets {
        for options in [
            RunOptions::default(),
            RunOptions {
                tolerance: Some(1e-6),
                seed: Some(7),
                ..RunOptions::default()
            },
        ] {
            let what = format!("{name} ({label}, {options:?})");
            let tape = run(ir, &params, &options, When::Never);
            let jit = run(ir, &params, &options, When::AtOnce);
            assert!(tape.2.report().is_none(), "{what}: --no-jit compiled");
            let report = jit.2.report().expect("compiled at once");
            assert!(report.failure.is_none(), "{what}: {report}");
            if report.compiled.iter().any(|r| *r == "rate" || *r == "step") {
                native += 1;
            }
            same(&what, &tape, &jit);
            total += 1;
        }
    }
    (native, total)
}

#[test]
fn examples_and_the_differential_corpus_run_the_same_bits_natively() {
    let (mut native, mut total, mut runs) = (0, 0, 0);
    for path in hph_files("../../examples")
        .into_iter()
        .chain(hph_files("../../examples/rust-api/tests/models"))
    {
        let source = std::fs::read_to_string(&path).unwrap();
        for ir in models_of(&source) {
            let (n, t) = compare_both_ways(&format!("{} in {}", ir.info.name, path.display()), &ir);
            native += n;
            total += t;
            runs += 1;
        }
    }
    assert!(runs >= 20, "only {runs} models compared");
    // Most models' rate or step compiles; grids' stencils stay on the tape.
    assert!(
        2 * native >= total,
        "only {native} of {total} runs went native"
    );
}

#[test]
fn the_oracle_corpus_lands_on_its_exact_solutions_natively() {
    for c in physis_oracle::corpus::compiled() {
        let ir = models_of(&c.model.text).remove(0);
        let options = RunOptions::default();
        let tape = run(&ir, &ir.default_params(), &options, When::Never);
        let jit = run(&ir, &ir.default_params(), &options, When::AtOnce);
        same(&c.name, &tape, &jit);
        let (want, tol) = c.truth();
        // The oracle's truth is of the observes, compared as its own test compares them.
        let got = &jit.1.observe;
        assert!(!got.is_empty(), "{}", c.name);
        let err = got
            .iter()
            .zip(&want)
            .fold(0.0f64, |m, (g, w)| m.max((g - w).abs()));
        assert!(
            err <= tol,
            "{}: off its exact solution by {err:e} (allowed {tol:e})",
            c.name
        );
    }
}

const DECAY: &str = "
simulate Decay {
  param k : Frequency = 1.5 Hz
  state x : Dimensionless = 2
  law x' = −k·x
  integrate rk45 tolerance 1e-10
  stop when t ≥ 2 s
}
";

const OSCILLATOR: &str = "
simulate Oscillator {
  param ω : Frequency = 3 Hz
  state q : Length = 1 m
  state q' : Velocity = 0 m/s
  law q'' = −ω²·q
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}
";

#[test]
fn exponential_decay_and_the_oscillator_meet_their_closed_forms_natively() {
    let decay = models_of(DECAY).remove(0);
    let (_, end, jit) = run(
        &decay,
        &decay.default_params(),
        &RunOptions::default(),
        When::AtOnce,
    );
    assert!(jit.report().unwrap().compiled.contains(&"step"));
    let want = 2.0 * (-1.5 * end.t).exp();
    assert!(
        (end.state[0] - want).abs() <= 1e-8 * want,
        "{} vs {want}",
        end.state[0]
    );

    let osc = models_of(OSCILLATOR).remove(0);
    let (_, end, _) = run(
        &osc,
        &osc.default_params(),
        &RunOptions::default(),
        When::AtOnce,
    );
    let (q, v) = ((3.0 * end.t).cos(), -3.0 * (3.0 * end.t).sin());
    assert!(
        (end.state[0] - q).abs() < 1e-10,
        "q {} vs {q}",
        end.state[0]
    );
    assert!(
        (end.state[1] - v).abs() < 1e-10,
        "q' {} vs {v}",
        end.state[1]
    );
}

#[test]
fn tiering_compiles_only_a_long_run_and_the_summary_says_what_ran() {
    let lv = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/lotka_volterra.hph"),
    )
    .unwrap();
    let ir = models_of(&lv).remove(0);
    // Ten seconds at 1e-8: a few hundred steps, too short to repay compiling.
    let (_, short_end, short) = run(
        &ir,
        &ir.default_params(),
        &RunOptions::default(),
        When::Tiered,
    );
    assert!(short.report().is_none(), "{:?}", short.report());
    // Fixed steps of 0.1 ms for ten seconds: a hundred thousand steps, which compile.
    let long_opts = RunOptions {
        step: Some(1e-4),
        ..RunOptions::default()
    };
    let long_ir =
        models_of(&lv.replace("integrate rk45 tolerance 1e-8", "integrate rk4 step 0.1 ms"))
            .remove(0);
    let (_, long_end, long) = run(
        &long_ir,
        &long_ir.default_params(),
        &long_opts,
        When::Tiered,
    );
    let report = long.report().expect("a long run compiles");
    let text = report.to_string();
    assert!(text.starts_with("jit: rate"), "{text}");
    assert!(report.compiled.contains(&"step"), "{text}");
    let (_, tape_end, _) = run(&long_ir, &long_ir.default_params(), &long_opts, When::Never);
    // Switching to native code mid-run changes no bit.
    assert_eq!(long_end.state, tape_end.state);
    assert!(short_end.stats.steps > 0);
}

#[test]
fn a_grid_keeps_its_stencils_on_the_tape_and_says_so() {
    let rod = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/heated_rod.hph"),
    )
    .unwrap();
    let ir = models_of(&rod).remove(0);
    let (_, _, jit) = run(
        &ir,
        &ir.default_params(),
        &RunOptions::default(),
        When::AtOnce,
    );
    let text = jit.report().unwrap().to_string();
    assert!(text.contains("stencil"), "{text}");
}

#[test]
fn short_inputs_fall_back_to_the_tape() {
    let decay = models_of(DECAY).remove(0);
    let tape = Arc::new(Tape::compile(&decay.rate).unwrap());
    let natives = Jit::new().compile(&[("rate", tape.clone())]);
    let native = natives[0].clone().expect("the rate compiles");
    let mut regs = tape.registers();
    let params = decay.default_params();
    let y = [2.0];
    let full = physis_ir::Inputs {
        t: 0.0,
        y: &y,
        p: &params,
        ..Default::default()
    };
    assert!(native.run(&mut regs, &full));
    let mut out = [0.0];
    tape.write(&regs, 0, &mut out);
    assert_eq!(out[0], -1.5 * 2.0);
    let empty = physis_ir::Inputs {
        p: &params,
        ..Default::default()
    };
    assert!(!native.run(&mut regs, &empty), "ran with no state");
    let mut few = vec![0.0; 0];
    assert!(
        !native.run(&mut few, &full),
        "ran into a register file too small"
    );
}

/// The residual Jacobians of every implicit model of the examples and the differential
/// corpus, compiled, against the tape, bit for bit, at states with non-finite slots among
/// them; at least one model's `jacobian` tape must have compiled.
#[test]
fn residual_jacobians_compile_to_the_same_bits() {
    use physis_runtime::{DenseMatrix, JacobianLayout, Model, StepArgs};
    let mut compiled = 0;
    for path in hph_files("../../examples")
        .into_iter()
        .chain(hph_files("../../examples/rust-api/tests/models"))
    {
        let source = std::fs::read_to_string(&path).unwrap();
        for ir in models_of(&source) {
            let name = format!("{} in {}", ir.info.name, path.display());
            let params = ir.default_params();
            let mut tape = TapeModel::with_params(&ir, params.clone()).unwrap();
            let mut native = TapeModel::with_params(&ir, params).unwrap();
            let jit = Jit::new();
            native.compile_native(&jit);
            let report = jit.report().unwrap();
            if !report.compiled.contains(&"jacobian") {
                continue;
            }
            if tape.jacobian_layout() != JacobianLayout::Dense {
                continue;
            }
            let n = ir.info.dim;
            let y: Vec<f64> = (0..n).map(|i| 0.3 + 0.1 * i as f64).collect();
            let f0: Vec<f64> = (0..n).map(|i| -0.2 * i as f64).collect();
            let dw = vec![0.0; ir.info.noises];
            for (k, next) in [
                y.iter().map(|v| v * 1.01).collect::<Vec<f64>>(),
                (0..n)
                    .map(|i| if i % 3 == 1 { f64::NAN } else { 2.0 - i as f64 })
                    .collect(),
            ]
            .iter()
            .enumerate()
            {
                let args = StepArgs {
                    t: 0.25,
                    h: 1e-2,
                    y: &y,
                    f0: &f0,
                    dw: &dw,
                };
                let (mut a, mut b) = (DenseMatrix::zeros(n), DenseMatrix::zeros(n));
                // A staged or Rosenbrock scheme forms its Jacobians elsewhere.
                let formed = tape.residual_jacobian(&args, next, &mut a);
                assert_eq!(
                    formed,
                    native.residual_jacobian(&args, next, &mut b),
                    "{name}"
                );
                if !formed {
                    continue;
                }
                compiled += usize::from(k == 0);
                let bits =
                    |m: &DenseMatrix| m.as_slice().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{name}: Jacobian at state {k}");
            }
        }
    }
    assert!(compiled >= 1, "no implicit model compiled its Jacobian");
}
