//! The scheme methods of the `Model` implementation, written once for both storages
//! ([`Store`]): an explicit `step` copying the step function's outputs into the driver's
//! slices, or an implicit scheme's `residual`, Jacobian (dense, or column by column
//! through the JVP; on the heap also one colour at a time into the sparse pattern) and
//! error. Mirrors the interpreter (`physis_ir::TapeModel`) call for call.

use proc_macro2::TokenStream;
use quote::quote;

use crate::call::{At, Call, Store};
use crate::model::Gen;
use crate::names::usize_lit;

/// `step` of an explicit scheme: the step function's outputs are `next`, then `error`
/// when adaptive, then `f1` when fsal, then the continuous extension's `q` when dense
/// (the outputs `(adaptive, fsal, dense)`), copied into the driver's slices.
pub(crate) fn explicit(
    call: &Call<'_>,
    step: &Gen,
    rate: &Gen,
    (adaptive, fsal, dense): (bool, bool, bool),
) -> TokenStream {
    let dim = call.dim;
    let d = usize_lit(dim);
    let fail = quote!(next.fill(f64::NAN); return;);
    let (run, v) = call.failing(&fail).run(step, &At::step(), quote!(self.so));
    let mut from = dim;
    let err = if adaptive {
        let (a, b) = (usize_lit(from), usize_lit(from + dim));
        from += dim;
        quote!(if let Some(err) = err {
            for (x, s) in err.iter_mut().zip(&#v[#a..#b]) { *x = *s; }
        })
    } else {
        quote!()
    };
    let q = if dense {
        let at = from + if fsal { dim } else { 0 };
        let (a, b) = (usize_lit(at), usize_lit(at + dim));
        quote!(if let Some(q) = dense {
            for (x, s) in q.iter_mut().zip(&#v[#a..#b]) { *x = *s; }
        })
    } else {
        // Asked for a continuous extension the scheme lacks: zero, Hermite alone.
        quote!(if let Some(q) = dense {
            q.fill(0.0);
        })
    };
    let f1 = if fsal {
        let (a, b) = (usize_lit(from), usize_lit(from + dim));
        quote!(if let Some(f1) = f1 {
            for (x, s) in f1.iter_mut().zip(&#v[#a..#b]) { *x = *s; }
        })
    } else {
        // Asked for f(t + h, next) without fsal: evaluate it, as the interpreter does.
        let at = At {
            t: quote!(args.t + args.h),
            y: quote!(&*next),
            ..At::step()
        };
        let rc = call
            .failing(&quote!(return;))
            .writing_into(rate, &at, quote!(f1));
        quote!(if let Some(f1) = f1 { #rc })
    };
    let inline = (call.store == Store::Stack).then(|| quote!(#[inline]));
    quote! {
        #inline
        fn step(&mut self, args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            let ::physis_runtime::StepOut { next, err, f1, dense } = out;
            #run
            for (x, s) in next.iter_mut().zip(&#v[..#d]) { *x = *s; }
            #err
            #q
            #f1
        }
    }
}

/// Statements filling `jac` (a `DenseMatrix` in scope, `false` returned when a slice has
/// the wrong length): from the dense Jacobian function when the IR has one, else column by
/// column from the Jacobian-vector product at unit seeds (in `self.seed` and `self.col` on
/// the heap).
pub(crate) fn jacobian_fill(
    call: &Call<'_>,
    dense: Option<&Gen>,
    jvp: &Gen,
    at: &At,
) -> TokenStream {
    let bail = quote!(return false;);
    let call = call.failing(&bail);
    if let Some(j) = dense {
        return call.writing_into(j, at, quote!(jac.as_mut_slice()));
    }
    let d = usize_lit(jvp.inputs.unknown_len(call.dim));
    let (buffers, seed, col) = match call.store {
        Store::Stack => (
            quote!(let mut seed = [0.0f64; #d]; let mut col = [0.0f64; #d];),
            quote!(seed),
            quote!(col),
        ),
        // The heap's buffers are as long as the longest unknown of the model's Newtons.
        Store::Heap => (quote!(), quote!(self.seed[..#d]), quote!(self.col[..#d])),
    };
    let at = At {
        s: quote!(&#seed[..]),
        ..at.clone()
    };
    let c = call.writing_into(jvp, &at, col.clone());
    quote! {
        #buffers
        for c in 0..#d {
            #seed.fill(0.0);
            #seed[c] = 1.0;
            #c
            for (i, x) in #col.iter().enumerate() { jac.set(i, c, *x); }
        }
    }
}

/// `residual`, its Jacobian and the error of an adaptive implicit scheme; on the heap also
/// the sparse Jacobian, one exact Jacobian-vector product per column colour as the
/// interpreter fills it.
pub(crate) fn implicit(
    call: &Call<'_>,
    res: &Gen,
    jac: Option<&Gen>,
    jvp: &Gen,
    err: Option<&Gen>,
) -> TokenStream {
    let d = usize_lit(call.dim);
    let at = At::step();
    let res_call = call
        .failing(&quote!(r.fill(f64::NAN); return;))
        .writing_into(res, &at, quote!(r));
    let jac_fill = jacobian_fill(call, jac, jvp, &at);
    let err_body = match err {
        Some(e) => call
            .failing(&quote!(err.fill(f64::NAN); return;))
            .writing_into(e, &at, quote!(err)),
        None => quote!(err.fill(0.0);),
    };
    let sparse = match call.store {
        Store::Stack => quote!(),
        Store::Heap => {
            let fail = quote!(out.fill(f64::NAN); return;);
            let colour = Call {
                bufs: (quote!(k), quote!(&mut *b)),
                ..call.failing(&fail)
            }
            .writing_into(
                jvp,
                &At {
                    s: quote!(s),
                    ..At::step()
                },
                quote!(out),
            );
            quote! {
                fn jacobian_layout(&self) -> ::physis_runtime::JacobianLayout {
                    if Self::pattern().is_some() {
                        ::physis_runtime::JacobianLayout::Sparse
                    } else {
                        ::physis_runtime::JacobianLayout::Dense
                    }
                }

                fn jacobian_pattern(&self) -> Option<::std::sync::Arc<::physis_runtime::SparsePattern>> {
                    Self::pattern()
                }

                fn residual_jacobian_sparse(
                    &mut self,
                    args: &::physis_runtime::StepArgs<'_>,
                    next: &[f64],
                    jac: &mut ::physis_runtime::SparseMatrix,
                ) -> bool {
                    if jac.n() != #d {
                        return false;
                    }
                    let Self { k, b, seed, col, .. } = self;
                    let (k, b) = (&**k, &mut **b);
                    jac.fill_by_colours(&mut seed[..#d], &mut col[..#d], |s, out| #colour);
                    true
                }
            }
        }
    };
    quote! {
        fn step(&mut self, _args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            // The driver never steps an implicit scheme; leave a non-finite state if it does.
            out.next.fill(f64::NAN);
        }

        fn residual(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], r: &mut [f64]) {
            #res_call
        }

        fn residual_jacobian(
            &mut self,
            args: &::physis_runtime::StepArgs<'_>,
            next: &[f64],
            jac: &mut ::physis_runtime::DenseMatrix,
        ) -> bool {
            if jac.n() != #d {
                return false;
            }
            #jac_fill
            true
        }

        #sparse

        fn implicit_error(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], err: &mut [f64]) {
            #err_body
        }
    }
}
