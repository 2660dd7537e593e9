//! The checked model: everything a run needs, resolved, dimensioned and in SI base units.

use crate::expr::{Cond, Expr, LocalId, ObserveId, ParamId, Shape, StateId};
use physis_syntax::Span;
use std::sync::Arc;
use units::Dimension;

/// A checked file: its own schemes and its opened modules' (the built-in ones are found by
/// [`Program::scheme`]) and its simulations in source order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// The file's schemes, then those of the modules it opens. The built-in schemes are not
    /// listed (they are checked when first named): [`Program::scheme`] finds them too.
    pub schemes: Vec<Arc<CheckedScheme>>,
    /// The simulations, in source order (also those with errors, as far as they were checked;
    /// use them only when the diagnostics hold no error).
    pub models: Vec<CheckedModel>,
}

impl Program {
    /// The simulation named `name` (either spelling: `v₀` or `v0`).
    pub fn model(&self, name: &str) -> Option<&CheckedModel> {
        let key = physis_syntax::lexer::normalize_name(name);
        self.models.iter().find(|m| m.key == key)
    }

    /// The scheme named `name`; a file's own scheme shadows a prelude one.
    pub fn scheme(&self, name: &str) -> Option<&Arc<CheckedScheme>> {
        lookup(&self.schemes, name)
    }
}

/// The scheme named `name` among `schemes` (the last of that name), else the built-in one.
pub(crate) fn lookup<'a>(
    schemes: &'a [Arc<CheckedScheme>],
    name: &str,
) -> Option<&'a Arc<CheckedScheme>> {
    schemes
        .iter()
        .rev()
        .find(|s| s.name == name)
        .or_else(|| crate::prelude::scheme(name))
}

/// Settings given from outside the text (a command line, a Python call) in place of the
/// `integrate` and `record` clauses' own, checked as if the text had said them: an unknown
/// scheme is PH0107, a fixed-step one without any step PH0103, a deterministic one for a
/// model with noise PH0114, each pointing at the clause it replaces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// The simulation they apply to (any spelling of its name); `None`: every simulation.
    pub simulation: Option<String>,
    /// A scheme in place of the `integrate` clause's (or of the default `rk45`).
    pub scheme: Option<String>,
    /// A step (s) in place of the clause's `step`.
    pub step: Option<f64>,
    /// A relative tolerance in place of the clause's `tolerance`.
    pub tolerance: Option<f64>,
    /// An interval (s) in place of `record every`.
    pub record_every: Option<f64>,
}

impl Overrides {
    /// Whether these apply to the simulation whose key is `key`.
    pub fn applies_to(&self, key: &str) -> bool {
        self.simulation
            .as_deref()
            .is_none_or(|s| physis_syntax::lexer::normalize_name(s) == key)
    }
}

/// A constant value in SI base units.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// One number.
    Scalar(f64),
    /// Components.
    Vector(Vec<f64>),
}

impl Value {
    /// The components (one for a scalar).
    pub fn components(&self) -> &[f64] {
        match self {
            Value::Scalar(v) => std::slice::from_ref(v),
            Value::Vector(v) => v,
        }
    }
}

/// One checked simulation.
#[derive(Clone, Debug)]
pub struct CheckedModel {
    /// The name as written (`Projectile`).
    pub name: String,
    /// Normalised name (subscripts as ASCII digits).
    pub key: String,
    /// The `simulate` block.
    pub span: Span,
    /// Params in declaration order ([`ParamId`] indexes this).
    pub params: Vec<Param>,
    /// States in declaration order, fields included ([`StateId`] indexes this).
    pub states: Vec<State>,
    /// Laws in declaration order.
    pub laws: Vec<Law>,
    /// White noises ([`NoiseId`] indexes this).
    pub noises: Vec<Noise>,
    /// The grid, when fields are declared.
    pub grid: Option<Grid>,
    /// Observes in declaration order ([`ObserveId`] indexes this): the recorded columns.
    pub observes: Vec<Observe>,
    /// Stop clauses in declaration order.
    pub stops: Vec<Stop>,
    /// Events (`on c do ...`) in declaration order.
    pub events: Vec<Event>,
    /// Named runs.
    pub runs: Vec<NamedRun>,
    /// The scheme and its settings (rk45 tolerance 1e-8 when there is no integrate clause).
    pub integrate: Integrate,
    /// `record every Δ` in seconds; `None` records every accepted step.
    pub record_every: Option<f64>,
    /// Lagrangian, hamiltonian, dissipation and efforts.
    pub mechanics: Mechanics,
    /// `conserve` clauses.
    pub conserves: Vec<Conserve>,
}

impl CheckedModel {
    /// The param named `name` (normalised, so `v0` finds `v₀`).
    pub fn param(&self, name: &str) -> Option<ParamId> {
        let key = physis_syntax::lexer::normalize_name(name);
        self.params.iter().position(|p| p.key == key).map(ParamId)
    }

    /// The state named `name`, primes included (`s'`).
    pub fn state(&self, name: &str) -> Option<StateId> {
        let key = physis_syntax::lexer::normalize_name(name);
        self.states.iter().position(|s| s.key == key).map(StateId)
    }

    /// Number of grid nodes (1 without a grid).
    pub fn grid_nodes(&self) -> usize {
        self.grid.as_ref().map_or(1, |g| g.sizes.iter().product())
    }

    /// Number of f64 components of a state.
    pub fn state_len(&self, id: StateId) -> usize {
        self.states[id.0].shape.len(self.grid_nodes())
    }
}

/// `param p : Q = value`.
#[derive(Clone, Debug)]
pub struct Param {
    /// As written (`v₀`).
    pub name: String,
    /// Normalised (`v0`).
    pub key: String,
    /// Its dimension.
    pub dim: Dimension,
    /// The declared kind (`Velocity`).
    pub kind: String,
    /// Scalar or vector.
    pub shape: Shape,
    /// The default in SI base units.
    pub default: Value,
    /// The clause.
    pub span: Span,
}

/// `state y : Q = value` or `field u : Q = value`.
#[derive(Clone, Debug)]
pub struct State {
    /// As written, primes included (`s'`, `φ'`).
    pub name: String,
    /// Normalised, primes included.
    pub key: String,
    /// Its dimension.
    pub dim: Dimension,
    /// The declared kind.
    pub kind: String,
    /// Scalar, vector, or field (one value per grid node).
    pub shape: Shape,
    /// For an array of vectors (`Length[7][2]`), the size of each vector: the state is then
    /// the vector of all their components, row by row (`shape` is `Vector(14)`).
    pub element: Option<usize>,
    /// The initial value (may read params; grid coordinates for a field).
    pub init: Expr,
    /// The state whose velocity this is (`s` for `s'`).
    pub velocity_of: Option<StateId>,
    /// This state's velocity state (`s'` for `s`).
    pub velocity: Option<StateId>,
    /// `state p : Momentum conjugate q`: the coordinate q of this momentum.
    pub conjugate_of: Option<StateId>,
    /// The momentum conjugate to this coordinate.
    pub momentum: Option<StateId>,
    /// Whether declared with `field` (then shape is [`Shape::Field`]).
    pub is_field: bool,
    /// A field's boundary condition (Neumann zero by default).
    pub boundary: Option<BoundaryCondition>,
    /// What moves it.
    pub motion: Motion,
    /// The clause.
    pub span: Span,
}

/// What gives a state its rate.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Motion {
    /// Law number `.0` in [`CheckedModel::laws`] (a first-order law on this state, or the
    /// second-order law whose acceleration is this velocity state's rate).
    Law(usize),
    /// The rate is the velocity state.
    Kinematic(StateId),
    /// The Euler–Lagrange equations (this is a velocity state of a lagrangian coordinate).
    Lagrangian,
    /// Hamilton's equations (a conjugate coordinate or momentum).
    Hamiltonian,
    /// Nothing (only in models with errors).
    Unmoved,
}

/// A field's boundary condition.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BoundaryCondition {
    /// The value at the boundary nodes.
    Dirichlet(Expr),
    /// The outward normal derivative (zero when `None`).
    Neumann(Option<Expr>),
    /// The ends wrap around.
    Periodic,
}

/// Order of a law.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LawOrder {
    /// `law y' = e`: e is y's rate.
    First,
    /// `law y'' = e`: e is the acceleration, the rate of the velocity state y'.
    Second,
}

/// A law.
#[derive(Clone, Debug)]
pub struct Law {
    /// The state whose rate `rhs` is (the velocity state for a second-order law).
    pub target: StateId,
    /// The coordinate: `y` for both `law y' = …` and `law y'' = …`.
    pub coordinate: StateId,
    /// First or second order.
    pub order: LawOrder,
    /// The rate (dimension of target per time); may read noises linearly.
    pub rhs: Expr,
    /// The clause.
    pub span: Span,
}

/// `noise w`.
#[derive(Clone, Debug)]
pub struct Noise {
    /// As written.
    pub name: String,
    /// The clause.
    pub span: Span,
}

/// `grid (x, y) : Q[N, M] from a to b`.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Coordinate names as written, one per axis.
    pub coords: Vec<String>,
    /// The coordinates' dimension.
    pub dim: Dimension,
    /// Nodes per axis (ends included).
    pub sizes: Vec<usize>,
    /// Lower end per axis, SI.
    pub from: Vec<f64>,
    /// Upper end per axis, SI.
    pub to: Vec<f64>,
    /// The clause.
    pub span: Span,
}

/// `observe o ≔ e`: a recorded column.
#[derive(Clone, Debug)]
pub struct Observe {
    /// As written.
    pub name: String,
    /// Normalised.
    pub key: String,
    /// A scalar expression.
    pub expr: Expr,
    /// The clause.
    pub span: Span,
}

/// `stop when c`.
#[derive(Clone, Debug)]
pub struct Stop {
    /// The condition.
    pub cond: Cond,
    /// The condition's source text, for the run's reason (`x[1] < 0 m ∧ t > 0 s`).
    pub text: String,
    /// 1-based line of the clause in its file.
    pub line: u32,
    /// The clause.
    pub span: Span,
}

/// `on c do s ≔ e, ...`.
#[derive(Clone, Debug)]
pub struct Event {
    /// The condition; the event fires when it turns true.
    pub cond: Cond,
    /// The condition's source text.
    pub text: String,
    /// 1-based line of the clause.
    pub line: u32,
    /// Resets, all reading the state from before the event.
    pub resets: Vec<Reset>,
    /// The clause.
    pub span: Span,
}

/// One reset of an event.
#[derive(Clone, Debug)]
pub struct Reset {
    /// The state assigned.
    pub state: StateId,
    /// Its new value (same dimension and shape).
    pub value: Expr,
}

/// `run Name with p = v, ...`.
#[derive(Clone, Debug)]
pub struct NamedRun {
    /// The scenario's name as written.
    pub name: String,
    /// Param overrides in SI base units.
    pub overrides: Vec<(ParamId, Value)>,
    /// The clause.
    pub span: Span,
}

/// The integrate clause, resolved.
#[derive(Clone, Debug)]
pub struct Integrate {
    /// The scheme.
    pub scheme: Arc<CheckedScheme>,
    /// `step Δ` in seconds (required for fixed schemes; an initial step for adaptive ones).
    pub step: Option<f64>,
    /// `tolerance ε`, the relative tolerance (adaptive schemes; the default 1e-8 is filled
    /// in when absent).
    pub tolerance: Option<f64>,
    /// The absolute tolerance of each state (SI base units, indexed like
    /// [`CheckedModel::states`]) from the `abs` settings; `None` where none applies, and
    /// empty without any.
    pub absolute: Vec<Option<f64>>,
    /// `limit n`: accepted steps before the run ends as Limit.
    pub limit: Option<u64>,
    /// `seed n` for noise.
    pub seed: Option<u64>,
    /// The clause (the simulation's name when defaulted).
    pub span: Span,
}

/// Lagrangian, hamiltonian, dissipation and efforts.
#[derive(Clone, Debug, Default)]
pub struct Mechanics {
    /// `lagrangian ≔ L` (an Energy): moves every state with a velocity state.
    pub lagrangian: Option<Expr>,
    /// `hamiltonian ≔ H` (an Energy): moves every conjugate pair.
    pub hamiltonian: Option<Expr>,
    /// `dissipation ≔ D` (a Power of the velocities).
    pub dissipation: Option<Expr>,
    /// `effort q ≔ Q`: generalised forces.
    pub efforts: Vec<Effort>,
}

/// `effort q ≔ Q`.
#[derive(Clone, Debug)]
pub struct Effort {
    /// The coordinate q.
    pub coordinate: StateId,
    /// The generalised force (Energy per [q]).
    pub expr: Expr,
    /// The clause.
    pub span: Span,
}

/// `conserve o within ε`.
#[derive(Clone, Debug)]
pub struct Conserve {
    /// The observe watched.
    pub observe: ObserveId,
    /// Relative drift allowed: the run ends as Violated past ε·max(|o₀|, 1).
    pub within: f64,
    /// The clause.
    pub span: Span,
}

/// Kinds of scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemeOrder {
    /// Steps y' = f(t, y): reads t, h, y, f; binds next.
    First,
    /// Steps x'' = a(t, x): reads t, h, x, v, a; binds nextX, nextV.
    Second,
}

/// A checked scheme (prelude or user).
#[derive(Clone, Debug)]
pub struct CheckedScheme {
    /// Its name (`rk4`).
    pub name: String,
    /// First or second order.
    pub order: SchemeOrder,
    /// Reads g(·,·) or dW.
    pub stochastic: bool,
    /// `<p>`: adaptive with error estimate of order p.
    pub adaptive: Option<u32>,
    /// `stable r`: the stability radius checked before a run.
    pub stable: Option<f64>,
    /// An output is read before (or in) its own binding: solved by Newton.
    pub implicit: bool,
    /// Names of the bindings, outputs included ([`LocalId`] indexes this).
    pub locals: Vec<String>,
    /// The bindings in order.
    pub body: Vec<SchemeStep>,
    /// The output bindings.
    pub outputs: SchemeOutputs,
    /// From the prelude rather than the user's file.
    pub builtin: bool,
    /// The declaration (in the prelude's text for built-in schemes).
    pub span: Span,
}

impl CheckedScheme {
    /// Whether the scheme has a fixed step (no adaptive order).
    pub fn is_fixed_step(&self) -> bool {
        self.adaptive.is_none()
    }
}

/// One binding of a scheme body.
#[derive(Clone, Debug)]
pub struct SchemeStep {
    /// The local bound.
    pub target: LocalId,
    /// Its value (dimensions relative to the placeholder).
    pub expr: Expr,
}

/// Which locals are the outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemeOutputs {
    /// `next` (first order).
    pub next: Option<LocalId>,
    /// `error` (adaptive).
    pub error: Option<LocalId>,
    /// `nextX` (second order).
    pub next_x: Option<LocalId>,
    /// `nextV` (second order).
    pub next_v: Option<LocalId>,
}
