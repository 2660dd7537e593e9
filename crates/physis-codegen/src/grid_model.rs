//! The heap storage of the one model emitter ([`crate::model`]), for a model over grid
//! fields: functions from [`crate::grid_func`] that write into the driver's slices, heap
//! buffers allocated once per run (hoisted values `k`, work registers `b`, the step's
//! outputs `so`, the Jacobian's `seed` and `col`), and the sparse Jacobian pattern the
//! interpreter hands Newton. Mirrors `physis_ir::TapeModel` call for call.

use physis_ir::IrModel;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::func::Hoist;
use crate::grid_scheme::{explicit, implicit, pattern_items};
use crate::model::{Emitted, Fns, Gen, Heap, SchemeGens, Storage, signature};
use crate::names::usize_lit;
use crate::plan::Plan;

/// How each input is spelled where a function is called.
#[derive(Clone)]
pub(crate) struct At {
    pub(crate) t: TokenStream,
    pub(crate) h: TokenStream,
    pub(crate) y: TokenStream,
    pub(crate) f0: TokenStream,
    pub(crate) dw: TokenStream,
    pub(crate) g: TokenStream,
    pub(crate) r: TokenStream,
    pub(crate) s: TokenStream,
}

impl At {
    pub(crate) fn conditions() -> At {
        At {
            t: quote!(t),
            h: quote!(0.0f64),
            y: quote!(y),
            f0: quote!(y),
            dw: quote!([0.0f64; 0]),
            g: quote!(y),
            r: quote!(r),
            s: quote!(y),
        }
    }

    pub(crate) fn step() -> At {
        At {
            t: quote!(args.t),
            h: quote!(args.h),
            y: quote!(args.y),
            f0: quote!(args.f0),
            dw: quote!(args.dw),
            g: quote!(next),
            r: quote!(args.y),
            s: quote!(seed),
        }
    }
}

/// What a call needs besides the inputs.
pub(crate) struct Call<'a> {
    pub(crate) dim: usize,
    pub(crate) nw: usize,
    /// Run when a slice has the wrong length.
    pub(crate) fail: &'a TokenStream,
    /// The hoisted values and work registers (`&self.k`, `&mut self.b` by default).
    pub(crate) bufs: (TokenStream, TokenStream),
}

impl Call<'_> {
    /// `{ convert slices to array references (or run fail); Self::f(k, b, inputs, out) }`.
    pub(crate) fn emit(&self, g: &Gen, at: &At, out: TokenStream) -> TokenStream {
        let (d, w) = (usize_lit(self.dim), usize_lit(self.nw));
        let fail = self.fail;
        let i = g.inputs;
        let mut stmts = Vec::new();
        let (k, b) = &self.bufs;
        let mut args = vec![k.clone(), b.clone()];
        if i.t {
            args.push(at.t.clone());
        }
        if i.h {
            args.push(at.h.clone());
        }
        let mut conv = |on: bool, local: &str, src: &TokenStream, n: &TokenStream| {
            if on {
                let id = format_ident!("{}_a", local);
                stmts.push(quote!(let Ok(#id) = <&[f64; #n]>::try_from(&#src[..]) else { #fail };));
                args.push(quote!(#id));
            }
        };
        conv(i.y, "y", &at.y, &d);
        conv(i.f0, "f0", &at.f0, &d);
        conv(i.dw, "dw", &at.dw, &w);
        let u = usize_lit(i.unknown_len(self.dim));
        conv(i.guess, "g", &at.g, &u);
        conv(i.rate, "r", &at.r, &d);
        conv(i.seed, "s", &at.s, &u);
        let n = usize_lit(g.out);
        stmts.push(
            quote!(let Ok(out_a) = <&mut [f64; #n]>::try_from(&mut #out[..]) else { #fail };),
        );
        args.push(quote!(out_a));
        let name = &g.name;
        quote!({ #(#stmts)* Self::#name(#(#args),*); })
    }
}

/// What a model over grid fields writes: functions writing into the driver's slices with
/// work registers `b`, heap buffers allocated once per run and the sparse Jacobian pattern.
pub(crate) fn emit(plan: &Plan, ir: &IrModel, fns: &Fns, hoist: &Hoist, regs: usize) -> Emitted {
    let dim = ir.dynamics.dim();
    let nw = ir.info.noises;
    let gens = &fns.list;
    let step_out = match fns.scheme {
        SchemeGens::Explicit { step, .. } => gens[step].out,
        _ => 0,
    };
    let heap = Heap {
        regs,
        step_out,
        dim,
    };
    let (nk, nb) = (usize_lit(hoist.len), usize_lit(regs));
    let fn_items = gens.iter().map(|g| {
        let doc = format!(
            "The IR function `{}`, its outputs written to `out`.",
            g.ir_name
        );
        let (name, b) = (&g.name, &g.body);
        let sig = signature(g.inputs, dim, nw);
        let n = usize_lit(g.out);
        let sig = if sig.is_empty() {
            quote!()
        } else {
            quote!(#sig,)
        };
        quote! {
            #[doc = #doc]
            fn #name(k: &[f64; #nk], b: &mut [f64; #nb], #sig out: &mut [f64; #n]) { #b }
        }
    });
    fn call(fail: &TokenStream, dim: usize, nw: usize) -> Call<'_> {
        Call {
            dim,
            nw,
            fail,
            bufs: (quote!(&self.k), quote!(&mut self.b)),
        }
    }
    let at = At::conditions();
    let initial_call = call(&quote!(return;), dim, nw).emit(&gens[fns.initial], &at, quote!(y0));
    let rate_call = call(&quote!(dydt.fill(f64::NAN); return;), dim, nw).emit(
        &gens[fns.rate],
        &at,
        quote!(dydt),
    );
    let jvp_call = call(&quote!(out.fill(f64::NAN); return true;), dim, nw).emit(
        &gens[fns.rate_jvp],
        &At {
            s: quote!(v),
            ..At::conditions()
        },
        quote!(out),
    );
    let nan_out = quote!(out.fill(f64::NAN); return;);
    let margins_call = call(&nan_out, dim, nw).emit(&gens[fns.margins], &at, quote!(out));
    let observe_call = call(&nan_out, dim, nw).emit(&gens[fns.observe], &at, quote!(out));
    let reset_arms = fns
        .resets
        .iter()
        .zip(&ir.resets)
        .enumerate()
        .map(|(j, (g, r))| {
            let n = usize_lit(gens[*g].out);
            let c = call(&quote!(return;), dim, nw).emit(&gens[*g], &at, quote!(v));
            let j = usize_lit(j);
            let writes = r.slots.iter().enumerate().map(|(k, s)| {
                let (k, s) = (usize_lit(k), usize_lit(*s as usize));
                quote!(if let Some(d) = post.get_mut(#s) { *d = v[#k]; })
            });
            quote!(#j => { let mut v = [0.0f64; #n]; #c #(#writes)* })
        })
        .collect();
    let scheme = match &fns.scheme {
        SchemeGens::Explicit { step, outs } => {
            explicit(&gens[*step], &gens[fns.rate], *outs, dim, nw)
        }
        SchemeGens::Implicit { res, jac, jv, err } => implicit(
            &gens[*res],
            jac.map(|j| &gens[j]),
            &gens[*jv],
            err.map(|e| &gens[e]),
            dim,
            nw,
        ),
        // Refused before any function is generated (`crate::model::model_items`).
        SchemeGens::Staged { .. } => quote!(),
    };
    let pattern = pattern_items(ir.jacobian_pattern.as_deref());
    let np = usize_lit(plan.defaults.len());
    let blocks = &hoist.blocks;
    let ns = usize_lit(hoist.scratch);
    Emitted {
        items: quote! {
            #pattern

            /// `N` zeros on the heap (a grid's arrays are too long for the stack).
            fn zeros<const N: usize>() -> Box<[f64; N]> {
                match vec![0.0f64; N].into_boxed_slice().try_into() {
                    Ok(b) => b,
                    Err(_) => unreachable!("a vector of N zeros has N elements"),
                }
            }

            /// Everything that depends on the parameters alone, computed once per run as
            /// the interpreter folds it.
            fn bind(p: &[f64; #np]) -> Box<[f64; #nk]> {
                let mut kb: Box<[f64; #nk]> = Self::zeros();
                {
                    let mut bb: Box<[f64; #ns]> = Self::zeros();
                    let (k, b) = (&mut *kb, &mut *bb);
                    #(#blocks)*
                    let _ = (k, b, p);
                }
                kb
            }
        },
        fns: fn_items.collect(),
        initial_out: format_ident!("y0"),
        initial: initial_call,
        rate: rate_call,
        rate_jvp: jvp_call,
        margins: margins_call,
        observe: observe_call,
        reset_arms,
        scheme,
        lanes: (None, None),
        storage: Storage {
            hoisted: hoist.len,
            heap: Some(heap),
        },
    }
}
