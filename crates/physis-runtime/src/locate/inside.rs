//! Clauses that hold only strictly inside one probe bracket of a step.
//!
//! Probing the interpolant at a few points sees a clause whenever its truth differs at two
//! neighbouring probes. Two ways it can hold in between and nowhere else:
//!
//! - several of its atoms change side inside one bracket (`r > 8 m ∧ v < 0` near an apex):
//!   each changing atom's root is located on its own margin, and a probe is added just
//!   past each root, so every stretch on which the atoms keep their sides is probed;
//! - one atom turns and returns between probes (a height that peaks above 8 m between
//!   two probes below it): where its margin's probe values turn round, the extremum of a
//!   parabola through them is estimated, and when it could reach the other side a
//!   golden-section search for the extremum adds the first point found on that side.
//!
//! Both only look at atoms; a clause is a function of its atoms' sides, so once every
//! side change has a probe on each side, the scan's brackets see every clause change.

use super::{Locator, WIDTH};
use crate::hermite::Segment;
use crate::info::ModelInfo;
use crate::model::Model;

/// Golden-section iterations at most (the bracket shrinks by 0.618 each).
const GOLDEN_STEPS: usize = 80;

impl Locator {
    /// Adds probes where a clause may hold only inside a bracket (see the module), and
    /// recomputes the table over the new probe set. The table must hold the margins at
    /// the current probes.
    pub(super) fn probe_inside<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        evals: &mut u64,
    ) {
        if info.stops.is_empty() && info.events.is_empty() {
            return;
        }
        let tol = WIDTH * f64::EPSILON * seg.ta.abs().max(seg.tb.abs()).max(seg.tb - seg.ta);
        self.extra.clear();
        self.turning_atoms(model, info, seg, tol, evals);
        self.merge_extra(model, info, seg, evals);
        self.extra.clear();
        self.crowded_brackets(model, info, seg, tol, evals);
        self.merge_extra(model, info, seg, evals);
    }

    /// Points where an atom reaches its other side between probes on one side.
    fn turning_atoms<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        tol: f64,
        evals: &mut u64,
    ) {
        let na = self.natoms;
        for (k, atom) in info.atoms.iter().enumerate() {
            let op = atom.op;
            for j in 1..self.pts.saturating_sub(1) {
                let g = |r: usize| self.table[r * na + k];
                let (g0, g1, g2) = (g(j - 1), g(j), g(j + 1));
                let side = op.holds(g1);
                if op.holds(g0) != side || op.holds(g2) != side || (g1 - g0) * (g2 - g1) >= 0.0 {
                    continue;
                }
                let (t0, t1, t2) = (self.times[j - 1], self.times[j], self.times[j + 1]);
                // Parabola through the three: g0 + d1(t − t0) + a(t − t0)(t − t1).
                let d1 = (g1 - g0) / (t1 - t0);
                let a = ((g2 - g1) / (t2 - t1) - d1) / (t2 - t0);
                let tv = 0.5 * (t0 + t1) - d1 / (2.0 * a);
                let gv = g0 + d1 * (tv - t0) + a * (tv - t0) * (tv - t1);
                let plausible = op.holds(gv) != side || gv.abs() <= 4.0 * (gv - g1).abs();
                if !plausible || !gv.is_finite() {
                    continue;
                }
                let peak = g1 > g0;
                if let Some(t) = self.golden(model, info, seg, k, (t0, t2), peak, side, tol, evals)
                {
                    self.extra.push(t);
                }
            }
        }
    }

    /// Golden-section search of atom `k`'s margin on `(lo, hi)` for its maximum (`peak`) or
    /// minimum, stopping at the first point where the atom is off `side`.
    #[allow(clippy::too_many_arguments)]
    fn golden<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        k: usize,
        (mut lo, mut hi): (f64, f64),
        peak: bool,
        side: bool,
        tol: f64,
        evals: &mut u64,
    ) -> Option<f64> {
        const R: f64 = 0.618_033_988_749_894_8;
        let op = info.atoms[k].op;
        let sign = if peak { 1.0 } else { -1.0 };
        let mut at = |lc: &mut Self, t: f64| -> (f64, bool) {
            Self::margins_at(&mut lc.y, &mut lc.d, model, info, seg, t, &mut lc.m, evals);
            (sign * lc.m[k], op.holds(lc.m[k]) != side)
        };
        let mut c = hi - R * (hi - lo);
        let mut d = lo + R * (hi - lo);
        let (mut fc, off) = at(self, c);
        if off {
            return Some(c);
        }
        let (mut fd, off) = at(self, d);
        if off {
            return Some(d);
        }
        for _ in 0..GOLDEN_STEPS {
            if hi - lo <= tol {
                break;
            }
            if fc > fd {
                (hi, d, fd) = (d, c, fc);
                c = hi - R * (hi - lo);
                let (f, off) = at(self, c);
                if off {
                    return Some(c);
                }
                fc = f;
            } else {
                (lo, c, fc) = (c, d, fd);
                d = lo + R * (hi - lo);
                let (f, off) = at(self, d);
                if off {
                    return Some(d);
                }
                fd = f;
            }
        }
        None
    }

    /// In a bracket where two or more atoms change side, a point just past each one's root.
    fn crowded_brackets<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        tol: f64,
        evals: &mut u64,
    ) {
        let na = self.natoms;
        for j in 1..self.pts {
            let changed = |lc: &Self, k: usize| {
                let op = info.atoms[k].op;
                op.holds(lc.table[(j - 1) * na + k]) != op.holds(lc.table[j * na + k])
            };
            if (0..na).filter(|&k| changed(self, k)).count() < 2 {
                continue;
            }
            for k in 0..na {
                if !changed(self, k) {
                    continue;
                }
                let (g_lo, g_hi) = (self.table[(j - 1) * na + k], self.table[j * na + k]);
                let t = self.atom_root(model, info, seg, k, j, (g_lo, g_hi), tol, evals);
                self.extra.push(t);
            }
        }
    }

    /// The point just past atom `k`'s change of side in bracket `j` (on the side it has at
    /// the bracket's right end), by Illinois regula falsi on its margin.
    #[allow(clippy::too_many_arguments)]
    fn atom_root<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        k: usize,
        j: usize,
        (mut glo, mut ghi): (f64, f64),
        tol: f64,
        evals: &mut u64,
    ) -> f64 {
        let op = info.atoms[k].op;
        let right = op.holds(ghi);
        let (mut lo, mut hi) = (self.times[j - 1], self.times[j]);
        let mut last = 0i8;
        for _ in 0..200 {
            let w = hi - lo;
            if w <= tol {
                break;
            }
            let den = ghi - glo;
            let mut c = if den != 0.0 && den.is_finite() {
                lo - glo * w / den
            } else {
                lo + 0.5 * w
            };
            c = c.clamp(lo + 0.25 * tol, hi - 0.25 * tol);
            if !(c > lo && c < hi) {
                c = lo + 0.5 * w;
            }
            Self::margins_at(
                &mut self.y,
                &mut self.d,
                model,
                info,
                seg,
                c,
                &mut self.m,
                evals,
            );
            let g = self.m[k];
            if op.holds(g) == right {
                (hi, ghi) = (c, g);
                if last == 1 {
                    glo *= 0.5;
                }
                last = 1;
            } else {
                (lo, glo) = (c, g);
                if last == -1 {
                    ghi *= 0.5;
                }
                last = -1;
            }
        }
        hi
    }

    /// Adds the points in `extra` to the probe set (kept sorted, ends unchanged) and
    /// recomputes the table's rows past the first.
    fn merge_extra<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        evals: &mut u64,
    ) {
        let (ta, tb) = (seg.ta, seg.tb);
        self.extra.retain(|&t| t > ta && t < tb);
        if self.extra.is_empty() {
            return;
        }
        let na = self.natoms;
        let old = self.pts;
        let pts = old + self.extra.len();
        if self.times.len() < pts {
            self.times.resize(pts, 0.0);
            self.table.resize(pts * na, 0.0);
        }
        self.times[old..pts].copy_from_slice(&self.extra);
        self.times[..pts].sort_by(f64::total_cmp);
        // Points closer than the scan's tie width stand for one instant: the latest is kept,
        // so clauses changing together stay in one bracket and fire together.
        let close = 2.0 * WIDTH * f64::EPSILON * ta.abs().max(tb.abs()).max(tb - ta);
        let mut n = 1;
        for j in 1..pts {
            let t = self.times[j];
            if n > 1 && t - self.times[n - 1] <= close {
                self.times[n - 1] = t;
            } else if t > self.times[n - 1] {
                self.times[n] = t;
                n += 1;
            }
        }
        self.pts = n;
        for j in 1..n {
            let (tau, row) = (self.times[j], &mut self.table[j * na..(j + 1) * na]);
            Self::margins_at(&mut self.y, &mut self.d, model, info, seg, tau, row, evals);
        }
    }
}
