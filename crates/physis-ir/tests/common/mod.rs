//! Hand-built models with closed forms, shared by the integration tests, and a minimal
//! fixed-step loop that calls the [`Model`] trait directly (Newton for implicit schemes).

#![allow(dead_code)]

use physis_ir::{
    Builder, Dynamics, Function, IrModel, Layout, ModelSpec, ParamSpec, SchemeDef, Source,
    TapeModel, ValueId, assemble,
};
use physis_runtime::{
    AtomInfo, Clause, Cmp, Cond, DenseMatrix, Model, ModelInfo, ObserveInfo, SchemeInfo, Settings,
    StateInfo, StepArgs, StepOut,
};

/// Static description with one stop `t ≥ t_end` (atom 0) and no scheme yet.
pub fn info(
    name: &str,
    states: &[(&str, usize)],
    observes: &[&str],
    tolerance: f64,
    step: Option<f64>,
) -> ModelInfo {
    let mut offset = 0;
    let states = states
        .iter()
        .map(|(n, len)| {
            let s = StateInfo {
                name: n.to_string(),
                offset,
                shape: if *len == 1 { vec![] } else { vec![*len] },
                fixed_edge: false,
            };
            offset += len;
            s
        })
        .collect();
    ModelInfo {
        name: name.to_string(),
        dim: offset,
        states,
        observes: observes
            .iter()
            .map(|o| ObserveInfo::named(o.to_string()))
            .collect(),
        noises: 0,
        scheme: SchemeInfo {
            name: String::new(),
            order: 1,
            adaptive: false,
            implicit: false,
            stochastic: false,
            stability_radius: None,
            stages: 1,
            residual_evals: 0,
            fsal: false,
            dense: false,
            implicit_stages: Vec::new(),
            bdf: false,
        },
        settings: Settings {
            tolerance,
            step,
            ..Settings::default()
        },
        integrate: None,
        atoms: vec![AtomInfo {
            op: Cmp::Ge,
            time_only: false,
            affine: false,
        }],
        stops: vec![Clause {
            cond: Cond::Atom(0),
            text: "t ≥ end".into(),
            line: 1,
        }],
        events: vec![],
        conserves: vec![],
        conditions_read_rate: false,
        observes_read_rate: false,
    }
}

/// `margins(t) = [t − t_end]`.
pub fn stop_at(t_end: f64) -> Function {
    let mut b = Builder::new();
    let t = b.load(Source::T, 0);
    let e = b.constant(t_end);
    let m = b.sub(t, e).unwrap();
    b.finish("margins", &[m]).unwrap()
}

/// A function returning constants (initial states).
pub fn constants(name: &str, vs: &[f64]) -> Function {
    let mut b = Builder::new();
    let outs: Vec<ValueId> = vs.iter().map(|v| b.constant(*v)).collect();
    b.finish(name, &outs).unwrap()
}

/// Observes every state slot.
pub fn identity_observe(dim: u32) -> Function {
    let mut b = Builder::new();
    let outs: Vec<ValueId> = (0..dim).map(|k| b.load(Source::State, k)).collect();
    b.finish("observe", &outs).unwrap()
}

fn spec(
    info: ModelInfo,
    dynamics: Dynamics,
    y0: &[f64],
    t_end: f64,
    params: Vec<ParamSpec>,
) -> ModelSpec {
    let dim = y0.len() as u32;
    ModelSpec {
        info,
        params,
        runs: vec![],
        dynamics,
        initial: constants("initial", y0),
        margins: stop_at(t_end),
        observe: identity_observe(dim),
        resets: vec![],
    }
}

/// `y' = λ·y`, `y(0) = 1`: `y = e^{λt}`.
pub fn decay(lambda: f64, scheme: &SchemeDef, step: Option<f64>) -> IrModel {
    let mut b = Builder::new();
    let y = b.load(Source::State, 0);
    let l = b.constant(lambda);
    let r = b.mul(l, y).unwrap();
    let rate = b.finish("rate", &[r]).unwrap();
    let dynamics = Dynamics::first_order(Layout::scalars(1), rate).unwrap();
    let info = info("Decay", &[("y", 1)], &["y"], 1e-8, step);
    assemble(spec(info, dynamics, &[1.0], 1.0, vec![]), scheme).unwrap()
}

/// `x'' = −ω²x` with `x(0) = 1`, `x'(0) = 0`: `x = cos ωt`. Second-order layout `[x, v]`.
pub fn oscillator(omega: f64, scheme: &SchemeDef, step: Option<f64>) -> IrModel {
    let mut b = Builder::new();
    let x = b.load(Source::State, 0);
    let v = b.load(Source::State, 1);
    let k = b.constant(-omega * omega);
    let a = b.mul(k, x).unwrap();
    let rate = b.finish("rate", &[v, a]).unwrap();
    let dynamics = Dynamics::new(Layout::scalars(2), rate, vec![(0, 1)], 0).unwrap();
    let info = info(
        "Oscillator",
        &[("x", 1), ("x'", 1)],
        &["x", "v"],
        1e-8,
        step,
    );
    assemble(spec(info, dynamics, &[1.0, 0.0], 1.0, vec![]), scheme).unwrap()
}

/// Lotka–Volterra (ANCHORS A1) with `a, b, c, d` as parameters.
pub fn lotka_volterra(scheme: &SchemeDef, tolerance: f64) -> IrModel {
    let mut b = Builder::new();
    let x = b.load(Source::State, 0);
    let y = b.load(Source::State, 1);
    let [pa, pb, pc, pd] = [0, 1, 2, 3].map(|k| b.load(Source::Param, k));
    let xy = b.mul(x, y).unwrap();
    let ax = b.mul(pa, x).unwrap();
    let bxy = b.mul(pb, xy).unwrap();
    let dx = b.sub(ax, bxy).unwrap();
    let cy = b.mul(pc, y).unwrap();
    let dxy = b.mul(pd, xy).unwrap();
    let dy = b.sub(dxy, cy).unwrap();
    let rate = b.finish("rate", &[dx, dy]).unwrap();
    let dynamics = Dynamics::first_order(Layout::scalars(2), rate).unwrap();
    let info = info(
        "LotkaVolterra",
        &[("x", 1), ("y", 1)],
        &["x", "y"],
        tolerance,
        None,
    );
    let params = ["a", "b", "c", "d"]
        .iter()
        .zip([2.0 / 3.0, 4.0 / 3.0, 1.0, 1.0])
        .enumerate()
        .map(|(i, (n, v))| ParamSpec {
            name: n.to_string(),
            offset: i as u32,
            default: vec![v],
        })
        .collect();
    assemble(spec(info, dynamics, &[1.0, 1.0], 10.0, params), scheme).unwrap()
}

/// Stiff `y' = −k·(y − cos t) − sin t`, `y(0) = 1`: `y = cos t` whatever `k`.
pub fn stiff(k: f64, scheme: &SchemeDef, step: Option<f64>) -> IrModel {
    let mut b = Builder::new();
    let y = b.load(Source::State, 0);
    let t = b.load(Source::T, 0);
    let c = b.unary(physis_ir::UnOp::Cos, t).unwrap();
    let s = b.unary(physis_ir::UnOp::Sin, t).unwrap();
    let d = b.sub(y, c).unwrap();
    let mk = b.constant(-k);
    let kd = b.mul(mk, d).unwrap();
    let r = b.sub(kd, s).unwrap();
    let rate = b.finish("rate", &[r]).unwrap();
    let dynamics = Dynamics::first_order(Layout::scalars(1), rate).unwrap();
    let info = info("Stiff", &[("y", 1)], &["y"], 1e-8, step);
    assemble(spec(info, dynamics, &[1.0], 2.0, vec![]), scheme).unwrap()
}

/// Solves `A·x = b` by Gaussian elimination with partial pivoting (tests only, small n).
fn solve(a: &DenseMatrix, b: &mut [f64]) {
    let n = a.n();
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| a.get(i, j)).collect())
        .collect();
    for k in 0..n {
        let p = (k..n)
            .max_by(|i, j| m[*i][k].abs().total_cmp(&m[*j][k].abs()))
            .unwrap();
        m.swap(k, p);
        b.swap(k, p);
        let pivot = m[k].clone();
        for i in k + 1..n {
            let l = m[i][k] / pivot[k];
            for (x, p) in m[i].iter_mut().zip(&pivot).skip(k) {
                *x -= l * p;
            }
            b[i] -= l * b[k];
        }
    }
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| m[i][j] * b[j]).sum();
        b[i] = (b[i] - s) / m[i][i];
    }
}

/// Integrates from `t = 0` to `t_end` with `n` fixed steps through the model's own
/// `step` (or, for an implicit scheme, Newton on `residual` with its exact Jacobian).
pub fn fixed_steps(model: &mut TapeModel, t_end: f64, n: usize) -> Vec<f64> {
    let info = model.info();
    let dim = info.dim;
    let h = t_end / n as f64;
    let mut y = vec![0.0; dim];
    model.initial(0.0, &mut y);
    let (mut f0, mut next, mut r) = (vec![0.0; dim], vec![0.0; dim], vec![0.0; dim]);
    let mut jac = DenseMatrix::zeros(dim);
    for i in 0..n {
        let t = i as f64 * h;
        model.rate(t, &y, &mut f0);
        let args = StepArgs {
            t,
            h,
            y: &y,
            f0: &f0,
            dw: &[],
        };
        if info.scheme.implicit {
            next.copy_from_slice(&y);
            for _ in 0..50 {
                model.residual(&args, &next, &mut r);
                assert!(model.residual_jacobian(&args, &next, &mut jac));
                solve(&jac, &mut r);
                let mut size = 0.0f64;
                for (x, d) in next.iter_mut().zip(&r) {
                    *x -= d;
                    size = size.max(d.abs() / (1.0 + x.abs()));
                }
                if size < 1e-15 {
                    break;
                }
            }
        } else {
            model.step(
                &args,
                StepOut {
                    next: &mut next,
                    err: None,
                    f1: None,
                    dense: None,
                },
            );
        }
        y.copy_from_slice(&next);
    }
    y
}

/// Observed order: the slope of log(error) against log(h) over successive halvings.
pub fn orders(errors: &[f64]) -> Vec<f64> {
    errors.windows(2).map(|w| (w[0] / w[1]).log2()).collect()
}
