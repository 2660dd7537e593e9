//! Equations of motion from energies: Euler–Lagrange (with Rayleigh dissipation and
//! generalised efforts) and Hamilton, as pure functions over the DAG.

use crate::diff::Kinks;
use crate::error::SymbolicError;
use crate::graph::Graph;
use crate::node::{NodeId, Symbol, Var};

/// A generalised coordinate `q` moved by a lagrangian, and its velocity state `q'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coordinate {
    /// The coordinate `q`.
    pub position: Symbol,
    /// Its velocity `q̇` (the state `q'`).
    pub velocity: Symbol,
}

/// A lagrangian system: `L(q, q̇, t)`, an optional dissipation `D(q̇)` and optional efforts
/// `Qᵢ`, one per coordinate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LagrangianSystem {
    /// `L`, an energy.
    pub lagrangian: NodeId,
    /// The coordinates it moves, in order.
    pub coordinates: Vec<Coordinate>,
    /// Rayleigh's `D`, a power; the force on `qᵢ` gains `−∂D/∂q̇ᵢ`.
    pub dissipation: Option<NodeId>,
    /// `Qᵢ`: entry i is the effort on coordinate i; missing entries mean none.
    pub efforts: Vec<Option<NodeId>>,
    /// How kinks in the energies are treated (refused by default: PH0112).
    pub kinks: Kinks,
}

/// What the run does with `M·a = b`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Acceleration {
    /// `M` is diagonal: `aᵢ = bᵢ/Mᵢᵢ`, already divided out.
    Explicit(Vec<NodeId>),
    /// `M` couples coordinates: solve `M·a = b` at run time by elimination, stopping the run
    /// as diverged if `M` turns singular.
    Solve,
}

/// The Euler–Lagrange equations `M(q, q̇, t)·q̈ = b(q, q̇, t)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerLagrange {
    /// `pᵢ = ∂L/∂q̇ᵢ`.
    pub momenta: Vec<NodeId>,
    /// `Mᵢⱼ = ∂pᵢ/∂q̇ⱼ` (symmetric), row by row.
    pub mass: Vec<Vec<NodeId>>,
    /// `bᵢ = ∂L/∂qᵢ − Σⱼ (∂pᵢ/∂qⱼ)·q̇ⱼ − ∂pᵢ/∂t − ∂D/∂q̇ᵢ + Qᵢ`.
    pub force: Vec<NodeId>,
    /// Explicit accelerations when `M` is diagonal.
    pub acceleration: Acceleration,
    /// The energy `Σ q̇ᵢ·pᵢ − L` (what `hamiltonian` reads as in an expression).
    pub energy: NodeId,
}

impl LagrangianSystem {
    /// A system with no dissipation and no efforts.
    pub fn new(lagrangian: NodeId, coordinates: Vec<Coordinate>) -> LagrangianSystem {
        LagrangianSystem {
            lagrangian,
            coordinates,
            dissipation: None,
            efforts: Vec::new(),
            kinks: Kinks::Refuse,
        }
    }

    /// Add Rayleigh's dissipation `D`.
    pub fn with_dissipation(mut self, d: NodeId) -> LagrangianSystem {
        self.dissipation = Some(d);
        self
    }

    /// Set the effort on coordinate `index`; an index past the coordinates is reported by
    /// [`derive`](LagrangianSystem::derive).
    pub fn with_effort(mut self, index: usize, q: NodeId) -> LagrangianSystem {
        if self.efforts.len() <= index {
            self.efforts.resize(index + 1, None);
        }
        self.efforts[index] = Some(q);
        self
    }

    /// Derive the equations of motion.
    pub fn derive(&self, g: &mut Graph) -> Result<EulerLagrange, SymbolicError> {
        let n = self.coordinates.len();
        check_efforts(&self.efforts, n)?;
        let k = self.kinks;
        let l = self.lagrangian;
        let vel: Vec<Var> = self
            .coordinates
            .iter()
            .map(|c| Var::Symbol(c.velocity))
            .collect();
        let pos: Vec<Var> = self
            .coordinates
            .iter()
            .map(|c| Var::Symbol(c.position))
            .collect();

        let momenta = vel
            .iter()
            .map(|v| g.diff(l, *v, k))
            .collect::<Result<Vec<_>, _>>()?;
        // Column j of M, and Σⱼ (∂p/∂qⱼ)·q̇ⱼ, one pass over all momenta per variable.
        let mut mass = vec![vec![Graph::ZERO; n]; n];
        let mut convective: Vec<Vec<NodeId>> = vec![Vec::with_capacity(n); n];
        for j in 0..n {
            for (i, m) in g.diff_many(&momenta, vel[j], k)?.into_iter().enumerate() {
                mass[i][j] = m;
            }
            let qdot = g.symbol_node(self.coordinates[j].velocity);
            for (i, d) in g.diff_many(&momenta, pos[j], k)?.into_iter().enumerate() {
                convective[i].push(g.mul2(d, qdot));
            }
            // A derivation growing past the graph's budget stops at the column that passed it.
            g.check_budget()?;
        }
        let dpdt = g.diff_many(&momenta, Var::Time, k)?;
        let dissipative = match self.dissipation {
            Some(d) => vel
                .iter()
                .map(|v| g.diff(d, *v, k))
                .collect::<Result<Vec<_>, _>>()?,
            None => vec![Graph::ZERO; n],
        };

        let mut force = Vec::with_capacity(n);
        for i in 0..n {
            let mut terms = vec![g.diff(l, pos[i], k)?];
            for c in &convective[i] {
                terms.push(g.neg(*c));
            }
            terms.push(g.neg(dpdt[i]));
            terms.push(g.neg(dissipative[i]));
            if let Some(Some(q)) = self.efforts.get(i) {
                terms.push(*q);
            }
            force.push(g.add(&terms));
        }

        if let Some(i) = (0..n).find(|i| mass[*i].iter().all(|m| *m == Graph::ZERO)) {
            return Err(SymbolicError::SingularMass {
                coordinate: i,
                name: None,
            });
        }
        let diagonal = (0..n).all(|i| (0..n).all(|j| i == j || mass[i][j] == Graph::ZERO));
        let acceleration = if diagonal {
            Acceleration::Explicit((0..n).map(|i| g.div(force[i], mass[i][i])).collect())
        } else {
            Acceleration::Solve
        };

        let mut e_terms: Vec<NodeId> = Vec::with_capacity(n + 1);
        for (c, p) in self.coordinates.iter().zip(&momenta) {
            let v = g.symbol_node(c.velocity);
            e_terms.push(g.mul2(v, *p));
        }
        e_terms.push(g.neg(l));
        let energy = g.add(&e_terms);
        g.check_budget()?;

        Ok(EulerLagrange {
            momenta,
            mass,
            force,
            acceleration,
            energy,
        })
    }
}

/// The energy `Σ q̇ᵢ·∂L/∂q̇ᵢ − L` of a lagrangian, on its own.
pub fn lagrangian_energy(
    g: &mut Graph,
    lagrangian: NodeId,
    coordinates: &[Coordinate],
    kinks: Kinks,
) -> Result<NodeId, SymbolicError> {
    let mut terms = Vec::with_capacity(coordinates.len() + 1);
    for c in coordinates {
        let p = g.diff(lagrangian, Var::Symbol(c.velocity), kinks)?;
        let v = g.symbol_node(c.velocity);
        terms.push(g.mul2(v, p));
    }
    terms.push(g.neg(lagrangian));
    let energy = g.add(&terms);
    g.check_budget()?;
    Ok(energy)
}

/// A coordinate `q` and its conjugate momentum state `p` (`state p : Momentum conjugate q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conjugate {
    /// The coordinate `q`.
    pub position: Symbol,
    /// The momentum `p`.
    pub momentum: Symbol,
}

/// A hamiltonian system `H(q, p, t)` with optional efforts on the coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HamiltonianSystem {
    /// `H`, an energy.
    pub hamiltonian: NodeId,
    /// The conjugate pairs it moves.
    pub pairs: Vec<Conjugate>,
    /// `Qᵢ`: entry i is the effort on pair i, added to `ṗᵢ`; missing entries mean none.
    pub efforts: Vec<Option<NodeId>>,
    /// How kinks in `H` are treated.
    pub kinks: Kinks,
}

/// Hamilton's equations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HamiltonEquations {
    /// `q̇ᵢ = ∂H/∂pᵢ`.
    pub position_rates: Vec<NodeId>,
    /// `ṗᵢ = −∂H/∂qᵢ + Qᵢ`.
    pub momentum_rates: Vec<NodeId>,
    /// `H` itself, the energy.
    pub energy: NodeId,
}

impl HamiltonianSystem {
    /// A system with no efforts.
    pub fn new(hamiltonian: NodeId, pairs: Vec<Conjugate>) -> HamiltonianSystem {
        HamiltonianSystem {
            hamiltonian,
            pairs,
            efforts: Vec::new(),
            kinks: Kinks::Refuse,
        }
    }

    /// Set the effort on pair `index`.
    pub fn with_effort(mut self, index: usize, q: NodeId) -> HamiltonianSystem {
        if self.efforts.len() <= index {
            self.efforts.resize(index + 1, None);
        }
        self.efforts[index] = Some(q);
        self
    }

    /// Derive Hamilton's equations.
    pub fn derive(&self, g: &mut Graph) -> Result<HamiltonEquations, SymbolicError> {
        check_efforts(&self.efforts, self.pairs.len())?;
        let h = self.hamiltonian;
        let mut position_rates = Vec::with_capacity(self.pairs.len());
        let mut momentum_rates = Vec::with_capacity(self.pairs.len());
        for (i, pair) in self.pairs.iter().enumerate() {
            position_rates.push(g.diff(h, Var::Symbol(pair.momentum), self.kinks)?);
            let dq = g.diff(h, Var::Symbol(pair.position), self.kinks)?;
            let mut rate = g.neg(dq);
            if let Some(Some(q)) = self.efforts.get(i) {
                rate = g.add2(rate, *q);
            }
            momentum_rates.push(rate);
            g.check_budget()?;
        }
        Ok(HamiltonEquations {
            position_rates,
            momentum_rates,
            energy: h,
        })
    }
}

fn check_efforts(efforts: &[Option<NodeId>], n: usize) -> Result<(), SymbolicError> {
    if efforts.len() > n {
        return Err(SymbolicError::CountMismatch {
            what: "efforts",
            expected: n,
            found: efforts.len(),
        });
    }
    Ok(())
}
