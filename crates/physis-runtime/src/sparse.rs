//! Sparse Jacobians for Newton on big models (fields on grids): the pattern, a column
//! colouring so one Jacobian-vector product fills every column of a colour, and the
//! values. Solving lives in `sparse_lu`.

use std::sync::Arc;

/// Why a sparsity pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// A row names a column past the matrix.
    #[error("row {row} names column {col} of a {n} × {n} matrix")]
    ColumnOutOfRange {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// Order of the matrix.
        n: usize,
    },
    /// The number of rows is not the order of the matrix.
    #[error("{rows} rows given for a {n} × {n} matrix")]
    RowCount {
        /// Rows given.
        rows: usize,
        /// Order of the matrix.
        n: usize,
    },
}

/// Where the entries of a square matrix may be non-zero: compressed rows, columns sorted
/// within each row, the diagonal always present (Newton's matrix needs its pivots), and
/// a colouring of the columns such that no two columns of one colour share a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparsePattern {
    n: usize,
    row_ptr: Vec<usize>,
    cols: Vec<usize>,
    colour: Vec<u32>,
    colours: u32,
}

impl SparsePattern {
    /// A pattern from the columns of each row (any order, repeats allowed); the diagonal
    /// is added.
    pub fn from_rows<R, C>(n: usize, rows: R) -> Result<Self, PatternError>
    where
        R: IntoIterator<Item = C>,
        C: IntoIterator<Item = usize>,
    {
        let mut row_ptr = Vec::with_capacity(n + 1);
        row_ptr.push(0);
        let mut cols = Vec::new();
        let mut count = 0;
        for (i, row) in rows.into_iter().enumerate() {
            if i >= n {
                return Err(PatternError::RowCount { rows: i + 1, n });
            }
            let start = cols.len();
            cols.push(i);
            for c in row {
                if c >= n {
                    return Err(PatternError::ColumnOutOfRange { row: i, col: c, n });
                }
                cols.push(c);
            }
            cols[start..].sort_unstable();
            let mut w = start;
            for r in start..cols.len() {
                if r == start || cols[r] != cols[w - 1] {
                    cols[w] = cols[r];
                    w += 1;
                }
            }
            cols.truncate(w);
            row_ptr.push(cols.len());
            count += 1;
        }
        if count != n {
            return Err(PatternError::RowCount { rows: count, n });
        }
        let mut p = SparsePattern {
            n,
            row_ptr,
            cols,
            colour: Vec::new(),
            colours: 0,
        };
        p.colour_columns();
        Ok(p)
    }

    /// The pattern of a `w × w` block matrix each of whose blocks has this pattern: the
    /// Newton matrix of `w` stages that read each other (Radau IIA's `I − h·A⊗J`), whose
    /// block `(i, j)` is `δᵢⱼ·I − h·aᵢⱼ·J`. Column `j` of block `b` takes colour
    /// `b·colours + colour(j)`: columns of different blocks share every row of their
    /// stencil, so no colouring of the whole can do with fewer than `w` times the rows'
    /// longest.
    pub fn blocks(&self, w: usize) -> SparsePattern {
        let (n, nnz) = (self.n, self.cols.len());
        let mut row_ptr = Vec::with_capacity(w * n + 1);
        let mut cols = Vec::with_capacity(w * w * nnz);
        row_ptr.push(0);
        for _ in 0..w {
            for i in 0..n {
                for b in 0..w {
                    cols.extend(self.row(i).iter().map(|&j| b * n + j));
                }
                row_ptr.push(cols.len());
            }
        }
        let colour = (0..w)
            .flat_map(|b| {
                self.colour
                    .iter()
                    .map(move |&c| b as u32 * self.colours + c)
            })
            .collect();
        SparsePattern {
            n: w * n,
            row_ptr,
            cols,
            colour,
            colours: w as u32 * self.colours,
        }
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.cols.len()
    }

    /// Columns of row `i`, sorted (empty past the end).
    pub fn row(&self, i: usize) -> &[usize] {
        match (self.row_ptr.get(i), self.row_ptr.get(i + 1)) {
            (Some(a), Some(b)) => &self.cols[*a..*b],
            _ => &[],
        }
    }

    /// Row starts into the entry list (`n + 1` of them).
    pub fn row_ptr(&self) -> &[usize] {
        &self.row_ptr
    }

    /// Column of every entry, row by row.
    pub fn col_indices(&self) -> &[usize] {
        &self.cols
    }

    /// Number of colours of the column colouring.
    pub fn colours(&self) -> u32 {
        self.colours
    }

    /// Colour of column `j`.
    pub fn colour(&self, j: usize) -> u32 {
        self.colour.get(j).copied().unwrap_or(0)
    }

    /// True when every entry is on the three middle diagonals.
    pub fn is_tridiagonal(&self) -> bool {
        (0..self.n).all(|i| self.row(i).iter().all(|&j| j + 1 >= i && j <= i + 1))
    }

    /// Colours the columns so that no two of one colour share a row (a distance-2
    /// colouring of the column intersection graph): greedy in column order, then, when that
    /// is above the lower bound (the longest row), the lattice colourings of
    /// [`SparsePattern::lattice`], keeping the fewest colours. A 3-point stencil gets 3,
    /// a 5-point stencil on a plane 5 (greedy alone gives 7).
    fn colour_columns(&mut self) {
        let (mut colour, mut colours) = self.greedy();
        let lower = (0..self.n).map(|i| self.row(i).len()).max().unwrap_or(0) as u32;
        if colours > lower {
            let widths = self.lattice_widths();
            'search: for p in lower..colours {
                for &m in &widths {
                    for t in 0..p {
                        let c = Self::lattice(self.n, m, p, t);
                        if self.is_valid_colouring(&c) {
                            colour = c;
                            colours = p;
                            break 'search;
                        }
                    }
                }
            }
        }
        self.colour = colour;
        self.colours = colours;
    }

    /// Greedy distance-2 colouring in column order: a column takes the smallest colour no
    /// column sharing a row with it has.
    fn greedy(&self) -> (Vec<u32>, u32) {
        let n = self.n;
        // Rows of each column (the transpose's structure).
        let mut col_ptr = vec![0usize; n + 1];
        for &c in &self.cols {
            col_ptr[c + 1] += 1;
        }
        for j in 0..n {
            col_ptr[j + 1] += col_ptr[j];
        }
        let mut fill = col_ptr.clone();
        let mut rows = vec![0usize; self.cols.len()];
        for i in 0..n {
            for &c in self.row(i) {
                rows[fill[c]] = i;
                fill[c] += 1;
            }
        }
        let unset = u32::MAX;
        let mut colour = vec![unset; n];
        // `mark[c] == j` means colour c is taken by a neighbour of column j.
        let mut mark: Vec<usize> = Vec::new();
        let mut colours = 0u32;
        for j in 0..n {
            for &i in &rows[col_ptr[j]..col_ptr[j + 1]] {
                for &k in self.row(i) {
                    let c = colour[k];
                    if c != unset {
                        mark[c as usize] = j;
                    }
                }
            }
            let c = (0..colours)
                .find(|c| mark[*c as usize] != j)
                .unwrap_or(colours);
            if c == colours {
                colours += 1;
                mark.push(usize::MAX);
            }
            colour[j] = c;
        }
        (colour, colours)
    }

    /// Candidate row lengths `m` of a grid the pattern may come from: the two most frequent
    /// entry offsets `j − i` above 1 (a plane's 5-point stencil reaches `±m`).
    fn lattice_widths(&self) -> Vec<usize> {
        let mut count: std::collections::BTreeMap<usize, usize> = Default::default();
        for i in 0..self.n {
            for &j in self.row(i) {
                if j > i + 1 {
                    *count.entry(j - i).or_default() += 1;
                }
            }
        }
        let mut by: Vec<(usize, usize)> = count.into_iter().collect();
        by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        by.into_iter().take(2).map(|(m, _)| m).collect()
    }

    /// The colouring `(j + t·⌊j/m⌋) mod p`: on an `r × m` grid, node `(r, c)` takes
    /// `(c + (m + t)·r) mod p`, so with `p = 5` and `m + t ≡ 2` it is the lattice colouring
    /// `(c + 2r) mod 5` under which no two nodes within Manhattan distance 2 agree.
    fn lattice(n: usize, m: usize, p: u32, t: u32) -> Vec<u32> {
        let p = p as usize;
        (0..n)
            .map(|j| ((j % p + (t as usize * ((j / m) % p))) % p) as u32)
            .collect()
    }

    /// True when no two columns of one colour share a row.
    fn is_valid_colouring(&self, colour: &[u32]) -> bool {
        let mut seen: Vec<usize> = Vec::new();
        for i in 0..self.n {
            for &j in self.row(i) {
                let c = colour[j] as usize;
                if c >= seen.len() {
                    seen.resize(c + 1, usize::MAX);
                }
                if seen[c] == i {
                    return false;
                }
                seen[c] = i;
            }
        }
        true
    }
}

/// A matrix with a [`SparsePattern`]: one value per entry, in the pattern's order.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseMatrix {
    pattern: Arc<SparsePattern>,
    values: Vec<f64>,
}

impl SparseMatrix {
    /// All stored entries zero.
    pub fn zeros(pattern: Arc<SparsePattern>) -> Self {
        let values = vec![0.0; pattern.nnz()];
        SparseMatrix { pattern, values }
    }

    /// The pattern.
    pub fn pattern(&self) -> &Arc<SparsePattern> {
        &self.pattern
    }

    /// Order of the matrix.
    pub fn n(&self) -> usize {
        self.pattern.n
    }

    /// Values in the pattern's order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// Values in the pattern's order, writable.
    pub fn values_mut(&mut self) -> &mut [f64] {
        &mut self.values
    }

    /// Entry `(i, j)` (zero outside the pattern).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        let start = self.pattern.row_ptr.get(i).copied().unwrap_or(0);
        match self.pattern.row(i).binary_search(&j) {
            Ok(k) => self.values[start + k],
            Err(_) => 0.0,
        }
    }

    /// Sets entry `(i, j)`; returns `false` (and changes nothing) outside the pattern.
    pub fn set(&mut self, i: usize, j: usize, v: f64) -> bool {
        let start = self.pattern.row_ptr.get(i).copied().unwrap_or(0);
        match self.pattern.row(i).binary_search(&j) {
            Ok(k) => {
                self.values[start + k] = v;
                true
            }
            Err(_) => false,
        }
    }

    /// Fills the values from Jacobian-vector products: for every colour, `jvp(seed, out)`
    /// with `seed` the sum of that colour's unit columns, so the whole matrix costs as
    /// many products as there are colours. `seed` and `out` are scratch of length `n`.
    pub fn fill_by_colours(
        &mut self,
        seed: &mut [f64],
        out: &mut [f64],
        mut jvp: impl FnMut(&[f64], &mut [f64]),
    ) {
        let p = &*self.pattern;
        for c in 0..p.colours {
            for (j, s) in seed.iter_mut().enumerate() {
                *s = if p.colour[j] == c { 1.0 } else { 0.0 };
            }
            jvp(seed, out);
            for (i, o) in out.iter().enumerate().take(p.n) {
                let start = p.row_ptr[i];
                for (k, &j) in p.row(i).iter().enumerate() {
                    if p.colour[j] == c {
                        self.values[start + k] = *o;
                    }
                }
            }
        }
    }

    /// `out = A·x`.
    pub fn mul_vec(&self, x: &[f64], out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate().take(self.pattern.n) {
            let start = self.pattern.row_ptr[i];
            *o = self
                .pattern
                .row(i)
                .iter()
                .enumerate()
                .map(|(k, &j)| self.values[start + k] * x[j])
                .sum();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize, periodic: bool) -> SparsePattern {
        SparsePattern::from_rows(
            n,
            (0..n).map(|i| {
                let mut r = vec![];
                if i > 0 {
                    r.push(i - 1);
                } else if periodic {
                    r.push(n - 1);
                }
                if i + 1 < n {
                    r.push(i + 1);
                } else if periodic {
                    r.push(0);
                }
                r
            }),
        )
        .unwrap()
    }

    #[test]
    fn three_point_stencil_takes_three_colours() {
        let p = line(100, false);
        assert_eq!(p.colours(), 3);
        assert!(p.is_tridiagonal());
        assert_eq!(p.nnz(), 3 * 100 - 2);
        assert!(!line(100, true).is_tridiagonal());
    }

    #[test]
    fn colours_never_share_a_row() {
        let (nx, ny) = (7, 9);
        let p = SparsePattern::from_rows(
            nx * ny,
            (0..nx * ny).map(|k| {
                let (r, c) = (k / ny, k % ny);
                let mut v = vec![];
                if r > 0 {
                    v.push(k - ny);
                }
                if r + 1 < nx {
                    v.push(k + ny);
                }
                if c > 0 {
                    v.push(k - 1);
                }
                if c + 1 < ny {
                    v.push(k + 1);
                }
                v
            }),
        )
        .unwrap();
        for i in 0..p.n() {
            let cs: Vec<u32> = p.row(i).iter().map(|j| p.colour(*j)).collect();
            let mut d = cs.clone();
            d.sort_unstable();
            d.dedup();
            assert_eq!(d.len(), cs.len(), "row {i}");
        }
        assert_eq!(p.colours(), 5);
    }

    fn plane(nx: usize, ny: usize) -> SparsePattern {
        SparsePattern::from_rows(
            nx * ny,
            (0..nx * ny).map(|k| {
                let (r, c) = (k / ny, k % ny);
                let mut v = vec![];
                if r > 0 {
                    v.push(k - ny);
                }
                if r + 1 < nx {
                    v.push(k + ny);
                }
                if c > 0 {
                    v.push(k - 1);
                }
                if c + 1 < ny {
                    v.push(k + 1);
                }
                v
            }),
        )
        .unwrap()
    }

    #[test]
    fn five_point_stencils_take_five_colours_at_every_width() {
        for (nx, ny) in [(5, 5), (20, 30), (41, 41), (50, 50), (13, 7), (3, 40)] {
            let p = plane(nx, ny);
            assert!(p.is_valid_colouring(&p.colour), "{nx}×{ny}");
            assert_eq!(p.colours(), 5, "{nx}×{ny}");
        }
        for n in [2usize, 3, 10, 101] {
            assert_eq!(line(n, false).colours(), 3.min(n as u32));
        }
    }

    proptest::proptest! {
        #[test]
        fn every_colouring_is_valid(
            n in 1usize..60,
            entries in proptest::collection::vec((0usize..60, 0usize..60), 0..240),
        ) {
            let mut rows = vec![Vec::new(); n];
            for (i, j) in entries {
                rows[i % n].push(j % n);
            }
            let p = SparsePattern::from_rows(n, rows).unwrap();
            // Independently of `is_valid_colouring`: every pair in every row differs.
            for i in 0..n {
                let r = p.row(i);
                for a in 0..r.len() {
                    proptest::prop_assert!(p.colour(r[a]) < p.colours());
                    for b in a + 1..r.len() {
                        proptest::prop_assert_ne!(p.colour(r[a]), p.colour(r[b]));
                    }
                }
            }
            let lower = (0..n).map(|i| p.row(i).len()).max().unwrap_or(0) as u32;
            proptest::prop_assert!(p.colours() >= lower);
            proptest::prop_assert!(p.colours() <= p.greedy().1);
        }
    }

    #[test]
    fn fill_by_colours_recovers_the_matrix() {
        let p = Arc::new(line(10, true));
        let mut m = SparseMatrix::zeros(p.clone());
        // A = tridiagonal with corners, entries 10·i + j.
        let a = |i: usize, j: usize| (10 * i + j) as f64 + 1.0;
        let (mut seed, mut out) = (vec![0.0; 10], vec![0.0; 10]);
        m.fill_by_colours(&mut seed, &mut out, |s, o| {
            for (i, oi) in o.iter_mut().enumerate() {
                *oi = p.row(i).iter().map(|&j| a(i, j) * s[j]).sum();
            }
        });
        for i in 0..10 {
            for j in 0..10 {
                let want = if p.row(i).contains(&j) { a(i, j) } else { 0.0 };
                assert_eq!(m.get(i, j), want);
            }
        }
    }

    #[test]
    fn blocks_repeat_the_pattern_and_colour_it_validly() {
        let p = plane(6, 7);
        for w in [1usize, 2, 3] {
            let b = p.blocks(w);
            assert_eq!(b.n(), w * p.n());
            assert_eq!(b.nnz(), w * w * p.nnz());
            assert_eq!(b.colours(), w as u32 * p.colours());
            assert!(b.is_valid_colouring(&b.colour), "w = {w}");
            for i in 0..b.n() {
                let (n, row) = (p.n(), p.row(i % p.n()));
                let want: Vec<usize> = (0..w)
                    .flat_map(|k| row.iter().map(move |&j| k * n + j))
                    .collect();
                assert_eq!(b.row(i), &want[..], "w = {w}, row {i}");
                assert!(b.row(i).contains(&i), "the diagonal of row {i}");
            }
        }
        assert_eq!(p.blocks(1), p);
    }

    #[test]
    fn bad_patterns_are_refused() {
        assert_eq!(
            SparsePattern::from_rows(2, [vec![0], vec![2]]),
            Err(PatternError::ColumnOutOfRange {
                row: 1,
                col: 2,
                n: 2
            })
        );
        assert_eq!(
            SparsePattern::from_rows(3, [vec![0], vec![1]]),
            Err(PatternError::RowCount { rows: 2, n: 3 })
        );
    }
}
