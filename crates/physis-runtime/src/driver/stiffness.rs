//! The stability check of a fixed explicit scheme that declares a stability radius: the
//! spectral radius of the rate's Jacobian times the step against the radius, before the
//! first step (iterated until it settles) and along the run (a few warm-started power
//! iterations every so many steps, more often as the product nears the radius or while the
//! iterate still turns, and iterated until settled before a flag ends the run), and once
//! more at the last finite state when a step turns non-finite, so a run that blows up
//! because it became stiff ends as `unstable` rather than `diverged`. Along the run only a
//! dominant mode that decays or oscillates counts: one the exact solution grows along is a
//! blow-up of the problem itself, which stays `diverged`. When a step turns non-finite from a
//! state the solution was already lost at (Robertson under rk4 at 10 ms is lost within its
//! first step, where the Jacobian is still mild), the stretch since the last passed check is
//! replayed at a step `REFINE` times finer (and inside the radius), checking before every
//! sub-step: the run is `unstable` when the resolved solution has a decaying or oscillating
//! mode the run's own step is past the radius on.

use super::{Simulation, Src, finite};
use crate::error::RunError;
use crate::model::{Model, StepArgs, StepOut};
use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::SampleSink;
use crate::stability::{Dominant, Power};

/// Steps between the start check and the first check along the run.
const FIRST: u64 = 8;
/// Fewest steps between checks (while the product is near the radius and moving).
const MIN_INTERVAL: u64 = 4;
/// Most steps between checks (far from the radius, or settled).
const MAX_INTERVAL: u64 = 256;
/// Power iterations of one check along the run (one Jacobian-vector product each, plus one).
const ITERS: usize = 4;
/// Below this fraction of the radius the product is far from it.
const FAR: f64 = 0.5;
/// Relative change between checks under which the estimate counts as settled.
const STEADY: f64 = 1e-3;
/// A refinement that moved the iterate's plane by more than this (`Power::turned`) has not
/// found the dominant mode yet: its estimate may sit far below the radius, so the next check
/// comes sooner instead of later.
const MOVING: f64 = 1e-2;
/// Along the run a dominant eigenvalue whose real part exceeds this fraction of its modulus
/// is a mode the exact solution grows along too (a blow-up such as `y' = y²`): that is
/// `diverged`, not the scheme's instability on a decaying or oscillating mode.
const GROWING: f64 = 0.01;
/// How much finer than the run's step the replay after a non-finite step goes.
const REFINE: f64 = 64.0;
/// Most sub-steps of a replay (past them the run stays `diverged`).
const REPLAY_STEPS: usize = 1 << 16;

/// When the next check is due, and the power iteration carried from check to check.
#[derive(Debug, Clone)]
pub(super) struct Watch {
    power: Power,
    radius: f64,
    interval: u64,
    /// Accepted steps at which the next check is due.
    next: u64,
    /// The last estimate.
    last: f64,
    /// Time and state of the last passed check, where a replay starts.
    snap_t: f64,
    snap_y: Vec<f64>,
}

impl Watch {
    /// A watch for states of `n` slots and a scheme of stability radius `radius`.
    pub(super) fn new(n: usize, radius: f64) -> Self {
        Self {
            power: Power::new(n),
            radius,
            interval: FIRST,
            next: FIRST,
            last: f64::NAN,
            snap_t: f64::NAN,
            snap_y: Vec::new(),
        }
    }

    /// A new run.
    pub(super) fn reset(&mut self) {
        self.power.reset();
        self.interval = FIRST;
        self.next = FIRST;
        self.last = f64::NAN;
        self.snap_t = f64::NAN;
        self.snap_y.clear();
    }

    /// Remembers the state of a passed check.
    fn snapshot(&mut self, t: f64, y: &[f64]) {
        self.snap_t = t;
        self.snap_y.clear();
        self.snap_y.extend_from_slice(y);
    }

    /// Whether a check is due before the step after `steps` accepted ones.
    pub(super) fn due(&self, steps: u64) -> bool {
        steps >= self.next
    }

    /// Accepted steps at which the next check is due.
    pub(super) fn next(&self) -> u64 {
        self.next
    }

    /// Plans the next check after one at `steps` that estimated `rho·h`.
    fn plan(&mut self, steps: u64, rho: f64, h: f64) {
        let steady = (rho - self.last).abs() <= STEADY * rho;
        let moving = self.power.turned() > MOVING;
        self.interval = if !moving && (rho * h < FAR * self.radius || steady) {
            (self.interval * 2).min(MAX_INTERVAL)
        } else {
            (self.interval / 2).max(MIN_INTERVAL)
        };
        self.last = rho;
        self.next = steps + self.interval;
    }
}

/// How hard an estimate of the spectral radius works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effort {
    /// Iterated from the start vector until it settles (before the first step).
    Settle,
    /// A few iterations from the last check's iterate (the cheap check along the run).
    Refine,
    /// Iterated from the last iterate until it settles (confirming a flag).
    Converge,
}

impl<M: Model> Simulation<M> {
    /// The spectral radius of `∂f/∂y` at the current state, with the given effort. Uses the model's Jacobian-vector product,
    /// else a forward difference `(f(t, y + εv) − f(t, y))/ε` with `ε = √eps·max(1, ‖y‖∞)`.
    /// `None` without a watch or when the products are not finite.
    fn spectral_radius_here(&mut self, effort: Effort) -> Option<Dominant> {
        let Self {
            model,
            y,
            f,
            ytmp,
            t,
            stats,
            watch,
            ..
        } = self;
        let watch = watch.as_mut()?;
        let t = *t;
        let eps = f64::EPSILON.sqrt() * y.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let mut exact = true;
        let apply = |v: &[f64], out: &mut [f64]| {
            if exact && model.rate_jvp(t, y, v, out) {
                return;
            }
            exact = false;
            for ((p, y0), vi) in ytmp.iter_mut().zip(y.iter()).zip(v) {
                *p = y0 + eps * vi;
            }
            model.rate(t, ytmp, out);
            stats.evaluations += 1;
            for (o, f0) in out.iter_mut().zip(f.iter()) {
                *o = (*o - f0) / eps;
            }
        };
        match effort {
            Effort::Settle => watch.power.settle(apply),
            Effort::Refine => watch.power.refine(ITERS, apply),
            Effort::Converge => watch.power.converge(apply),
        }
    }

    /// The `unstable` reason when `rho·h` is past the radius.
    fn past_radius(&self, rho: f64, h: f64) -> Option<Reason> {
        let radius = self.watch.as_ref()?.radius;
        (rho * h > radius).then(|| {
            self.integrate_reason(ReasonKind::Unstable, Cause::Stability { rho, h, radius })
        })
    }

    /// As [`Self::past_radius`], for a dominant eigenvalue that does not grow the exact
    /// solution (checks along the run).
    fn past_radius_decaying(&self, d: Dominant, h: f64) -> Option<Reason> {
        if d.re > GROWING * d.modulus {
            return None;
        }
        self.past_radius(d.modulus, h)
    }

    /// The check before the first step, iterated until the estimate settles.
    pub(super) fn stability_check(&mut self) -> Option<Reason> {
        let h = self.cfg.step?;
        let rho = self.spectral_radius_here(Effort::Settle)?.modulus;
        let (t, y) = (self.t, &self.y);
        if let Some(w) = self.watch.as_mut() {
            w.last = rho;
            w.snapshot(t, y);
        }
        self.past_radius(rho, h)
    }

    /// The check along the run, when one is due before the next step.
    pub(super) fn stability_along(&mut self) -> Option<Reason> {
        let steps = self.stats.steps;
        if !self.watch.as_ref().is_some_and(|w| w.due(steps)) {
            return None;
        }
        let h = self.cfg.step?;
        let Some(mut d) = self.spectral_radius_here(Effort::Refine) else {
            // Non-finite products: the step itself will tell.
            if let Some(w) = self.watch.as_mut() {
                w.next = steps + MIN_INTERVAL;
            }
            return None;
        };
        let mut flagged = self.past_radius_decaying(d, h);
        if flagged.is_some() {
            // A few warm iterations can overshoot while a mode takes over, and the radius
            // reported should be the settled one: confirm before ending the run.
            if let Some(c) = self.spectral_radius_here(Effort::Converge) {
                d = c;
                flagged = self.past_radius_decaying(d, h);
            }
        }
        let (t, y) = (self.t, &self.y);
        if let Some(w) = self.watch.as_mut() {
            w.plan(steps, d.modulus, h);
            if flagged.is_none() {
                w.snapshot(t, y);
            }
        }
        flagged
    }

    /// Replays from the last passed check up to `t_end` at sub-steps of at most `h/REFINE`
    /// and half the radius over the spectral radius, checking before each: the `unstable`
    /// reason when the run's step `h` is past the radius on a decaying or oscillating mode
    /// somewhere along it, `None` when it is not or the replay cannot tell (it turns
    /// non-finite too, or takes too many sub-steps). Leaves the run's state as it found it.
    fn replay(&mut self, t_end: f64) -> Option<Reason> {
        let h = self.cfg.step?;
        let w = self.watch.as_ref()?;
        let radius = w.radius;
        if !w.snap_t.is_finite() || w.snap_y.len() != self.y.len() {
            return None;
        }
        let (t_run, y_run, f_run) = (self.t, self.y.clone(), self.f.clone());
        self.y.copy_from_slice(&w.snap_y);
        self.t = w.snap_t;
        let mut next = vec![0.0; self.y.len()];
        let mut f1 = vec![0.0; self.y.len()];
        let dw = vec![0.0; self.info.noises];
        let mut found = None;
        let mut first = true;
        for _ in 0..REPLAY_STEPS {
            if self.t >= t_end {
                break;
            }
            self.model.rate(self.t, &self.y, &mut self.f);
            self.stats.evaluations += 1;
            let effort = if first {
                Effort::Settle
            } else {
                Effort::Refine
            };
            let Some(d) = self.spectral_radius_here(effort) else {
                break;
            };
            first = false;
            if let Some(r) = self.past_radius_decaying(d, h) {
                found = Some(r);
                break;
            }
            let mut hs = (h / REFINE).min(t_end - self.t);
            if d.modulus > 0.0 {
                hs = hs.min(0.5 * radius / d.modulus);
            }
            let sch = &self.info.scheme;
            let args = StepArgs {
                t: self.t,
                h: hs,
                y: &self.y,
                f0: &self.f,
                dw: &dw,
            };
            let out = StepOut {
                next: &mut next,
                err: None,
                f1: sch.fsal.then_some(&mut f1[..]),
                dense: None,
            };
            self.model.step(&args, out);
            self.stats.evaluations += u64::from(sch.stages);
            if !finite(&next) {
                break;
            }
            std::mem::swap(&mut self.y, &mut next);
            self.t += hs;
        }
        self.t = t_run;
        self.y.copy_from_slice(&y_run);
        self.f.copy_from_slice(&f_run);
        found
    }

    /// Ends the run at `t` after a step from the current state turned non-finite: as
    /// `unstable` when the step was past the scheme's stability radius there, else as
    /// `diverged`.
    pub(super) fn end_non_finite(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
    ) -> Result<(), RunError> {
        let unstable = match (self.cfg.step, self.spectral_radius_here(Effort::Settle)) {
            (Some(h), Some(d)) => self.past_radius_decaying(d, h),
            _ => None,
        };
        let unstable = match (unstable, self.cfg.step) {
            (None, Some(h)) => self.replay(self.t + h),
            (found, _) => found,
        };
        let reason = unstable.unwrap_or_else(|| Self::diverged(Cause::NonFinite));
        self.finish(sink, reason, t, Src::Current)
    }
}
