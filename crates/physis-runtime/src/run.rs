//! Whole runs: [`Run`] (columns in memory) and [`Samples`] (a pull-based stream).

use std::sync::Arc;

use serde::Serialize;

use crate::driver::Simulation;
use crate::error::RunError;
use crate::info::ModelInfo;
use crate::model::Model;
use crate::options::RunOptions;
use crate::reason::Reason;
use crate::sample::{Columns, OwnedSample, Queue, RunEnd, SampleSink, Stats, Tee};

/// A finished run: why it ended, the time column, one column per observe (SI units), the
/// final state and the work counts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// The model's description (names for the writers).
    #[serde(skip)]
    pub info: Arc<ModelInfo>,
    /// Why the run ended.
    pub reason: Reason,
    /// Sample times.
    pub time: Vec<f64>,
    /// One column per observe, in declaration order.
    pub columns: Vec<Vec<f64>>,
    /// Final time, state and observes.
    pub end: RunEnd,
}

impl Run {
    /// The column of the observe named `name`.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        let i = self.info.observes.iter().position(|o| o.name == name)?;
        self.columns.get(i).map(Vec::as_slice)
    }

    /// Final time.
    pub fn final_t(&self) -> f64 {
        self.end.t
    }

    /// Final state (every slot).
    pub fn final_state(&self) -> &[f64] {
        &self.end.state
    }

    /// Work counts.
    pub fn stats(&self) -> Stats {
        self.end.stats
    }
}

/// Runs `model` to the end and keeps the columns.
pub fn run<M: Model>(model: M, options: &RunOptions) -> Result<Run, RunError> {
    let info = model.info();
    let mut cols = Columns::default();
    let end = run_into(model, options, &mut cols)?;
    Ok(assemble(info, end, cols))
}

/// Runs `model` to the end, delivering every sample to `sink` only (constant memory).
pub fn run_into<M: Model>(
    model: M,
    options: &RunOptions,
    sink: &mut dyn SampleSink,
) -> Result<RunEnd, RunError> {
    Simulation::new(model, options)?.run(sink)
}

/// Runs `model` to the end, delivering samples to `sink` and keeping the columns too.
pub fn run_tee<M: Model>(
    model: M,
    options: &RunOptions,
    sink: &mut dyn SampleSink,
) -> Result<Run, RunError> {
    let info = model.info();
    let mut cols = Columns::default();
    let end = run_into(model, options, &mut Tee(sink, &mut cols))?;
    Ok(assemble(info, end, cols))
}

fn assemble(info: Arc<ModelInfo>, end: RunEnd, mut cols: Columns) -> Run {
    cols.columns.resize(info.observes.len(), Vec::new());
    Run {
        info,
        reason: end.reason.clone(),
        time: cols.time,
        columns: cols.columns,
        end,
    }
}

/// A pull-based stream of samples: each `next` advances the driver only as far as needed.
pub struct Samples<M: Model> {
    sim: Simulation<M>,
    queue: Queue,
    error: Option<RunError>,
}

/// Starts a run whose samples are pulled one by one.
pub fn stream<M: Model>(model: M, options: &RunOptions) -> Result<Samples<M>, RunError> {
    Ok(Samples {
        sim: Simulation::new(model, options)?,
        queue: Queue::default(),
        error: None,
    })
}

impl<M: Model> Samples<M> {
    /// How the run ended, once the stream is exhausted.
    pub fn end(&self) -> Option<&RunEnd> {
        self.sim.end()
    }

    /// The model's description.
    pub fn info(&self) -> &Arc<ModelInfo> {
        self.sim.info()
    }
}

impl<M: Model> Iterator for Samples<M> {
    type Item = OwnedSample;

    fn next(&mut self) -> Option<OwnedSample> {
        loop {
            if let Some(s) = self.queue.0.pop_front() {
                return Some(s);
            }
            if self.error.is_some() || self.sim.end().is_some() {
                return None;
            }
            // The queue sink cannot fail, so an error here is impossible; keep it anyway.
            if let Err(e) = self.sim.advance(&mut self.queue) {
                self.error = Some(e);
            }
        }
    }
}

impl Run {
    /// The samples as CSV (`t` then each observe), the same bytes [`crate::CsvWriter`] writes.
    pub fn to_csv(&self) -> String {
        let mut w = crate::write::CsvWriter::new(Vec::new());
        let mut row = vec![0.0; self.columns.len()];
        let mut write = || -> std::io::Result<()> {
            w.begin(&self.info)?;
            for (k, &t) in self.time.iter().enumerate() {
                for (r, c) in row.iter_mut().zip(&self.columns) {
                    *r = c.get(k).copied().unwrap_or(f64::NAN);
                }
                let kind = crate::sample::SampleKind::Step;
                w.sample(&crate::sample::Sample {
                    t,
                    state: &[],
                    observe: &row,
                    kind,
                })?;
            }
            Ok(())
        };
        // Writing to a Vec cannot fail.
        let _ = write();
        String::from_utf8(w.into_inner()).unwrap_or_default()
    }

    /// The `--summary` object of this run (`run` names the scenario, `None` for defaults;
    /// `backend` says what computed it).
    pub fn summary<'a>(
        &'a self,
        run: Option<&'a str>,
        backend: &'a str,
    ) -> crate::write::Summary<'a> {
        crate::write::Summary {
            info: &self.info,
            run,
            end: &self.end,
            backend,
        }
    }
}
