//! The scheme methods of a grid model's `Model` implementation (explicit step, implicit
//! residual and Jacobians) and the sparse Jacobian pattern it shares with the interpreter.

use physis_runtime::SparsePattern;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::grid_model::{At, Call};
use crate::model::Gen;
use crate::names::usize_lit;

/// `step` of an explicit scheme: the step function fills `so` (next, error when adaptive,
/// f1 when fsal, the continuous extension's `q` when dense: the outputs
/// `(adaptive, fsal, dense)`), copied into the driver's slices.
pub(crate) fn explicit(
    step: &Gen,
    rate: &Gen,
    (adaptive, fsal, dense): (bool, bool, bool),
    dim: usize,
    nw: usize,
) -> TokenStream {
    let fail = quote!(next.fill(f64::NAN); return;);
    let c = Call {
        dim,
        nw,
        fail: &fail,
        bufs: (quote!(&self.k), quote!(&mut self.b)),
    }
    .emit(step, &At::step(), quote!(self.so));
    let d = usize_lit(dim);
    let mut from = dim;
    let err = if adaptive {
        let (a, b) = (usize_lit(from), usize_lit(from + dim));
        from += dim;
        quote!(if let Some(err) = err {
            for (x, s) in err.iter_mut().zip(&self.so[#a..#b]) { *x = *s; }
        })
    } else {
        quote!()
    };
    let q = if dense {
        let at = from + if fsal { dim } else { 0 };
        let (a, b) = (usize_lit(at), usize_lit(at + dim));
        quote!(if let Some(q) = dense {
            for (x, s) in q.iter_mut().zip(&self.so[#a..#b]) { *x = *s; }
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
            for (x, s) in f1.iter_mut().zip(&self.so[#a..#b]) { *x = *s; }
        })
    } else {
        // Asked for f(t + h, next) without fsal: evaluate it, as the interpreter does.
        let at = At {
            t: quote!(args.t + args.h),
            y: quote!(next),
            ..At::step()
        };
        let rc = Call {
            dim,
            nw,
            fail: &quote!(return;),
            bufs: (quote!(&self.k), quote!(&mut self.b)),
        }
        .emit(rate, &at, quote!(f1));
        quote!(if let Some(f1) = f1 { #rc })
    };
    quote! {
        fn step(&mut self, args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            let ::physis_runtime::StepOut { next, err, f1, dense } = out;
            #c
            for (x, s) in next.iter_mut().zip(&self.so[..#d]) { *x = *s; }
            #err
            #q
            #f1
        }
    }
}

/// `residual`, its Jacobian (dense, or through the JVP column by column or one colour
/// at a time into the sparse pattern) and the error of an adaptive implicit scheme.
pub(crate) fn implicit(
    res: &Gen,
    jac: Option<&Gen>,
    jvp: &Gen,
    err: Option<&Gen>,
    dim: usize,
    nw: usize,
) -> TokenStream {
    let d = usize_lit(dim);
    let at = At::step();
    let own = (quote!(&self.k), quote!(&mut self.b));
    let call = |fail: &TokenStream, g: &Gen, at: &At, out: TokenStream| {
        Call {
            dim,
            nw,
            fail,
            bufs: own.clone(),
        }
        .emit(g, at, out)
    };
    let res_call = call(&quote!(res.fill(f64::NAN); return;), res, &at, quote!(res));
    let dense = match jac {
        Some(j) => {
            let c = call(&quote!(return false;), j, &at, quote!(jac.as_mut_slice()));
            quote!(#c true)
        }
        None => {
            let c = call(
                &quote!(return false;),
                jvp,
                &At {
                    s: quote!(self.seed),
                    ..At::step()
                },
                quote!(self.col),
            );
            quote! {
                for c in 0..#d {
                    self.seed.fill(0.0);
                    self.seed[c] = 1.0;
                    #c
                    for (i, x) in self.col.iter().enumerate() { jac.set(i, c, *x); }
                }
                true
            }
        }
    };
    // One exact Jacobian-vector product per column colour, as the interpreter fills it.
    let colour = Call {
        dim,
        nw,
        fail: &quote!(out.fill(f64::NAN); return;),
        bufs: (quote!(k), quote!(&mut *b)),
    }
    .emit(
        jvp,
        &At {
            s: quote!(s),
            ..At::step()
        },
        quote!(out),
    );
    let err_body = match err {
        Some(e) => call(&quote!(err.fill(f64::NAN); return;), e, &at, quote!(err)),
        None => quote!(err.fill(0.0);),
    };
    quote! {
        fn step(&mut self, _args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            // The driver never steps an implicit scheme; leave a non-finite state if it does.
            out.next.fill(f64::NAN);
        }

        fn residual(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], res: &mut [f64]) {
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
            #dense
        }

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
            jac.fill_by_colours(&mut seed[..], &mut col[..], |s, out| #colour);
            true
        }

        fn implicit_error(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], err: &mut [f64]) {
            #err_body
        }
    }
}

/// `fn pattern()`: the interpreter's sparse Jacobian pattern, rebuilt once from each row's
/// column offsets, run-length encoded (a stencil's rows repeat a few offset sets).
pub(crate) fn pattern_items(p: Option<&SparsePattern>) -> TokenStream {
    let Some(p) = p else {
        return quote! {
            /// The sparse pattern of the implicit residual's Jacobian (dense here).
            pub fn pattern() -> Option<::std::sync::Arc<::physis_runtime::SparsePattern>> {
                None
            }
        };
    };
    let mut sets: Vec<Vec<i64>> = Vec::new();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in 0..p.n() {
        let offs: Vec<i64> = p.row(i).iter().map(|&j| j as i64 - i as i64).collect();
        let set = match sets.iter().position(|s| *s == offs) {
            Some(k) => k,
            None => {
                sets.push(offs);
                sets.len() - 1
            }
        };
        match runs.last_mut() {
            Some((count, s)) if *s == set => *count += 1,
            _ => runs.push((1, set)),
        }
    }
    let set_items = sets.iter().map(|s| {
        let offs = s.iter().map(|o| {
            let a = Literal::u64_unsuffixed(o.unsigned_abs());
            if *o < 0 { quote!(-#a) } else { quote!(#a) }
        });
        quote!(&[#(#offs),*])
    });
    let run_items = runs.iter().map(|(c, s)| {
        let (c, s) = (usize_lit(*c), usize_lit(*s));
        quote!((#c, #s))
    });
    let (ns, nr, n) = (
        usize_lit(sets.len()),
        usize_lit(runs.len()),
        usize_lit(p.n()),
    );
    quote! {
        /// The sparse pattern of the implicit residual's Jacobian, the interpreter's.
        pub fn pattern() -> Option<::std::sync::Arc<::physis_runtime::SparsePattern>> {
            const SETS: [&[isize]; #ns] = [#(#set_items),*];
            const RUNS: [(usize, usize); #nr] = [#(#run_items),*];
            static PATTERN: ::std::sync::LazyLock<Option<::std::sync::Arc<::physis_runtime::SparsePattern>>> =
                ::std::sync::LazyLock::new(|| {
                    let mut rows: Vec<Vec<usize>> = Vec::with_capacity(#n);
                    for &(count, set) in RUNS.iter() {
                        for _ in 0..count {
                            let i = rows.len() as isize;
                            rows.push(SETS[set].iter().map(|o| (i + o) as usize).collect());
                        }
                    }
                    ::physis_runtime::SparsePattern::from_rows(#n, rows).ok().map(::std::sync::Arc::new)
                });
            PATTERN.clone()
        }
    }
}
