//! The lane kernel of a generated model: `physis_runtime::LaneKernel` over a batch of up to
//! 64 ensemble members, so lockstep ensembles of generated code run vectorised.
//!
//! Every generated function takes its hoisted values as `k: &[f64; NK]` and no `self`, so
//! the kernel keeps each lane's `k` slot-major (value `i` of lane `l` at `i·64 + l`) and
//! calls the very functions the model's own methods call, one lane per loop iteration:
//! the same operations in the same order, hence the same bits, in a loop of plain IEEE
//! arithmetic over contiguous rows that the compiler vectorises.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::func::Inputs;
use crate::names::usize_lit;

/// Members per batch: the runtime's `MODEL_LANES`.
const WIDTH: usize = 64;

/// What the kernel of one model calls.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneSpec {
    /// Inputs of `step_at`, `rate_at`, `margins_at` and `observe_at`.
    pub step: Inputs,
    pub rate: Inputs,
    pub margins: Inputs,
    pub observe: Inputs,
    pub dim: usize,
    pub noises: usize,
    pub hoisted: usize,
    pub atoms: usize,
    pub observes: usize,
    /// The step's outputs: `next`, then the error when adaptive, then `f1` when fsal.
    pub adaptive: bool,
    pub fsal: bool,
    /// The margins read no parameter, so they are the same function of `t` in every lane.
    pub margins_static: bool,
}

/// Whether a function reads only the inputs a lane kernel has for it.
fn only(i: Inputs, allowed: Inputs) -> bool {
    (!i.t || allowed.t)
        && (!i.h || allowed.h)
        && (!i.y || allowed.y)
        && (!i.f0 || allowed.f0)
        && (!i.dw || allowed.dw)
        && (!i.guess || allowed.guess)
        && (!i.rate || allowed.rate)
        && (!i.seed || allowed.seed)
}

/// Row buffer `rows` (a `&[f64]` expression) as a fixed `&[f64; n·64]` named `name`, or the
/// kernel writes NaN into `fail` and returns.
fn rows(name: &Ident, src: TokenStream, n: usize, fail: &TokenStream) -> TokenStream {
    let len = usize_lit(n * WIDTH);
    quote!(let Some(#name) = #src.first_chunk::<#len>() else { #fail };)
}

/// `let #name: [f64; n] = lane l of rows #from;`
fn gather(name: &Ident, from: &Ident, n: usize) -> TokenStream {
    let n = usize_lit(n);
    let w = usize_lit(WIDTH);
    quote!(let #name: [f64; #n] = ::std::array::from_fn(|j| #from[j * #w + l]);)
}

/// The arguments of a generated function in its signature's order (`t`, `h`, then the
/// arrays), each array as the local of the same name with `_l` appended.
fn args(i: Inputs) -> TokenStream {
    let mut out = Vec::new();
    if i.t {
        out.push(quote!(t));
    }
    if i.h {
        out.push(quote!(h));
    }
    for (on, name) in [
        (i.y, "y"),
        (i.f0, "f0"),
        (i.dw, "dw"),
        (i.guess, "g"),
        (i.rate, "r"),
        (i.seed, "s"),
    ] {
        if on {
            let id = format_ident!("{}_l", name);
            out.push(quote!(&#id));
        }
    }
    quote!(k, #(#out),*)
}

/// The kernel type and its `LaneKernel` implementation, and the `lane_kernel` method of
/// the model's `Model` implementation; `None` when a function reads an input lanes do not
/// carry (the model then runs lane by lane).
pub(crate) fn lane_items(ty: &Ident, s: &LaneSpec) -> Option<(TokenStream, TokenStream)> {
    let step_in = Inputs {
        t: true,
        h: true,
        y: true,
        f0: true,
        dw: true,
        ..Inputs::default()
    };
    let state_in = Inputs {
        t: true,
        y: true,
        rate: true,
        ..Inputs::default()
    };
    let rate_in = Inputs {
        t: true,
        y: true,
        ..Inputs::default()
    };
    if !(only(s.step, step_in)
        && only(s.rate, rate_in)
        && only(s.margins, state_in)
        && only(s.observe, state_in))
    {
        return None;
    }
    let lanes_ty = format_ident!("{}Lanes", ty);
    let w = usize_lit(WIDTH);
    let d = usize_lit(s.dim);
    let nk = usize_lit(s.hoisted);
    let kw = usize_lit(s.hoisted * WIDTH);
    let id = |n: &str| format_ident!("{}", n);
    let nan = |out: &str| {
        let o = id(out);
        quote!(#o.fill(f64::NAN); return;)
    };
    let lane_k = quote!(let k = &::std::array::from_fn::<f64, #nk, _>(|i| ks[i * #w + l]););

    // step: the inputs it reads, gathered per lane; `next` (and `f1` when fsal) scattered.
    let mut pre = vec![rows(&id("ks"), quote!(self.k), s.hoisted, &nan("next"))];
    let mut per_lane = vec![lane_k.clone()];
    for (on, name, n) in [
        (s.step.y, "y", s.dim),
        (s.step.f0, "f0", s.dim),
        (s.step.dw, "dw", s.noises),
    ] {
        if on {
            let rows_id = format_ident!("{}_rows", name);
            let src = format_ident!("{}", name);
            pre.push(rows(&rows_id, quote!(args.#src), n, &nan("next")));
            per_lane.push(gather(&format_ident!("{}_l", name), &rows_id, n));
        }
    }
    let (t, h) = (id("t"), id("h"));
    let step_args = args(s.step);
    let d64 = usize_lit(s.dim * WIDTH);
    let f1_from = usize_lit(if s.adaptive { 2 * s.dim } else { s.dim });
    let (f1_pre, f1_post) = if s.fsal {
        (
            quote!(let Some(f1s) = f1.first_chunk_mut::<#d64>() else { nx.fill(f64::NAN); return; };),
            quote!(for j in 0..#d { f1s[j * #w + l] = v[#f1_from + j]; }),
        )
    } else {
        (quote!(let _ = f1;), quote!())
    };
    let step_fn = quote! {
        fn step(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &mut [f64], f1: &mut [f64]) {
            let (#t, #h) = (args.t, args.h);
            #(#pre)*
            let Some(nx) = next.first_chunk_mut::<#d64>() else { next.fill(f64::NAN); return; };
            #f1_pre
            for l in 0..#w {
                #(#per_lane)*
                let v = #ty::step_at(#step_args);
                for j in 0..#d { nx[j * #w + l] = v[j]; }
                #f1_post
            }
        }
    };

    // rate at (t, y).
    let rate_y = if s.rate.y {
        gather(&id("y_l"), &id("y_rows"), s.dim)
    } else {
        quote!()
    };
    let rate_args = args(s.rate);
    let ks_out = rows(&id("ks"), quote!(self.k), s.hoisted, &nan("out"));
    let y_rows_out = rows(&id("y_rows"), quote!(y), s.dim, &nan("out"));
    let rate_fn = quote! {
        fn rate(&mut self, t: f64, y: &[f64], out: &mut [f64]) {
            #ks_out
            #y_rows_out
            let Some(o) = out.first_chunk_mut::<#d64>() else { out.fill(f64::NAN); return; };
            for l in 0..#w {
                #lane_k
                #rate_y
                let v = #ty::rate_at(#rate_args);
                for j in 0..#d { o[j * #w + l] = v[j]; }
            }
        }
    };

    // margins at t: only asked of clauses that read no state (zeros stand in for it).
    let na = usize_lit(s.atoms);
    let na64 = usize_lit(s.atoms * WIDTH);
    let margins_args = args(s.margins);
    let zeros = quote!(let (y_l, r_l) = ([0.0f64; #d], [0.0f64; #d]););
    let margins_static = s.margins_static;
    let margins_fn = quote! {
        fn margins(&mut self, t: f64, out: &mut [f64]) {
            #ks_out
            let Some(o) = out.first_chunk_mut::<#na64>() else { out.fill(f64::NAN); return; };
            #zeros
            for l in 0..#w {
                #lane_k
                let v = #ty::margins_at(#margins_args);
                for a in 0..#na { o[a * #w + l] = v[a]; }
            }
        }

        fn margins_ahead(&mut self, ts: &[f64], out: &mut [f64]) -> bool {
            let (Some(ks), Some(o)) = (self.k.first_chunk::<#kw>(), out.first_chunk_mut::<#na64>()) else {
                return false;
            };
            if !self.uniform || ts.len() > #w {
                return false;
            }
            #zeros
            let l = 0usize;
            #lane_k
            for (jt, &t) in ts.iter().enumerate() {
                let v = #ty::margins_at(#margins_args);
                for a in 0..#na { o[a * #w + jt] = v[a]; }
            }
            true
        }
    };

    // observes at (t, y) with rate dydt.
    let no64 = usize_lit(s.observes * WIDTH);
    let no = usize_lit(s.observes);
    let mut obs_pre = vec![
        ks_out.clone(),
        quote!(let Some(o) = out.first_chunk_mut::<#no64>() else { out.fill(f64::NAN); return; };),
    ];
    let mut obs_lane = vec![lane_k.clone()];
    for (on, name, src) in [(s.observe.y, "y", "y"), (s.observe.rate, "r", "dydt")] {
        if on {
            let rows_id = format_ident!("{}_rows", name);
            let src = id(src);
            obs_pre.push(rows(&rows_id, quote!(#src), s.dim, &nan("out")));
            obs_lane.push(gather(&format_ident!("{}_l", name), &rows_id, s.dim));
        }
    }
    let observe_args = args(s.observe);
    let observe_fn = quote! {
        fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
            #(#obs_pre)*
            for l in 0..#w {
                #(#obs_lane)*
                let v = #ty::observe_at(#observe_args);
                for j in 0..#no { o[j * #w + l] = v[j]; }
            }
        }
    };

    let doc = format!(
        "Up to {WIDTH} members of [`{ty}`] stepped together in an ensemble's lockstep \
         batches (`physis_runtime::LaneKernel`), each lane with its own parameters and the \
         same bits as the member alone. Built by `{ty}`'s `Model::lane_kernel`, which \
         `physis_runtime::ModelLaneFactory` calls."
    );
    let items = quote! {
        #[doc = #doc]
        pub struct #lanes_ty {
            /// Hoisted values, slot-major: value `i` of lane `l` at `i·64 + l`.
            k: ::std::vec::Vec<f64>,
            /// Every lane's margins are the same function of `t`.
            uniform: bool,
        }

        impl #lanes_ty {
            /// Lanes for `batch` (1 to 64 members; the lanes past them repeat the first),
            /// or `None`.
            pub fn new(batch: &[#ty]) -> ::std::option::Option<Self> {
                let first = batch.first()?;
                if batch.len() > #w {
                    return None;
                }
                let mut k = ::std::vec![0.0f64; #kw];
                for l in 0..#w {
                    let m = batch.get(l).unwrap_or(first);
                    for (i, v) in m.k.iter().enumerate() {
                        k[i * #w + l] = *v;
                    }
                }
                let same = |m: &#ty| m.k.iter().zip(first.k.iter()).all(|(a, b)| a.to_bits() == b.to_bits());
                let uniform = #margins_static || batch.iter().all(same);
                Some(Self { k, uniform })
            }
        }

        impl ::physis_runtime::LaneKernel for #lanes_ty {
            fn lanes(&self) -> usize {
                #w
            }

            #step_fn
            #rate_fn
            #margins_fn
            #observe_fn
        }
    };
    let method = quote! {
        fn lane_kernel(batch: &[Self]) -> ::std::option::Option<::std::boxed::Box<dyn ::physis_runtime::LaneKernel>> {
            Some(::std::boxed::Box::new(#lanes_ty::new(batch)?))
        }
    };
    Some((items, method))
}
