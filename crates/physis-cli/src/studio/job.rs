//! One run the page asked for, under the studio's limits: the source size, the memory the
//! run is estimated to need (PH0119, as `run --memory-budget`), the accepted steps (the run
//! ends as `limit`), the samples kept, and a wall-time budget read between steps together
//! with a cancel flag the server sets when it stops waiting. A run that passes a limit ends
//! with a clear error, never by hanging the page.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use physis_runtime::{CsvWriter, RunEnd, Sample, SampleSink, Simulation};

use super::error::ApiError;
use crate::cmd::collect::Collector;
use crate::cmd::columns::{ColumnSpec, all_states, field_names, resolve};
use crate::cmd::prepare::{Prepared, RunArgs, prepare_checked};

/// What a run may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest source accepted, in bytes.
    pub source_bytes: usize,
    /// Wall time a run may take.
    pub wall: Duration,
    /// Accepted steps before the run ends as `limit`.
    pub steps: u64,
    /// Samples a download may hold (a plot thins its rows and is not bound by this).
    pub samples: usize,
    /// Memory a run is estimated to need, as `--memory-budget` reads it.
    pub memory: String,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            source_bytes: 1 << 20,
            wall: Duration::from_secs(10),
            steps: 5_000_000,
            samples: 1_000_000,
            memory: "1GiB".into(),
        }
    }
}

/// A run as the page describes it.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The model's text.
    pub source: String,
    /// The simulation, when the text declares several.
    #[serde(default)]
    pub sim: Option<String>,
    /// A named run (`run Steep with α = 70 deg`).
    #[serde(default)]
    pub run: Option<String>,
    /// Param values with their units (`"v₀": "40 m/s"`), applied after the named run.
    #[serde(default)]
    pub set: std::collections::BTreeMap<String, String>,
}

/// What the run's samples go to.
pub enum Output {
    /// The columns of the plot (thinned), for the figure and the final state.
    Plot,
    /// Every sample as CSV.
    Csv,
    /// Every sample as Parquet.
    #[cfg(feature = "parquet")]
    Parquet,
}

/// A finished run.
pub struct Finished {
    /// The prepared model (names, units).
    pub prepared: Prepared,
    /// How it ended.
    pub end: RunEnd,
    /// The plot's columns and their samples, for [`Output::Plot`].
    pub plot: Option<Plotted>,
    /// The file, for a download.
    pub bytes: Vec<u8>,
}

/// The columns a plot draws, with their (thinned) samples.
pub struct Plotted {
    /// The columns.
    pub specs: Vec<ColumnSpec>,
    /// Sample times.
    pub time: Vec<f64>,
    /// One column of values per spec.
    pub values: Vec<Vec<f64>>,
    /// Times events fired.
    pub events: Vec<f64>,
}

/// Counts samples into `inner` and refuses one past the cap.
struct Capped<'a> {
    inner: &'a mut dyn SampleSink,
    count: usize,
    cap: usize,
}

impl SampleSink for Capped<'_> {
    fn begin(&mut self, info: &physis_runtime::ModelInfo) -> std::io::Result<()> {
        self.inner.begin(info)
    }

    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        self.count += 1;
        if self.count > self.cap {
            return Err(std::io::Error::other("sample cap"));
        }
        self.inner.sample(s)
    }

    fn end(&mut self, end: &RunEnd) -> std::io::Result<()> {
        self.inner.end(end)
    }
}

/// Checks and prepares the request's model as `physis run` would.
pub fn prepare(req: &RunRequest, limits: &Limits) -> Result<Prepared, ApiError> {
    if req.source.len() > limits.source_bytes {
        return Err(ApiError::too_large(req.source.len(), limits.source_bytes));
    }
    let checked = physis_ir::front::check_bytes(req.source.as_bytes(), "studio.hph");
    if checked.has_errors() {
        return Err(ApiError::model(checked.rendered()));
    }
    let args = RunArgs {
        file: "studio.hph".into(),
        sim: req.sim.clone(),
        scenario: req.run.clone().filter(|r| !r.is_empty()),
        set: req.set.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        scheme: None,
        step: None,
        tolerance: None,
        record: None,
        seed: None,
        limit: Some(limits.steps),
        memory_budget: Some(limits.memory.clone()),
    };
    prepare_checked(checked, &args).map_err(|f| match f.code {
        2 => ApiError::request(f.message),
        _ => ApiError::model(f.message),
    })
}

/// The columns a plot draws: every observe, or every state when there is none (at most
/// [`MAX_COLUMNS`]).
fn plot_columns(prepared: &Prepared) -> Result<Vec<ColumnSpec>, ApiError> {
    let info = &prepared.ir.info;
    let model = prepared.checked_model();
    let fields = field_names(model);
    let mut out = Vec::new();
    for o in &info.observes {
        out.extend(resolve(&o.name, info, model, &fields).map_err(|f| ApiError::model(f.message))?);
    }
    if out.is_empty() {
        out = all_states(info, model, &fields).map_err(|f| ApiError::model(f.message))?;
    }
    out.truncate(MAX_COLUMNS);
    Ok(out)
}

/// Columns a plot draws at most (a field's nodes are not drawn one line each).
pub const MAX_COLUMNS: usize = 12;

/// Runs the request's model into `output` under `limits`, giving up when `cancel` is set.
pub fn execute(
    req: &RunRequest,
    limits: &Limits,
    output: &Output,
    cancel: &Arc<AtomicBool>,
) -> Result<Finished, ApiError> {
    let prepared = prepare(req, limits)?;
    let model = prepared.model().map_err(|f| ApiError::model(f.message))?;
    let mut sim = Simulation::new(model, &prepared.options)
        .map_err(|e| ApiError::model(crate::cmd::refusal::run_error_text(&e)))?;
    let specs = match output {
        Output::Plot => plot_columns(&prepared)?,
        _ => Vec::new(),
    };
    let mut collector = Collector::new(&specs);
    let mut csv = CsvWriter::new(Vec::new());
    #[cfg(feature = "parquet")]
    let mut parquet = crate::cmd::parquet::ParquetSink::to_writer(Vec::new());
    let (inner, cap): (&mut dyn SampleSink, usize) = match output {
        Output::Plot => (&mut collector, usize::MAX),
        Output::Csv => (&mut csv, limits.samples),
        #[cfg(feature = "parquet")]
        Output::Parquet => (&mut parquet, limits.samples),
    };
    let mut sink = Capped {
        inner,
        count: 0,
        cap,
    };
    let started = Instant::now();
    let mut count = 0u32;
    let end = loop {
        let done = sim.advance(&mut sink);
        if sink.count > sink.cap {
            return Err(ApiError::limit(format!(
                "the run gave more than {} samples; a download holds at most that many \
                 (record less often with `record every`, or stop earlier)",
                limits.samples
            )));
        }
        match done {
            Ok(true) => {
                break sim
                    .run(&mut sink)
                    .map_err(|e| ApiError::model(crate::cmd::refusal::run_error_text(&e)))?;
            }
            Ok(false) => {}
            Err(e) => return Err(ApiError::model(crate::cmd::refusal::run_error_text(&e))),
        }
        count += 1;
        if count.is_multiple_of(CHECK_EVERY)
            && (cancel.load(Ordering::Relaxed) || started.elapsed() > limits.wall)
        {
            return Err(ApiError::limit(format!(
                "the run took longer than {} s of wall time and was stopped at t = {} s \
                 after {} steps (stop it earlier, or take larger steps)",
                limits.wall.as_secs_f64(),
                sim.time(),
                sim.stats().steps
            )));
        }
    };
    let (plot, bytes) = match output {
        Output::Plot => {
            let Collector {
                time,
                values,
                events,
                ..
            } = collector;
            let plotted = Plotted {
                specs,
                time,
                values,
                events,
            };
            (Some(plotted), Vec::new())
        }
        Output::Csv => (None, csv.into_inner()),
        #[cfg(feature = "parquet")]
        Output::Parquet => (None, parquet.into_inner().unwrap_or_default()),
    };
    Ok(Finished {
        prepared,
        end,
        plot,
        bytes,
    })
}

/// Steps between two looks at the clock and the cancel flag.
const CHECK_EVERY: u32 = 64;
