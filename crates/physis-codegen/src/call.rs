//! How a `Model` method calls a generated function: each input slice converted to the
//! array reference the function takes (or the method's `fail` run when a length is
//! wrong), then the call. The storage decides the rest: a small model's functions return
//! their outputs as an array, a grid model's write them into a slice given to them and
//! use the work registers `b`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::Gen;
use crate::names::usize_lit;

/// Where a generated model keeps its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Store {
    /// Every value on the stack; functions return `[f64; N]`.
    Stack,
    /// Long arrays in heap buffers allocated once per run; functions write `out`.
    Heap,
}

/// How each input is spelled where a generated function is called (all slices there).
#[derive(Clone)]
pub(crate) struct At {
    pub t: TokenStream,
    pub h: TokenStream,
    pub y: TokenStream,
    pub f0: TokenStream,
    pub dw: TokenStream,
    pub g: TokenStream,
    pub r: TokenStream,
    pub s: TokenStream,
    /// The solved stages (passed as a slice).
    pub st: TokenStream,
}

impl At {
    /// Inside `initial`, `rate`, `margins`, `reset` and `observe`.
    pub(crate) fn conditions() -> At {
        At {
            t: quote!(t),
            h: quote!(0.0f64),
            y: quote!(y),
            f0: quote!(y),
            dw: quote!(&[]),
            g: quote!(y),
            r: quote!(r),
            s: quote!(y),
            st: quote!(&[]),
        }
    }

    /// Inside `rate_jvp`, the seed being `seed`.
    pub(crate) fn jvp(seed: TokenStream) -> At {
        At {
            s: seed,
            ..At::conditions()
        }
    }

    /// Inside the scheme's methods.
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
            st: quote!(solved),
        }
    }
}

/// What a call needs besides the function and its inputs.
pub(crate) struct Call<'a> {
    pub(crate) store: Store,
    /// State slots.
    pub(crate) dim: usize,
    /// Noise slots.
    pub(crate) nw: usize,
    /// Run when a slice has the wrong length.
    pub(crate) fail: &'a TokenStream,
    /// The hoisted values (`&self.k`) and, on the heap, the work registers (`&mut self.b`).
    pub(crate) bufs: (TokenStream, TokenStream),
}

impl<'a> Call<'a> {
    /// A call from a method of the model, through `self`'s buffers.
    pub(crate) fn new(store: Store, dim: usize, nw: usize, fail: &'a TokenStream) -> Self {
        Call {
            store,
            dim,
            nw,
            fail,
            bufs: (quote!(&self.k), quote!(&mut self.b)),
        }
    }

    /// The same call running `fail` instead.
    pub(crate) fn failing<'b>(&self, fail: &'b TokenStream) -> Call<'b> {
        Call {
            store: self.store,
            dim: self.dim,
            nw: self.nw,
            fail,
            bufs: self.bufs.clone(),
        }
    }

    /// The conversions of the inputs and the arguments after the buffers.
    fn args(&self, g: &Gen, at: &At) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let (d, w) = (usize_lit(self.dim), usize_lit(self.nw));
        let u = usize_lit(g.inputs.unknown_len(self.dim));
        let (i, fail) = (g.inputs, self.fail);
        let mut stmts = Vec::new();
        let mut args = Vec::new();
        if i.t {
            args.push(at.t.clone());
        }
        if i.h {
            args.push(at.h.clone());
        }
        let mut conv = |on: bool, local: &str, src: &TokenStream, n: &TokenStream| {
            if on {
                let id = format_ident!("{}_a", local);
                stmts.push(quote!(let Ok(#id) = <&[f64; #n]>::try_from(#src) else { #fail };));
                args.push(quote!(#id));
            }
        };
        conv(i.y, "y", &at.y, &d);
        conv(i.f0, "f0", &at.f0, &d);
        conv(i.dw, "dw", &at.dw, &w);
        conv(i.guess, "g", &at.g, &u);
        conv(i.rate, "r", &at.r, &d);
        conv(i.seed, "s", &at.s, &u);
        if i.stages {
            args.push(at.st.clone());
        }
        (stmts, args)
    }

    /// A small model's call as an expression: the array of the function's outputs.
    pub(crate) fn value(&self, g: &Gen, at: &At) -> TokenStream {
        let (stmts, args) = self.args(g, at);
        let (name, k) = (&g.name, &self.bufs.0);
        quote!({ #(#stmts)* Self::#name(#k, #(#args),*) })
    }

    /// Statements leaving the function's outputs in `out` (a slice of that length).
    pub(crate) fn writing_into(&self, g: &Gen, at: &At, out: TokenStream) -> TokenStream {
        match self.store {
            Store::Stack => {
                let c = self.value(g, at);
                // `outs`, not `v`: `out` may be a local `v`.
                quote!({
                    let outs = #c;
                    for (x, s) in #out.iter_mut().zip(outs) { *x = s; }
                })
            }
            Store::Heap => {
                let (mut stmts, args) = self.args(g, at);
                let (n, fail) = (usize_lit(g.out), self.fail);
                stmts.push(
                    quote!(let Ok(out_a) = <&mut [f64; #n]>::try_from(&mut #out[..]) else { #fail };),
                );
                let (name, (k, b)) = (&g.name, &self.bufs);
                quote!({ #(#stmts)* Self::#name(#k, #b, #(#args,)* out_a); })
            }
        }
    }

    /// Statements running `g` and the slice its outputs can then be read from: a local on
    /// the stack, the buffer `buf` on the heap.
    pub(crate) fn run(&self, g: &Gen, at: &At, buf: TokenStream) -> (TokenStream, TokenStream) {
        match self.store {
            Store::Stack => {
                let c = self.value(g, at);
                (quote!(let v = #c;), quote!(v))
            }
            Store::Heap => (self.writing_into(g, at, buf.clone()), buf),
        }
    }
}
