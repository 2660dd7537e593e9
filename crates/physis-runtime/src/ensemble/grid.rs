//! The sample grid members share, and the sink that keeps each member's samples on it.
//!
//! Members can be compared time by time only where they all sample: on the `record every`
//! grid `t0 + k·Δ`, or, with no record interval, on a fixed scheme's step grid `t0 + k·h`
//! (the driver lands every step on that grid, events aside). Samples off the grid (event
//! samples, a stop located between grid points) are left out of the series; they still
//! count in the final statistics.

use crate::driver::Simulation;
use crate::model::Model;
use crate::sample::{Sample, SampleKind, SampleSink};

use super::MemberResult;

/// Which grid a member samples on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum GridKind {
    /// `record every Δ`.
    Record,
    /// Every step of a fixed-step scheme.
    Step,
}

/// The grid `t0 + k·every`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GridSpec {
    pub kind: GridKind,
    pub t0: f64,
    pub every: f64,
}

impl GridSpec {
    /// The grid a run will sample on, if it has one (an adaptive run without a record
    /// interval samples at its own accepted steps: no shared grid).
    pub fn of<M: Model>(sim: &Simulation<M>) -> Option<Self> {
        let cfg = sim.config();
        if let Some(every) = cfg.record_every {
            return Some(Self {
                kind: GridKind::Record,
                t0: cfg.t0,
                every,
            });
        }
        match cfg.step {
            Some(every) if !sim.info().scheme.adaptive => Some(Self {
                kind: GridKind::Step,
                t0: cfg.t0,
                every,
            }),
            _ => None,
        }
    }

    /// Time of grid point `k`, computed as the driver computes it.
    pub fn time(&self, k: u64) -> f64 {
        self.t0 + k as f64 * self.every
    }

    /// The index of `t` if it is exactly a grid time.
    fn index(&self, t: f64) -> Option<u64> {
        let k = ((t - self.t0) / self.every).round();
        // 2^53: past it grid indices are no longer exact.
        if !(0.0..=9.007_199_254_740_992e15).contains(&k) {
            return None;
        }
        let k = k as u64;
        (self.time(k) == t).then_some(k)
    }
}

/// One member's outcome: its result, and its observes at the grid points it reached.
#[derive(Debug)]
pub(crate) struct MemberOut {
    pub result: MemberResult,
    /// Grid indices reached, ascending.
    pub ks: Vec<u64>,
    /// Observes at those points, `ks.len() × observes` row-major.
    pub rows: Vec<f64>,
    /// False when the member sampled on another grid than the first member.
    pub on_grid: bool,
}

/// Keeps the observes of samples that fall on the grid.
#[derive(Debug)]
pub(crate) struct GridSink {
    grid: Option<GridSpec>,
    ks: Vec<u64>,
    rows: Vec<f64>,
}

impl GridSink {
    /// A sink collecting on `grid` (nothing when `None`).
    pub fn new(grid: Option<GridSpec>) -> Self {
        Self {
            grid,
            ks: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Whether this sink keeps samples (it has a grid).
    pub fn collects(&self) -> bool {
        self.grid.is_some()
    }

    pub fn finish(self, result: MemberResult, on_grid: bool) -> MemberOut {
        MemberOut {
            result,
            ks: self.ks,
            rows: self.rows,
            on_grid,
        }
    }
}

impl SampleSink for GridSink {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        let Some(grid) = self.grid else {
            return Ok(());
        };
        // Event samples sit at event times, not grid times (and come in pairs).
        if matches!(s.kind, SampleKind::BeforeEvent | SampleKind::AfterEvent) {
            return Ok(());
        }
        if let Some(k) = grid.index(s.t)
            && self.ks.last().is_none_or(|&last| k > last)
        {
            self.ks.push(k);
            self.rows.extend_from_slice(s.observe);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_exact_grid_times_are_indexed() {
        let g = GridSpec {
            kind: GridKind::Record,
            t0: 0.5,
            every: 0.1,
        };
        assert_eq!(g.index(0.5), Some(0));
        assert_eq!(g.index(g.time(7)), Some(7));
        assert_eq!(g.index(g.time(7) + 1e-12), None);
        assert_eq!(g.index(0.4), None);
        assert_eq!(g.index(f64::NAN), None);
    }
}
