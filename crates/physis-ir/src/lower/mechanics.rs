//! Motion from a lagrangian or a hamiltonian, lowered to IR.
//!
//! `physis-symbolic` derives the equations (momenta, mass matrix, force, accelerations, or
//! Hamilton's equations, and the energy) as a DAG; this module walks the DAG in id order
//! (children first) into the [`Builder`], so a node shared by several equations becomes
//! one SSA value. A lagrangian whose mass matrix couples coordinates solves `M·a = b` at
//! run time with [`Op::Solve`](crate::ir::Op::Solve), which yields NaN for a singular `M`
//! so the driver ends the run as diverged.

use std::collections::HashMap;

use physis_check::{CheckedModel, SchemeOrder, StateId};
use physis_symbolic::{
    Acceleration, DerivedMotion, Graph, Lowering, NodeId, StateComponent, SymbolId, SymbolicError,
    Var,
};
use physis_syntax::{Code, Diagnostic, Span};

use super::LowerError;
use super::dag::ToIr;
use crate::builder::Builder;
use crate::ir::{Op, Source, ValueId};

/// The derived motion of one model, ready to be built into any function's builder.
pub(crate) struct Mechanics<'m> {
    lowering: Lowering<'m>,
    motion: DerivedMotion,
    /// Where each symbol is read from: `(source, first slot)`.
    symbols: HashMap<SymbolId, (Source, u32)>,
    /// The clause the equations come from (for diagnostics without a finer origin).
    span: Span,
}

/// A derived model's rates: state slot → value, and the position/velocity pairs a
/// second-order scheme steps.
pub(crate) struct Rates {
    pub by_slot: HashMap<u32, ValueId>,
    pub pairs: Vec<(usize, usize)>,
}

impl<'m> Mechanics<'m> {
    /// Derives the motion of `m`, or `None` when it has neither a lagrangian nor a
    /// hamiltonian. Symbolic failures become diagnostics at the construct's origin.
    pub(crate) fn derive(
        m: &'m CheckedModel,
        state_off: &[u32],
        param_off: &[u32],
    ) -> Result<Option<Mechanics<'m>>, LowerError> {
        let mech = &m.mechanics;
        let Some(source) = mech.lagrangian.as_ref().or(mech.hamiltonian.as_ref()) else {
            return Ok(None);
        };
        let span = source.span;
        let mut lowering = Lowering::new(m);
        let motion = lowering
            .motion()
            .map_err(|e| symbolic(&e, span))?
            .ok_or_else(|| invalid("mechanics with nothing derived"))?;
        let mut symbols = HashMap::new();
        for (i, off) in param_off.iter().enumerate() {
            if let Some(s) = lowering.param(physis_check::ParamId(i)) {
                symbols.insert(s, (Source::Param, *off));
            }
        }
        for (i, off) in state_off.iter().enumerate() {
            if let Some(s) = lowering.state(StateId(i)) {
                symbols.insert(s, (Source::State, *off));
            }
            // `u'` of a first-order state, as observes and stops read it.
            let r = lowering.rate(StateId(i));
            symbols.insert(r, (Source::Rate, *off));
        }
        for i in 0..m.noises.len() {
            if let Some(s) = lowering.noise(physis_check::NoiseId(i)) {
                symbols.insert(s, (Source::Noise, i as u32));
            }
        }
        Ok(Some(Mechanics {
            lowering,
            motion,
            symbols,
            span,
        }))
    }

    /// The rate of every state component the equations move, built into `b`.
    pub(crate) fn rates(
        &self,
        b: &mut Builder,
        m: &CheckedModel,
        state_off: &[u32],
    ) -> Result<Rates, LowerError> {
        let g = self.lowering.graph();
        let mut cv = ToIr::new(g, &self.symbols);
        let slot = |(s, c): StateComponent| -> Result<u32, LowerError> {
            state_off
                .get(s.0)
                .map(|o| o + c)
                .ok_or_else(|| invalid("a moved state that does not exist"))
        };
        let mut by_slot = HashMap::new();
        let mut pairs = Vec::new();
        match &self.motion {
            DerivedMotion::Lagrange {
                coordinates,
                velocities,
                equations,
            } => {
                let n = coordinates.len();
                let accel = match &equations.acceleration {
                    Acceleration::Explicit(a) => {
                        let vals = a
                            .iter()
                            .map(|x| cv.value(b, *x))
                            .collect::<Result<Vec<_>, _>>()?;
                        (a.clone(), vals)
                    }
                    Acceleration::Solve => {
                        let mut flat = Vec::with_capacity(n * n);
                        for row in &equations.mass {
                            for x in row {
                                flat.push(cv.value(b, *x)?);
                            }
                        }
                        let force = equations
                            .force
                            .iter()
                            .map(|x| cv.value(b, *x))
                            .collect::<Result<Vec<_>, _>>()?;
                        let mm = b.pack(flat)?;
                        let rhs = b.pack(force)?;
                        let x = b.push(Op::Solve(mm, rhs))?;
                        let vals = (0..n as u32)
                            .map(|k| b.index(x, k))
                            .collect::<Result<Vec<_>, _>>()?;
                        let mut nodes: Vec<NodeId> = equations.force.clone();
                        nodes.extend(equations.mass.iter().flatten().copied());
                        (nodes, vals)
                    }
                    _ => return Err(invalid("an acceleration form the IR does not know")),
                };
                let (accel_nodes, accel_vals) = accel;
                for (v, a) in velocities.iter().zip(&accel_vals) {
                    by_slot.insert(slot(*v)?, *a);
                }
                // The acceleration reads velocities? Then it is not x'' = a(t, x).
                let vel_vars: Vec<Var> = velocities
                    .iter()
                    .filter_map(|(s, c)| {
                        let id = self.lowering.state(*s)?;
                        Some(Var::Symbol(physis_symbolic::Symbol { id, component: *c }))
                    })
                    .collect();
                let reads_velocity = accel_nodes
                    .iter()
                    .any(|a| vel_vars.iter().any(|v| g.depends_on(*a, *v)));
                if reads_velocity {
                    if m.integrate.scheme.order == SchemeOrder::Second {
                        return Err(LowerError::Symbolic {
                            diagnostic: Box::new(
                                Diagnostic::error(
                                    Code::SecondOrderScheme,
                                    self.span,
                                    format!(
                                        "`{}` needs an acceleration that reads no velocity, \
                                         and this lagrangian's does",
                                        m.integrate.scheme.name
                                    ),
                                )
                                .with_secondary(
                                    m.integrate.span,
                                    "second-order scheme chosen here",
                                ),
                            ),
                        });
                    }
                } else {
                    for (q, v) in coordinates.iter().zip(velocities) {
                        pairs.push((slot(*q)? as usize, slot(*v)? as usize));
                    }
                }
            }
            DerivedMotion::Hamilton {
                positions,
                momenta,
                equations,
            } => {
                for (q, r) in positions.iter().zip(&equations.position_rates) {
                    by_slot.insert(slot(*q)?, cv.value(b, *r)?);
                }
                for (p, r) in momenta.iter().zip(&equations.momentum_rates) {
                    by_slot.insert(slot(*p)?, cv.value(b, *r)?);
                }
            }
            _ => return Err(invalid("a derived motion the IR does not know")),
        }
        Ok(Rates { by_slot, pairs })
    }

    /// The energy `hamiltonian` reads as, built into `b`.
    pub(crate) fn energy(&self, b: &mut Builder) -> Result<ValueId, LowerError> {
        let e = match &self.motion {
            DerivedMotion::Lagrange { equations, .. } => equations.energy,
            DerivedMotion::Hamilton { equations, .. } => equations.energy,
            _ => return Err(invalid("a derived motion the IR does not know")),
        };
        ToIr::new(self.lowering.graph(), &self.symbols).value(b, e)
    }
}

/// A model's derived equations of motion and the graph they live in (for `physis derive`).
#[derive(Debug)]
pub struct Derivation {
    /// The expression DAG the equations' nodes belong to.
    pub graph: Graph,
    /// The equations.
    pub motion: DerivedMotion,
    states: Vec<Option<SymbolId>>,
}

impl Derivation {
    /// A state component as a node of [`Derivation::graph`], to print it.
    pub fn state_node(&mut self, (state, component): StateComponent) -> Option<NodeId> {
        let id = (*self.states.get(state.0)?)?;
        Some(self.graph.symbol(id, component))
    }
}

/// Derives the motion of `m` on its own (for `physis derive`), or `None` when it has
/// neither a lagrangian nor a hamiltonian; a failure is a diagnostic with its span.
pub fn derive_motion(m: &CheckedModel) -> Result<Option<Derivation>, Box<Diagnostic>> {
    let mech = &m.mechanics;
    let Some(source) = mech.lagrangian.as_ref().or(mech.hamiltonian.as_ref()) else {
        return Ok(None);
    };
    let mut lowering = Lowering::new(m);
    match lowering.motion() {
        Ok(Some(motion)) => {
            let states = (0..m.states.len())
                .map(|i| lowering.state(StateId(i)))
                .collect();
            Ok(Some(Derivation {
                graph: lowering.into_graph(),
                motion,
                states,
            }))
        }
        Ok(None) => Ok(None),
        Err(e) => Err(Box::new(e.to_diagnostic(source.span))),
    }
}

fn symbolic(e: &SymbolicError, fallback: Span) -> LowerError {
    LowerError::Symbolic {
        diagnostic: Box::new(e.to_diagnostic(fallback)),
    }
}

fn invalid(problem: &str) -> LowerError {
    LowerError::Invalid {
        problem: problem.to_string(),
    }
}
