//! Checking one `simulate` block: declarations first (so clause order does not matter), then
//! every clause, then the model-wide rules of [`crate::rules`].

use crate::expr::{Expr, NoiseId, ObserveId, ParamId, Shape, StateId};
use crate::infer::{CResult, Cx, GridInfo, Reported};
use crate::model::{CheckedModel, CheckedScheme, Grid, Noise, Param, State, Value};
use crate::scope::{Ctx, Info, LetSlot, Names, SimScope, Sym};
use physis_syntax::ast::{self, ClauseKind, Extent, Simulate, TypeExpr};
use physis_syntax::{Code, Diagnostic, LineIndex, Span};
use std::sync::Arc;
use units::Dimension;

/// Most nodes a grid may have in all (PH0118 beyond it; docs/limits.md).
pub const MAX_GRID_NODES: usize = 1_000_000;

/// Most numbers an array of vectors may hold (PH0118 beyond it): as many as a vector's
/// extent may be.
const MAX_ARRAY: usize = 100_000_000;

/// A declared state before its initial value is checked.
pub(crate) struct StateDecl<'a> {
    pub name: &'a ast::Name,
    pub dim: Dimension,
    pub kind: String,
    pub shape: Shape,
    pub is_field: bool,
    pub conjugate: Option<&'a ast::Name>,
    pub init: &'a ast::Expr,
    pub span: Span,
}

/// The checker of one simulation.
pub(crate) struct SimChecker<'a> {
    pub source: &'a str,
    pub lines: &'a LineIndex,
    pub schemes: &'a [Arc<CheckedScheme>],
    /// Settings from outside the text for this simulation.
    pub overrides: Option<&'a crate::model::Overrides>,
    pub diags: &'a mut Vec<Diagnostic>,
    pub sim: &'a Simulate,
    pub names: Names,
    pub state_decls: Vec<StateDecl<'a>>,
    pub params: Vec<Param>,
    pub noises: Vec<Noise>,
    pub grid: Option<Grid>,
    pub observe_count: usize,
    /// States whose law failed to check (no "has no law" cascade for them).
    pub failed_laws: Vec<StateId>,
    /// Clause presence, whether or not the clause checked.
    pub has_lagrangian: bool,
    /// Clause presence, whether or not the clause checked.
    pub has_hamiltonian: bool,
}

/// The display spelling of a name: the source text (keeps `v₀`, `φ'`).
pub(crate) fn display(source: &str, name: &ast::Name) -> String {
    let text = name.span.text(source);
    if text.is_empty() {
        name.key()
    } else {
        text.to_string()
    }
}

impl<'a> SimChecker<'a> {
    /// Checks every `let` in source order (each reads only those above it) before the clauses
    /// that read them.
    pub fn locals(&mut self) {
        let sim = self.sim;
        let mut id = 0;
        for clause in &sim.clauses {
            let ClauseKind::Let(b) = &clause.kind else {
                continue;
            };
            let key = b.name.key();
            let ours = matches!(self.names.map.get(&key), Some(i) if i.sym == Sym::Let(id));
            if !ours {
                // Declared twice: the first declaration holds the name.
                continue;
            }
            let slot = match self.expr(&b.value, Ctx::LOCAL) {
                Ok(e) => {
                    if let Some(info) = self.names.map.get_mut(&key) {
                        info.dim = e.dim;
                        info.shape = e.shape;
                    }
                    LetSlot::Done(e)
                }
                Err(_) => LetSlot::Failed,
            };
            self.names.lets[id] = slot;
            id += 1;
        }
    }

    pub fn err(&mut self, d: Diagnostic) -> Reported {
        self.diags.push(d);
        Reported
    }

    /// Check an expression in a context.
    pub fn expr(&mut self, e: &ast::Expr, ctx: Ctx) -> CResult<Expr> {
        let mut scope = SimScope {
            names: &self.names,
            ctx,
            read_noise: false,
        };
        Cx {
            scope: &mut scope,
            diags: self.diags,
        }
        .expr(e)
    }

    /// The components of a per-index law, checked in `ctx` (see [`crate::sums`]).
    pub fn each(
        &mut self,
        index: &ast::Name,
        n: usize,
        width: Option<usize>,
        body: &ast::Expr,
        ctx: Ctx,
    ) -> CResult<Expr> {
        let mut scope = SimScope {
            names: &self.names,
            ctx,
            read_noise: false,
        };
        Cx {
            scope: &mut scope,
            diags: self.diags,
        }
        .each(index, n, width, body)
    }

    /// `e` as the value of the declared `name`: written as rows (`[[a, b], [c, d]]`) for an
    /// array of vectors, flattened to the stored layout ([`crate::arrays`]).
    pub fn value_of(&mut self, name: &str, e: &ast::Expr, ctx: Ctx) -> CResult<Expr> {
        let rows = self.names.map.get(name).and_then(|info| match info.shape {
            Shape::Vector(n) => info.element.map(|w| (n / w.max(1), w)),
            _ => None,
        });
        let Some((rows, width)) = rows else {
            return self.expr(e, ctx);
        };
        match crate::arrays::flatten_rows(e, rows, width) {
            Ok(Some(flat)) => self.expr(&flat, ctx),
            Ok(None) => self.expr(e, ctx),
            Err(d) => Err(self.err(d)),
        }
    }

    /// Check a condition (stop/on).
    pub fn cond(&mut self, e: &ast::Expr) -> CResult<crate::expr::Cond> {
        let mut scope = SimScope {
            names: &self.names,
            ctx: Ctx::OBSERVE,
            read_noise: false,
        };
        Cx {
            scope: &mut scope,
            diags: self.diags,
        }
        .cond(e)
    }

    /// Require `e` to have `dim`, reporting PH0204 otherwise.
    pub fn expect_dim(&mut self, e: &Expr, dim: Dimension, what: &str) -> CResult<()> {
        if e.dim == dim {
            return Ok(());
        }
        let (want, found) = (crate::infer::dim_name(dim), crate::infer::dim_name(e.dim));
        Err(self.err(
            Diagnostic::error(
                Code::WrongDimension,
                e.span,
                format!("{what} must be {want}, found {found}"),
            )
            .with_label(found),
        ))
    }

    /// Require `e` to fit `shape` (a scalar fits a field).
    pub fn expect_shape(&mut self, e: &Expr, shape: Shape, what: &str) -> CResult<()> {
        let fits = e.shape == shape || (shape == Shape::Field && e.shape == Shape::Scalar);
        if fits {
            return Ok(());
        }
        Err(self.err(
            Diagnostic::error(
                Code::ShapeMismatch,
                e.span,
                format!(
                    "{what} must have {}, found {}",
                    shape.describe(),
                    e.shape.describe()
                ),
            )
            .with_label(e.shape.describe()),
        ))
    }

    /// The value of a constant expression, or PH0110 naming `what`.
    pub fn constant(&mut self, e: &Expr, what: &str) -> CResult<Value> {
        match crate::eval::constant(e) {
            Some(v) if v.components().iter().all(|x| x.is_finite()) => Ok(v),
            _ => Err(self.err(
                Diagnostic::error(
                    Code::BadSetting,
                    e.span,
                    format!("{what} must be a finite constant"),
                )
                .with_label("not a constant"),
            )),
        }
    }

    /// Register a name, reporting PH0202 when it is taken.
    fn declare(&mut self, name: &ast::Name, info: Info) -> bool {
        let key = name.key();
        if key == "t" || key == "hamiltonian" {
            self.err(
                Diagnostic::error(Code::Duplicate, name.span, format!("`{key}` is reserved"))
                    .with_label("a built-in name"),
            );
            return false;
        }
        if let Some(prev) = self.names.map.get(&key) {
            let prev = prev.span;
            self.err(
                Diagnostic::error(
                    Code::Duplicate,
                    name.span,
                    format!("`{key}` is declared twice"),
                )
                .with_label("declared again here")
                .with_secondary(prev, "first declared here"),
            );
            return false;
        }
        self.names.map.insert(key, info);
        true
    }

    /// Declare a name whose declaration failed, so later reads do not cascade.
    fn poison(&mut self, name: &ast::Name) {
        let info = Info {
            sym: Sym::Poisoned,
            dim: Dimension::NONE,
            shape: Shape::Scalar,
            span: name.span,
            element: None,
        };
        self.names.map.entry(name.key()).or_insert(info);
    }

    /// Resolve a type to a dimension, kind name, shape and, for an array of vectors
    /// (`Length[7][2]`, stored flat: [`crate::arrays`]), the size of each vector.
    fn type_of(
        &mut self,
        ty: &TypeExpr,
        is_field: bool,
    ) -> CResult<(Dimension, String, Shape, Option<usize>)> {
        let Some(dim) = units::kind(&ty.kind.text) else {
            return Err(self.err(
                Diagnostic::error(
                    Code::UnknownKind,
                    ty.kind.span,
                    format!("unknown quantity kind `{}`", ty.kind.text),
                )
                .with_label("not a kind")
                .with_hint(
                    "kinds are names such as Length, Velocity, Angle, Energy, Dimensionless",
                ),
            ));
        };
        let sizes = self.extents(&ty.extents)?;
        let mut element = None;
        let shape = match (sizes.as_slice(), is_field) {
            ([], true) => Shape::Field,
            ([], false) => Shape::Scalar,
            ([n], false) => Shape::Vector(*n),
            ([n, w], false) => match crate::arrays::flat_size(*n, *w, MAX_ARRAY) {
                Some(total) => {
                    element = Some(*w);
                    Shape::Vector(total)
                }
                None => {
                    return Err(self.err(
                        Diagnostic::error(
                            Code::TooBig,
                            ty.span,
                            format!("an array of vectors of more than {MAX_ARRAY} numbers"),
                        )
                        .with_label(format!("{n} × {w}")),
                    ));
                }
            },
            (_, true) => {
                return Err(self.err(Diagnostic::error(
                    Code::ShapeMismatch,
                    ty.span,
                    "a field takes its size from the grid; write the kind alone",
                )));
            }
            (_, false) => {
                return Err(self.err(Diagnostic::error(
                    Code::ShapeMismatch,
                    ty.span,
                    "a state or param is a vector `Kind[7]` or an array of vectors \
                     `Kind[7][2]`; nothing has more extents",
                )));
            }
        };
        Ok((dim, ty.kind.text.clone(), shape, element))
    }

    /// Literal extents as sizes (PH0106 for names).
    pub fn extents(&mut self, extents: &[Extent]) -> CResult<Vec<usize>> {
        let mut sizes = Vec::new();
        for e in extents {
            match e {
                Extent::Number(v, span) => {
                    if *v >= 1.0 && v.fract() == 0.0 && *v <= 1e8 {
                        sizes.push(*v as usize);
                    } else {
                        return Err(self.err(Diagnostic::error(
                            Code::ShapeMismatch,
                            *span,
                            "a size must be a whole number from 1",
                        )));
                    }
                }
                Extent::Name(n) => {
                    return Err(self.err(
                        Diagnostic::error(
                            Code::SymbolicExtent,
                            n.span,
                            format!("symbolic extent `{}`", n.key()),
                        )
                        .with_label("sizes are fixed numbers")
                        .with_hint("write the number of components, e.g. `Length[3]`"),
                    ));
                }
            }
        }
        Ok(sizes)
    }

    /// Pass 1: the grid, then every declared name.
    pub fn declarations(&mut self) {
        let sim = self.sim;
        for clause in &sim.clauses {
            if let ClauseKind::Grid {
                coords,
                ty,
                from,
                to,
            } = &clause.kind
            {
                self.grid_clause(coords, ty, from, to, clause.span);
            }
        }
        for clause in &sim.clauses {
            match &clause.kind {
                ClauseKind::Param { name, ty, .. } => {
                    let Ok((dim, kind, shape, element)) = self.type_of(ty, false) else {
                        self.poison(name);
                        continue;
                    };
                    let id = ParamId(self.params.len());
                    if !self.declare(
                        name,
                        Info {
                            sym: Sym::Param(id),
                            dim,
                            shape,
                            span: name.span,
                            element,
                        },
                    ) {
                        continue;
                    }
                    self.params.push(Param {
                        name: display(self.source, name),
                        key: name.key(),
                        dim,
                        kind,
                        shape,
                        default: Value::Scalar(0.0),
                        span: clause.span,
                    });
                }
                ClauseKind::State {
                    name,
                    ty,
                    conjugate,
                    init,
                } => self.state_decl(name, ty, conjugate.as_ref(), init, false, clause.span),
                ClauseKind::Field { name, ty, init } => {
                    if self.grid.is_none() {
                        self.err(
                            Diagnostic::error(
                                Code::GridOperator,
                                name.span,
                                format!("field `{}` has no grid", name.key()),
                            )
                            .with_hint("declare `grid (x) : Length[N] from a to b`"),
                        );
                        self.poison(name);
                        continue;
                    }
                    self.state_decl(name, ty, None, init, true, clause.span)
                }
                ClauseKind::Noise { names } => {
                    for n in names {
                        let id = NoiseId(self.noises.len());
                        let dim = Dimension::base(units::Base::Time)
                            .pow(units::Exponent::new(-1, 2).unwrap_or(units::Exponent::ONE));
                        if !self.declare(
                            n,
                            Info {
                                sym: Sym::Noise(id),
                                dim,
                                shape: Shape::Scalar,
                                span: n.span,
                                element: None,
                            },
                        ) {
                            continue;
                        }
                        self.noises.push(Noise {
                            name: display(self.source, n),
                            span: n.span,
                        });
                    }
                }
                ClauseKind::Observe(b) => {
                    let id = ObserveId(self.observe_count);
                    self.observe_count += 1;
                    let info = Info {
                        sym: Sym::Observe(id),
                        dim: Dimension::NONE,
                        shape: Shape::Scalar,
                        span: b.name.span,
                        element: None,
                    };
                    self.declare(&b.name, info);
                }
                ClauseKind::Let(b) => {
                    let info = Info {
                        sym: Sym::Let(self.names.lets.len()),
                        dim: Dimension::NONE,
                        shape: Shape::Scalar,
                        span: b.name.span,
                        element: None,
                    };
                    if self.declare(&b.name, info) {
                        self.names.lets.push(LetSlot::Pending);
                    }
                }
                ClauseKind::Lagrangian(_) => {
                    self.names.has_energy = true;
                    self.has_lagrangian = true;
                }
                ClauseKind::Hamiltonian(_) => {
                    self.names.has_energy = true;
                    self.has_hamiltonian = true;
                }
                _ => {}
            }
        }
    }

    fn state_decl(
        &mut self,
        name: &'a ast::Name,
        ty: &TypeExpr,
        conjugate: Option<&'a ast::Name>,
        init: &'a ast::Expr,
        is_field: bool,
        span: Span,
    ) {
        let Ok((dim, kind, shape, element)) = self.type_of(ty, is_field) else {
            self.poison(name);
            return;
        };
        let id = StateId(self.state_decls.len());
        if !self.declare(
            name,
            Info {
                sym: Sym::State(id),
                dim,
                shape,
                span: name.span,
                element,
            },
        ) {
            return;
        }
        self.state_decls.push(StateDecl {
            name,
            dim,
            kind,
            shape,
            is_field,
            conjugate,
            init,
            span,
        });
    }

    fn grid_clause(
        &mut self,
        coords: &[ast::Name],
        ty: &TypeExpr,
        from: &ast::Expr,
        to: &ast::Expr,
        span: Span,
    ) {
        if let Some(g) = &self.grid {
            let prev = g.span;
            self.err(
                Diagnostic::error(Code::Duplicate, span, "a simulation has one grid")
                    .with_secondary(prev, "first grid here"),
            );
            return;
        }
        let Some(dim) = units::kind(&ty.kind.text) else {
            self.err(Diagnostic::error(
                Code::UnknownKind,
                ty.kind.span,
                format!("unknown quantity kind `{}`", ty.kind.text),
            ));
            return;
        };
        let Ok(sizes) = self.extents(&ty.extents) else {
            return;
        };
        if sizes.len() != coords.len() || coords.len() > 2 {
            self.err(Diagnostic::error(
                Code::ShapeMismatch,
                ty.span,
                format!(
                    "{} coordinate(s) need {} size(s), found {}",
                    coords.len(),
                    coords.len(),
                    sizes.len()
                ),
            ));
            return;
        }
        if sizes.iter().any(|&n| n < 3) {
            self.err(Diagnostic::error(
                Code::ShapeMismatch,
                ty.span,
                "a grid axis needs at least 3 nodes",
            ));
            return;
        }
        let nodes = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n));
        if nodes.is_none_or(|n| n > MAX_GRID_NODES) {
            self.err(
                Diagnostic::error(Code::TooBig, ty.span, "a grid with too many nodes")
                    .with_label(format!("more than {MAX_GRID_NODES} nodes in all"))
                    .with_hint("use fewer nodes per axis"),
            );
            return;
        }
        let mut ends = Vec::new();
        for e in [from, to] {
            let Ok(x) = self.expr(e, Ctx::CONSTANT) else {
                return;
            };
            if self.expect_dim(&x, dim, "a grid end").is_err() {
                return;
            }
            let Ok(v) = self.constant(&x, "a grid end") else {
                return;
            };
            let per_axis = match v {
                Value::Scalar(s) => vec![s; coords.len()],
                Value::Vector(v) if v.len() == coords.len() => v,
                Value::Vector(_) => {
                    self.err(Diagnostic::error(
                        Code::ShapeMismatch,
                        e.span,
                        "one end per grid axis",
                    ));
                    return;
                }
            };
            ends.push(per_axis);
        }
        let (from, to) = (ends[0].clone(), ends[1].clone());
        if from.iter().zip(&to).any(|(a, b)| a >= b) {
            self.err(Diagnostic::error(
                Code::ShapeMismatch,
                span,
                "a grid runs from a lower to a higher end",
            ));
            return;
        }
        // The node spacing (ends over intervals, periodic or not) must be a finite non-zero
        // number: ends far apart overflow, ends close together underflow to zero.
        let spacing_ok = |a: f64, b: f64, n: usize| {
            [n as f64 - 1.0, n as f64]
                .iter()
                .all(|k| ((b - a) / k).is_finite() && (b - a) / k != 0.0)
        };
        if (from.iter().zip(&to).zip(&sizes)).any(|((&a, &b), &n)| !spacing_ok(a, b, n)) {
            self.err(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    "a grid whose node spacing is not a finite non-zero number",
                )
                .with_label("the ends coincide or lie too far apart in 64-bit floats"),
            );
        }
        for (axis, c) in coords.iter().enumerate() {
            self.declare(
                c,
                Info {
                    sym: Sym::Grid(axis),
                    dim,
                    shape: Shape::Field,
                    span: c.span,
                    element: None,
                },
            );
        }
        self.names.grid = Some(GridInfo {
            dim,
            sizes: sizes.clone(),
        });
        self.grid = Some(Grid {
            coords: coords.iter().map(|c| display(self.source, c)).collect(),
            dim,
            sizes,
            from,
            to,
            span,
        });
    }

    /// Param defaults: constants with the param's dimension and shape.
    pub fn param_defaults(&mut self) {
        let sim = self.sim;
        let mut i = 0;
        for clause in &sim.clauses {
            let ClauseKind::Param { name, default, .. } = &clause.kind else {
                continue;
            };
            if !matches!(self.names.map.get(&name.key()), Some(Info { sym: Sym::Param(ParamId(j)), .. }) if *j == i)
            {
                continue;
            }
            let (dim, shape) = (self.params[i].dim, self.params[i].shape);
            let ctx = Ctx {
                what: "a param default",
                ..Ctx::CONSTANT
            };
            if let Ok(e) = self.value_of(&name.key(), default, ctx)
                && self
                    .expect_dim(&e, dim, &format!("the default of `{}`", name.key()))
                    .is_ok()
                && self.expect_shape(&e, shape, "a default").is_ok()
                && let Ok(v) = self.constant(&e, "a param default")
            {
                self.params[i].default = v;
            }
            i += 1;
        }
    }

    /// States with their initial values (Motion and relations are filled in by the rules).
    pub fn states(&mut self) -> Vec<State> {
        let mut out = Vec::new();
        for i in 0..self.state_decls.len() {
            let d = &self.state_decls[i];
            let (init_ast, dim, shape, is_field) = (d.init, d.dim, d.shape, d.is_field);
            let ctx = Ctx {
                params: true,
                grid: is_field,
                what: "an initial value",
                code: Code::MisplacedRead,
                ..Ctx::CONSTANT
            };
            let fallback = Expr {
                kind: crate::expr::ExprKind::Const(0.0),
                dim,
                shape: Shape::Scalar,
                span: init_ast.span,
            };
            let key = self.state_decls[i].name.key();
            let init = match self.value_of(&key, init_ast, ctx) {
                Ok(e) => {
                    let what = format!("the initial value of `{}`", self.state_decls[i].name.key());
                    let _ = self
                        .expect_dim(&e, dim, &what)
                        .and_then(|()| self.expect_shape(&e, shape, "an initial value"));
                    e
                }
                Err(Reported) => fallback,
            };
            let d = &self.state_decls[i];
            out.push(State {
                name: display(self.source, d.name),
                key: d.name.key(),
                dim,
                kind: d.kind.clone(),
                shape,
                element: self.names.map.get(&key).and_then(|info| info.element),
                init,
                velocity_of: None,
                velocity: None,
                conjugate_of: None,
                momentum: None,
                is_field,
                boundary: None,
                motion: crate::model::Motion::Unmoved,
                span: d.span,
            });
        }
        out
    }
}

/// Check a whole simulation.
pub(crate) fn check_simulate(
    sim: &Simulate,
    source: &str,
    lines: &LineIndex,
    schemes: &[Arc<CheckedScheme>],
    overrides: Option<&crate::model::Overrides>,
    diags: &mut Vec<Diagnostic>,
) -> CheckedModel {
    let mut c = SimChecker {
        source,
        lines,
        schemes,
        overrides,
        diags,
        sim,
        names: Names::default(),
        state_decls: Vec::new(),
        params: Vec::new(),
        noises: Vec::new(),
        grid: None,
        observe_count: 0,
        failed_laws: Vec::new(),
        has_lagrangian: false,
        has_hamiltonian: false,
    };
    c.declarations();
    c.param_defaults();
    let states = c.states();
    c.locals();
    crate::clauses::check_clauses(c, states)
}
