//! `Simulation::renew` gives the run `Simulation::new` gives, whatever the run it renews
//! went through: every bundled example is run once with other parameters and settings
//! (another noise stream, a step limit, another record interval), renewed, and run again;
//! its samples and end must equal a fresh run's bit for bit.

use physis_ir::{IrModel, TapeModel, lower_with_source};
use physis_runtime::{Collect, RunOptions, Simulation};

fn models() -> Vec<(String, IrModel)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("examples folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    paths.sort();
    for path in paths {
        let src = std::fs::read_to_string(&path).expect("readable");
        let checked = physis_check::check_source(&src);
        assert!(!checked.has_errors(), "{}", path.display());
        for m in &checked.program.models {
            let ir = lower_with_source(m, &src).expect("lowers");
            out.push((ir.info.name.clone(), ir));
        }
    }
    out
}

/// Runs `sim` to its end; the samples and the end, printed exactly (every float's bits).
fn run_out(sim: &mut Simulation<TapeModel>) -> String {
    let mut sink = Collect::default();
    while !sim.advance(&mut sink).expect("runs") {}
    format!("{:?} {:?}", sink, sim.end())
}

#[test]
fn a_renewed_run_is_a_fresh_run() {
    let models = models();
    assert!(models.len() >= 10, "{}", models.len());
    for (name, ir) in &models {
        let params = ir.default_params();
        // Other parameters where scaling keeps them sensible; other settings throughout.
        let other: Vec<f64> = params.iter().map(|p| p * 1.25).collect();
        let first = TapeModel::with_params(ir, other).expect("binds");
        let skewed = RunOptions {
            stream: Some(3),
            limit: Some(40),
            record_every: Some(0.003),
            ..RunOptions::default()
        };
        let mut sim = Simulation::new(first, &skewed).expect("starts");
        let _ = run_out(&mut sim);
        let options = RunOptions {
            stream: Some(1),
            limit: Some(2_000),
            ..RunOptions::default()
        };
        let fresh_model = TapeModel::with_params(ir, params.clone()).expect("binds");
        let mut fresh = Simulation::new(fresh_model, &options).expect("starts");
        let want = run_out(&mut fresh);
        let again = TapeModel::with_params(ir, params.clone()).expect("binds");
        sim.renew(again, &options).expect("renews");
        assert_eq!(run_out(&mut sim), want, "{name}");
    }
}

#[test]
fn a_restarted_run_is_a_fresh_run() {
    // `restart` keeps the model; `run_in_place` keeps the buffers: a run repeated that way
    // gives a fresh run's samples and end, bit for bit, every time.
    for (name, ir) in &models() {
        let options = RunOptions {
            stream: Some(2),
            limit: Some(2_000),
            ..RunOptions::default()
        };
        let model = TapeModel::with_params(ir, ir.default_params()).expect("binds");
        let mut fresh = Simulation::new(model.clone(), &options).expect("starts");
        let want = run_out(&mut fresh);
        let mut sim = Simulation::new(model, &options).expect("starts");
        for round in 0..3 {
            let mut sink = Collect::default();
            let end = sim.run_in_place(&mut sink).expect("runs");
            assert_eq!(Some(&end), sim.end(), "{name}");
            assert_eq!(
                format!("{:?} {:?}", sink, Some(&end)),
                want,
                "{name}, round {round}"
            );
            sim.restart(&options).expect("restarts");
        }
    }
}

#[test]
fn a_refused_renewal_leaves_the_run_as_it_was() {
    // A bad option (a negative step) is refused before the new model is swapped in: the run
    // restarted afterwards is still the first model's, bit for bit.
    for (name, ir) in &models() {
        let options = RunOptions {
            stream: Some(2),
            limit: Some(500),
            ..RunOptions::default()
        };
        let params = ir.default_params();
        let model = TapeModel::with_params(ir, params.clone()).expect("binds");
        let mut fresh = Simulation::new(model.clone(), &options).expect("starts");
        let want = run_out(&mut fresh);
        let mut sim = Simulation::new(model, &options).expect("starts");
        let other: Vec<f64> = params.iter().map(|p| p * 1.25).collect();
        let other = TapeModel::with_params(ir, other).expect("binds");
        let bad = RunOptions {
            step: Some(-1.0),
            ..options.clone()
        };
        assert!(
            sim.renew(other, &bad).is_err(),
            "{name}: a negative step is refused"
        );
        sim.restart(&options).expect("restarts");
        assert_eq!(run_out(&mut sim), want, "{name}");
    }
}
