//! Specialising a scheme onto a model: the scheme's `f(t′, y′)` calls are inlined by
//! substituting the rate's inputs, `f(t, y)` at the step's own start reuses `f0`, and the
//! builder's hash-consing shares whatever two stages have in common. The result is
//! straight-line IR over the model's state (DESIGN §7).
//!
//! [`SchemeCtx`] is the API a lowering pass calls, one method per thing a scheme body may
//! read or do; [`SchemeDef`] descriptions are evaluated through it by [`specialise`].

use crate::builder::Builder;
use crate::drift::inline_drift;
use crate::error::IrError;
use crate::ir::{BinOp, Source, UnOp, ValueId};
use crate::layout::Dynamics;
use crate::scheme::SExpr;
use crate::tangent::{LoadRef, inline, inline_tangent};

pub use crate::step::{DENSE_JACOBIAN_MAX, SchemeFns, Specialised, specialise};

/// A value inside a scheme body.
#[derive(Clone, Debug, PartialEq)]
pub enum SVal {
    /// A number or time (`t`, `h`, `h/2`).
    Scalar(ValueId),
    /// State-shaped (`y`, `k₁`), or position-shaped in a second-order scheme: one value
    /// per part.
    State(Vec<ValueId>),
    /// The Wiener increments `dW`, one per noise.
    Noise(Vec<ValueId>),
    /// `g(t, y)`: per noise, a state-shaped column. `g·dW` sums the columns.
    Diffusion(Vec<Vec<ValueId>>),
    /// `c·J`: the rate's Jacobian at `(t, y)` times the scalar `c`, not yet applied to a
    /// state-shaped value (the checker lets `J` stand nowhere else).
    Jac(ValueId),
}

/// Counts of what a specialised scheme costs, for [`physis_runtime::SchemeInfo`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stages {
    /// Distinct rate (or acceleration, or diffusion) evaluations inlined.
    pub evals: u32,
}

/// The context a scheme body is specialised in: the builder, the model's dynamics and the
/// step's inputs.
pub struct SchemeCtx<'d> {
    scheme: String,
    dynamics: &'d Dynamics,
    b: Builder,
    t: ValueId,
    h: ValueId,
    y: Vec<ValueId>,
    f0: Vec<ValueId>,
    seen: Vec<(u8, ValueId, Vec<ValueId>)>,
    stages: Stages,
    next: NextIs,
}

/// What `next` read on its own right side stands for in the function being built.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum NextIs {
    /// The Newton unknown ([`Source::Guess`]).
    Guess,
    /// Values already solved (per part).
    Solved(Vec<ValueId>),
    /// Nothing yet: a stage solved before `next` may not read it.
    Unsolved,
}

impl<'d> SchemeCtx<'d> {
    /// A fresh context for scheme `scheme` over `dynamics`.
    pub fn new(scheme: &str, dynamics: &'d Dynamics) -> Self {
        let mut b = Builder::new();
        let t = b.load(Source::T, 0);
        let h = b.load(Source::H, 0);
        let y = dynamics.layout.load(&mut b, Source::State);
        let f0 = dynamics.layout.load(&mut b, Source::F0);
        SchemeCtx {
            scheme: scheme.to_string(),
            dynamics,
            b,
            t,
            h,
            y,
            f0,
            seen: Vec::new(),
            stages: Stages::default(),
            next: NextIs::Guess,
        }
    }

    /// Sets what `next` on a right side reads.
    pub fn set_next(&mut self, next: NextIs) {
        self.next = next;
    }

    /// Stage `j` of the stages solved earlier in the step ([`Source::Stages`]).
    pub fn solved_stage(&mut self, j: usize) -> SVal {
        let base = (j * self.dynamics.dim()) as u32;
        let b = &mut self.b;
        SVal::State(
            self.dynamics
                .layout
                .parts
                .iter()
                .map(|p| {
                    if p.array {
                        b.load_range(Source::Stages, base + p.offset, p.len)
                    } else {
                        b.load(Source::Stages, base + p.offset)
                    }
                })
                .collect(),
        )
    }

    /// The builder, for operations the helpers below do not cover.
    pub fn builder(&mut self) -> &mut Builder {
        &mut self.b
    }

    /// Cost so far.
    pub fn stages(&self) -> Stages {
        self.stages
    }

    /// `t`.
    pub fn t(&self) -> SVal {
        SVal::Scalar(self.t)
    }

    /// `h`.
    pub fn h(&self) -> SVal {
        SVal::Scalar(self.h)
    }

    /// A number.
    pub fn num(&mut self, v: f64) -> SVal {
        SVal::Scalar(self.b.constant(v))
    }

    /// `y`. A first-order scheme runs any model: a second-order law is two first-order ones.
    pub fn y(&self) -> Result<SVal, IrError> {
        Ok(SVal::State(self.y.clone()))
    }

    /// `x`: the positions of a second-order model.
    pub fn x(&self) -> Result<SVal, IrError> {
        Ok(SVal::State(self.pair_side("x", true)?))
    }

    /// `v`: the velocities of a second-order model.
    pub fn v(&self) -> Result<SVal, IrError> {
        Ok(SVal::State(self.pair_side("v", false)?))
    }

    /// `dW`: one increment per noise.
    pub fn dw(&mut self) -> Result<SVal, IrError> {
        if self.dynamics.noises == 0 {
            return Err(self.refuse("dW", "a model without noise does not have"));
        }
        Ok(SVal::Noise(
            (0..self.dynamics.noises)
                .map(|k| self.b.load(Source::Dw, k))
                .collect(),
        ))
    }

    /// `next` read on its own right side: the unknown of an implicit scheme.
    pub fn next_guess(&mut self) -> Result<SVal, IrError> {
        match &self.next {
            NextIs::Guess => Ok(SVal::State(
                self.dynamics.layout.load(&mut self.b, Source::Guess),
            )),
            NextIs::Solved(v) => Ok(SVal::State(v.clone())),
            NextIs::Unsolved => {
                Err(self.refuse("`next`", "a stage solved before `next` cannot read"))
            }
        }
    }

    /// `op a`, part by part.
    pub fn unary(&mut self, op: UnOp, a: &SVal) -> Result<SVal, IrError> {
        if let SVal::Jac(c) = a {
            return match op {
                UnOp::Neg => Ok(SVal::Jac(self.b.unary(op, *c)?)),
                _ => Err(self.shape(format!("{op:?} of `J`"))),
            };
        }
        let b = &mut self.b;
        Ok(match a {
            SVal::Jac(_) => unreachable!("handled above"),
            SVal::Scalar(x) => SVal::Scalar(b.unary(op, *x)?),
            SVal::State(xs) => SVal::State(
                xs.iter()
                    .map(|x| b.unary(op, *x))
                    .collect::<Result<_, _>>()?,
            ),
            SVal::Noise(xs) => SVal::Noise(
                xs.iter()
                    .map(|x| b.unary(op, *x))
                    .collect::<Result<_, _>>()?,
            ),
            SVal::Diffusion(cols) => SVal::Diffusion(
                cols.iter()
                    .map(|c| {
                        c.iter()
                            .map(|x| b.unary(op, *x))
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// `a op b`: a scalar broadcasts; like shapes combine part by part; `g·dW` contracts.
    pub fn binary(&mut self, op: BinOp, a: &SVal, b: &SVal) -> Result<SVal, IrError> {
        use SVal::*;
        match (a, b) {
            (Scalar(s), Jac(c)) if op == BinOp::Mul => Ok(Jac(self.b.mul(*s, *c)?)),
            (Jac(c), Scalar(s)) if matches!(op, BinOp::Mul | BinOp::Div) => {
                Ok(Jac(self.b.binary(op, *c, *s)?))
            }
            (Jac(c), State(v)) if op == BinOp::Mul => {
                let jv = self.jvp(v)?;
                self.map(&State(jv), |bd, x| bd.mul(*c, x))
            }
            (Jac(_), _) | (_, Jac(_)) => Err(self.shape(format!(
                "`J` with {} and {} under {op:?}: `J` is only applied to a state on its right",
                kind(a),
                kind(b)
            ))),
            (Scalar(x), Scalar(y)) => Ok(Scalar(self.b.binary(op, *x, *y)?)),
            (Scalar(s), other) => self.map(other, |bd, x| bd.binary(op, *s, x)),
            (other, Scalar(s)) => self.map(other, |bd, x| bd.binary(op, x, *s)),
            (State(xs), State(ys)) => Ok(State(self.zip(xs, ys, op)?)),
            (Noise(xs), Noise(ys)) => Ok(Noise(self.zip(xs, ys, op)?)),
            (Diffusion(g), Noise(w)) | (Noise(w), Diffusion(g)) if op == BinOp::Mul => {
                self.contract(g, w)
            }
            (Diffusion(g1), Diffusion(g2)) if g1.len() == g2.len() => {
                let cols = g1
                    .iter()
                    .zip(g2)
                    .map(|(c1, c2)| self.zip(c1, c2, op))
                    .collect::<Result<_, _>>()?;
                Ok(Diffusion(cols))
            }
            _ => Err(self.shape(format!(
                "cannot combine {} and {} with {op:?}",
                kind(a),
                kind(b)
            ))),
        }
    }

    /// The rate `f(t′, y′)`, inlined; at the step's own `(t, y)` it is `f0`.
    pub fn f(&mut self, t: &SVal, y: &SVal) -> Result<SVal, IrError> {
        let t = self.scalar(t, "the time of f(·,·)")?;
        let y = self.state(y, self.dynamics.layout.parts.len(), "the state of f(·,·)")?;
        if t == self.t && y == self.y {
            return Ok(SVal::State(self.f0.clone()));
        }
        self.count(0, t, &y);
        let which: Vec<usize> = (0..self.dynamics.layout.parts.len()).collect();
        Ok(SVal::State(self.inline_rate(t, &y, &which)?))
    }

    /// The acceleration `a(t′, x′)` of a second-order model, inlined; at the step's own
    /// `(t, x)` it is read from `f0`. An acceleration that reads a velocity is refused.
    pub fn a(&mut self, t: &SVal, x: &SVal) -> Result<SVal, IrError> {
        let t = self.scalar(t, "the time of a(·,·)")?;
        let xs = self.state(x, self.dynamics.pairs.len(), "the positions of a(·,·)")?;
        let own = self.pair_side("x", true)?;
        let vparts: Vec<usize> = self.dynamics.pairs.iter().map(|p| p.1).collect();
        if t == self.t && xs == own {
            return Ok(SVal::State(vparts.iter().map(|p| self.f0[*p]).collect()));
        }
        self.count(1, t, &xs);
        // Position parts take x′; velocity parts must stay unread.
        let mut y = self.y.clone();
        for (k, (xp, _)) in self.dynamics.pairs.iter().enumerate() {
            y[*xp] = xs[k];
        }
        let layout = &self.dynamics.layout;
        let vslots: Vec<(u32, u32)> = vparts
            .iter()
            .map(|p| (layout.parts[*p].offset, layout.parts[*p].len))
            .collect();
        let in_v = |s: u32| vslots.iter().find(|(o, n)| s >= *o && s < o + n).map(|_| s);
        let t0 = t;
        let scheme = self.scheme.clone();
        let mut subst = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
            match l {
                LoadRef::Scalar(Source::T, _) => Ok(Some(t0)),
                LoadRef::Scalar(Source::State, s) => match in_v(s) {
                    Some(slot) => Err(IrError::AccelerationReadsVelocity { slot }),
                    None => layout.slot_value(b, &y, s).map(Some),
                },
                LoadRef::Range(Source::State, o, n) => match (o..o + n).find_map(in_v) {
                    Some(slot) => Err(IrError::AccelerationReadsVelocity { slot }),
                    None => layout.range_value(b, &y, o, n).map(Some),
                },
                LoadRef::Scalar(Source::Noise, _) | LoadRef::Range(Source::Noise, _, _) => {
                    Err(IrError::SchemeReads {
                        scheme: scheme.clone(),
                        what: "noise",
                        why: "a second-order scheme cannot take",
                    })
                }
                _ => Ok(None),
            }
        };
        let out = inline(&mut self.b, &self.dynamics.rate, &vparts, &mut subst)?;
        Ok(SVal::State(out))
    }

    /// The diffusion `g(t′, y′)`: per noise, the coefficient of `w` in each law.
    pub fn g(&mut self, t: &SVal, y: &SVal) -> Result<SVal, IrError> {
        if self.dynamics.noises == 0 {
            return Err(self.refuse("g(·,·)", "a model without noise does not have"));
        }
        let t = self.scalar(t, "the time of g(·,·)")?;
        let y = self.state(y, self.dynamics.layout.parts.len(), "the state of g(·,·)")?;
        self.count(2, t, &y);
        let which: Vec<usize> = (0..self.dynamics.layout.parts.len()).collect();
        let layout = &self.dynamics.layout;
        let mut cols = Vec::new();
        for k in 0..self.dynamics.noises {
            let mut subst = rate_subst(layout, t, &y);
            let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
                Ok(match l {
                    LoadRef::Scalar(Source::Noise, j) if j == k => Some(b.constant(1.0)),
                    _ => None,
                })
            };
            let (_, tan) = inline_tangent(
                &mut self.b,
                &self.dynamics.rate,
                &which,
                &mut subst,
                &mut seed,
            )?;
            let col = tan
                .into_iter()
                .zip(&layout.parts)
                .map(|(d, p)| d.map_or_else(|| crate::tangent::zero(&mut self.b, p.ty()), Ok))
                .collect::<Result<Vec<_>, _>>()?;
            cols.push(col);
        }
        Ok(SVal::Diffusion(cols))
    }

    /// `J·v`: the rate's Jacobian at the step's own `(t, y)` applied to the state-shaped
    /// `v`, by the forward-mode tangent of the inlined rate (exact IR, no differences).
    pub fn jvp(&mut self, v: &[ValueId]) -> Result<Vec<ValueId>, IrError> {
        let parts = self.dynamics.layout.parts.len();
        if v.len() != parts {
            return Err(self.shape(format!("`J` applied to {} parts of {parts}", v.len())));
        }
        self.count(3, self.t, v);
        let dynamics: &'d Dynamics = self.dynamics;
        let layout = &dynamics.layout;
        let y = self.y.clone();
        let mut subst = rate_subst(layout, self.t, &y);
        let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
            match l {
                LoadRef::Scalar(Source::State, s) => layout.slot_value(b, v, s).map(Some),
                LoadRef::Range(Source::State, o, n) => layout.range_value(b, v, o, n).map(Some),
                _ => Ok(None),
            }
        };
        self.tangent(&mut subst, &mut seed)
    }

    /// `ft`: the rate's time derivative at the step's own `(t, y)`.
    pub fn ft(&mut self) -> Result<SVal, IrError> {
        let (t, y) = (self.t, self.y.clone());
        self.count(4, t, &y);
        let dynamics: &'d Dynamics = self.dynamics;
        let layout = &dynamics.layout;
        let mut subst = rate_subst(layout, t, &y);
        let mut seed = |b: &mut Builder, l: LoadRef| -> Result<Option<ValueId>, IrError> {
            Ok(matches!(l, LoadRef::Scalar(Source::T, _)).then(|| b.constant(1.0)))
        };
        Ok(SVal::State(self.tangent(&mut subst, &mut seed)?))
    }

    /// The tangent of every part of the rate inlined through `subst` in the direction
    /// `seed` gives, a structural zero where a part does not move.
    fn tangent(
        &mut self,
        subst: &mut crate::tangent::Subst<'_>,
        seed: &mut crate::tangent::Subst<'_>,
    ) -> Result<Vec<ValueId>, IrError> {
        let dynamics: &'d Dynamics = self.dynamics;
        let layout = &dynamics.layout;
        let which: Vec<usize> = (0..layout.parts.len()).collect();
        let (_, tan) = inline_tangent(&mut self.b, &dynamics.rate, &which, subst, seed)?;
        tan.into_iter()
            .zip(&layout.parts)
            .map(|(d, p)| d.map_or_else(|| crate::tangent::zero(&mut self.b, p.ty()), Ok))
            .collect()
    }

    /// Evaluates a scheme expression; `vars` holds the earlier bindings.
    pub fn eval(&mut self, e: &SExpr, vars: &[Option<SVal>]) -> Result<SVal, IrError> {
        Ok(match e {
            SExpr::T => self.t(),
            SExpr::H => self.h(),
            SExpr::Y => self.y()?,
            SExpr::X => self.x()?,
            SExpr::V => self.v()?,
            SExpr::Dw => self.dw()?,
            SExpr::Next => self.next_guess()?,
            SExpr::J => SVal::Jac(self.b.constant(1.0)),
            SExpr::Ft => self.ft()?,
            SExpr::Num(v) => self.num(*v),
            SExpr::Var(i) => {
                vars.get(*i)
                    .cloned()
                    .flatten()
                    .ok_or_else(|| IrError::UnboundName {
                        scheme: self.scheme.clone(),
                        index: *i,
                    })?
            }
            SExpr::Unary(op, a) => {
                let a = self.eval(a, vars)?;
                self.unary(*op, &a)?
            }
            SExpr::Binary(op, a, b) => {
                let a = self.eval(a, vars)?;
                let b = self.eval(b, vars)?;
                self.binary(*op, &a, &b)?
            }
            SExpr::F(t, y) => {
                let (t, y) = (self.eval(t, vars)?, self.eval(y, vars)?);
                self.f(&t, &y)?
            }
            SExpr::A(t, x) => {
                let (t, x) = (self.eval(t, vars)?, self.eval(x, vars)?);
                self.a(&t, &x)?
            }
            SExpr::G(t, y) => {
                let (t, y) = (self.eval(t, vars)?, self.eval(y, vars)?);
                self.g(&t, &y)?
            }
        })
    }

    /// A state-shaped value's parts (for `next`, `error`).
    pub fn state(&self, v: &SVal, parts: usize, what: &str) -> Result<Vec<ValueId>, IrError> {
        match v {
            SVal::State(xs) if xs.len() == parts => Ok(xs.clone()),
            SVal::Scalar(_) if parts == 0 => Ok(Vec::new()),
            other => Err(self.shape(format!("{what} must be state-shaped, not {}", kind(other)))),
        }
    }

    /// `f(t + h, next)` if the body already computed it (first same as last), else `None`
    /// and nothing is added.
    ///
    /// Every part's rate is the model's own rate at `(t + h, next)`: the whole rate is tried
    /// first (a first-order scheme's last stage), then, for a model whose every law is
    /// second order, the acceleration at `nextX` beside the velocities `nextV` (a
    /// second-order scheme's last stage). A model mixing both orders only has the first: a
    /// first-order part's rate is never its state's value.
    pub fn probe_fsal(&mut self, next: &[ValueId]) -> Result<Option<Vec<ValueId>>, IrError> {
        let (b, seen, stages) = (self.b.clone(), self.seen.clone(), self.stages);
        let t1 = self.b.add(self.t, self.h)?;
        let whole = self.f(&SVal::Scalar(t1), &SVal::State(next.to_vec())).ok();
        if let Some(f1) = self.unchanged(&b, &seen, stages, whole) {
            return Ok(Some(f1));
        }
        if self.dynamics.pairs.is_empty()
            || self.dynamics.pairs.len() * 2 != self.dynamics.layout.parts.len()
        {
            return Ok(None);
        }
        let t1 = self.b.add(self.t, self.h)?;
        let xs: Vec<ValueId> = self.dynamics.pairs.iter().map(|p| next[p.0]).collect();
        let paired = self.a(&SVal::Scalar(t1), &SVal::State(xs)).ok().map(|acc| {
            let mut f1 = next.to_vec();
            if let SVal::State(acc) = &acc {
                for (k, (xp, vp)) in self.dynamics.pairs.iter().enumerate() {
                    f1[*xp] = next[*vp];
                    f1[*vp] = acc[k];
                }
            }
            SVal::State(f1)
        });
        Ok(self.unchanged(&b, &seen, stages, paired))
    }

    /// `out`'s parts when computing it added nothing to the builder; else the builder and
    /// counts are put back as they were and `None` is returned.
    fn unchanged(
        &mut self,
        b: &Builder,
        seen: &[(u8, ValueId, Vec<ValueId>)],
        stages: Stages,
        out: Option<SVal>,
    ) -> Option<Vec<ValueId>> {
        let added = self.b.len() != b.len();
        self.b = b.clone();
        self.seen = seen.to_vec();
        self.stages = stages;
        match out {
            Some(SVal::State(f1)) if !added => Some(f1),
            _ => None,
        }
    }

    /// Hands the builder over to build the function's outputs.
    pub fn into_builder(self) -> Builder {
        self.b
    }

    /// The step's own `y` parts.
    pub fn own_y(&self) -> &[ValueId] {
        &self.y
    }

    /// Positions and velocities side by side (`(x parts, v parts)` of the pairs).
    pub fn pair_parts(&self) -> Vec<(usize, usize)> {
        self.dynamics.pairs.clone()
    }

    fn inline_rate(
        &mut self,
        t: ValueId,
        y: &[ValueId],
        which: &[usize],
    ) -> Result<Vec<ValueId>, IrError> {
        let mut subst = rate_subst(&self.dynamics.layout, t, y);
        inline_drift(&mut self.b, &self.dynamics.rate, which, &mut subst)
    }

    fn count(&mut self, kind: u8, t: ValueId, y: &[ValueId]) {
        if !self
            .seen
            .iter()
            .any(|(k, tt, yy)| *k == kind && *tt == t && yy == y)
        {
            self.seen.push((kind, t, y.to_vec()));
            self.stages.evals += 1;
        }
    }

    fn map(
        &mut self,
        v: &SVal,
        mut f: impl FnMut(&mut Builder, ValueId) -> Result<ValueId, IrError>,
    ) -> Result<SVal, IrError> {
        let b = &mut self.b;
        Ok(match v {
            SVal::Scalar(x) => SVal::Scalar(f(b, *x)?),
            SVal::State(xs) => SVal::State(xs.iter().map(|x| f(b, *x)).collect::<Result<_, _>>()?),
            SVal::Noise(xs) => SVal::Noise(xs.iter().map(|x| f(b, *x)).collect::<Result<_, _>>()?),
            SVal::Diffusion(cols) => SVal::Diffusion(
                cols.iter()
                    .map(|c| c.iter().map(|x| f(b, *x)).collect::<Result<Vec<_>, _>>())
                    .collect::<Result<_, _>>()?,
            ),
            SVal::Jac(c) => SVal::Jac(f(b, *c)?),
        })
    }

    fn zip(&mut self, xs: &[ValueId], ys: &[ValueId], op: BinOp) -> Result<Vec<ValueId>, IrError> {
        if xs.len() != ys.len() {
            return Err(self.shape(format!("values of {} and {} parts", xs.len(), ys.len())));
        }
        xs.iter()
            .zip(ys)
            .map(|(x, y)| self.b.binary(op, *x, *y))
            .collect()
    }

    fn contract(&mut self, g: &[Vec<ValueId>], w: &[ValueId]) -> Result<SVal, IrError> {
        if g.len() != w.len() {
            return Err(self.shape(format!("g has {} columns for {} noises", g.len(), w.len())));
        }
        let mut acc: Option<Vec<ValueId>> = None;
        for (col, dw) in g.iter().zip(w) {
            let term = col
                .iter()
                .map(|c| self.b.mul(*c, *dw))
                .collect::<Result<Vec<_>, _>>()?;
            acc = Some(match acc {
                None => term,
                Some(a) => self.zip(&a, &term, BinOp::Add)?,
            });
        }
        acc.map(SVal::State)
            .ok_or_else(|| self.shape("g·dW with no noise".into()))
    }

    fn scalar(&self, v: &SVal, what: &str) -> Result<ValueId, IrError> {
        match v {
            SVal::Scalar(x) => Ok(*x),
            other => Err(self.shape(format!("{what} must be a scalar, not {}", kind(other)))),
        }
    }

    fn pair_side(&self, what: &'static str, position: bool) -> Result<Vec<ValueId>, IrError> {
        if self.dynamics.pairs.is_empty() {
            return Err(self.refuse(what, "only a model whose every law is second order has"));
        }
        Ok(self
            .dynamics
            .pairs
            .iter()
            .map(|(x, v)| self.y[if position { *x } else { *v }])
            .collect())
    }

    fn refuse(&self, what: &'static str, why: &'static str) -> IrError {
        IrError::SchemeReads {
            scheme: self.scheme.clone(),
            what,
            why,
        }
    }

    fn shape(&self, problem: String) -> IrError {
        IrError::SchemeShape {
            scheme: self.scheme.clone(),
            problem,
        }
    }
}

/// Substitution of the rate's inputs by `(t′, y′)`; noise is zero (the drift).
pub(crate) fn rate_subst<'a>(
    layout: &'a crate::layout::Layout,
    t: ValueId,
    y: &'a [ValueId],
) -> impl FnMut(&mut Builder, LoadRef) -> Result<Option<ValueId>, IrError> + 'a {
    move |b: &mut Builder, l: LoadRef| match l {
        LoadRef::Scalar(Source::T, _) => Ok(Some(t)),
        LoadRef::Scalar(Source::State, s) => layout.slot_value(b, y, s).map(Some),
        LoadRef::Range(Source::State, o, n) => layout.range_value(b, y, o, n).map(Some),
        LoadRef::Scalar(Source::Noise, _) => Ok(Some(b.constant(0.0))),
        LoadRef::Range(Source::Noise, _, n) => {
            let z = b.constant(0.0);
            b.splat(z, n).map(Some)
        }
        _ => Ok(None),
    }
}

fn kind(v: &SVal) -> &'static str {
    match v {
        SVal::Scalar(_) => "a scalar",
        SVal::State(_) => "a state",
        SVal::Noise(_) => "dW",
        SVal::Diffusion(_) => "g(·,·)",
        SVal::Jac(_) => "`J`",
    }
}
