//! Name resolution inside a simulation, with the rules of what each clause may read.

use crate::expr::{Expr, ExprKind, NoiseId, ObserveId, ParamId, Shape, StateId};
use crate::infer::{CResult, GridInfo, Reported, Scope};
use physis_syntax::ast;
use physis_syntax::{Code, Diagnostic, Span};
use std::collections::HashMap;
use units::Dimension;

/// What a declared name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Param(ParamId),
    State(StateId),
    Grid(usize),
    Noise(NoiseId),
    Observe(ObserveId),
    /// A `let` (its index among the simulation's lets).
    Let(usize),
    /// Declared with an error (unknown kind): reads fail silently instead of cascading.
    Poisoned,
}

/// Dimension and shape of a declared name.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Info {
    pub sym: Sym,
    pub dim: Dimension,
    pub shape: Shape,
    pub span: Span,
    /// For an array of vectors (`Length[7][2]`, stored flat), the size of each vector.
    pub element: Option<usize>,
}

/// What a clause may read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub params: bool,
    pub states: bool,
    pub time: bool,
    pub rates: bool,
    pub grid: bool,
    pub noise: bool,
    /// The clause, for messages ("a param default").
    pub what: &'static str,
    /// Code for a forbidden read.
    pub code: Code,
}

impl Ctx {
    /// Literals and constants only.
    pub const CONSTANT: Ctx = Ctx {
        params: false,
        states: false,
        time: false,
        rates: false,
        grid: false,
        noise: false,
        what: "a constant",
        code: Code::BadSetting,
    };
    /// A `let`: what observes read; where it is used decides whether that is allowed.
    pub const LOCAL: Ctx = Ctx {
        what: "a local",
        ..Ctx::OBSERVE
    };
    /// Everything but noise (observes, stops, events).
    pub const OBSERVE: Ctx = Ctx {
        params: true,
        states: true,
        time: true,
        rates: true,
        grid: true,
        noise: false,
        what: "an observe",
        code: Code::MisplacedRead,
    };
}

/// A `let` as far as checking has got.
#[derive(Clone, Debug)]
pub(crate) enum LetSlot {
    /// Not checked yet (a later `let`).
    Pending,
    /// Checked with an error (reads of it fail silently instead of cascading).
    Failed,
    /// Its checked expression, substituted where it is read.
    Done(Expr),
}

/// The names of one simulation.
#[derive(Default)]
pub(crate) struct Names {
    pub map: HashMap<String, Info>,
    /// The simulation's lets in source order.
    pub lets: Vec<LetSlot>,
    pub grid: Option<GridInfo>,
    pub has_energy: bool,
}

pub(crate) struct SimScope<'a> {
    pub names: &'a Names,
    pub ctx: Ctx,
    /// Noises read, for the linearity check.
    pub read_noise: bool,
}

impl SimScope<'_> {
    fn forbidden(&self, name: &ast::Name, what: &str, diags: &mut Vec<Diagnostic>) -> Reported {
        diags.push(
            Diagnostic::error(
                self.ctx.code,
                name.span,
                format!("{} cannot read {what} `{}`", self.ctx.what, name.key()),
            )
            .with_label(format!("{what} read here")),
        );
        Reported
    }
}

impl SimScope<'_> {
    /// A read of the `let` at `id`: its expression, where the reading clause may read all that
    /// the expression reads (a law may not read a local that reads a rate, an initial value
    /// one that reads a state). Locals read only the locals above them, so there are no cycles.
    fn local(&self, name: &ast::Name, id: usize, diags: &mut Vec<Diagnostic>) -> CResult<Expr> {
        let key = name.key();
        let e = match self.names.lets.get(id) {
            Some(LetSlot::Done(e)) => e,
            Some(LetSlot::Failed) | None => return Err(Reported),
            Some(LetSlot::Pending) => {
                let d = if self.ctx.what == Ctx::LOCAL.what {
                    Diagnostic::error(
                        Code::MisplacedRead,
                        name.span,
                        format!("the local `{key}` is read above its `let`"),
                    )
                    .with_label("defined further down")
                    .with_hint(format!(
                        "a `let` reads only the lets above it: move the `let` of `{key}` up"
                    ))
                } else {
                    Diagnostic::error(
                        self.ctx.code,
                        name.span,
                        format!("{} cannot read the local `{key}`", self.ctx.what),
                    )
                    .with_label("the local read here")
                };
                diags.push(d);
                return Err(Reported);
            }
        };
        let mut needs: Option<&'static str> = None;
        e.walk(&mut |x| {
            let missing = match x.kind {
                ExprKind::Param(_) if !self.ctx.params => Some("a param"),
                ExprKind::State(_) if !self.ctx.states => Some("a state"),
                ExprKind::Time if !self.ctx.time => Some("the time"),
                ExprKind::Rate(_) if !self.ctx.rates => Some("a rate"),
                ExprKind::GridCoord(_) if !self.ctx.grid => Some("a grid coordinate"),
                ExprKind::Hamiltonian if !(self.ctx.states && self.ctx.rates) => Some("the energy"),
                _ => None,
            };
            needs = needs.or(missing);
        });
        if let Some(what) = needs {
            let mut d = Diagnostic::error(
                self.ctx.code,
                name.span,
                format!(
                    "{} cannot read the local `{key}`: it reads {what}",
                    self.ctx.what
                ),
            )
            .with_label("the local read here");
            if let Some(info) = self.names.map.get(&key) {
                d = d.with_secondary(info.span, "defined here");
            }
            diags.push(d);
            return Err(Reported);
        }
        Ok(Expr {
            span: name.span,
            ..e.clone()
        })
    }
}

impl Scope for SimScope<'_> {
    fn resolve(&mut self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> CResult<Expr> {
        let key = name.key();
        let leaf = |kind, dim, shape| Expr {
            kind,
            dim,
            shape,
            span: name.span,
        };
        if let Some(info) = self.names.map.get(&key) {
            let kind = match info.sym {
                Sym::Param(id) if self.ctx.params => ExprKind::Param(id),
                Sym::Param(_) => return Err(self.forbidden(name, "the param", diags)),
                Sym::State(id) if self.ctx.states => ExprKind::State(id),
                Sym::State(_) => return Err(self.forbidden(name, "the state", diags)),
                Sym::Grid(axis) if self.ctx.grid => ExprKind::GridCoord(axis),
                Sym::Grid(_) => return Err(self.forbidden(name, "the grid coordinate", diags)),
                Sym::Noise(id) if self.ctx.noise => {
                    self.read_noise = true;
                    ExprKind::Noise(id)
                }
                Sym::Noise(_) => {
                    diags.push(
                        Diagnostic::error(
                            Code::Noise,
                            name.span,
                            format!("{} cannot read the noise `{key}`", self.ctx.what),
                        )
                        .with_label("noise may only appear in laws"),
                    );
                    return Err(Reported);
                }
                Sym::Poisoned => return Err(Reported),
                Sym::Let(id) => return self.local(name, id, diags),
                Sym::Observe(_) => {
                    diags.push(
                        Diagnostic::error(
                            Code::MisplacedRead,
                            name.span,
                            format!("the observe `{key}` cannot be read in an expression"),
                        )
                        .with_label("a recorded column, not a quantity")
                        .with_hint("repeat its expression instead"),
                    );
                    return Err(Reported);
                }
            };
            return Ok(leaf(kind, info.dim, info.shape));
        }
        // `y'` of a first-order state is its rate.
        if name.primes > 0 {
            let mut base = name.text.clone();
            for _ in 1..name.primes {
                base.push('\'');
            }
            if let Some(info) = self.names.map.get(&base)
                && let Sym::State(id) = info.sym
            {
                if !self.ctx.rates {
                    return Err(self.forbidden(name, "the rate", diags));
                }
                let t = units::dims::TIME;
                return Ok(leaf(ExprKind::Rate(id), info.dim / t, info.shape));
            }
        }
        if name.primes == 0 {
            if key == "t" {
                if !self.ctx.time {
                    return Err(self.forbidden(name, "the time", diags));
                }
                let t = units::dims::TIME;
                return Ok(leaf(ExprKind::Time, t, Shape::Scalar));
            }
            if key == "hamiltonian" {
                if !(self.ctx.states && self.ctx.rates && self.names.has_energy) {
                    diags.push(
                        Diagnostic::error(
                            Code::MisplacedRead,
                            name.span,
                            "`hamiltonian` is read but there is no lagrangian or hamiltonian here",
                        )
                        .with_label("the energy is not defined"),
                    );
                    return Err(Reported);
                }
                let energy = units::dims::ENERGY;
                return Ok(leaf(ExprKind::Hamiltonian, energy, Shape::Scalar));
            }
            if let Some((cname, value, dim)) = crate::constants::lookup(&key) {
                return Ok(leaf(
                    ExprKind::Constant { name: cname, value },
                    dim,
                    Shape::Scalar,
                ));
            }
        }
        let mut d = Diagnostic::error(
            Code::UnknownName,
            name.span,
            format!("unknown name `{key}`"),
        )
        .with_label("not declared");
        if crate::expr::Builtin::from_name(&key).is_some() {
            d = d.with_hint(format!("`{key}` is a function: call it, `{key}(x)`"));
        } else if name.primes > 0 {
            d = d.with_hint(format!("`{key}` needs a state `{}`", name.text));
        }
        diags.push(d);
        Err(Reported)
    }

    fn grid(&self) -> Option<&GridInfo> {
        self.names.grid.as_ref()
    }

    fn element(&self, name: &ast::Name) -> Option<usize> {
        if let Some(info) = self.names.map.get(&name.key()) {
            return match info.sym {
                Sym::State(_) | Sym::Param(_) => info.element,
                _ => None,
            };
        }
        // The rate `y'` of a state `y` has its rows.
        if name.primes == 0 {
            return None;
        }
        let mut base = name.text.clone();
        for _ in 1..name.primes {
            base.push('\'');
        }
        match self.names.map.get(&base) {
            Some(info) if matches!(info.sym, Sym::State(_)) => info.element,
            _ => None,
        }
    }
}
