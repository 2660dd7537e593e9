//! Radau IIA (`radau5`) on fields on grids, where its three coupled stages are one Newton
//! system of 3·N unknowns solved over the block pattern of the model's sparse Jacobian:
//! the semi-discrete heat equation A4 on 802 nodes (past the dense limit) against its closed
//! form, adaptive and at fixed steps (order 5); the 2-D Brusselator A12 on 20×20 nodes
//! against SciPy's Radau at rtol 1e-12 (`refs/brusselator_refs.py`, output committed in
//! `refs/brusselator.txt`); the sparse and the dense Newton on 8×8 nodes, which must agree;
//! and the refusal of a dense coupled Newton past 2,048 unknowns, at its edge.

use crate::references;

use std::sync::Arc;

use physis_ir::TapeModel;
use physis_oracle::front::{FrontError, Outcome, run_text};
use physis_runtime::{
    Collect, DenseMatrix, JacobianLayout, Model, ModelInfo, ReasonKind, RunEnd, RunOptions,
    SparsePattern, StepArgs, StepOut,
};
use references::fill;

const HEAT: &str = include_str!("grid_models/heat.hph");
const BRUSSELATOR: &str = include_str!("grid_models/brusselator.hph");
const COUPLED: &str = include_str!("grid_models/coupled.hph");
/// SciPy's values (`refs/brusselator_refs.py` and its output).
const BRUSSELATOR_REFS: &str = include_str!("../refs/brusselator.txt");

/// The largest relative error of the heat run's two observed nodes (25 % and 50 % along)
/// against the semi-discrete closed form at its end.
fn heat_error(out: &Outcome) -> f64 {
    let dx = 1.0 / 801.0;
    let lambda = 4.0 / (dx * dx) * (std::f64::consts::PI * dx / 2.0).sin().powi(2);
    let decay = (-lambda * out.end.t).exp();
    [(0usize, 200.0), (1, 401.0)]
        .iter()
        .map(|&(col, node)| {
            let want = (std::f64::consts::PI * node * dx).sin() * decay;
            ((out.end.observe[col] - want) / want).abs()
        })
        .fold(0.0, f64::max)
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn radau5_on_802_nodes_meets_the_heat_closed_form_at_every_tolerance() {
    for tol in [1e-4, 1e-6, 1e-8] {
        let text = fill(HEAT, &[("SETTINGS", &format!("tolerance {tol:e}"))]);
        let out = references::ends_on_stop(&text, &RunOptions::default());
        let err = heat_error(&out);
        let s = out.end.stats;
        eprintln!(
            "radau5 heat (802 nodes) tol {tol:e}: error {err:.2e} in {} steps ({} rejected), \
             {} jacobians, {} factorisations",
            s.steps, s.rejections, s.jacobians, s.factorisations
        );
        assert_eq!(out.end.t, 0.1, "lands on the stop");
        assert!(err < tol / 10.0, "tol {tol:e}: error {err:e}");
        // The Jacobian is kept across steps (the problem is linear): refactorised for a
        // new step size, not formed again.
        assert!(s.jacobians < s.steps, "{s:?}");
    }
}

#[test]
#[allow(clippy::print_stderr)] // the measured order is the figure reported
fn radau5_on_802_nodes_measures_order_five_at_fixed_steps() {
    // Linear: Newton is exact whatever its tolerance, so a loose one holds the steps. The
    // run ends at 1/8 s, so steps of 1/16, 1/32 and 1/64 s land on it exactly.
    let text = fill(
        HEAT,
        &[("SETTINGS", "tolerance 1e-2"), ("t ≥ 0.1 s", "t ≥ 0.125 s")],
    );
    let e: Vec<f64> = [2u64, 4, 8]
        .iter()
        .map(|&n| {
            let h = 0.125 / n as f64;
            let out = references::held_to(&text, h);
            assert_eq!(out.end.stats.steps, n, "not held to h = {h}");
            assert_eq!(out.end.stats.rejections, 0, "a step was rejected");
            heat_error(&out)
        })
        .collect();
    let measured = [(e[0] / e[1]).log2(), (e[1] / e[2]).log2()];
    eprintln!(
        "radau5 heat (802 nodes) at h = 1/16, 1/32, 1/64 s: errors {e:?}, orders {measured:.3?}"
    );
    assert!(
        measured.iter().all(|p| (p - 5.0).abs() < 0.3),
        "measured {measured:?}"
    );
}

/// SciPy's end state of the 20×20 Brusselator: t, then the five observes.
fn brusselator_reference() -> (f64, Vec<f64>) {
    let line = BRUSSELATOR_REFS
        .lines()
        .find(|l| l.starts_with("brusselator "))
        .expect("refs/brusselator.txt has a `brusselator` line");
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().expect("a number"))
        .collect();
    assert_eq!(v.len(), 6, "{line}");
    (v[0], v[1..].to_vec())
}

/// The Brusselator's text on an `n × n` grid under `scheme` at `tol` to `end` seconds (its
/// observed nodes kept inside the grid).
fn brusselator(n: usize, scheme: &str, tol: f64, end: f64) -> String {
    let inside = |i: usize| (i % n).to_string();
    fill(
        BRUSSELATOR,
        &[
            ("[10, 10]", &format!("[{}, {}]", inside(10), inside(10))),
            ("[3, 17]", &format!("[3, {}]", inside(17))),
            ("[17, 3]", &format!("[{}, 3]", inside(17))),
            ("SIZE", &n.to_string()),
            ("SCHEME", scheme),
            ("TOL", &format!("{tol:e}")),
            ("END", &format!("{end} s")),
        ],
    )
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn radau5_on_a_20x20_brusselator_meets_scipys_radau() {
    let (end, reference) = brusselator_reference();
    for tol in [1e-6, 1e-8] {
        let text = brusselator(20, "radau5", tol, end);
        let out = references::ends_on_stop(&text, &RunOptions::default());
        let err = out
            .end
            .observe
            .iter()
            .zip(&reference)
            .map(|(a, b)| ((a - b) / b).abs())
            .fold(0.0, f64::max);
        let s = out.end.stats;
        eprintln!(
            "radau5 brusselator 20×20 tol {tol:e}: worst relative error {err:.2e} in {} steps \
             ({} rejected), {} jacobians, {} factorisations",
            s.steps, s.rejections, s.jacobians, s.factorisations
        );
        assert!(
            err < tol,
            "tol {tol:e}: {:?} vs {reference:?}",
            out.end.observe
        );
    }
}

/// A model whose Newton is dense: the interpreter's, its sparse pattern withheld.
struct Dense(TapeModel);

impl Model for Dense {
    fn info(&self) -> Arc<ModelInfo> {
        self.0.info()
    }
    fn initial(&mut self, t0: f64, y: &mut [f64]) {
        self.0.initial(t0, y);
    }
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        self.0.rate(t, y, dydt);
    }
    fn step(&mut self, args: &StepArgs<'_>, out: StepOut<'_>) {
        self.0.step(args, out);
    }
    fn jacobian_layout(&self) -> JacobianLayout {
        JacobianLayout::Dense
    }
    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        None
    }
    fn stage_residual(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        r: &mut [f64],
    ) {
        self.0.stage_residual(stage, args, solved, k, r);
    }
    fn stage_jacobian(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        self.0.stage_jacobian(stage, args, solved, k, jac)
    }
    fn stage_finish(&mut self, args: &StepArgs<'_>, solved: &[f64], out: StepOut<'_>) {
        self.0.stage_finish(args, solved, out);
    }
    fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
        self.0.rate_jvp(t, y, v, out)
    }
    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.0.margins(t, y, dydt, out);
    }
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.0.observe(t, y, dydt, out);
    }
}

/// The interpreted model of `text`'s one simulation with its defaults.
fn tape(text: &str) -> TapeModel {
    let mut checked = physis_ir::front::check(text.to_string(), "grids.hph");
    assert!(!checked.has_errors(), "{}", checked.rendered());
    let ir = checked
        .take(0)
        .unwrap_or_else(|refused| panic!("{}", refused.rendered));
    TapeModel::new(&ir).expect("the defaults bind")
}

/// Every sample's state and the end of `model`'s run.
fn states<M: Model>(model: M) -> (Vec<Vec<f64>>, RunEnd) {
    let mut sink = Collect::default();
    let end = physis_runtime::run_into(model, &RunOptions::default(), &mut sink)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(end.reason.kind, ReasonKind::When, "{:?}", end.reason);
    (sink.0.into_iter().map(|s| s.state).collect(), end)
}

#[test]
#[allow(clippy::print_stderr)] // the figure reported
fn the_sparse_and_the_dense_coupled_newton_agree_on_8x8_nodes() {
    let text = brusselator(8, "radau5", 1e-6, 2.0);
    let model = tape(&text);
    assert_eq!(model.jacobian_layout(), JacobianLayout::Sparse);
    let (sparse, sparse_end) = states(model);
    let (dense, dense_end) = states(Dense(tape(&text)));
    assert_eq!(sparse_end.stats.steps, dense_end.stats.steps);
    assert_eq!(sparse_end.stats.rejections, dense_end.stats.rejections);
    assert_eq!(sparse.len(), dense.len());
    let worst = sparse
        .iter()
        .flatten()
        .zip(dense.iter().flatten())
        .map(|(a, b)| (a - b).abs() / a.abs().max(1.0))
        .fold(0.0, f64::max);
    eprintln!(
        "brusselator 8×8, radau5 at 1e-6: sparse and dense Newton differ by {worst:.2e} at most \
         over {} steps",
        sparse_end.stats.steps
    );
    assert!(worst < 1e-12, "sparse and dense differ by {worst:e}");
}

#[test]
fn a_dense_coupled_newton_is_refused_past_2048_unknowns_and_only_then() {
    let coupled = |n: usize| fill(COUPLED, &[("SIZE", &n.to_string())]);
    // 3 × 682 = 2,046 unknowns: prepared, and the run stops at its start.
    let out = run_text(&coupled(682), None, &RunOptions::default()).unwrap();
    assert_eq!(
        out.end.reason.kind,
        ReasonKind::When,
        "{:?}",
        out.end.reason
    );
    assert!(tape(&coupled(682)).jacobian_pattern().is_none(), "dense");
    // 3 × 683 = 2,049: refused before the run.
    match run_text(&coupled(683), None, &RunOptions::default()) {
        Err(FrontError::Run { message }) => {
            assert!(message.contains("2,048 unknowns"), "{message}");
        }
        other => panic!("not refused: {other:?}"),
    }
    // With a sparse pattern nothing is refused: 3 × 802 unknowns run in the tests above.
    let heat = fill(HEAT, &[("SETTINGS", "tolerance 1e-4")]);
    assert_eq!(
        tape(&heat).jacobian_layout(),
        JacobianLayout::Sparse,
        "the heat grid has a sparse pattern"
    );
}
