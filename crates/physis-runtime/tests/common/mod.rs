//! Test-only models: closures for the rate, margins, resets and observes, and explicit
//! Euler / RK4 / Dormand–Prince 5(4) / backward Euler / Euler–Maruyama steps written in
//! Rust. (The real schemes come compiled from the language prelude.)
#![allow(dead_code)]

use std::sync::Arc;

use physis_runtime::{
    AtomInfo, Clause, Cmp, Cond, ConserveInfo, Model, ModelInfo, ObserveInfo, SchemeInfo, Settings,
    SourceRef, StateInfo, StepArgs, StepOut,
};

type Rate = Box<dyn Fn(f64, &[f64], &mut [f64]) + Send>;
type Margins = Box<dyn Fn(f64, &[f64], &[f64], &mut [f64]) + Send>;
type Reset = Box<dyn Fn(usize, f64, &[f64], &mut [f64]) + Send>;

/// The test schemes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scheme {
    Euler,
    Rk4,
    Dp45,
    BackwardEuler,
    /// Euler–Maruyama with diffusion `g(t, y)·dW` given by the model's `diffusion`.
    EulerMaruyama,
}

pub fn scheme_info(s: Scheme) -> SchemeInfo {
    let base = |name: &str, order, stages| SchemeInfo {
        name: name.into(),
        order,
        adaptive: false,
        implicit: false,
        stochastic: false,
        stability_radius: None,
        stages,
        residual_evals: 0,
        fsal: false,
        dense: false,
        implicit_stages: Vec::new(),
        bdf: false,
    };
    match s {
        Scheme::Euler => SchemeInfo {
            stability_radius: Some(2.0),
            ..base("euler", 1, 0)
        },
        Scheme::Rk4 => SchemeInfo {
            stability_radius: Some(2.78),
            ..base("rk4", 4, 3)
        },
        Scheme::Dp45 => SchemeInfo {
            adaptive: true,
            fsal: true,
            dense: false,
            ..base("rk45", 5, 6)
        },
        Scheme::BackwardEuler => SchemeInfo {
            implicit: true,
            residual_evals: 1,
            ..base("backwardEuler", 1, 0)
        },
        Scheme::EulerMaruyama => SchemeInfo {
            stochastic: true,
            ..base("eulerMaruyama", 1, 0)
        },
    }
}

/// A model built from closures.
pub struct TestModel {
    pub info: Arc<ModelInfo>,
    pub y0: Vec<f64>,
    pub rate: Rate,
    pub diffusion: Rate,
    pub margins: Margins,
    pub reset: Reset,
    pub observe: Margins,
    scheme: Scheme,
    k: Vec<Vec<f64>>,
    tmp: Vec<f64>,
}

/// Builder for a [`TestModel`].
pub struct Builder {
    info: ModelInfo,
    y0: Vec<f64>,
    rate: Rate,
    diffusion: Rate,
    margins: Margins,
    reset: Reset,
    observe: Margins,
    scheme: Scheme,
}

pub fn model(
    name: &str,
    scheme: Scheme,
    y0: &[f64],
    rate: impl Fn(f64, &[f64], &mut [f64]) + Send + 'static,
) -> Builder {
    let n = y0.len();
    Builder {
        info: ModelInfo {
            name: name.into(),
            dim: n,
            states: (0..n)
                .map(|i| StateInfo {
                    name: format!("y{i}"),
                    offset: i,
                    shape: vec![],
                    fixed_edge: false,
                })
                .collect(),
            observes: vec![],
            noises: 0,
            scheme: scheme_info(scheme),
            settings: Settings::default(),
            integrate: Some(SourceRef {
                text: format!("{scheme:?}"),
                line: 2,
            }),
            atoms: vec![],
            stops: vec![],
            events: vec![],
            conserves: vec![],
            conditions_read_rate: false,
            observes_read_rate: false,
        },
        y0: y0.to_vec(),
        rate: Box::new(rate),
        diffusion: Box::new(|_, _, g| g.fill(0.0)),
        margins: Box::new(|_, _, _, m| m.fill(0.0)),
        reset: Box::new(|_, _, _, _| {}),
        observe: Box::new(|_, _, _, o| o.fill(0.0)),
        scheme,
    }
}

/// `Cond::All` of atoms.
pub fn all(atoms: &[usize]) -> Cond {
    Cond::All(atoms.iter().map(|&a| Cond::Atom(a)).collect())
}

impl Builder {
    pub fn states(mut self, states: &[(&str, Vec<usize>)]) -> Self {
        let mut off = 0;
        self.info.states = states
            .iter()
            .map(|(n, shape)| {
                let s = StateInfo {
                    name: (*n).into(),
                    offset: off,
                    shape: shape.clone(),
                    fixed_edge: false,
                };
                off += s.len();
                s
            })
            .collect();
        self
    }
    pub fn settings(mut self, f: impl FnOnce(&mut Settings)) -> Self {
        f(&mut self.info.settings);
        self
    }
    /// Atoms by operator; margins computed by `m`.
    pub fn atoms(
        mut self,
        ops: &[Cmp],
        m: impl Fn(f64, &[f64], &[f64], &mut [f64]) + Send + 'static,
    ) -> Self {
        self.info.atoms = ops
            .iter()
            .map(|&op| AtomInfo {
                op,
                time_only: false,
                affine: false,
            })
            .collect();
        self.margins = Box::new(m);
        self
    }
    /// Marks atoms as reading only `t`, affinely.
    pub fn time_only(mut self, flags: &[bool]) -> Self {
        for (a, &f) in self.info.atoms.iter_mut().zip(flags) {
            a.time_only = f;
        }
        self
    }
    pub fn stop(mut self, cond: Cond, text: &str, line: u32) -> Self {
        self.info.stops.push(Clause {
            cond,
            text: text.into(),
            line,
        });
        self
    }
    pub fn event(mut self, cond: Cond, text: &str, line: u32) -> Self {
        self.info.events.push(Clause {
            cond,
            text: text.into(),
            line,
        });
        self
    }
    pub fn reset(mut self, r: impl Fn(usize, f64, &[f64], &mut [f64]) + Send + 'static) -> Self {
        self.reset = Box::new(r);
        self
    }
    pub fn observes(
        mut self,
        names: &[&str],
        o: impl Fn(f64, &[f64], &[f64], &mut [f64]) + Send + 'static,
    ) -> Self {
        self.info.observes = names.iter().map(|n| ObserveInfo::named(*n)).collect();
        self.observe = Box::new(o);
        self
    }
    pub fn conserve(mut self, observe: usize, within: f64, text: &str, line: u32) -> Self {
        self.info.conserves.push(ConserveInfo {
            observe,
            within,
            text: text.into(),
            line,
        });
        self
    }
    pub fn noise(
        mut self,
        noises: usize,
        g: impl Fn(f64, &[f64], &mut [f64]) + Send + 'static,
    ) -> Self {
        self.info.noises = noises;
        self.diffusion = Box::new(g);
        self
    }
    pub fn build(self) -> TestModel {
        let n = self.info.dim;
        TestModel {
            info: Arc::new(self.info),
            y0: self.y0,
            rate: self.rate,
            diffusion: self.diffusion,
            margins: self.margins,
            reset: self.reset,
            observe: self.observe,
            scheme: self.scheme,
            k: vec![vec![0.0; n]; 7],
            tmp: vec![0.0; n],
        }
    }
}

// Dormand–Prince 5(4) tableau.
const A: [[f64; 6]; 6] = [
    [1.0 / 5.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
    [
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
        0.0,
        0.0,
    ],
    [
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
        0.0,
    ],
    [
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
    ],
];
const C: [f64; 6] = [1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0];
const E: [f64; 7] = [
    71.0 / 57600.0,
    0.0,
    -71.0 / 16695.0,
    71.0 / 1920.0,
    -17253.0 / 339200.0,
    22.0 / 525.0,
    -1.0 / 40.0,
];

impl Model for TestModel {
    fn info(&self) -> Arc<ModelInfo> {
        Arc::clone(&self.info)
    }
    fn initial(&mut self, _t0: f64, y: &mut [f64]) {
        y.copy_from_slice(&self.y0);
    }
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        (self.rate)(t, y, dydt);
    }
    fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
        let (t, h, y, f0) = (a.t, a.h, a.y, a.f0);
        let n = y.len();
        match self.scheme {
            Scheme::Euler => {
                for i in 0..n {
                    out.next[i] = y[i] + h * f0[i];
                }
            }
            Scheme::EulerMaruyama => {
                // One noise drives every slot through g (diagonal test noise).
                (self.diffusion)(t, y, &mut self.tmp);
                let dw = a.dw.first().copied().unwrap_or(0.0);
                for i in 0..n {
                    out.next[i] = y[i] + h * f0[i] + self.tmp[i] * dw;
                }
            }
            Scheme::Rk4 => {
                let k = &mut self.k;
                for i in 0..n {
                    self.tmp[i] = y[i] + 0.5 * h * f0[i];
                }
                (self.rate)(t + 0.5 * h, &self.tmp, &mut k[1]);
                for i in 0..n {
                    self.tmp[i] = y[i] + 0.5 * h * k[1][i];
                }
                (self.rate)(t + 0.5 * h, &self.tmp, &mut k[2]);
                for i in 0..n {
                    self.tmp[i] = y[i] + h * k[2][i];
                }
                (self.rate)(t + h, &self.tmp, &mut k[3]);
                for i in 0..n {
                    out.next[i] =
                        y[i] + h / 6.0 * (f0[i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
                }
            }
            Scheme::Dp45 => {
                let k = &mut self.k;
                k[0].copy_from_slice(f0);
                for s in 0..6 {
                    for i in 0..n {
                        let mut acc = 0.0;
                        for (j, kj) in k.iter().enumerate().take(s + 1) {
                            acc += A[s][j] * kj[i];
                        }
                        self.tmp[i] = y[i] + h * acc;
                    }
                    (self.rate)(t + C[s] * h, &self.tmp, &mut k[s + 1]);
                }
                // Stage 7 was evaluated at next = tmp (the 5th-order solution): FSAL.
                out.next.copy_from_slice(&self.tmp);
                if let Some(f1) = out.f1 {
                    f1.copy_from_slice(&k[6]);
                }
                if let Some(err) = out.err {
                    for i in 0..n {
                        err[i] = h * (0..7).map(|j| E[j] * k[j][i]).sum::<f64>();
                    }
                }
            }
            Scheme::BackwardEuler => {}
        }
    }
    fn residual(&mut self, a: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        (self.rate)(a.t + a.h, next, r);
        for i in 0..next.len() {
            r[i] = next[i] - a.y[i] - a.h * r[i];
        }
    }
    fn margins(&mut self, t: f64, y: &[f64], d: &[f64], out: &mut [f64]) {
        (self.margins)(t, y, d, out);
    }
    fn reset(&mut self, event: usize, t: f64, pre: &[f64], _pre_rate: &[f64], post: &mut [f64]) {
        (self.reset)(event, t, pre, post);
    }
    fn observe(&mut self, t: f64, y: &[f64], d: &[f64], out: &mut [f64]) {
        (self.observe)(t, y, d, out);
    }
}
