//! The scheme methods of a small model whose scheme has implicit stages: one residual and
//! Jacobian per stage (`stage_residual`, `stage_jacobian`), then `stage_finish`. Mirrors
//! the interpreter (`physis_ir::TapeModel`) call for call.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::func::Inputs;
use crate::model::{At, invoke, jacobian_fill};
use crate::names::usize_lit;

/// The inputs of one stage's generated functions.
pub(crate) struct StageInputs {
    /// `stage{j}_residual_at`.
    pub res: Inputs,
    /// `stage{j}_jacobian_at`, when the Jacobian is unrolled.
    pub jac: Option<Inputs>,
    /// `stage{j}_jvp_at`.
    pub jv: Inputs,
}

/// `step` (never called), `stage_residual`, `stage_jacobian` and `stage_finish`.
pub(crate) fn staged(
    stages: &[StageInputs],
    finish: Inputs,
    adaptive: bool,
    dim: usize,
    nw: usize,
) -> TokenStream {
    let d = usize_lit(dim);
    let at = At {
        g: quote!(k),
        ..At::step()
    };
    let res_arms = stages.iter().enumerate().map(|(j, st)| {
        let c = invoke(
            &format_ident!("stage{}_residual_at", j),
            st.res,
            &at,
            dim,
            nw,
            &quote!(r.fill(f64::NAN); return;),
        );
        let j = usize_lit(j);
        quote!(#j => {
            let v = #c;
            for (x, s) in r.iter_mut().zip(v) { *x = s; }
        })
    });
    let jac_arms = stages.iter().enumerate().map(|(j, st)| {
        // A group of stages that read each other solves `width·dim` unknowns.
        let u = usize_lit(st.res.unknown_len(dim));
        let body = jacobian_fill(
            st.jac
                .map(|ji| (format_ident!("stage{}_jacobian_at", j), ji)),
            (format_ident!("stage{}_jvp_at", j), st.jv),
            &at,
            dim,
            nw,
        );
        let j = usize_lit(j);
        quote!(#j => {
            if jac.n() != #u {
                return false;
            }
            #body
        })
    });
    let fin = invoke(
        &format_ident!("finish_at"),
        finish,
        &At::step(),
        dim,
        nw,
        &quote!(out.next.fill(f64::NAN); return;),
    );
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
