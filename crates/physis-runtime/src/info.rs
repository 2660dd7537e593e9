//! Static description of a model: names, scheme, settings and clauses.
//!
//! A back end builds one [`ModelInfo`] per simulation (generated code can keep it in a
//! `LazyLock<Arc<ModelInfo>>`); the driver reads it to size its buffers, to know which
//! clauses exist and to name things in the output.

use serde::Serialize;

/// Everything the driver needs to know about a model besides its numeric functions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelInfo {
    /// Simulation name (`Projectile`), used in the summary.
    pub name: String,
    /// Number of `f64` state slots (sum of every state's size).
    pub dim: usize,
    /// Named states over the slots, in declaration order.
    pub states: Vec<StateInfo>,
    /// Observed columns, in declaration order.
    pub observes: Vec<ObserveInfo>,
    /// Number of white-noise inputs (`noise w`), each getting one Wiener increment per step.
    pub noises: usize,
    /// The integration scheme, specialised to this model.
    pub scheme: SchemeInfo,
    /// Declared run settings (`integrate ... step ... tolerance ... limit ... seed`, `record`).
    pub settings: Settings,
    /// The `integrate` clause, named by `unstable` and `limit` reasons.
    pub integrate: Option<SourceRef>,
    /// Atomic comparisons used by stops and events; a [`Cond`] refers to them by index.
    pub atoms: Vec<AtomInfo>,
    /// `stop when c` clauses, in declaration order (the first that holds is the reason).
    pub stops: Vec<Clause>,
    /// `on c do ...` clauses, in declaration order.
    pub events: Vec<Clause>,
    /// `conserve o within ε` clauses.
    pub conserves: Vec<ConserveInfo>,
    /// True when some atom reads a derivative (`u'` of a first-order law); the driver then
    /// evaluates the rate at interpolated points instead of using the interpolant's slope.
    pub conditions_read_rate: bool,
    /// True when some observe reads a derivative of a first-order law (same treatment).
    pub observes_read_rate: bool,
}

/// A named state: `state x : Length[2]` covers two consecutive slots.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StateInfo {
    /// Source name (`x`, `v`, `φ'`).
    pub name: String,
    /// First slot.
    pub offset: usize,
    /// Extents: empty for a scalar, `[n]` for a vector or 1-D field, `[n, m]` for a 2-D field
    /// (row-major, last index fastest).
    pub shape: Vec<usize>,
    /// True for a field whose edge nodes (see [`on_edge`]) a Dirichlet boundary holds: they
    /// are set, not integrated, so adaptive step control leaves them out of its error norm
    /// (a system written out by hand would not have them at all).
    pub fixed_edge: bool,
}

impl StateInfo {
    /// Number of slots this state occupies.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// True when the state occupies no slot (an empty extent).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// True when node `k` (row-major) of a field of extents `shape` lies on the grid's edge: the
/// first or last node of a line, the first or last row or column of a plane. A Dirichlet
/// boundary holds its value there.
pub fn on_edge(shape: &[usize], k: usize) -> bool {
    match *shape {
        [n] => k == 0 || k + 1 == n,
        [nx, ny] => {
            let (r, c) = (k / ny.max(1), k % ny.max(1));
            r == 0 || r + 1 == nx || c == 0 || c + 1 == ny
        }
        _ => false,
    }
}

impl ModelInfo {
    /// Per slot, true when it is integrated (not a fixed edge node, see
    /// [`StateInfo::fixed_edge`]); empty when every slot is.
    pub fn free_slots(&self) -> Vec<bool> {
        if !self.states.iter().any(|s| s.fixed_edge) {
            return Vec::new();
        }
        let mut free = vec![true; self.dim];
        for s in self.states.iter().filter(|s| s.fixed_edge) {
            for k in (0..s.len()).filter(|&k| on_edge(&s.shape, k)) {
                if let Some(f) = free.get_mut(s.offset + k) {
                    *f = false;
                }
            }
        }
        free
    }
}

/// An observed column `observe o ≔ e`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObserveInfo {
    /// Column name (`height`).
    pub name: String,
    /// SI unit in ASCII base-unit form (`m/s`, `kg*m^2/s^2`, `1` for a pure number); empty
    /// when unknown.
    pub unit: String,
    /// Quantity kind of that dimension (`Velocity`), empty when the catalog has none.
    pub quantity: String,
}

impl ObserveInfo {
    /// A column with no unit recorded (hand-written models, tests).
    pub fn named(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            unit: String::new(),
            quantity: String::new(),
        }
    }
}

/// What the driver must know about the scheme to drive it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SchemeInfo {
    /// Scheme name (`rk45`), for messages.
    pub name: String,
    /// Order `p` of `next`. For an adaptive scheme the error estimate is taken as `O(h^p)`
    /// locally, so the controller scales the step by `(1/err)^(1/p)` (Dormand–Prince: 5).
    pub order: u32,
    /// True for an adaptive scheme: `step` fills `err` and the driver controls the step.
    pub adaptive: bool,
    /// True when `next` appears on its own right side: the driver solves
    /// [`crate::Model::residual`] by Newton instead of calling [`crate::Model::step`].
    pub implicit: bool,
    /// True for a scheme that reads `dW` (the driver draws one increment per noise per step).
    pub stochastic: bool,
    /// Declared stability radius (`stable 2.78`): the run is refused as `unstable` when the
    /// spectral radius of the rate's Jacobian times the step exceeds it.
    pub stability_radius: Option<f64>,
    /// Rate evaluations made by one `step` call (for statistics).
    pub stages: u32,
    /// Rate evaluations made by one `residual` call (implicit schemes).
    pub residual_evals: u32,
    /// True when `step` writes `f(t + h, next)` into `f1` (first same as last), which
    /// saves the driver one evaluation per step.
    pub fsal: bool,
    /// True when `step` writes a continuous extension into [`crate::StepOut::dense`]
    /// (Dormand–Prince's fourth-order interpolant); samples, events and stops inside a
    /// step are then read from it instead of the cubic Hermite interpolant alone.
    pub dense: bool,
    /// The unknowns an implicit scheme with implicit stages solves one after another
    /// (stages that read themselves or each other, then `next` if it does), in order; a
    /// group of stages that read each other is one unknown ([`StageInfo::width`]); empty for every
    /// other scheme. The driver solves each by Newton through [`crate::Model::stage_residual`]
    /// and then calls [`crate::Model::stage_finish`]; `stages` then counts the rate
    /// evaluations of `stage_finish`.
    pub implicit_stages: Vec<StageInfo>,
    /// True for the built-in variable-order BDF (`bdf` in the prelude): the driver keeps
    /// its history and steps it itself, solving each step through [`crate::Model::residual`]
    /// (the scheme's text, backward Euler, at a base and step the history sets) and
    /// writing its dense output; [`crate::Model::implicit_error`] is not called.
    pub bdf: bool,
}

/// One unknown of a scheme solved stage by stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StageInfo {
    /// What the unknown is, which sets Newton's starting point and its scale.
    pub kind: StageKind,
    /// Rate evaluations made by one call of its residual.
    pub residual_evals: u32,
    /// State-sized blocks the unknown spans: 1 for a stage that reads only itself, `s` for
    /// `s` stages that read each other (Radau IIA's three), solved as one Newton system
    /// of `s·dim` unknowns.
    pub width: u32,
    /// True when the residual is affine in the unknown with a Jacobian that does not
    /// depend on it (a linearly implicit stage, reading the rate's Jacobian `J`): one
    /// Newton update with a Jacobian formed for the stage solves it.
    pub affine: bool,
}

/// The dimension of an implicit stage relative to the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum StageKind {
    /// A state (`[y]`): Newton starts from `y`; converged when the update is small
    /// beside the unknown itself, as for `next`.
    State,
    /// A rate (`[y]/T`, `k ≔ f(t + γh, y + γh·k)`): Newton starts from `f(t, y)`;
    /// converged when `h` times the update is small beside the state.
    Rate,
    /// Anything else: Newton starts from zero and measures the update beside the unknown.
    Other,
}

/// Run settings as declared in the source; [`crate::RunOptions`] overrides them per run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// Start time (SI seconds).
    pub t0: f64,
    /// Fixed step, or the first step of an adaptive scheme (else estimated).
    pub step: Option<f64>,
    /// Relative tolerance of the adaptive error norm (and of Newton). Default `1e-8`.
    pub tolerance: f64,
    /// Absolute tolerance of each state (SI base units), in the order of
    /// [`ModelInfo::states`]; a state with `None` (or past the end) gets the relative
    /// tolerance times its own scale, the largest magnitude it has had so far (while still at
    /// zero, a fraction of its unit's scale: [`Settings::units`]).
    pub absolute: Vec<Option<f64>>,
    /// SI unit of each state (`kg*m^2/s^2`), in the order of [`ModelInfo::states`]: a state
    /// with no declared absolute tolerance is measured against at least a fraction of the
    /// largest magnitude the states of its unit have had (empty: every state a unit of its
    /// own).
    pub units: Vec<String>,
    /// Maximum number of accepted steps (`limit n`); `None` means [`crate::DEFAULT_LIMIT`].
    pub limit: Option<u64>,
    /// Seed of the noise generator.
    pub seed: Option<u64>,
    /// `record every Δ`: sample on the grid `t0 + k·Δ`; `None` samples every accepted step.
    pub record_every: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            t0: 0.0,
            step: None,
            tolerance: 1e-8,
            absolute: Vec::new(),
            units: Vec::new(),
            limit: None,
            seed: None,
            record_every: None,
        }
    }
}

/// A comparison operator of an atomic condition `lhs op rhs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Cmp {
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
    /// `=`
    Eq,
    /// `≠`
    Ne,
}

impl Cmp {
    /// Truth of `lhs op rhs` given the margin `g = lhs − rhs` (exact in IEEE arithmetic:
    /// `a − b` has the sign of the comparison for finite `a`, `b`). NaN is false for every op.
    pub fn holds(self, g: f64) -> bool {
        match self {
            Cmp::Lt => g < 0.0,
            Cmp::Le => g <= 0.0,
            Cmp::Gt => g > 0.0,
            Cmp::Ge => g >= 0.0,
            Cmp::Eq => g == 0.0,
            Cmp::Ne => g != 0.0 && !g.is_nan(),
        }
    }
}

/// An atomic comparison. Its margin `lhs − rhs` comes from [`crate::Model::margins`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AtomInfo {
    /// The comparison applied to the margin.
    pub op: Cmp,
    /// True when the margin reads only `t` and is affine in it (`t ≥ 60 s`). When every
    /// atom is such, the driver probes a step only where an atom changes (its root),
    /// instead of at evenly spaced interior points.
    pub time_only: bool,
    /// True when the margin is affine in `t` and the state together and reads no rate
    /// (`y < 0 m`, `x[1] − 2·x[0] ≥ 1 m`). Along a step it is then the step's interpolant
    /// put through one affine map, a polynomial whose coefficients three or four margin
    /// evaluations give; when every atom is such, the driver finds where atoms change from
    /// those polynomials instead of probing the step (`locate/affine.rs`).
    pub affine: bool,
}

/// A boolean combination of atoms.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub enum Cond {
    /// Atom by index into [`ModelInfo::atoms`].
    Atom(usize),
    /// `¬ c`
    Not(Box<Cond>),
    /// `c₁ ∧ c₂ ∧ ...` (empty: true)
    All(Vec<Cond>),
    /// `c₁ ∨ c₂ ∨ ...` (empty: false)
    Any(Vec<Cond>),
}

impl Cond {
    /// Truth of the condition given every atom's margin.
    pub fn eval(&self, atoms: &[AtomInfo], margins: &[f64]) -> bool {
        match self {
            Cond::Atom(i) => match (atoms.get(*i), margins.get(*i)) {
                (Some(a), Some(g)) => a.op.holds(*g),
                _ => false,
            },
            Cond::Not(c) => !c.eval(atoms, margins),
            Cond::All(cs) => cs.iter().all(|c| c.eval(atoms, margins)),
            Cond::Any(cs) => cs.iter().any(|c| c.eval(atoms, margins)),
        }
    }

    /// Largest atom index used (for validation).
    pub(crate) fn max_atom(&self) -> Option<usize> {
        match self {
            Cond::Atom(i) => Some(*i),
            Cond::Not(c) => c.max_atom(),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().filter_map(Cond::max_atom).max(),
        }
    }

    /// Pushes every atom index used, in order of appearance.
    pub(crate) fn atoms_into(&self, out: &mut Vec<usize>) {
        match self {
            Cond::Atom(i) => out.push(*i),
            Cond::Not(c) => c.atoms_into(out),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| c.atoms_into(out)),
        }
    }
}

/// A stop or event clause: its condition and where it was written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clause {
    /// The condition.
    pub cond: Cond,
    /// Source text of the condition (`x[1] < 0 m ∧ t > 0 s`), reported in the reason.
    pub text: String,
    /// 1-based source line.
    pub line: u32,
}

/// Where a clause was written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceRef {
    /// Source text of the clause.
    pub text: String,
    /// 1-based source line.
    pub line: u32,
}

/// A `conserve o within ε` clause.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConserveInfo {
    /// Index of the observed column.
    pub observe: usize,
    /// Relative tolerance ε: violated when `|o − o₀| > ε·max(|o₀|, 1)`.
    pub within: f64,
    /// Source text of the clause.
    pub text: String,
    /// 1-based source line.
    pub line: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_of_a_line_and_of_a_plane() {
        let line: Vec<usize> = (0..5).filter(|&k| on_edge(&[5], k)).collect();
        assert_eq!(line, [0, 4]);
        // 3 × 4 plane: only node 5 and 6 (row 1, columns 1 and 2) are inside.
        let inside: Vec<usize> = (0..12).filter(|&k| !on_edge(&[3, 4], k)).collect();
        assert_eq!(inside, [5, 6]);
        assert!(!on_edge(&[], 0));
    }
}
