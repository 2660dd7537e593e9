//! The heap storage of the one model emitter ([`crate::model`]), for a model over grid
//! fields: functions from [`crate::grid_func`] that write into the driver's slices, heap
//! buffers allocated once per run (hoisted values `k`, work registers `b`, the step's
//! outputs `so`, the Jacobian's `seed` and `col`), and the sparse Jacobian pattern the
//! interpreter hands Newton. Mirrors `physis_ir::TapeModel` call for call.

use physis_ir::IrModel;
use quote::quote;

use crate::hoist::Hoist;
use crate::model::{Emitted, Fns, Heap, SchemeGens, Storage, signature};
use crate::names::usize_lit;
use crate::pattern::pattern_items;
use crate::plan::Plan;

/// What a model over grid fields writes: functions writing into the driver's slices with
/// work registers `b`, heap buffers allocated once per run and the sparse Jacobian pattern.
pub(crate) fn emit(plan: &Plan, ir: &IrModel, fns: &Fns, hoist: &Hoist, regs: usize) -> Emitted {
    let dim = ir.dynamics.dim();
    let nw = ir.info.noises;
    let gens = &fns.list;
    // `so` holds the outputs of the explicit step or of a staged scheme's `finish`.
    let (step_out, unknown) = match &fns.scheme {
        SchemeGens::Explicit { step, .. } => (gens[*step].out, dim),
        SchemeGens::Implicit { .. } => (0, dim),
        SchemeGens::Staged { stages, finish, .. } => {
            let widest = stages
                .iter()
                .map(|(res, _, _)| gens[*res].inputs.unknown_len(dim))
                .max()
                .unwrap_or(dim);
            (gens[*finish].out, widest.max(dim))
        }
    };
    let heap = Heap {
        regs,
        step_out,
        unknown,
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
        lanes: (None, None),
        storage: Storage {
            hoisted: hoist.len,
            heap: Some(heap),
        },
    }
}
