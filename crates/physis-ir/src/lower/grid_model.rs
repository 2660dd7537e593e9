//! Lowering a model with a grid: each field is one array part of the state (scalars and
//! vectors stay unrolled beside it), so the rate, the scheme and its Jacobian are a few
//! whole-array operations whatever the grid's size. See [`super::grid`] for the
//! conventions of nodes and boundaries.

use physis_check::{CheckedModel, LawOrder, Motion, Shape};
use physis_runtime::Clause;

use super::expr::{self, Ctx, Reads};
use super::grid::{GridCx, to_field};
use super::{LowerError, invalid, model_info, params_and_runs, scheme_def};
use crate::builder::Builder;
use crate::ir::{Source, ValueId};
use crate::layout::{Dynamics, Layout};
use crate::model::{IrModel, ModelSpec, ResetSpec, assemble};

/// Lowers a checked model that declares a grid.
pub(super) fn lower(m: &CheckedModel, source: Option<&str>) -> Result<IrModel, LowerError> {
    let g = GridCx::new(m)?.ok_or_else(|| invalid("a grid model without a grid"))?;
    let mech = &m.mechanics;
    if mech.lagrangian.is_some()
        || mech.hamiltonian.is_some()
        || mech.dissipation.is_some()
        || !mech.efforts.is_empty()
    {
        return Err(LowerError::NotYetSupported {
            feature: "lagrangian and hamiltonian mechanics on a grid",
        });
    }
    // Slots and parts: a field is one array part, other states a scalar part per slot.
    let mut state_off = Vec::with_capacity(m.states.len());
    let mut state_sizes = Vec::with_capacity(m.states.len());
    let mut part_of = Vec::with_capacity(m.states.len());
    let mut parts: Vec<(u32, bool)> = Vec::new();
    let mut dim = 0u32;
    for s in &m.states {
        let (n, field) = match s.shape {
            Shape::Scalar => (1, false),
            Shape::Vector(n) => (n, false),
            Shape::Field => (g.len(), true),
            _ => return Err(invalid("a state of unknown shape")),
        };
        state_off.push(dim);
        state_sizes.push(n);
        part_of.push(parts.len());
        if field {
            parts.push((n as u32, true));
        } else {
            parts.extend((0..n).map(|_| (1, false)));
        }
        dim += n as u32;
    }
    let layout = Layout::from_sizes(&parts)?;
    let mut param_off = Vec::with_capacity(m.params.len());
    let mut acc = 0u32;
    for p in &m.params {
        param_off.push(acc);
        acc += p.default.components().len() as u32;
    }
    let cx = |state: bool, rate: bool, noise: bool, what: &'static str| Ctx {
        state_off: &state_off,
        param_off: &param_off,
        reads: Reads { state, rate, noise },
        what,
        grid: Some(&g),
        energy: None,
    };
    let is_field = |i: usize| matches!(m.states[i].shape, Shape::Field);

    // The rate: one value per part; a Dirichlet field's edge does not move.
    let mut b = Builder::new();
    let mask = if (0..m.states.len()).any(|i| g.dirichlet(i).is_some()) {
        Some(g.interior_mask(&mut b)?)
    } else {
        None
    };
    let mut rate = Vec::with_capacity(layout.parts.len());
    let mut pairs = Vec::new();
    for (i, s) in m.states.iter().enumerate() {
        let comps = match &s.motion {
            Motion::Law(l) => {
                let law = m
                    .laws
                    .get(*l)
                    .ok_or_else(|| invalid("a law that does not exist"))?;
                expr::lower(&mut b, &cx(true, false, true, "a law"), &law.rhs)?
            }
            Motion::Kinematic(v) => {
                let off = *state_off
                    .get(v.0)
                    .ok_or_else(|| invalid("a velocity state that does not exist"))?;
                if let Some(Motion::Law(l)) = m.states.get(v.0).map(|s| &s.motion)
                    && m.laws
                        .get(*l)
                        .is_some_and(|law| law.order == LawOrder::Second)
                {
                    let k = if is_field(i) { 1 } else { state_sizes[i] };
                    pairs.extend((0..k).map(|c| (part_of[i] + c, part_of[v.0] + c)));
                }
                if is_field(i) {
                    vec![b.load_range(Source::State, off, g.len() as u32)]
                } else {
                    (0..state_sizes[i] as u32)
                        .map(|k| b.load(Source::State, off + k))
                        .collect()
                }
            }
            Motion::Lagrangian | Motion::Hamiltonian => {
                return Err(LowerError::NotYetSupported {
                    feature: "lagrangian and hamiltonian mechanics on a grid",
                });
            }
            _ => {
                return Err(LowerError::Invalid {
                    problem: format!("state `{}` has nothing moving it", s.name),
                });
            }
        };
        rate.extend(shape_state(
            &mut b,
            &g,
            i,
            is_field(i),
            comps,
            state_sizes[i],
            mask,
        )?);
    }
    let rate = b.finish("rate", &rate)?;
    let dynamics = Dynamics::new(layout, rate, pairs, m.noises.len() as u32)?;

    // Initial state; a Dirichlet field starts at its value on the edge.
    let mut b = Builder::new();
    let mut init = Vec::new();
    let icx = cx(false, false, false, "an initial value");
    for (i, s) in m.states.iter().enumerate() {
        let v = expr::lower(&mut b, &icx, &s.init)?;
        let v = match (is_field(i), g.dirichlet(i)) {
            (true, Some(bv)) => {
                let [u] = v[..] else {
                    return Err(invalid("a field's initial value of several parts"));
                };
                let u = to_field(&mut b, &g, u)?;
                let bv = single(expr::lower(&mut b, &icx, bv)?)?;
                let inside = g.interior_mask(&mut b)?;
                vec![b.select(inside, u, bv)?]
            }
            _ => shape_state(&mut b, &g, i, is_field(i), v, state_sizes[i], None)?,
        };
        init.extend(v);
    }
    let initial = b.finish("initial", &init)?;

    // Observes, stops, events and resets.
    let mut b = Builder::new();
    let mut obs = Vec::new();
    for o in &m.observes {
        let v = single(expr::lower(
            &mut b,
            &cx(true, true, false, "an observe"),
            &o.expr,
        )?)?;
        if b.ty(v)? != crate::ir::Ty::Scalar {
            return Err(invalid("an observe that is not one number"));
        }
        obs.push(v);
    }
    let observe = b.finish("observe", &obs)?;
    let mut b = Builder::new();
    let (mut margins, mut atoms, mut stops, mut events, mut resets) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let ccx = cx(true, true, false, "a condition");
    for s in &m.stops {
        let c = expr::cond(&mut b, &ccx, &s.cond, &mut margins, &mut atoms)?;
        stops.push(Clause {
            cond: c,
            text: s.text.clone(),
            line: s.line,
        });
    }
    for e in &m.events {
        let c = expr::cond(&mut b, &ccx, &e.cond, &mut margins, &mut atoms)?;
        events.push(Clause {
            cond: c,
            text: e.text.clone(),
            line: e.line,
        });
        let mut rb = Builder::new();
        let (mut slots, mut vals) = (Vec::new(), Vec::new());
        for r in &e.resets {
            let i = r.state.0;
            let v = expr::lower(&mut rb, &cx(true, true, false, "a reset"), &r.value)?;
            let off = *state_off
                .get(i)
                .ok_or_else(|| invalid("a reset of a state that does not exist"))?;
            let v = shape_state(&mut rb, &g, i, is_field(i), v, state_sizes[i], None)?;
            slots.extend((0..state_sizes[i] as u32).map(|k| off + k));
            vals.extend(v);
        }
        resets.push(ResetSpec {
            slots,
            func: rb.finish("reset", &vals)?,
        });
    }
    let margins = b.finish("margins", &margins)?;
    let mut info = model_info(
        m,
        source,
        &state_off,
        &state_sizes,
        dim,
        atoms,
        stops,
        events,
        &observe,
        &margins,
    );
    for (st, i) in info.states.iter_mut().zip(0..) {
        if is_field(i) {
            st.shape = g.shape();
            // The edge a Dirichlet boundary holds is masked out of the rate above.
            st.fixed_edge = g.dirichlet(i).is_some();
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

/// A state's value in its parts: a field as one array (a scalar spread over the grid,
/// the edge masked to zero rate when `mask` is given and the field is Dirichlet), other
/// states as their components.
fn shape_state(
    b: &mut Builder,
    g: &GridCx<'_>,
    i: usize,
    field: bool,
    comps: Vec<ValueId>,
    size: usize,
    mask: Option<ValueId>,
) -> Result<Vec<ValueId>, LowerError> {
    if !field {
        if comps.len() != size {
            return Err(LowerError::Invalid {
                problem: format!("a value of {} components for {size}", comps.len()),
            });
        }
        return Ok(comps);
    }
    let u = to_field(b, g, single(comps)?)?;
    if g.repeats(i) {
        // A periodic field on a grid with ends: its last nodes repeat its first.
        let d = g.distinct(b, u)?;
        return Ok(vec![g.repeat(b, d)?]);
    }
    Ok(vec![match (mask, g.dirichlet(i)) {
        (Some(inside), Some(_)) => {
            let z = b.constant(0.0);
            b.select(inside, u, z)?
        }
        _ => u,
    }])
}

fn single(v: Vec<ValueId>) -> Result<ValueId, LowerError> {
    match v[..] {
        [x] => Ok(x),
        _ => Err(invalid("several values where one was expected")),
    }
}
