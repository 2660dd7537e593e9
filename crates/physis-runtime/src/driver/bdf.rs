//! One accepted step of the built-in variable-order BDF (`crate::bdf`): step and order
//! chosen from the difference table, the implicit solve handed to the model's residual
//! (the prelude's text of `bdf`, backward Euler, at base `predictor − ψ` and step
//! `c = h/αₖ`, so its Jacobian `I − c·J` is the model's own, dense or sparse), the error
//! `Cₖ·(y − predictor)`, then the order for the next step (Shampine & Reichelt 1997,
//! as SciPy's `BDF`). The history starts again at order 1 whenever the run is not where
//! the table left it (an event moved it, or reset the state).

use super::{Simulation, Src, finite};
use crate::bdf::{History, MAX_ORDER, error_constant};
use crate::control::{MAX_GROWTH, MAX_REJECTIONS, MIN_GROWTH, SAFETY, error_norm};
use crate::error::RunError;
use crate::model::{Model, StepArgs};
use crate::newton::{Cost, Reuse, Scale, Whole};
use crate::reason::Cause;
use crate::sample::SampleSink;

/// Buffers of the BDF beside its history.
#[derive(Debug)]
pub(super) struct Bdf {
    pub hist: History,
    pred: Vec<f64>,
    base: Vec<f64>,
    diff: Vec<f64>,
    mid: Vec<f64>,
}

impl Bdf {
    pub fn new(n: usize) -> Self {
        Self {
            hist: History::new(n),
            pred: vec![0.0; n],
            base: vec![0.0; n],
            diff: vec![0.0; n],
            mid: vec![0.0; n],
        }
    }
}

/// `(1/e)^(1/p)` for an error norm `e`, infinite for `e = 0`.
fn gain(e: f64, p: usize) -> f64 {
    if e == 0.0 {
        f64::INFINITY
    } else {
        e.powf(-1.0 / p as f64)
    }
}

impl<M: Model> Simulation<M> {
    /// Takes one accepted BDF step from `t` (the limit and stability checks done).
    pub(super) fn take_bdf_step(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
    ) -> Result<(), RunError> {
        let Some(mut bdf) = self.bdf.take() else {
            return Ok(());
        };
        let out = self.bdf_step(sink, t, &mut bdf);
        self.bdf = Some(bdf);
        out
    }

    fn bdf_step(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
        bdf: &mut Bdf,
    ) -> Result<(), RunError> {
        if !bdf.hist.at(t, &self.y) {
            bdf.hist
                .restart(t, &self.y, &self.f, self.h.min(self.cfg.max_step));
        }
        if bdf.hist.h > self.cfg.max_step {
            bdf.hist.rescale(self.cfg.max_step / bdf.hist.h);
        }
        // A stop reading only `t` that would hold at the step's end: end on it exactly.
        let landing = self.landing(t, t + bdf.hist.h);
        if let Some(tl) = landing {
            bdf.hist.rescale((tl - t) / bdf.hist.h);
            // Exactly, so that the step ends on the stop (`ρ·h` may miss it by an ulp).
            bdf.hist.h = tl - t;
        }
        self.tolerances.observe(&self.y);
        let mut rejected = 0u32;
        let (h, tb, e) = loop {
            let h = bdf.hist.h;
            if h < Self::min_step(t) || rejected > MAX_REJECTIONS {
                return self.finish(sink, Self::diverged(Cause::NewtonFailed), t, Src::Current);
            }
            let tb = match landing {
                Some(tl) if tl - t == h => tl,
                _ => t + h,
            };
            let solved = self.bdf_solve(bdf, tb);
            if let Some(newton) = &self.newton {
                self.stats.jacobians = newton.jacobians;
                self.stats.factorisations = newton.factorisations;
            }
            let e = if solved {
                let k = bdf.hist.order;
                let c = error_constant(k);
                for ((e, y), p) in self.err.iter_mut().zip(&self.ynew).zip(&bdf.pred) {
                    *e = c * (y - p);
                }
                let tol = &self.tolerances;
                error_norm(
                    &self.err,
                    &self.y,
                    &self.ynew,
                    tol.rtol(),
                    tol.atol(),
                    &self.free,
                )
            } else {
                f64::INFINITY
            };
            if e <= 1.0 {
                break (h, tb, e);
            }
            self.stats.rejections += 1;
            self.stats.newton_rejections += u64::from(!solved);
            rejected += 1;
            let factor = if solved {
                (SAFETY * gain(e, bdf.hist.order + 1)).max(MIN_GROWTH)
            } else {
                0.5
            };
            bdf.hist.rescale(factor);
        };
        if !finite(&self.ynew) {
            return self.end_non_finite(sink, t);
        }
        self.model.rate(tb, &self.ynew, &mut self.fnew);
        self.stats.evaluations += 1;
        if !finite(&self.fnew) {
            return self.end_non_finite(sink, t);
        }
        for ((d, y), p) in bdf.diff.iter_mut().zip(&self.ynew).zip(&bdf.pred) {
            *d = y - p;
        }
        bdf.hist.accept(tb, &self.ynew, &bdf.diff);
        self.bdf_dense(bdf, t, tb);
        self.bdf_next(bdf, e);
        self.h = bdf.hist.h;
        self.stats.steps += 1;
        self.after_step(sink, t, tb, h)
    }

    /// Solves the step to `tb` into `ynew` by Newton on the model's residual. False when
    /// Newton does not converge.
    fn bdf_solve(&mut self, bdf: &mut Bdf, tb: f64) -> bool {
        let c = bdf.hist.predict(&mut bdf.pred, &mut bdf.base);
        let Self {
            model,
            info,
            f,
            y,
            ynew,
            newton,
            stats,
            tolerances,
            ..
        } = self;
        let Some(newton) = newton.as_mut() else {
            return false;
        };
        ynew.copy_from_slice(&bdf.pred);
        // The residual `next − base − c·f(t' + c, next)` at `t' = tb − c`.
        let args = StepArgs {
            t: tb - c,
            h: c,
            y: &bdf.base,
            f0: f,
            dw: &[],
        };
        let scale = Scale::Weighted {
            y,
            atol: tolerances.atol(),
            rate: None,
        };
        let cost = Cost {
            per_residual: u64::from(info.scheme.residual_evals),
            evals: &mut stats.evaluations,
        };
        let mut sys = Whole { model, args: &args };
        let tol = tolerances.rtol();
        newton.solve_system(&mut sys, c, ynew, (tol, scale), Reuse::Jacobian, cost)
    }

    /// The step's dense output: the continuous extension `q` that makes the driver's
    /// interpolant (cubic Hermite of the ends plus `θ²(1−θ)²·q`) pass through the BDF
    /// polynomial at mid-step, so it matches the values and rates at both ends and the
    /// method's own interpolant in the middle.
    fn bdf_dense(&mut self, bdf: &mut Bdf, t: f64, tb: f64) {
        let h = tb - t;
        bdf.hist.interpolate(t + 0.5 * h, &mut bdf.mid);
        for (i, q) in self.q.iter_mut().enumerate() {
            let hermite = 0.5 * (self.y[i] + self.ynew[i]) + 0.125 * h * (self.f[i] - self.fnew[i]);
            *q = 16.0 * (bdf.mid[i] - hermite);
        }
    }

    /// Chooses the order and step of the next step after an accepted one of error norm `e`.
    fn bdf_next(&mut self, bdf: &mut Bdf, e: f64) {
        let hist = &mut bdf.hist;
        let k = hist.order;
        if hist.equal_steps < k + 1 {
            return;
        }
        let tol = &self.tolerances;
        let norm_of = |row: usize, order: usize, buf: &mut [f64]| {
            let c = error_constant(order);
            for (b, d) in buf.iter_mut().zip(hist.row(row)) {
                *b = c * d;
            }
            error_norm(
                buf,
                &self.ynew,
                &self.ynew,
                tol.rtol(),
                tol.atol(),
                &self.free,
            )
        };
        let down = if k > 1 {
            gain(norm_of(k, k - 1, &mut self.err), k)
        } else {
            0.0
        };
        let up = if k < MAX_ORDER {
            gain(norm_of(k + 2, k + 1, &mut self.err), k + 2)
        } else {
            0.0
        };
        let same = gain(e, k + 1);
        // The first largest gain wins, lower orders first.
        let (order, best) = if down >= same && down >= up {
            (k - 1, down)
        } else if same >= up {
            (k, same)
        } else {
            (k + 1, up)
        };
        hist.order = order;
        hist.rescale((SAFETY * best).min(MAX_GROWTH));
        hist.equal_steps = 0;
    }
}
