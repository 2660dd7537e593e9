//! Factorising and solving a [`SparseMatrix`]: a two-ended Thomas elimination when the
//! pattern is tridiagonal (a 1-D three-point stencil: `O(n)`, no fill), otherwise faer's sparse LU
//! with partial pivoting, its symbolic analysis (fill-reducing ordering) done once per
//! pattern and its buffers kept between factorisations.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::lu::{LuSymbolicParams, NumericLu, SymbolicLu, factorize_symbolic_lu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMatRef};
use faer::{Conj, MatMut, Par};

use crate::sparse::{SparseMatrix, SparsePattern};

/// A factorisation of matrices of one pattern.
pub(crate) struct SparseLu {
    kind: Kind,
}

#[allow(clippy::large_enum_variant)] // one per run
enum Kind {
    /// `sub[i]·x[i−1] + diag[i]·x[i] + sup[i]·x[i+1]`; `c`, `d` hold the elimination.
    Thomas {
        sub: Vec<f64>,
        diag: Vec<f64>,
        sup: Vec<f64>,
        /// Eliminated off-diagonal (see [`thomas_factor`]).
        e: Vec<f64>,
        /// Reciprocal pivots (a multiply in the solve's serial chain instead of a divide).
        m: Vec<f64>,
    },
    General(General),
}

struct General {
    n: usize,
    col_ptr: Vec<usize>,
    row_idx: Vec<usize>,
    /// Position in the column-compressed values of each entry of the row-compressed pattern.
    to_csc: Vec<usize>,
    values: Vec<f64>,
    symbolic: Option<SymbolicLu<usize>>,
    numeric: NumericLu<usize, f64>,
    buf: MemBuffer,
    ok: bool,
    probe: Vec<f64>,
}

impl std::fmt::Debug for SparseLu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            Kind::Thomas { .. } => "thomas",
            Kind::General(_) => "sparse-lu",
        };
        f.debug_struct("SparseLu").field("kind", &kind).finish()
    }
}

impl SparseLu {
    /// Prepares for matrices of `pattern` (the symbolic analysis happens here).
    pub fn new(pattern: &SparsePattern) -> Self {
        let n = pattern.n();
        if pattern.is_tridiagonal() {
            return SparseLu {
                kind: Kind::Thomas {
                    sub: vec![0.0; n],
                    diag: vec![0.0; n],
                    sup: vec![0.0; n],
                    e: vec![0.0; n],
                    m: vec![0.0; n],
                },
            };
        }
        SparseLu {
            kind: Kind::General(General::new(pattern)),
        }
    }

    /// True when the tridiagonal fast path is in use.
    #[cfg(test)]
    pub fn is_thomas(&self) -> bool {
        matches!(self.kind, Kind::Thomas { .. })
    }

    /// Factorises `a`; `false` when it is singular or not finite.
    pub fn factor(&mut self, a: &SparseMatrix) -> bool {
        match &mut self.kind {
            Kind::Thomas {
                sub,
                diag,
                sup,
                e,
                m,
            } => {
                let p = a.pattern();
                let v = a.values();
                sub.fill(0.0);
                diag.fill(0.0);
                sup.fill(0.0);
                for i in 0..p.n() {
                    let start = p.row_ptr()[i];
                    for (k, &j) in p.row(i).iter().enumerate() {
                        let x = v[start + k];
                        if j + 1 == i {
                            sub[i] = x;
                        } else if j == i {
                            diag[i] = x;
                        } else {
                            sup[i] = x;
                        }
                    }
                }
                thomas_factor(sub, diag, sup, e, m)
            }
            Kind::General(g) => g.factor(a),
        }
    }

    /// Solves `A·x = b` in place with the last successful factorisation.
    pub fn solve(&mut self, b: &mut [f64]) {
        match &mut self.kind {
            Kind::Thomas { sub, sup, e, m, .. } => thomas_solve(sub, sup, e, m, b),
            Kind::General(g) => g.solve(b),
        }
    }
}

/// Where the two eliminations of a twisted factorisation meet: rows `..k` are eliminated
/// downwards, rows `k + 1..` upwards (never fewer than the rows above).
fn meet(n: usize) -> usize {
    n.saturating_sub(1) / 2
}

/// A twisted ("burn at both ends") elimination without pivoting: downwards from the first
/// row and upwards from the last at once, meeting at row `meet(n)`. The two chains are
/// independent, so the solve's serial dependency is half as long as Thomas's. `m` holds
/// reciprocal pivots, `e` the eliminated off-diagonal (super above the meeting row, sub
/// below). Refuses a pivot that vanishes against its row (then the caller's Newton fails
/// and the driver halves the step).
fn thomas_factor(sub: &[f64], diag: &[f64], sup: &[f64], e: &mut [f64], m: &mut [f64]) -> bool {
    let n = diag.len();
    if n == 0 {
        return true;
    }
    let k = meet(n);
    // The reciprocal of a pivot that does not vanish against its row.
    let pivot = |i: usize, piv: f64| -> Option<f64> {
        let scale = diag[i].abs() + sub[i].abs() + sup[i].abs();
        (piv.is_finite() && piv.abs() > 1e-14 * scale && scale != 0.0).then(|| 1.0 / piv)
    };
    for i in 0..k {
        let prev = if i == 0 { 0.0 } else { sub[i] * e[i - 1] };
        let Some(r) = pivot(i, diag[i] - prev) else {
            return false;
        };
        m[i] = r;
        e[i] = sup[i] * r;
    }
    for i in (k + 1..n).rev() {
        let next = if i + 1 == n { 0.0 } else { sup[i] * e[i + 1] };
        let Some(r) = pivot(i, diag[i] - next) else {
            return false;
        };
        m[i] = r;
        e[i] = sub[i] * r;
    }
    let above = if k == 0 { 0.0 } else { sub[k] * e[k - 1] };
    let below = if k + 1 == n { 0.0 } else { sup[k] * e[k + 1] };
    match pivot(k, diag[k] - above - below) {
        Some(r) => {
            m[k] = r;
            true
        }
        None => false,
    }
}

/// Solves with the factorisation of [`thomas_factor`], both halves in one loop.
fn thomas_solve(sub: &[f64], sup: &[f64], e: &[f64], m: &[f64], b: &mut [f64]) {
    let n = b.len();
    if n == 0 || sub.len() < n || sup.len() < n || e.len() < n || m.len() < n {
        return;
    }
    let k = meet(n);
    let (top, rest) = b.split_at_mut(k);
    let (mid, bot) = rest.split_at_mut(1);
    // Forward: y = L⁻¹·b from both ends.
    let (mut yt, mut yb) = (0.0, 0.0);
    let down = top.iter_mut().zip(&sub[..k]).zip(&m[..k]);
    let up = bot.iter_mut().zip(&sup[k + 1..n]).zip(&m[k + 1..n]).rev();
    for (((bt, st), mt), ((bb, sb), mb)) in down.zip(up) {
        yt = (*bt - st * yt) * mt;
        *bt = yt;
        yb = (*bb - sb * yb) * mb;
        *bb = yb;
    }
    if bot.len() > k {
        // One more row below than above: the one next to the meeting row.
        yb = (bot[0] - sup[k + 1] * yb) * m[k + 1];
        bot[0] = yb;
    }
    let above = if k == 0 { 0.0 } else { sub[k] * yt };
    let below = if bot.is_empty() { 0.0 } else { sup[k] * yb };
    let x = (mid[0] - above - below) * m[k];
    mid[0] = x;
    // Back substitution outwards from the meeting row.
    let (mut xt, mut xb) = (x, x);
    let down = top.iter_mut().zip(&e[..k]).rev();
    let up = bot.iter_mut().zip(&e[k + 1..n]);
    let mut up = up.peekable();
    for ((bt, et), (bb, eb)) in down.zip(&mut up) {
        xt = *bt - et * xt;
        *bt = xt;
        xb = *bb - eb * xb;
        *bb = xb;
    }
    for (bb, eb) in up {
        xb = *bb - eb * xb;
        *bb = xb;
    }
}

impl General {
    fn new(p: &SparsePattern) -> Self {
        let n = p.n();
        let mut col_ptr = vec![0usize; n + 1];
        for &j in p.col_indices() {
            col_ptr[j + 1] += 1;
        }
        for j in 0..n {
            col_ptr[j + 1] += col_ptr[j];
        }
        let mut fill = col_ptr.clone();
        let mut row_idx = vec![0usize; p.nnz()];
        let mut to_csc = vec![0usize; p.nnz()];
        for i in 0..n {
            let start = p.row_ptr()[i];
            for (k, &j) in p.row(i).iter().enumerate() {
                row_idx[fill[j]] = i;
                to_csc[start + k] = fill[j];
                fill[j] += 1;
            }
        }
        let symbolic = SymbolicSparseColMatRef::new_checked(n, n, &col_ptr, None, &row_idx);
        let symbolic = factorize_symbolic_lu(symbolic, LuSymbolicParams::default()).ok();
        let buf = symbolic
            .as_ref()
            .map(|s| {
                let req = s
                    .factorize_numeric_lu_scratch::<f64>(Par::Seq, Default::default())
                    .or(s.solve_in_place_scratch::<f64>(1, Par::Seq));
                MemBuffer::try_new(req).unwrap_or_else(|_| MemBuffer::new(Default::default()))
            })
            .unwrap_or_else(|| MemBuffer::new(Default::default()));
        General {
            n,
            values: vec![0.0; p.nnz()],
            col_ptr,
            row_idx,
            to_csc,
            symbolic,
            numeric: NumericLu::new(),
            buf,
            ok: false,
            probe: Vec::new(),
        }
    }

    fn factor(&mut self, a: &SparseMatrix) -> bool {
        self.ok = false;
        for (k, v) in a.values().iter().enumerate() {
            if !v.is_finite() {
                return false;
            }
            self.values[self.to_csc[k]] = *v;
        }
        let Some(symbolic) = &self.symbolic else {
            return false;
        };
        let sym = SymbolicSparseColMatRef::new_checked(
            self.n,
            self.n,
            &self.col_ptr,
            None,
            &self.row_idx,
        );
        let mat = SparseColMatRef::new(sym, &self.values);
        let stack = MemStack::new(&mut self.buf);
        self.ok = symbolic
            .factorize_numeric_lu(&mut self.numeric, mat, Par::Seq, stack, Default::default())
            .is_ok();
        if self.ok {
            // faer does not report a zero pivot of a numerically singular matrix: a probe
            // solve comes out non-finite instead.
            let mut probe = std::mem::take(&mut self.probe);
            probe.clear();
            probe.resize(self.n, 1.0);
            self.solve(&mut probe);
            self.ok = probe.iter().all(|x| x.is_finite());
            self.probe = probe;
        }
        self.ok
    }

    fn solve(&mut self, b: &mut [f64]) {
        let Some(symbolic) = &self.symbolic else {
            b.fill(f64::NAN);
            return;
        };
        if !self.ok {
            b.fill(f64::NAN);
            return;
        }
        // Safe to pair: `ok` says `numeric` came from this symbolic analysis.
        let lu = faer::sparse::linalg::lu::LuRef::new_unchecked(symbolic, &self.numeric);
        let n = b.len();
        let rhs = MatMut::from_column_major_slice_mut(b, n, 1);
        let stack = MemStack::new(&mut self.buf);
        lu.solve_in_place_with_conj(Conj::No, rhs, Par::Seq, stack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn check(pattern: SparsePattern, thomas: bool) {
        let n = pattern.n();
        let p = Arc::new(pattern);
        let mut a = SparseMatrix::zeros(p.clone());
        // Diagonally dominant with distinct off-diagonal entries.
        for i in 0..n {
            for &j in p.row(i) {
                let v = if i == j {
                    10.0 + i as f64 * 0.1
                } else {
                    -1.0 - 0.01 * (i + 2 * j) as f64
                };
                a.set(i, j, v);
            }
        }
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let mut b = vec![0.0; n];
        a.mul_vec(&x, &mut b);
        let mut lu = SparseLu::new(&p);
        assert_eq!(lu.is_thomas(), thomas);
        assert!(lu.factor(&a));
        lu.solve(&mut b);
        for (got, want) in b.iter().zip(&x) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
    }

    #[test]
    fn thomas_and_general_solve_exactly() {
        let n = 50;
        let tri = SparsePattern::from_rows(
            n,
            (0..n).map(|i| [i.wrapping_sub(1), i + 1].into_iter().filter(|j| *j < n)),
        )
        .unwrap();
        check(tri, true);
        for n in [1usize, 2, 3, 4, 7, 8] {
            let tri = SparsePattern::from_rows(
                n,
                (0..n).map(|i| [i.wrapping_sub(1), i + 1].into_iter().filter(|j| *j < n)),
            )
            .unwrap();
            check(tri, true);
        }
        let periodic =
            SparsePattern::from_rows(n, (0..n).map(|i| [(i + n - 1) % n, (i + 1) % n])).unwrap();
        check(periodic, false);
    }

    #[test]
    fn singular_is_refused() {
        let p = Arc::new(SparsePattern::from_rows(3, (0..3).map(|_| [0usize, 1, 2])).unwrap());
        let mut a = SparseMatrix::zeros(p.clone());
        for i in 0..3 {
            for j in 0..3 {
                a.set(i, j, 1.0);
            }
        }
        let mut lu = SparseLu::new(&p);
        assert!(!lu.factor(&a));
        let tri =
            Arc::new(SparsePattern::from_rows(2, [vec![0usize, 1], vec![0usize, 1]]).unwrap());
        let mut t = SparseMatrix::zeros(tri.clone());
        for i in 0..2 {
            for j in 0..2 {
                t.set(i, j, 2.0);
            }
        }
        let mut lu = SparseLu::new(&tri);
        assert!(!lu.factor(&t));
    }
}
