//! Jacobians: dense for small models (implicit schemes, the stability check), and a sparsity
//! pattern with entries only where an output reads an input, for grids.

use crate::diff::Kinks;
use crate::error::SymbolicError;
use crate::graph::{FxMap, Graph};
use crate::node::{Node, NodeId, Var};

/// Which inputs each output reads, in compressed-row form (rows = outputs, columns = inputs,
/// columns sorted within a row). Structural: an entry may still simplify to zero.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SparsityPattern {
    /// Number of inputs (columns).
    pub columns: usize,
    /// `row_starts[i]..row_starts[i + 1]` indexes `indices` for output `i`.
    pub row_starts: Vec<usize>,
    /// Column indices of the entries, row by row.
    pub indices: Vec<u32>,
}

impl SparsityPattern {
    /// Number of outputs (rows).
    pub fn rows(&self) -> usize {
        self.row_starts.len().saturating_sub(1)
    }

    /// The inputs output `i` reads.
    pub fn row(&self, i: usize) -> &[u32] {
        match (self.row_starts.get(i), self.row_starts.get(i + 1)) {
            (Some(a), Some(b)) => &self.indices[*a..*b],
            _ => &[],
        }
    }

    /// Number of structural entries.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Whether output `i` reads input `j`.
    pub fn contains(&self, i: usize, j: usize) -> bool {
        u32::try_from(j).is_ok_and(|j| self.row(i).binary_search(&j).is_ok())
    }
}

/// A sparse Jacobian: the pattern and one expression per structural entry, in pattern order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseJacobian {
    /// Where the entries are.
    pub pattern: SparsityPattern,
    /// `∂outputᵢ/∂inputⱼ` for each entry of the pattern, in the same order as `indices`.
    pub values: Vec<NodeId>,
}

impl Graph {
    /// `J[i][j] = ∂outputs[i]/∂inputs[j]` as a dense matrix of expressions.
    pub fn jacobian(
        &mut self,
        outputs: &[NodeId],
        inputs: &[Var],
        kinks: Kinks,
    ) -> Result<Vec<Vec<NodeId>>, SymbolicError> {
        let mut j = vec![vec![Graph::ZERO; inputs.len()]; outputs.len()];
        for (col, v) in inputs.iter().enumerate() {
            let d = self.diff_many(outputs, *v, kinks)?;
            for (row, x) in d.into_iter().enumerate() {
                j[row][col] = x;
            }
        }
        Ok(j)
    }

    /// The structural sparsity of `∂outputs/∂inputs`: which inputs each output reads.
    pub fn sparsity(&self, outputs: &[NodeId], inputs: &[Var]) -> SparsityPattern {
        let column: FxMap<Var, u32> = inputs.iter().zip(0u32..).map(|(v, i)| (*v, i)).collect();
        let mut deps: FxMap<NodeId, Vec<u32>> = FxMap::default();
        for n in self.reachable(outputs) {
            let node = self.node(n);
            let own = match node {
                Node::Symbol(s) => column.get(&Var::Symbol(*s)).copied(),
                Node::Time => column.get(&Var::Time).copied(),
                _ => None,
            };
            let mut set: Vec<u32> = own.into_iter().collect();
            for c in node.children() {
                set = merge(&set, &deps[c]);
            }
            deps.insert(n, set);
        }
        let mut row_starts = vec![0];
        let mut indices = Vec::new();
        for o in outputs {
            indices.extend_from_slice(&deps[o]);
            row_starts.push(indices.len());
        }
        SparsityPattern {
            columns: inputs.len(),
            row_starts,
            indices,
        }
    }

    /// The Jacobian with entries only where the pattern has them (for grids: a few per row).
    pub fn sparse_jacobian(
        &mut self,
        outputs: &[NodeId],
        inputs: &[Var],
        kinks: Kinks,
    ) -> Result<SparseJacobian, SymbolicError> {
        let pattern = self.sparsity(outputs, inputs);
        let mut values = Vec::with_capacity(pattern.nnz());
        for (i, o) in outputs.iter().enumerate() {
            for j in pattern.row(i).to_vec() {
                values.push(self.diff(*o, inputs[j as usize], kinks)?);
            }
        }
        Ok(SparseJacobian { pattern, values })
    }
}

/// Union of two sorted sets.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    if a.is_empty() {
        return b.to_vec();
    }
    if b.is_empty() {
        return a.to_vec();
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::Symbol;

    #[test]
    fn laplacian_stencil_is_tridiagonal() {
        let n = 6u32;
        let mut g = Graph::new();
        let u = g.declare_symbol("u", n);
        let us = g.symbol_components(u);
        // Dirichlet zero ends: u'[i] = u[i-1] − 2u[i] + u[i+1].
        let mut rhs = Vec::new();
        for i in 0..n as usize {
            let l = if i == 0 { Graph::ZERO } else { us[i - 1] };
            let r = if i + 1 == n as usize {
                Graph::ZERO
            } else {
                us[i + 1]
            };
            let m = g.scale(crate::Number::int(-2), us[i]);
            rhs.push(g.add(&[l, m, r]));
        }
        let inputs: Vec<Var> = (0..n)
            .map(|c| {
                Var::Symbol(Symbol {
                    id: u,
                    component: c,
                })
            })
            .collect();
        let j = g.sparse_jacobian(&rhs, &inputs, Kinks::Refuse).unwrap();
        assert_eq!(j.pattern.nnz(), 3 * n as usize - 2);
        assert_eq!(j.pattern.row(0), &[0, 1]);
        assert_eq!(j.pattern.row(3), &[2, 3, 4]);
        assert!(!j.pattern.contains(0, 5));
        let vals: Vec<f64> = j
            .values
            .iter()
            .map(|v| g.as_const(*v).unwrap().to_f64())
            .collect();
        assert_eq!(&vals[..5], &[-2.0, 1.0, 1.0, -2.0, 1.0]);
        let dense = g.jacobian(&rhs, &inputs, Kinks::Refuse).unwrap();
        assert_eq!(dense[3][2], Graph::ONE);
        assert_eq!(dense[3][5], Graph::ZERO);
    }
}
