//! Calls of module functions and reads of module constants, expanded at check time: the
//! arguments are checked where the call is, the body is checked again with their dimensions
//! and shapes (so a parameter without a kind is dimension-polymorphic) and the result, every
//! node re-spanned to the call, replaces the call. Later stages see only the existing checked
//! forms, so derivatives, Jacobians, lowering and both back ends need no change.

use crate::expr::{Expr, Shape};
use crate::infer::{CResult, Cx, GridInfo, Reported, Scope, dim_name};
use crate::modules::{Function, Origin, env, physis_constant};
use physis_syntax::ast;
use physis_syntax::{Code, Diagnostic, Severity, Span};
use std::cell::RefCell;
use std::sync::Arc;

/// Deepest nesting of function calls inside function bodies.
const MAX_INLINE_DEPTH: usize = 32;

thread_local! {
    /// Functions being expanded on this thread, outermost first (recursion guard).
    static STACK: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Every node of `e` located at `span` (a body's own spans belong to another text).
pub(crate) fn respan(mut e: Expr, span: Span) -> Expr {
    e.walk_mut(&mut |x| {
        x.span = span;
        true
    });
    e
}

/// The module function a call names, if it names one: a dotted name always, a bare name when
/// it is a function of the module whose body is being checked, or (unless it is a built-in)
/// of an opened module. `Some(Err)` when a dotted name's module or function does not exist.
pub(crate) fn find(cx: &mut Cx<'_>, callee: &ast::Name) -> Option<CResult<Arc<Function>>> {
    if callee.primes > 0 {
        return None;
    }
    let env = env();
    let text = callee.text.as_str();
    if let Some((module, name)) = text.rsplit_once('.') {
        let Some(m) = env.module(module) else {
            return Some(Err(cx.fail(
                Diagnostic::error(
                    Code::UnknownModule,
                    callee.span,
                    format!("unknown module `{module}`"),
                )
                .with_label("no such module")
                .with_hint(format!(
                    "standard modules: {}",
                    crate::modules::standard_names().join(", ")
                )),
            )));
        };
        return Some(match m.function(name) {
            Some(f) => Ok(f.clone()),
            None => Err(cx.fail(no_function(m, name, callee.span))),
        });
    }
    if let Some(own) = cx.scope_module().and_then(|m| env.module(&m).cloned())
        && let Some(f) = own.function(text)
    {
        return Some(Ok(f.clone()));
    }
    if crate::expr::Builtin::from_name(text).is_some() {
        return None;
    }
    let found: Vec<Arc<Function>> = env
        .opened
        .iter()
        .filter_map(|m| env.module(m)?.function(text).cloned())
        .collect();
    match found.as_slice() {
        [] => None,
        [f] => Some(Ok(f.clone())),
        [a, b, ..] => Some(Err(cx.fail(
            Diagnostic::error(
                Code::Duplicate,
                callee.span,
                format!(
                    "`{text}` is a function of both {} and {}",
                    a.module, b.module
                ),
            )
            .with_hint(format!("write `{}` or `{}`", a.qualified(), b.qualified())),
        ))),
    }
}

fn no_function(m: &crate::modules::Module, name: &str, span: Span) -> Diagnostic {
    let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    let what = if m.constant(name).is_some() {
        format!("`{}.{name}` is a constant, not a function", m.name)
    } else {
        format!("module `{}` has no function `{name}`", m.name)
    };
    Diagnostic::error(Code::NotAFunction, span, what)
        .with_label("not a function of the module")
        .with_hint(format!("its functions: {}", names.join(", ")))
}

/// A name read where a quantity is expected: the scope's own names first, then (outside a
/// function body) the constants of opened modules; a dotted name is a module constant or a
/// constant of Physis.Constants.
pub(crate) fn name(cx: &mut Cx<'_>, name: &ast::Name) -> CResult<Expr> {
    if let Some((module, cname)) = name.text.rsplit_once('.') {
        if module == "Physis.Constants" {
            let plain = ast::Name {
                text: cname.to_string(),
                primes: name.primes,
                span: name.span,
            };
            if let Some(e) = physis_constant(&plain) {
                return Ok(e);
            }
        }
        let env = env();
        let found = env.module(module).map(|m| m.constant(cname).cloned());
        return match found {
            Some(Some(c)) => Ok(respan(c.value.clone(), name.span)),
            Some(None) => {
                let m = env.module(module).cloned();
                let mut d = Diagnostic::error(
                    Code::UnknownName,
                    name.span,
                    format!("module `{module}` has no constant `{cname}`"),
                )
                .with_label("not declared");
                if m.as_ref().is_some_and(|m| m.function(cname).is_some()) {
                    d = d.with_hint(format!("`{}` is a function: call it", name.text));
                }
                Err(cx.fail(d))
            }
            None if module == "Physis.Constants" => Err(cx.fail(
                Diagnostic::error(
                    Code::UnknownName,
                    name.span,
                    format!("Physis.Constants has no `{cname}`"),
                )
                .with_hint("`physis doc Physis.Constants` lists them"),
            )),
            None => Err(cx.fail(
                Diagnostic::error(
                    Code::UnknownModule,
                    name.span,
                    format!("unknown module `{module}`"),
                )
                .with_label("no such module"),
            )),
        };
    }
    if cx.scope_module().is_some() {
        return cx.resolve(name);
    }
    let mut scratch = Vec::new();
    match cx.resolve_into(name, &mut scratch) {
        Ok(e) => {
            cx.extend(scratch);
            Ok(e)
        }
        Err(r) => {
            let env = env();
            let found = (name.primes == 0)
                .then(|| {
                    env.opened
                        .iter()
                        .find_map(|m| env.module(m)?.constant(&name.text).cloned())
                })
                .flatten();
            match found {
                Some(c) => Ok(respan(c.value.clone(), name.span)),
                None => {
                    cx.extend(scratch);
                    Err(r)
                }
            }
        }
    }
}

/// A call of module function `f`: arguments checked here, the body checked with them, the
/// result located at the call.
pub(crate) fn call(cx: &mut Cx<'_>, f: &Function, args: &[ast::Expr], span: Span) -> CResult<Expr> {
    let checked: Vec<CResult<Expr>> = args.iter().map(|a| cx.expr(a)).collect();
    let checked: Vec<Expr> = checked.into_iter().collect::<CResult<_>>()?;
    let qualified = f.qualified();
    if checked.len() != f.params.len() {
        return Err(cx.fail(
            Diagnostic::error(
                Code::BadArgument,
                span,
                format!(
                    "`{qualified}` takes {} argument(s), found {}",
                    f.params.len(),
                    checked.len()
                ),
            )
            .with_hint(f.signature()),
        ));
    }
    for (a, p) in checked.iter().zip(&f.params) {
        let Some(sig) = &p.sig else { continue };
        if a.dim != sig.dim || a.shape != sig.shape {
            let found = if a.shape == Shape::Scalar {
                dim_name(a.dim)
            } else {
                format!("{} ({})", dim_name(a.dim), a.shape.describe())
            };
            let code = if a.dim != sig.dim {
                Code::WrongDimension
            } else {
                Code::ShapeMismatch
            };
            return Err(cx.fail(
                Diagnostic::error(
                    code,
                    a.span,
                    format!(
                        "`{qualified}` expects {} for `{}`, found {found}",
                        sig.describe(),
                        p.name
                    ),
                )
                .with_label(found)
                .with_hint(f.signature()),
            ));
        }
    }
    let grid = cx.grid();
    let mut inner = Vec::new();
    let result = body(f, &checked, grid, span, &mut inner);
    // One fault of the body found once per use of a parameter (`v[2]` in each row) is one
    // diagnostic at the call.
    let mut relocated: Vec<Diagnostic> = Vec::new();
    for d in inner {
        let d = relocate(f, d, span);
        if !relocated.contains(&d) {
            relocated.push(d);
        }
    }
    cx.extend(relocated);
    result.map(|e| respan(e, span))
}

/// A diagnostic found inside `f`'s body at a call, moved to the call.
fn relocate(f: &Function, d: Diagnostic, span: Span) -> Diagnostic {
    let qualified = f.qualified();
    let message = if d.message.starts_with(&format!("`{qualified}`")) {
        d.message.clone()
    } else {
        format!("in `{qualified}`: {}", d.message)
    };
    let mut out = match d.severity {
        Severity::Error => Diagnostic::error(d.code, span, message),
        _ => Diagnostic::warning(d.code, span, message),
    }
    .with_label(format!("`{qualified}` called here"));
    let place = match &f.origin {
        Origin::Standard => "the standard library".to_string(),
        Origin::ThisFile => "this file".to_string(),
        Origin::File(name) => name.clone(),
    };
    let body = f.decl.span;
    if f.origin == Origin::ThisFile
        && body.start <= d.primary.span.start
        && d.primary.span.end <= body.end
    {
        out = out.with_secondary(d.primary.span, "in the body");
    }
    out = out.with_hint(format!(
        "`{qualified}` is declared in {place}, line {}; its body is checked with the arguments of each call",
        f.line
    ));
    for h in d.hints {
        out = out.with_hint(h);
    }
    out
}

/// `f`'s body checked with `args` for its parameters; diagnostics (in the body's own text) go
/// to `diags`. The declared kind of the value is checked at `span`.
pub(crate) fn body(
    f: &Function,
    args: &[Expr],
    grid: Option<GridInfo>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> CResult<Expr> {
    let qualified = f.qualified();
    let cycle = STACK.with(|s| {
        let s = s.borrow();
        (s.contains(&qualified) || s.len() >= MAX_INLINE_DEPTH).then(|| s.join(" → "))
    });
    if let Some(chain) = cycle {
        diags.push(
            Diagnostic::error(
                Code::RecursiveFunction,
                span,
                format!("`{qualified}` is called inside its own expansion ({chain} → {qualified})"),
            )
            .with_hint("functions are inlined where they are called, so they cannot recurse"),
        );
        return Err(Reported);
    }
    STACK.with(|s| s.borrow_mut().push(qualified.clone()));
    let mut scope = FnScope { f, args, grid };
    let result = crate::types::suspended(|| {
        Cx {
            scope: &mut scope,
            diags: &mut *diags,
        }
        .expr(&f.decl.body)
    });
    STACK.with(|s| s.borrow_mut().pop());
    let e = result?;
    if let Some(ret) = &f.ret
        && (e.dim != ret.dim || e.shape != ret.shape)
    {
        let found = if e.shape == Shape::Scalar {
            dim_name(e.dim)
        } else {
            format!("{} ({})", dim_name(e.dim), e.shape.describe())
        };
        diags.push(
            Diagnostic::error(
                Code::WrongDimension,
                span,
                format!(
                    "`{qualified}` is declared to give {} but its body gives {found}",
                    ret.describe()
                ),
            )
            .with_label(found),
        );
        return Err(Reported);
    }
    Ok(e)
}

/// Names inside a function body: its parameters (the checked arguments), its module's
/// constants, Physis.Constants.
struct FnScope<'a> {
    f: &'a Function,
    args: &'a [Expr],
    grid: Option<GridInfo>,
}

impl Scope for FnScope<'_> {
    fn resolve(&mut self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> CResult<Expr> {
        let key = name.key();
        if let Some(i) = self.f.params.iter().position(|p| p.name == key) {
            return Ok(self.args[i].clone());
        }
        let env = env();
        if let Some(c) = env
            .module(&self.f.module)
            .and_then(|m| m.constant(&key).cloned())
        {
            return Ok(respan(c.value.clone(), name.span));
        }
        if let Some(e) = physis_constant(name) {
            return Ok(e);
        }
        diags.push(
            Diagnostic::error(
                Code::UnknownName,
                name.span,
                format!("unknown name `{key}`"),
            )
            .with_label("not a parameter")
            .with_hint(
                "a function reads its parameters, its module's constants and Physis.Constants",
            ),
        );
        Err(Reported)
    }

    fn grid(&self) -> Option<&GridInfo> {
        self.grid.as_ref()
    }

    fn module(&self) -> Option<&str> {
        Some(&self.f.module)
    }
}
