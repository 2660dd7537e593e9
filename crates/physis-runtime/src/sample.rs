//! Samples as they leave the driver, and the sinks that take them.

use std::collections::VecDeque;

use serde::Serialize;

use crate::info::ModelInfo;
use crate::reason::Reason;

/// Why a sample was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum SampleKind {
    /// The initial state at `t0`.
    Initial,
    /// The end of an accepted step (no `record every`).
    Step,
    /// A point `t0 + k·Δ` of the `record every` grid.
    Record,
    /// The state just before an event's resets (left limit).
    BeforeEvent,
    /// The state just after an event's resets (right limit, same `t`).
    AfterEvent,
    /// The state where the run ended (a stop's location, or the last state reached).
    Final,
}

/// One sample, borrowed from the driver's buffers.
#[derive(Debug, Clone, Copy)]
pub struct Sample<'a> {
    /// Time (s).
    pub t: f64,
    /// Every state slot.
    pub state: &'a [f64],
    /// Every observed column, in declaration order.
    pub observe: &'a [f64],
    /// Why it was taken.
    pub kind: SampleKind,
}

/// A sample that owns its data (what [`crate::Samples`] yields).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OwnedSample {
    /// Time (s).
    pub t: f64,
    /// Every state slot.
    pub state: Vec<f64>,
    /// Every observed column.
    pub observe: Vec<f64>,
    /// Why it was taken.
    pub kind: SampleKind,
}

impl From<&Sample<'_>> for OwnedSample {
    fn from(s: &Sample<'_>) -> Self {
        Self {
            t: s.t,
            state: s.state.to_vec(),
            observe: s.observe.to_vec(),
            kind: s.kind,
        }
    }
}

/// Counts of the work a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Accepted steps.
    pub steps: u64,
    /// Rejected attempts, of either kind: error estimate too large, or Newton failure.
    pub rejections: u64,
    /// Of [`Stats::rejections`], those whose Newton iteration did not converge (the rest
    /// failed the error test).
    pub newton_rejections: u64,
    /// Rate evaluations, including those inside scheme steps and residuals.
    pub evaluations: u64,
    /// Event firings.
    pub events: u64,
    /// Jacobians an implicit scheme's Newton formed (zero for an explicit scheme).
    pub jacobians: u64,
    /// LU factorisations an implicit scheme's Newton made (zero for an explicit scheme).
    pub factorisations: u64,
    /// Samples delivered.
    pub samples: u64,
}

/// How a run ended: the reason, the final time, state and observes, and the counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunEnd {
    /// Why it ended.
    pub reason: Reason,
    /// Final time (s).
    pub t: f64,
    /// Final state (every slot).
    pub state: Vec<f64>,
    /// Observes at the final state.
    pub observe: Vec<f64>,
    /// Work counts.
    pub stats: Stats,
}

/// Where the driver delivers samples, in time order, as it produces them. Writers and
/// collectors implement this; the driver keeps nothing, so memory does not grow with the run.
pub trait SampleSink {
    /// Called once before the first sample.
    fn begin(&mut self, info: &ModelInfo) -> std::io::Result<()> {
        let _ = info;
        Ok(())
    }

    /// Takes one sample.
    fn sample(&mut self, sample: &Sample<'_>) -> std::io::Result<()>;

    /// Whether samples of `kind` are wanted. The driver skips observing and delivering a
    /// [`SampleKind::Step`] or [`SampleKind::Record`] sample nobody wants (it still counts
    /// it in [`Stats::samples`] and checks the conserve clauses); the default wants all.
    fn wants(&self, kind: SampleKind) -> bool {
        let _ = kind;
        true
    }

    /// Called once after the last sample.
    fn end(&mut self, end: &RunEnd) -> std::io::Result<()> {
        let _ = end;
        Ok(())
    }
}

/// Collects `t` and the observed columns (what [`crate::Run`] holds).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Columns {
    /// Sample times.
    pub time: Vec<f64>,
    /// One column per observe.
    pub columns: Vec<Vec<f64>>,
}

impl SampleSink for Columns {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        if self.columns.len() != s.observe.len() {
            self.columns.resize(s.observe.len(), Vec::new());
        }
        self.time.push(s.t);
        for (c, v) in self.columns.iter_mut().zip(s.observe) {
            c.push(*v);
        }
        Ok(())
    }
}

/// Keeps every sample whole, state included (for tests and small runs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Collect(pub Vec<OwnedSample>);

impl SampleSink for Collect {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        self.0.push(s.into());
        Ok(())
    }
}

/// A queue the streaming iterator drains between steps.
#[derive(Debug, Default)]
pub(crate) struct Queue(pub VecDeque<OwnedSample>);

impl SampleSink for Queue {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        self.0.push_back(s.into());
        Ok(())
    }
}

/// Sends every sample to two sinks (e.g. a writer and a collector).
pub struct Tee<'a, A: SampleSink + ?Sized, B: SampleSink + ?Sized>(pub &'a mut A, pub &'a mut B);

impl<A: SampleSink + ?Sized, B: SampleSink + ?Sized> SampleSink for Tee<'_, A, B> {
    fn begin(&mut self, info: &ModelInfo) -> std::io::Result<()> {
        self.0.begin(info)?;
        self.1.begin(info)
    }
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        self.0.sample(s)?;
        self.1.sample(s)
    }
    fn wants(&self, kind: SampleKind) -> bool {
        self.0.wants(kind) || self.1.wants(kind)
    }
    fn end(&mut self, end: &RunEnd) -> std::io::Result<()> {
        self.0.end(end)?;
        self.1.end(end)
    }
}
