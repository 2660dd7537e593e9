//! Lane tapes compiled to `f64x2` code against the lane interpreter, bit for bit, and
//! against a closed form; and when a lane program compiles.
//!
//! Every model of the examples, the differential corpus and the ensemble anchors that runs in
//! lanes is run as a swept ensemble twice, on interpreted lanes and on lanes compiled at once,
//! and the two results must print identically (Debug prints every float exactly). Each lane
//! function is also called directly on 64 different lanes, with non-finite inputs among them,
//! and its outputs compared bit for bit. Exponential decay in lanes, each lane with its own
//! rate, must land on `exp(−k·t)` within the scheme's error.

use physis_ir::{IrModel, LANE_WIDTH, LaneProgram, TapeModel};
use physis_jit::{Jit, When};
use physis_runtime::{
    Ensemble, EnsembleResult, LaneKernel, ParamSet, RunOptions, StepArgs, Sweep, linspace,
};

use super::jit::{hph_files, models_of};

/// Every model the lanes can run, with where it came from.
fn lane_models() -> Vec<(String, IrModel)> {
    let mut out = Vec::new();
    for path in hph_files("../../examples")
        .into_iter()
        .chain(hph_files("../../examples/rust-api/tests/models"))
        .chain(hph_files("../../bench/anchors/ensemble"))
    {
        let source = std::fs::read_to_string(&path).unwrap();
        for ir in models_of(&source) {
            if LaneProgram::new(&ir).unwrap().is_some() {
                out.push((format!("{} in {}", ir.info.name, path.display()), ir));
            }
        }
    }
    out
}

fn params_of(model: &IrModel, set: &ParamSet) -> Vec<f64> {
    let mut p = model.default_params();
    for (name, v) in set.iter() {
        let spec = model.params.iter().find(|s| s.name == name).unwrap();
        p[spec.offset as usize] = v;
    }
    p
}

/// The ensemble of `count` members (swept over `sweep`) in lanes, the lane program compiled
/// `when`; with the JIT's lane report.
fn ensemble(
    model: &IrModel,
    sweep: &Sweep,
    count: usize,
    when: When,
) -> (EnsembleResult, Option<physis_jit::JitReport>, bool) {
    let factory = |set: &ParamSet| {
        TapeModel::with_params(model, params_of(model, set)).map_err(|e| e.to_string())
    };
    let program = LaneProgram::new(model).unwrap().unwrap();
    let jit = Jit::new();
    physis_jit::tier_lanes(&program, &jit, when);
    let lanes = |sets: &[ParamSet]| -> Option<Box<dyn LaneKernel>> {
        let ps: Vec<Vec<f64>> = sets.iter().map(|s| params_of(model, s)).collect();
        Some(Box::new(program.kernel(&ps)?) as Box<dyn LaneKernel>)
    };
    let options = RunOptions {
        seed: Some(11),
        ..RunOptions::default()
    };
    let r = Ensemble::new(factory, count)
        .options(options)
        .sweep(sweep.clone())
        .threads(2)
        .lanes(lanes, LANE_WIDTH)
        .run()
        .unwrap();
    (r, jit.lane_report(), program.is_native())
}

/// A sweep of the first parameter with a nonzero default over ±10%, or none.
fn sweep_of(model: &IrModel, count: usize) -> Sweep {
    match model
        .params
        .iter()
        .find(|p| p.default.len() == 1 && p.default[0] != 0.0)
    {
        Some(p) => {
            let v = p.default[0];
            Sweep::new()
                .axis(&p.name, linspace(0.9 * v, 1.1 * v, count))
                .unwrap()
        }
        None => Sweep::new(),
    }
}

#[test]
fn every_lane_model_runs_the_same_bits_compiled() {
    let models = lane_models();
    assert!(models.len() >= 5, "only {} lane models", models.len());
    for (name, ir) in &models {
        // 70 members: a full batch and a partial one.
        let sweep = sweep_of(ir, 70);
        let count = if sweep.is_empty() { 70 } else { 1 };
        let (plain, none, native) = ensemble(ir, &sweep, count, When::Never);
        assert!(none.is_none() && !native, "{name}: --no-jit compiled");
        let (jit, report, native) = ensemble(ir, &sweep, count, When::AtOnce);
        let report = report.expect("compiled at once");
        assert!(report.failure.is_none(), "{name}: {report}");
        assert!(native, "{name}");
        assert!(report.compiled.contains(&"step"), "{name}: {report}");
        assert_eq!(format!("{jit:?}"), format!("{plain:?}"), "{name}");
    }
}

/// Deterministic values of every kind a lane may hold, non-finite ones included.
fn value(i: usize) -> f64 {
    let x = (i as f64 * 0.618_033_988_749_895).fract();
    match i % 37 {
        5 => f64::NAN,
        11 => f64::INFINITY,
        17 => f64::NEG_INFINITY,
        23 => 0.0,
        29 => -0.0,
        _ => (x - 0.3) * 10f64.powi((i % 7) as i32 - 3),
    }
}

#[test]
fn every_lane_function_computes_the_same_bits_compiled() {
    for (name, ir) in lane_models() {
        let dim = ir.info.dim;
        let defaults = ir.default_params();
        let params: Vec<Vec<f64>> = (0..LANE_WIDTH)
            .map(|l| {
                defaults
                    .iter()
                    .map(|p| p * (1.0 + 0.01 * l as f64))
                    .collect()
            })
            .collect();
        let interpreted = LaneProgram::new(&ir).unwrap().unwrap();
        let compiled = LaneProgram::new(&ir).unwrap().unwrap();
        physis_jit::tier_lanes(&compiled, &Jit::new(), When::AtOnce);
        assert!(compiled.is_native(), "{name}");
        let mut a = interpreted.kernel(&params).unwrap();
        let mut b = compiled.kernel(&params).unwrap();
        let w = LANE_WIDTH;
        let y: Vec<f64> = (0..dim * w).map(|i| value(i + 3)).collect();
        let f0: Vec<f64> = (0..dim * w).map(|i| value(i + 101)).collect();
        let dw: Vec<f64> = (0..ir.info.noises * w).map(|i| value(i + 57)).collect();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        for t in [0.0, 0.37, 2.5] {
            let args = StepArgs {
                t,
                h: 0.01,
                y: &y,
                f0: &f0,
                dw: &dw,
            };
            let (mut na, mut fa) = (vec![0.0; dim * w], vec![0.0; dim * w]);
            let (mut nb, mut fb) = (vec![0.0; dim * w], vec![0.0; dim * w]);
            a.step(&args, &mut na, &mut fa);
            b.step(&args, &mut nb, &mut fb);
            assert_eq!(bits(&na), bits(&nb), "{name}: step at {t}");
            assert_eq!(bits(&fa), bits(&fb), "{name}: step's end rate at {t}");
            a.rate(t, &y, &mut na);
            b.rate(t, &y, &mut nb);
            assert_eq!(bits(&na), bits(&nb), "{name}: rate at {t}");
            let m = ir.info.atoms.len() * w;
            let (mut ma, mut mb) = (vec![0.0; m], vec![0.0; m]);
            a.margins(t, &mut ma);
            b.margins(t, &mut mb);
            assert_eq!(bits(&ma), bits(&mb), "{name}: margins at {t}");
            let ts: Vec<f64> = (0..5).map(|k| t + 0.1 * k as f64).collect();
            assert_eq!(
                a.margins_ahead(&ts, &mut ma),
                b.margins_ahead(&ts, &mut mb),
                "{name}"
            );
            assert_eq!(bits(&ma), bits(&mb), "{name}: margins ahead of {t}");
            let o = ir.info.observes.len() * w;
            let (mut oa, mut ob) = (vec![0.0; o], vec![0.0; o]);
            a.observe(t, &y, &f0, &mut oa);
            b.observe(t, &y, &f0, &mut ob);
            assert_eq!(bits(&oa), bits(&ob), "{name}: observes at {t}");
        }
    }
}

const DECAY: &str = "simulate Decay {
  param k : Frequency = 1 Hz
  state x : Dimensionless = 1
  law x' = −k·x
  integrate rk4 step 1 ms
  observe level ≔ x
  stop when t ≥ 2 s
}
";

#[test]
fn decay_lanes_compiled_meet_the_closed_form() {
    let ir = models_of(DECAY).remove(0);
    let ks = linspace(0.1, 3.0, 70);
    let sweep = Sweep::new().axis("k", ks.clone()).unwrap();
    let (r, report, native) = ensemble(&ir, &sweep, 1, When::AtOnce);
    assert!(native && report.is_some());
    assert_eq!(r.members.len(), ks.len());
    for (m, k) in r.members.iter().zip(&ks) {
        let (t, x) = (m.end.t, m.end.state[0]);
        let exact = (-k * t).exp();
        // RK4 at h = 1 ms: global error ~ (k·h)⁴·k·t/120, far below 1e-11 here.
        assert!((t - 2.0).abs() < 1e-9, "k = {k}: t = {t}");
        assert!(
            (x - exact).abs() <= 1e-11 * exact,
            "k = {k}: {x} vs {exact}"
        );
    }
}

#[test]
fn a_lane_program_compiles_once_its_rows_repay_it() {
    let ir = models_of(DECAY).remove(0);
    let sweep = Sweep::new().axis("k", linspace(0.1, 3.0, 70)).unwrap();
    // Two batches × 2,000 steps × (step and margins) rows: past the budget, so it compiles.
    let (_, report, native) = ensemble(&ir, &sweep, 1, When::Tiered);
    assert!(native, "a 2 s run of 70 members compiles");
    assert!(report.unwrap().compiled.contains(&"step"));
    // A few steps never repay it.
    let short = DECAY.replace("stop when t ≥ 2 s", "stop when t ≥ 3 ms");
    let ir = models_of(&short).remove(0);
    let (_, report, native) = ensemble(&ir, &sweep, 1, When::Tiered);
    assert!(
        !native && report.is_none(),
        "a 3-step run stays interpreted"
    );
}
