//! Clauses whose atoms are all affine in `t` and the state ([`crate::AtomInfo::affine`]).
//!
//! Along a step the state is the dense output: the cubic Hermite interpolant of the step's
//! ends, plus `θ²(1−θ)²·q` when the scheme has a continuous extension. An affine margin
//! `g(t, y) = a·y + c·t + d` maps it to a polynomial in `θ` of degree 3 (or 4), whose
//! Bernstein coefficients come from four values: `g` at both ends, and `h·ġ` at both ends,
//! which for an affine `g` are the differences `g(ta + h, ya + h·fa) − g(ta, ya)` and
//! `g(tb, yb) − g(ta, yb − h·fb)` (plus `g(ta, ya + q) − g(ta, ya)` for `q`). So three or
//! four margin evaluations per step replace the evenly spaced probes:
//!
//! - all coefficients of one sign: the atom keeps its side over the whole step (the
//!   polynomial lies in their convex hull), and a step where no atom changes is seen from
//!   the end margins alone;
//! - otherwise the roots of each atom's polynomial in the step are found by subdividing
//!   its Bernstein form until each piece has one sign change (Descartes' rule), then
//!   regula falsi on that piece; the scan probes at each root and between roots, so every
//!   stretch where the atoms keep their sides has a probe;
//! - the bracket that decides a clause is narrowed to the polynomial's root: the model's
//!   margins at the root ± half the located width confirm it, so the bracket closes in two
//!   evaluations instead of an iteration (if they do not confirm it, as near a double
//!   root, the usual regula falsi takes over from the tighter bracket).
//!
//! Every decision about a clause is still taken on the model's margins at probe points:
//! the polynomials only choose where to probe.

use super::Locator;
use crate::hermite::Segment;
use crate::info::{Cmp, ModelInfo};
use crate::model::Model;

/// Subdivision depth at most (the piece is then narrower than `2⁻⁶⁰` of the step, finer
/// than the probes right after an event reach).
const MAX_DEPTH: u32 = 60;
/// Regula falsi iterations at most on a piece with one root.
const ROOT_STEPS: usize = 100;

/// True when the locator may take the polynomial path for this model: every atom affine
/// with an ordered comparison (`=` and `≠` hold only at single points, which probes at
/// rounded roots would miss), margins that read no rate, and not every atom time-only (those
/// have their own path).
pub(super) fn applies(info: &ModelInfo) -> bool {
    !info.atoms.is_empty()
        && !info.conditions_read_rate
        && !info.atoms.iter().all(|a| a.time_only)
        && info
            .atoms
            .iter()
            .all(|a| a.affine && matches!(a.op, Cmp::Lt | Cmp::Le | Cmp::Gt | Cmp::Ge))
}

/// Bernstein coefficients of degree 4 of one atom's margin along the step, in `θ ∈ [0, 1]`.
pub(super) type Bernstein = [f64; 5];

/// Value at `s` by de Casteljau's algorithm.
fn eval(c: &Bernstein, s: f64) -> f64 {
    let mut b = *c;
    for r in 1..5 {
        for i in 0..5 - r {
            b[i] = b[i] + s * (b[i + 1] - b[i]);
        }
    }
    b[0]
}

/// The two halves of `c` split at `θ = ½`.
fn split(c: &Bernstein) -> (Bernstein, Bernstein) {
    let mut b = *c;
    let (mut left, mut right) = ([0.0; 5], [0.0; 5]);
    left[0] = b[0];
    right[4] = b[4];
    for r in 1..5 {
        for i in 0..5 - r {
            b[i] = 0.5 * (b[i] + b[i + 1]);
        }
        left[r] = b[0];
        right[4 - r] = b[4 - r];
    }
    (left, right)
}

/// Sign changes among the non-zero coefficients (a bound on the roots inside, of the same
/// parity). The coefficients are finite (`affine_roots` checks).
fn sign_changes(c: &Bernstein) -> usize {
    let mut n = 0;
    let mut last = 0.0f64;
    for &v in c {
        if v != 0.0 {
            if last != 0.0 && (v > 0.0) != (last > 0.0) {
                n += 1;
            }
            last = v;
        }
    }
    n
}

/// The root of `c` on `[a, b]` (`θ` of the whole step), given `c`'s ends of opposite sign,
/// by Illinois regula falsi in the piece's own coordinate.
fn piece_root(c: &Bernstein, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let (mut glo, mut ghi) = (c[0], c[4]);
    let mut side = 0i8;
    for _ in 0..ROOT_STEPS {
        let w = hi - lo;
        let mut u = lo - glo * w / (ghi - glo);
        if !(u > lo && u < hi) {
            u = lo + 0.5 * w;
        }
        if !(u > lo && u < hi) {
            break;
        }
        let g = eval(c, u);
        if g == 0.0 {
            return a + u * (b - a);
        }
        if (g > 0.0) == (ghi > 0.0) {
            hi = u;
            ghi = g;
            if side == 1 {
                glo *= 0.5;
            }
            side = 1;
        } else {
            lo = u;
            glo = g;
            if side == -1 {
                ghi *= 0.5;
            }
            side = -1;
        }
    }
    a + 0.5 * (lo + hi) * (b - a)
}

/// Roots of `c` inside `(a, b)` into `out` (`θ` of the whole step), ascending. A piece that
/// is still ambiguous at [`MAX_DEPTH`] (a double root, a cluster) gives its midpoint.
fn roots(c: &Bernstein, a: f64, b: f64, depth: u32, out: &mut Vec<f64>) {
    let n = sign_changes(c);
    if n == 0 {
        return;
    }
    if n == 1 && c[0] != 0.0 && c[4] != 0.0 {
        out.push(piece_root(c, a, b));
        return;
    }
    let m = 0.5 * (a + b);
    if depth >= MAX_DEPTH || !(m > a && m < b) {
        out.push(m);
        return;
    }
    let (l, r) = split(c);
    roots(&l, a, m, depth + 1, out);
    roots(&r, m, b, depth + 1, out);
}

impl Locator {
    /// Fills each atom's polynomial for the segment (`start`: the margins at its start),
    /// the margins at its end into `m`, and the times in `(ta, tb)` where some atom's
    /// polynomial changes sign into `roots`, ascending. `false` (nothing usable: a margin
    /// that is not finite somewhere) leaves the step to the probes.
    pub(super) fn affine_roots<M: Model + ?Sized>(
        &mut self,
        model: &mut M,
        seg: &Segment<'_>,
        start: &[f64],
    ) -> bool {
        let h = seg.tb - seg.ta;
        model.margins(seg.tb, seg.yb, seg.fb, &mut self.m);
        // h·ġ at the start: g(ta + h, ya + h·fa) − g(ta, ya).
        for ((y, a), f) in self.y.iter_mut().zip(seg.ya).zip(seg.fa) {
            *y = a + h * f;
        }
        model.margins(seg.tb, &self.y, seg.fa, &mut self.m2);
        for ((c, &g0), &g) in self.poly.iter_mut().zip(start).zip(&self.m2) {
            c[0] = g0;
            c[1] = g0 + (g - g0) / 3.0;
        }
        // h·ġ at the end: g(tb, yb) − g(ta, yb − h·fb).
        for ((y, b), f) in self.y.iter_mut().zip(seg.yb).zip(seg.fb) {
            *y = b - h * f;
        }
        model.margins(seg.ta, &self.y, seg.fb, &mut self.m2);
        for ((c, &g1), &g) in self.poly.iter_mut().zip(&self.m).zip(&self.m2) {
            c[3] = g1 - (g1 - g) / 3.0;
            c[4] = g1;
            // Degree 3 to 4: (P0, P1, P2, P3) → (P0, (P0+3P1)/4, (P1+P2)/2, (3P2+P3)/4, P3).
            let (p0, p1, p2, p3) = (c[0], c[1], c[3], c[4]);
            *c = [
                p0,
                0.25 * (p0 + 3.0 * p1),
                0.5 * (p1 + p2),
                0.25 * (3.0 * p2 + p3),
                p3,
            ];
        }
        if let Some(q) = seg.q {
            // θ²(1−θ)² = B₂,₄(θ)/6, scaled by a·q = g(ta, ya + q) − g(ta, ya).
            for ((y, a), qi) in self.y.iter_mut().zip(seg.ya).zip(q) {
                *y = a + qi;
            }
            model.margins(seg.ta, &self.y, seg.fa, &mut self.m2);
            for ((c, &g0), &g) in self.poly.iter_mut().zip(start).zip(&self.m2) {
                c[2] += (g - g0) / 6.0;
            }
        }
        if !self.poly.iter().flatten().all(|c| c.is_finite()) {
            return false;
        }
        self.poly_ok = true;
        self.roots.clear();
        for c in &self.poly {
            let from = self.roots.len();
            roots(c, 0.0, 1.0, 0, &mut self.roots);
            for s in &mut self.roots[from..] {
                *s = seg.ta + *s * h;
            }
        }
        let (ta, tb) = (seg.ta, seg.tb);
        self.roots.retain(|&t| t > ta && t < tb);
        self.roots.sort_by(f64::total_cmp);
        true
    }

    /// The root of atom `k`'s polynomial in `(lo, hi)` (times in the segment), when its
    /// values at the two ends have opposite signs.
    pub(super) fn poly_root(&self, k: usize, seg: &Segment<'_>, lo: f64, hi: f64) -> Option<f64> {
        let c = self.poly.get(k)?;
        let h = seg.tb - seg.ta;
        let (sl, sh) = ((lo - seg.ta) / h, (hi - seg.ta) / h);
        let (gl, gh) = (eval(c, sl), eval(c, sh));
        if !(gl.is_finite() && gh.is_finite()) || (gl > 0.0) == (gh > 0.0) || gl == 0.0 {
            return None;
        }
        // Illinois regula falsi on the polynomial over [sl, sh].
        let (mut a, mut b, mut ga, mut gb) = (sl, sh, gl, gh);
        let mut side = 0i8;
        for _ in 0..ROOT_STEPS {
            let w = b - a;
            let mut s = a - ga * w / (gb - ga);
            if !(s > a && s < b) {
                s = a + 0.5 * w;
            }
            if !(s > a && s < b) {
                break;
            }
            let g = eval(c, s);
            if g == 0.0 {
                return Some(seg.ta + s * h);
            }
            if (g > 0.0) == (gb > 0.0) {
                (b, gb) = (s, g);
                if side == 1 {
                    ga *= 0.5;
                }
                side = 1;
            } else {
                (a, ga) = (s, g);
                if side == -1 {
                    gb *= 0.5;
                }
                side = -1;
            }
        }
        Some(seg.ta + 0.5 * (a + b) * h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bernstein coefficients of degree 4 of the polynomial `Σ pⱼ θʲ`.
    fn from_power(p: [f64; 5]) -> Bernstein {
        // b_i = Σ_{j ≤ i} C(i, j)/C(4, j) · p_j
        let binom = |n: usize, k: usize| -> f64 {
            (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
        };
        let mut b = [0.0; 5];
        for (i, bi) in b.iter_mut().enumerate() {
            for (j, pj) in p.iter().enumerate().take(i + 1) {
                *bi += binom(i, j) / binom(4, j) * pj;
            }
        }
        b
    }

    #[test]
    fn evaluation_matches_the_power_form() {
        let p = [0.3, -1.0, 2.5, 0.75, -0.5];
        let c = from_power(p);
        for k in 0..=10 {
            let s = f64::from(k) / 10.0;
            let want = p[0] + s * (p[1] + s * (p[2] + s * (p[3] + s * p[4])));
            assert!((eval(&c, s) - want).abs() < 1e-14, "at {s}");
        }
    }

    #[test]
    fn roots_of_a_quartic_with_four_in_the_interval() {
        // (θ − 0.1)(θ − 0.35)(θ − 0.6)(θ − 0.9), expanded.
        let r = [0.1, 0.35, 0.6, 0.9];
        let e1: f64 = r.iter().sum();
        let e2 = r[0] * r[1] + r[0] * r[2] + r[0] * r[3] + r[1] * r[2] + r[1] * r[3] + r[2] * r[3];
        let e3 = r[0] * r[1] * r[2] + r[0] * r[1] * r[3] + r[0] * r[2] * r[3] + r[1] * r[2] * r[3];
        let e4 = r[0] * r[1] * r[2] * r[3];
        let c = from_power([e4, -e3, e2, -e1, 1.0]);
        let mut out = Vec::new();
        roots(&c, 0.0, 1.0, 0, &mut out);
        assert_eq!(out.len(), 4, "{out:?}");
        for (got, want) in out.iter().zip(r) {
            assert!((got - want).abs() < 1e-14, "{got} against {want}");
        }
    }

    #[test]
    fn one_sign_means_no_root() {
        // 1 + (θ − ½)²: positive throughout, though not monotone.
        let c = from_power([1.25, -1.0, 1.0, 0.0, 0.0]);
        let mut out = Vec::new();
        roots(&c, 0.0, 1.0, 0, &mut out);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_dip_between_probes_is_seen() {
        // 1e-3 − (θ − 0.537)²·4: below zero except on a sliver of width ≈ 0.032 around 0.537.
        let (m, a) = (0.537f64, 4.0f64);
        let c = from_power([1e-3 - a * m * m, 2.0 * a * m, -a, 0.0, 0.0]);
        let mut out = Vec::new();
        roots(&c, 0.0, 1.0, 0, &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
        let w = (1e-3f64 / a).sqrt();
        assert!((out[0] - (m - w)).abs() < 1e-14);
        assert!((out[1] - (m + w)).abs() < 1e-14);
    }
}
