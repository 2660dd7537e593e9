//! Progress on a terminal: a bar over an ensemble's members, and for a single run that takes
//! a while, a bar over simulated time (when a `stop when t ≥ T` gives the end) or a spinner
//! with `t` and the step count. Nothing is drawn when stderr is not a terminal or with
//! `--quiet`, so pipes, files and tests never see it.

use indicatif::{ProgressBar, ProgressStyle};
use physis_runtime::{Cmp, Cond, Model, RunEnd, RunError, RunOptions, SampleSink, Simulation};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// A single run shows progress only once it has taken this long.
const SHOW_AFTER: Duration = Duration::from_millis(500);
/// Steps between two looks at the clock in a single run.
const CHECK_EVERY: u32 = 1024;
/// Resolution of the bar over simulated time.
const TIME_TICKS: u64 = 1000;

/// True when progress may be drawn.
fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A bar over an ensemble's members (or nothing).
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar over `total` members with the elapsed time and an ETA.
    pub fn members(total: u64, quiet: bool) -> Self {
        let bar = wanted(quiet).then(|| {
            let style = ProgressStyle::with_template(
                "{bar:40} {pos}/{len} members  {elapsed_precise} elapsed, ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            ProgressBar::new(total).with_style(style)
        });
        Self { bar }
    }

    /// `done` members have finished.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            // Workers report out of order: never move back.
            if done > bar.position() {
                bar.set_position(done);
            }
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The end time of a run whose stops include `t ≥ T` (or `t > T`) alone: the earliest such
/// `T` past the start. Time-only margins are affine in `t`, so two evaluations give the root.
fn end_time<M: Model>(model: &mut M, t0: f64) -> Option<f64> {
    let info = model.info();
    let n = info.atoms.len();
    let (zy, zd) = (vec![0.0; info.dim], vec![0.0; info.dim]);
    let (mut m0, mut m1) = (vec![0.0; n], vec![0.0; n]);
    model.margins(t0, &zy, &zd, &mut m0);
    model.margins(t0 + 1.0, &zy, &zd, &mut m1);
    info.stops
        .iter()
        .filter_map(|c| match c.cond {
            Cond::Atom(k) => Some(k),
            _ => None,
        })
        .filter(|&k| {
            info.atoms
                .get(k)
                .is_some_and(|a| a.time_only && matches!(a.op, Cmp::Ge | Cmp::Gt))
        })
        .filter_map(|k| {
            let slope = m1[k] - m0[k];
            let root = t0 - m0[k] / slope;
            (slope > 0.0 && root.is_finite() && root > t0).then_some(root)
        })
        .min_by(f64::total_cmp)
}

/// Runs `model` to the end like [`physis_runtime::run_into`], showing progress on a
/// terminal once the run has taken [`SHOW_AFTER`].
pub fn run_into<M: Model>(
    mut model: M,
    options: &RunOptions,
    sink: &mut dyn SampleSink,
    quiet: bool,
) -> Result<RunEnd, RunError> {
    if !wanted(quiet) {
        return physis_runtime::run_into(model, options, sink);
    }
    let t0 = model.info().settings.t0;
    let t_end = end_time(&mut model, t0);
    let mut sim = Simulation::new(model, options)?;
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let mut count = 0u32;
    loop {
        if sim.advance(sink)? {
            break;
        }
        count += 1;
        if count < CHECK_EVERY {
            continue;
        }
        count = 0;
        if started.elapsed() < SHOW_AFTER {
            continue;
        }
        let b = bar.get_or_insert_with(|| new_bar(t_end).with_elapsed(started.elapsed()));
        let (t, steps) = (sim.time(), sim.stats().steps);
        if let Some(te) = t_end {
            let frac = ((t - t0) / (te - t0)).clamp(0.0, 1.0);
            b.set_position((frac * TIME_TICKS as f64) as u64);
        }
        b.set_message(format!("t = {t:.6e} s, {steps} steps"));
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    // The run has ended: this only hands its end over.
    sim.run(sink)
}

fn new_bar(t_end: Option<f64>) -> ProgressBar {
    match t_end {
        Some(_) => ProgressBar::new(TIME_TICKS).with_style(
            ProgressStyle::with_template("{bar:40} {msg}  {elapsed_precise} elapsed, ETA {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => {
            let b = ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template("{spinner} {msg}  {elapsed_precise} elapsed")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(200));
            b
        }
    }
}
