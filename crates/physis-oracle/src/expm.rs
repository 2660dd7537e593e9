//! Dense matrices and the matrix exponential, written here and sharing nothing with the
//! driver: scaling and squaring over the diagonal [6/6] Padé approximant, solved by
//! Gaussian elimination with partial pivoting.

/// A square matrix, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Matrix {
    /// Rows (= columns).
    pub n: usize,
    /// Entries, row-major: `(i, j)` is `data[i * n + j]`.
    pub data: Vec<f64>,
}

impl Matrix {
    /// The `n × n` zero matrix.
    pub fn zeros(n: usize) -> Self {
        Self {
            n,
            data: vec![0.0; n * n],
        }
    }

    /// The `n × n` identity.
    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n);
        for i in 0..n {
            m.set(i, i, 1.0);
        }
        m
    }

    /// Entry `(i, j)`.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        self.data[i * self.n + j]
    }

    /// Sets entry `(i, j)`.
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        self.data[i * self.n + j] = v;
    }

    /// `s·self`.
    pub fn scaled(&self, s: f64) -> Self {
        Self {
            n: self.n,
            data: self.data.iter().map(|x| x * s).collect(),
        }
    }

    /// `self + s·other`.
    pub fn plus(&self, s: f64, other: &Self) -> Self {
        Self {
            n: self.n,
            data: self
                .data
                .iter()
                .zip(&other.data)
                .map(|(a, b)| a + s * b)
                .collect(),
        }
    }

    /// The product `self · other`.
    pub fn mul(&self, other: &Self) -> Self {
        let n = self.n;
        let mut out = Self::zeros(n);
        for i in 0..n {
            for k in 0..n {
                let a = self.get(i, k);
                if a == 0.0 {
                    continue;
                }
                for j in 0..n {
                    out.data[i * n + j] += a * other.get(k, j);
                }
            }
        }
        out
    }

    /// The product `self · v`.
    pub fn apply(&self, v: &[f64]) -> Vec<f64> {
        (0..self.n)
            .map(|i| (0..self.n).map(|j| self.get(i, j) * v[j]).sum())
            .collect()
    }

    /// The largest absolute row sum (the ∞-norm).
    pub fn norm_inf(&self) -> f64 {
        (0..self.n)
            .map(|i| (0..self.n).map(|j| self.get(i, j).abs()).sum::<f64>())
            .fold(0.0, f64::max)
    }

    /// `X` with `self · X = rhs`, by Gaussian elimination with partial pivoting; `None` when
    /// a pivot vanishes.
    pub fn solve(&self, rhs: &Self) -> Option<Self> {
        let n = self.n;
        let mut a = self.clone();
        let mut b = rhs.clone();
        for col in 0..n {
            let pivot =
                (col..n).max_by(|&p, &q| a.get(p, col).abs().total_cmp(&a.get(q, col).abs()))?;
            if a.get(pivot, col) == 0.0 {
                return None;
            }
            for j in 0..n {
                a.data.swap(col * n + j, pivot * n + j);
                b.data.swap(col * n + j, pivot * n + j);
            }
            for row in col + 1..n {
                let f = a.get(row, col) / a.get(col, col);
                if f == 0.0 {
                    continue;
                }
                for j in 0..n {
                    a.data[row * n + j] -= f * a.get(col, j);
                    b.data[row * n + j] -= f * b.get(col, j);
                }
            }
        }
        for col in (0..n).rev() {
            for j in 0..n {
                let mut s = b.get(col, j);
                for k in col + 1..n {
                    s -= a.get(col, k) * b.get(k, j);
                }
                b.set(col, j, s / a.get(col, col));
            }
        }
        Some(b)
    }
}

/// `e^A` by scaling and squaring: `A/2^s` with ∞-norm at most 1/2, the [6/6] Padé
/// approximant `D⁻¹N` of it (truncation below 1e-17 there), then `s` squarings.
pub fn expm(a: &Matrix) -> Matrix {
    const Q: usize = 6;
    let norm = a.norm_inf();
    let mut s = 0;
    while norm / f64::powi(2.0, s) > 0.5 {
        s += 1;
    }
    let x = a.scaled(f64::powi(2.0, -s));
    let mut c = 1.0;
    let mut power = Matrix::identity(a.n);
    let mut num = Matrix::identity(a.n);
    let mut den = Matrix::identity(a.n);
    for k in 1..=Q {
        c *= (Q - k + 1) as f64 / (k * (2 * Q - k + 1)) as f64;
        power = power.mul(&x);
        num = num.plus(c, &power);
        let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
        den = den.plus(sign * c, &power);
    }
    // D is close to I for ‖X‖ ≤ 1/2, so the solve cannot meet a zero pivot.
    let mut e = den.solve(&num).unwrap_or_else(|| Matrix::identity(a.n));
    for _ in 0..s {
        e = e.mul(&e);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solve_inverts_a_pivoting_matrix() {
        let a = Matrix {
            n: 2,
            data: vec![0.0, 2.0, 3.0, 1.0],
        };
        let x = a.solve(&Matrix::identity(2)).unwrap();
        let id = a.mul(&x);
        for (g, w) in id.data.iter().zip(Matrix::identity(2).data) {
            assert!((g - w).abs() < 1e-15);
        }
    }
}
