//! Lowering a checked model (from `physis-check`) to an [`IrModel`].
//!
//! One lowering for every model: each state has a shape (`shape`): scalars and vectors
//! are unrolled slot by slot (each a scalar part), so small models become straight-line
//! code; a field on a grid is one array part. Laws give the rate; `law y'' = a` makes
//! `(y, y')` a position and velocity pair; noise is kept as [`Source::Noise`] loads for the
//! scheme to split. A lagrangian or a hamiltonian moves its states through the equations
//! `mechanics` derives.

mod dag;
mod expr;
mod grid;
mod mechanics;
mod scheme;
mod shape;

use physis_check::{CheckedModel, Motion, Shape};
use physis_runtime::{
    Clause, ConserveInfo, ModelInfo, ObserveInfo, SchemeInfo, Settings, SourceRef, StateInfo,
};
use thiserror::Error;

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{Function, Source};
use crate::layout::Dynamics;
use crate::model::{IrModel, ModelSpec, NamedRun, ParamSpec, ResetSpec, assemble};
use expr::{Ctx, Reads};
use grid::{GridCx, to_field};
pub use mechanics::{Derivation, derive_motion};
pub use scheme::scheme_def;
use shape::{States, single};

/// Why a checked model could not be lowered.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum LowerError {
    /// A feature whose lowering is not written yet.
    #[error("{feature} cannot be lowered to IR yet")]
    NotYetSupported {
        /// The feature.
        feature: &'static str,
    },
    /// The checked model is inconsistent (a checker bug or a model with errors).
    #[error("the checked model is inconsistent: {problem}")]
    Invalid {
        /// What does not fit.
        problem: String,
    },
    /// Building or specialising the IR failed.
    #[error(transparent)]
    Ir(#[from] IrError),
    /// The model's equations of motion cannot be derived (PH0112 for a derivative the
    /// calculus laws do not take, and the like): a diagnostic with its span.
    #[error("error[{}]: {}", diagnostic.code, diagnostic.message)]
    Symbolic {
        /// The diagnostic, at the construct's origin.
        diagnostic: Box<physis_syntax::Diagnostic>,
    },
}

impl LowerError {
    /// The refusal as a diagnostic with a code, as `physis check` and `run` report it: a
    /// symbolic failure keeps its own code and span; a construct not lowered yet is PH0120
    /// and an inconsistency (a fault of ours, not of the model) PH0122, both at the
    /// `simulate` keyword, the finest place a lowering error knows.
    pub fn to_diagnostic(&self, model: &CheckedModel) -> physis_syntax::Diagnostic {
        use physis_syntax::{Code, Diagnostic};
        // The `simulate` keyword that opens the block.
        let (start, end) = (model.span.start as usize, model.span.end as usize);
        let header = physis_syntax::Span::new(start, (start + "simulate".len()).min(end));
        match self {
            LowerError::Symbolic { diagnostic } => (**diagnostic).clone(),
            LowerError::NotYetSupported { feature } => Diagnostic::error(
                Code::NotYetSupported,
                header,
                format!("`{}` cannot run: {feature} cannot be built yet", model.name),
            )
            .with_label("in this simulation"),
            LowerError::Invalid { .. } | LowerError::Ir(_) => Diagnostic::error(
                Code::Internal,
                header,
                format!("`{}` cannot run: {self}", model.name),
            )
            .with_label("in this simulation")
            .with_hint("this is a fault of Physis, not of the model; please report it"),
        }
    }
}

/// Lowers a checked model whose source is not at hand: clause texts come from the
/// checker, the `integrate` and `conserve` clauses are described from their parts.
pub fn lower(model: &CheckedModel) -> Result<IrModel, LowerError> {
    lower_inner(model, None)
}

/// Lowers a checked model, taking the `integrate` and `conserve` clauses' text and line
/// from `source`, the text the model was checked from.
pub fn lower_with_source(model: &CheckedModel, source: &str) -> Result<IrModel, LowerError> {
    lower_inner(model, Some(source))
}

fn lower_inner(m: &CheckedModel, source: Option<&str>) -> Result<IrModel, LowerError> {
    let grid = GridCx::new(m)?;
    let g = grid.as_ref();
    let mech = &m.mechanics;
    if g.is_some()
        && (mech.lagrangian.is_some()
            || mech.hamiltonian.is_some()
            || mech.dissipation.is_some()
            || !mech.efforts.is_empty())
    {
        return Err(LowerError::NotYetSupported {
            feature: "lagrangian and hamiltonian mechanics on a grid",
        });
    }
    let st = States::new(m, g)?;
    let state_off = &st.off;
    let mut param_off = Vec::with_capacity(m.params.len());
    let mut acc = 0u32;
    for p in &m.params {
        param_off.push(acc);
        acc += p.default.components().len() as u32;
    }
    let mech = mechanics::Mechanics::derive(m, state_off, &param_off)?;
    let cx = |reads: Reads, what: &'static str| Ctx {
        state_off,
        param_off: &param_off,
        reads,
        what,
        grid: g,
        energy: None,
    };
    // `hamiltonian` read in an expression: the energy, built into that expression's builder.
    let energy = |b: &mut Builder| -> Result<Option<crate::ir::ValueId>, LowerError> {
        mech.as_ref().map(|mc| mc.energy(b)).transpose()
    };
    let law_reads = Reads {
        state: true,
        rate: false,
        noise: true,
    };
    let clause_reads = Reads {
        state: true,
        rate: true,
        noise: false,
    };

    // The rate, one output per part; a Dirichlet field's edge does not move.
    let mut b = Builder::new();
    let mask = match g {
        Some(g) if (0..m.states.len()).any(|i| g.dirichlet(i).is_some()) => {
            Some(g.interior_mask(&mut b)?)
        }
        _ => None,
    };
    let mut rate = Vec::with_capacity(st.layout.parts.len());
    let mut pairs = Vec::new();
    let derived = match &mech {
        Some(mc) => Some(mc.rates(&mut b, m, state_off)?),
        None => None,
    };
    let law_energy = energy(&mut b)?;
    for (i, s) in m.states.iter().enumerate() {
        let comps = match &s.motion {
            Motion::Law(l) => {
                let law = m
                    .laws
                    .get(*l)
                    .ok_or_else(|| invalid("a law that does not exist"))?;
                let cx = Ctx {
                    energy: law_energy,
                    ..cx(law_reads, "a law")
                };
                expr::lower(&mut b, &cx, &law.rhs)?
            }
            Motion::Kinematic(v) => {
                let off = *state_off
                    .get(v.0)
                    .ok_or_else(|| invalid("a velocity state that does not exist"))?;
                if let Some(Motion::Law(l)) = m.states.get(v.0).map(|s| &s.motion)
                    && m.laws
                        .get(*l)
                        .is_some_and(|law| law.order == physis_check::LawOrder::Second)
                {
                    // Position and velocity parts, pairwise (one pair for two fields).
                    let k = if st.field[i] { 1 } else { st.size[i] };
                    pairs.extend((0..k).map(|c| (st.part[i] + c, st.part[v.0] + c)));
                }
                if st.field[i] {
                    vec![b.load_range(Source::State, off, st.size[i] as u32)]
                } else {
                    (0..st.size[i] as u32)
                        .map(|k| b.load(Source::State, off + k))
                        .collect()
                }
            }
            Motion::Lagrangian | Motion::Hamiltonian => {
                let by_slot = &derived
                    .as_ref()
                    .ok_or_else(|| invalid("a state moved by mechanics the model lacks"))?
                    .by_slot;
                (0..st.size[i] as u32)
                    .map(|k| {
                        by_slot.get(&(state_off[i] + k)).copied().ok_or_else(|| {
                            LowerError::Invalid {
                                problem: format!("no derived rate for `{}`", s.name),
                            }
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?
            }
            _ => {
                return Err(LowerError::Invalid {
                    problem: format!("state `{}` has nothing moving it", s.name),
                });
            }
        };
        rate.extend(st.shape(&mut b, g, i, comps, mask)?);
    }
    if let Some(d) = &derived {
        pairs.extend(d.pairs.iter().copied());
    }
    let rate = b.finish("rate", &rate)?;
    let dynamics = Dynamics::new(st.layout.clone(), rate, pairs, m.noises.len() as u32)?;
    crate::linearity::check_laws(m, &dynamics, &st.part)?;

    // Initial state: reads t and params; a Dirichlet field starts at its value on the edge.
    let mut b = Builder::new();
    let mut init = Vec::new();
    let icx = cx(
        Reads {
            state: false,
            rate: false,
            noise: false,
        },
        "an initial value",
    );
    for (i, s) in m.states.iter().enumerate() {
        let v = expr::lower(&mut b, &icx, &s.init)?;
        let v = match (g, g.and_then(|g| g.dirichlet(i))) {
            (Some(g), Some(bv)) if st.field[i] => {
                let u = to_field(&mut b, g, single(v)?)?;
                let bv = single(expr::lower(&mut b, &icx, bv)?)?;
                let inside = g.interior_mask(&mut b)?;
                vec![b.select(inside, u, bv)?]
            }
            _ => st.shape(&mut b, g, i, v, None)?,
        };
        init.extend(v);
    }
    let initial = b.finish("initial", &init)?;

    // Observes, stops, events and resets.
    let mut b = Builder::new();
    let mut obs = Vec::new();
    let obs_energy = energy(&mut b)?;
    for o in &m.observes {
        let cx = Ctx {
            energy: obs_energy,
            ..cx(clause_reads, "an observe")
        };
        let v = expr::lower(&mut b, &cx, &o.expr)?;
        let [v] = v[..] else {
            return Err(invalid("an observe that is not one number"));
        };
        if b.ty(v)? != crate::ir::Ty::Scalar {
            return Err(invalid("an observe that is not one number"));
        }
        obs.push(v);
    }
    let observe = b.finish("observe", &obs)?;
    let mut b = Builder::new();
    let (mut margins, mut atoms) = (Vec::new(), Vec::new());
    let mut stops = Vec::new();
    let cond_energy = energy(&mut b)?;
    for s in &m.stops {
        let c = expr::cond(
            &mut b,
            &Ctx {
                energy: cond_energy,
                ..cx(clause_reads, "a stop")
            },
            &s.cond,
            &mut margins,
            &mut atoms,
        )?;
        stops.push(Clause {
            cond: c,
            text: s.text.clone(),
            line: s.line,
        });
    }
    let mut events = Vec::new();
    let mut resets = Vec::new();
    for e in &m.events {
        let c = expr::cond(
            &mut b,
            &Ctx {
                energy: cond_energy,
                ..cx(clause_reads, "an event")
            },
            &e.cond,
            &mut margins,
            &mut atoms,
        )?;
        events.push(Clause {
            cond: c,
            text: e.text.clone(),
            line: e.line,
        });
        let mut rb = Builder::new();
        let (mut slots, mut vals) = (Vec::new(), Vec::new());
        let reset_energy = energy(&mut rb)?;
        for r in &e.resets {
            let i = r.state.0;
            let cx = Ctx {
                energy: reset_energy,
                ..cx(clause_reads, "a reset")
            };
            let v = expr::lower(&mut rb, &cx, &r.value)?;
            let off = *state_off
                .get(i)
                .ok_or_else(|| invalid("a reset of a state that does not exist"))?;
            vals.extend(st.shape(&mut rb, g, i, v, None)?);
            slots.extend((0..st.size[i] as u32).map(|k| off + k));
        }
        resets.push(ResetSpec {
            slots,
            func: rb.finish("reset", &vals)?,
        });
    }
    let margins = b.finish("margins", &margins)?;
    let mut info = model_info(
        m, source, state_off, &st.size, st.dim, atoms, stops, events, &observe, &margins,
    );
    if let Some(g) = g {
        for (info, i) in info.states.iter_mut().zip(0..) {
            if st.field[i] {
                info.shape = g.shape();
                // The edge a Dirichlet boundary holds is masked out of the rate above.
                info.fixed_edge = g.dirichlet(i).is_some();
            }
        }
    }
    let (params, runs) = params_and_runs(m, &param_off);
    let def = scheme_def(&m.integrate.scheme)?;
    let spec = ModelSpec {
        info,
        params,
        runs,
        dynamics,
        initial,
        margins,
        observe,
        resets,
    };
    Ok(assemble(spec, &def)?)
}

/// The parameter slots and named runs of a model, shared by every lowering path.
fn params_and_runs(m: &CheckedModel, param_off: &[u32]) -> (Vec<ParamSpec>, Vec<NamedRun>) {
    let params = m
        .params
        .iter()
        .zip(param_off)
        .map(|(p, off)| ParamSpec {
            name: p.key.clone(),
            offset: *off,
            default: p.default.components().to_vec(),
        })
        .collect();
    let runs = m
        .runs
        .iter()
        .map(|r| NamedRun {
            name: r.name.clone(),
            overrides: r
                .overrides
                .iter()
                .map(|(id, v)| (id.0, v.components().to_vec()))
                .collect(),
        })
        .collect();
    (params, runs)
}

#[allow(clippy::too_many_arguments)]
fn model_info(
    m: &CheckedModel,
    source: Option<&str>,
    state_off: &[u32],
    sizes: &[usize],
    dim: u32,
    atoms: Vec<physis_runtime::AtomInfo>,
    stops: Vec<Clause>,
    events: Vec<Clause>,
    observe: &Function,
    margins: &Function,
) -> ModelInfo {
    let place = |span: physis_syntax::Span, fallback: String| match source {
        Some(src) if span.end as usize <= src.len() => {
            let line = physis_syntax::LineIndex::new(src)
                .line_col(src, span.start as usize)
                .line;
            (span.text(src).trim().to_string(), line)
        }
        _ => (fallback, 0),
    };
    let it = &m.integrate;
    let (text, line) = place(it.span, format!("integrate {}", it.scheme.name));
    let conserves = m
        .conserves
        .iter()
        .map(|c| {
            let name = m.observes.get(c.observe.0).map_or("?", |o| o.name.as_str());
            let (text, line) = place(c.span, format!("conserve {name} within {}", c.within));
            ConserveInfo {
                observe: c.observe.0,
                within: c.within,
                text,
                line,
            }
        })
        .collect();
    ModelInfo {
        name: m.name.clone(),
        dim: dim as usize,
        states: m
            .states
            .iter()
            .zip(state_off.iter().zip(sizes))
            .map(|(s, (off, n))| StateInfo {
                name: s.name.clone(),
                offset: *off as usize,
                shape: match (s.shape, s.element) {
                    (Shape::Scalar, _) => vec![],
                    // An array of vectors: its rows, each of `w` components.
                    (Shape::Vector(_), Some(w)) if w > 0 && *n % w == 0 => vec![*n / w, w],
                    _ => vec![*n],
                },
                fixed_edge: false,
            })
            .collect(),
        observes: m
            .observes
            .iter()
            .map(|o| ObserveInfo {
                name: o.name.clone(),
                unit: o.expr.dim.si_unit(),
                quantity: o.expr.dim.kind_name().unwrap_or_default().to_string(),
            })
            .collect(),
        noises: m.noises.len(),
        scheme: SchemeInfo {
            name: it.scheme.name.clone(),
            order: 1,
            adaptive: false,
            implicit: false,
            stochastic: false,
            stability_radius: None,
            stages: 0,
            residual_evals: 0,
            fsal: false,
            dense: false,
            implicit_stages: Vec::new(),
            bdf: false,
        },
        settings: Settings {
            t0: 0.0,
            step: it.step,
            tolerance: it.tolerance.unwrap_or(physis_check::DEFAULT_TOLERANCE),
            absolute: it.absolute.clone(),
            units: m.states.iter().map(|s| s.dim.si_unit()).collect(),
            limit: it.limit,
            seed: it.seed,
            record_every: m.record_every,
        },
        integrate: Some(SourceRef { text, line }),
        atoms,
        stops,
        events,
        conserves,
        conditions_read_rate: margins.reads(Source::Rate),
        observes_read_rate: observe.reads(Source::Rate),
    }
}

fn invalid(problem: &str) -> LowerError {
    LowerError::Invalid {
        problem: problem.to_string(),
    }
}
