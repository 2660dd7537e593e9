//! Checking `scheme` declarations: what they read, what they bind, and their dimensions,
//! generic over the state's dimension.
//!
//! A scheme works for any state, so its body is checked with the state's dimension replaced by
//! a placeholder [`Y`] that no physical quantity has (amount × luminous intensity); messages show
//! it as `[y]`.

use crate::expr::{Expr, ExprKind, LocalId, SchemeFn, SchemeInput, Shape};
use crate::infer::{CResult, Cx, Reported, SchemeFnSig, Scope, dim_name};
use crate::model::{CheckedScheme, SchemeOrder, SchemeOutputs, SchemeStep};
use physis_syntax::ast::{self, SchemeDecl};
use physis_syntax::{Code, Diagnostic};
use std::collections::{HashMap, HashSet};
use units::{Base, Dimension, Exponent};

/// The placeholder dimension of a scheme's state `y` (or positions `x`).
pub const Y: Dimension = Dimension::from_ints([0, 0, 0, 0, 0, 1, 1]);

fn time() -> Dimension {
    Dimension::base(Base::Time)
}

/// True for the dimension of the state's rate, `[y]·T⁻¹`.
pub fn is_rate(d: Dimension) -> bool {
    d == Y / time()
}

fn half(sign: i64) -> Exponent {
    Exponent::new(sign, 2).unwrap_or(Exponent::ONE)
}

/// Names a scheme reads and may not bind.
const INPUTS: &[&str] = &["t", "h", "y", "x", "v", "f", "a", "g", "dW", "J", "ft"];

struct SchemeScope {
    order: SchemeOrder,
    /// Locals bound so far (name -> id).
    bound: HashMap<String, LocalId>,
    /// Every local's id by name, outputs included (outputs may be read before being bound).
    all: HashMap<String, LocalId>,
    dims: Vec<Dimension>,
    outputs: Vec<LocalId>,
    implicit: bool,
    stochastic: bool,
    /// The stages being checked that may read themselves (an implicit stage, or the
    /// stages of a group that read each other).
    current: Vec<LocalId>,
    /// Bindings that failed to check: reading them reports nothing more.
    poisoned: HashSet<LocalId>,
}

impl SchemeScope {
    fn wrong_kind(&self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> Reported {
        let (kind, reads) = match self.order {
            SchemeOrder::First => (
                "a first-order scheme",
                "t, h, y, f(·,·), J, ft, g(·,·) and dW",
            ),
            SchemeOrder::Second => ("a second-order scheme", "t, h, x, v and a(·,·)"),
        };
        diags.push(
            Diagnostic::error(
                Code::SchemeShape,
                name.span,
                format!("{kind} cannot read `{}`", name.key()),
            )
            .with_label("not an input of this scheme")
            .with_hint(format!("{kind} reads {reads}")),
        );
        Reported
    }
}

impl Scope for SchemeScope {
    fn resolve(&mut self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> CResult<Expr> {
        let leaf = |kind, dim| Expr {
            kind,
            dim,
            shape: Shape::Scalar,
            span: name.span,
        };
        let key = name.key();
        if let Some(&id) = self.bound.get(&key) {
            if self.poisoned.contains(&id) {
                return Err(Reported);
            }
            return Ok(leaf(ExprKind::Local(id), self.dims[id.0]));
        }
        if let Some(&id) = self.all.get(&key)
            && self.current.contains(&id)
        {
            return Ok(leaf(ExprKind::Local(id), self.dims[id.0]));
        }
        if let Some(&id) = self.all.get(&key)
            && self.outputs.contains(&id)
            && key != "error"
        {
            self.implicit = true;
            return Ok(leaf(ExprKind::Local(id), self.dims[id.0]));
        }
        let first = self.order == SchemeOrder::First;
        let input = match key.as_str() {
            "t" => Some((SchemeInput::T, time())),
            "h" => Some((SchemeInput::H, time())),
            "y" if first => Some((SchemeInput::Y, Y)),
            "x" if !first => Some((SchemeInput::X, Y)),
            "v" if !first => Some((SchemeInput::V, Y / time())),
            "dW" if first => {
                self.stochastic = true;
                Some((SchemeInput::DW, time().pow(half(1))))
            }
            "J" if first => Some((SchemeInput::J, Dimension::NONE / time())),
            "ft" if first => Some((SchemeInput::Ft, Y / time().powi(2))),
            "y" | "x" | "v" | "dW" | "J" | "ft" => return Err(self.wrong_kind(name, diags)),
            _ => None,
        };
        if let Some((input, dim)) = input {
            return Ok(leaf(ExprKind::SchemeInput(input), dim));
        }
        if let Some((cname, value, dim)) = crate::constants::lookup(&key) {
            return Ok(leaf(ExprKind::Constant { name: cname, value }, dim));
        }
        let message = if self.all.contains_key(&key) {
            format!("`{key}` is read before it is bound")
        } else {
            format!("unknown name `{key}`")
        };
        diags.push(
            Diagnostic::error(Code::UnknownName, name.span, message).with_label("not bound here"),
        );
        Err(Reported)
    }

    fn scheme_fn(
        &mut self,
        name: &ast::Name,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<CResult<SchemeFnSig>> {
        let first = self.order == SchemeOrder::First;
        let sig = match name.key().as_str() {
            "f" if first => SchemeFnSig {
                func: SchemeFn::F,
                arg: Y,
                ret: Y / time(),
            },
            "g" if first => {
                self.stochastic = true;
                SchemeFnSig {
                    func: SchemeFn::G,
                    arg: Y,
                    ret: Y * time().pow(half(-1)),
                }
            }
            "a" if !first => SchemeFnSig {
                func: SchemeFn::A,
                arg: Y,
                ret: Y / time().powi(2),
            },
            "f" | "g" | "a" => return Some(Err(self.wrong_kind(name, diags))),
            _ => return None,
        };
        Some(Ok(sig))
    }

    fn dim_name(&self, d: Dimension) -> String {
        scheme_dim_name(d)
    }
}

/// A dimension relative to the placeholder: `[y]·T⁻¹`.
pub fn scheme_dim_name(d: Dimension) -> String {
    let k = d.exponent(Base::Amount);
    if k.is_zero() || d.exponent(Base::Luminosity) != k {
        return dim_name(d);
    }
    let rest = d / Y.pow(k);
    let y = if k == Exponent::ONE {
        "[y]".to_string()
    } else {
        format!("[y]^({k})")
    };
    if rest.is_dimensionless() {
        y
    } else {
        format!("{y}·{rest}")
    }
}

/// Check one scheme declaration.
pub(crate) fn check_scheme(
    decl: &SchemeDecl,
    builtin: bool,
    diags: &mut Vec<Diagnostic>,
) -> CheckedScheme {
    let binds = |n: &str| decl.body.iter().any(|b| b.name.key() == n);
    let second = binds("nextX") || binds("nextV");
    let order = if second {
        SchemeOrder::Second
    } else {
        SchemeOrder::First
    };
    let head = decl.name.span;
    let shape_error = |diags: &mut Vec<Diagnostic>, msg: String| {
        diags.push(Diagnostic::error(Code::SchemeShape, head, msg).with_label("this scheme"));
    };
    if second && binds("next") {
        shape_error(
            diags,
            "a scheme binds either `next` or `nextX` and `nextV`, not both".into(),
        );
    } else if second && !(binds("nextX") && binds("nextV")) {
        shape_error(
            diags,
            "a second-order scheme must bind both `nextX` and `nextV`".into(),
        );
    } else if !second && !binds("next") {
        shape_error(
            diags,
            format!("scheme `{}` binds no `next`", decl.name.text),
        );
    }
    let adaptive = match decl.order {
        Some((p, _)) if p >= 1.0 && p.fract() == 0.0 && p <= 32.0 => Some(p as u32),
        Some((_, span)) => {
            diags.push(Diagnostic::error(
                Code::SchemeShape,
                span,
                "a scheme's order is a whole number from 1",
            ));
            None
        }
        None => None,
    };
    if decl.order.is_some() && !binds("error") {
        shape_error(diags, "an adaptive scheme must bind `error`".into());
    }
    if decl.order.is_none() && binds("error") {
        shape_error(
            diags,
            "`error` is bound but the scheme declares no `<order>`".into(),
        );
    }
    let stable = match decl.stable {
        Some((r, _)) if r > 0.0 => Some(r),
        Some((_, span)) => {
            diags.push(Diagnostic::error(
                Code::SchemeShape,
                span,
                "a stability radius must be positive",
            ));
            None
        }
        None => None,
    };

    // Every bound name gets a local; outputs get theirs up front so implicit reads resolve.
    let mut locals: Vec<String> = Vec::new();
    let mut all = HashMap::new();
    let mut dims = Vec::new();
    for b in &decl.body {
        let key = b.name.key();
        if !all.contains_key(&key) {
            all.insert(key.clone(), LocalId(locals.len()));
            locals.push(key.clone());
            let dim = match key.as_str() {
                "next" | "error" | "nextX" => Y,
                "nextV" => Y / time(),
                _ => Dimension::NONE,
            };
            dims.push(dim);
        }
    }
    let output = |n: &str| all.get(n).copied();
    let outputs = SchemeOutputs {
        next: output("next").filter(|_| !second),
        error: output("error"),
        next_x: output("nextX"),
        next_v: output("nextV"),
    };
    let mut scope = SchemeScope {
        order,
        bound: HashMap::new(),
        outputs: [outputs.next, outputs.next_x, outputs.next_v]
            .into_iter()
            .flatten()
            .collect(),
        all,
        dims,
        implicit: false,
        stochastic: false,
        current: Vec::new(),
        poisoned: HashSet::new(),
    };
    let groups = coupled_groups(decl);
    // The checked right sides of a group's later stages, checked with its first.
    let mut coupled: HashMap<String, Option<Expr>> = HashMap::new();
    // Bindings that read `next` (or `nextX`, `nextV`) before it is bound, directly or
    // through another such binding: an implicit stage among them would need `next`,
    // which is solved after it.
    let mut reads_next: HashSet<String> = HashSet::new();
    let mut body = Vec::new();
    for b in &decl.body {
        let key = b.name.key();
        if INPUTS.contains(&key.as_str()) {
            diags.push(
                Diagnostic::error(
                    Code::SchemeShape,
                    b.name.span,
                    format!("a scheme cannot bind its input `{key}`"),
                )
                .with_label("an input"),
            );
            continue;
        }
        if scope.bound.contains_key(&key) {
            diags.push(
                Diagnostic::error(
                    Code::Duplicate,
                    b.name.span,
                    format!("`{key}` is bound twice"),
                )
                .with_label("bound again here"),
            );
            continue;
        }
        let id = scope.all[&key];
        if let Some(done) = coupled.remove(&key) {
            // A later stage of a group checked with its first.
            match done {
                Some(expr) => {
                    scope.dims[id.0] = expr.dim;
                    body.push(SchemeStep { target: id, expr });
                }
                None => {
                    scope.poisoned.insert(id);
                }
            }
            scope.bound.insert(key, id);
            continue;
        }
        let read = names_read(&b.value);
        let group = groups.iter().find(|g| g.contains(&key));
        if let Some(group) = group
            && group.len() > 1
        {
            let checked = coupled_stages(decl, &mut scope, group, &reads_next, diags);
            let members: Vec<String> = group.iter().skip(1).cloned().collect();
            match checked {
                Some(mut exprs) => {
                    let rest = exprs.split_off(1);
                    for (m, e) in members.iter().zip(rest) {
                        coupled.insert(m.clone(), Some(e));
                    }
                    if let Some(expr) = exprs.pop() {
                        scope.dims[id.0] = expr.dim;
                        body.push(SchemeStep { target: id, expr });
                    }
                    scope.implicit = true;
                }
                None => {
                    for m in &members {
                        coupled.insert(m.clone(), None);
                        if let Some(&mid) = scope.all.get(m) {
                            scope.poisoned.insert(mid);
                        }
                    }
                    scope.poisoned.insert(id);
                }
            }
            scope.bound.insert(key, id);
            continue;
        }
        if let Some(d) = order_diagnostic(decl, &scope, &key, &read) {
            diags.push(d);
            scope.poisoned.insert(id);
            scope.bound.insert(key, id);
            continue;
        }
        let is_output = matches!(key.as_str(), "next" | "error" | "nextX" | "nextV");
        let unbound_output = |n: &String| {
            matches!(n.as_str(), "next" | "nextX" | "nextV") && !scope.bound.contains_key(n)
        };
        if read
            .iter()
            .any(|(n, _)| unbound_output(n) || reads_next.contains(n))
        {
            reads_next.insert(key.clone());
        }
        let stage = !is_output && read.iter().any(|(n, _)| *n == key);
        if stage && reads_next.contains(&key) {
            diags.push(
                Diagnostic::error(
                    Code::SchemeShape,
                    b.name.span,
                    format!("implicit stage `{key}` reads `next`, which is solved after it"),
                )
                .with_label("solved before `next`")
                .with_hint("an implicit stage may read itself and the stages bound before it"),
            );
            scope.poisoned.insert(id);
            scope.bound.insert(key, id);
            continue;
        }
        let checked = if stage {
            implicit_stage(&mut scope, id, b, diags)
        } else {
            Cx {
                scope: &mut scope,
                diags,
            }
            .expr(&b.value)
        };
        // `J` only means something applied to a state-shaped value: one diagnostic, and
        // the binding is poisoned so nothing that reads it reports again.
        let checked = checked.and_then(|e| match crate::jacobian_use::misuse(&e) {
            Some(d) => {
                diags.push(d);
                Err(Reported)
            }
            None => Ok(e),
        });
        if checked.is_err() {
            scope.poisoned.insert(id);
        }
        if let Ok(expr) = checked {
            let is_output = matches!(key.as_str(), "next" | "error" | "nextX" | "nextV");
            if is_output && expr.dim != scope.dims[id.0] {
                diags.push(
                    Diagnostic::error(
                        Code::WrongDimension,
                        b.value.span,
                        format!(
                            "`{key}` must be {}, found {}",
                            scheme_dim_name(scope.dims[id.0]),
                            scheme_dim_name(expr.dim)
                        ),
                    )
                    .with_label(scheme_dim_name(expr.dim)),
                );
            }
            scope.dims[id.0] = expr.dim;
            body.push(SchemeStep { target: id, expr });
        }
        scope.bound.insert(key, id);
    }
    CheckedScheme {
        name: decl.name.text.clone(),
        order,
        stochastic: scope.stochastic,
        adaptive,
        stable,
        implicit: scope.implicit,
        locals,
        body,
        outputs,
        builtin,
        span: decl.span,
    }
}

/// Every name an expression reads (not the functions it calls), with where.
fn names_read(e: &ast::Expr) -> Vec<(String, physis_syntax::Span)> {
    fn walk(e: &ast::Expr, out: &mut Vec<(String, physis_syntax::Span)>) {
        use ast::ExprKind as K;
        match &e.kind {
            K::Name(n) => out.push((n.key(), n.span)),
            K::Unary { operand, .. } => walk(operand, out),
            K::Binary { lhs, rhs, .. } => {
                walk(lhs, out);
                walk(rhs, out);
            }
            K::Power { base, exponent } => {
                walk(base, out);
                walk(exponent, out);
            }
            K::Call { args, .. } => args.iter().for_each(|a| walk(a, out)),
            K::Index { base, indices } => {
                walk(base, out);
                indices.iter().for_each(|a| walk(a, out));
            }
            K::Vector(items) => items.iter().for_each(|a| walk(a, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(e, &mut out);
    out
}

/// The one diagnostic of a binding that reads a stage bound after it (other than `next`,
/// `nextX` and `nextV`, which an implicit scheme may read before binding them).
fn order_diagnostic(
    decl: &SchemeDecl,
    scope: &SchemeScope,
    key: &str,
    read: &[(String, physis_syntax::Span)],
) -> Option<Diagnostic> {
    let (later, span) = read.iter().find(|(n, _)| {
        n != key
            && !INPUTS.contains(&n.as_str())
            && scope.all.contains_key(n)
            && !scope.bound.contains_key(n)
            && !matches!(n.as_str(), "next" | "nextX" | "nextV")
    })?;
    let head = decl.body.iter().find(|b| b.name.key() == key)?;
    let mutual = decl
        .body
        .iter()
        .filter(|c| c.name.key() == *later)
        .any(|c| names_read(&c.value).iter().any(|(n, _)| n == key));
    let message = if mutual {
        format!("stages `{key}` and `{later}` read each other")
    } else {
        format!("stage `{key}` reads `{later}`, which is bound after it")
    };
    Some(
        Diagnostic::error(Code::SchemeShape, head.name.span, message)
            .with_label(format!("reads `{later}`"))
            .with_secondary(*span, format!("`{later}` read here"))
            .with_hint(
                "a stage may read the stages bound before it, and itself (an implicit \
                 stage, solved by Newton); bind the stages in the order they are solved",
            ),
    )
}

/// Checks a stage that reads itself: its dimension is the one, among the state's, its
/// rate's and its rate's rate, for which its right side has that same dimension.
fn implicit_stage(
    scope: &mut SchemeScope,
    id: LocalId,
    b: &ast::Binding,
    diags: &mut Vec<Diagnostic>,
) -> CResult<Expr> {
    let candidates = match scope.order {
        SchemeOrder::First => [Y / time(), Y, Y / time().powi(2)],
        SchemeOrder::Second => [Y / time().powi(2), Y / time(), Y],
    };
    scope.current = vec![id];
    let mut found = None;
    for c in candidates {
        scope.dims[id.0] = c;
        let mut scratch = Vec::new();
        let r = Cx {
            scope: &mut *scope,
            diags: &mut scratch,
        }
        .expr(&b.value);
        if let Ok(e) = r
            && scratch.is_empty()
            && e.dim == c
        {
            found = Some(e);
            break;
        }
    }
    let out = match found {
        Some(e) => {
            scope.implicit = true;
            Ok(e)
        }
        None => {
            // Report what the most common reading (a rate) finds wrong.
            scope.dims[id.0] = candidates[0];
            let before = diags.len();
            let r = Cx {
                scope: &mut *scope,
                diags: &mut *diags,
            }
            .expr(&b.value);
            if diags.len() == before {
                let key = b.name.key();
                let found = r.map(|e| scheme_dim_name(e.dim)).unwrap_or_default();
                diags.push(
                    Diagnostic::error(
                        Code::WrongDimension,
                        b.value.span,
                        format!(
                            "implicit stage `{key}` reads itself, so its right side must have \
                             its dimension; that holds for none of {}, {} and {} (found {found})",
                            scheme_dim_name(candidates[0]),
                            scheme_dim_name(candidates[1]),
                            scheme_dim_name(candidates[2]),
                        ),
                    )
                    .with_label("the stage's right side"),
                );
            }
            Err(Reported)
        }
    };
    scope.current.clear();
    out
}

/// The stages that read each other, as groups of their names in binding order: the
/// strongly connected components of the reads among a scheme's intermediates (outputs
/// and inputs aside) that lie on a cycle. A group of one reads only itself.
fn coupled_groups(decl: &SchemeDecl) -> Vec<Vec<String>> {
    let mut keys: Vec<String> = Vec::new();
    for b in &decl.body {
        let k = b.name.key();
        let output = matches!(k.as_str(), "next" | "error" | "nextX" | "nextV");
        if !output && !INPUTS.contains(&k.as_str()) && !keys.contains(&k) {
            keys.push(k);
        }
    }
    let n = keys.len();
    let mut reach = vec![vec![false; n]; n];
    for b in &decl.body {
        let Some(i) = keys.iter().position(|k| *k == b.name.key()) else {
            continue;
        };
        for (name, _) in names_read(&b.value) {
            if let Some(j) = keys.iter().position(|k| *k == name) {
                reach[i][j] = true;
            }
        }
    }
    cycles(reach)
        .into_iter()
        .map(|g| g.into_iter().map(|j| keys[j].clone()).collect())
        .collect()
}

/// The groups of nodes that reach each other, from `reads[i][j]` (node `i` reads node
/// `j`): the strongly connected components that lie on a cycle, each in index order, the
/// groups ordered by their first node. A node that reads only itself is a group of one.
/// The checker and the IR both group a scheme's stages by this one rule.
pub fn cycles(reads: Vec<Vec<bool>>) -> Vec<Vec<usize>> {
    let mut reach = reads;
    let n = reach.len();
    // Transitive closure (Warshall).
    for k in 0..n {
        let through = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (x, &r) in row.iter_mut().zip(&through) {
                    *x |= r;
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, row) in reach.iter().enumerate() {
        if !row[i] || groups.iter().any(|g| g.contains(&i)) {
            continue;
        }
        groups.push((i..n).filter(|&j| row[j] && reach[j][i]).collect());
    }
    groups
}

/// Checks a group of stages that read each other, at its first stage: they share one
/// dimension (the state's rate, the state's, or the rate's rate) for which every right
/// side has it. `None` after one diagnostic for the whole group.
fn coupled_stages(
    decl: &SchemeDecl,
    scope: &mut SchemeScope,
    group: &[String],
    reads_next: &HashSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Expr>> {
    let bindings: Vec<&ast::Binding> = group
        .iter()
        .filter_map(|k| decl.body.iter().find(|b| b.name.key() == *k))
        .collect();
    let ids: Vec<LocalId> = group
        .iter()
        .filter_map(|k| scope.all.get(k).copied())
        .collect();
    let (first, names) = (bindings.first()?, group.join("`, `"));
    // A group solved before `next` cannot read it; nor may it read a stage bound between
    // its members that is not one of them (that stage is solved after the group starts).
    for b in &bindings {
        let bad = names_read(&b.value).into_iter().find(|(n, _)| {
            let unbound = scope.all.contains_key(n)
                && !scope.bound.contains_key(n)
                && !group.contains(n)
                && !INPUTS.contains(&n.as_str());
            reads_next.contains(n) || unbound
        });
        if let Some((n, span)) = bad {
            let message = if matches!(n.as_str(), "next" | "nextX" | "nextV")
                || reads_next.contains(&n)
            {
                format!("stages `{names}` read each other and `next`, which is solved after them")
            } else {
                format!(
                    "stages `{names}` read each other and `{n}`, which is bound after `{}`",
                    first.name.key()
                )
            };
            diags.push(
                Diagnostic::error(Code::SchemeShape, first.name.span, message)
                    .with_label("solved together by Newton")
                    .with_secondary(span, format!("`{n}` read here"))
                    .with_hint(
                        "stages that read each other may read the stages bound before the \
                         first of them, and each other",
                    ),
            );
            return None;
        }
    }
    let candidates = match scope.order {
        SchemeOrder::First => [Y / time(), Y, Y / time().powi(2)],
        SchemeOrder::Second => [Y / time().powi(2), Y / time(), Y],
    };
    scope.current = ids.clone();
    let mut found = None;
    for c in candidates {
        for id in &ids {
            scope.dims[id.0] = c;
        }
        let mut scratch = Vec::new();
        let mut exprs = Vec::new();
        for b in &bindings {
            let r = Cx {
                scope: &mut *scope,
                diags: &mut scratch,
            }
            .expr(&b.value);
            match r {
                Ok(e) if e.dim == c => exprs.push(e),
                _ => break,
            }
        }
        if scratch.is_empty() && exprs.len() == bindings.len() {
            found = Some(exprs);
            break;
        }
    }
    if found.is_none() {
        // Report what the most common reading (rates) finds wrong, once.
        for id in &ids {
            scope.dims[id.0] = candidates[0];
        }
        let before = diags.len();
        for b in &bindings {
            let r = Cx {
                scope: &mut *scope,
                diags: &mut *diags,
            }
            .expr(&b.value);
            if diags.len() > before {
                break;
            }
            if let Ok(e) = r
                && e.dim != candidates[0]
            {
                diags.push(
                    Diagnostic::error(
                        Code::WrongDimension,
                        b.value.span,
                        format!(
                            "stages `{names}` read each other, so they share one dimension and \
                             each right side must have it; that holds for none of {}, {} and {} \
                             (`{}` is {})",
                            scheme_dim_name(candidates[0]),
                            scheme_dim_name(candidates[1]),
                            scheme_dim_name(candidates[2]),
                            b.name.key(),
                            scheme_dim_name(e.dim),
                        ),
                    )
                    .with_label("this stage's right side"),
                );
                break;
            }
        }
        if diags.len() == before {
            diags.push(Diagnostic::error(
                Code::WrongDimension,
                first.name.span,
                format!("stages `{names}` read each other but share no dimension"),
            ));
        }
    }
    scope.current.clear();
    found
}
