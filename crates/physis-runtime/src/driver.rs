//! The run driver: one per run, advancing a [`Model`] step by step and delivering samples.
//!
//! [`Simulation::advance`] does one unit of work (the start on its first call, then one
//! accepted step with its retries, events and samples) so the same driver serves a whole
//! run ([`Simulation::run`]) and a pull-based stream ([`crate::Samples`]). Buffers are
//! allocated once in [`Simulation::new`]; a step allocates nothing.

mod bdf;
mod land;
mod lockstep;
mod stages;
mod start;
mod step;
mod stiffness;

pub(crate) use lockstep::{run_each, run_lockstep};

use std::sync::Arc;

use crate::error::RunError;
use crate::info::{ModelInfo, SchemeInfo};
use crate::locate::Locator;
use crate::model::Model;
use crate::newton::{Newton, sparse_pattern};
use crate::noise::Noise;
use crate::options::{DEFAULT_LIMIT, RunOptions};
use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::{RunEnd, Sample, SampleKind, SampleSink, Stats};
use crate::tolerance::Tolerances;
use bdf::Bdf;
use stages::Stages;
use stiffness::Watch;

/// Settings in force for one run (declared settings with the run's overrides applied).
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Start time.
    pub t0: f64,
    /// Fixed step, or the first adaptive step.
    pub step: Option<f64>,
    /// Tolerance.
    pub tolerance: f64,
    /// Accepted-step limit.
    pub limit: u64,
    /// Noise seed.
    pub seed: u64,
    /// Noise stream.
    pub stream: u64,
    /// `record every` interval.
    pub record_every: Option<f64>,
    /// Largest adaptive step.
    pub max_step: f64,
}

/// Which buffer holds the state a sample or the run's end is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Src {
    /// `y`, `f`: the current state and its rate.
    Current,
    /// `ytmp`, `dtmp`: an interpolated state.
    Tmp,
    /// `pre`, `pre_rate`: the state before an event.
    Pre,
}

/// One run of one model.
pub struct Simulation<M: Model> {
    model: M,
    info: Arc<ModelInfo>,
    cfg: Config,
    started: bool,
    end: Option<RunEnd>,
    t: f64,
    y: Vec<f64>,
    f: Vec<f64>,
    margins: Vec<f64>,
    ynew: Vec<f64>,
    fnew: Vec<f64>,
    err: Vec<f64>,
    /// Per slot, false for a fixed edge node left out of the error norm (empty: none).
    free: Vec<bool>,
    /// The continuous extension of the last attempted step (empty without one).
    q: Vec<f64>,
    ytmp: Vec<f64>,
    dtmp: Vec<f64>,
    pre: Vec<f64>,
    pre_rate: Vec<f64>,
    obs: Vec<f64>,
    obs0: Vec<f64>,
    /// `obs0` holds the observes of the first sample (the conserve references).
    obs0_set: bool,
    dw: Vec<f64>,
    /// Adaptive: the proposed next step. Fixed: the declared step.
    h: f64,
    /// Fixed: index of the next grid point `t0 + k·h` not yet reached.
    grid_k: u64,
    /// Index of the next `record every` point.
    rec_k: u64,
    last_fire: Vec<f64>,
    /// Tie width of the scan in which each event last fired.
    last_tie: Vec<f64>,
    last_sample_t: f64,
    locator: Locator,
    /// No events and every atom reads only `t`: a step in which no atom changes side and
    /// no stop holds at its end is seen from the end margins alone (see `after_step`).
    time_only_clauses: bool,
    /// Margins at the end of a step, for that shortcut.
    end_margins: Vec<f64>,
    /// The stops whose atoms all read only `t`: a step is shortened to land on the first
    /// time one holds (`land.rs`).
    time_stops: Vec<usize>,
    /// Margins at a candidate landing time.
    land: Vec<f64>,
    /// The time `land` was last evaluated at (NaN: not yet this run).
    land_t: f64,
    newton: Option<Newton>,
    /// Absolute tolerances per slot (adaptive schemes read them).
    tolerances: Tolerances,
    /// The stability check along the run (fixed explicit schemes with a radius).
    watch: Option<Watch>,
    /// The solved stages of a scheme with implicit stages.
    stages: Option<Stages>,
    /// The history of the built-in BDF.
    bdf: Option<Bdf>,
    noise: Noise,
    stats: Stats,
}

#[inline]
fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Whether every slot of `a` and of `b` is finite, in one branch-free pass: `x − x` is 0 for
/// a finite `x` and NaN for an infinite or NaN one, and a NaN survives the sum.
#[inline]
#[allow(clippy::eq_op)] // `x − x` is the test itself, not a slip
fn finite_both(a: &[f64], b: &[f64]) -> bool {
    let mut acc = 0.0;
    for (x, y) in a.iter().zip(b) {
        acc += (x - x) + (y - y);
    }
    let (ra, rb) = (&a[a.len().min(b.len())..], &b[a.len().min(b.len())..]);
    acc == 0.0 && finite(ra) && finite(rb)
}

fn bad_model(info: &ModelInfo, problem: String) -> RunError {
    RunError::BadModel {
        model: info.name.clone(),
        problem,
    }
}

fn positive(setting: &'static str, v: f64) -> Result<f64, RunError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(RunError::BadSetting {
            setting,
            value: v,
            expected: "positive and finite",
        })
    }
}

/// Checks the model's description against itself; `sparse` when the model declares a
/// sparse pattern for its Newton.
fn validate(info: &ModelInfo, sparse: bool) -> Result<(), RunError> {
    let mut covered = 0;
    for s in &info.states {
        if s.offset + s.len() > info.dim {
            return Err(bad_model(
                info,
                format!("state `{}` runs past slot {}", s.name, info.dim),
            ));
        }
        covered += s.len();
    }
    if !info.states.is_empty() && covered != info.dim {
        return Err(bad_model(
            info,
            format!("states cover {covered} of {} slots", info.dim),
        ));
    }
    let atoms = info.atoms.len();
    for c in info.stops.iter().chain(&info.events) {
        if c.cond.max_atom().is_some_and(|m| m >= atoms) {
            return Err(bad_model(
                info,
                format!("clause `{}` names a missing atom", c.text),
            ));
        }
    }
    for c in &info.conserves {
        if c.observe >= info.observes.len() {
            return Err(bad_model(
                info,
                format!("`{}` names a missing observe", c.text),
            ));
        }
        if !(c.within.is_finite() && c.within >= 0.0) {
            return Err(RunError::BadSetting {
                setting: "conserve within",
                value: c.within,
                expected: "non-negative and finite",
            });
        }
    }
    if info.settings.absolute.len() > info.states.len() {
        return Err(bad_model(
            info,
            format!(
                "{} absolute tolerances for {} states",
                info.settings.absolute.len(),
                info.states.len()
            ),
        ));
    }
    for &a in info.settings.absolute.iter().flatten() {
        positive("absolute tolerance", a)?;
    }
    let sch: &SchemeInfo = &info.scheme;
    if sch.adaptive && sch.stochastic {
        return Err(RunError::Unsupported {
            scheme: sch.name.clone(),
            combination: "adaptive and stochastic",
        });
    }
    if !sch.implicit_stages.is_empty() && !sch.implicit {
        return Err(bad_model(
            info,
            "a scheme with implicit stages must be implicit".into(),
        ));
    }
    if sch.bdf && !(sch.implicit && sch.adaptive) {
        return Err(bad_model(
            info,
            "the built-in BDF must be implicit and adaptive".into(),
        ));
    }
    if sch.implicit && sch.stochastic {
        return Err(RunError::Unsupported {
            scheme: sch.name.clone(),
            combination: "implicit and stochastic",
        });
    }
    if sch.implicit_stages.iter().any(|s| s.width == 0) {
        return Err(bad_model(info, "an implicit stage spans no state".into()));
    }
    let widest = sch
        .implicit_stages
        .iter()
        .map(|s| s.width)
        .max()
        .unwrap_or(1);
    if widest > 1 && !sparse && widest as usize * info.dim > stages::COUPLED_MAX {
        return Err(RunError::Unsupported {
            scheme: sch.name.clone(),
            combination: "stages that read each other on a state this large without a \
                          sparse Jacobian pattern (their dense Newton would exceed 2,048 \
                          unknowns)",
        });
    }
    Ok(())
}

/// Room for the stages of a scheme solved stage by stage, for `model`.
fn staged<M: Model + ?Sized>(info: &ModelInfo, model: &M) -> Option<Stages> {
    let st = &info.scheme.implicit_stages;
    let pattern = sparse_pattern(model, info.dim);
    (!st.is_empty()).then(|| Stages::new(st, info.dim, pattern.as_ref()))
}

/// The stops whose every atom reads only `t`, by index.
fn time_stops(info: &ModelInfo) -> Vec<usize> {
    let mut used = Vec::new();
    (0..info.stops.len())
        .filter(|&i| {
            used.clear();
            info.stops[i].cond.atoms_into(&mut used);
            used.iter().all(|&k| info.atoms[k].time_only)
        })
        .collect()
}

/// The stability watch of a run: a fixed explicit scheme with a declared radius and a step.
fn watch(info: &ModelInfo, cfg: &Config) -> Option<Watch> {
    let sch = &info.scheme;
    let radius = sch.stability_radius?;
    cfg.step?;
    (!sch.adaptive && !sch.implicit).then(|| Watch::new(info.dim, radius))
}

/// The settings of a run of a model described by `info` with `options`, checked, and its
/// fixed step if it has one.
fn settings(info: &ModelInfo, options: &RunOptions) -> Result<(Config, Option<f64>), RunError> {
    let s = &info.settings;
    if !s.t0.is_finite() {
        return Err(RunError::BadSetting {
            setting: "t0",
            value: s.t0,
            expected: "finite",
        });
    }
    let step = options
        .step
        .or(s.step)
        .map(|h| positive("step", h))
        .transpose()?;
    if step.is_none() && !info.scheme.adaptive {
        return Err(RunError::MissingStep {
            scheme: info.scheme.name.clone(),
        });
    }
    let cfg = Config {
        t0: s.t0,
        step,
        tolerance: positive("tolerance", options.tolerance.unwrap_or(s.tolerance))?,
        limit: options.limit.or(s.limit).unwrap_or(DEFAULT_LIMIT),
        seed: options.seed.or(s.seed).unwrap_or(0),
        stream: options.stream.unwrap_or(0),
        record_every: options
            .record_every
            .or(s.record_every)
            .map(|d| positive("record every", d))
            .transpose()?,
        max_step: options
            .max_step
            .map(|h| positive("max step", h))
            .transpose()?
            .unwrap_or(1e150),
    };
    Ok((cfg, step))
}

impl<M: Model> Simulation<M> {
    /// Prepares a run: validates the model's description and the options, resolves the
    /// settings and allocates every buffer. Nothing is evaluated yet.
    pub fn new(model: M, options: &RunOptions) -> Result<Self, RunError> {
        let info = model.info();
        validate(&info, sparse_pattern(&model, info.dim).is_some())?;
        let (cfg, step) = settings(&info, options)?;
        let n = info.dim;
        let z = || vec![0.0; n];
        Ok(Self {
            locator: Locator::new(&info),
            time_only_clauses: info.events.is_empty() && info.atoms.iter().all(|a| a.time_only),
            end_margins: vec![0.0; info.atoms.len()],
            time_stops: time_stops(&info),
            land: vec![0.0; info.atoms.len()],
            land_t: f64::NAN,
            newton: info.scheme.implicit.then(|| Newton::for_model(&model, n)),
            tolerances: Tolerances::new(&info, cfg.tolerance),
            watch: watch(&info, &cfg),
            stages: staged(&info, &model),
            bdf: info.scheme.bdf.then(|| Bdf::new(n)),
            noise: Noise::new(cfg.seed, cfg.stream),
            dw: vec![0.0; info.noises],
            margins: vec![0.0; info.atoms.len()],
            obs: vec![0.0; info.observes.len()],
            obs0: vec![0.0; info.observes.len()],
            obs0_set: false,
            last_fire: vec![f64::NAN; info.events.len()],
            last_tie: vec![0.0; info.events.len()],
            h: step.unwrap_or(0.0),
            t: cfg.t0,
            cfg,
            started: false,
            end: None,
            y: z(),
            f: z(),
            ynew: z(),
            fnew: z(),
            err: z(),
            free: info.free_slots(),
            q: if info.scheme.dense || info.scheme.bdf {
                z()
            } else {
                Vec::new()
            },
            ytmp: z(),
            dtmp: z(),
            pre: z(),
            pre_rate: z(),
            grid_k: 1,
            rec_k: 0,
            last_sample_t: f64::NAN,
            stats: Stats::default(),
            model,
            info,
        })
    }

    /// Makes this a new run of `model` with `options`, exactly as [`Simulation::new`]
    /// would, reusing the buffers when `model` shares this run's description (the same
    /// `Arc`, as the members of an ensemble built from one program do). An ensemble's
    /// worker renews its runs from batch to batch instead of allocating each member's.
    pub fn renew(&mut self, model: M, options: &RunOptions) -> Result<(), RunError> {
        if !Arc::ptr_eq(&model.info(), &self.info) {
            *self = Self::new(model, options)?;
            return Ok(());
        }
        // The options are checked before the model is swapped in, so a refused renewal
        // leaves this run as it was.
        settings(&self.info, options)?;
        self.model = model;
        self.restart(options)
    }

    /// Makes this a new run of the same model (its parameters as they are) with
    /// `options`, exactly as [`Simulation::new`] would, in the buffers of this run: a
    /// single run repeated (a benchmark, a caller re-running one model) allocates nothing
    /// but what an implicit scheme's Newton needs.
    pub fn restart(&mut self, options: &RunOptions) -> Result<(), RunError> {
        let info = Arc::clone(&self.info);
        let (cfg, step) = settings(&info, options)?;
        // Every field named, so that a field added later cannot be left out here.
        let Self {
            model,
            info: _,
            cfg: own_cfg,
            started,
            end,
            t,
            y,
            f,
            margins,
            ynew,
            fnew,
            err,
            free: _,
            q,
            ytmp,
            dtmp,
            pre,
            pre_rate,
            obs,
            obs0,
            obs0_set,
            dw,
            h,
            grid_k,
            rec_k,
            last_fire,
            last_tie,
            last_sample_t,
            locator,
            time_only_clauses: _,
            end_margins,
            time_stops: _,
            land,
            land_t,
            newton,
            tolerances,
            watch: own_watch,
            stages,
            bdf,
            noise,
            stats,
        } = self;
        for v in [
            y,
            f,
            margins,
            ynew,
            fnew,
            err,
            q,
            ytmp,
            dtmp,
            pre,
            pre_rate,
            obs,
            obs0,
            dw,
            last_tie,
            end_margins,
            land,
        ] {
            v.fill(0.0);
        }
        last_fire.fill(f64::NAN);
        *land_t = f64::NAN;
        locator.reset();
        *newton = info
            .scheme
            .implicit
            .then(|| Newton::for_model(&*model, info.dim));
        tolerances.reset(cfg.tolerance);
        match (own_watch.as_mut(), watch(&info, &cfg)) {
            (Some(w), Some(_)) => w.reset(),
            (_, fresh) => *own_watch = fresh,
        }
        *stages = staged(&info, &*model);
        *bdf = info.scheme.bdf.then(|| Bdf::new(info.dim));
        *noise = Noise::new(cfg.seed, cfg.stream);
        *obs0_set = false;
        *h = step.unwrap_or(0.0);
        *t = cfg.t0;
        *own_cfg = cfg;
        *started = false;
        *end = None;
        *grid_k = 1;
        *rec_k = 0;
        *last_sample_t = f64::NAN;
        *stats = Stats::default();
        Ok(())
    }

    /// The model's description.
    pub fn info(&self) -> &Arc<ModelInfo> {
        &self.info
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Current time.
    pub fn time(&self) -> f64 {
        self.t
    }

    /// Current state.
    pub fn state(&self) -> &[f64] {
        &self.y
    }

    /// Work done so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// How the run ended, once it has.
    pub fn end(&self) -> Option<&RunEnd> {
        self.end.as_ref()
    }

    /// Takes how the run ended, once it has (the ensemble's lockstep runs end in place).
    pub(crate) fn take_end(&mut self) -> Option<RunEnd> {
        self.end.take()
    }

    /// Gives the model back.
    pub fn into_model(self) -> M {
        self.model
    }

    /// Does one unit of work: the start (first sample, stop check, stability check; an
    /// event already holding at `t0` does not fire) on the first call, then one accepted step. Returns `true` once the
    /// run has ended (further calls do nothing).
    pub fn advance(&mut self, sink: &mut dyn SampleSink) -> Result<bool, RunError> {
        if self.end.is_some() {
            return Ok(true);
        }
        if !self.started {
            self.started = true;
            sink.begin(&self.info)?;
            self.start(sink)?;
        } else {
            self.take_step(sink)?;
        }
        Ok(self.end.is_some())
    }

    /// Runs to the end, delivering every sample to `sink`.
    pub fn run(mut self, sink: &mut dyn SampleSink) -> Result<RunEnd, RunError> {
        loop {
            self.advance(sink)?;
            if let Some(end) = self.end.take() {
                return Ok(end);
            }
        }
    }

    /// Runs to the end like [`Simulation::run`], keeping the run's buffers for
    /// [`Simulation::restart`] or [`Simulation::renew`] (advancing further without one of
    /// them does nothing).
    pub fn run_in_place(&mut self, sink: &mut dyn SampleSink) -> Result<RunEnd, RunError> {
        loop {
            self.advance(sink)?;
            if let Some(end) = &self.end {
                return Ok(end.clone());
            }
        }
    }

    /// Observes at a state held in one of the buffers, into `obs`: every observe, or only
    /// those conserve clauses name ([`Model::conserved`]) when `conserved` is set (the
    /// drift check of a sample nobody reads; the other slots of `obs` are then stale).
    fn observe_some(&mut self, t: f64, src: Src, conserved: bool) {
        let Self {
            model,
            obs,
            y,
            f,
            ytmp,
            dtmp,
            pre,
            pre_rate,
            ..
        } = self;
        let (ys, ds) = match src {
            Src::Current => (&y[..], &f[..]),
            Src::Tmp => (&ytmp[..], &dtmp[..]),
            Src::Pre => (&pre[..], &pre_rate[..]),
        };
        if conserved {
            model.conserved(t, ys, ds, obs);
        } else {
            model.observe(t, ys, ds, obs);
        }
    }

    /// Every observe at a state held in one of the buffers, into `obs`.
    fn observe(&mut self, t: f64, src: Src) {
        self.observe_some(t, src, false);
    }

    /// Delivers a sample, then checks the conserve clauses against it. Returns `true` when
    /// the run ended (as `violated`) at this sample.
    fn emit(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
        src: Src,
        kind: SampleKind,
    ) -> Result<bool, RunError> {
        let unwanted = matches!(kind, SampleKind::Step | SampleKind::Record) && !sink.wants(kind);
        if unwanted {
            // Nobody reads it: count it, and observe only what the conserve clauses name.
            self.stats.samples += 1;
            self.last_sample_t = t;
            if !self.obs0_set || self.info.conserves.is_empty() {
                return Ok(false);
            }
            self.observe_some(t, src, true);
            return self.check_conserve(sink, t, src);
        }
        self.observe(t, src);
        let state = match src {
            Src::Current => &self.y,
            Src::Tmp => &self.ytmp,
            Src::Pre => &self.pre,
        };
        sink.sample(&Sample {
            t,
            state,
            observe: &self.obs,
            kind,
        })?;
        self.stats.samples += 1;
        self.last_sample_t = t;
        self.check_conserve(sink, t, src)
    }

    /// Ends the run as `violated` if a conserve clause drifted at the observes in `obs`
    /// (only the slots conserve clauses name are read).
    fn check_conserve(
        &mut self,
        sink: &mut dyn SampleSink,
        t: f64,
        src: Src,
    ) -> Result<bool, RunError> {
        if !self.obs0_set || self.info.conserves.is_empty() {
            return Ok(false);
        }
        for (i, c) in self.info.conserves.iter().enumerate() {
            let (o, o0) = (self.obs[c.observe], self.obs0[c.observe]);
            let drift = (o - o0).abs() / o0.abs().max(1.0);
            if drift > c.within || drift.is_nan() {
                let reason = Reason {
                    kind: ReasonKind::Violated,
                    clause: Some(c.text.clone()),
                    line: Some(c.line),
                    cause: Cause::Conserve { index: i, drift },
                };
                self.finish(sink, reason, t, src)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Ends the run at `t` with the state in `src`: the final state becomes the last sample
    /// (unless a sample at `t` was just delivered) and the sink is told.
    fn finish(
        &mut self,
        sink: &mut dyn SampleSink,
        reason: Reason,
        t: f64,
        src: Src,
    ) -> Result<(), RunError> {
        self.observe(t, src);
        let state = match src {
            Src::Current => self.y.clone(),
            Src::Tmp => self.ytmp.clone(),
            Src::Pre => self.pre.clone(),
        };
        if self.last_sample_t != t {
            sink.sample(&Sample {
                t,
                state: &state,
                observe: &self.obs,
                kind: SampleKind::Final,
            })?;
            self.stats.samples += 1;
            self.last_sample_t = t;
        }
        let end = RunEnd {
            reason,
            t,
            state,
            observe: self.obs.clone(),
            stats: self.stats,
        };
        sink.end(&end)?;
        self.end = Some(end);
        Ok(())
    }

    /// A reason naming the `integrate` clause (for `limit` and `unstable`).
    fn integrate_reason(&self, kind: ReasonKind, cause: Cause) -> Reason {
        let src = self.info.integrate.as_ref();
        Reason {
            kind,
            clause: src.map(|s| s.text.clone()),
            line: src.map(|s| s.line),
            cause,
        }
    }

    /// A `diverged` reason with no clause.
    fn diverged(cause: Cause) -> Reason {
        Reason {
            kind: ReasonKind::Diverged,
            clause: None,
            line: None,
            cause,
        }
    }
}
