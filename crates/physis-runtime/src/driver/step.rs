//! One accepted step: choosing `h`, attempting (explicit step or Newton), step control,
//! then locating clauses on the step's interpolant, recording, and firing events.

use super::{Simulation, Src, finite};
use crate::control::{MAX_GROWTH, MAX_REJECTIONS, error_norm, step_factor};
use crate::error::RunError;
use crate::hermite::Segment;
use crate::model::{Model, StepArgs, StepOut};
use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::{SampleKind, SampleSink};

/// Smallest step, relative to `|t|`: below it `t + h` no longer resolves the step.
const MIN_STEP_REL: f64 = 16.0 * f64::EPSILON;
/// Zeno resolution, relative to `|t|`: an event firing again this close to its previous
/// firing means the events accumulate (≈ 1.4e-14·|t|).
const ZENO_REL: f64 = 64.0 * f64::EPSILON;

/// Result of one attempt.
enum Attempt {
    /// `ynew` (and `err`, `fnew` if fsal) are filled.
    Done,
    /// Newton did not converge.
    NewtonFailed,
}

impl<M: Model> Simulation<M> {
    fn min_step(t: f64) -> f64 {
        (MIN_STEP_REL * t.abs()).max(f64::MIN_POSITIVE)
    }

    /// One attempt from `(t, y)` with step `h` into `ynew`.
    fn attempt(&mut self, t: f64, h: f64) -> Attempt {
        if self.info.scheme.stochastic {
            self.noise.increments(h, &mut self.dw);
        }
        let Self {
            model,
            info,
            y,
            f,
            ynew,
            fnew,
            err,
            dw,
            newton,
            stats,
            cfg,
            ..
        } = self;
        let sch = &info.scheme;
        let args = StepArgs { t, h, y, f0: f, dw };
        if let Some(newton) = newton {
            for ((n, y0), f0) in ynew.iter_mut().zip(y.iter()).zip(f.iter()) {
                *n = y0 + h * f0;
            }
            let per = u64::from(sch.residual_evals);
            if !newton.solve(
                model,
                &args,
                ynew,
                cfg.tolerance,
                per,
                &mut stats.evaluations,
            ) {
                return Attempt::NewtonFailed;
            }
            if sch.adaptive {
                model.implicit_error(&args, ynew, err);
            }
        } else {
            let out = StepOut {
                next: ynew,
                err: sch.adaptive.then_some(&mut err[..]),
                f1: sch.fsal.then_some(&mut fnew[..]),
            };
            model.step(&args, out);
            stats.evaluations += u64::from(sch.stages);
        }
        Attempt::Done
    }

    /// Takes one accepted step and handles what happens inside it.
    pub(super) fn take_step(&mut self, sink: &mut dyn SampleSink) -> Result<(), RunError> {
        let t = self.t;
        if self.stats.steps >= self.cfg.limit {
            let r = self.integrate_reason(
                ReasonKind::Limit,
                Cause::StepLimit {
                    limit: self.cfg.limit,
                },
            );
            return self.finish(sink, r, t, Src::Current);
        }
        let adaptive = self.info.scheme.adaptive;
        // Fixed: aim at the next grid point t0 + k·h clearly past t.
        let mut target = None;
        let mut h = if adaptive {
            self.h.min(self.cfg.max_step)
        } else {
            let (t0, hf) = (self.cfg.t0, self.h);
            let res = MIN_STEP_REL * t.abs().max(hf);
            while t0 + self.grid_k as f64 * hf <= t + res {
                self.grid_k += 1;
            }
            let tg = t0 + self.grid_k as f64 * hf;
            target = Some(tg);
            tg - t
        };
        let mut rejected = 0u32;
        let mut growth = MAX_GROWTH;
        loop {
            if h < Self::min_step(t) || rejected > MAX_REJECTIONS {
                let cause = if self.newton.is_some() {
                    Cause::NewtonFailed
                } else {
                    Cause::StepTooSmall { h }
                };
                return self.finish(sink, Self::diverged(cause), t, Src::Current);
            }
            let ok = matches!(self.attempt(t, h), Attempt::Done);
            if ok && !adaptive {
                break;
            }
            let e = if ok {
                error_norm(&self.err, &self.y, &self.ynew, self.cfg.tolerance)
            } else {
                f64::INFINITY
            };
            if ok && e <= 1.0 {
                self.h =
                    (h * step_factor(e, self.info.scheme.order, growth)).min(self.cfg.max_step);
                break;
            }
            self.stats.rejections += 1;
            rejected += 1;
            growth = 1.0;
            h *= if ok {
                step_factor(e, self.info.scheme.order, 1.0)
            } else {
                0.5
            };
        }
        let tb = match target {
            Some(tg) if tg - t == h => {
                self.grid_k += 1;
                tg
            }
            _ => t + h,
        };
        if !finite(&self.ynew) {
            return self.finish(sink, Self::diverged(Cause::NonFinite), t, Src::Current);
        }
        if !self.info.scheme.fsal || self.newton.is_some() {
            self.model.rate(tb, &self.ynew, &mut self.fnew);
            self.stats.evaluations += 1;
        }
        if !finite(&self.fnew) {
            return self.finish(sink, Self::diverged(Cause::NonFinite), t, Src::Current);
        }
        self.stats.steps += 1;
        self.after_step(sink, t, tb, h)
    }

    /// Locates clauses in `[t, tb]`, records samples up to the first one, then stops,
    /// fires events or moves to `tb`.
    fn after_step(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
        tb: f64,
        h: f64,
    ) -> Result<(), RunError> {
        // Just after an event whose condition still holds: probe densely near the start.
        let dense = self
            .info
            .events
            .iter()
            .zip(&self.last_fire)
            .any(|(c, &tf)| tf == t && c.cond.eval(&self.info.atoms, &self.margins));
        let found = {
            let Self {
                model,
                info,
                locator,
                y,
                f,
                ynew,
                fnew,
                margins,
                stats,
                ..
            } = self;
            let seg = Segment {
                ta: t,
                tb,
                ya: y,
                fa: f,
                yb: ynew,
                fb: fnew,
            };
            locator.scan(model, info, &seg, margins, dense, &mut stats.evaluations)
        };
        let t_end = found.map_or(tb, |x| x.t);
        if let Some(d) = self.cfg.record_every {
            loop {
                let tr = self.cfg.t0 + self.rec_k as f64 * d;
                if tr > t_end {
                    break;
                }
                self.rec_k += 1;
                if tr <= t {
                    continue;
                }
                self.interpolate(t, tb, tr, self.info.observes_read_rate);
                if self.emit(sink, tr, Src::Tmp, SampleKind::Record)? {
                    return Ok(());
                }
            }
        }
        match found {
            Some(x) if x.stop.is_some() => {
                let i = x.stop.unwrap_or(0);
                self.interpolate(t, tb, x.t, true);
                let c = &self.info.stops[i];
                let reason = Reason {
                    kind: ReasonKind::When,
                    clause: Some(c.text.clone()),
                    line: Some(c.line),
                    cause: Cause::Stop { index: i },
                };
                self.finish(sink, reason, x.t, Src::Tmp)
            }
            Some(x) if x.events => {
                self.interpolate(t, tb, x.t, true);
                std::mem::swap(&mut self.pre, &mut self.ytmp);
                std::mem::swap(&mut self.pre_rate, &mut self.dtmp);
                // The truncated step is not grown from, so the next one starts no larger.
                self.h = self.h.min(h);
                self.fire_events(sink, x.t)
            }
            _ => {
                self.t = tb;
                std::mem::swap(&mut self.y, &mut self.ynew);
                std::mem::swap(&mut self.f, &mut self.fnew);
                self.margins.copy_from_slice(self.locator.end_margins());
                if self.cfg.record_every.is_none() {
                    self.emit(sink, tb, Src::Current, SampleKind::Step)?;
                } else if !self.info.conserves.is_empty() {
                    self.observe(tb, Src::Current);
                    self.check_conserve(sink, tb, Src::Current)?;
                }
                Ok(())
            }
        }
    }

    /// State at `tau` of the step `[t, tb]` into `ytmp`, with its derivative in `dtmp`:
    /// the rate there when `rate` is set (exact for resets and stops), else the slope.
    fn interpolate(&mut self, t: f64, tb: f64, tau: f64, rate: bool) {
        let Self {
            model,
            y,
            f,
            ynew,
            fnew,
            ytmp,
            dtmp,
            stats,
            ..
        } = self;
        let seg = Segment {
            ta: t,
            tb,
            ya: y,
            fa: f,
            yb: ynew,
            fb: fnew,
        };
        seg.state(tau, ytmp);
        if rate && tau != tb {
            model.rate(tau, ytmp, dtmp);
            stats.evaluations += 1;
        } else {
            seg.slope(tau, dtmp);
        }
    }

    /// Fires the events flagged in the locator at `te` from the state in `pre`: a sample
    /// before, the Zeno guard, every reset reading `pre`, a sample after, then stops.
    pub(super) fn fire_events(
        &mut self,
        sink: &mut dyn SampleSink,
        te: f64,
    ) -> Result<(), RunError> {
        // An event fired with others a tie-width before its own crossing has had that
        // crossing: it does not fire again for it.
        let mut any = false;
        for ((fire, &tl), &tie) in self
            .locator
            .firing
            .iter_mut()
            .zip(&self.last_fire)
            .zip(&self.last_tie)
        {
            // NaN (never fired) compares false: the flag stays.
            let had_it = te - tl <= 2.0 * tie;
            *fire &= !had_it;
            any |= *fire;
        }
        if !any {
            self.t = te;
            std::mem::swap(&mut self.y, &mut self.pre);
            std::mem::swap(&mut self.f, &mut self.pre_rate);
            self.model.margins(te, &self.y, &self.f, &mut self.margins);
            return Ok(());
        }
        if self.last_sample_t != te && self.emit(sink, te, Src::Pre, SampleKind::BeforeEvent)? {
            return Ok(());
        }
        let zres = (ZENO_REL * te.abs()).max(f64::MIN_POSITIVE);
        for (i, &fire) in self.locator.firing.iter().enumerate() {
            if fire && te - self.last_fire[i] <= zres {
                let c = &self.info.events[i];
                let reason = Reason {
                    kind: ReasonKind::Diverged,
                    clause: Some(c.text.clone()),
                    line: Some(c.line),
                    cause: Cause::Zeno { index: i },
                };
                return self.finish(sink, reason, te, Src::Pre);
            }
        }
        self.ynew.copy_from_slice(&self.pre);
        for (i, &fire) in self.locator.firing.iter().enumerate() {
            if fire {
                self.model
                    .reset(i, te, &self.pre, &self.pre_rate, &mut self.ynew);
                self.last_fire[i] = te;
                self.last_tie[i] = self.locator.tie;
                self.stats.events += 1;
            }
        }
        if !finite(&self.ynew) {
            return self.finish(sink, Self::diverged(Cause::NonFinite), te, Src::Pre);
        }
        self.t = te;
        std::mem::swap(&mut self.y, &mut self.ynew);
        self.model.rate(te, &self.y, &mut self.f);
        self.stats.evaluations += 1;
        if !finite(&self.f) {
            return self.finish(sink, Self::diverged(Cause::NonFinite), te, Src::Current);
        }
        self.model.margins(te, &self.y, &self.f, &mut self.margins);
        if self.emit(sink, te, Src::Current, SampleKind::AfterEvent)? {
            return Ok(());
        }
        self.stop_holding(sink).map(|_| ())
    }
}
