//! End to end through the driver: Lotka–Volterra (ANCHORS A1) under Dormand–Prince at
//! tolerance 1e-8 against the reference y(10) = (0.48914918, 0.48439503).

use crate::common;

use physis_ir::{TapeModel, prelude};
use physis_runtime::{ReasonKind, RunOptions};

#[test]
fn dormand_prince_reaches_the_reference() {
    let model = common::lotka_volterra(&prelude::builtin("rk45").unwrap(), 1e-8);
    let run = physis_runtime::run(TapeModel::new(&model).unwrap(), &RunOptions::default()).unwrap();
    assert_eq!(run.reason.kind, ReasonKind::When);
    assert!(
        (run.final_t() - 10.0).abs() < 1e-12,
        "t = {}",
        run.final_t()
    );
    let y = run.final_state();
    let reference = [0.48914918, 0.48439503];
    for k in 0..2 {
        assert!(
            (y[k] - reference[k]).abs() < 1e-7,
            "slot {k}: {} vs {}",
            y[k],
            reference[k]
        );
    }
    let stats = run.stats();
    assert!(stats.steps > 20 && stats.steps < 400, "{stats:?}");
}

#[test]
fn named_run_parameters_reach_the_tapes() {
    let mut model = common::lotka_volterra(&prelude::builtin("rk4").unwrap(), 1e-8);
    model.runs.push(physis_ir::NamedRun {
        name: "NoPredator".into(),
        overrides: vec![(1, vec![0.0])],
    });
    // With b = 0, x grows as e^{2t/3} whatever y does.
    let params = model.run_params("NoPredator").unwrap();
    let mut m = TapeModel::with_params(&model, params).unwrap();
    let y = common::fixed_steps(&mut m, 1.0, 100);
    assert!((y[0] - (2.0f64 / 3.0).exp()).abs() < 1e-9, "{}", y[0]);
    assert!(TapeModel::with_params(&model, vec![1.0]).is_err());
}
