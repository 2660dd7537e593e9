//! Ensembles: many runs of one simulation, in parallel, with statistics over the members.
//!
//! An [`Ensemble`] takes a factory that builds a [`Model`] for a [`ParamSet`], a member
//! count per parameter set and an optional [`Sweep`]. Member `i` runs parameter set
//! `i / count` with the ensemble's options, its seed, and noise stream `i`, so its path
//! depends on `(seed, i)` only: never on the thread that runs it or on the thread count.
//! Members run on rayon's pool (or one of [`Ensemble::threads`] workers) and are collected
//! in member order; statistics are computed afterwards in that order, so the result is the
//! same to the last bit for any number of threads.
//!
//! ```
//! # use physis_runtime::*;
//! # fn ensemble_of<M: Model>(factory: impl Fn(&ParamSet) -> Result<M, String> + Sync)
//! #     -> Result<(), Box<dyn std::error::Error>> {
//! let sweep = Sweep::parse(&["k=1..2:3"], plain_number)?;
//! let result = Ensemble::new(factory, 100).sweep(sweep).seed(42).run()?;
//! let _summary: String = result.summary_json();
//! # Ok(()) }
//! ```

mod grid;
mod output;
mod part;
mod result;

use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;
use thiserror::Error;

use crate::driver::{Simulation, run_each, run_lockstep};
use crate::error::RunError;
use crate::info::ModelInfo;
use crate::lanes::{LaneFactory, NoLanes};
use crate::model::Model;
use crate::options::RunOptions;
use crate::sweep::{MAX_SETS, ParamSet, Sweep};

use grid::{GridSink, GridSpec};
pub use part::{EnsemblePart, PartMember};
pub use result::{EnsembleResult, FinalStats, MemberResult, Series, SeriesColumn};

/// Quantiles reported when none are chosen.
pub const DEFAULT_QUANTILES: [f64; 3] = [0.05, 0.5, 0.95];

/// Why an ensemble could not run or its output not be written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum EnsembleError {
    /// A member count of zero.
    #[error("an ensemble needs at least one member per parameter set")]
    NoMembers,
    /// More members than [`MAX_SETS`].
    #[error("{members} members are more than the {max} an ensemble may run", max = MAX_SETS)]
    TooMany {
        /// Members asked for (saturating).
        members: u128,
    },
    /// A thread count of zero.
    #[error("an ensemble needs at least one worker thread")]
    NoThreads,
    /// The worker pool could not be started.
    #[error("could not start {threads} worker threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// The pool's message.
        message: String,
    },
    /// A quantile outside `[0, 1]` (or NaN).
    #[error("quantile {p} is not a probability between 0 and 1")]
    BadQuantile {
        /// The value given.
        p: f64,
    },
    /// The same quantile asked twice.
    #[error("quantile {p} is asked for twice")]
    DuplicateQuantile {
        /// The value given.
        p: f64,
    },
    /// The factory refused a parameter set (an unknown name, a value out of range).
    #[error("parameters {params}: {message}")]
    Factory {
        /// The parameter set, as `k=2.0, m=1.0`.
        params: String,
        /// The factory's message.
        message: String,
    },
    /// A member's run could not start (bad settings) or failed.
    #[error("member {member} ({params}) could not run: {source}")]
    Run {
        /// Member index.
        member: usize,
        /// Its parameter set.
        params: String,
        /// What went wrong.
        #[source]
        source: RunError,
    },
    /// A member's model has another shape than the first member's.
    #[error("member {member} ({params}) does not fit the first member: {problem}")]
    Mismatch {
        /// Member index.
        member: usize,
        /// Its parameter set.
        params: String,
        /// What differs.
        problem: String,
    },
    /// Statistics over time were asked for, but the members share no sample grid.
    #[error("no statistics over time: {why}")]
    NoSeries {
        /// Why not.
        why: String,
    },
    /// Members asked for outside the ensemble (a range past its end, or reversed).
    #[error("members {start}..{end} are not a range within the ensemble's {members} members")]
    BadRange {
        /// First member asked for.
        start: usize,
        /// One past the last.
        end: usize,
        /// Members in the ensemble.
        members: usize,
    },
    /// Parts handed to [`Ensemble::gather`] that do not cover every member exactly once.
    #[error("the parts do not cover the ensemble: {problem}")]
    Parts {
        /// What is missing or doubled.
        problem: String,
    },
    /// Bytes that are not an encoded [`EnsemblePart`].
    #[error("not an ensemble part: {problem}")]
    BadPart {
        /// What is wrong with them.
        problem: String,
    },
    /// Writing the output failed.
    #[error("writing the ensemble's output failed: {0}")]
    Io(#[from] std::io::Error),
}

/// Many runs of one simulation: see the [module documentation](self).
pub struct Ensemble<M, F, L = NoLanes> {
    factory: F,
    lanes: L,
    /// Members per lockstep batch (0: no batches).
    width: usize,
    count: usize,
    sweep: Sweep,
    options: RunOptions,
    threads: Option<usize>,
    quantiles: Vec<f64>,
    model: PhantomData<fn() -> M>,
}

impl<M, F> Ensemble<M, F>
where
    M: Model,
    F: Fn(&ParamSet) -> Result<M, String> + Sync,
{
    /// An ensemble of `count` members per parameter set; `factory` builds the model for a
    /// parameter set (with no sweep: the empty set, i.e. the model's defaults) and reports
    /// names or values it cannot apply as `Err(message)`.
    pub fn new(factory: F, count: usize) -> Self {
        Self {
            factory,
            lanes: NoLanes,
            width: 0,
            count,
            sweep: Sweep::new(),
            options: RunOptions::default(),
            threads: None,
            quantiles: DEFAULT_QUANTILES.to_vec(),
            model: PhantomData,
        }
    }
}

impl<M, F, L> Ensemble<M, F, L>
where
    M: Model,
    F: Fn(&ParamSet) -> Result<M, String> + Sync,
    L: LaneFactory,
{
    /// Runs members in lockstep batches of `width` through `lanes` wherever their model
    /// allows it (see [`crate::LaneKernel`]): the same results, bit for bit, in less time
    /// when the kernel evaluates a batch faster than its members one by one. A `width` of
    /// 0 (or a factory that builds no kernel) runs every member on its own.
    pub fn lanes<L2: LaneFactory>(self, lanes: L2, width: usize) -> Ensemble<M, F, L2> {
        Ensemble {
            factory: self.factory,
            lanes,
            width,
            count: self.count,
            sweep: self.sweep,
            options: self.options,
            threads: self.threads,
            quantiles: self.quantiles,
            model: PhantomData,
        }
    }

    /// The noise seed of every member (sets `options.seed`).
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = Some(seed);
        self
    }

    /// Run options for every member (`step`, `tolerance`, `record_every`, ...). Their
    /// `stream` is replaced by the member index. Call before [`Ensemble::seed`], which
    /// writes into them.
    pub fn options(mut self, options: RunOptions) -> Self {
        self.options = options;
        self
    }

    /// The parameter sets to run (`count` members each).
    pub fn sweep(mut self, sweep: Sweep) -> Self {
        self.sweep = sweep;
        self
    }

    /// Runs on a pool of `n` workers instead of rayon's global pool (built on first use and
    /// kept for later runs asking for `n`).
    pub fn threads(mut self, n: usize) -> Self {
        self.threads = Some(n);
        self
    }

    /// The quantiles to report (default [`DEFAULT_QUANTILES`]), each in `[0, 1]`.
    pub fn quantiles(mut self, probabilities: &[f64]) -> Self {
        self.quantiles = probabilities.to_vec();
        self
    }

    /// Total number of members (parameter sets × count).
    pub fn len(&self) -> usize {
        self.sweep.len().saturating_mul(self.count)
    }

    /// True when there is no member to run.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The parameter set of member `i`.
    pub fn member_params(&self, i: usize) -> Option<ParamSet> {
        if i >= self.len() {
            return None;
        }
        self.sweep.set(i / self.count)
    }

    /// The run options of member `i`: the ensemble's, with stream `i`.
    pub fn member_options(&self, i: usize) -> RunOptions {
        RunOptions {
            stream: Some(i as u64),
            ..self.options.clone()
        }
    }

    /// Runs every member and gathers the statistics.
    pub fn run(&self) -> Result<EnsembleResult, EnsembleError> {
        self.run_with_progress(|_, _| {})
    }

    /// Like [`Ensemble::run`], calling `progress(done, total)` as each member finishes
    /// (from the worker that ran it, so calls from different workers may interleave; `done`
    /// counts up to `total` over all calls).
    pub fn run_with_progress(
        &self,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<EnsembleResult, EnsembleError> {
        let part = self.run_members_with_progress(0..self.len(), progress)?;
        self.gather(vec![part])
    }

    /// Runs members `range` only (on this process's workers), for gathering later with the
    /// other parts by [`Ensemble::gather`]: a member's path depends on `(seed, index)` only,
    /// so however the members are split the gathered result is the same, bit for bit, as
    /// [`Ensemble::run`]'s, which goes through these two functions too.
    pub fn run_members(&self, range: Range<usize>) -> Result<EnsemblePart, EnsembleError> {
        self.run_members_with_progress(range, |_, _| {})
    }

    /// [`Ensemble::run_members`] calling `progress(done, total)` as members finish.
    pub fn run_members_with_progress(
        &self,
        range: Range<usize>,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<EnsemblePart, EnsembleError> {
        self.check()?;
        let all = self.len();
        if range.start > range.end || range.end > all {
            return Err(EnsembleError::BadRange {
                start: range.start,
                end: range.end,
                members: all,
            });
        }
        let (info, grid) = self.first()?;
        let collect = grid.filter(|_| !info.observes.is_empty());
        let total = range.len();
        let done = AtomicUsize::new(0);
        let start = range.start;
        let work = || {
            let outs: Vec<Result<grid::MemberOut, EnsembleError>> =
                if let Some(first_batch) = start.checked_div(self.width) {
                    // Batches are fixed by member index (multiples of the width), never by
                    // scheduling or by how the ensemble was split.
                    let batches: Vec<Vec<Result<grid::MemberOut, EnsembleError>>> = (first_batch
                        ..range.end.div_ceil(self.width))
                        .into_par_iter()
                        // Each worker renews the runs of its last batch for the next.
                        .map_init(Vec::new, |spare, b| {
                            let first = (b * self.width).max(start);
                            let members = first..range.end.min((b + 1) * self.width);
                            let n = members.len();
                            let out = self.run_batch(members, collect, &info, spare);
                            progress(done.fetch_add(n, Ordering::Relaxed) + n, total);
                            out
                        })
                        .collect();
                    // Sized up front: a member's output is large, and regrowing copies them all.
                    let mut outs = Vec::with_capacity(total);
                    outs.extend(batches.into_iter().flatten());
                    outs
                } else {
                    range
                        .clone()
                        .into_par_iter()
                        .map_init(Vec::new, |spare, i| {
                            let out = self.run_member(i, collect, &info, spare);
                            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                            out
                        })
                        .collect()
                };
            let mut members = Vec::with_capacity(outs.len());
            for out in outs {
                members.push(out?);
            }
            Ok(EnsemblePart { start, members })
        };
        let units = if self.width > 0 {
            total.div_ceil(self.width)
        } else {
            total
        };
        match self.threads {
            None => work(),
            Some(n) => pool(pool_width(n, units))?.install(work),
        }
    }

    /// Gathers parts covering every member exactly once (in any order, however split)
    /// into the ensemble's result: the statistics are taken over the members in index
    /// order, so the result does not depend on the split.
    pub fn gather(&self, mut parts: Vec<EnsemblePart>) -> Result<EnsembleResult, EnsembleError> {
        self.check()?;
        parts.sort_by_key(|p| p.start);
        let all = self.len();
        let mut next = 0;
        for p in &parts {
            if p.start != next {
                return Err(EnsembleError::Parts {
                    problem: format!("a part starts at member {} where {next} is due", p.start),
                });
            }
            if let Some((j, m)) =
                (p.members.iter().enumerate()).find(|(j, m)| m.result.index != p.start + j)
            {
                return Err(EnsembleError::Parts {
                    problem: format!(
                        "position {} of the part from member {} holds member {}",
                        j, p.start, m.result.index
                    ),
                });
            }
            next += p.members.len();
        }
        if next != all {
            return Err(EnsembleError::Parts {
                problem: format!("{next} of the {all} members were handed in"),
            });
        }
        let (info, grid) = self.first()?;
        let mut members = Vec::with_capacity(all);
        for p in parts {
            members.extend(p.members);
        }
        Ok(result::assemble(info, members, &self.quantiles, grid))
    }

    /// The first member's model description and sample grid, which every member is checked
    /// against. Building it reports a bad name or setting once, before thousands of
    /// members start.
    fn first(&self) -> Result<(Arc<ModelInfo>, Option<GridSpec>), EnsembleError> {
        let first = self.member_params(0).unwrap_or_default();
        let model = (self.factory)(&first).map_err(|message| EnsembleError::Factory {
            params: first.to_string(),
            message,
        })?;
        let sim = Simulation::new(model, &self.member_options(0)).map_err(|source| {
            EnsembleError::Run {
                member: 0,
                params: first.to_string(),
                source,
            }
        })?;
        Ok((sim.info().clone(), GridSpec::of(&sim)))
    }

    fn check(&self) -> Result<(), EnsembleError> {
        if self.count == 0 {
            return Err(EnsembleError::NoMembers);
        }
        let members = self.sweep.len() as u128 * self.count as u128;
        if members > MAX_SETS as u128 {
            return Err(EnsembleError::TooMany { members });
        }
        if self.threads == Some(0) {
            return Err(EnsembleError::NoThreads);
        }
        for (i, &p) in self.quantiles.iter().enumerate() {
            if !(0.0..=1.0).contains(&p) {
                return Err(EnsembleError::BadQuantile { p });
            }
            if self.quantiles[..i].contains(&p) {
                return Err(EnsembleError::DuplicateQuantile { p });
            }
        }
        Ok(())
    }

    /// Builds and runs member `i`, collecting its samples on `grid` when given (on a run
    /// renewed from `spare` when there is one, given back there after).
    fn run_member(
        &self,
        i: usize,
        grid: Option<GridSpec>,
        first: &ModelInfo,
        spare: &mut Vec<Box<Simulation<M>>>,
    ) -> Result<grid::MemberOut, EnsembleError> {
        let mut m = self.prepare_member(i, grid, first, spare)?;
        loop {
            match m.sim.advance(&mut m.sink) {
                Ok(false) => {}
                Ok(true) => break,
                Err(source) => return Err(m.run_error(source)),
            }
        }
        let end = m
            .sim
            .take_end()
            .ok_or_else(|| m.run_error(ended_early(&m.sim)))?;
        let (out, sim) = m.finish(end);
        spare.push(sim);
        Ok(out)
    }

    /// Builds members `members` (renewing runs from `spare`, where they go back after),
    /// starts each, then runs them in lockstep (or one by one where the model does not
    /// allow it).
    fn run_batch(
        &self,
        members: std::ops::Range<usize>,
        grid: Option<GridSpec>,
        first: &ModelInfo,
        spare: &mut Vec<Box<Simulation<M>>>,
    ) -> Vec<Result<grid::MemberOut, EnsembleError>> {
        let mut prepared = Vec::with_capacity(members.len());
        for i in members {
            match self.prepare_member(i, grid, first, spare) {
                Ok(m) => prepared.push(m),
                // The first failure is the batch's outcome (members after it never run).
                Err(e) => return vec![Err(e)],
            }
        }
        let sets: Vec<ParamSet> = prepared.iter().map(|m| m.params.clone()).collect();
        let kernel = self.lanes.kernel(&sets);
        let mut sims = Vec::with_capacity(prepared.len());
        let mut sinks = Vec::with_capacity(prepared.len());
        let mut rest = Vec::with_capacity(prepared.len());
        for m in prepared {
            let Member {
                index,
                params,
                sim,
                sink,
                on_grid,
            } = m;
            sims.push(sim);
            sinks.push(sink);
            rest.push((index, params, on_grid));
        }
        let failed = |l: usize, source: RunError| {
            let (member, params, _) = &rest[l];
            vec![Err(EnsembleError::Run {
                member: *member,
                params: params.to_string(),
                source,
            })]
        };
        for (l, (sim, sink)) in sims.iter_mut().zip(sinks.iter_mut()).enumerate() {
            if let Err(e) = sim.advance(sink) {
                return failed(l, e);
            }
        }
        let wanted = sinks.iter().any(GridSink::collects);
        let outcome = match kernel {
            Some(mut k) => run_lockstep(&mut sims, &mut sinks, k.as_mut(), wanted),
            None => run_each(&mut sims, &mut sinks),
        };
        if let Err((l, e)) = outcome {
            return failed(l, e);
        }
        let outs = sims
            .iter_mut()
            .zip(sinks)
            .zip(rest)
            .map(|((sim, sink), (index, params, on_grid))| {
                let end = sim.take_end().ok_or_else(|| EnsembleError::Run {
                    member: index,
                    params: params.to_string(),
                    source: ended_early(sim),
                })?;
                let result = MemberResult { index, params, end };
                Ok(sink.finish(result, on_grid))
            })
            .collect();
        spare.extend(sims);
        outs
    }

    /// Builds member `i`'s model and run (renewing one from `spare` if there is one),
    /// checked against the first member.
    fn prepare_member(
        &self,
        i: usize,
        grid: Option<GridSpec>,
        first: &ModelInfo,
        spare: &mut Vec<Box<Simulation<M>>>,
    ) -> Result<Member<M>, EnsembleError> {
        let params = self.member_params(i).unwrap_or_default();
        let model = (self.factory)(&params).map_err(|message| EnsembleError::Factory {
            params: params.to_string(),
            message,
        })?;
        let run_error = |source| EnsembleError::Run {
            member: i,
            params: params.to_string(),
            source,
        };
        // Boxed: a batch moves its runs around, and a run is over a kilobyte.
        let options = self.member_options(i);
        let sim = match spare.pop() {
            Some(mut sim) => {
                sim.renew(model, &options).map_err(run_error)?;
                sim
            }
            None => Box::new(Simulation::new(model, &options).map_err(run_error)?),
        };
        let own = sim.info();
        if own.dim != first.dim || own.observes.len() != first.observes.len() {
            return Err(EnsembleError::Mismatch {
                member: i,
                params: params.to_string(),
                problem: format!(
                    "{} state slots and {} observes instead of {} and {}",
                    own.dim,
                    own.observes.len(),
                    first.dim,
                    first.observes.len()
                ),
            });
        }
        // A member on another grid (its own settings differ) leaves no series.
        let on_grid = grid.is_none() || GridSpec::of(&sim) == grid;
        Ok(Member {
            index: i,
            params,
            sim,
            sink: GridSink::new(grid.filter(|_| on_grid)),
            on_grid,
        })
    }
}

/// The threads to start when `asked` are asked for `units` of work (members, or lockstep
/// batches of them): never more than the units, since the rest would only sit idle and each
/// costs a stack (1,024 threads for 4 members failed under a memory cap); results do not
/// depend on the count.
fn pool_width(asked: usize, units: usize) -> usize {
    asked.min(units).max(1)
}

/// The worker pool of `n` threads, built on first use and kept for the process: a
/// pool's threads, and the memory their allocator has gathered, serve every later run of
/// that width instead of being started and handed back to the system each time.
fn pool(n: usize) -> Result<Arc<rayon::ThreadPool>, EnsembleError> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, p)) = pools.iter().find(|(k, _)| *k == n) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| EnsembleError::ThreadPool {
            threads: n,
            message: e.to_string(),
        })?;
    let p = Arc::new(p);
    pools.push((n, Arc::clone(&p)));
    Ok(p)
}

/// A run that returned without an end (a driver defect, reported rather than hidden).
fn ended_early<M: Model>(sim: &Simulation<M>) -> RunError {
    RunError::BadModel {
        model: sim.info().name.clone(),
        problem: "the run stopped before its end".into(),
    }
}

/// A member ready to run.
struct Member<M: Model> {
    index: usize,
    params: ParamSet,
    sim: Box<Simulation<M>>,
    sink: GridSink,
    on_grid: bool,
}

impl<M: Model> Member<M> {
    fn run_error(&self, source: RunError) -> EnsembleError {
        EnsembleError::Run {
            member: self.index,
            params: self.params.to_string(),
            source,
        }
    }

    /// The member's output, and its run for the next member.
    fn finish(self, end: crate::sample::RunEnd) -> (grid::MemberOut, Box<Simulation<M>>) {
        let result = MemberResult {
            index: self.index,
            params: self.params,
            end,
        };
        (self.sink.finish(result, self.on_grid), self.sim)
    }
}

#[cfg(test)]
mod tests {
    use super::pool_width;

    #[test]
    fn a_pool_is_never_wider_than_its_work() {
        assert_eq!(pool_width(1024, 4), 4);
        assert_eq!(pool_width(1_000_000, 3), 3);
        assert_eq!(pool_width(2, 120), 2);
        assert_eq!(pool_width(8, 0), 1);
    }
}
