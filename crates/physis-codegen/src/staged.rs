//! The scheme methods of a small model whose scheme has implicit stages: one residual and
//! Jacobian per stage (`stage_residual`, `stage_jacobian`), then `stage_finish`. Mirrors
//! the interpreter (`physis_ir::TapeModel`) call for call.

use proc_macro2::TokenStream;
use quote::quote;

use crate::call::{At, Call};
use crate::model::Gen;
use crate::names::usize_lit;
use crate::scheme::jacobian_fill;

/// The generated functions of one stage.
pub(crate) struct StageGens<'a> {
    /// `stage{j}_residual_at`.
    pub res: &'a Gen,
    /// `stage{j}_jacobian_at`, when the Jacobian is unrolled.
    pub jac: Option<&'a Gen>,
    /// `stage{j}_jvp_at`.
    pub jv: &'a Gen,
}

/// `step` (never called), `stage_residual`, `stage_jacobian` and `stage_finish`.
pub(crate) fn staged(
    call: &Call<'_>,
    stages: &[StageGens<'_>],
    finish: &Gen,
    adaptive: bool,
) -> TokenStream {
    let dim = call.dim;
    let d = usize_lit(dim);
    let at = At {
        g: quote!(k),
        ..At::step()
    };
    let res_fail = quote!(r.fill(f64::NAN); return;);
    let res_arms = stages.iter().enumerate().map(|(j, st)| {
        let c = call.failing(&res_fail).value(st.res, &at);
        let j = usize_lit(j);
        quote!(#j => {
            let v = #c;
            for (x, s) in r.iter_mut().zip(v) { *x = s; }
        })
    });
    let jac_arms = stages.iter().enumerate().map(|(j, st)| {
        // A group of stages that read each other solves `width·dim` unknowns.
        let u = usize_lit(st.res.inputs.unknown_len(dim));
        let body = jacobian_fill(call, st.jac, st.jv, &at);
        let j = usize_lit(j);
        quote!(#j => {
            if jac.n() != #u {
                return false;
            }
            #body
        })
    });
    let fin_fail = quote!(out.next.fill(f64::NAN); return;);
    let fin = call.failing(&fin_fail).value(finish, &At::step());
    let err = if adaptive {
        let (a, b) = (usize_lit(dim), usize_lit(2 * dim));
        quote!(if let Some(err) = out.err {
            for (x, s) in err.iter_mut().zip(&v[#a..#b]) { *x = *s; }
        })
    } else {
        quote!(if let Some(err) = out.err {
            err.fill(0.0);
        })
    };
    quote! {
        fn step(&mut self, _args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            // The driver never steps a staged scheme; leave a non-finite state if it does.
            out.next.fill(f64::NAN);
        }

        fn stage_residual(
            &mut self,
            stage: usize,
            args: &::physis_runtime::StepArgs<'_>,
            solved: &[f64],
            k: &[f64],
            r: &mut [f64],
        ) {
            let _ = (args, solved, k);
            match stage {
                #(#res_arms)*
                _ => r.fill(f64::NAN),
            }
        }

        fn stage_jacobian(
            &mut self,
            stage: usize,
            args: &::physis_runtime::StepArgs<'_>,
            solved: &[f64],
            k: &[f64],
            jac: &mut ::physis_runtime::DenseMatrix,
        ) -> bool {
            let _ = (args, solved, k);
            match stage {
                #(#jac_arms)*
                _ => return false,
            }
            true
        }

        fn stage_finish(
            &mut self,
            args: &::physis_runtime::StepArgs<'_>,
            solved: &[f64],
            out: ::physis_runtime::StepOut<'_>,
        ) {
            let _ = (args, solved);
            let v = #fin;
            for (x, s) in out.next.iter_mut().zip(&v[..#d]) { *x = *s; }
            #err
        }
    }
}
