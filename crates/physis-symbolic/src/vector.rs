//! Vectors as lists of scalar nodes: a quantity of size n is n expressions, so every
//! derivative, Jacobian entry and simplification works per component.

use crate::error::SymbolicError;
use crate::graph::Graph;
use crate::node::{Func, NodeId, SymbolId};

/// A scalar or a vector (one node per component), as the checker's shapes lower.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// One number.
    Scalar(NodeId),
    /// Components in order (a 2-D field is flattened row by row by its owner).
    Vector(Vec<NodeId>),
}

/// An arithmetic operation applied component by component (a scalar operand broadcasts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Arith {
    /// `a + b`.
    Add,
    /// `a − b`.
    Sub,
    /// `a · b` (the component product for two vectors).
    Mul,
    /// `a / b`.
    Div,
}

impl Arith {
    fn symbol(self) -> &'static str {
        match self {
            Arith::Add => "+",
            Arith::Sub => "−",
            Arith::Mul => "·",
            Arith::Div => "/",
        }
    }
}

impl Value {
    /// Number of components (1 for a scalar).
    pub fn len(&self) -> usize {
        match self {
            Value::Scalar(_) => 1,
            Value::Vector(v) => v.len(),
        }
    }

    /// Whether this is a vector with no components.
    pub fn is_empty(&self) -> bool {
        matches!(self, Value::Vector(v) if v.is_empty())
    }

    /// The components (one for a scalar).
    pub fn components(&self) -> &[NodeId] {
        match self {
            Value::Scalar(s) => std::slice::from_ref(s),
            Value::Vector(v) => v,
        }
    }

    /// The scalar, or an error naming `operation` for a vector.
    pub fn scalar(&self, operation: &'static str) -> Result<NodeId, SymbolicError> {
        match self {
            Value::Scalar(s) => Ok(*s),
            Value::Vector(v) => Err(SymbolicError::NotScalar {
                operation,
                len: v.len(),
            }),
        }
    }

    /// Component `i` of a vector (`x[i]`, 0-based); a scalar has only component 0.
    pub fn index(&self, i: usize) -> Result<NodeId, SymbolicError> {
        self.components()
            .get(i)
            .copied()
            .ok_or(SymbolicError::IndexOutOfRange {
                index: i,
                len: self.len(),
            })
    }
}

impl Graph {
    /// A declared symbol as a value: a scalar for size 1, else a vector of its components.
    pub fn value_of(&mut self, id: SymbolId) -> Value {
        let cs = self.symbol_components(id);
        if cs.len() == 1 {
            Value::Scalar(cs[0])
        } else {
            Value::Vector(cs)
        }
    }

    /// `a op b` component by component; a scalar operand is broadcast over a vector.
    pub fn arith(&mut self, op: Arith, a: &Value, b: &Value) -> Result<Value, SymbolicError> {
        let one = |g: &mut Graph, x: NodeId, y: NodeId| match op {
            Arith::Add => g.add2(x, y),
            Arith::Sub => g.sub(x, y),
            Arith::Mul => g.mul2(x, y),
            Arith::Div => g.div(x, y),
        };
        Ok(match (a, b) {
            (Value::Scalar(x), Value::Scalar(y)) => Value::Scalar(one(self, *x, *y)),
            (Value::Scalar(x), Value::Vector(ys)) => {
                Value::Vector(ys.iter().map(|y| one(self, *x, *y)).collect())
            }
            (Value::Vector(xs), Value::Scalar(y)) => {
                Value::Vector(xs.iter().map(|x| one(self, *x, *y)).collect())
            }
            (Value::Vector(xs), Value::Vector(ys)) => {
                if xs.len() != ys.len() {
                    return Err(SymbolicError::SizeMismatch {
                        operation: op.symbol(),
                        left: xs.len(),
                        right: ys.len(),
                    });
                }
                Value::Vector(xs.iter().zip(ys).map(|(x, y)| one(self, *x, *y)).collect())
            }
        })
    }

    /// `−a` per component.
    pub fn neg_value(&mut self, a: &Value) -> Value {
        self.map_value(a, |g, x| g.neg(x))
    }

    /// `f` applied to each component (`sin` of a vector is the vector of sines).
    pub fn call_value(&mut self, f: Func, a: &Value) -> Value {
        self.map_value(a, |g, x| g.call(f, &[x]))
    }

    /// `a^e` per component for a scalar exponent.
    pub fn pow_value(&mut self, a: &Value, e: NodeId) -> Value {
        self.map_value(a, |g, x| g.pow(x, e))
    }

    fn map_value(&mut self, a: &Value, mut f: impl FnMut(&mut Graph, NodeId) -> NodeId) -> Value {
        match a {
            Value::Scalar(x) => Value::Scalar(f(self, *x)),
            Value::Vector(xs) => Value::Vector(xs.iter().map(|x| f(self, *x)).collect()),
        }
    }

    /// `Σ aᵢ·bᵢ`.
    pub fn dot(&mut self, a: &[NodeId], b: &[NodeId]) -> Result<NodeId, SymbolicError> {
        if a.len() != b.len() {
            return Err(SymbolicError::SizeMismatch {
                operation: "dot",
                left: a.len(),
                right: b.len(),
            });
        }
        let terms: Vec<NodeId> = a.iter().zip(b).map(|(x, y)| self.mul2(*x, *y)).collect();
        Ok(self.add(&terms))
    }

    /// `a × b` for two vectors of size 3.
    pub fn cross(&mut self, a: &[NodeId], b: &[NodeId]) -> Result<[NodeId; 3], SymbolicError> {
        let (&[a0, a1, a2], &[b0, b1, b2]) = (a, b) else {
            return Err(SymbolicError::CrossSize {
                left: a.len(),
                right: b.len(),
            });
        };
        let mut det = |x: NodeId, y: NodeId, z: NodeId, w: NodeId| {
            let p = self.mul2(x, y);
            let q = self.mul2(z, w);
            self.sub(p, q)
        };
        Ok([
            det(a1, b2, a2, b1),
            det(a2, b0, a0, b2),
            det(a0, b1, a1, b0),
        ])
    }

    /// `√(Σ aᵢ²)` (`|a₀|` for one component).
    pub fn norm(&mut self, a: &[NodeId]) -> NodeId {
        let squares: Vec<NodeId> = a.iter().map(|x| self.powi(*x, 2)).collect();
        let s = self.add(&squares);
        self.sqrt(s)
    }

    /// `Σ aᵢ`.
    pub fn sum(&mut self, a: &[NodeId]) -> NodeId {
        self.add(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kinks;
    use crate::node::{Symbol, Var};

    #[test]
    fn cross_of_basis_vectors_and_sizes() {
        let mut g = Graph::new();
        let e = |i: usize| -> Vec<NodeId> {
            (0..3)
                .map(|j| if i == j { Graph::ONE } else { Graph::ZERO })
                .collect()
        };
        let (x, y, z) = (e(0), e(1), e(2));
        assert_eq!(g.cross(&x, &y).unwrap().to_vec(), z);
        assert_eq!(
            g.cross(&y, &x).unwrap().to_vec(),
            vec![Graph::ZERO, Graph::ZERO, Graph::MINUS_ONE]
        );
        assert_eq!(
            g.cross(&x[..2], &y),
            Err(SymbolicError::CrossSize { left: 2, right: 3 })
        );
        assert!(matches!(
            g.dot(&x, &y[..2]),
            Err(SymbolicError::SizeMismatch { .. })
        ));
    }

    #[test]
    fn norm_derivative_is_the_unit_vector() {
        let mut g = Graph::new();
        let q = g.declare_symbol("q", 2);
        let v = g.symbol_components(q);
        let n = g.norm(&v);
        let d0 = g
            .diff(
                n,
                Var::Symbol(Symbol {
                    id: q,
                    component: 0,
                }),
                Kinks::Refuse,
            )
            .unwrap();
        assert_eq!(d0, g.div(v[0], n));
        let a = Value::Vector(v.clone());
        let s = Value::Scalar(Graph::ONE);
        let sum = g.arith(Arith::Add, &a, &s).unwrap();
        assert_eq!(sum.len(), 2);
        assert_eq!(
            sum.index(2),
            Err(SymbolicError::IndexOutOfRange { index: 2, len: 2 })
        );
    }
}
