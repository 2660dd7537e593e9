//! From the checker's expressions to the DAG, and from a checked model's mechanics to its
//! equations of motion.
//!
//! Params, states and noises become symbols named as written (a vector or field has one
//! component per element; a 2-D field is flattened row-major, the first index slowest).
//! Constants are already SI numbers. `hamiltonian` read in an expression is the energy.
//! Grid stencils and scheme bodies have no symbolic form here: the IR lowers them over whole
//! arrays.

use physis_check::{
    ArithOp, Builtin, CheckedModel, Expr, ExprKind, NoiseId, ParamId, Shape, StateId,
};

use crate::error::SymbolicError;
use crate::graph::{FxMap, Graph};
use crate::node::{Func, NodeId, OpaqueId, SymbolId};
use crate::vector::{Arith, Value};

mod motion;

pub use motion::DerivedMotion;

/// A component of a state: `(state, component)`.
pub type StateComponent = (StateId, u32);

/// Lowers one checked model's expressions into a [`Graph`] it owns.
#[derive(Debug)]
pub struct Lowering<'m> {
    model: &'m CheckedModel,
    graph: Graph,
    params: Vec<SymbolId>,
    states: Vec<SymbolId>,
    noises: Vec<SymbolId>,
    rates: FxMap<StateId, SymbolId>,
    max_abs: Option<OpaqueId>,
    energy: Option<NodeId>,
    lowering_energy: bool,
}

impl<'m> Lowering<'m> {
    /// Declare a symbol for every param, state and noise of `model`.
    pub fn new(model: &'m CheckedModel) -> Lowering<'m> {
        let mut graph = Graph::new();
        let nodes = grid_nodes(model);
        let size = |s: Shape| u32::try_from(s.len(nodes)).unwrap_or(u32::MAX);
        let params = model
            .params
            .iter()
            .map(|p| graph.declare_symbol(p.name.clone(), size(p.shape)))
            .collect();
        let states = model
            .states
            .iter()
            .map(|s| graph.declare_symbol(s.name.clone(), size(s.shape)))
            .collect();
        let noises = model
            .noises
            .iter()
            .map(|n| graph.declare_symbol(n.name.clone(), 1))
            .collect();
        Lowering {
            model,
            graph,
            params,
            states,
            noises,
            rates: FxMap::default(),
            max_abs: None,
            energy: None,
            lowering_energy: false,
        }
    }

    /// The graph built so far.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The graph, to build or differentiate further.
    pub fn graph_mut(&mut self) -> &mut Graph {
        &mut self.graph
    }

    /// The graph, ending the lowering.
    pub fn into_graph(self) -> Graph {
        self.graph
    }

    /// The symbol of a param (`None` for an id of another model).
    pub fn param(&self, id: ParamId) -> Option<SymbolId> {
        self.params.get(id.0).copied()
    }

    /// The symbol of a state.
    pub fn state(&self, id: StateId) -> Option<SymbolId> {
        self.states.get(id.0).copied()
    }

    /// The symbol of a noise.
    pub fn noise(&self, id: NoiseId) -> Option<SymbolId> {
        self.noises.get(id.0).copied()
    }

    /// The symbol standing for the rate `u'` of a first-order state, as stop clauses read it.
    pub fn rate(&mut self, id: StateId) -> SymbolId {
        if let Some(s) = self.rates.get(&id) {
            return *s;
        }
        let (name, len) = self
            .state(id)
            .and_then(|s| self.graph.symbol_info(s))
            .map_or(("?'".to_string(), 1), |i| (format!("{}'", i.name), i.len));
        let s = self.graph.declare_symbol(name, len);
        self.rates.insert(id, s);
        s
    }

    fn symbol_value(
        &mut self,
        s: Option<SymbolId>,
        what: &str,
        e: &Expr,
    ) -> Result<Value, SymbolicError> {
        let s = s.ok_or_else(|| not_symbolic(what, e))?;
        Ok(self.graph.value_of(s))
    }

    /// Lower a checked expression: a scalar, or one node per component.
    pub fn expr(&mut self, e: &Expr) -> Result<Value, SymbolicError> {
        let v = self.lower(e)?;
        for c in v.components() {
            self.graph.set_origin(*c, e.span);
        }
        Ok(v)
    }

    fn scalar(&mut self, e: &Expr, operation: &'static str) -> Result<NodeId, SymbolicError> {
        self.expr(e)?.scalar(operation)
    }

    fn lower(&mut self, e: &Expr) -> Result<Value, SymbolicError> {
        let g = &mut self.graph;
        Ok(match &e.kind {
            ExprKind::Const(v) | ExprKind::Constant { value: v, .. } => {
                Value::Scalar(g.constant(*v))
            }
            ExprKind::Time => Value::Scalar(Graph::TIME),
            ExprKind::Param(id) => return self.symbol_value(self.param(*id), "a param", e),
            ExprKind::State(id) => return self.symbol_value(self.state(*id), "a state", e),
            ExprKind::Noise(id) => return self.symbol_value(self.noise(*id), "a noise", e),
            ExprKind::Rate(id) => {
                let s = self.rate(*id);
                self.graph.value_of(s)
            }
            ExprKind::GridCoord(axis) => self.grid_coord(*axis, e)?,
            ExprKind::Hamiltonian => Value::Scalar(
                self.energy()?
                    .ok_or_else(|| not_symbolic("hamiltonian", e))?,
            ),
            ExprKind::Vector(items) => {
                let mut cs = Vec::with_capacity(items.len());
                for item in items {
                    cs.extend_from_slice(self.expr(item)?.components());
                }
                Value::Vector(cs)
            }
            ExprKind::Neg(a) => {
                let a = self.expr(a)?;
                self.graph.neg_value(&a)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                let op = match op {
                    ArithOp::Add => Arith::Add,
                    ArithOp::Sub => Arith::Sub,
                    ArithOp::Mul => Arith::Mul,
                    _ => Arith::Div,
                };
                self.graph.arith(op, &a, &b)?
            }
            ExprKind::Pow { base, exponent } => {
                let b = self.expr(base)?;
                let x = self.scalar(exponent, "an exponent")?;
                self.graph.pow_value(&b, x)
            }
            ExprKind::Call { func, args } => self.call(*func, args, e)?,
            ExprKind::Index { base, index } => {
                let v = self.expr(base)?;
                let flat = match index.as_slice() {
                    [i] => *i,
                    [i, j] => {
                        let cols = self
                            .model
                            .grid
                            .as_ref()
                            .and_then(|g| g.sizes.get(1))
                            .copied();
                        i * cols.unwrap_or(1) + j
                    }
                    _ => usize::MAX,
                };
                Value::Scalar(v.index(flat)?)
            }
            _ => return Err(not_symbolic("a scheme expression", e)),
        })
    }

    fn call(&mut self, f: Builtin, args: &[Expr], e: &Expr) -> Result<Value, SymbolicError> {
        let mut vs = Vec::with_capacity(args.len());
        for a in args {
            vs.push(self.expr(a)?);
        }
        let unary = |f: Func| Some(f);
        let func = match f {
            Builtin::Sin => unary(Func::Sin),
            Builtin::Cos => unary(Func::Cos),
            Builtin::Tan => unary(Func::Tan),
            Builtin::Asin => unary(Func::Asin),
            Builtin::Acos => unary(Func::Acos),
            Builtin::Atan => unary(Func::Atan),
            Builtin::Sinh => unary(Func::Sinh),
            Builtin::Cosh => unary(Func::Cosh),
            Builtin::Tanh => unary(Func::Tanh),
            Builtin::Exp => unary(Func::Exp),
            Builtin::Log => unary(Func::Log),
            Builtin::Abs => unary(Func::Abs),
            Builtin::Sign => unary(Func::Sign),
            Builtin::Floor => unary(Func::Floor),
            Builtin::Ceil => unary(Func::Ceil),
            _ => None,
        };
        let arg = |i: usize| vs.get(i).cloned().unwrap_or(Value::Scalar(Graph::ZERO));
        let g = &mut self.graph;
        if let Some(func) = func {
            return Ok(g.call_value(func, &arg(0)));
        }
        Ok(match f {
            Builtin::Log10 => {
                let l = g.call_value(Func::Log, &arg(0));
                let k = g.constant(std::f64::consts::LN_10.recip());
                g.arith(Arith::Mul, &l, &Value::Scalar(k))?
            }
            Builtin::Sqrt => {
                let half = g.rational(1, 2);
                g.pow_value(&arg(0), half)
            }
            Builtin::Min | Builtin::Max | Builtin::Atan2 | Builtin::Hypot => {
                let (a, b) = (arg(0), arg(1));
                let pairs = zip_broadcast(&a, &b)?;
                let out: Vec<NodeId> = pairs
                    .into_iter()
                    .map(|(x, y)| match f {
                        Builtin::Min => g.call(Func::Min, &[x, y]),
                        Builtin::Max => g.call(Func::Max, &[x, y]),
                        Builtin::Atan2 => g.call(Func::Atan2, &[x, y]),
                        _ => g.norm(&[x, y]),
                    })
                    .collect();
                match (&a, &b) {
                    (Value::Scalar(_), Value::Scalar(_)) => Value::Scalar(out[0]),
                    _ => Value::Vector(out),
                }
            }
            Builtin::Norm => Value::Scalar(g.norm(arg(0).components())),
            Builtin::Dot => Value::Scalar(g.dot(arg(0).components(), arg(1).components())?),
            Builtin::Cross => {
                Value::Vector(g.cross(arg(0).components(), arg(1).components())?.to_vec())
            }
            Builtin::Sum => Value::Scalar(g.add(arg(0).components())),
            Builtin::Mean => {
                let a = arg(0);
                let s = g.add(a.components());
                let n = g.constant(a.len() as f64);
                Value::Scalar(g.div(s, n))
            }
            Builtin::MaxAbs => {
                let id = *self
                    .max_abs
                    .get_or_insert_with(|| self.graph.declare_opaque("maxAbs"));
                Value::Scalar(self.graph.opaque(id, arg(0).components()))
            }
            _ => return Err(not_symbolic(&format!("{f:?}"), e)),
        })
    }

    fn grid_coord(&mut self, axis: usize, e: &Expr) -> Result<Value, SymbolicError> {
        let grid = self
            .model
            .grid
            .as_ref()
            .ok_or_else(|| not_symbolic("a grid coordinate", e))?;
        let (n, m) = (
            grid.sizes.first().copied().unwrap_or(1),
            grid.sizes.get(1).copied(),
        );
        let step = |k: usize| {
            let len = grid.sizes.get(k).copied().unwrap_or(1);
            let (a, b) = (
                grid.from.get(k).copied().unwrap_or(0.0),
                grid.to.get(k).copied().unwrap_or(0.0),
            );
            (
                a,
                if len > 1 {
                    (b - a) / (len - 1) as f64
                } else {
                    0.0
                },
            )
        };
        let (a, h) = step(axis);
        let mut cs = Vec::with_capacity(n * m.unwrap_or(1));
        for i in 0..n {
            for j in 0..m.unwrap_or(1) {
                let k = if axis == 0 { i } else { j };
                cs.push(self.graph.constant(a + k as f64 * h));
            }
        }
        Ok(Value::Vector(cs))
    }
}

fn grid_nodes(model: &CheckedModel) -> usize {
    model.grid.as_ref().map_or(1, |g| g.sizes.iter().product())
}

fn not_symbolic(what: &str, e: &Expr) -> SymbolicError {
    SymbolicError::NotSymbolic {
        construct: what.to_string(),
        origin: Some(e.span),
    }
}

fn zip_broadcast(a: &Value, b: &Value) -> Result<Vec<(NodeId, NodeId)>, SymbolicError> {
    let (x, y) = (a.components(), b.components());
    Ok(match (x.len(), y.len()) {
        (n, m) if n == m => x.iter().copied().zip(y.iter().copied()).collect(),
        (1, _) => y.iter().map(|v| (x[0], *v)).collect(),
        (_, 1) => x.iter().map(|v| (*v, y[0])).collect(),
        (n, m) => {
            return Err(SymbolicError::SizeMismatch {
                operation: "a function of two arguments",
                left: n,
                right: m,
            });
        }
    })
}
