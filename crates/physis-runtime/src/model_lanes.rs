//! Lanes for any [`Model`]: one model per lane, each called on its own lane's values.
//!
//! A compiled model (hand-written or generated) is already straight-line code, so it gains
//! nothing from sharing a dispatch; what lockstep saves it is the driver's per-step work
//! (step selection, the clause check, the sample), done once per batch instead of once per
//! member. The models compute what they compute alone, so the results are the same bits.

use crate::lanes::{LaneFactory, LaneKernel, gather, scatter};
use crate::model::{Model, StepArgs, StepOut};
use crate::sweep::ParamSet;

/// Members per batch for [`ModelLanes`].
pub const MODEL_LANES: usize = 64;

/// A [`LaneKernel`] over one model per lane.
pub struct ModelLanes<M> {
    models: Vec<M>,
    width: usize,
    fsal: bool,
    y: Vec<f64>,
    f0: Vec<f64>,
    dw: Vec<f64>,
    next: Vec<f64>,
    f1: Vec<f64>,
    out: Vec<f64>,
    zeros: Vec<f64>,
}

impl<M: Model> ModelLanes<M> {
    /// Lanes over `models` (one per member, at most `width`); lanes past them are left
    /// alone.
    pub fn new(models: Vec<M>, width: usize) -> Option<Self> {
        let first = models.first()?;
        let info = first.info();
        if models.len() > width {
            return None;
        }
        let n = info.dim;
        let widest = n.max(info.atoms.len()).max(info.observes.len());
        Some(Self {
            fsal: info.scheme.fsal,
            y: vec![0.0; n],
            f0: vec![0.0; n],
            dw: vec![0.0; info.noises],
            next: vec![0.0; n],
            f1: vec![0.0; n],
            out: vec![0.0; widest],
            zeros: vec![0.0; n],
            models,
            width,
        })
    }
}

impl<M: Model + Send> LaneKernel for ModelLanes<M> {
    fn lanes(&self) -> usize {
        self.width
    }

    fn step(&mut self, lanes: &StepArgs<'_>, next: &mut [f64], f1: &mut [f64]) {
        let w = self.width;
        for (l, m) in self.models.iter_mut().enumerate() {
            gather(lanes.y, w, l, &mut self.y);
            gather(lanes.f0, w, l, &mut self.f0);
            gather(lanes.dw, w, l, &mut self.dw);
            let args = StepArgs {
                t: lanes.t,
                h: lanes.h,
                y: &self.y,
                f0: &self.f0,
                dw: &self.dw,
            };
            let out = StepOut {
                next: &mut self.next,
                err: None,
                f1: self.fsal.then_some(&mut self.f1[..]),
                dense: None,
            };
            m.step(&args, out);
            scatter(&self.next, w, l, next);
            if self.fsal {
                scatter(&self.f1, w, l, f1);
            }
        }
    }

    fn rate(&mut self, t: f64, y: &[f64], out: &mut [f64]) {
        let w = self.width;
        for (l, m) in self.models.iter_mut().enumerate() {
            gather(y, w, l, &mut self.y);
            m.rate(t, &self.y, &mut self.f0);
            scatter(&self.f0, w, l, out);
        }
    }

    fn margins(&mut self, t: f64, out: &mut [f64]) {
        let w = self.width;
        let atoms = out.len() / w;
        for (l, m) in self.models.iter_mut().enumerate() {
            // Time-only margins: the state they are given is never read.
            m.margins(t, &self.zeros, &self.zeros, &mut self.out[..atoms]);
            scatter(&self.out[..atoms], w, l, out);
        }
    }

    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let w = self.width;
        let k = out.len() / w;
        for (l, m) in self.models.iter_mut().enumerate() {
            gather(y, w, l, &mut self.y);
            gather(dydt, w, l, &mut self.f0);
            m.observe(t, &self.y, &self.f0, &mut self.out[..k]);
            scatter(&self.out[..k], w, l, out);
        }
    }
}

/// A [`LaneFactory`] building the model's own vectorised kernel
/// ([`Model::lane_kernel`], what generated models provide) or else [`ModelLanes`] of
/// [`MODEL_LANES`] members, with the ensemble's own model factory:
/// `Ensemble::new(&factory, n).lanes(ModelLaneFactory(&factory), MODEL_LANES)`.
#[derive(Debug, Clone, Copy)]
pub struct ModelLaneFactory<F>(pub F);

impl<M, F> LaneFactory for ModelLaneFactory<F>
where
    M: Model + Send + 'static,
    F: Fn(&ParamSet) -> Result<M, String> + Sync,
{
    fn kernel(&self, sets: &[ParamSet]) -> Option<Box<dyn LaneKernel>> {
        let models = sets
            .iter()
            .map(|s| (self.0)(s).ok())
            .collect::<Option<Vec<M>>>()?;
        if let Some(kernel) = M::lane_kernel(&models) {
            return Some(kernel);
        }
        Some(Box::new(ModelLanes::new(models, MODEL_LANES)?))
    }
}
