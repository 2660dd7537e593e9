//! One accepted step: choosing `h`, attempting (explicit step or Newton), step control,
//! then locating clauses on the step's interpolant, recording, and firing events.

use super::stages::Stages;
use super::{Simulation, Src, finite, finite_both};
use crate::control::{
    MAX_GROWTH, MAX_REJECTIONS, error_norm_finite, predictive_factor, step_factor,
};
use crate::error::RunError;
use crate::hermite::Segment;
use crate::model::{Model, StepArgs, StepOut};
use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::{SampleKind, SampleSink};

/// Smallest step, relative to `|t|`: below it `t + h` no longer resolves the step.
const MIN_STEP_REL: f64 = 16.0 * f64::EPSILON;
/// Largest growth of `h` a scheme with implicit stages forgoes to keep its factorisation.
const KEEP_STEP: f64 = 1.2;
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

/// The fixed-step grid point a step from `t` aims at: the first `t0 + k·hf` with `k ≥ k`
/// clearly past `t` (more than the resolution of `t + h`), as `(k, t0 + k·hf)`.
pub(super) fn grid_target(t0: f64, hf: f64, t: f64, mut k: u64) -> (u64, f64) {
    let res = MIN_STEP_REL * t.abs().max(hf);
    while t0 + k as f64 * hf <= t + res {
        k += 1;
    }
    (k, t0 + k as f64 * hf)
}

impl<M: Model> Simulation<M> {
    pub(super) fn min_step(t: f64) -> f64 {
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
            q,
            dw,
            newton,
            stages,
            stats,
            cfg,
            tolerances,
            ..
        } = self;
        let sch = &info.scheme;
        let args = StepArgs { t, h, y, f0: f, dw };
        // An adaptive step's Newton converges in the step's own error weights.
        let atol = sch.adaptive.then(|| tolerances.atol());
        let tol = (cfg.tolerance, atol);
        if let (Some(newton), Some(stages)) = (newton.as_mut(), stages) {
            let evals = &mut stats.evaluations;
            if !stages.solve(model, newton, &args, &sch.implicit_stages, tol, evals) {
                return Attempt::NewtonFailed;
            }
            let out = StepOut {
                next: ynew,
                err: sch.adaptive.then_some(&mut err[..]),
                f1: None,
                dense: None,
            };
            model.stage_finish(&args, &stages.solved, out);
            stats.evaluations += u64::from(sch.stages);
        } else if let Some(newton) = newton {
            // Newton starts from the current state: an explicit predictor `y + h·f` is far
            // off on a stiff problem at a large step and can lead to a non-physical root.
            ynew.copy_from_slice(y);
            let per = u64::from(sch.residual_evals);
            if !newton.solve(model, &args, ynew, tol, per, &mut stats.evaluations) {
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
                dense: sch.dense.then_some(&mut q[..]),
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
        if let Some(r) = self.stability_along() {
            return self.finish(sink, r, t, Src::Current);
        }
        if self.bdf.is_some() {
            return self.take_bdf_step(sink, t);
        }
        let adaptive = self.info.scheme.adaptive;
        // Fixed: aim at the next grid point t0 + k·h clearly past t.
        let mut target = None;
        let mut h = if adaptive {
            self.h.min(self.cfg.max_step)
        } else {
            let (k, tg) = grid_target(self.cfg.t0, self.h, t, self.grid_k);
            self.grid_k = k;
            target = Some(tg);
            tg - t
        };
        // A stop reading only `t` that would hold at the step's end: end on it exactly.
        let landing = self.landing(t, target.unwrap_or(t + h));
        if let Some(tl) = landing {
            h = tl - t;
        }
        if adaptive {
            self.tolerances.observe(&self.y);
        }
        let mut rejected = 0u32;
        let mut growth = MAX_GROWTH;
        // Whether `ynew` is finite, when the accepted attempt's error norm has seen it.
        let mut next_finite = None;
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
            if let Some(newton) = &self.newton {
                let (j, f) = self.stages.as_ref().map_or((0, 0), Stages::counts);
                self.stats.jacobians = newton.jacobians + j;
                self.stats.factorisations = newton.factorisations + f;
            }
            if ok && !adaptive {
                break;
            }
            let e = if ok {
                let tol = &self.tolerances;
                let (rtol, atol) = (tol.rtol(), tol.atol());
                let (e, fin) =
                    error_norm_finite(&self.err, &self.y, &self.ynew, rtol, atol, &self.free);
                next_finite = Some(fin);
                e
            } else {
                f64::INFINITY
            };
            if ok && e <= 1.0 {
                let order = self.info.scheme.order;
                let mut factor = step_factor(e, order, growth);
                // A collocation scheme (stages that read each other) takes the smaller of
                // the plain and Gustafsson's predictive factor, as RADAU5 does: on Van der
                // Pol μ = 1000 at 1e-6 radau5's rejections fell from 181 to 15. An SDIRK
                // (esdirk43) keeps the plain factor: it took more steps with this one when
                // tried for issue 20.
                if let Some(st) = self.stages.as_mut().filter(|st| st.coupled) {
                    if let Some(prev) = st.accepted {
                        factor = factor.min(predictive_factor(h, e, prev, order, growth));
                    }
                    st.accepted = Some((h, e.max(1e-2)));
                }
                if self.stages.is_some() && (1.0..=KEEP_STEP).contains(&factor) {
                    // A small growth is not worth a new factorisation: Newton keeps its
                    // LU while `h` stays (Hairer & Wanner, Solving ODEs II, §IV.8).
                    factor = 1.0;
                }
                self.h = (h * factor).min(self.cfg.max_step);
                break;
            }
            self.stats.rejections += 1;
            self.stats.newton_rejections += u64::from(!ok);
            rejected += 1;
            growth = 1.0;
            h *= if ok {
                step_factor(e, self.info.scheme.order, 1.0)
            } else {
                0.5
            };
        }
        let tb = match (target, landing) {
            (_, Some(tl)) if tl - t == h => tl,
            (Some(tg), _) if tg - t == h => {
                self.grid_k += 1;
                tg
            }
            _ => t + h,
        };
        if next_finite == Some(false) {
            return self.end_non_finite(sink, t);
        }
        if !self.info.scheme.fsal || self.newton.is_some() {
            self.model.rate(tb, &self.ynew, &mut self.fnew);
            self.stats.evaluations += 1;
        }
        // The end state (unless the error norm has seen it) and its rate in one pass. A
        // fixed step's rate is then evaluated at a state that may not be finite: one
        // evaluation that a run ending here counts, never a different end.
        let fine = match next_finite {
            Some(_) => finite(&self.fnew),
            None => finite_both(&self.ynew, &self.fnew),
        };
        if !fine {
            return self.end_non_finite(sink, t);
        }
        self.stats.steps += 1;
        self.after_step(sink, t, tb, h)
    }

    /// Locates clauses in `[t, tb]`, records samples up to the first one, then stops,
    /// fires events or moves to `tb`.
    pub(super) fn after_step(
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
        let found = if self.quiet_step(tb) {
            None
        } else {
            let Self {
                model,
                info,
                locator,
                y,
                f,
                ynew,
                fnew,
                q,
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
                q: (!q.is_empty()).then_some(&q[..]),
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
                // The truncated step is not grown from, so the next one starts no larger. A
                // fixed step's `h` is the grid spacing and stays (a cut step is shorter).
                if self.info.scheme.adaptive {
                    self.h = self.h.min(h);
                }
                // The error history before an event says nothing of the state after it.
                if let Some(st) = self.stages.as_mut() {
                    st.accepted = None;
                }
                // A fixed step cut short did not reach its grid point: the next step aims at
                // it again (`grid_target` moves on from there), never one grid step beyond.
                self.grid_k = self.grid_k.saturating_sub(1).max(1);
                self.fire_events(sink, x.t)
            }
            _ => {
                self.t = tb;
                std::mem::swap(&mut self.y, &mut self.ynew);
                std::mem::swap(&mut self.f, &mut self.fnew);
                if self.time_only_clauses {
                    // Set by `quiet_step` (the scan's end margins are the same values);
                    // `quiet_step` refills the other buffer at the next step.
                    std::mem::swap(&mut self.margins, &mut self.end_margins);
                } else {
                    self.margins.copy_from_slice(self.locator.end_margins());
                }
                if self.cfg.record_every.is_none() {
                    self.emit(sink, tb, Src::Current, SampleKind::Step)?;
                } else if !self.info.conserves.is_empty() {
                    self.observe_some(tb, Src::Current, true);
                    self.check_conserve(sink, tb, Src::Current)?;
                }
                Ok(())
            }
        }
    }

    /// With time-only clauses and no events: fills `end_margins` at `tb` and tells whether
    /// the step is quiet (no atom changes side, no stop holds at `tb`). Then the locator's
    /// scan, which would probe only the two ends, finds nothing, so it is skipped; the
    /// result is the same bit for bit. Time-only margins do not read the state, so the
    /// step's end stands in for the interpolant there.
    fn quiet_step(&mut self, tb: f64) -> bool {
        if !self.time_only_clauses {
            return false;
        }
        if self.land_t == tb {
            // The landing check evaluated them at this very time (the step was accepted
            // as proposed); time-only margins read nothing else.
            self.end_margins.copy_from_slice(&self.land);
        } else {
            self.model
                .margins(tb, &self.ynew, &self.fnew, &mut self.end_margins);
        }
        let info = &self.info;
        let same_side = info
            .atoms
            .iter()
            .zip(self.margins.iter().zip(&self.end_margins))
            .all(|(a, (&g0, &g1))| a.op.holds(g0) == a.op.holds(g1));
        same_side
            && !info
                .stops
                .iter()
                .any(|c| c.cond.eval(&info.atoms, &self.end_margins))
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
            q,
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
            q: (!q.is_empty()).then_some(&q[..]),
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::info::{AtomInfo, Clause, Cmp, Cond, ModelInfo, ObserveInfo, SchemeInfo, Settings};
    use crate::model::{Model, StepArgs, StepOut};
    use crate::options::RunOptions;
    use crate::sample::Collect;

    use super::super::Simulation;

    /// `x' = −x + sin t` (or, stochastic, `dx = −x dt + 0.5·x dW`) by explicit Euler, with
    /// two time-only stops `t ≥ 0.3 ∧ t ≥ 0.2` and `t > T`, and `x` observed.
    struct Decay {
        info: Arc<ModelInfo>,
        end: f64,
    }

    fn decay(stochastic: bool, end: f64, record: Option<f64>) -> Decay {
        let atom = |op| AtomInfo {
            op,
            time_only: true,
            affine: true,
        };
        let stop = |cond, text: &str| Clause {
            cond,
            text: text.into(),
            line: 1,
        };
        Decay {
            info: Arc::new(ModelInfo {
                name: "Decay".into(),
                dim: 1,
                states: vec![],
                observes: vec![ObserveInfo::named("x")],
                noises: usize::from(stochastic),
                scheme: SchemeInfo {
                    name: "euler".into(),
                    order: 1,
                    adaptive: false,
                    implicit: false,
                    stochastic,
                    stability_radius: None,
                    stages: 0,
                    residual_evals: 0,
                    fsal: false,
                    dense: false,
                    implicit_stages: Vec::new(),
                    bdf: false,
                },
                settings: Settings {
                    step: Some(0.01),
                    record_every: record,
                    ..Settings::default()
                },
                integrate: None,
                atoms: vec![atom(Cmp::Ge), atom(Cmp::Ge), atom(Cmp::Gt)],
                stops: vec![
                    stop(
                        Cond::All(vec![Cond::Atom(0), Cond::Atom(1)]),
                        "t ≥ 0.3 ∧ t ≥ 0.2",
                    ),
                    stop(Cond::Atom(2), "t > T"),
                ],
                events: vec![],
                conserves: vec![],
                conditions_read_rate: false,
                observes_read_rate: false,
            }),
            end,
        }
    }

    impl Model for Decay {
        fn info(&self) -> Arc<ModelInfo> {
            Arc::clone(&self.info)
        }
        fn initial(&mut self, _t0: f64, y: &mut [f64]) {
            y[0] = 1.0;
        }
        fn rate(&mut self, t: f64, y: &[f64], d: &mut [f64]) {
            d[0] = -y[0] + if self.info.noises == 0 { t.sin() } else { 0.0 };
        }
        fn step(&mut self, a: &StepArgs<'_>, out: StepOut<'_>) {
            let dw = a.dw.first().copied().unwrap_or(0.0);
            out.next[0] = a.y[0] + a.h * a.f0[0] + 0.5 * a.y[0] * dw;
        }
        fn margins(&mut self, t: f64, _y: &[f64], _d: &[f64], out: &mut [f64]) {
            // The first stop is off: it needs t ≥ 0.3 and t ≥ 2·end.
            out[0] = t - 0.3;
            out[1] = t - 2.0 * self.end;
            out[2] = t - self.end;
        }
        fn observe(&mut self, _t: f64, y: &[f64], _d: &[f64], out: &mut [f64]) {
            out[0] = y[0];
        }
    }

    fn samples(model: Decay, shortcut: bool) -> (Collect, crate::sample::RunEnd) {
        let options = RunOptions {
            seed: Some(7),
            ..RunOptions::default()
        };
        let mut sim = Simulation::new(model, &options).expect("valid");
        assert!(sim.time_only_clauses);
        sim.time_only_clauses = shortcut;
        let mut sink = Collect::default();
        let end = sim.run(&mut sink).expect("runs");
        (sink, end)
    }

    #[test]
    fn the_quiet_step_shortcut_changes_nothing() {
        // Ends on the grid, between grid points, with a record grid, with noise.
        for (stochastic, end, record) in [
            (false, 1.0, None),
            (false, 0.731_234_5, None),
            (false, 0.731_234_5, Some(0.025)),
            (true, 0.5, None),
            (true, 0.455_5, Some(0.02)),
        ] {
            let (fast, fast_end) = samples(decay(stochastic, end, record), true);
            let (slow, slow_end) = samples(decay(stochastic, end, record), false);
            assert_eq!(fast, slow, "{stochastic} {end} {record:?}");
            assert_eq!(fast_end, slow_end);
            assert!(
                (fast_end.t - end).abs() < 1e-12,
                "stops where `t > T` first holds"
            );
            assert!(fast.0.len() > 20);
        }
    }
}
