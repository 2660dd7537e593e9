//! The user-facing items of one model: the model type and its constructors, the params,
//! state, sample, run and stream types, and the run methods (`run`, `run_with`,
//! `run_configured`, one per named run, `stream`).

use proc_macro2::TokenStream;
use quote::quote;

use crate::grid_func::STACK_MAX;
use crate::model::Storage;
use crate::names::{f64_lit, usize_lit};
use crate::plan::{Field, Plan};

/// True for a field too long for the stack (a grid field): kept in a `Vec`.
fn long(f: &Field) -> bool {
    f.len.is_some_and(|n| n > STACK_MAX)
}

/// The field's Rust type: `f64`, `[f64; N]` or, for a grid field, `Vec<f64>`.
fn field_ty(f: &Field) -> TokenStream {
    match f.len {
        None => quote!(f64),
        Some(_) if long(f) => quote!(Vec<f64>),
        Some(n) => {
            let n = usize_lit(n);
            quote!([f64; #n])
        }
    }
}

/// `slice[offset]` or `[slice[offset], ...]` read without panicking (NaN past the end).
fn read_slots(f: &Field, slice: &TokenStream) -> TokenStream {
    let at = |k: usize| {
        let k = usize_lit(k);
        quote!(#slice.get(#k).copied().unwrap_or(f64::NAN))
    };
    match f.len {
        None => at(f.offset),
        Some(n) if long(f) => {
            let (a, z) = (usize_lit(f.offset), usize_lit(f.offset + n));
            let nl = usize_lit(n);
            quote!(#slice.get(#a..#z).map_or_else(|| vec![f64::NAN; #nl], <[f64]>::to_vec))
        }
        Some(n) => {
            let items = (f.offset..f.offset + n).map(at);
            quote!([#(#items),*])
        }
    }
}

/// A value of a param in slots `values[offset..]`, as a literal.
fn literal(f: &Field, values: &[f64]) -> TokenStream {
    let v = |k: usize| f64_lit(values.get(k).copied().unwrap_or(f64::NAN));
    match f.len {
        None => v(f.offset),
        Some(n) => {
            let items = (f.offset..f.offset + n).map(v);
            quote!([#(#items),*])
        }
    }
}

/// Every user-facing item of the model.
pub fn api_items(plan: &Plan, storage: &Storage) -> TokenStream {
    let Plan {
        ty,
        params_ty,
        state_ty,
        sample_ty,
        run_ty,
        stream_ty,
        columns_ty,
        ..
    } = plan;
    let rt = quote!(::physis_runtime);
    let np = usize_lit(plan.defaults.len());
    let nk = usize_lit(storage.hoisted);
    // A grid model keeps its long arrays on the heap, allocated once per run.
    let (k_ty, heap_fields, heap_init) = match storage.heap {
        None => (quote!([f64; #nk]), quote!(), quote!()),
        Some(h) => {
            let (nb, ns, d) = (
                usize_lit(h.regs),
                usize_lit(h.step_out),
                usize_lit(h.unknown),
            );
            (
                quote!(Box<[f64; #nk]>),
                quote! {
                    b: Box<[f64; #nb]>,
                    so: Box<[f64; #ns]>,
                    seed: Box<[f64; #d]>,
                    col: Box<[f64; #d]>,
                },
                quote! {
                    b: Self::zeros(),
                    so: Self::zeros(),
                    seed: Self::zeros(),
                    col: Self::zeros(),
                },
            )
        }
    };
    let name = &plan.name;
    let origin = &plan.origin;

    // Params.
    let p_fields = plan.params.iter().map(|f| {
        let (id, t, doc) = (&f.ident, field_ty(f), &f.doc);
        quote!(#[doc = #doc] pub #id: #t,)
    });
    let p_defaults = plan.params.iter().map(|f| {
        let (id, v) = (&f.ident, literal(f, &plan.defaults));
        quote!(#id: #v,)
    });
    let p_from = plan.params.iter().map(|f| {
        let (id, v) = (&f.ident, read_slots(f, &quote!(p)));
        quote!(#id: #v,)
    });
    let p_slots = plan.params.iter().map(|f| {
        let id = &f.ident;
        match f.len {
            None => {
                let k = usize_lit(f.offset);
                quote!(p[#k] = self.#id;)
            }
            Some(n) => {
                let ks = (f.offset..f.offset + n).map(usize_lit);
                let js = (0..n).map(usize_lit);
                quote!(#(p[#ks] = self.#id[#js];)*)
            }
        }
    });
    let scenario_ctors = plan.runs.iter().map(|r| {
        let (m, doc) = (&r.method, &r.doc);
        let vals = plan.params.iter().map(|f| {
            let (id, v) = (&f.ident, literal(f, &r.params));
            quote!(#id: #v,)
        });
        quote!(#[doc = #doc] pub fn #m() -> Self { Self { #(#vals)* } })
    });

    // State.
    let s_fields = plan.states.iter().map(|f| {
        let (id, t, doc) = (&f.ident, field_ty(f), &f.doc);
        quote!(#[doc = #doc] pub #id: #t,)
    });
    let s_from = plan.states.iter().map(|f| {
        let (id, v) = (&f.ident, read_slots(f, &quote!(y)));
        quote!(#id: #v,)
    });

    // A state with a grid field lives partly on the heap: not `Copy`.
    let copy = if plan.states.iter().any(long) {
        quote!()
    } else {
        quote!(, Copy)
    };

    // Observes: one field in the sample, one column in the run.
    let o_ids: Vec<_> = plan.observes.iter().map(|f| &f.ident).collect();
    let o_docs: Vec<_> = plan.observes.iter().map(|f| &f.doc).collect();
    let o_idx: Vec<_> = (0..plan.observes.len()).map(usize_lit).collect();
    let n_obs = usize_lit(plan.observes.len());
    let col_docs = plan
        .observes
        .iter()
        .map(|f| format!("Column of the observe {}", f.doc));

    let runs = plan.runs.iter().map(|r| {
        let (m, doc) = (&r.method, &r.doc);
        quote! {
            #[doc = #doc]
            pub fn #m(&self) -> Result<#run_ty, #rt::RunError> {
                self.run_with(#params_ty::#m())
            }
        }
    });
    let ty_doc = format!(
        "The simulation `{name}` ({origin}), generated by physis: build it with [`{ty}::new`] \
         and run it with [`{ty}::run`], [`{ty}::stream`] or a named run. The laws:\n\n{}",
        plan.laws
            .iter()
            .map(|l| format!("- {l}\n"))
            .collect::<String>()
    );
    let params_doc = format!("The params of `{name}` ({origin}), SI base units.");
    let state_doc =
        format!("A state of `{name}` ({origin}): one field per `state`, SI base units.");
    let sample_doc = format!("One sample of a run of `{name}`: time, state and every observe.");
    let run_doc = format!(
        "A finished run of `{name}`: why it ended, the time column, one column per observe \
         and the final state."
    );
    let stream_doc = format!("The samples of a run of `{name}`, pulled one by one.");

    quote! {
        #[doc = #ty_doc]
        #[derive(Debug, Clone)]
        pub struct #ty {
            params: #params_ty,
            k: #k_ty,
            #heap_fields
            info: ::std::sync::Arc<#rt::ModelInfo>,
        }

        #[doc = #params_doc]
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct #params_ty { #(#p_fields)* }

        impl Default for #params_ty {
            fn default() -> Self { Self { #(#p_defaults)* } }
        }

        impl #params_ty {
            /// The params from a vector in slot order (the order they are declared, vectors
            /// expanded); `None` when its length is not the model's.
            pub fn from_slots(p: &[f64]) -> Option<Self> {
                if p.len() != #np {
                    return None;
                }
                Some(Self { #(#p_from)* })
            }

            /// The params as a vector in slot order.
            pub fn to_slots(&self) -> [f64; #np] {
                let mut p = [0.0f64; #np];
                #(#p_slots)*
                p
            }

            #(#scenario_ctors)*
        }

        #[doc = #state_doc]
        #[derive(Debug, Clone #copy, PartialEq)]
        pub struct #state_ty { #(#s_fields)* }

        impl #state_ty {
            /// The state from its slots (NaN for slots missing from `y`).
            pub fn from_slots(y: &[f64]) -> Self {
                Self { #(#s_from)* }
            }
        }

        #[doc = #sample_doc]
        #[derive(Debug, Clone #copy, PartialEq)]
        pub struct #sample_ty {
            /// Time (s).
            pub t: f64,
            /// The state.
            pub state: #state_ty,
            #(#[doc = #o_docs] pub #o_ids: f64,)*
            /// Why the sample was taken.
            pub kind: #rt::SampleKind,
        }

        impl #sample_ty {
            fn from_owned(s: &#rt::OwnedSample) -> Self {
                Self {
                    t: s.t,
                    state: #state_ty::from_slots(&s.state),
                    #(#o_ids: s.observe.get(#o_idx).copied().unwrap_or(f64::NAN),)*
                    kind: s.kind,
                }
            }
        }

        #[doc = #run_doc]
        #[derive(Debug, Clone, PartialEq)]
        pub struct #run_ty {
            /// Why the run ended: kind, clause text and line.
            pub reason: #rt::Reason,
            /// Sample times (s).
            pub time: Vec<f64>,
            #(#[doc = #col_docs] pub #o_ids: Vec<f64>,)*
            /// Time of the final state (s).
            pub final_t: f64,
            /// The final state.
            pub final_state: #state_ty,
            /// Work counts (steps, rejections, evaluations, events, samples).
            pub stats: #rt::Stats,
            info: ::std::sync::Arc<#rt::ModelInfo>,
        }

        impl #run_ty {
            /// The samples as CSV (`t` then each observe), the bytes `physis run` writes.
            pub fn to_csv(&self) -> String {
                use #rt::SampleSink as _;
                let mut w = #rt::CsvWriter::new(Vec::new());
                let mut ok = w.begin(&self.info).is_ok();
                for (k, t) in self.time.iter().enumerate() {
                    let row = [#(self.#o_ids.get(k).copied().unwrap_or(f64::NAN)),*];
                    ok &= w
                        .sample(&#rt::Sample { t: *t, state: &[], observe: &row, kind: #rt::SampleKind::Step })
                        .is_ok();
                }
                // Writing to a Vec cannot fail.
                let _ = ok;
                String::from_utf8(w.into_inner()).unwrap_or_default()
            }
        }

        impl #rt::RunColumns for #run_ty {
            /// `t` (s), then every observe with its name and SI unit as the model declares
            /// them; with the runtime's `arrow` feature, `to_record_batch()` makes a frame.
            fn columns(&self) -> Vec<#rt::ColumnRef<'_>> {
                let observed: [&[f64]; #n_obs] = [#(&self.#o_ids[..]),*];
                let mut cols = Vec::with_capacity(#n_obs + 1);
                cols.push(#rt::ColumnRef { name: "t", unit: "s", values: &self.time[..] });
                for (o, values) in self.info.observes.iter().zip(observed) {
                    cols.push(#rt::ColumnRef { name: &o.name, unit: &o.unit, values });
                }
                cols
            }
        }

        /// Collects the columns of a run straight into the typed fields.
        #[derive(Default)]
        struct #columns_ty {
            time: Vec<f64>,
            #(#o_ids: Vec<f64>,)*
        }

        impl #rt::SampleSink for #columns_ty {
            fn sample(&mut self, s: &#rt::Sample<'_>) -> ::std::io::Result<()> {
                self.time.push(s.t);
                #(self.#o_ids.push(s.observe.get(#o_idx).copied().unwrap_or(f64::NAN));)*
                Ok(())
            }
        }

        #[doc = #stream_doc]
        pub struct #stream_ty {
            inner: #rt::Samples<#ty>,
        }

        impl Iterator for #stream_ty {
            type Item = #sample_ty;
            fn next(&mut self) -> Option<#sample_ty> {
                self.inner.next().map(|s| #sample_ty::from_owned(&s))
            }
        }

        impl #stream_ty {
            /// How the run ended, once the stream is exhausted.
            pub fn end(&self) -> Option<&#rt::RunEnd> {
                self.inner.end()
            }
        }

        impl Default for #ty {
            fn default() -> Self { Self::new() }
        }

        impl #ty {
            /// The model with its default params.
            pub fn new() -> Self {
                Self::with_params(Self::defaults())
            }

            /// The model with the given params.
            pub fn with_params(params: #params_ty) -> Self {
                let p = params.to_slots();
                let k = Self::bind(&p);
                Self { params, k, info: Self::model_info(), #heap_init }
            }

            /// The declared defaults (update fields with `..Self::defaults()`).
            pub fn defaults() -> #params_ty {
                #params_ty::default()
            }

            /// The params this instance runs with.
            pub fn params(&self) -> &#params_ty {
                &self.params
            }

            /// Runs with this instance's params and the declared settings.
            pub fn run(&self) -> Result<#run_ty, #rt::RunError> {
                self.run_configured(self.params, #rt::RunOptions::default())
            }

            /// Runs with `params` and the declared settings.
            pub fn run_with(&self, params: #params_ty) -> Result<#run_ty, #rt::RunError> {
                self.run_configured(params, #rt::RunOptions::default())
            }

            /// Runs with `params`, `options` overriding the declared step, tolerance,
            /// seed, limit or record interval.
            pub fn run_configured(
                &self,
                params: #params_ty,
                options: #rt::RunOptions,
            ) -> Result<#run_ty, #rt::RunError> {
                let model = Self::with_params(params);
                let info = ::std::sync::Arc::clone(&model.info);
                let mut cols = #columns_ty::default();
                let end = #rt::run_into(model, &options, &mut cols)?;
                Ok(#run_ty {
                    reason: end.reason,
                    time: cols.time,
                    #(#o_ids: cols.#o_ids,)*
                    final_t: end.t,
                    final_state: #state_ty::from_slots(&end.state),
                    stats: end.stats,
                    info,
                })
            }

            #(#runs)*

            /// The samples of a run with this instance's params, pulled one by one.
            pub fn stream(&self) -> Result<#stream_ty, #rt::RunError> {
                self.stream_configured(self.params, #rt::RunOptions::default())
            }

            /// The samples of a run with `params` and `options`, pulled one by one.
            pub fn stream_configured(
                &self,
                params: #params_ty,
                options: #rt::RunOptions,
            ) -> Result<#stream_ty, #rt::RunError> {
                Ok(#stream_ty { inner: #rt::stream(Self::with_params(params), &options)? })
            }

            /// Runs with a parameter vector in slot order, delivering every sample to
            /// `sink`: the untyped entry point (`None` when `p` has the wrong length).
            pub fn run_slots(
                p: &[f64],
                options: &#rt::RunOptions,
                sink: &mut dyn #rt::SampleSink,
            ) -> Option<Result<#rt::RunEnd, #rt::RunError>> {
                let params = #params_ty::from_slots(p)?;
                Some(#rt::run_into(Self::with_params(params), options, sink))
            }
        }
    }
}
