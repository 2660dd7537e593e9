//! The interpreter back end: an [`IrModel`] compiled to tapes, implementing the driver's
//! [`Model`] trait. Every call runs one tape over registers allocated up front.

use std::sync::Arc;

use physis_runtime::{
    DenseMatrix, JacobianLayout, Model, ModelInfo, ResidualForm, SparseMatrix, SparsePattern,
    StepArgs, StepOut,
};

use crate::error::IrError;
use crate::interpreter::compact::CompactTape;
use crate::interpreter::native::{NativeTape, TapeCompiler, Tier};
use crate::interpreter::tape::{Inputs, Tape};
use crate::ir::Function;
use crate::model::IrModel;
use crate::specialise::SchemeFns;

/// A tape (shared by the clones of a model) with its own register file (padded for the
/// compact form), its compact form where it has one, and native code for it once compiled.
/// All three compute the same bits into the same registers.
#[derive(Clone, Debug)]
struct Prog {
    tape: Arc<Tape>,
    compact: Option<Arc<CompactTape>>,
    regs: Vec<f64>,
    native: Option<Arc<dyn NativeTape>>,
}

impl Prog {
    /// `f` compiled with `params` folded in, or with parameters left as loads.
    fn new(f: &Function, params: Option<&[f64]>) -> Result<Self, IrError> {
        let tape = match params {
            Some(p) => Tape::compile(&bind_params(f, p)?)?,
            None => Tape::compile(f)?,
        };
        let compact = CompactTape::compile(&tape).map(Arc::new);
        let mut regs = tape.registers();
        if let Some(c) = &compact {
            regs.resize(c.size(), 0.0);
        }
        Ok(Prog {
            tape: Arc::new(tape),
            compact,
            regs,
            native: None,
        })
    }

    #[inline]
    fn run(&mut self, inp: &Inputs<'_>) {
        if let Some(native) = &self.native
            && native.run(&mut self.regs, inp)
        {
            return;
        }
        if let Some(compact) = &self.compact
            && compact.run(&mut self.regs, inp)
        {
            return;
        }
        self.tape.run(&mut self.regs, inp);
    }

    #[inline]
    fn write(&self, from: usize, out: &mut [f64]) {
        self.tape.write(&self.regs, from, out);
    }

    /// Output slot `k` into `out[slots[k]]`, for each `k`.
    #[inline]
    fn scatter(&self, slots: &[u32], out: &mut [f64]) {
        for (r, s) in self.tape.flat.iter().zip(slots) {
            if let Some(o) = out.get_mut(*s as usize) {
                *o = self.regs[*r as usize];
            }
        }
    }
}

/// What the scheme compiled to.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per model: boxing would only add a pointer chase
enum SchemeProgs {
    Explicit {
        step: Prog,
        adaptive: bool,
        fsal: bool,
        dense: bool,
    },
    Implicit {
        residual: Prog,
        jacobian: Option<Prog>,
        jvp: Prog,
        error: Option<Prog>,
        seed: Vec<f64>,
        col: Vec<f64>,
    },
    Staged {
        stages: Vec<StageProgs>,
        finish: Prog,
        adaptive: bool,
        seed: Vec<f64>,
        col: Vec<f64>,
    },
}

/// The most blocks any unknown of a staged scheme spans.
fn widest(stages: &[crate::staged::StageFns]) -> usize {
    stages.iter().map(|s| s.width as usize).max().unwrap_or(1)
}

/// One implicit stage's residual and Jacobians.
#[derive(Clone, Debug)]
struct StageProgs {
    residual: Prog,
    jacobian: Option<Prog>,
    jvp: Prog,
    /// State-sized blocks of the unknown.
    width: usize,
}

/// An [`IrModel`] run by the tape interpreter, with its parameters bound.
#[derive(Clone, Debug)]
pub struct TapeModel {
    info: Arc<ModelInfo>,
    params: Vec<f64>,
    dim: usize,
    initial: Prog,
    rate: Prog,
    rate_jvp: Prog,
    scheme: SchemeProgs,
    margins: Prog,
    observe: Prog,
    /// The observes conserve clauses name ([`crate::Conserved`]) and their slots.
    conserved: (Prog, Arc<[u32]>),
    resets: Vec<(Vec<u32>, Prog)>,
    pattern: Option<Arc<SparsePattern>>,
    form: ResidualForm,
    /// When to ask for native code; `None` once asked (or never to ask).
    tier: Option<Tier>,
}

/// Why a model could not be prepared for the interpreter.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BindError {
    /// The parameter vector has the wrong length.
    #[error("model `{model}` has {expected} parameter slots, {got} given")]
    Params {
        /// The model.
        model: String,
        /// Slots it has.
        expected: usize,
        /// Slots given.
        got: usize,
    },
    /// A function did not compile.
    #[error(transparent)]
    Ir(#[from] IrError),
}

impl TapeModel {
    /// Compiles `model` with its default parameters.
    pub fn new(model: &IrModel) -> Result<Self, BindError> {
        Self::with_params(model, model.default_params())
    }

    /// Compiles `model` with the given parameter vector (see [`IrModel::run_params`]).
    pub fn with_params(model: &IrModel, params: Vec<f64>) -> Result<Self, BindError> {
        check_len(model, &params)?;
        Self::compile(model, params, true)
    }

    /// Compiles `model` once with its parameters left as inputs, for many parameter
    /// vectors (a sweep): [`UnboundTapes::bind`] then costs a copy, not a compilation.
    pub fn unbound(model: &IrModel) -> Result<UnboundTapes, BindError> {
        Ok(UnboundTapes(Self::compile(
            model,
            model.default_params(),
            false,
        )?))
    }

    fn compile(model: &IrModel, params: Vec<f64>, fold: bool) -> Result<Self, BindError> {
        let folded = fold.then_some(&params[..]);
        let prog = |f: &Function| Prog::new(f, folded);
        let scheme = match &model.scheme.fns {
            SchemeFns::Explicit {
                step,
                adaptive,
                fsal,
                dense,
            } => SchemeProgs::Explicit {
                step: prog(step)?,
                adaptive: *adaptive,
                fsal: *fsal,
                dense: *dense,
            },
            SchemeFns::Implicit {
                residual,
                jacobian,
                jvp,
                error,
            } => SchemeProgs::Implicit {
                residual: prog(residual)?,
                jacobian: jacobian.as_ref().map(prog).transpose()?,
                jvp: prog(jvp)?,
                error: error.as_ref().map(prog).transpose()?,
                seed: vec![0.0; model.dynamics.dim()],
                col: vec![0.0; model.dynamics.dim()],
            },
            SchemeFns::Staged {
                stages,
                finish,
                adaptive,
            } => SchemeProgs::Staged {
                stages: stages
                    .iter()
                    .map(|s| {
                        Ok(StageProgs {
                            residual: prog(&s.residual)?,
                            jacobian: s.jacobian.as_ref().map(prog).transpose()?,
                            jvp: prog(&s.jvp)?,
                            width: s.width as usize,
                        })
                    })
                    .collect::<Result<_, IrError>>()?,
                finish: prog(finish)?,
                adaptive: *adaptive,
                seed: vec![0.0; widest(stages) * model.dynamics.dim()],
                col: vec![0.0; widest(stages) * model.dynamics.dim()],
            },
        };
        let initial = prog(&model.initial)?;
        let rate = prog(&model.rate)?;
        let rate_jvp = prog(&model.rate_jvp)?;
        let margins = prog(&model.margins)?;
        let observe = prog(&model.observe)?;
        let conserved = (
            prog(&model.conserved.func)?,
            Arc::from(&model.conserved.slots[..]),
        );
        let resets = model
            .resets
            .iter()
            .map(|r| Ok((r.slots.clone(), prog(&r.func)?)))
            .collect::<Result<_, IrError>>()?;
        Ok(TapeModel {
            info: model.info.clone(),
            params,
            dim: model.dynamics.dim(),
            initial,
            rate,
            rate_jvp,
            scheme,
            margins,
            observe,
            conserved,
            resets,
            pattern: model.jacobian_pattern.clone(),
            form: model.residual_form,
            tier: None,
        })
    }

    /// The bound parameters.
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// Runs every tape through [`Tape::run`] from now on, not its compact form (the same
    /// bits; for comparing the two).
    pub fn plain_tapes(&mut self) {
        self.initial.compact = None;
        for (_, p) in self.hot_progs() {
            p.compact = None;
        }
    }

    /// Tapes that run in compact form, and tapes there are (empty ones aside; for reports).
    pub fn compact_count(&mut self) -> (usize, usize) {
        let hot = self.hot_progs();
        (
            hot.iter().filter(|(_, p)| p.compact.is_some()).count(),
            hot.len(),
        )
    }

    /// Instructions run per rate evaluation (for reports).
    pub fn rate_len(&self) -> usize {
        self.rate.tape.len()
    }

    /// Asks `tier.compiler` for native code once the tapes have interpreted `tier.budget`
    /// instructions (at the first call for a budget of zero). The bits of the run are the
    /// same either way: native code computes what the tapes compute.
    pub fn set_tier(&mut self, tier: Tier) {
        self.tier = Some(tier);
    }

    /// Compiles now, through `compiler`, every tape a run calls more than once (all but the
    /// initial state's), keeping the tape where the compiler returns none.
    pub fn compile_native(&mut self, compiler: &dyn TapeCompiler) {
        let mut progs = self.hot_progs();
        let tapes: Vec<(&'static str, Arc<Tape>)> =
            progs.iter().map(|(r, p)| (*r, p.tape.clone())).collect();
        let natives = compiler.compile(&tapes);
        for ((_, prog), native) in progs.iter_mut().zip(natives) {
            prog.native = native;
        }
        self.tier = None;
    }

    /// Instructions in the tapes [`TapeModel::compile_native`] would compile (for a
    /// [`Tier::after_work`] budget).
    pub fn hot_size(&mut self) -> usize {
        self.hot_progs().iter().map(|(_, p)| p.tape.len()).sum()
    }

    /// Every non-empty tape but the initial state's, with its role.
    fn hot_progs(&mut self) -> Vec<(&'static str, &mut Prog)> {
        let mut v: Vec<(&'static str, &mut Prog)> = vec![
            ("rate", &mut self.rate),
            ("rate_jvp", &mut self.rate_jvp),
            ("margins", &mut self.margins),
            ("observe", &mut self.observe),
            ("conserved", &mut self.conserved.0),
        ];
        match &mut self.scheme {
            SchemeProgs::Explicit { step, .. } => v.push(("step", step)),
            SchemeProgs::Implicit {
                residual,
                jacobian,
                jvp,
                error,
                ..
            } => {
                v.push(("residual", residual));
                v.extend(jacobian.as_mut().map(|j| ("jacobian", j)));
                v.push(("jvp", jvp));
                v.extend(error.as_mut().map(|e| ("error", e)));
            }
            SchemeProgs::Staged { stages, finish, .. } => {
                for st in stages {
                    v.push(("stage", &mut st.residual));
                    v.extend(st.jacobian.as_mut().map(|j| ("jacobian", j)));
                    v.push(("jvp", &mut st.jvp));
                }
                v.push(("finish", finish));
            }
        }
        v.extend(self.resets.iter_mut().map(|(_, p)| ("reset", p)));
        v.retain(|(_, p)| !p.tape.is_empty());
        v
    }

    /// Counts `n` interpreted instructions against the tier's budget, compiling when it is
    /// spent.
    #[inline]
    fn tick(&mut self, n: usize) {
        if let Some(tier) = &mut self.tier {
            match tier.budget.checked_sub(n as u64) {
                Some(left) if left > 0 => tier.budget = left,
                _ => {
                    let compiler = tier.compiler.clone();
                    self.compile_native(&*compiler);
                }
            }
        }
    }
}

fn check_len(model: &IrModel, params: &[f64]) -> Result<(), BindError> {
    if params.len() == model.param_len() {
        Ok(())
    } else {
        Err(BindError::Params {
            model: model.info.name.clone(),
            expected: model.param_len(),
            got: params.len(),
        })
    }
}

/// A model's tapes compiled with the parameters as inputs ([`TapeModel::unbound`]). A
/// model bound from them computes the same bits as one compiled for its parameters
/// ([`bind_params`] folds by the very operations the loads feed), a little slower per
/// call and much cheaper to make.
#[derive(Clone, Debug)]
pub struct UnboundTapes(TapeModel);

impl UnboundTapes {
    /// A model running these tapes with `params`.
    pub fn bind(&self, params: Vec<f64>) -> Result<TapeModel, BindError> {
        let expected = self.0.params.len();
        if params.len() != expected {
            return Err(BindError::Params {
                model: self.0.info.name.clone(),
                expected,
                got: params.len(),
            });
        }
        Ok(TapeModel {
            params,
            ..self.0.clone()
        })
    }
}

impl Model for TapeModel {
    fn info(&self) -> Arc<ModelInfo> {
        self.info.clone()
    }

    fn initial(&mut self, t0: f64, y: &mut [f64]) {
        let inp = Inputs {
            t: t0,
            p: &self.params,
            ..Inputs::default()
        };
        self.initial.run(&inp);
        self.initial.write(0, y);
    }

    #[inline]
    fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
        self.tick(self.rate.tape.len());
        let inp = Inputs {
            t,
            y,
            p: &self.params,
            ..Inputs::default()
        };
        self.rate.run(&inp);
        self.rate.write(0, dydt);
    }

    fn step(&mut self, args: &StepArgs<'_>, out: StepOut<'_>) {
        if let SchemeProgs::Explicit { step, .. } = &self.scheme {
            let n = step.tape.len();
            self.tick(n);
        }
        let dim = self.dim;
        let inp = Inputs {
            t: args.t,
            h: args.h,
            y: args.y,
            f0: args.f0,
            p: &self.params,
            dw: args.dw,
            ..Inputs::default()
        };
        let SchemeProgs::Explicit {
            step,
            adaptive,
            fsal,
            dense,
        } = &mut self.scheme
        else {
            // The driver never steps an implicit scheme; leave a non-finite state if it does.
            out.next.fill(f64::NAN);
            return;
        };
        step.run(&inp);
        step.write(0, out.next);
        let mut from = dim;
        if *adaptive {
            if let Some(err) = out.err {
                step.write(from, err);
            }
            from += dim;
        }
        if let Some(q) = out.dense {
            // Asked for a continuous extension the scheme lacks: zero, Hermite alone.
            let at = from + if *fsal { dim } else { 0 };
            if *dense {
                step.write(at, q);
            } else {
                q.fill(0.0);
            }
        }
        if let Some(f1) = out.f1 {
            if *fsal {
                step.write(from, f1);
            } else {
                // Asked for f1 without declaring fsal: compute it honestly.
                let inp = Inputs {
                    t: args.t + args.h,
                    y: out.next,
                    p: &self.params,
                    ..Inputs::default()
                };
                self.rate.run(&inp);
                self.rate.write(0, f1);
            }
        }
    }

    fn residual(&mut self, args: &StepArgs<'_>, next: &[f64], r: &mut [f64]) {
        if let SchemeProgs::Implicit { residual, .. } = &self.scheme {
            let n = residual.tape.len();
            self.tick(n);
        }
        let inp = step_inputs(&self.params, args, next);
        match &mut self.scheme {
            SchemeProgs::Implicit { residual, .. } => {
                residual.run(&inp);
                residual.write(0, r);
            }
            _ => r.fill(0.0),
        }
    }

    fn residual_jacobian(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        let inp = step_inputs(&self.params, args, next);
        let n = self.dim;
        let SchemeProgs::Implicit {
            jacobian,
            jvp,
            seed,
            col,
            ..
        } = &mut self.scheme
        else {
            return false;
        };
        if jac.n() != n {
            return false;
        }
        if let Some(j) = jacobian {
            j.run(&inp);
            j.write(0, jac.as_mut_slice());
            return true;
        }
        // Column by column through the exact Jacobian-vector product.
        for c in 0..n {
            seed.fill(0.0);
            seed[c] = 1.0;
            let inp = Inputs { seed, ..inp };
            jvp.run(&inp);
            jvp.write(0, col);
            for (i, v) in col.iter().enumerate() {
                jac.set(i, c, *v);
            }
        }
        true
    }

    fn jacobian_layout(&self) -> JacobianLayout {
        if self.pattern.is_some() {
            JacobianLayout::Sparse
        } else {
            JacobianLayout::Dense
        }
    }

    fn residual_form(&self) -> ResidualForm {
        self.form
    }

    fn jacobian_pattern(&self) -> Option<Arc<SparsePattern>> {
        self.pattern.clone()
    }

    fn residual_jacobian_sparse(
        &mut self,
        args: &StepArgs<'_>,
        next: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        let inp = step_inputs(&self.params, args, next);
        let SchemeProgs::Implicit { jvp, seed, col, .. } = &mut self.scheme else {
            return false;
        };
        if jac.n() != self.dim {
            return false;
        }
        // One exact Jacobian-vector product per column colour.
        jac.fill_by_colours(seed, col, |s, out| {
            jvp.run(&Inputs { seed: s, ..inp });
            jvp.write(0, out);
        });
        true
    }

    fn implicit_error(&mut self, args: &StepArgs<'_>, next: &[f64], err: &mut [f64]) {
        let inp = step_inputs(&self.params, args, next);
        match &mut self.scheme {
            SchemeProgs::Implicit { error: Some(e), .. } => {
                e.run(&inp);
                e.write(0, err);
            }
            _ => err.fill(0.0),
        }
    }

    fn stage_residual(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        r: &mut [f64],
    ) {
        if let SchemeProgs::Staged { stages, .. } = &self.scheme
            && let Some(st) = stages.get(stage)
        {
            let n = st.residual.tape.len();
            self.tick(n);
        }
        let inp = Inputs {
            stages: solved,
            ..step_inputs(&self.params, args, k)
        };
        match &mut self.scheme {
            SchemeProgs::Staged { stages, .. } if stage < stages.len() => {
                stages[stage].residual.run(&inp);
                stages[stage].residual.write(0, r);
            }
            _ => r.fill(f64::NAN),
        }
    }

    fn stage_jacobian(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut DenseMatrix,
    ) -> bool {
        let inp = Inputs {
            stages: solved,
            ..step_inputs(&self.params, args, k)
        };
        let SchemeProgs::Staged {
            stages, seed, col, ..
        } = &mut self.scheme
        else {
            return false;
        };
        let Some(st) = stages.get_mut(stage) else {
            return false;
        };
        // A group of stages that read each other spans `width` blocks.
        let n = st.width * self.dim;
        if jac.n() != n || seed.len() < n || col.len() < n {
            return false;
        }
        let (seed, col) = (&mut seed[..n], &mut col[..n]);
        if let Some(j) = &mut st.jacobian {
            j.run(&inp);
            j.write(0, jac.as_mut_slice());
            return true;
        }
        for c in 0..n {
            seed.fill(0.0);
            seed[c] = 1.0;
            st.jvp.run(&Inputs { seed, ..inp });
            st.jvp.write(0, col);
            for (i, v) in col.iter().enumerate() {
                jac.set(i, c, *v);
            }
        }
        true
    }

    fn stage_jacobian_sparse(
        &mut self,
        stage: usize,
        args: &StepArgs<'_>,
        solved: &[f64],
        k: &[f64],
        jac: &mut SparseMatrix,
    ) -> bool {
        let inp = Inputs {
            stages: solved,
            ..step_inputs(&self.params, args, k)
        };
        let SchemeProgs::Staged {
            stages, seed, col, ..
        } = &mut self.scheme
        else {
            return false;
        };
        let Some(st) = stages.get_mut(stage) else {
            return false;
        };
        // A group of stages that read each other spans `width` blocks (its pattern the
        // model's in every block, `SparsePattern::blocks`).
        let n = st.width * self.dim;
        if jac.n() != n || seed.len() < n || col.len() < n {
            return false;
        }
        let (seed, col) = (&mut seed[..n], &mut col[..n]);
        jac.fill_by_colours(seed, col, |s, out| {
            st.jvp.run(&Inputs { seed: s, ..inp });
            st.jvp.write(0, out);
        });
        true
    }

    fn stage_finish(&mut self, args: &StepArgs<'_>, solved: &[f64], out: StepOut<'_>) {
        let inp = Inputs {
            stages: solved,
            ..step_inputs(&self.params, args, &[])
        };
        let dim = self.dim;
        let SchemeProgs::Staged {
            finish, adaptive, ..
        } = &mut self.scheme
        else {
            out.next.fill(f64::NAN);
            return;
        };
        finish.run(&inp);
        finish.write(0, out.next);
        if let Some(err) = out.err {
            if *adaptive {
                finish.write(dim, err);
            } else {
                err.fill(0.0);
            }
        }
    }

    fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
        let inp = Inputs {
            t,
            y,
            p: &self.params,
            seed: v,
            ..Inputs::default()
        };
        self.rate_jvp.run(&inp);
        self.rate_jvp.write(0, out);
        true
    }

    fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.tick(self.margins.tape.len());
        let inp = Inputs {
            t,
            y,
            rate: dydt,
            p: &self.params,
            ..Inputs::default()
        };
        self.margins.run(&inp);
        self.margins.write(0, out);
    }

    fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
        let inp = Inputs {
            t,
            y: pre,
            rate: pre_rate,
            p: &self.params,
            ..Inputs::default()
        };
        if let Some((slots, prog)) = self.resets.get_mut(event) {
            prog.run(&inp);
            for (k, s) in slots.iter().enumerate() {
                if let (Some(dst), Some(r)) = (post.get_mut(*s as usize), prog.tape_slot(k)) {
                    *dst = r;
                }
            }
        }
    }

    fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let inp = Inputs {
            t,
            y,
            rate: dydt,
            p: &self.params,
            ..Inputs::default()
        };
        self.observe.run(&inp);
        self.observe.write(0, out);
    }

    fn conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        let inp = Inputs {
            t,
            y,
            rate: dydt,
            p: &self.params,
            ..Inputs::default()
        };
        let (prog, slots) = &mut self.conserved;
        prog.run(&inp);
        prog.scatter(slots, out);
    }
}

impl Prog {
    fn tape_slot(&self, k: usize) -> Option<f64> {
        let mut v = [0.0];
        if k < self.tape.output_len() {
            self.tape.write(&self.regs, k, &mut v);
            Some(v[0])
        } else {
            None
        }
    }
}

fn step_inputs<'a>(p: &'a [f64], a: &StepArgs<'a>, guess: &'a [f64]) -> Inputs<'a> {
    Inputs {
        t: a.t,
        h: a.h,
        y: a.y,
        f0: a.f0,
        p,
        dw: a.dw,
        guess,
        ..Inputs::default()
    }
}

/// The function with its parameters replaced by their bound values, folded: a run's
/// parameters are constants for its whole length, so the tape need not load them.
/// Folding applies the very operations the unfolded tape would, so results are the same.
pub fn bind_params(f: &Function, params: &[f64]) -> Result<Function, IrError> {
    use crate::builder::Builder;
    use crate::ir::Source;
    use crate::tangent::{LoadRef, inline};
    if !f.reads(Source::Param) {
        return Ok(f.clone());
    }
    let mut b = Builder::new();
    let mut subst = |b: &mut Builder, l: LoadRef| -> Result<Option<crate::ir::ValueId>, IrError> {
        Ok(match l {
            LoadRef::Scalar(Source::Param, k) => {
                Some(b.constant(params.get(k as usize).copied().unwrap_or(f64::NAN)))
            }
            LoadRef::Range(Source::Param, o, n) => {
                let vs = (o..o + n)
                    .map(|k| b.constant(params.get(k as usize).copied().unwrap_or(f64::NAN)))
                    .collect();
                Some(b.pack(vs)?)
            }
            _ => None,
        })
    };
    let which: Vec<usize> = (0..f.outputs.len()).collect();
    let outs = inline(&mut b, f, &which, &mut subst)?;
    b.finish(&f.name, &outs)
}
