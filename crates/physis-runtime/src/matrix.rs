//! A small dense matrix with an in-place LU factorisation, for Newton on small systems.

/// A square row-major matrix of `f64`.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseMatrix {
    n: usize,
    a: Vec<f64>,
}

impl DenseMatrix {
    /// A zero `n × n` matrix.
    pub fn zeros(n: usize) -> Self {
        Self {
            n,
            a: vec![0.0; n * n],
        }
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Entry `(i, j)`; out-of-range indices read zero.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        if i < self.n && j < self.n {
            self.a[i * self.n + j]
        } else {
            0.0
        }
    }

    /// Sets entry `(i, j)`; out-of-range indices are ignored.
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        if i < self.n && j < self.n {
            self.a[i * self.n + j] = v;
        }
    }

    /// Row-major entries.
    pub fn as_slice(&self) -> &[f64] {
        &self.a
    }

    /// Row-major entries, writable.
    pub fn as_mut_slice(&mut self) -> &mut [f64] {
        &mut self.a
    }

    /// Factorises in place as `P·A = L·U` (partial pivoting), writing the pivots to `piv`.
    /// Returns `false` when the matrix is singular or not finite.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn lu_in_place(&mut self, piv: &mut [usize]) -> bool {
        let n = self.n;
        for k in 0..n {
            let mut p = k;
            let mut best = self.a[k * n + k].abs();
            for i in k + 1..n {
                let v = self.a[i * n + k].abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            if best == 0.0 || !best.is_finite() {
                return false;
            }
            piv[k] = p;
            if p != k {
                for j in 0..n {
                    self.a.swap(k * n + j, p * n + j);
                }
            }
            let d = self.a[k * n + k];
            for i in k + 1..n {
                let l = self.a[i * n + k] / d;
                self.a[i * n + k] = l;
                if l != 0.0 {
                    for j in k + 1..n {
                        self.a[i * n + j] -= l * self.a[k * n + j];
                    }
                }
            }
        }
        true
    }

    /// Solves `A·x = b` in place given the factorisation from `lu_in_place`.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn lu_solve(&self, piv: &[usize], b: &mut [f64]) {
        let n = self.n;
        for k in 0..n {
            b.swap(k, piv[k]);
        }
        for i in 0..n {
            let mut s = b[i];
            for j in 0..i {
                s -= self.a[i * n + j] * b[j];
            }
            b[i] = s;
        }
        for i in (0..n).rev() {
            let mut s = b[i];
            for j in i + 1..n {
                s -= self.a[i * n + j] * b[j];
            }
            b[i] = s / self.a[i * n + i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_pivoting_system() {
        // [[0, 2, 1], [1, 1, 1], [2, 1, 0]] x = [5, 4, 4] has x = [1, 2, 1].
        let mut m = DenseMatrix::zeros(3);
        let rows = [[0.0, 2.0, 1.0], [1.0, 1.0, 1.0], [2.0, 1.0, 0.0]];
        for (i, r) in rows.iter().enumerate() {
            for (j, v) in r.iter().enumerate() {
                m.set(i, j, *v);
            }
        }
        let mut piv = [0; 3];
        assert!(m.lu_in_place(&mut piv));
        let mut b = [5.0, 4.0, 4.0];
        m.lu_solve(&piv, &mut b);
        for (x, e) in b.iter().zip([1.0, 2.0, 1.0]) {
            assert!((x - e).abs() < 1e-14, "{b:?}");
        }
    }

    #[test]
    fn singular_is_refused() {
        let mut m = DenseMatrix::zeros(2);
        m.set(0, 0, 1.0);
        m.set(0, 1, 2.0);
        m.set(1, 0, 2.0);
        m.set(1, 1, 4.0);
        let mut piv = [0; 2];
        assert!(!m.lu_in_place(&mut piv));
    }
}
