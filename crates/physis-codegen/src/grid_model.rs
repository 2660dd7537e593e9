//! The model type of a model over grid fields: functions from [`crate::grid_func`] that
//! write into the driver's slices, heap buffers allocated once per run (hoisted values
//! `k`, work registers `b`, the step's outputs `so`, the Jacobian's `seed` and `col`), and
//! the sparse Jacobian pattern the interpreter hands Newton. Mirrors
//! `physis_ir::TapeModel` call for call.

use physis_ir::{Function, IrModel, SchemeFns};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::error::GenError;
use crate::func::{Hoist, Inputs};
use crate::grid_func::body;
use crate::grid_scheme::{explicit, implicit, pattern_items};
use crate::info::model_info;
use crate::model::{Heap, Storage, inputs_of, model_info_fn, residual_form, signature};
use crate::names::usize_lit;
use crate::plan::Plan;

/// A generated function before the buffer sizes are known.
pub(crate) struct Gen {
    pub(crate) name: proc_macro2::Ident,
    pub(crate) doc: String,
    pub(crate) inputs: Inputs,
    pub(crate) body: TokenStream,
    pub(crate) out: usize,
}

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

/// The generated methods and trait implementation of a model over grid fields.
pub fn model_items(plan: &Plan, ir: &IrModel) -> Result<(TokenStream, Storage), GenError> {
    let dim = ir.dynamics.dim();
    let nw = ir.info.noises;
    let mut hoist = Hoist::default();
    let mut regs = 0usize;
    let mut gens: Vec<Gen> = Vec::new();
    let mut gen_fn = |name: &str, f: &Function, hoist: &mut Hoist| -> Result<usize, GenError> {
        let inputs = inputs_of(f);
        let body = body(f, inputs, hoist, &mut regs)?;
        gens.push(Gen {
            name: format_ident!("{}", name),
            doc: format!(
                "The IR function `{}`, its outputs written to `out`.",
                f.name
            ),
            inputs,
            body,
            out: f.output_len(),
        });
        Ok(gens.len() - 1)
    };
    let initial = gen_fn("initial_at", &ir.initial, &mut hoist)?;
    let rate = gen_fn("rate_at", &ir.rate, &mut hoist)?;
    let rate_jvp = gen_fn("rate_jvp_at", &ir.rate_jvp, &mut hoist)?;
    let margins = gen_fn("margins_at", &ir.margins, &mut hoist)?;
    let observe = gen_fn("observe_at", &ir.observe, &mut hoist)?;
    let mut resets = Vec::new();
    for (j, r) in ir.resets.iter().enumerate() {
        resets.push((
            j,
            gen_fn(&format!("reset{j}_at"), &r.func, &mut hoist)?,
            &r.slots,
        ));
    }
    enum Scheme {
        Explicit(usize, (bool, bool, bool)),
        Implicit(usize, Option<usize>, usize, Option<usize>),
    }
    let scheme = match &ir.scheme.fns {
        SchemeFns::Explicit {
            step,
            adaptive,
            fsal,
            dense,
        } => Scheme::Explicit(
            gen_fn("step_at", step, &mut hoist)?,
            (*adaptive, *fsal, *dense),
        ),
        SchemeFns::Implicit {
            residual,
            jacobian,
            jvp,
            error,
        } => {
            let res = gen_fn("residual_at", residual, &mut hoist)?;
            let jac = jacobian
                .as_ref()
                .map(|j| gen_fn("jacobian_at", j, &mut hoist))
                .transpose()?;
            let jv = gen_fn("residual_jvp_at", jvp, &mut hoist)?;
            let err = error
                .as_ref()
                .map(|e| gen_fn("implicit_error_at", e, &mut hoist))
                .transpose()?;
            Scheme::Implicit(res, jac, jv, err)
        }
        SchemeFns::Staged { .. } => {
            return Err(GenError::Unsupported {
                what: "a scheme with implicit stages on grid fields".into(),
            });
        }
        _ => {
            return Err(GenError::Unsupported {
                what: "this kind of scheme".into(),
            });
        }
    };
    let step_out = match scheme {
        Scheme::Explicit(s, ..) => gens[s].out,
        Scheme::Implicit(..) => 0,
    };
    let heap = Heap {
        regs,
        step_out,
        dim,
    };
    let (nk, nb) = (usize_lit(hoist.len), usize_lit(regs));
    let fns = gens.iter().map(|g| {
        let (name, doc, b) = (&g.name, &g.doc, &g.body);
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
    let d = usize_lit(dim);
    fn call(fail: &TokenStream, dim: usize, nw: usize) -> Call<'_> {
        Call {
            dim,
            nw,
            fail,
            bufs: (quote!(&self.k), quote!(&mut self.b)),
        }
    }
    let at = At::conditions();
    let initial_call = call(&quote!(return;), dim, nw).emit(&gens[initial], &at, quote!(y0));
    let rate_call =
        call(&quote!(dydt.fill(f64::NAN); return;), dim, nw).emit(&gens[rate], &at, quote!(dydt));
    let jvp_call = call(&quote!(out.fill(f64::NAN); return true;), dim, nw).emit(
        &gens[rate_jvp],
        &At {
            s: quote!(v),
            ..At::conditions()
        },
        quote!(out),
    );
    let nan_out = quote!(out.fill(f64::NAN); return;);
    let margins_call = call(&nan_out, dim, nw).emit(&gens[margins], &at, quote!(out));
    let observe_call = call(&nan_out, dim, nw).emit(&gens[observe], &at, quote!(out));
    let reset_arms = resets.iter().map(|(j, g, slots)| {
        let n = usize_lit(gens[*g].out);
        let c = call(&quote!(return;), dim, nw).emit(&gens[*g], &at, quote!(v));
        let j = usize_lit(*j);
        let writes = slots.iter().enumerate().map(|(k, s)| {
            let (k, s) = (usize_lit(k), usize_lit(*s as usize));
            quote!(if let Some(d) = post.get_mut(#s) { *d = v[#k]; })
        });
        quote!(#j => { let mut v = [0.0f64; #n]; #c #(#writes)* })
    });
    let scheme_impl = match scheme {
        Scheme::Explicit(s, outs) => explicit(&gens[s], &gens[rate], outs, dim, nw),
        Scheme::Implicit(res, jac, jv, err) => implicit(
            &gens[res],
            jac.map(|j| &gens[j]),
            &gens[jv],
            err.map(|e| &gens[e]),
            dim,
            nw,
        ),
    };
    let pattern = pattern_items(ir.jacobian_pattern.as_deref());
    let form = residual_form(ir)?;
    let ty = &plan.ty;
    let np = usize_lit(plan.defaults.len());
    let blocks = &hoist.blocks;
    let ns = usize_lit(hoist.scratch);
    let info_fn = model_info_fn(model_info(&ir.info)?);
    let items = quote! {
        impl #ty {
            /// Number of state slots.
            pub const DIM: usize = #d;

            #info_fn

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

            #(#fns)*
        }

        impl ::physis_runtime::Model for #ty {
            fn info(&self) -> ::std::sync::Arc<::physis_runtime::ModelInfo> {
                ::std::sync::Arc::clone(&self.info)
            }

            fn initial(&mut self, t0: f64, y0: &mut [f64]) {
                let t = t0;
                #initial_call
            }

            #[inline]
            fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
                #rate_call
            }

            #scheme_impl

            #form

            fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
                #jvp_call
                true
            }

            fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
                let r = dydt;
                #margins_call
            }

            fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
                let (y, r) = (pre, pre_rate);
                match event {
                    #(#reset_arms)*
                    _ => {}
                }
            }

            fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
                let r = dydt;
                #observe_call
            }
        }
    };
    Ok((
        items,
        Storage {
            hoisted: hoist.len,
            heap: Some(heap),
        },
    ))
}
