//! Numeric evaluation of the DAG in `f64`, for tests and tools (run-time code evaluates the IR).

use crate::error::EvalError;
use crate::graph::{FxMap, Graph};
use crate::node::{Node, NodeId, Symbol, SymbolId};

/// Values of symbol components and of the time.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    values: FxMap<Symbol, f64>,
    /// The time `t`.
    pub time: f64,
}

impl Bindings {
    /// No values, time 0.
    pub fn new() -> Bindings {
        Bindings::default()
    }

    /// Set one component.
    pub fn set(&mut self, s: Symbol, value: f64) -> &mut Bindings {
        self.values.insert(s, value);
        self
    }

    /// Set every component of a symbol from a slice.
    pub fn set_all(&mut self, id: SymbolId, values: &[f64]) -> &mut Bindings {
        for (c, v) in (0u32..).zip(values) {
            self.values.insert(Symbol { id, component: c }, *v);
        }
        self
    }

    /// The value of one component.
    pub fn get(&self, s: Symbol) -> Option<f64> {
        self.values.get(&s).copied()
    }
}

impl Graph {
    /// The value of `root`.
    pub fn eval(&self, root: NodeId, b: &Bindings) -> Result<f64, EvalError> {
        Ok(self.eval_many(&[root], b)?[0])
    }

    /// The values of `roots`, evaluating each shared node once.
    pub fn eval_many(&self, roots: &[NodeId], b: &Bindings) -> Result<Vec<f64>, EvalError> {
        let order = self.reachable(roots);
        let mut v: FxMap<NodeId, f64> = FxMap::default();
        v.reserve(order.len());
        for n in order {
            let x = match self.node(n) {
                Node::Const(c) => c.to_f64(),
                Node::Symbol(s) => b.get(*s).ok_or_else(|| EvalError::Unbound {
                    name: self.symbol_text(*s),
                })?,
                Node::Time => b.time,
                Node::Add(ts) => ts.iter().map(|t| v[t]).sum(),
                Node::Mul(fs) => fs.iter().map(|f| v[f]).product(),
                Node::Pow([base, e]) => pow(v[base], v[e]),
                Node::Call(f, args) => {
                    let xs: Vec<f64> = args.iter().map(|a| v[a]).collect();
                    f.apply(&xs)
                }
                Node::Opaque(o, _) => {
                    return Err(EvalError::Opaque {
                        name: self.opaque_name(*o).to_string(),
                    });
                }
            };
            v.insert(n, x);
        }
        Ok(roots.iter().map(|r| v[r]).collect())
    }
}

/// `b^e` with exact small integer powers (`powi` is what generated code uses for `x²`).
pub(crate) fn pow(b: f64, e: f64) -> f64 {
    if e == 0.5 {
        b.sqrt()
    } else if e.fract() == 0.0 && e.abs() <= 64.0 {
        b.powi(e as i32)
    } else {
        b.powf(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_and_reports_unbound() {
        let mut g = Graph::new();
        let x = g.declare_symbol("x", 2);
        let v = g.symbol_components(x);
        let s = g.sin(v[0]);
        let e = g.mul(&[s, v[1], Graph::TIME]);
        let mut b = Bindings::new();
        b.set_all(x, &[0.5, 3.0]);
        b.time = 2.0;
        assert_eq!(g.eval(e, &b), Ok(0.5f64.sin() * 3.0 * 2.0));
        let empty = Bindings::new();
        assert_eq!(
            g.eval(e, &empty),
            Err(EvalError::Unbound {
                name: "x[0]".into()
            })
        );
    }
}
