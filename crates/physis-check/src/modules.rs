//! Modules: `module A.B { fn ..., const ..., scheme ... }` declared in the file being checked,
//! in a file beside it (`open Motors` reads `Motors.hph`), or shipped with the language (the
//! standard library, `stdlib.hph`: Physis.Electromechanics, Physis.Mechanics,
//! Physis.Thermal).
//!
//! A function is not compiled: its body is kept as syntax and checked again at every call with
//! the arguments' dimensions and shapes, then inlined ([`crate::inline`]). So a parameter
//! without a kind is dimension-polymorphic, and the symbolic layer, lowering and both back ends
//! see only the checked expression forms they already know. Constants are checked once.
//! Schemes are checked like top-level ones and named `Module.scheme` (and `scheme` once
//! opened).

use crate::expr::{Expr, ExprKind, Shape};
use crate::infer::{CResult, Cx, Reported, Scope};
use crate::model::CheckedScheme;
use physis_syntax::ast::{self, File, Item, ModuleDecl, ModuleItem, TypeExpr};
use physis_syntax::{Code, Diagnostic, LineIndex, Span};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use units::Dimension;

/// The text of the standard library.
pub const STDLIB: &str = include_str!("stdlib.hph");

/// Most module files one check reads (directly or through other module files).
pub const MAX_MODULE_FILES: usize = 32;

/// Modules always in scope that hold no functions (`open` of them is accepted and does
/// nothing more).
const BUILTIN_MODULES: &[&str] = &["Physis.Constants", "Physis.Schemes"];

/// Where a module was declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The standard library shipped with the language.
    Standard,
    /// The file being checked.
    ThisFile,
    /// Another file, by the name diagnostics show.
    File(String),
}

/// A declared kind and size: `Voltage`, `Dimensionless[4]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sig {
    /// The kind as written.
    pub kind: String,
    /// Its dimension.
    pub dim: Dimension,
    /// Its shape.
    pub shape: Shape,
}

impl Sig {
    /// `Voltage` or `Dimensionless[4]`.
    pub fn describe(&self) -> String {
        match self.shape {
            Shape::Vector(n) => format!("{}[{n}]", self.kind),
            _ => self.kind.clone(),
        }
    }
}

/// A function parameter: its name and, when declared, its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSig {
    /// The name.
    pub name: String,
    /// The declared kind; `None` takes any dimension and shape.
    pub sig: Option<Sig>,
}

/// A module function.
#[derive(Clone, Debug)]
pub struct Function {
    /// The module's dotted name.
    pub module: String,
    /// The function's own name.
    pub name: String,
    /// Its parameters in order.
    pub params: Vec<ParamSig>,
    /// Its declared value kind.
    pub ret: Option<Sig>,
    /// The comment above its declaration.
    pub doc: Option<String>,
    /// Where it was declared.
    pub origin: Origin,
    /// Its line in the text it was declared in (from 1).
    pub line: u32,
    /// The declaration, checked at every call.
    pub decl: ast::FnDecl,
}

impl Function {
    /// `Module.name`.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.module, self.name)
    }

    /// `motorSpeed(k : TorqueConstant, V : Voltage) : AngularVelocity`, with SI units.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| match &p.sig {
                Some(s) => format!("{} : {}", p.name, with_unit(s)),
                None => format!("{} (any kind)", p.name),
            })
            .collect();
        let ret = self
            .ret
            .as_ref()
            .map(|s| format!(" : {}", with_unit(s)))
            .unwrap_or_default();
        format!("{}({}){ret}", self.name, params.join(", "))
    }
}

/// `Voltage [kg·m²·s⁻³·A⁻¹]`.
fn with_unit(s: &Sig) -> String {
    if s.dim.is_dimensionless() {
        s.describe()
    } else {
        format!("{} [{}]", s.describe(), s.dim)
    }
}

/// A module constant, checked once.
#[derive(Clone, Debug)]
pub struct Constant {
    /// Its name.
    pub name: String,
    /// Its value in SI base units.
    pub value: Expr,
    /// The comment above its declaration.
    pub doc: Option<String>,
}

/// A module: its functions, constants and schemes.
#[derive(Clone, Debug)]
pub struct Module {
    /// The dotted name.
    pub name: String,
    /// Where it was declared.
    pub origin: Origin,
    /// The comment above the module.
    pub doc: Option<String>,
    /// Functions in source order.
    pub functions: Vec<Arc<Function>>,
    /// Constants in source order.
    pub constants: Vec<Arc<Constant>>,
    /// Schemes in source order, named `Module.scheme`.
    pub schemes: Vec<Arc<CheckedScheme>>,
    /// The declaration's span in its own text.
    pub span: Span,
}

impl Module {
    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Arc<Function>> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The constant named `name`.
    pub fn constant(&self, name: &str) -> Option<&Arc<Constant>> {
        self.constants.iter().find(|c| c.name == name)
    }
}

/// The comment lines written just above `offset` in `source`, joined by spaces.
pub(crate) fn comment_above(source: &str, offset: usize) -> Option<String> {
    let before = source.get(..offset)?;
    let mut lines: Vec<&str> = before
        .lines()
        .rev()
        .skip(usize::from(!before.ends_with('\n')))
        .map_while(|l| l.trim().strip_prefix("//"))
        .map(str::trim)
        .collect();
    lines.reverse();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// The kind and size of a declared type (PH0206 for an unknown kind).
fn sig_of(ty: &TypeExpr, diags: &mut Vec<Diagnostic>) -> Option<Sig> {
    let Some(dim) = units::kind(&ty.kind.text) else {
        diags.push(
            Diagnostic::error(
                Code::UnknownKind,
                ty.kind.span,
                format!("unknown quantity kind `{}`", ty.kind.text),
            )
            .with_label("not a kind"),
        );
        return None;
    };
    let shape = match ty.extents.as_slice() {
        [] => Shape::Scalar,
        [ast::Extent::Number(n, _)] if *n >= 1.0 && n.fract() == 0.0 && *n <= 1e8 => {
            Shape::Vector(*n as usize)
        }
        _ => {
            diags.push(Diagnostic::error(
                Code::ShapeMismatch,
                ty.span,
                "a function parameter has one literal size, e.g. `Length[3]`",
            ));
            return None;
        }
    };
    Some(Sig {
        kind: ty.kind.text.clone(),
        dim,
        shape,
    })
}

/// A module's declarations checked (first pass): signatures, constants, schemes and duplicate
/// names. Bodies are checked by [`check_bodies`] once every module is known.
fn declare_module(
    decl: &ModuleDecl,
    source: &str,
    origin: Origin,
    diags: &mut Vec<Diagnostic>,
) -> Module {
    let name = decl.name();
    let lines = LineIndex::new(source);
    let mut module = Module {
        doc: comment_above(source, decl.span.start as usize),
        name: name.clone(),
        origin: origin.clone(),
        functions: Vec::new(),
        constants: Vec::new(),
        schemes: Vec::new(),
        span: decl.span,
    };
    let mut seen: Vec<(String, Span)> = Vec::new();
    for item in &decl.items {
        let item_name = match item {
            ModuleItem::Fn(f) => &f.name,
            ModuleItem::Const(c) => &c.name,
            ModuleItem::Scheme(s) => &s.name,
        };
        let key = item_name.key();
        if let Some((_, prev)) = seen.iter().find(|(k, _)| *k == key) {
            diags.push(
                Diagnostic::error(
                    Code::Duplicate,
                    item_name.span,
                    format!("`{key}` is declared twice in module `{name}`"),
                )
                .with_secondary(*prev, "first declared here"),
            );
            continue;
        }
        seen.push((key.clone(), item_name.span));
        match item {
            ModuleItem::Fn(f) => {
                let mut params: Vec<ParamSig> = Vec::new();
                for p in &f.params {
                    if params.iter().any(|q| q.name == p.name.key()) {
                        diags.push(Diagnostic::error(
                            Code::Duplicate,
                            p.name.span,
                            format!("parameter `{}` is declared twice", p.name.key()),
                        ));
                    }
                    let sig = p.ty.as_ref().and_then(|t| sig_of(t, diags));
                    params.push(ParamSig {
                        name: p.name.key(),
                        sig,
                    });
                }
                let ret = f.ret.as_ref().and_then(|t| sig_of(t, diags));
                module.functions.push(Arc::new(Function {
                    module: name.clone(),
                    name: key,
                    params,
                    ret,
                    doc: comment_above(source, f.span.start as usize),
                    origin: origin.clone(),
                    line: lines.line(f.span.start as usize),
                    decl: f.clone(),
                }));
            }
            ModuleItem::Const(c) => {
                let mut scope = ConstScope {
                    constants: &module.constants,
                };
                let value = Cx {
                    scope: &mut scope,
                    diags,
                }
                .expr(&c.value);
                if let Ok(value) = value {
                    module.constants.push(Arc::new(Constant {
                        name: key,
                        value,
                        doc: comment_above(source, c.span.start as usize),
                    }));
                }
            }
            ModuleItem::Scheme(s) => {
                let mut scheme = crate::scheme::check_scheme(s, false, diags);
                scheme.name = format!("{name}.{}", scheme.name);
                module.schemes.push(Arc::new(scheme));
            }
        }
    }
    module
}

/// Constants read earlier constants of their module and Physis.Constants.
struct ConstScope<'a> {
    constants: &'a [Arc<Constant>],
}

impl Scope for ConstScope<'_> {
    fn resolve(&mut self, name: &ast::Name, diags: &mut Vec<Diagnostic>) -> CResult<Expr> {
        let key = name.key();
        if let Some(c) = self.constants.iter().find(|c| c.name == key) {
            return Ok(crate::inline::respan(c.value.clone(), name.span));
        }
        if let Some(e) = physis_constant(name) {
            return Ok(e);
        }
        diags.push(
            Diagnostic::error(Code::UnknownName, name.span, format!("unknown name `{key}`"))
                .with_label("not declared")
                .with_hint("a module constant reads literals, earlier constants of its module and Physis.Constants"),
        );
        Err(Reported)
    }
}

/// A name of Physis.Constants (`g0`), as a leaf.
pub(crate) fn physis_constant(name: &ast::Name) -> Option<Expr> {
    if name.primes > 0 {
        return None;
    }
    let (cname, value, dim) = crate::constants::lookup(&name.text)?;
    Some(Expr {
        kind: ExprKind::Constant { name: cname, value },
        dim,
        shape: Shape::Scalar,
        span: name.span,
    })
}

/// Second pass over a module: recursion, and the bodies of functions whose parameters all
/// have kinds (checked once with those kinds; the others are checked at each call).
fn check_bodies(module: &Module, diags: &mut Vec<Diagnostic>) {
    for f in &module.functions {
        if let Some(cycle) = recursion(module, f) {
            diags.push(
                Diagnostic::error(
                    Code::RecursiveFunction,
                    f.decl.name.span,
                    format!("`{}` calls itself: {}", f.name, cycle.join(" → ")),
                )
                .with_label("recursive")
                .with_hint("functions are inlined where they are called, so they cannot recurse"),
            );
            continue;
        }
        let typed: Option<Vec<Expr>> = f
            .params
            .iter()
            .zip(&f.decl.params)
            .map(|(p, d)| {
                p.sig.as_ref().map(|s| Expr {
                    kind: ExprKind::Const(1.0),
                    dim: s.dim,
                    shape: s.shape,
                    span: d.name.span,
                })
            })
            .collect();
        if let Some(args) = typed {
            // Diagnostics here are located in the module's own text.
            let _ = crate::inline::body(f, &args, None, f.decl.body.span, diags);
        }
    }
}

/// The chain of calls by which `f` reaches itself within its module, if any.
fn recursion(module: &Module, f: &Function) -> Option<Vec<String>> {
    fn callees(module: &Module, e: &ast::Expr, out: &mut Vec<String>) {
        use ast::ExprKind as K;
        match &e.kind {
            K::Call { callee, args } => {
                let text = callee.text.as_str();
                let own = text
                    .strip_prefix(module.name.as_str())
                    .and_then(|r| r.strip_prefix('.'))
                    .unwrap_or(text);
                if module.function(own).is_some() && !out.iter().any(|o| o == own) {
                    out.push(own.to_string());
                }
                for a in args {
                    callees(module, a, out);
                }
            }
            K::Unary { operand, .. } => callees(module, operand, out),
            K::Binary { lhs, rhs, .. } => {
                callees(module, lhs, out);
                callees(module, rhs, out);
            }
            K::Power { base, exponent } => {
                callees(module, base, out);
                callees(module, exponent, out);
            }
            K::Index { base, indices } => {
                callees(module, base, out);
                for i in indices {
                    callees(module, i, out);
                }
            }
            K::Vector(items) => {
                for i in items {
                    callees(module, i, out);
                }
            }
            K::Sum(sum) => {
                let parts = [
                    Some(&sum.from),
                    Some(&sum.to),
                    sum.filter.as_ref(),
                    Some(&sum.body),
                ];
                for part in parts.into_iter().flatten() {
                    callees(module, part, out);
                }
            }
            K::Range { from, to } => {
                callees(module, from, out);
                callees(module, to, out);
            }
            K::Number { .. } | K::Name(_) | K::Error => {}
        }
    }
    fn walk(module: &Module, name: &str, path: &mut Vec<String>, target: &str) -> bool {
        let Some(f) = module.function(name) else {
            return false;
        };
        let mut next = Vec::new();
        callees(module, &f.decl.body, &mut next);
        for n in next {
            if n == target {
                path.push(n);
                return true;
            }
            if path.contains(&n) || path.len() > 64 {
                continue;
            }
            path.push(n.clone());
            if walk(module, &n, path, target) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = vec![f.name.clone()];
    walk(module, &f.name, &mut path, &f.name).then_some(path)
}

/// The standard library's modules, parsed and declared once per process.
///
/// Declared, not checked: checking every body of the library took most of a `physis run`'s
/// start (135 ms of 139 in a debug build) and produces nothing but diagnostics, which the
/// library's own test demands be none ([`standard_with_diagnostics`]). A body is checked
/// anyway, with the call's own kinds, wherever a model calls it.
pub fn standard() -> &'static [Arc<Module>] {
    static STD: OnceLock<Vec<Arc<Module>>> = OnceLock::new();
    STD.get_or_init(|| {
        STANDARD_DECLARED.fetch_add(1, Ordering::Relaxed);
        // Its nodes have the library's spans: keep them out of a type table being recorded.
        crate::types::suspended(|| declare_standard(&mut Vec::new()))
    })
}

/// How many times this process declared the standard library for [`standard`] (one at
/// most: a test holds it to that).
static STANDARD_DECLARED: AtomicUsize = AtomicUsize::new(0);

/// How many times [`standard`] has declared the standard library in this process: 0 before
/// its first call, 1 after, however many checks ran.
pub fn standard_declarations() -> usize {
    STANDARD_DECLARED.load(Ordering::Relaxed)
}

/// Parse and declare the standard library's modules (signatures, constants, schemes),
/// adding the problems found to `diags`.
fn declare_standard(diags: &mut Vec<Diagnostic>) -> Vec<Arc<Module>> {
    let parsed = physis_syntax::parse(STDLIB);
    diags.extend(parsed.diagnostics);
    parsed
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Module(m) => Some(Arc::new(declare_module(m, STDLIB, Origin::Standard, diags))),
            _ => None,
        })
        .collect()
}

/// Parse, declare and check the standard library, bodies included, returning its
/// diagnostics too (a test demands none).
pub fn standard_with_diagnostics() -> (Vec<Arc<Module>>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let modules = declare_standard(&mut diags);
    let env = Env {
        modules: modules.clone(),
        opened: Vec::new(),
    };
    // The library's bodies have the library's spans: keep them out of a type table being
    // recorded for another text.
    crate::types::suspended(|| {
        with_env(env, || {
            for m in &modules {
                check_bodies(m, &mut diags);
            }
        })
    });
    (modules, diags)
}

/// The standard module named `name`.
pub fn standard_module(name: &str) -> Option<&'static Arc<Module>> {
    standard().iter().find(|m| m.name == name)
}

/// `physis doc`'s text for a standard module (or Physis.Constants): each function's signature
/// with SI units and its documentation.
pub fn doc(name: &str) -> Option<String> {
    use std::fmt::Write;
    let mut out = String::new();
    if name == "Physis.Constants" {
        let _ = writeln!(out, "module Physis.Constants (always in scope)\n");
        for c in crate::constants::names() {
            if let Some((_, value, dim)) = crate::constants::lookup(c) {
                let _ = writeln!(out, "  {c} = {value:e} {dim}");
            }
        }
        return Some(out);
    }
    let m = standard_module(name)?;
    let _ = writeln!(out, "module {}", m.name);
    if let Some(d) = &m.doc {
        let _ = writeln!(out, "  {d}");
    }
    for c in &m.constants {
        let _ = writeln!(
            out,
            "\nconst {} = {:e} {}",
            c.name,
            value_of(&c.value),
            c.value.dim
        );
        if let Some(d) = &c.doc {
            let _ = writeln!(out, "  {d}");
        }
    }
    for f in &m.functions {
        let _ = writeln!(out, "\nfn {}", f.signature());
        if let Some(d) = &f.doc {
            let _ = writeln!(out, "  {d}");
        }
    }
    Some(out)
}

fn value_of(e: &Expr) -> f64 {
    match crate::eval::constant(e) {
        Some(crate::Value::Scalar(x)) => x,
        _ => f64::NAN,
    }
}

/// The names of the standard modules.
pub fn standard_names() -> Vec<&'static str> {
    standard().iter().map(|m| m.name.as_str()).collect()
}

/// Where `open Name` finds module files that are neither in the checked file nor standard.
pub trait ModuleFiles {
    /// The text of the file holding module `name` and the name diagnostics show for it;
    /// `None` when there is no such file, `Some(Err(why))` when it cannot be read.
    fn read(&self, name: &str) -> Option<Result<(String, String), String>>;
}

/// No module files: only the checked file's own modules and the standard library.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl ModuleFiles for NoFiles {
    fn read(&self, _name: &str) -> Option<Result<(String, String), String>> {
        None
    }
}

/// Module files in one folder: `open Motors` reads `Motors.hph` there, `open Lab.Motors`
/// reads `Lab/Motors.hph`; each file is read once, bounded by the source size limit.
#[derive(Clone, Debug)]
pub struct FilesIn {
    /// The folder.
    pub dir: PathBuf,
}

impl FilesIn {
    /// The folder of the model file named `file` (the current folder for a bare name).
    pub fn beside(file: &Path) -> FilesIn {
        let dir = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        FilesIn { dir }
    }
}

impl ModuleFiles for FilesIn {
    fn read(&self, name: &str) -> Option<Result<(String, String), String>> {
        let mut path = self.dir.clone();
        for part in name.split('.') {
            path.push(part);
        }
        path.set_extension("hph");
        if !path.is_file() {
            return None;
        }
        let shown = path.display().to_string();
        let bytes = match physis_syntax::read_source_bytes(&path) {
            Ok(b) => b,
            Err(e) => return Some(Err(format!("cannot read {shown}: {e}"))),
        };
        let (text, bad) = physis_syntax::decode_source(&bytes);
        if let Some(d) = bad {
            return Some(Err(format!("{shown}: {}", d.message)));
        }
        Some(Ok((shown, text)))
    }
}

/// What name resolution sees while a file is checked: every known module and the ones the
/// file opened.
#[derive(Clone, Debug, Default)]
pub(crate) struct Env {
    pub modules: Vec<Arc<Module>>,
    pub opened: Vec<String>,
}

thread_local! {
    static ENV: RefCell<Option<Rc<Env>>> = const { RefCell::new(None) };
}

/// Run `f` with `env` as the modules in scope (the previous ones come back after).
pub(crate) fn with_env<R>(env: Env, f: impl FnOnce() -> R) -> R {
    let previous = ENV.with(|e| e.borrow_mut().replace(Rc::new(env)));
    let out = f();
    ENV.with(|e| *e.borrow_mut() = previous);
    out
}

/// The modules in scope.
pub(crate) fn env() -> Rc<Env> {
    ENV.with(|e| e.borrow().clone()).unwrap_or_default()
}

impl Env {
    /// The module named `name`.
    pub fn module(&self, name: &str) -> Option<&Arc<Module>> {
        self.modules.iter().find(|m| m.name == name)
    }
}

/// What checking a file's modules and opens produced.
pub(crate) struct Resolved {
    pub env: Env,
    /// Schemes of modules: every one as `Module.scheme`, opened ones also by their own name.
    pub schemes: Vec<Arc<CheckedScheme>>,
}

/// Check the file's own modules, read the module files its `open`s name and resolve the
/// opens. Diagnostics in another file are reported at the `open` that reads it.
pub(crate) fn resolve(
    file: &File,
    source: &str,
    files: &dyn ModuleFiles,
    diags: &mut Vec<Diagnostic>,
) -> Resolved {
    let mut loader = Loader {
        files,
        modules: standard().to_vec(),
        loading: Vec::new(),
        read: 0,
    };
    // The file's own modules first, so that an open of one needs no file.
    let mut own = Vec::new();
    for item in &file.items {
        if let Item::Module(decl) = item {
            let m = declare_module(decl, source, Origin::ThisFile, diags);
            if let Some(prev) = loader.modules.iter().find(|p| p.name == m.name) {
                let mut d = Diagnostic::error(
                    Code::Duplicate,
                    decl.path[0].span.to(decl.path[decl.path.len() - 1].span),
                    format!("module `{}` is declared twice", m.name),
                );
                d = match prev.origin {
                    Origin::ThisFile => d.with_secondary(prev.span, "first declared here"),
                    _ => d.with_hint("the standard library already has a module of that name"),
                };
                diags.push(d);
                continue;
            }
            let m = Arc::new(m);
            loader.modules.push(m.clone());
            own.push(m);
        }
    }
    let mut opened = Vec::new();
    for item in &file.items {
        let Item::Open(open) = item else { continue };
        let parts: Vec<&str> = open.path.iter().map(|n| n.text.as_str()).collect();
        let name = parts.join(".");
        if BUILTIN_MODULES.contains(&name.as_str()) {
            continue;
        }
        match loader.find(&name) {
            Ok(true) => opened.push(name),
            Ok(false) => diags.push(
                Diagnostic::warning(
                    Code::UnknownModule,
                    open.span,
                    format!("unknown module `{name}`; nothing is opened"),
                )
                .with_hint(format!(
                    "known: Physis.Constants, Physis.Schemes, {}; a module of your own is declared \
                     with `module {name} {{ ... }}` in this file or in {}.hph beside it",
                    standard_names().join(", "),
                    name.replace('.', "/")
                )),
            ),
            Err(problems) => {
                for p in problems {
                    diags.push(
                        Diagnostic::error(Code::ModuleFile, open.span, p)
                            .with_label(format!("module `{name}` opened here")),
                    );
                }
            }
        }
    }
    let env = Env {
        modules: loader.modules,
        opened,
    };
    let env = with_env(env.clone(), || {
        for m in &own {
            check_bodies(m, diags);
        }
        env
    });
    let mut schemes = Vec::new();
    for m in &env.modules {
        schemes.extend(m.schemes.iter().cloned());
        if env.opened.contains(&m.name) {
            for s in &m.schemes {
                let mut plain = (**s).clone();
                plain.name = s.name[m.name.len() + 1..].to_string();
                schemes.push(Arc::new(plain));
            }
        }
    }
    Resolved { env, schemes }
}

/// The modules a check of `source` sees (the standard library, the file's own, and those its
/// `open`s read from `files`) and the names it opens, for an editor's completion; problems
/// are left to the check.
pub fn visible(source: &str, files: &dyn ModuleFiles) -> (Vec<Arc<Module>>, Vec<String>) {
    let parsed = physis_syntax::parse(source);
    let mut ignored = Vec::new();
    let resolved = resolve(&parsed.file, source, files, &mut ignored);
    (resolved.env.modules, resolved.env.opened)
}

/// Reads module files for one check.
struct Loader<'a> {
    files: &'a dyn ModuleFiles,
    modules: Vec<Arc<Module>>,
    /// Module files being read, for cycles.
    loading: Vec<String>,
    read: usize,
}

impl Loader<'_> {
    /// Whether module `name` is known, reading its file when needed; `Err` with the problems
    /// found in or on the way to its file.
    fn find(&mut self, name: &str) -> Result<bool, Vec<String>> {
        if self.modules.iter().any(|m| m.name == name) {
            return Ok(true);
        }
        if self.loading.iter().any(|l| l == name) {
            let mut chain = self.loading.clone();
            chain.push(name.to_string());
            return Err(vec![format!(
                "module files open each other in a cycle: {}",
                chain.join(" → ")
            )]);
        }
        let Some(read) = self.files.read(name) else {
            return Ok(false);
        };
        let (shown, text) = read.map_err(|e| vec![e])?;
        self.read += 1;
        if self.read > MAX_MODULE_FILES {
            return Err(vec![format!(
                "more than {MAX_MODULE_FILES} module files are opened; {shown} is not read"
            )]);
        }
        self.loading.push(name.to_string());
        let result = self.load(name, &shown, &text);
        self.loading.pop();
        result
    }

    fn load(&mut self, name: &str, shown: &str, text: &str) -> Result<bool, Vec<String>> {
        let parsed = physis_syntax::parse(text);
        let mut diags = parsed.diagnostics;
        let mut problems = Vec::new();
        let mut opened = Vec::new();
        for item in &parsed.file.items {
            if let Item::Open(open) = item {
                let parts: Vec<&str> = open.path.iter().map(|n| n.text.as_str()).collect();
                let other = parts.join(".");
                if BUILTIN_MODULES.contains(&other.as_str()) {
                    continue;
                }
                match self.find(&other) {
                    Ok(true) => opened.push(other),
                    Ok(false) => problems.push(format!("{shown}: unknown module `{other}`")),
                    Err(p) => problems.extend(p),
                }
            }
        }
        let mut found = false;
        let mut mine = Vec::new();
        for item in &parsed.file.items {
            if let Item::Module(decl) = item {
                let m = declare_module(decl, text, Origin::File(shown.to_string()), &mut diags);
                if self.modules.iter().any(|p| p.name == m.name) {
                    problems.push(format!("{shown}: module `{}` is declared twice", m.name));
                    continue;
                }
                found |= m.name == name;
                let m = Arc::new(m);
                self.modules.push(m.clone());
                mine.push(m);
            }
        }
        let env = Env {
            modules: self.modules.clone(),
            opened,
        };
        with_env(env, || {
            for m in &mine {
                check_bodies(m, &mut diags);
            }
        });
        let lines = LineIndex::new(text);
        for d in diags.iter().filter(|d| d.is_error()) {
            let at = lines.line_col(text, d.primary.span.start as usize);
            problems.push(format!(
                "{shown}:{}:{}: {} {}",
                at.line,
                at.column,
                d.code.as_str(),
                d.message
            ));
        }
        if !found && problems.is_empty() {
            problems.push(format!("{shown} declares no module `{name}`"));
        }
        if problems.is_empty() {
            Ok(true)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests;
