//! The scheme methods of a model whose scheme has implicit stages: one residual and
//! Jacobian per stage (`stage_residual`, `stage_jacobian`), then `stage_finish`; on the
//! heap (fields on grids) also the sparse Jacobian of each stage, one exact Jacobian-vector
//! product per column colour of the pattern Newton hands it (the model's, or for a group of
//! stages that read each other its blocks). Mirrors the interpreter (`physis_ir::TapeModel`)
//! call for call.

use proc_macro2::TokenStream;
use quote::quote;

use crate::call::{At, Call, Store};
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

/// `step` (never called), `stage_residual`, `stage_jacobian` (and on the heap
/// `stage_jacobian_sparse`) and `stage_finish`.
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
        let c = call.failing(&res_fail).writing_into(st.res, &at, quote!(r));
        let j = usize_lit(j);
        quote!(#j => #c)
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
    let (fin, v) = call
        .failing(&fin_fail)
        .run(finish, &At::step(), quote!(self.so));
    let err = if adaptive {
        let (a, b) = (usize_lit(dim), usize_lit(2 * dim));
        quote!(if let Some(err) = out.err {
            for (x, s) in err.iter_mut().zip(&#v[#a..#b]) { *x = *s; }
        })
    } else {
        quote!(if let Some(err) = out.err {
            err.fill(0.0);
        })
    };
    let sparse = (call.store == Store::Heap).then(|| sparse(call, stages));
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

        #sparse

        fn stage_finish(
            &mut self,
            args: &::physis_runtime::StepArgs<'_>,
            solved: &[f64],
            out: ::physis_runtime::StepOut<'_>,
        ) {
            let _ = (args, solved);
            #fin
            for (x, s) in out.next.iter_mut().zip(&#v[..#d]) { *x = *s; }
            #err
        }
    }
}

/// The sparse pattern's methods and `stage_jacobian_sparse`: for each stage, one exact
/// Jacobian-vector product per colour of `jac`'s pattern, as the interpreter fills it.
fn sparse(call: &Call<'_>, stages: &[StageGens<'_>]) -> TokenStream {
    let fail = quote!(out.fill(f64::NAN); return;);
    let arms = stages.iter().enumerate().map(|(j, st)| {
        let u = usize_lit(st.jv.inputs.unknown_len(call.dim));
        // The unknown is `unknown` here: `k` names the hoisted values in the closure.
        let colour = Call {
            bufs: (quote!(hk), quote!(&mut *b)),
            ..call.failing(&fail)
        }
        .writing_into(
            st.jv,
            &At {
                s: quote!(s),
                g: quote!(unknown),
                ..At::step()
            },
            quote!(out),
        );
        let j = usize_lit(j);
        quote!(#j => {
            if jac.n() != #u {
                return false;
            }
            let Self { k: hk, b, seed, col, .. } = self;
            let (hk, b) = (&**hk, &mut **b);
            jac.fill_by_colours(&mut seed[..#u], &mut col[..#u], |s, out| #colour);
        })
    });
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

        fn stage_jacobian_sparse(
            &mut self,
            stage: usize,
            args: &::physis_runtime::StepArgs<'_>,
            solved: &[f64],
            unknown: &[f64],
            jac: &mut ::physis_runtime::SparseMatrix,
        ) -> bool {
            let _ = (args, solved, unknown);
            match stage {
                #(#arms)*
                _ => return false,
            }
            true
        }
    }
}
