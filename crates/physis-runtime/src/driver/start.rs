//! The start of a run: the first sample, stops that already hold, the stability check,
//! and the first adaptive step. Events that already hold at `t0` do not fire there.

use super::{Simulation, Src, finite, finite_both};
use crate::control::initial_step;
use crate::error::RunError;
use crate::model::Model;
use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::{SampleKind, SampleSink};

impl<M: Model> Simulation<M> {
    pub(super) fn start(&mut self, sink: &mut dyn SampleSink) -> Result<(), RunError> {
        let t0 = self.cfg.t0;
        self.model.initial(t0, &mut self.y);
        if finite(&self.y) {
            self.model.rate(t0, &self.y, &mut self.f);
            self.stats.evaluations += 1;
        } else {
            self.f.fill(f64::NAN);
        }
        self.model.margins(t0, &self.y, &self.f, &mut self.margins);
        self.emit(sink, t0, Src::Current, SampleKind::Initial)?;
        self.obs0.copy_from_slice(&self.obs);
        self.obs0_set = true;
        if !finite_both(&self.y, &self.f) {
            return self.finish(sink, Self::diverged(Cause::NonFinite), t0, Src::Current);
        }
        if self.stop_holding(sink)? {
            return Ok(());
        }
        if let Some(reason) = self.stability_check() {
            return self.finish(sink, reason, t0, Src::Current);
        }
        if self.info.scheme.adaptive {
            self.h = match self.cfg.step {
                Some(h) => h.min(self.cfg.max_step),
                None => {
                    let Self {
                        model,
                        y,
                        f,
                        ytmp,
                        dtmp,
                        info,
                        cfg,
                        stats,
                        free,
                        tolerances,
                        ..
                    } = self;
                    stats.evaluations += 1;
                    tolerances.observe(y);
                    let order = info.scheme.order;
                    initial_step(
                        t0,
                        y,
                        f,
                        order,
                        tolerances.rtol(),
                        tolerances.atol(),
                        cfg.max_step,
                        free,
                        ytmp,
                        dtmp,
                        |t, y, d| model.rate(t, y, d),
                    )
                }
            };
        }
        // An event fires when its condition turns true: one that already holds at t0 has
        // not turned true, and fires only once it has been false (as SciPy's events,
        // DifferentialEquations.jl's callbacks and Modelica's `when` behave).
        Ok(())
    }

    /// Ends the run as `when` if a stop holds at the current state (margins in `margins`).
    pub(super) fn stop_holding(&mut self, sink: &mut dyn SampleSink) -> Result<bool, RunError> {
        let info = &self.info;
        let Some(i) = info
            .stops
            .iter()
            .position(|c| c.cond.eval(&info.atoms, &self.margins))
        else {
            return Ok(false);
        };
        let c = &info.stops[i];
        let reason = Reason {
            kind: ReasonKind::When,
            clause: Some(c.text.clone()),
            line: Some(c.line),
            cause: Cause::Stop { index: i },
        };
        self.finish(sink, reason, self.t, Src::Current)?;
        Ok(true)
    }
}
