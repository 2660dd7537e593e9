//! Margins known ahead. When every lane's atoms are the same function of `t` (time-only,
//! reading no parameter that differs between lanes), one kernel call gives the margins
//! of a whole stretch of coming grid steps, and the steps of that stretch that keep every
//! atom's side need no check of their own: the per-step margin evaluation and side test
//! were a fifth of a light model's lockstep time.

use crate::driver::step::grid_target;
use crate::info::ModelInfo;
use crate::lanes::LaneKernel;

/// The coming steps of a batch and what their margins say.
pub(super) struct Ahead {
    /// False once the kernel has declined: margins are then checked step by step.
    on: bool,
    width: usize,
    /// Grid targets `(k, t0 + k·h)` of the coming steps, in order.
    targets: Vec<(u64, f64)>,
    /// The current time, then the targets' times (what the kernel is asked about).
    times: Vec<f64>,
    /// Margins at `times`: atom `a` at time `j` at `a·width + j`.
    margins: Vec<f64>,
    /// Steps of `targets` taken so far.
    next: usize,
    /// How many leading steps of `targets` keep every atom's side.
    quiet: usize,
    /// The lanes' own margin rows lag behind: they are column `next` of `margins`.
    stale: bool,
}

impl Ahead {
    pub(super) fn new(width: usize, atoms: usize) -> Self {
        Self {
            on: true,
            width,
            targets: Vec::with_capacity(width),
            times: Vec::with_capacity(width),
            margins: vec![0.0; atoms * width],
            next: 0,
            quiet: 0,
            stale: false,
        }
    }

    /// Whether the step from `(t, grid_k)` to grid point `(k, tb)` keeps every atom's
    /// side, planning the next stretch when needed; `None` when the kernel cannot say
    /// (the caller then evaluates this step's margins itself).
    pub(super) fn quiet(
        &mut self,
        kernel: &mut dyn LaneKernel,
        info: &ModelInfo,
        t0: f64,
        hf: f64,
        (t, grid_k): (f64, u64),
        (k, tb): (u64, f64),
    ) -> Option<bool> {
        if !self.on {
            return None;
        }
        let planned = self
            .targets
            .get(self.next)
            .is_some_and(|&(pk, pt)| pk == k && pt.to_bits() == tb.to_bits());
        if !planned && !self.plan(kernel, info, t0, hf, t, grid_k) {
            return None;
        }
        Some(self.next < self.quiet)
    }

    /// Plans the stretch starting at `(t, grid_k)`: its grid targets, as `grid_target`
    /// gives them step after step, and their margins. False when the kernel declines.
    fn plan(
        &mut self,
        kernel: &mut dyn LaneKernel,
        info: &ModelInfo,
        t0: f64,
        hf: f64,
        mut t: f64,
        mut grid_k: u64,
    ) -> bool {
        // Lanes' rows lagging behind stay right: column 0 is the margins at `t` again.
        self.targets.clear();
        self.times.clear();
        self.times.push(t);
        while self.times.len() < self.width {
            let (k, tb) = grid_target(t0, hf, t, grid_k);
            self.targets.push((k, tb));
            self.times.push(tb);
            (t, grid_k) = (tb, k + 1);
        }
        if !kernel.margins_ahead(&self.times, &mut self.margins) {
            self.on = false;
            self.targets.clear();
            return false;
        }
        let w = self.width;
        let m = &self.margins;
        let sides_change = |j: usize| {
            info.atoms
                .iter()
                .enumerate()
                .any(|(a, atom)| atom.op.holds(m[a * w + j]) != atom.op.holds(m[a * w + j + 1]))
        };
        self.quiet = (0..self.targets.len())
            .find(|&j| sides_change(j))
            .unwrap_or(self.targets.len());
        self.next = 0;
        true
    }

    /// How many steps from here on are known to keep every side (`None`: not planned).
    pub(super) fn quiet_left(&self) -> Option<usize> {
        (self.on && self.next < self.targets.len()).then(|| self.quiet.saturating_sub(self.next))
    }

    /// The planned step was taken in lanes: the lanes' margins are now those at its end.
    pub(super) fn taken(&mut self) {
        self.next += 1;
        self.stale = true;
    }

    /// Brings the lanes' margin rows up to date (every lane: the margins are the same).
    pub(super) fn write_margins(&mut self, lanes: &mut [f64]) {
        if !self.stale {
            return;
        }
        let w = self.width;
        for (a, row) in lanes.chunks_exact_mut(w).enumerate() {
            row.fill(self.margins[a * w + self.next]);
        }
        self.stale = false;
    }

    /// Forgets the plan (the runs were stepped by their drivers).
    pub(super) fn clear(&mut self) {
        debug_assert!(
            !self.stale,
            "margins written back before the plan is dropped"
        );
        self.targets.clear();
        self.next = 0;
        self.quiet = 0;
    }
}
