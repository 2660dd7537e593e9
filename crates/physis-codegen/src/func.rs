//! One IR [`Function`] to straight-line Rust: a `let` per instruction, `[f64; N]` arrays
//! for array values, and the outputs flattened into one array.
//!
//! Values that depend on parameters only are computed once per run, as the interpreter
//! folds them ([`crate::hoist`]), and read from the model's `k` array. Folding is exact except
//! for one rewrite, `a^b` with a constant exponent `b`, which the builder turns into `powi`
//! or `sqrt`; a parameter exponent therefore gets the same decision at run time
//! ([`pow_bound`]). Every scalar formula is that of `physis_ir::eval`, in the same order.

use physis_ir::{BinOp, Function, Op, ReduceOp, Source, Ty, UnOp, ValueId};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::error::GenError;
use crate::hoist::{Hoist, hoist_block, roots, static_values};
use crate::names::{f64_lit, usize_lit};

/// The inputs a generated function receives (each an array reference named as below).
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    /// `t: f64`
    pub t: bool,
    /// `h: f64`
    pub h: bool,
    /// `y: &[f64; dim]`
    pub y: bool,
    /// `f0: &[f64; dim]`
    pub f0: bool,
    /// `dw: &[f64; noises]`
    pub dw: bool,
    /// `g: &[f64; dim]` (implicit unknown)
    pub guess: bool,
    /// `r: &[f64; dim]` (dydt of conditions, observes, resets)
    pub rate: bool,
    /// `s: &[f64; dim]` (tangent seed)
    pub seed: bool,
    /// `st: &[f64]` (the implicit stages solved earlier in the step)
    pub stages: bool,
    /// Slots of `g` and `s` when not the state's (a group of stages that read each other
    /// solves `width·dim` unknowns); 0 for the state's own `dim`.
    pub unknown: usize,
}

impl Inputs {
    /// Slots of `g` and `s` in a model of `dim` state slots.
    pub(crate) fn unknown_len(&self, dim: usize) -> usize {
        if self.unknown == 0 { dim } else { self.unknown }
    }
}

impl Inputs {
    /// True when the function may read `src`.
    pub(crate) fn has(&self, src: Source) -> bool {
        match src {
            Source::T => self.t,
            Source::H => self.h,
            Source::State => self.y,
            Source::F0 => self.f0,
            Source::Dw => self.dw,
            Source::Guess => self.guess,
            Source::Rate => self.rate,
            Source::Seed => self.seed,
            Source::Stages => self.stages,
            // Params are hoisted; noise reads as zero (as in the interpreter).
            Source::Param | Source::Noise => true,
        }
    }
}

/// The body of a generated function: statements ending in the `[f64; N]` of its outputs.
/// Hoisted values are read from `k`, a parameter of the function.
pub fn body(f: &Function, inputs: Inputs, hoist: &mut Hoist) -> Result<TokenStream, GenError> {
    let stat = static_values(f);
    let root = roots(f, &stat);
    // Every intermediate of `bind` is a local here: a small model's arrays are short.
    let slots = hoist_block(f, &stat, &root, hoist, usize::MAX)?;
    let mut stmts = Vec::new();
    for (i, inst) in f.insts.iter().enumerate() {
        let v = format_ident!("v{}", i);
        if let Some(slot) = slots[i] {
            let e = match inst.ty {
                Ty::Scalar => {
                    let s = usize_lit(slot);
                    quote!(k[#s])
                }
                Ty::Array(len) => {
                    let items = (slot..slot + len as usize).map(usize_lit);
                    quote!([#(k[#items]),*])
                }
            };
            stmts.push(quote!(let #v = #e;));
            continue;
        }
        if stat[i] {
            continue;
        }
        match (&inst.op, inst.ty) {
            (Op::Load(src, _), _) if !inputs.has(*src) => {
                return Err(GenError::Input {
                    function: f.name.clone(),
                    input: format!("{src:?}"),
                });
            }
            (Op::Load(..), _) => {}
            (Op::LoadRange(src, _, _), _) if !inputs.has(*src) => {
                return Err(GenError::Input {
                    function: f.name.clone(),
                    input: format!("{src:?}"),
                });
            }
            (op, Ty::Scalar) => {
                let e = scalar_expr(f, op, &|v| operand(f, v, &slots), &stat)?;
                stmts.push(quote!(let #v = #e;));
            }
            (op, Ty::Array(len)) => {
                let e = array_expr(f, op, len, &|v| operand(f, v, &slots), &stat)?;
                let l = usize_lit(len as usize);
                stmts.push(quote!(let #v: [f64; #l] = #e;));
            }
        }
    }
    let mut outs = Vec::new();
    for v in &f.outputs {
        match f.ty(*v) {
            Ty::Scalar => outs.push(operand(f, *v, &slots)),
            Ty::Array(len) => {
                let a = operand(f, *v, &slots);
                for j in 0..len as usize {
                    let j = usize_lit(j);
                    outs.push(quote!(#a[#j]));
                }
            }
        }
    }
    Ok(quote! {
        #(#stmts)*
        [#(#outs),*]
    })
}

/// An operand in a function body: constants and scalar loads inline, the rest by name.
fn operand(f: &Function, v: ValueId, slots: &[Option<usize>]) -> TokenStream {
    let i = v.index();
    if slots[i].is_some() {
        let id = format_ident!("v{}", i);
        return quote!(#id);
    }
    match f.insts[i].op {
        Op::Const(bits) => f64_lit(f64::from_bits(bits)),
        Op::Load(src, k) => load(src, k),
        _ => {
            let id = format_ident!("v{}", i);
            quote!(#id)
        }
    }
}

pub(crate) fn load(src: Source, k: u32) -> TokenStream {
    let k = usize_lit(k as usize);
    match src {
        Source::T => quote!(t),
        Source::H => quote!(h),
        Source::State => quote!(y[#k]),
        Source::F0 => quote!(f0[#k]),
        Source::Param => quote!(p[#k]),
        Source::Dw => quote!(dw[#k]),
        Source::Guess => quote!(g[#k]),
        Source::Rate => quote!(r[#k]),
        Source::Seed => quote!(s[#k]),
        Source::Stages => quote!(st[#k]),
        // Noise reads as zero, as in the interpreter.
        Source::Noise => quote!(0.0f64),
    }
}

pub(crate) type Opd<'a> = dyn Fn(ValueId) -> TokenStream + 'a;

/// A scalar operation. `stat` marks static operands (for the exponent rule of `Pow`).
pub(crate) fn scalar_expr(
    f: &Function,
    op: &Op,
    opd: &Opd<'_>,
    stat: &[bool],
) -> Result<TokenStream, GenError> {
    Ok(match op {
        Op::Const(bits) => f64_lit(f64::from_bits(*bits)),
        Op::Load(src, k) => load(*src, *k),
        Op::Unary(o, a) => unary(*o, opd(*a)),
        Op::Binary(BinOp::Pow, a, b) if bound_exponent(f, *b, stat) => pow_bound(opd(*a), opd(*b)),
        Op::Binary(o, a, b) => binary(*o, opd(*a), opd(*b)),
        Op::Powi(a, n) => {
            let a = opd(*a);
            powi(a, *n)
        }
        Op::Select(c, a, b) => select(opd(*c), opd(*a), opd(*b)),
        Op::Index(a, k) => {
            let (a, k) = (opd(*a), usize_lit(*k as usize));
            quote!(#a[#k])
        }
        Op::Reduce(r, a) => {
            let a = opd(*a);
            // The runtime's kernel, so both back ends reduce in the same order.
            let r = match r {
                ReduceOp::Sum => quote!(Sum),
                ReduceOp::Mean => quote!(Mean),
                ReduceOp::MaxAbs => quote!(MaxAbs),
            };
            quote!(::physis_runtime::kernels::reduce(
                ::physis_runtime::kernels::ReduceOp::#r,
                &#a
            ))
        }
        Op::PickMaxAbs(u, du) => {
            let (u, du) = (opd(*u), opd(*du));
            quote!(::physis_runtime::kernels::pick_max_abs(&#u, &#du))
        }
        // Array-valued operations never have a scalar type.
        other @ (Op::LoadRange(..)
        | Op::Pack(_)
        | Op::Splat(..)
        | Op::Gather(..)
        | Op::Stencil(_)
        | Op::Solve(..)) => return Err(unsupported(format!("the scalar operation {other:?}"))),
    })
}

/// An array operation of length `len`, elementwise with scalars broadcast.
pub(crate) fn array_expr(
    f: &Function,
    op: &Op,
    len: u32,
    opd: &Opd<'_>,
    stat: &[bool],
) -> Result<TokenStream, GenError> {
    let elem = |v: ValueId| {
        let a = opd(v);
        match f.ty(v) {
            Ty::Scalar => a,
            Ty::Array(_) => quote!(#a[i]),
        }
    };
    let each = |e: TokenStream| quote!(::std::array::from_fn(|i| #e));
    Ok(match op {
        Op::LoadRange(src, off, n) => {
            let items = (*off..off + n).map(|k| load(*src, k));
            quote!([#(#items),*])
        }
        Op::Unary(o, a) => each(unary(*o, elem(*a))),
        Op::Binary(BinOp::Pow, a, b) if bound_exponent(f, *b, stat) => {
            each(pow_bound(elem(*a), elem(*b)))
        }
        Op::Binary(o, a, b) => each(binary(*o, elem(*a), elem(*b))),
        Op::Powi(a, n) => {
            let a = elem(*a);
            each(powi(a, *n))
        }
        Op::Select(c, a, b) => each(select(elem(*c), elem(*a), elem(*b))),
        Op::Pack(vs) => {
            let items = vs.iter().map(|v| opd(*v));
            quote!([#(#items),*])
        }
        Op::Splat(s, _) => {
            let (s, n) = (opd(*s), usize_lit(len as usize));
            quote!([#s; #n])
        }
        Op::Gather(a, ks) => {
            let a = opd(*a);
            let ks = ks.iter().map(|k| usize_lit(*k as usize));
            quote!([#(#a[#ks]),*])
        }
        Op::Solve(m, b) => solve(opd(*m), opd(*b)),
        Op::Stencil(_) => return Err(unsupported("stencils over grid fields".into())),
        // Scalar-valued operations never have an array type.
        other @ (Op::Const(_)
        | Op::Load(..)
        | Op::Index(..)
        | Op::Reduce(..)
        | Op::PickMaxAbs(..)) => return Err(unsupported(format!("the array operation {other:?}"))),
    })
}

/// True when `b` is a parameter-only scalar (not already a constant): binding would make
/// it a constant and the builder would choose `powi`/`sqrt`/`powf` from its value.
pub(crate) fn bound_exponent(f: &Function, b: ValueId, stat: &[bool]) -> bool {
    stat.get(b.index()).copied().unwrap_or(false)
        && f.ty(b) == Ty::Scalar
        && !matches!(f.insts[b.index()].op, Op::Const(_))
}

/// `a^b` as the builder folds it once `b` is known (`scalar::pow_known`, the builder's rule).
pub(crate) fn pow_bound(a: TokenStream, b: TokenStream) -> TokenStream {
    quote!(::physis_runtime::scalar::pow_known(#a, #b))
}

/// `x` with `M·x = b` by the runtime's `scalar::solve_in_place` (the interpreter's solver)
/// on stack copies of `M` and `b`.
fn solve(m: TokenStream, b: TokenStream) -> TokenStream {
    quote!({
        let mut a = #m;
        let mut x = #b;
        ::physis_runtime::scalar::solve_in_place(&mut a, &mut x);
        x
    })
}

/// `op a`: a call of the operation's function in `physis_runtime::scalar`, where its
/// meaning is written once for every back end.
pub(crate) fn unary(op: UnOp, a: TokenStream) -> TokenStream {
    let f = quote::format_ident!("{}", op.name());
    quote!(::physis_runtime::scalar::#f(#a))
}

/// `aⁿ` for a whole `n`, by `physis_runtime::scalar::powi`.
pub(crate) fn powi(a: TokenStream, n: i32) -> TokenStream {
    quote!(::physis_runtime::scalar::powi(#a, #n))
}

/// `c ≠ 0 ? a : b`, by `physis_runtime::scalar::select`.
pub(crate) fn select(c: TokenStream, a: TokenStream, b: TokenStream) -> TokenStream {
    quote!(::physis_runtime::scalar::select(#c, #a, #b))
}

/// `a op b`, likewise a call into `physis_runtime::scalar`.
pub(crate) fn binary(op: BinOp, a: TokenStream, b: TokenStream) -> TokenStream {
    let f = quote::format_ident!("{}", op.name());
    quote!(::physis_runtime::scalar::#f(#a, #b))
}

fn unsupported(what: String) -> GenError {
    GenError::Unsupported { what }
}
