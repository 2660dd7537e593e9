//! The sparse Jacobian pattern a grid model shares with the interpreter, written into the
//! generated model once as run-length encoded rows.

use physis_runtime::SparsePattern;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::names::usize_lit;

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
