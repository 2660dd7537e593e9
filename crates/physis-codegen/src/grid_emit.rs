//! The statements of one grid-model function: where each value lives ([`Place`]: a
//! constant, an input read in place, a stack local, a heap buffer `b` or `k`) and the
//! code computing it there with the interpreter's formulas and the runtime's kernels.

use physis_ir::{Bc, Function, Op, ReduceOp, Source, Stencil, StencilOp, Ty, ValueId};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::error::GenError;
use crate::func;
use crate::grid_func::runs;
use crate::names::{f64_lit, usize_lit};

/// The two heap buffers: the work registers `b` and the hoisted values `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Buf {
    B,
    K,
}

impl Buf {
    fn name(self) -> TokenStream {
        match self {
            Buf::B => quote!(b),
            Buf::K => quote!(k),
        }
    }
}

/// Where a value is read from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// Not available here (a static value only static code reads).
    Missing,
    Const(f64),
    /// A scalar input (`t`, `y[3]`, `p[0]`).
    Input(Source, u32),
    /// An array over an input, from this slot.
    View(Source, u32),
    /// A local `vN`: a scalar or a short array.
    Local,
    /// An array in a buffer, from this offset.
    Buf(Buf, usize),
    /// A hoisted scalar `k[s]`.
    KScalar(usize),
}

/// An element index: known now, or an expression of the loop variables.
pub(crate) enum Idx {
    Lit(usize),
    Var(TokenStream),
}

fn at(base: usize, idx: &Idx) -> TokenStream {
    match idx {
        Idx::Lit(k) => usize_lit(base + k),
        Idx::Var(e) if base == 0 => e.clone(),
        Idx::Var(e) => {
            let b = usize_lit(base);
            quote!(#b + #e)
        }
    }
}

fn input_name(src: Source) -> Option<TokenStream> {
    Some(match src {
        Source::State => quote!(y),
        Source::F0 => quote!(f0),
        Source::Param => quote!(p),
        Source::Dw => quote!(dw),
        Source::Guess => quote!(g),
        Source::Rate => quote!(r),
        Source::Seed => quote!(s),
        Source::Stages => quote!(st),
        // Scalars.
        Source::T | Source::H | Source::Noise => return None,
    })
}

fn vid(i: usize) -> proc_macro2::Ident {
    format_ident!("v{}", i)
}

fn unsupported(what: String) -> GenError {
    GenError::Unsupported { what }
}

const K: fn() -> TokenStream = || quote!(::physis_runtime::kernels);

/// Emits statements for the instructions of one function, given every value's place.
pub(crate) struct Emitter<'a> {
    pub(crate) f: &'a Function,
    pub(crate) places: Vec<Place>,
    /// Static values (for the exponent rule of `Pow`); all false in `bind`.
    pub(crate) stat: &'a [bool],
}

impl Emitter<'_> {
    pub(crate) fn elem(&self, v: ValueId, idx: &Idx) -> Result<TokenStream, GenError> {
        self.elem_at(v.index(), idx)
    }

    pub(crate) fn elem_at(&self, i: usize, idx: &Idx) -> Result<TokenStream, GenError> {
        let array = self.f.insts[i].ty != Ty::Scalar;
        Ok(match self.places[i] {
            Place::Const(c) => f64_lit(c),
            Place::Input(src, k) => func::load(src, k),
            Place::KScalar(s) => {
                let s = usize_lit(s);
                quote!(k[#s])
            }
            Place::Local if !array => {
                let id = vid(i);
                quote!(#id)
            }
            Place::Local => {
                let (id, o) = (vid(i), at(0, idx));
                quote!(#id[#o])
            }
            Place::View(src, off) => {
                let name = input_name(src).ok_or_else(|| self.missing(i))?;
                let o = at(off as usize, idx);
                quote!(#name[#o])
            }
            Place::Buf(b, off) => {
                let (name, o) = (b.name(), at(off, idx));
                quote!(#name[#o])
            }
            Place::Missing => return Err(self.missing(i)),
        })
    }

    /// The array value as a slice expression.
    pub(crate) fn slice(&self, v: ValueId) -> Result<TokenStream, GenError> {
        self.slice_at(v.index())
    }

    pub(crate) fn slice_at(&self, i: usize) -> Result<TokenStream, GenError> {
        let ty = self.f.insts[i].ty;
        let n = ty.len();
        let range = |name: TokenStream, off: usize| {
            let (a, b) = (usize_lit(off), usize_lit(off + n));
            quote!(&#name[#a..#b])
        };
        Ok(match self.places[i] {
            Place::Local if ty != Ty::Scalar => {
                let id = vid(i);
                quote!(&#id[..])
            }
            Place::View(src, off) => range(
                input_name(src).ok_or_else(|| self.missing(i))?,
                off as usize,
            ),
            Place::Buf(b, off) => range(b.name(), off),
            _ => return Err(self.missing(i)),
        })
    }

    fn missing(&self, i: usize) -> GenError {
        GenError::Input {
            function: self.f.name.clone(),
            input: format!("the value %{i} where it is needed"),
        }
    }

    /// One element of an elementwise operation (scalar operands broadcast).
    fn elementwise(&self, op: &Op, idx: &Idx) -> Result<TokenStream, GenError> {
        let e = |v: &ValueId| self.elem(*v, idx);
        Ok(match op {
            Op::Unary(o, a) => func::unary(*o, e(a)?),
            Op::Binary(physis_ir::BinOp::Pow, a, b)
                if func::bound_exponent(self.f, *b, self.stat) =>
            {
                func::pow_bound(e(a)?, e(b)?)
            }
            Op::Binary(o, a, b) => func::binary(*o, e(a)?, e(b)?),
            Op::Powi(a, n) => func::powi(e(a)?, *n),
            Op::Select(c, a, b) => func::select(e(c)?, e(a)?, e(b)?),
            // Only the four above are elementwise.
            other @ (Op::Const(_)
            | Op::Load(..)
            | Op::LoadRange(..)
            | Op::Pack(_)
            | Op::Splat(..)
            | Op::Index(..)
            | Op::Gather(..)
            | Op::Stencil(_)
            | Op::Reduce(..)
            | Op::PickMaxAbs(..)
            | Op::Solve(..)) => return Err(unsupported(format!("the operation {other:?}"))),
        })
    }

    /// The statement defining value `i` where its place says (nothing for values read in
    /// place).
    pub(crate) fn stmt(&self, i: usize) -> Result<TokenStream, GenError> {
        let inst = &self.f.insts[i];
        match (self.places[i], inst.ty) {
            (Place::Local, Ty::Scalar) => {
                let (v, e) = (vid(i), self.scalar(&inst.op)?);
                Ok(quote!(let #v: f64 = #e;))
            }
            (Place::Local, Ty::Array(n)) => self.short_array(i, &inst.op, n as usize),
            (Place::Buf(b, off), Ty::Array(n)) => self.long_array(&inst.op, b, off, n as usize),
            _ => Ok(quote!()),
        }
    }

    fn scalar(&self, op: &Op) -> Result<TokenStream, GenError> {
        let k = K();
        Ok(match op {
            Op::Unary(..) | Op::Binary(..) | Op::Powi(..) | Op::Select(..) => {
                self.elementwise(op, &Idx::Lit(0))?
            }
            Op::Index(a, j) => self.elem(*a, &Idx::Lit(*j as usize))?,
            Op::Reduce(r, a) => {
                let s = self.slice(*a)?;
                let r = match r {
                    ReduceOp::Sum => quote!(Sum),
                    ReduceOp::Mean => quote!(Mean),
                    ReduceOp::MaxAbs => quote!(MaxAbs),
                };
                quote!(#k::reduce(#k::ReduceOp::#r, #s))
            }
            Op::PickMaxAbs(u, du) => {
                let (u, du) = (self.slice(*u)?, self.slice(*du)?);
                quote!(#k::pick_max_abs(#u, #du))
            }
            // Constants and loads have places of their own; the rest are arrays.
            other @ (Op::Const(_)
            | Op::Load(..)
            | Op::LoadRange(..)
            | Op::Pack(_)
            | Op::Splat(..)
            | Op::Gather(..)
            | Op::Stencil(_)
            | Op::Solve(..)) => {
                return Err(unsupported(format!("the scalar operation {other:?}")));
            }
        })
    }

    /// A short array as a stack local.
    fn short_array(&self, i: usize, op: &Op, n: usize) -> Result<TokenStream, GenError> {
        let (v, nl) = (vid(i), usize_lit(n));
        Ok(match op {
            Op::Unary(..) | Op::Binary(..) | Op::Powi(..) | Op::Select(..) => {
                let e = self.elementwise(op, &Idx::Var(quote!(i)))?;
                quote!(let #v: [f64; #nl] = ::std::array::from_fn(|i| #e);)
            }
            Op::Pack(vs) => {
                let items = vs
                    .iter()
                    .map(|w| self.elem(*w, &Idx::Lit(0)))
                    .collect::<Result<Vec<_>, _>>()?;
                quote!(let #v: [f64; #nl] = [#(#items),*];)
            }
            Op::Splat(s, _) => {
                let s = self.elem(*s, &Idx::Lit(0))?;
                quote!(let #v: [f64; #nl] = [#s; #nl];)
            }
            Op::Gather(a, ks) => {
                let items = ks
                    .iter()
                    .map(|j| self.elem(*a, &Idx::Lit(*j as usize)))
                    .collect::<Result<Vec<_>, _>>()?;
                quote!(let #v: [f64; #nl] = [#(#items),*];)
            }
            Op::Stencil(st) => {
                let call = self.stencil(st, None, quote!(&mut #v[..]))?;
                quote!(let mut #v = [0.0f64; #nl]; #call)
            }
            Op::Solve(m, b) => {
                let mn = usize_lit(self.f.ty(*m).len());
                let (ms, bs) = (self.slice(*m)?, self.slice(*b)?);
                // The interpreter's solver on stack copies of `M` and `b`.
                quote!(let #v: [f64; #nl] = {
                    let mut a = [0.0f64; #mn];
                    a.copy_from_slice(#ms);
                    let mut x = [0.0f64; #nl];
                    x.copy_from_slice(#bs);
                    ::physis_runtime::scalar::solve_in_place(&mut a, &mut x);
                    x
                };)
            }
            // Loads are read in place; the rest are scalars.
            other @ (Op::Const(_)
            | Op::Load(..)
            | Op::LoadRange(..)
            | Op::Index(..)
            | Op::Reduce(..)
            | Op::PickMaxAbs(..)) => {
                return Err(unsupported(format!("the array operation {other:?}")));
            }
        })
    }

    /// A long array written into its buffer.
    fn long_array(&self, op: &Op, b: Buf, off: usize, n: usize) -> Result<TokenStream, GenError> {
        let name = b.name();
        let nl = usize_lit(n);
        Ok(match op {
            Op::Unary(..) | Op::Binary(..) | Op::Powi(..) | Op::Select(..) => {
                let e = self.elementwise(op, &Idx::Var(quote!(i)))?;
                let d = at(off, &Idx::Var(quote!(i)));
                quote!(for i in 0..#nl { #name[#d] = #e; })
            }
            Op::Pack(vs) => {
                let mut stmts = Vec::with_capacity(vs.len());
                for (j, w) in vs.iter().enumerate() {
                    let (d, e) = (usize_lit(off + j), self.elem(*w, &Idx::Lit(0))?);
                    stmts.push(quote!(#name[#d] = #e;));
                }
                quote!(#(#stmts)*)
            }
            Op::Splat(s, _) => {
                let s = self.elem(*s, &Idx::Lit(0))?;
                let (a, z) = (usize_lit(off), usize_lit(off + n));
                quote!(#name[#a..#z].fill(#s);)
            }
            Op::Gather(a, ks) => {
                // Runs of equally spaced indices, one table row each: a mask or a grid
                // coordinate is a few runs per grid row, not one literal per node.
                let runs = runs(ks);
                let rows = runs.iter().map(|(d, s, st, c)| {
                    let (d, s, st, c) =
                        (usize_lit(*d), usize_lit(*s), usize_lit(*st), usize_lit(*c));
                    quote!((#d, #s, #st, #c))
                });
                let count = usize_lit(runs.len());
                let src = self.elem(*a, &Idx::Var(quote!((s0 + j * st))))?;
                let d = at(off, &Idx::Var(quote!((d0 + j))));
                quote!({
                    const RUNS: [(usize, usize, usize, usize); #count] = [#(#rows),*];
                    for &(d0, s0, st, cnt) in RUNS.iter() {
                        for j in 0..cnt {
                            #name[#d] = #src;
                        }
                    }
                })
            }
            Op::Stencil(st) => {
                let (a, z) = (usize_lit(off), usize_lit(off + n));
                self.stencil(st, Some((b, off)), quote!(&mut #name[#a..#z]))?
            }
            // Not written into a buffer: loads are read in place, a solve is emitted only
            // as a short array, the rest are scalars.
            other @ (Op::Const(_)
            | Op::Load(..)
            | Op::LoadRange(..)
            | Op::Index(..)
            | Op::Reduce(..)
            | Op::PickMaxAbs(..)
            | Op::Solve(..)) => {
                return Err(unsupported(format!(
                    "the operation {other:?} on an array of {n}"
                )));
            }
        })
    }

    /// The kernel call of a stencil writing to `out` (which is `dest` when in a buffer).
    fn stencil(
        &self,
        st: &Stencil,
        dest: Option<(Buf, usize)>,
        out: TokenStream,
    ) -> Result<TokenStream, GenError> {
        let k = K();
        let sx = self.elem(st.spacing[0], &Idx::Lit(0))?;
        let sy = self.elem(st.spacing[1], &Idx::Lit(0))?;
        let bc = match st.bc {
            Bc::Dirichlet(v) => {
                let e = self.elem(v, &Idx::Lit(0))?;
                quote!(#k::BcValue::Dirichlet(#e))
            }
            Bc::Neumann(v) => {
                let e = self.elem(v, &Idx::Lit(0))?;
                quote!(#k::BcValue::Neumann(#e))
            }
            Bc::Periodic => quote!(#k::BcValue::Periodic),
        };
        let op = match st.op {
            StencilOp::Central(a) => quote!(#k::StencilOp::Central(#a)),
            StencilOp::Backward(a) => quote!(#k::StencilOp::Backward(#a)),
            StencilOp::Forward(a) => quote!(#k::StencilOp::Forward(#a)),
            StencilOp::Laplacian => quote!(#k::StencilOp::Laplacian),
        };
        let (nx, ny) = (
            Literal::u32_unsuffixed(st.grid.nx),
            Literal::u32_unsuffixed(st.grid.ny),
        );
        let grid = quote!(#k::Grid { nx: #nx, ny: #ny });
        let n = st.grid.len();
        let head = quote! {
            let sp = [#sx, #sy];
            let bc = #bc;
        };
        // Operand and result in one buffer: split it between them (they never overlap).
        if let (Some((bd, d)), Place::Buf(bu, u)) = (dest, self.places[st.u.index()])
            && bd == bu
        {
            let name = bd.name();
            let nl = usize_lit(n);
            let call = if d > u {
                let (dl, ul, uz) = (usize_lit(d), usize_lit(u), usize_lit(u + n));
                quote! {
                    let (lo, hi) = #name.split_at_mut(#dl);
                    #k::stencil(#op, #grid, &lo[#ul..#uz], sp, bc, &mut hi[..#nl]);
                }
            } else {
                let (ul, dl, dz) = (usize_lit(u), usize_lit(d), usize_lit(d + n));
                quote! {
                    let (lo, hi) = #name.split_at_mut(#ul);
                    #k::stencil(#op, #grid, &hi[..#nl], sp, bc, &mut lo[#dl..#dz]);
                }
            };
            return Ok(quote!({ #head #call }));
        }
        let u = self.slice(st.u)?;
        Ok(quote!({ #head #k::stencil(#op, #grid, #u, sp, bc, #out); }))
    }
}
