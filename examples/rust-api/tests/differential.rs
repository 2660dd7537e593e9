//! Generated code against the tape interpreter, bit for bit: every example model of the
//! workspace (`examples/*.hph`, compiled into `OUT_DIR/examples.rs` by `build.rs`), and the
//! implicit-scheme models of `tests/models`, is run
//! both ways with its defaults, every named run and a perturbed parameter set, and every
//! sample (time, state, observes, kind) and the end (reason, counts) must be identical.
//! Every model must lower and generate: grid fields (`heated_rod`, `poisson` and
//! `tests/models/grids.hph`) included.

use std::path::PathBuf;

use physis_ir::{TapeModel, lower_with_source};
use physis_runtime::{Collect, JacobianLayout, Model, OwnedSample, RunEnd, RunOptions};

#[allow(dead_code)]
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

#[allow(dead_code)]
mod test_models {
    include!(concat!(env!("OUT_DIR"), "/test_models.rs"));
}

type Entry = (
    &'static str,
    fn(
        &[f64],
        &RunOptions,
        &mut dyn physis_runtime::SampleSink,
    ) -> Option<Result<RunEnd, physis_runtime::RunError>>,
);

/// The `.hph` files of a folder relative to the crate, with the registry generated from it.
fn files(folder: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    files.sort();
    files
}

fn same_samples(what: &str, a: &[OwnedSample], b: &[OwnedSample]) {
    assert_eq!(a.len(), b.len(), "{what}: sample counts");
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
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
}

fn same_end(what: &str, a: &RunEnd, b: &RunEnd) {
    assert_eq!(a.reason, b.reason, "{what}: reason");
    assert_eq!(a.t.to_bits(), b.t.to_bits(), "{what}: final t");
    assert_eq!(a.stats, b.stats, "{what}: counts");
}

#[test]
fn generated_code_and_interpreter_give_the_same_samples() {
    let mut compared = 0;
    let folders: [(&str, &[Entry]); 2] = [
        ("../../examples", examples::MODELS),
        ("tests/models", test_models::MODELS),
    ];
    for (path, registry) in folders
        .iter()
        .flat_map(|(dir, reg)| files(dir).into_iter().map(move |p| (p, *reg)))
    {
        let source = std::fs::read_to_string(&path).unwrap();
        let checked = physis_check::check_source(&source);
        assert!(!checked.has_errors(), "{}", path.display());
        for m in &checked.program.models {
            let ir = lower_with_source(m, &source).unwrap_or_else(|e| panic!("{}: {e}", m.name));
            let file = path.display().to_string();
            if let Err(e) = physis_codegen::model_tokens(m, &ir, &source, &file) {
                panic!("{}: {e}", m.name);
            }
            let (_, generated) = registry
                .iter()
                .find(|(n, _)| *n == m.name)
                .unwrap_or_else(|| panic!("{} lowers but was not generated", m.name));
            let mut sets = vec![("defaults".to_string(), ir.default_params())];
            for r in &ir.runs {
                sets.push((format!("run {}", r.name), ir.run_params(&r.name).unwrap()));
            }
            let perturbed = ir.default_params().iter().map(|p| p * 1.125).collect();
            sets.push(("perturbed".to_string(), perturbed));
            for (label, params) in sets {
                for options in [
                    RunOptions::default(),
                    RunOptions {
                        tolerance: Some(1e-6),
                        seed: Some(7),
                        ..RunOptions::default()
                    },
                ] {
                    let what = format!("{} ({label}, {options:?})", m.name);
                    let mut tape = Collect::default();
                    let model = TapeModel::with_params(&ir, params.clone()).unwrap();
                    let tape_end = physis_runtime::run_into(model, &options, &mut tape).unwrap();
                    let mut out = Collect::default();
                    let gen_end = generated(&params, &options, &mut out)
                        .expect("parameter vector of the right length")
                        .unwrap();
                    assert!(!tape.0.is_empty(), "{what}: no samples");
                    same_samples(&what, &tape.0, &out.0);
                    same_end(&what, &tape_end, &gen_end);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 60, "only {compared} runs compared");
}

fn lowered(file: &str, name: &str) -> physis_ir::IrModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
    let source = std::fs::read_to_string(path).unwrap();
    let checked = physis_check::check_source(&source);
    let m = checked
        .program
        .models
        .iter()
        .find(|m| m.name == name)
        .unwrap();
    lower_with_source(m, &source).unwrap()
}

#[test]
fn grid_models_hand_newton_the_interpreters_jacobian_layout() {
    let poisson = lowered("../../examples/poisson.hph", "Poisson");
    let model = examples::Poisson::new();
    let tape = TapeModel::new(&poisson).unwrap();
    assert_eq!(model.jacobian_layout(), JacobianLayout::Sparse);
    assert_eq!(model.jacobian_layout(), tape.jacobian_layout());
    assert_eq!(model.residual_form(), tape.residual_form());
    let (mine, theirs) = (model.jacobian_pattern(), tape.jacobian_pattern());
    assert_eq!(mine.as_deref(), theirs.as_deref());
    // Five-point stencil on 41×41 nodes: every interior row has five entries.
    assert_eq!(mine.map(|p| p.row(20 * 41 + 20).len()), Some(5));
    let ring = lowered("tests/models/grids.hph", "Ring");
    assert_eq!(
        test_models::Ring::new().jacobian_pattern().as_deref(),
        TapeModel::new(&ring).unwrap().jacobian_pattern().as_deref()
    );
    // 51 nodes: dense, as the interpreter has it.
    let rod = examples::HeatedRod::new();
    let rod_ir = lowered("../../examples/heated_rod.hph", "HeatedRod");
    assert_eq!(
        rod.residual_form(),
        TapeModel::new(&rod_ir).unwrap().residual_form()
    );
    assert_eq!(rod.jacobian_layout(), JacobianLayout::Dense);
    assert!(rod.jacobian_pattern().is_none());
}

#[test]
fn grid_fields_keep_their_shape_in_the_typed_api() {
    let run = examples::Poisson::new().run().unwrap();
    assert_eq!(run.final_state.phi.len(), 41 * 41);
    let centre = run.final_state.phi[20 * 41 + 20];
    assert_eq!(run.centre.last().copied(), Some(centre));
    let total: f64 = run.final_state.phi.iter().sum();
    assert_eq!(run.total.last().copied(), Some(total));
    // The source pushes φ up inside; the edges stay at zero.
    assert!(centre > 0.0);
    assert_eq!(run.final_state.phi[0], 0.0);
}

#[test]
#[allow(clippy::print_stderr)] // the figure reported
fn generated_radau5_on_a_grid_meets_the_heat_closed_form() {
    // ANCHORS.md A4: u_i(t) = sin(π·x_i)·e^(−λt), λ = 4·D/Δx²·sin²(π·Δx/2), Δx = 1/101 m.
    let run = test_models::HeatRadauGrid::new().run().unwrap();
    let dx = 1.0 / 101.0;
    let lambda = 4.0 / (dx * dx) * (std::f64::consts::PI * dx / 2.0).sin().powi(2);
    let decay = (-lambda * run.final_t).exp();
    assert_eq!(run.final_t, 0.1, "lands on the stop");
    let mut worst = 0.0f64;
    for (got, node) in [(run.quarter.last(), 25.0), (run.mid.last(), 50.0)] {
        let want = (std::f64::consts::PI * node * dx).sin() * decay;
        worst = worst.max(((got.copied().unwrap() - want) / want).abs());
    }
    eprintln!(
        "generated radau5 heat (102 nodes) at 1e-8: error {worst:.2e} in {} steps",
        run.stats.steps
    );
    assert!(worst < 1e-9, "error {worst:e}");
}
