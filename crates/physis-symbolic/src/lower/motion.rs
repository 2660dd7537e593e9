//! The mechanics of a checked model: the energy `hamiltonian` reads as, and the equations of
//! motion of its lagrangian (with dissipation and efforts) or hamiltonian.

use physis_check::{Motion, StateId};

use super::{Lowering, StateComponent, not_symbolic};
use crate::error::SymbolicError;
use crate::graph::MAX_DERIVATION_WORK;
use crate::mechanics::{
    Conjugate, Coordinate, EulerLagrange, HamiltonEquations, HamiltonianSystem, LagrangianSystem,
    lagrangian_energy,
};
use crate::node::{NodeId, Symbol};

/// The equations of motion of a model's lagrangian or hamiltonian.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DerivedMotion {
    /// From `lagrangian ≔ L`: `coordinates[i]` has velocity `velocities[i]`, whose rate is the
    /// acceleration of row `i` of `equations`.
    Lagrange {
        /// The coordinate components moved, in state order.
        coordinates: Vec<StateComponent>,
        /// Their velocity components, in the same order.
        velocities: Vec<StateComponent>,
        /// `M·a = b` and the energy.
        equations: EulerLagrange,
    },
    /// From `hamiltonian ≔ H`: `positions[i]` has rate `equations.position_rates[i]` and its
    /// conjugate `momenta[i]` rate `equations.momentum_rates[i]`.
    Hamilton {
        /// The coordinate components moved.
        positions: Vec<StateComponent>,
        /// Their conjugate momenta.
        momenta: Vec<StateComponent>,
        /// Hamilton's equations.
        equations: HamiltonEquations,
    },
}

impl Lowering<'_> {
    /// Refuses, before any derivative is taken, a derivation of `n` coordinates from energies
    /// spanning `roots` whose planned work passes [`MAX_DERIVATION_WORK`]: n × (nodes + n),
    /// the node derivatives of n passes over the energies and of the n×n mass matrix.
    fn plan(&self, roots: &[NodeId], n: usize) -> Result<(), SymbolicError> {
        let nodes = self.graph.count_nodes(roots);
        check_work(planned_work(nodes as u64, n as u64))?;
        self.graph.check_budget()
    }

    /// The energy `hamiltonian` reads as: `H`, or `Σ q̇·∂L/∂q̇ − L`; `None` without either.
    pub fn energy(&mut self) -> Result<Option<NodeId>, SymbolicError> {
        if let Some(e) = self.energy {
            return Ok(Some(e));
        }
        let mech = &self.model.mechanics;
        let source = mech.hamiltonian.as_ref().or(mech.lagrangian.as_ref());
        let Some(source) = source else {
            return Ok(None);
        };
        if self.lowering_energy {
            // An energy that reads itself: refused rather than looping.
            return Err(not_symbolic("hamiltonian inside the energy", source));
        }
        self.lowering_energy = true;
        let lowered = self.expr(source).and_then(|v| v.scalar("an energy"));
        self.lowering_energy = false;
        let value = lowered?;
        let e = if mech.hamiltonian.is_some() {
            value
        } else {
            let coords = self.coordinates().symbols;
            lagrangian_energy(&mut self.graph, value, &coords, crate::Kinks::Refuse)?
        };
        self.energy = Some(e);
        Ok(Some(e))
    }

    /// Coordinates a lagrangian moves: states whose velocity state has
    /// [`Motion::Lagrangian`], component by component.
    /// `x` for a scalar state, `x[1]` for a component of a vector one.
    fn component_name(&self, q: StateId, c: u32) -> String {
        let name = self.model.states.get(q.0).map_or("?", |s| s.name.as_str());
        let len = self
            .state(q)
            .and_then(|id| self.graph.symbol_info(id))
            .map_or(1, |s| s.len);
        if len > 1 {
            format!("{name}[{c}]")
        } else {
            name.to_string()
        }
    }

    fn coordinates(&self) -> Moved {
        let mut moved = Moved::default();
        for (i, st) in self.model.states.iter().enumerate() {
            let Some(vel) = st.velocity else { continue };
            if !matches!(
                self.model.states.get(vel.0).map(|s| &s.motion),
                Some(Motion::Lagrangian)
            ) {
                continue;
            }
            let q = StateId(i);
            let (Some(qs_id), Some(vs_id)) = (self.state(q), self.state(vel)) else {
                continue;
            };
            let len = self.graph.symbol_info(qs_id).map_or(1, |s| s.len);
            for c in 0..len {
                moved.coordinates.push((q, c));
                moved.velocities.push((vel, c));
                moved.symbols.push(Coordinate {
                    position: Symbol {
                        id: qs_id,
                        component: c,
                    },
                    velocity: Symbol {
                        id: vs_id,
                        component: c,
                    },
                });
            }
        }
        moved
    }

    /// The equations of motion of the model's lagrangian or hamiltonian (with dissipation and
    /// efforts), or `None` when it has neither. Kinks are refused (PH0112), as the checker's
    /// [`Builtin::is_differentiable`] says.
    pub fn motion(&mut self) -> Result<Option<DerivedMotion>, SymbolicError> {
        let mech = &self.model.mechanics;
        if let Some(l) = &mech.lagrangian {
            let l = self.scalar(l, "a lagrangian")?;
            let Moved {
                coordinates,
                velocities,
                symbols: coords,
            } = self.coordinates();
            let mut sys = LagrangianSystem::new(l, coords);
            if let Some(d) = &self.model.mechanics.dissipation {
                let d = self.scalar(d, "a dissipation")?;
                sys = sys.with_dissipation(d);
            }
            let roots: Vec<NodeId> = [Some(l), sys.dissipation].into_iter().flatten().collect();
            self.plan(&roots, coordinates.len())?;
            for effort in &self.model.mechanics.efforts {
                let q = self.expr(&effort.expr)?;
                for (c, node) in (0u32..).zip(q.components()) {
                    let index = coordinates
                        .iter()
                        .position(|x| *x == (effort.coordinate, c));
                    let index = index.ok_or(SymbolicError::CountMismatch {
                        what: "effort components",
                        expected: coordinates
                            .iter()
                            .filter(|x| x.0 == effort.coordinate)
                            .count(),
                        found: q.len(),
                    })?;
                    sys = sys.with_effort(index, *node);
                }
            }
            let equations = sys.derive(&mut self.graph).map_err(|e| match e {
                SymbolicError::SingularMass { coordinate, .. } => SymbolicError::SingularMass {
                    coordinate,
                    name: coordinates
                        .get(coordinate)
                        .map(|&(q, c)| self.component_name(q, c)),
                },
                other => other,
            })?;
            self.energy = Some(equations.energy);
            return Ok(Some(DerivedMotion::Lagrange {
                coordinates,
                velocities,
                equations,
            }));
        }
        let Some(h) = &mech.hamiltonian else {
            return Ok(None);
        };
        let h = self.scalar(h, "a hamiltonian")?;
        let (mut positions, mut momenta, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
        for (i, st) in self.model.states.iter().enumerate() {
            let Some(p) = st.momentum else { continue };
            let (Some(qs), Some(ps)) = (self.state(StateId(i)), self.state(p)) else {
                continue;
            };
            let len = self.graph.symbol_info(qs).map_or(1, |s| s.len);
            for c in 0..len {
                positions.push((StateId(i), c));
                momenta.push((p, c));
                pairs.push(Conjugate {
                    position: Symbol {
                        id: qs,
                        component: c,
                    },
                    momentum: Symbol {
                        id: ps,
                        component: c,
                    },
                });
            }
        }
        self.plan(&[h], pairs.len())?;
        let mut sys = HamiltonianSystem::new(h, pairs);
        for effort in &self.model.mechanics.efforts {
            let q = self.expr(&effort.expr)?;
            for (c, node) in (0u32..).zip(q.components()) {
                if let Some(index) = positions.iter().position(|x| *x == (effort.coordinate, c)) {
                    sys = sys.with_effort(index, *node);
                }
            }
        }
        let equations = sys.derive(&mut self.graph)?;
        self.energy = Some(h);
        Ok(Some(DerivedMotion::Hamilton {
            positions,
            momenta,
            equations,
        }))
    }
}

/// The coordinate components a lagrangian moves, their velocities, and their symbols.
#[derive(Default)]
struct Moved {
    coordinates: Vec<StateComponent>,
    velocities: Vec<StateComponent>,
    symbols: Vec<Coordinate>,
}

/// The planned work of deriving `n` coordinates from energies of `nodes` nodes.
fn planned_work(nodes: u64, n: u64) -> u64 {
    n.saturating_mul(nodes.saturating_add(n))
}

/// [`SymbolicError::TooLarge`] for work past [`MAX_DERIVATION_WORK`].
fn check_work(work: u64) -> Result<(), SymbolicError> {
    if work > MAX_DERIVATION_WORK {
        return Err(SymbolicError::TooLarge {
            what: "node derivatives",
            size: work,
            limit: MAX_DERIVATION_WORK,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivation_work_limit_at_its_edge_and_one_past_it() {
        // 1000 coordinates over energies of 0 nodes plan exactly 10⁶ node derivatives.
        assert_eq!(planned_work(0, 1000), MAX_DERIVATION_WORK);
        assert!(check_work(planned_work(0, 1000)).is_ok());
        assert_eq!(planned_work(1, 1000), MAX_DERIVATION_WORK + 1000);
        assert!(check_work(MAX_DERIVATION_WORK).is_ok());
        let e = check_work(MAX_DERIVATION_WORK + 1).unwrap_err();
        assert!(matches!(
            e,
            SymbolicError::TooLarge {
                size: 1_000_001,
                limit: 1_000_000,
                ..
            }
        ));
        assert_eq!(
            e.to_diagnostic(physis_syntax::Span::new(0, 1)).code,
            physis_syntax::Code::DerivationTooLarge
        );
        assert_eq!(planned_work(u64::MAX, u64::MAX), u64::MAX);
    }
}
