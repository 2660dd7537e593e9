//! Standard normals drawn ahead for a batch of runs in lockstep.

use crate::driver::Simulation;
use crate::model::Model;

/// Standard normals a run draws ahead at a time in lockstep.
const NOISE_BLOCK: usize = 64;

/// Standard normals drawn ahead for every lane, a block of steps at a time: each run's own
/// sequence, drawn while its generator is hot, then used a row per step. Normals left
/// when the lanes hand their runs back to the driver are put back into each run's
/// generator, so its sequence goes on exactly as if it had drawn step by step.
pub(super) struct Normals {
    width: usize,
    noises: usize,
    /// Row `j·noises + k` holds draw `j` of noise `k` for every lane.
    rows: Vec<f64>,
    /// Draws per lane in `rows`, and the next unused one.
    len: usize,
    next: usize,
}

impl Normals {
    pub(super) fn new(width: usize, noises: usize) -> Self {
        Self {
            width,
            noises,
            rows: vec![0.0; NOISE_BLOCK * noises * width],
            len: 0,
            next: 0,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.next >= self.len
    }

    /// Draws the next `steps` steps' normals (at most a block; at least one step) for every
    /// active lane. Asking for no more steps than the lanes will take keeps a run from
    /// drawing normals it only hands back at its end.
    pub(super) fn refill<M: Model>(
        &mut self,
        sims: &mut [Box<Simulation<M>>],
        active: &[bool],
        steps: usize,
    ) {
        let w = self.width;
        let steps = steps.clamp(1, NOISE_BLOCK);
        let rows = &mut self.rows[..steps * self.noises * w];
        // A lane's draws made in one tight loop, a block at a time, then spread over the
        // rows (which are in draw order).
        let mut own = [0.0; NOISE_BLOCK];
        for (l, sim) in sims.iter_mut().enumerate() {
            if !active[l] {
                continue;
            }
            for chunk in rows.chunks_mut(NOISE_BLOCK * w) {
                let own = &mut own[..chunk.len() / w];
                sim.noise.fill_standard(own);
                for (row, z) in chunk.chunks_exact_mut(w).zip(own.iter()) {
                    row[l] = *z;
                }
            }
        }
        self.len = steps;
        self.next = 0;
    }

    /// This step's increments, scaled by `√h` as `Noise::increments` scales them.
    pub(super) fn increments(&mut self, h: f64, dw: &mut [f64]) {
        let s = h.sqrt();
        let w = self.width;
        let row = self.next * self.noises * w;
        for (d, z) in dw.iter_mut().zip(&self.rows[row..row + self.noises * w]) {
            *d = s * z;
        }
        self.next += 1;
    }

    pub(super) fn hand_back<M: Model>(&mut self, sims: &mut [Box<Simulation<M>>], active: &[bool]) {
        if self.is_empty() {
            return;
        }
        let w = self.width;
        let from = self.next * self.noises;
        let to = self.len * self.noises;
        for (l, sim) in sims.iter_mut().enumerate() {
            if active[l] {
                sim.noise.unread((from..to).map(|r| self.rows[r * w + l]));
            }
        }
        self.len = 0;
        self.next = 0;
    }
}
