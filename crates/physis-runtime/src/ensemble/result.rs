//! What an ensemble hands back: every member's outcome, statistics of the final values and,
//! when the members share a sample grid, statistics of every observe over time.
//!
//! A member whose final state or observes hold a NaN or an infinity is left out of every
//! statistic (it still counts in [`EnsembleResult::reasons`]); at a grid time, so is a
//! member whose observes there are not finite. Members that ended early simply stop
//! contributing, so each grid time carries its own count.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::info::ModelInfo;
use crate::reason::{Reason, ReasonKind};
use crate::sample::RunEnd;
use crate::stats::Moments;
use crate::sweep::ParamSet;

use super::EnsembleError;
use super::grid::{GridKind, GridSpec, MemberOut};

/// One member's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MemberResult {
    /// Member index (also its noise stream).
    pub index: usize,
    /// Its parameter set.
    pub params: ParamSet,
    /// How its run ended: reason, final time, state and observes, work counts.
    pub end: RunEnd,
}

impl MemberResult {
    /// Why the run ended.
    pub fn reason(&self) -> &Reason {
        &self.end.reason
    }

    /// Accepted steps.
    pub fn steps(&self) -> u64 {
        self.end.stats.steps
    }

    /// True when the final state and observes are all finite (the member is in the
    /// statistics).
    pub fn finite(&self) -> bool {
        self.end
            .state
            .iter()
            .chain(&self.end.observe)
            .all(|v| v.is_finite())
    }
}

/// Statistics of the final values over the members with finite final values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FinalStats {
    /// Members included.
    pub n: usize,
    /// Final time.
    pub t: Moments,
    /// One per state slot.
    pub state: Vec<Moments>,
    /// One per observe.
    pub observe: Vec<Moments>,
}

/// Statistics of one observe at every grid time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeriesColumn {
    /// The observe's name.
    pub name: String,
    /// Mean at each time.
    pub mean: Vec<f64>,
    /// Sample standard deviation at each time.
    pub std: Vec<f64>,
    /// `quantiles[q][k]`: quantile `q` (in the requested order) at time `k`.
    pub quantiles: Vec<Vec<f64>>,
}

/// Statistics over time on the grid the members share.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// True for the `record every` grid, false for a fixed scheme's step grid.
    pub record: bool,
    /// Grid spacing (s).
    pub every: f64,
    /// Grid times.
    pub t: Vec<f64>,
    /// Members contributing at each time.
    pub n: Vec<usize>,
    /// One column per observe, in declaration order.
    pub columns: Vec<SeriesColumn>,
}

/// The outcome of an ensemble.
#[derive(Debug, Clone, PartialEq)]
pub struct EnsembleResult {
    /// The model's description (names for the writers).
    pub info: Arc<ModelInfo>,
    /// Every member, in member order.
    pub members: Vec<MemberResult>,
    /// The quantiles reported, as probabilities.
    pub quantiles: Vec<f64>,
    /// Statistics of the final values.
    pub finals: FinalStats,
    /// Statistics over time, when the members share a grid.
    pub series: Option<Series>,
    /// Why there is no series, when there is none.
    pub no_series: Option<String>,
    /// What computed the members, when the caller says (the `physis` CLI: interpreted or
    /// compiled, in lanes or member by member); the summary's last key.
    pub backend: Option<String>,
}

impl EnsembleResult {
    /// Members per reason kind, in the order `when`, `limit`, `diverged`, `unstable`,
    /// `violated` (every kind listed, zeros included).
    pub fn reasons(&self) -> Vec<(ReasonKind, usize)> {
        let kinds = [
            ReasonKind::When,
            ReasonKind::Limit,
            ReasonKind::Diverged,
            ReasonKind::Unstable,
            ReasonKind::Violated,
        ];
        kinds
            .iter()
            .map(|&k| {
                let n = self
                    .members
                    .iter()
                    .filter(|m| m.end.reason.kind == k)
                    .count();
                (k, n)
            })
            .collect()
    }

    /// Members left out of the statistics (non-finite final values).
    pub fn excluded(&self) -> usize {
        self.members.len() - self.finals.n
    }

    /// The series, or why there is none.
    pub fn series(&self) -> Result<&Series, EnsembleError> {
        self.series.as_ref().ok_or_else(|| EnsembleError::NoSeries {
            why: self.no_series.clone().unwrap_or_default(),
        })
    }
}

/// Gathers the members' outcomes (in member order) into the result.
pub(crate) fn assemble(
    info: Arc<ModelInfo>,
    outs: Vec<MemberOut>,
    quantiles: &[f64],
    grid: Option<GridSpec>,
) -> EnsembleResult {
    let no_series = match grid {
        _ if info.observes.is_empty() => Some("the model observes nothing".to_owned()),
        None => Some(
            "an adaptive scheme without `record every` samples at its own steps; \
             set a record interval (or a fixed step) to compare members over time"
                .to_owned(),
        ),
        Some(_) => outs.iter().find(|o| !o.on_grid).map(|o| {
            format!(
                "member {} ({}) samples on another grid than member 0",
                o.result.index, o.result.params
            )
        }),
    };
    let series = match (grid, &no_series) {
        (Some(g), None) => Some(series(&info, &outs, quantiles, g)),
        _ => None,
    };
    let members: Vec<MemberResult> = outs.into_iter().map(|o| o.result).collect();
    let finals = finals(&info, &members, quantiles);
    EnsembleResult {
        info,
        members,
        quantiles: quantiles.to_vec(),
        finals,
        series,
        no_series,
        backend: None,
    }
}

fn finals(info: &ModelInfo, members: &[MemberResult], quantiles: &[f64]) -> FinalStats {
    let kept: Vec<&RunEnd> = members
        .iter()
        .filter(|m| m.finite() && m.end.state.len() == info.dim)
        .map(|m| &m.end)
        .collect();
    let mut buf = Vec::with_capacity(kept.len());
    let mut stat = |get: &dyn Fn(&RunEnd) -> f64| {
        buf.clear();
        buf.extend(kept.iter().map(|e| get(e)));
        Moments::of(&mut buf, quantiles)
    };
    let t = stat(&|e| e.t);
    let state = (0..info.dim).map(|j| stat(&|e| e.state[j])).collect();
    let nobs = info.observes.len();
    let observe = (0..nobs)
        .map(|j| stat(&|e| e.observe.get(j).copied().unwrap_or(f64::NAN)))
        .collect();
    FinalStats {
        n: kept.len(),
        t,
        state,
        observe,
    }
}

/// Row `k` of a member, if it reached grid point `k`.
fn row(out: &MemberOut, k: u64, nobs: usize) -> Option<&[f64]> {
    // Usually every point is there, so position k holds index k.
    let j = match out.ks.get(k as usize) {
        Some(&kk) if kk == k => k as usize,
        _ => out.ks.binary_search(&k).ok()?,
    };
    out.rows.get(j * nobs..(j + 1) * nobs)
}

fn series(info: &ModelInfo, outs: &[MemberOut], quantiles: &[f64], grid: GridSpec) -> Series {
    let nobs = info.observes.len();
    let len = outs
        .iter()
        .filter_map(|o| o.ks.last())
        .max()
        .map_or(0, |&k| k + 1);
    // Per grid time: the count and one Moments per observe (independent, so in parallel;
    // the order within each time is member order).
    let per_time: Vec<(usize, Vec<Moments>)> = (0..len)
        .into_par_iter()
        .map(|k| {
            let rows: Vec<&[f64]> = outs
                .iter()
                .filter_map(|o| row(o, k, nobs))
                .filter(|r| r.iter().all(|v| v.is_finite()))
                .collect();
            let mut buf = Vec::with_capacity(rows.len());
            let moments = (0..nobs)
                .map(|j| {
                    buf.clear();
                    buf.extend(rows.iter().map(|r| r[j]));
                    Moments::of(&mut buf, quantiles)
                })
                .collect();
            (rows.len(), moments)
        })
        .collect();
    let columns = info
        .observes
        .iter()
        .enumerate()
        .map(|(j, o)| SeriesColumn {
            name: o.name.clone(),
            mean: per_time.iter().map(|(_, m)| m[j].mean).collect(),
            std: per_time.iter().map(|(_, m)| m[j].std).collect(),
            quantiles: (0..quantiles.len())
                .map(|q| per_time.iter().map(|(_, m)| m[j].quantiles[q]).collect())
                .collect(),
        })
        .collect();
    Series {
        record: grid.kind == GridKind::Record,
        every: grid.every,
        t: (0..len).map(|k| grid.time(k)).collect(),
        n: per_time.iter().map(|(n, _)| *n).collect(),
        columns,
    }
}
