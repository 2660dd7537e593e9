//! Lanes: one model evaluated for a batch of ensemble members at once.
//!
//! An ensemble of a fixed-step explicit scheme spends nearly all its time in steps where
//! nothing happens: no stop is near, no event exists, no sample falls inside the step. A
//! [`LaneKernel`] lets the ensemble take those steps for a whole batch of members together
//! (the members' values side by side, one array per state slot), so an interpreter pays
//! its dispatch once per batch instead of once per member. Every other step, and each
//! member's start and end, still go through its own [`crate::Simulation`], so a member's
//! samples and end are the same, bit for bit, as when it runs alone; the kernel must
//! therefore compute exactly what the members' [`Model`](crate::Model) methods compute.
//!
//! Layout: for `L` lanes, slot `j` of lane `l` is element `j·L + l` of every buffer.

use crate::model::StepArgs;
use crate::sweep::ParamSet;

/// A model's step, rate, margins and observes over `L` members at once (see the
/// [module documentation](self) for the layout). Lanes past the batch's members hold
/// arbitrary values; a kernel computes them like the others and nobody reads them.
pub trait LaneKernel: Send {
    /// The batch width `L`.
    fn lanes(&self) -> usize;

    /// The explicit fixed step of every lane into `next`, and for a scheme that declares
    /// `fsal` the rate at `(t + h, next)` into `f1` (else `f1` is left alone). The
    /// arguments' `y`, `f0` and `dw` are slot-major (noise `k` of lane `l` at `k·L + l`).
    fn step(&mut self, args: &StepArgs<'_>, next: &mut [f64], f1: &mut [f64]);

    /// The rate at `(t, y)` into `out`.
    fn rate(&mut self, t: f64, y: &[f64], out: &mut [f64]);

    /// The atoms' margins at `t` into `out` (atom `a` of lane `l` at `a·L + l`). Only asked
    /// of models whose atoms all read nothing but `t` and parameters.
    fn margins(&mut self, t: f64, out: &mut [f64]);

    /// When every lane's margins are the same function of `t` (its atoms read no
    /// parameter that differs between lanes), the margins at each time of `ts` (at most
    /// `L` of them) into `out`, atom `a` at time `j` at `a·L + j`, and `true`. Lockstep
    /// then checks a whole stretch of steps ahead with one call. The default (`false`,
    /// `out` untouched) has the margins asked step by step.
    fn margins_ahead(&mut self, ts: &[f64], out: &mut [f64]) -> bool {
        let _ = (ts, out);
        false
    }

    /// The observes at `(t, y)` with rate `dydt` into `out`.
    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]);
}

/// Builds the [`LaneKernel`] of a batch of members from their parameter sets, when the
/// model can run in lanes (an [`crate::Ensemble`] then batches the members it can).
pub trait LaneFactory: Sync {
    /// The kernel for members with these parameter sets (at most its width), or `None`
    /// to run them one by one.
    fn kernel(&self, sets: &[ParamSet]) -> Option<Box<dyn LaneKernel>>;
}

/// Lane `lane`'s values of a slot-major buffer into `out`.
#[inline]
pub(crate) fn gather(soa: &[f64], width: usize, lane: usize, out: &mut [f64]) {
    for (j, o) in out.iter_mut().enumerate() {
        *o = soa[j * width + lane];
    }
}

/// `src` into lane `lane` of a slot-major buffer.
#[inline]
pub(crate) fn scatter(src: &[f64], width: usize, lane: usize, soa: &mut [f64]) {
    for (j, v) in src.iter().enumerate() {
        soa[j * width + lane] = *v;
    }
}

/// No lanes: every member runs on its own (the default).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoLanes;

impl LaneFactory for NoLanes {
    fn kernel(&self, _sets: &[ParamSet]) -> Option<Box<dyn LaneKernel>> {
        None
    }
}

impl<F> LaneFactory for F
where
    F: Fn(&[ParamSet]) -> Option<Box<dyn LaneKernel>> + Sync,
{
    fn kernel(&self, sets: &[ParamSet]) -> Option<Box<dyn LaneKernel>> {
        self(sets)
    }
}
