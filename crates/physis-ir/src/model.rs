//! A whole model in IR: every function the driver asks a back end for, plus the static
//! description. Back ends (the tape interpreter here, generated Rust, a later JIT) consume
//! an [`IrModel`] and nothing else.

use std::sync::Arc;

use physis_runtime::{ModelInfo, SchemeInfo};

use crate::builder::Builder;
use crate::derive::jvp;
use crate::drift::inline_drift;
use crate::error::IrError;
use crate::ir::{Function, Source};
use crate::layout::Dynamics;
use crate::scheme::SchemeDef;
use crate::specialise::{SchemeFns, Specialised, rate_subst, specialise};
use crate::tangent::inline;

/// A parameter: its name and default value (one slot per component).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// Source name (`v0` for `v₀`).
    pub name: String,
    /// First slot in the parameter vector.
    pub offset: u32,
    /// Default, SI base units, one value per component.
    pub default: Vec<f64>,
}

/// A named run: `run Steep with α = 70 deg`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedRun {
    /// Its name.
    pub name: String,
    /// `(param index, value per component)` overrides.
    pub overrides: Vec<(usize, Vec<f64>)>,
}

/// The resets of one event `on c do s ≔ e, ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct ResetSpec {
    /// State slots written, in order.
    pub slots: Vec<u32>,
    /// Reads `t`, the state and rate from before the event (`State`, `Rate`) and params;
    /// returns one scalar per slot.
    pub func: Function,
}

/// What a lowering pass (or a test) provides to make an [`IrModel`].
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSpec {
    /// The static description; its `scheme` is filled in by [`assemble`].
    pub info: ModelInfo,
    /// Parameters in slot order.
    pub params: Vec<ParamSpec>,
    /// Named runs.
    pub runs: Vec<NamedRun>,
    /// The laws.
    pub dynamics: Dynamics,
    /// Initial state from `t` and params: `dim` slots.
    pub initial: Function,
    /// One margin `lhs − rhs` per atom, from `t`, the state, its rate and params.
    pub margins: Function,
    /// One value per observe, from `t`, the state, its rate and params.
    pub observe: Function,
    /// One entry per event, in declaration order.
    pub resets: Vec<ResetSpec>,
}

/// A model in IR, ready for any back end.
#[derive(Clone, Debug, PartialEq)]
pub struct IrModel {
    /// The static description, scheme filled in.
    pub info: Arc<ModelInfo>,
    /// Parameters in slot order.
    pub params: Vec<ParamSpec>,
    /// Named runs.
    pub runs: Vec<NamedRun>,
    /// The laws (with noise, if any).
    pub dynamics: Dynamics,
    /// `initial(t, p) -> y`.
    pub initial: Function,
    /// `rate(t, y, p) -> dy` (the drift when the laws have noise).
    pub rate: Function,
    /// `rate_jvp(t, y, p, seed) -> (∂f/∂y)·seed`.
    pub rate_jvp: Function,
    /// The scheme specialised onto the rate.
    pub scheme: Specialised,
    /// Margins of the atoms.
    pub margins: Function,
    /// Observed columns.
    pub observe: Function,
    /// `observe` pruned to the observes conserve clauses name ([`Conserved`]), for the
    /// driver's drift check after a step whose sample nobody reads.
    pub conserved: Conserved,
    /// Resets per event.
    pub resets: Vec<ResetSpec>,
    /// Where the implicit residual's Jacobian `∂residual/∂next` may be non-zero, when the
    /// scheme is implicit, the model has more than [`DENSE_JACOBIAN_MAX`] slots and the
    /// pattern is sparse (fields on grids); Newton then stores and solves it sparsely.
    ///
    /// [`DENSE_JACOBIAN_MAX`]: crate::specialise::DENSE_JACOBIAN_MAX
    pub jacobian_pattern: Option<Arc<physis_runtime::SparsePattern>>,
    /// How the implicit residual depends on `next` ([`crate::affine::residual_form`]);
    /// `General` for explicit schemes.
    pub residual_form: physis_runtime::ResidualForm,
}

/// The observe function pruned to what the conserve clauses read: the outputs of
/// `observe` that hold a conserved observe, and nothing they do not need.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conserved {
    /// The pruned function (no outputs when the model has no conserve clause).
    pub func: Function,
    /// For each slot `func` fills, in order, the observe slot it is (its index in
    /// [`ModelInfo::observes`]).
    pub slots: Vec<u32>,
}

impl Conserved {
    /// `observe` pruned to the observe slots `named` (those the conserve clauses name,
    /// [`physis_runtime::ConserveInfo::observe`]).
    pub fn of(observe: &Function, named: &[usize]) -> Conserved {
        let mut keep = Vec::new();
        let mut slots = Vec::new();
        let mut at = 0u32;
        for (k, v) in observe.outputs.iter().enumerate() {
            let len = observe.ty(*v).len() as u32;
            let range = at..at + len;
            if named.iter().any(|&c| range.contains(&(c as u32))) {
                keep.push(k);
                slots.extend(range);
            }
            at += len;
        }
        Conserved {
            func: observe.keep_outputs("conserved", &keep),
            slots,
        }
    }
}

impl IrModel {
    /// Number of parameter slots.
    pub fn param_len(&self) -> usize {
        self.params.iter().map(|p| p.default.len()).sum()
    }

    /// The default parameter vector.
    pub fn default_params(&self) -> Vec<f64> {
        self.params
            .iter()
            .flat_map(|p| p.default.iter().copied())
            .collect()
    }

    /// The parameter vector of a named run.
    pub fn run_params(&self, name: &str) -> Option<Vec<f64>> {
        let run = self.runs.iter().find(|r| r.name == name)?;
        let mut p = self.default_params();
        for (i, vals) in &run.overrides {
            let spec = self.params.get(*i)?;
            for (k, v) in vals.iter().enumerate() {
                *p.get_mut(spec.offset as usize + k)? = *v;
            }
        }
        Some(p)
    }

    /// Every function with its role, for listings and back ends that walk them all.
    pub fn functions(&self) -> Vec<&Function> {
        let mut fs = vec![
            &self.initial,
            &self.rate,
            &self.rate_jvp,
            &self.margins,
            &self.observe,
        ];
        if !self.conserved.slots.is_empty() {
            fs.push(&self.conserved.func);
        }
        match &self.scheme.fns {
            SchemeFns::Explicit { step, .. } => fs.push(step),
            SchemeFns::Implicit {
                residual,
                jacobian,
                jvp,
                error,
            } => {
                fs.push(residual);
                fs.push(jvp);
                fs.extend(jacobian.iter());
                fs.extend(error.iter());
            }
            SchemeFns::Staged { stages, finish, .. } => {
                for st in stages {
                    fs.push(&st.residual);
                    fs.push(&st.jvp);
                    fs.extend(st.jacobian.iter());
                }
                fs.push(finish);
            }
        }
        fs.extend(self.resets.iter().map(|r| &r.func));
        fs
    }
}

/// Specialises `scheme` onto the model and derives what the driver needs.
pub fn assemble(spec: ModelSpec, scheme: &SchemeDef) -> Result<IrModel, IrError> {
    let ModelSpec {
        mut info,
        params,
        runs,
        dynamics,
        initial,
        margins,
        observe,
        resets,
    } = spec;
    let dim = dynamics.dim();
    let bad = |problem: String| IrError::Layout { problem };
    if info.dim != dim {
        return Err(bad(format!(
            "the info says {} slots, the layout has {dim}",
            info.dim
        )));
    }
    if initial.output_len() != dim {
        return Err(bad(format!(
            "the initial state has {} slots for {dim}",
            initial.output_len()
        )));
    }
    if margins.output_len() != info.atoms.len() {
        return Err(bad(format!(
            "{} margins for {} atoms",
            margins.output_len(),
            info.atoms.len()
        )));
    }
    if observe.output_len() != info.observes.len() {
        return Err(bad(format!(
            "{} observed values for {} observes",
            observe.output_len(),
            info.observes.len()
        )));
    }
    if resets.len() != info.events.len() {
        return Err(bad(format!(
            "{} reset lists for {} events",
            resets.len(),
            info.events.len()
        )));
    }
    for r in &resets {
        if r.func.output_len() != r.slots.len() || r.slots.iter().any(|s| *s as usize >= dim) {
            return Err(bad(
                "a reset writes slots it does not compute or that do not exist".into(),
            ));
        }
    }
    let np: usize = params.iter().map(|p| p.default.len()).sum();
    for f in [&initial, &margins, &observe]
        .into_iter()
        .chain(resets.iter().map(|r| &r.func))
    {
        if f.input_extent(Source::Param) > np
            || f.input_extent(Source::State) > dim
            || f.input_extent(Source::Rate) > dim
        {
            return Err(bad(format!("function `{}` reads past its inputs", f.name)));
        }
    }
    if dynamics.rate.input_extent(Source::Param) > np {
        return Err(bad("the rate reads a parameter that does not exist".into()));
    }
    for (k, atom) in info.atoms.iter_mut().enumerate() {
        atom.time_only = time_only(&margins, k)?;
        atom.affine = affine_in_state(&margins, k)?;
    }
    // The driver's rate is the drift: noise at zero.
    let mut b = Builder::new();
    let t = b.load(Source::T, 0);
    let y = dynamics.layout.load(&mut b, Source::State);
    let which: Vec<usize> = (0..dynamics.layout.parts.len()).collect();
    let outs = {
        let mut subst = rate_subst(&dynamics.layout, t, &y);
        inline_drift(&mut b, &dynamics.rate, &which, &mut subst)?
    };
    let rate = b.finish("rate", &outs)?;
    let rate_jvp = jvp(&rate, &dynamics.layout, Source::State, "rate_jvp")?;
    let sp = specialise(scheme, &dynamics)?;
    if sp.stochastic && dynamics.noises == 0 {
        return Err(IrError::SchemeReads {
            scheme: scheme.name.clone(),
            what: "dW",
            why: "a model without noise does not have",
        });
    }
    let (implicit, adaptive, fsal, dense) = match &sp.fns {
        SchemeFns::Explicit {
            adaptive,
            fsal,
            dense,
            ..
        } => (false, *adaptive, *fsal, *dense),
        SchemeFns::Implicit { error, .. } => (true, error.is_some(), false, false),
        SchemeFns::Staged { adaptive, .. } => (true, *adaptive, false, false),
    };
    let implicit_stages = match &sp.fns {
        SchemeFns::Staged { stages, .. } => stages
            .iter()
            .map(|s| physis_runtime::StageInfo {
                kind: s.kind,
                residual_evals: s.evals,
                width: s.width,
                affine: s.affine,
            })
            .collect(),
        _ => Vec::new(),
    };
    let staged = !implicit_stages.is_empty();
    info.scheme = SchemeInfo {
        name: scheme.name.clone(),
        order: scheme.order.unwrap_or(1),
        adaptive,
        implicit,
        stochastic: sp.stochastic,
        stability_radius: scheme.stable,
        stages: if implicit && !staged {
            0
        } else {
            sp.stages.evals
        },
        residual_evals: if implicit && !staged {
            sp.stages.evals
        } else {
            0
        },
        fsal,
        dense,
        implicit_stages,
        bdf: scheme.bdf,
    };
    let jacobian_pattern = match &sp.fns {
        SchemeFns::Implicit { residual, .. } if dim > crate::specialise::DENSE_JACOBIAN_MAX => {
            crate::sparsity::jacobian_pattern(residual, Source::Guess, dim)?
        }
        SchemeFns::Staged { stages, .. } if dim > crate::specialise::DENSE_JACOBIAN_MAX => {
            crate::staged::union_pattern(stages, dim)?
        }
        _ => None,
    };
    let residual_form = match &sp.fns {
        SchemeFns::Implicit {
            residual,
            jvp,
            jacobian,
            ..
        } => crate::affine::residual_form(residual, jvp, jacobian.as_ref()),
        _ => physis_runtime::ResidualForm::General,
    };
    let conserved_slots: Vec<usize> = info.conserves.iter().map(|c| c.observe).collect();
    Ok(IrModel {
        jacobian_pattern,
        residual_form,
        conserved: Conserved::of(&observe, &conserved_slots),
        info: Arc::new(info),
        params,
        runs,
        dynamics,
        initial,
        rate,
        rate_jvp,
        scheme: sp,
        margins,
        observe,
        resets,
    })
}

/// True when margin `k` reads no rate or noise and is affine in `t` and the state together:
/// its tangent in a direction `(1, v)` (`v` stood in for by the rate's slots, which the
/// margin itself does not read) reads neither `t` nor the state, so every partial
/// derivative is a constant.
fn affine_in_state(margins: &Function, k: usize) -> Result<bool, IrError> {
    let mut b = Builder::new();
    let mut keep = |_: &mut Builder, _: crate::tangent::LoadRef| Ok(None);
    let primal = inline(&mut b, margins, &[k], &mut keep)?;
    let g = b.finish("margin", &primal)?;
    if g.reads(Source::Rate) || g.reads(Source::Noise) || !smooth_in_motion(&g) {
        return Ok(false);
    }
    let mut b = Builder::new();
    let mut keep = |_: &mut Builder, _: crate::tangent::LoadRef| Ok(None);
    let mut seed = |b: &mut Builder,
                    l: crate::tangent::LoadRef|
     -> Result<Option<crate::ir::ValueId>, IrError> {
        use crate::tangent::LoadRef;
        Ok(match l {
            LoadRef::Scalar(Source::T, _) => Some(b.constant(1.0)),
            LoadRef::Scalar(Source::State, i) => Some(b.load(Source::Rate, i)),
            LoadRef::Range(Source::State, o, n) => Some(b.load_range(Source::Rate, o, n)),
            _ => None,
        })
    };
    let (_, tangent) = crate::tangent::inline_tangent(&mut b, margins, &[k], &mut keep, &mut seed)?;
    let Some(Some(d)) = tangent.first().copied() else {
        // No tangent: the margin does not move with `t` or the state.
        return Ok(true);
    };
    let f = b.finish("slope", &[d])?;
    Ok(!f.reads(Source::T) && !f.reads(Source::State))
}

/// True when every instruction of `f` that depends on `t` or the state is one whose tangent
/// is its derivative everywhere (sums, products, quotients, gathers): `floor(y)` or
/// `y < 0 ? a : b` have a tangent of zero or one piece without being affine.
fn smooth_in_motion(f: &Function) -> bool {
    use crate::ir::{BinOp, Op, ReduceOp, UnOp};
    let mut moves = vec![false; f.insts.len()];
    for (i, inst) in f.insts.iter().enumerate() {
        let m = match &inst.op {
            Op::Load(s, _) | Op::LoadRange(s, _, _) => matches!(s, Source::T | Source::State),
            op => op.operands().iter().any(|v| moves[v.index()]),
        };
        moves[i] = m;
        let fine = matches!(
            &inst.op,
            Op::Const(_)
                | Op::Load(..)
                | Op::LoadRange(..)
                | Op::Unary(UnOp::Neg, _)
                | Op::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, _, _)
                | Op::Powi(..)
                | Op::Pack(_)
                | Op::Splat(..)
                | Op::Index(..)
                | Op::Gather(..)
                | Op::Reduce(ReduceOp::Sum | ReduceOp::Mean, _)
        );
        if m && !fine {
            return false;
        }
    }
    true
}

/// True when margin `k` reads nothing but `t` and params and is affine in `t`: built only of
/// smooth operations, and its derivative in `t` reads neither `t` nor the state.
fn time_only(margins: &Function, k: usize) -> Result<bool, IrError> {
    let mut b = Builder::new();
    let mut keep = |_: &mut Builder, _: crate::tangent::LoadRef| Ok(None);
    let mut seed = |b: &mut Builder,
                    l: crate::tangent::LoadRef|
     -> Result<Option<crate::ir::ValueId>, IrError> {
        Ok(matches!(l, crate::tangent::LoadRef::Scalar(Source::T, _)).then(|| b.constant(1.0)))
    };
    let (primal, tangent) =
        crate::tangent::inline_tangent(&mut b, margins, &[k], &mut keep, &mut seed)?;
    let mut outs = primal;
    outs.extend(tangent.into_iter().flatten());
    let f = b.finish("margin", &outs)?;
    let reads_only_t = [Source::State, Source::Rate, Source::Noise]
        .iter()
        .all(|s| !f.reads(*s));
    // `floor(t)` has a slope of zero and is not affine: its change of side is at the jump,
    // not where a line through the ends would cross.
    if !reads_only_t || !smooth_in_motion(&f) {
        return Ok(false);
    }
    let slope = match f.outputs.get(1) {
        Some(v) => *v,
        None => return Ok(true),
    };
    // Rebuild the slope alone to see whether it still depends on `t`.
    let mut b = Builder::new();
    let mut keep = |_: &mut Builder, _: crate::tangent::LoadRef| Ok(None);
    let g = Function {
        name: f.name.clone(),
        insts: f.insts.clone(),
        outputs: vec![slope],
    };
    let out = inline(&mut b, &g, &[0], &mut keep)?;
    Ok(!b.finish("slope", &out)?.reads(Source::T))
}

#[cfg(test)]
mod tests {
    use super::Conserved;
    use crate::builder::Builder;
    use crate::ir::Source;

    #[test]
    fn the_conserved_function_keeps_whole_outputs_and_says_where_each_slot_goes() {
        // Outputs: a scalar (slot 0), an array of two (slots 1, 2), a scalar (slot 3).
        let mut b = Builder::new();
        let (x, y) = (b.load(Source::State, 0), b.load(Source::State, 1));
        let a = b.mul(x, y).unwrap();
        let v = b.load_range(Source::State, 0, 2);
        let w = b.add(v, v).unwrap();
        let c = b.div(y, x).unwrap();
        let f = b.finish("observe", &[a, w, c]).unwrap();
        // Slot 2 lies in the array: the whole array is kept, both its slots mapped.
        let k = Conserved::of(&f, &[2]);
        assert_eq!(k.slots, [1, 2]);
        assert_eq!(k.func.output_len(), 2);
        assert_eq!(k.func.op_count(), 1, "only the add: {}", k.func);
        let k = Conserved::of(&f, &[3, 0, 3]);
        assert_eq!(k.slots, [0, 3]);
        assert_eq!(k.func.op_count(), 2, "{}", k.func);
        assert!(Conserved::of(&f, &[]).slots.is_empty());
    }
}
