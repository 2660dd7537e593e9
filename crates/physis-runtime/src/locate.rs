//! Finding the earliest time in a step at which a stop holds or an event turns true.
//!
//! Each step's interpolant is sampled at [`PROBES`] evenly spaced interior points besides
//! its ends, so a condition that turns true and back inside one step (a dip-and-return) is
//! still seen when it lasts longer than about a fifth of the step. Right after an event
//! whose condition still holds (a reset that leaves `y < 0` true, say), the condition may
//! turn false and true again very soon; that step is also probed at `ta + h·2⁻ᵏ` for
//! k = [`GEOMETRIC`] … 3, which sees such a short excursion at any scale down to `ε·h`,
//! so the next crossing is not missed. The first bracket in
//! which a clause changes is then narrowed to a few ulps of `t`: by Illinois regula falsi
//! on the margin of the one atom that decides it (bisection when several do), always
//! keeping the clause false at the left end and true at the right, which is the time
//! reported. So a stop is located where its condition first holds, not one step later.
//! A clause that holds only strictly between two probes is found by its atoms' own roots
//! and turning points (`locate/inside.rs`). When every atom is affine in `t` and the state,
//! each one's margin along the step is a polynomial known from a few margin evaluations,
//! and the probes go where those polynomials change sign instead (`locate/affine.rs`).

mod affine;
mod inside;

use crate::hermite::Segment;
use crate::info::{Cond, ModelInfo};
use crate::model::Model;

/// Interior probe points per step.
pub(crate) const PROBES: usize = 4;
/// Finest geometric probe after an event, `h·2^-GEOMETRIC`.
pub(crate) const GEOMETRIC: usize = 52;
/// Most probe points in one scan (ends, geometric, interior).
const MAX_POINTS: usize = 2 * PROBES + 2 + GEOMETRIC - 2;
/// Width of a located bracket, in units of `ε·max(|t|, h)`.
const WIDTH: f64 = 4.0;

/// What was found in a step: the earliest time and which clauses hold there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Found {
    pub t: f64,
    /// First stop (declaration order) located at `t`, if any.
    pub stop: Option<usize>,
    /// True when some event fires at `t` (see [`Locator::firing`]).
    pub events: bool,
}

/// Buffers for scanning and refining.
#[derive(Debug)]
pub(crate) struct Locator {
    natoms: usize,
    /// Probe points used by the last scan.
    pts: usize,
    times: Vec<f64>,
    table: Vec<f64>,
    y: Vec<f64>,
    d: Vec<f64>,
    m: Vec<f64>,
    used: Vec<usize>,
    stop_j: Vec<usize>,
    event_j: Vec<usize>,
    stop_t: Vec<f64>,
    event_t: Vec<f64>,
    /// Probe points added inside brackets (`inside.rs`).
    extra: Vec<f64>,
    /// Events firing at the located time, by index.
    pub firing: Vec<bool>,
    /// Width within which clauses of the last scan counted as simultaneous.
    pub tie: f64,
    /// Every atom affine in `t` and the state (`affine.rs` applies).
    affine: bool,
    /// Each atom's polynomial along the segment of the last scan (`affine.rs`).
    poly: Vec<affine::Bernstein>,
    /// `poly` belongs to the segment being scanned.
    poly_ok: bool,
    /// Times where some atom's polynomial changes sign, ascending.
    roots: Vec<f64>,
    /// Margins scratch for the polynomials.
    m2: Vec<f64>,
}

impl Locator {
    pub fn new(info: &ModelInfo) -> Self {
        let natoms = info.atoms.len();
        Self {
            natoms,
            pts: PROBES + 2,
            times: vec![0.0; MAX_POINTS],
            table: vec![0.0; MAX_POINTS * natoms],
            y: vec![0.0; info.dim],
            d: vec![0.0; info.dim],
            m: vec![0.0; natoms],
            used: Vec::new(),
            stop_j: vec![usize::MAX; info.stops.len()],
            event_j: vec![usize::MAX; info.events.len()],
            stop_t: vec![f64::NAN; info.stops.len()],
            event_t: vec![f64::NAN; info.events.len()],
            extra: Vec::new(),
            firing: vec![false; info.events.len()],
            tie: 0.0,
            affine: affine::applies(info),
            poly: vec![[0.0; 5]; natoms],
            poly_ok: false,
            roots: Vec::new(),
            m2: vec![0.0; natoms],
        }
    }

    /// Back to the state `Locator::new` gives, keeping the memory.
    pub fn reset(&mut self) {
        let Self {
            natoms: _,
            pts,
            times,
            table,
            y,
            d,
            m,
            used,
            stop_j,
            event_j,
            stop_t,
            event_t,
            extra,
            firing,
            tie,
            affine: _,
            poly,
            poly_ok,
            roots,
            m2,
        } = self;
        *pts = PROBES + 2;
        for v in [times, table, y, d, m, m2] {
            v.fill(0.0);
        }
        poly.fill([0.0; 5]);
        *poly_ok = false;
        roots.clear();
        used.clear();
        stop_j.fill(usize::MAX);
        event_j.fill(usize::MAX);
        stop_t.fill(f64::NAN);
        event_t.fill(f64::NAN);
        extra.clear();
        firing.fill(false);
        *tie = 0.0;
    }

    /// Margins at `tau` on the segment into `out` (rate evaluated at interior points when
    /// conditions read derivatives, else the interpolant's slope).
    #[allow(clippy::too_many_arguments)]
    fn margins_at<M: Model + ?Sized>(
        y: &mut [f64],
        d: &mut [f64],
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        tau: f64,
        out: &mut [f64],
        evals: &mut u64,
    ) {
        seg.state(tau, y);
        if info.conditions_read_rate && tau != seg.ta && tau != seg.tb {
            model.rate(tau, y, d);
            *evals += 1;
        } else {
            seg.slope(tau, d);
        }
        model.margins(tau, y, d, out);
    }

    fn row(&self, j: usize) -> &[f64] {
        &self.table[j * self.natoms..(j + 1) * self.natoms]
    }

    /// Margins at the end of the segment (valid after [`Locator::scan`]).
    pub fn end_margins(&self) -> &[f64] {
        self.row(self.pts - 1)
    }

    /// Scans the segment given the margins at its start, and locates the earliest clause
    /// change. `None` when nothing holds or turns true in `(ta, tb]`. `dense_start` adds
    /// the geometric probes near `ta`.
    pub fn scan<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        start: &[f64],
        dense_start: bool,
        evals: &mut u64,
    ) -> Option<Found> {
        let na = self.natoms;
        let h = seg.tb - seg.ta;
        let mut pts = 0;
        self.times[pts] = seg.ta;
        pts += 1;
        let time_only = info.atoms.iter().all(|a| a.time_only);
        // Affine atoms: the polynomials show every change of side, at any scale.
        self.poly_ok = false;
        let polynomial = self.affine && !time_only && self.affine_roots(model, seg, start);
        if dense_start && !polynomial {
            for k in (3..=GEOMETRIC).rev() {
                let tau = seg.ta + h * 0.5f64.powi(k as i32);
                if tau > self.times[pts - 1] {
                    self.times[pts] = tau;
                    pts += 1;
                }
            }
        }
        if polynomial {
            let need = pts + 2 * self.roots.len() + 2;
            if self.times.len() < need {
                self.times.resize(need, 0.0);
                self.table.resize(need * na, 0.0);
            }
            for i in 0..self.roots.len() {
                let r = self.roots[i];
                let mid = 0.5 * (self.times[pts - 1] + r);
                for tau in [mid, r] {
                    if tau > self.times[pts - 1] {
                        self.times[pts] = tau;
                        pts += 1;
                    }
                }
            }
            if !self.roots.is_empty() {
                let mid = 0.5 * (self.times[pts - 1] + seg.tb);
                if mid > self.times[pts - 1] && mid < seg.tb {
                    self.times[pts] = mid;
                    pts += 1;
                }
            }
        } else if time_only {
            // Affine in t: each atom changes at most once, at its root, so the condition is
            // constant between roots; probe each root and each gap's midpoint.
            Self::margins_at(
                &mut self.y,
                &mut self.d,
                model,
                info,
                seg,
                seg.tb,
                &mut self.m,
                evals,
            );
            let mut roots = [f64::NAN; PROBES];
            let mut nr = 0;
            for (k, a) in info.atoms.iter().enumerate() {
                let (g0, g1) = (start[k], self.m[k]);
                if nr < PROBES && a.op.holds(g0) != a.op.holds(g1) && g1 != g0 {
                    let r = seg.ta + h * (g0 / (g0 - g1));
                    if r > seg.ta && r < seg.tb {
                        roots[nr] = r;
                        nr += 1;
                    }
                }
            }
            let roots = &mut roots[..nr];
            roots.sort_by(f64::total_cmp);
            for &r in roots.iter() {
                let mid = 0.5 * (self.times[pts - 1] + r);
                for tau in [mid, r] {
                    if tau > self.times[pts - 1] {
                        self.times[pts] = tau;
                        pts += 1;
                    }
                }
            }
            if nr > 0 {
                self.times[pts] = 0.5 * (self.times[pts - 1] + seg.tb);
                pts += 1;
            }
        } else {
            for j in 1..=PROBES {
                self.times[pts] = seg.ta + h * (j as f64) / ((PROBES + 1) as f64);
                pts += 1;
            }
        }
        self.times[pts] = seg.tb;
        pts += 1;
        self.pts = pts;
        self.table[..na].copy_from_slice(start);
        for j in 1..pts {
            let (tau, row) = (self.times[j], &mut self.table[j * na..(j + 1) * na]);
            if polynomial && j == pts - 1 {
                // The end's margins, already evaluated for the polynomials.
                row.copy_from_slice(&self.m);
                continue;
            }
            Self::margins_at(&mut self.y, &mut self.d, model, info, seg, tau, row, evals);
        }
        if info.stops.is_empty() && info.events.is_empty() {
            return None;
        }
        if !time_only && !polynomial {
            self.probe_inside(model, info, seg, evals);
        }
        let pts = self.pts;
        // First bracket index per clause (usize::MAX: none).
        let mut jmin = usize::MAX;
        for (i, c) in info.stops.iter().enumerate() {
            let first = (1..pts).find(|&j| c.cond.eval(&info.atoms, self.row(j)));
            self.stop_j[i] = first.unwrap_or(usize::MAX);
            jmin = jmin.min(self.stop_j[i]);
        }
        for (i, c) in info.events.iter().enumerate() {
            let first = (1..pts).find(|&j| {
                c.cond.eval(&info.atoms, self.row(j)) && !c.cond.eval(&info.atoms, self.row(j - 1))
            });
            self.event_j[i] = first.unwrap_or(usize::MAX);
            jmin = jmin.min(self.event_j[i]);
        }
        if jmin == usize::MAX {
            return None;
        }
        let (lo, hi) = (self.times[jmin - 1], self.times[jmin]);
        let mut best = f64::INFINITY;
        for (i, c) in info.stops.iter().enumerate() {
            self.stop_t[i] = f64::NAN;
            if self.stop_j[i] == jmin {
                let t = self.refine(model, info, seg, &c.cond, jmin, lo, hi, evals);
                self.stop_t[i] = t;
                best = best.min(t);
            }
        }
        for (i, c) in info.events.iter().enumerate() {
            self.event_t[i] = f64::NAN;
            if self.event_j[i] == jmin {
                let t = self.refine(model, info, seg, &c.cond, jmin, lo, hi, evals);
                self.event_t[i] = t;
                best = best.min(t);
            }
        }
        // Clauses within a bracket width of the earliest act at the same instant.
        self.tie = WIDTH * f64::EPSILON * best.abs().max(h);
        let tie = best + self.tie;
        let stop = self.stop_t.iter().position(|&t| t <= tie);
        let mut events = false;
        for (f, &t) in self.firing.iter_mut().zip(&self.event_t) {
            *f = t <= tie;
            events |= *f;
        }
        Some(Found {
            t: best,
            stop,
            events,
        })
    }

    /// Narrows `(lo, hi]` (condition false at `lo`, true at `hi`) to a few ulps; returns `hi`.
    #[allow(clippy::too_many_arguments)]
    fn refine<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        info: &ModelInfo,
        seg: &Segment<'_>,
        cond: &Cond,
        j: usize,
        mut lo: f64,
        mut hi: f64,
        evals: &mut u64,
    ) -> f64 {
        let na = self.natoms;
        let (mlo, mhi) = (
            &self.table[(j - 1) * na..j * na],
            &self.table[j * na..(j + 1) * na],
        );
        // The one atom whose truth differs across the bracket drives the secant steps.
        self.used.clear();
        cond.atoms_into(&mut self.used);
        let differs = |k: usize| info.atoms[k].op.holds(mlo[k]) != info.atoms[k].op.holds(mhi[k]);
        let mut decisive = None;
        for &k in &self.used {
            if differs(k) {
                match decisive {
                    None => decisive = Some(k),
                    Some(p) if p == k => {}
                    Some(_) => {
                        decisive = None;
                        break;
                    }
                }
            }
        }
        let (mut glo, mut ghi) = decisive.map_or((0.0, 0.0), |k| (mlo[k], mhi[k]));
        let tol = WIDTH * f64::EPSILON * lo.abs().max(hi.abs()).max(seg.tb - seg.ta);
        let root = match decisive {
            Some(k) if self.poly_ok => self.poly_root(k, seg, lo, hi),
            _ => None,
        };
        // The condition and the deciding atom's margin at `c`.
        let mut probe = |c: f64| {
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
            (
                cond.eval(&info.atoms, &self.m),
                decisive.map_or(0.0, |k| self.m[k]),
            )
        };
        if let Some(r) = root {
            // The deciding atom's polynomial root, confirmed by the model's margins half
            // a width to each side (`affine.rs`); a side not confirmed still narrows.
            for c in [r + 0.5 * tol, r - 0.5 * tol] {
                if !(c > lo && c < hi) {
                    continue;
                }
                let (holds, g) = probe(c);
                if holds {
                    (hi, ghi) = (c, g);
                } else {
                    (lo, glo) = (c, g);
                }
            }
        }
        let mut side = 0i8;
        let mut bisect_next = false;
        for _ in 0..400 {
            let w = hi - lo;
            if w <= tol {
                break;
            }
            let mid = lo + 0.5 * w;
            let mut c = mid;
            if let (Some(_), false) = (decisive, bisect_next) {
                let den = ghi - glo;
                if den != 0.0 && den.is_finite() {
                    c = lo - glo * w / den;
                }
            }
            // Keep clear of the ends so the bracket always closes (Brent's device).
            c = c.clamp(lo + 0.5 * tol, hi - 0.5 * tol);
            if !(c > lo && c < hi) {
                c = mid;
            }
            let (holds, g) = probe(c);
            if holds {
                hi = c;
                ghi = g;
                if side == 1 {
                    glo *= 0.5;
                }
                side = 1;
            } else {
                lo = c;
                glo = g;
                if side == -1 {
                    ghi *= 0.5;
                }
                side = -1;
            }
            bisect_next = hi - lo > 0.5 * w;
        }
        hi
    }
}
