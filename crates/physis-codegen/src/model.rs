//! The model type itself: its parameter binding, one straight-line method per IR function
//! and the `physis_runtime::Model` implementation the driver calls. Mirrors the tape
//! interpreter (`physis_ir::TapeModel`) call for call.

use physis_ir::{Function, IrModel, SchemeFns, Source};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::error::GenError;
use crate::func::{Hoist, Inputs, body};
use crate::info::model_info;
use crate::lanes::{LaneSpec, lane_items};
use crate::names::usize_lit;
use crate::plan::Plan;

/// Where the generated model keeps what it computes once per run.
#[derive(Clone, Copy, Debug)]
pub struct Storage {
    /// Number of hoisted values (`k`).
    pub hoisted: usize,
    /// Heap buffers of a model over grid fields; `None` keeps everything on the stack.
    pub heap: Option<Heap>,
}

/// The heap buffers of a model over grid fields, each allocated once per run.
#[derive(Clone, Copy, Debug)]
pub struct Heap {
    /// Work registers `b`.
    pub regs: usize,
    /// Outputs of the scheme's step `so` (next, error, f1).
    pub step_out: usize,
    /// State slots (the Jacobian's seed and column, `seed` and `col`).
    pub dim: usize,
}

/// A generated function before the model around it is written.
pub(crate) struct Gen {
    /// Its name in the generated model (`rate_at`).
    pub(crate) name: Ident,
    /// The IR function it computes (for its doc).
    pub(crate) ir_name: String,
    /// What it reads.
    pub(crate) inputs: Inputs,
    /// Its statements.
    pub(crate) body: TokenStream,
    /// Number of outputs.
    pub(crate) out: usize,
}

/// The generated functions of a scheme, as indices into [`Fns::list`].
pub(crate) enum SchemeGens {
    /// `step_at` and its outputs `(adaptive, fsal, dense)`.
    Explicit {
        step: usize,
        outs: (bool, bool, bool),
    },
    /// `residual_at`, `jacobian_at` (when unrolled), `residual_jvp_at`, `implicit_error_at`
    /// (when adaptive).
    Implicit {
        res: usize,
        jac: Option<usize>,
        jv: usize,
        err: Option<usize>,
    },
    /// Per stage its residual, Jacobian (when unrolled) and JVP; then `finish_at`.
    Staged {
        stages: Vec<(usize, Option<usize>, usize)>,
        finish: usize,
        adaptive: bool,
    },
}

/// Every IR function of a model made a generated function, in the one order both
/// storages emit them (hoisted values are shared in this order).
pub(crate) struct Fns {
    /// The functions.
    pub(crate) list: Vec<Gen>,
    pub(crate) initial: usize,
    pub(crate) rate: usize,
    pub(crate) rate_jvp: usize,
    pub(crate) margins: usize,
    pub(crate) observe: usize,
    /// One per event, in event order.
    pub(crate) resets: Vec<usize>,
    pub(crate) scheme: SchemeGens,
}

impl Fns {
    /// Generates every function of `ir` with `body` (the storage's statements).
    fn new(
        ir: &IrModel,
        mut body: impl FnMut(&Function, Inputs) -> Result<TokenStream, GenError>,
    ) -> Result<Fns, GenError> {
        let mut list = Vec::new();
        let dim = ir.dynamics.dim();
        // `unknown`: slots of `g` and `s` when not the state's (0), for a group of stages
        // that read each other (`width·dim`).
        let mut gen_fn = |name: &str, f: &Function, unknown: usize| -> Result<usize, GenError> {
            let inputs = Inputs {
                unknown,
                ..inputs_of(f)
            };
            let body = body(f, inputs)?;
            list.push(Gen {
                name: format_ident!("{}", name),
                ir_name: f.name.clone(),
                inputs,
                body,
                out: f.output_len(),
            });
            Ok(list.len() - 1)
        };
        let initial = gen_fn("initial_at", &ir.initial, 0)?;
        let rate = gen_fn("rate_at", &ir.rate, 0)?;
        let rate_jvp = gen_fn("rate_jvp_at", &ir.rate_jvp, 0)?;
        let margins = gen_fn("margins_at", &ir.margins, 0)?;
        let observe = gen_fn("observe_at", &ir.observe, 0)?;
        let resets = ir
            .resets
            .iter()
            .enumerate()
            .map(|(j, r)| gen_fn(&format!("reset{j}_at"), &r.func, 0))
            .collect::<Result<Vec<_>, _>>()?;
        let scheme = match &ir.scheme.fns {
            SchemeFns::Explicit {
                step,
                adaptive,
                fsal,
                dense,
            } => SchemeGens::Explicit {
                step: gen_fn("step_at", step, 0)?,
                outs: (*adaptive, *fsal, *dense),
            },
            SchemeFns::Implicit {
                residual,
                jacobian,
                jvp,
                error,
            } => {
                let res = gen_fn("residual_at", residual, 0)?;
                let jac = jacobian
                    .as_ref()
                    .map(|j| gen_fn("jacobian_at", j, 0))
                    .transpose()?;
                let jv = gen_fn("residual_jvp_at", jvp, 0)?;
                let err = error
                    .as_ref()
                    .map(|e| gen_fn("implicit_error_at", e, 0))
                    .transpose()?;
                SchemeGens::Implicit { res, jac, jv, err }
            }
            SchemeFns::Staged {
                stages,
                finish,
                adaptive,
            } => {
                let mut fns = Vec::new();
                for (j, st) in stages.iter().enumerate() {
                    let u = st.width as usize * dim;
                    let res = gen_fn(&format!("stage{j}_residual_at"), &st.residual, u)?;
                    let jac = st
                        .jacobian
                        .as_ref()
                        .map(|f| gen_fn(&format!("stage{j}_jacobian_at"), f, u))
                        .transpose()?;
                    let jv = gen_fn(&format!("stage{j}_jvp_at"), &st.jvp, u)?;
                    fns.push((res, jac, jv));
                }
                SchemeGens::Staged {
                    stages: fns,
                    finish: gen_fn("finish_at", finish, 0)?,
                    adaptive: *adaptive,
                }
            }
            _ => {
                return Err(GenError::Unsupported {
                    what: "this kind of scheme".into(),
                });
            }
        };
        Ok(Fns {
            list,
            initial,
            rate,
            rate_jvp,
            margins,
            observe,
            resets,
            scheme,
        })
    }
}

/// What one storage writes into the model: its own inherent items (`bind`, ...), its
/// functions, the bodies of the `Model` methods and anything after the model.
pub(crate) struct Emitted {
    /// `bind` and what it needs, beside `DIM` and `model_info`.
    pub(crate) items: TokenStream,
    /// The generated functions.
    pub(crate) fns: Vec<TokenStream>,
    /// The `initial` method's output slice (`y` on the stack, `y0` on the heap).
    pub(crate) initial_out: Ident,
    pub(crate) initial: TokenStream,
    pub(crate) rate: TokenStream,
    /// Before the method's `true`.
    pub(crate) rate_jvp: TokenStream,
    pub(crate) margins: TokenStream,
    pub(crate) observe: TokenStream,
    /// One `match event` arm per reset.
    pub(crate) reset_arms: Vec<TokenStream>,
    /// `step` and the implicit methods.
    pub(crate) scheme: TokenStream,
    /// The lane kernel's method of the `Model` implementation and its items.
    pub(crate) lanes: (Option<TokenStream>, Option<TokenStream>),
    pub(crate) storage: Storage,
}

/// The generated methods and trait implementation of one model: small models keep every
/// value in stack arrays, fields on grids keep long arrays on the heap
/// ([`crate::grid_model`]); both fill the same model.
pub fn model_items(plan: &Plan, ir: &IrModel) -> Result<(TokenStream, Storage), GenError> {
    let on_heap = ir.dynamics.layout.parts.iter().any(|p| p.array) || ir.jacobian_pattern.is_some();
    if on_heap && matches!(ir.scheme.fns, SchemeFns::Staged { .. }) {
        return Err(GenError::Unsupported {
            what: "a scheme with implicit stages on grid fields".into(),
        });
    }
    let mut hoist = Hoist::default();
    let mut regs = 0usize;
    let fns = Fns::new(ir, |f, inputs| {
        if on_heap {
            crate::grid_func::body(f, inputs, &mut hoist, &mut regs)
        } else {
            body(f, inputs, &mut hoist)
        }
    })?;
    let e = if on_heap {
        crate::grid_model::emit(plan, ir, &fns, &hoist, regs)
    } else {
        on_stack(plan, ir, &fns, &hoist)
    };
    let form = residual_form(ir)?;
    let info_fn = model_info_fn(model_info(&ir.info)?);
    let ty = &plan.ty;
    let d = usize_lit(ir.dynamics.dim());
    let Emitted {
        items,
        fns,
        initial_out,
        initial,
        rate,
        rate_jvp,
        margins,
        observe,
        reset_arms,
        scheme,
        lanes: (lane_method, lane_items),
        storage,
    } = e;
    let items = quote! {
        impl #ty {
            /// Number of state slots.
            pub const DIM: usize = #d;

            #info_fn

            #items

            #(#fns)*
        }

        impl ::physis_runtime::Model for #ty {
            fn info(&self) -> ::std::sync::Arc<::physis_runtime::ModelInfo> {
                ::std::sync::Arc::clone(&self.info)
            }

            fn initial(&mut self, t0: f64, #initial_out: &mut [f64]) {
                let t = t0;
                #initial
            }

            #[inline]
            fn rate(&mut self, t: f64, y: &[f64], dydt: &mut [f64]) {
                #rate
            }

            #scheme

            #form

            fn rate_jvp(&mut self, t: f64, y: &[f64], v: &[f64], out: &mut [f64]) -> bool {
                #rate_jvp
                true
            }

            fn margins(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
                let r = dydt;
                #margins
            }

            fn reset(&mut self, event: usize, t: f64, pre: &[f64], pre_rate: &[f64], post: &mut [f64]) {
                let (y, r) = (pre, pre_rate);
                match event {
                    #(#reset_arms)*
                    _ => {}
                }
            }

            fn observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
                let r = dydt;
                #observe
            }

            #lane_method
        }

        #lane_items
    };
    Ok((items, storage))
}

/// What a small model writes: straight-line functions returning `[f64; N]` arrays, the
/// hoisted values `k` in a stack array, and the lane kernel of an explicit scheme.
fn on_stack(plan: &Plan, ir: &IrModel, fns: &Fns, hoist: &Hoist) -> Emitted {
    let dim = ir.dynamics.dim();
    let nw = ir.info.noises;
    let g = |i: usize| &fns.list[i];
    let inp = |i: usize| fns.list[i].inputs;
    let np = usize_lit(plan.defaults.len());
    let nk = usize_lit(hoist.len);
    // Functions of the hoisted values `k` and their inputs only (no `self`), so the lane
    // kernel can call them with each lane's own `k`.
    let items = fns.list.iter().map(|g| {
        let doc = format!("The IR function `{}`, as straight-line code.", g.ir_name);
        let (id, b) = (&g.name, &g.body);
        let sig = signature(g.inputs, dim, nw);
        let n = usize_lit(g.out);
        quote! {
            #[doc = #doc]
            #[inline]
            fn #id(k: &[f64; #nk], #sig) -> [f64; #n] { #b }
        }
    });
    let (rate, margins, observe) = (inp(fns.rate), inp(fns.margins), inp(fns.observe));
    let mut lane_step = None;
    let scheme = match &fns.scheme {
        SchemeGens::Explicit { step, outs } => {
            lane_step = Some((inp(*step), outs.0, outs.1));
            explicit(inp(*step), rate, *outs, dim, nw)
        }
        SchemeGens::Implicit { res, jac, jv, err } => {
            implicit(inp(*res), jac.map(inp), inp(*jv), err.map(inp), dim, nw)
        }
        SchemeGens::Staged {
            stages,
            finish,
            adaptive,
        } => {
            let stage_fns: Vec<_> = stages
                .iter()
                .map(|(res, jac, jv)| crate::staged::StageInputs {
                    res: inp(*res),
                    jac: jac.map(inp),
                    jv: inp(*jv),
                })
                .collect();
            crate::staged::staged(&stage_fns, inp(*finish), *adaptive, dim, nw)
        }
    };
    let blocks = &hoist.blocks;
    let lanes = lane_step.and_then(|(step, adaptive, fsal)| {
        let spec = LaneSpec {
            step,
            rate,
            margins,
            observe,
            dim,
            noises: nw,
            hoisted: hoist.len,
            atoms: ir.margins.output_len(),
            observes: ir.observe.output_len(),
            adaptive,
            fsal,
            margins_static: !ir.margins.reads(Source::Param),
        };
        lane_items(&plan.ty, &spec)
    });
    let (lane_items, lane_method) = lanes.unzip();
    let call =
        |i: usize, at: &At, fail: TokenStream| invoke(&g(i).name, inp(i), at, dim, nw, &fail);
    let at = At::conditions();
    let initial_call = call(fns.initial, &At::initial(), quote!(return;));
    let rate_call = call(fns.rate, &at, quote!(dydt.fill(f64::NAN); return;));
    let jvp_call = call(
        fns.rate_jvp,
        &At::jvp(),
        quote!(out.fill(f64::NAN); return true;),
    );
    let margins_call = call(fns.margins, &at, quote!(out.fill(f64::NAN); return;));
    let observe_call = call(fns.observe, &at, quote!(out.fill(f64::NAN); return;));
    let reset_arms = fns
        .resets
        .iter()
        .zip(&ir.resets)
        .enumerate()
        .map(|(j, (i, r))| {
            let c = call(*i, &At::reset(), quote!(return;));
            let j = usize_lit(j);
            let writes = r.slots.iter().enumerate().map(|(k, s)| {
                let (k, s) = (usize_lit(k), usize_lit(*s as usize));
                quote!(if let Some(d) = post.get_mut(#s) { *d = v[#k]; })
            });
            quote!(#j => { let v = #c; #(#writes)* })
        })
        .collect();
    Emitted {
        items: quote! {
            /// Everything that depends on the parameters alone, computed once per run as
            /// the interpreter folds it.
            fn bind(p: &[f64; #np]) -> [f64; #nk] {
                let mut k = [0.0f64; #nk];
                #(#blocks)*
                let _ = p;
                k
            }
        },
        fns: items.collect(),
        initial_out: format_ident!("y"),
        initial: quote! {
            let v = #initial_call;
            for (d, s) in y.iter_mut().zip(v) { *d = s; }
        },
        rate: quote! {
            let v = #rate_call;
            for (d, s) in dydt.iter_mut().zip(v) { *d = s; }
        },
        rate_jvp: quote! {
            let s = v;
            let v = #jvp_call;
            for (d, x) in out.iter_mut().zip(v) { *d = x; }
        },
        margins: quote! {
            let v = #margins_call;
            for (d, s) in out.iter_mut().zip(v) { *d = s; }
        },
        observe: quote! {
            let v = #observe_call;
            for (d, s) in out.iter_mut().zip(v) { *d = s; }
        },
        reset_arms,
        scheme,
        lanes: (lane_method, lane_items),
        storage: Storage {
            hoisted: hoist.len,
            heap: None,
        },
    }
}

/// `fn residual_form`: the interpreter's claim about how the residual depends on `next`.
pub(crate) fn residual_form(ir: &IrModel) -> Result<TokenStream, GenError> {
    use physis_runtime::ResidualForm;
    let form = match ir.residual_form {
        ResidualForm::General => quote!(General),
        ResidualForm::Affine => quote!(Affine),
        ResidualForm::AffineInStep => quote!(AffineInStep),
        other => {
            return Err(GenError::Unsupported {
                what: format!("the residual form {other:?}"),
            });
        }
    };
    Ok(quote! {
        fn residual_form(&self) -> ::physis_runtime::ResidualForm {
            ::physis_runtime::ResidualForm::#form
        }
    })
}

/// The inputs a function reads.
pub(crate) fn inputs_of(f: &Function) -> Inputs {
    Inputs {
        t: f.reads(Source::T),
        h: f.reads(Source::H),
        y: f.reads(Source::State),
        f0: f.reads(Source::F0),
        dw: f.reads(Source::Dw),
        guess: f.reads(Source::Guess),
        rate: f.reads(Source::Rate),
        seed: f.reads(Source::Seed),
        stages: f.reads(Source::Stages),
        unknown: 0,
    }
}

/// The parameter list of a generated function, in a fixed order.
pub(crate) fn signature(i: Inputs, dim: usize, nw: usize) -> TokenStream {
    let d = usize_lit(dim);
    let u = usize_lit(i.unknown_len(dim));
    let w = usize_lit(nw);
    let mut out = Vec::new();
    if i.t {
        out.push(quote!(t: f64));
    }
    if i.h {
        out.push(quote!(h: f64));
    }
    for (on, name) in [(i.y, "y"), (i.f0, "f0")] {
        if on {
            let id = format_ident!("{}", name);
            out.push(quote!(#id: &[f64; #d]));
        }
    }
    if i.dw {
        out.push(quote!(dw: &[f64; #w]));
    }
    for (on, name, n) in [(i.guess, "g", &u), (i.rate, "r", &d), (i.seed, "s", &u)] {
        if on {
            let id = format_ident!("{}", name);
            out.push(quote!(#id: &[f64; #n]));
        }
    }
    if i.stages {
        out.push(quote!(st: &[f64]));
    }
    quote!(#(#out),*)
}

/// How each input is spelled where a generated function is called (all slices there).
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
    fn conditions() -> At {
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

    fn initial() -> At {
        At::conditions()
    }

    fn jvp() -> At {
        At {
            s: quote!(s),
            ..At::conditions()
        }
    }

    fn reset() -> At {
        At::conditions()
    }

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

/// Statements filling `jac` (a `DenseMatrix` in scope, `false` returned when a value is not
/// finite): from the dense Jacobian function when the IR has one, else column by column
/// from the Jacobian-vector product at unit seeds.
pub(crate) fn jacobian_fill(
    dense: Option<(proc_macro2::Ident, Inputs)>,
    jvp: (proc_macro2::Ident, Inputs),
    at: &At,
    dim: usize,
    nw: usize,
) -> TokenStream {
    let bail = quote!(return false;);
    match dense {
        Some((name, inputs)) => {
            let c = invoke(&name, inputs, at, dim, nw, &bail);
            quote! {
                let v = #c;
                for (x, s) in jac.as_mut_slice().iter_mut().zip(v) { *x = s; }
            }
        }
        None => {
            let d = usize_lit(jvp.1.unknown_len(dim));
            let c = invoke(&jvp.0, jvp.1, at, dim, nw, &bail);
            quote! {
                for c in 0..#d {
                    let mut seed = [0.0f64; #d];
                    seed[c] = 1.0;
                    let seed = &seed[..];
                    let col = #c;
                    for (i, x) in col.iter().enumerate() { jac.set(i, c, *x); }
                }
            }
        }
    }
}
/// `{ convert each slice to an array (or run `fail`); self.name(args) }`.
pub(crate) fn invoke(
    name: &Ident,
    i: Inputs,
    at: &At,
    dim: usize,
    nw: usize,
    fail: &TokenStream,
) -> TokenStream {
    let d = usize_lit(dim);
    let u = usize_lit(i.unknown_len(dim));
    let w = usize_lit(nw);
    let mut stmts = Vec::new();
    let mut args = Vec::new();
    if i.t {
        let t = &at.t;
        args.push(quote!(#t));
    }
    if i.h {
        let h = &at.h;
        args.push(quote!(#h));
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
        let st = &at.st;
        args.push(quote!(#st));
    }
    quote!({ #(#stmts)* Self::#name(&self.k, #(#args),*) })
}

/// `step` of an explicit scheme: `next`, then `error` when adaptive, then `f1`, then the
/// continuous extension's `q` when `dense` (the outputs `(adaptive, fsal, dense)`).
fn explicit(
    step: Inputs,
    rate: Inputs,
    (adaptive, fsal, dense): (bool, bool, bool),
    dim: usize,
    nw: usize,
) -> TokenStream {
    let d = usize_lit(dim);
    let call = invoke(
        &format_ident!("step_at"),
        step,
        &At::step(),
        dim,
        nw,
        &quote!(out.next.fill(f64::NAN); return;),
    );
    let mut from = dim;
    let err = if adaptive {
        let (a, b) = (usize_lit(from), usize_lit(from + dim));
        from += dim;
        quote!(if let Some(err) = out.err {
            for (x, s) in err.iter_mut().zip(&v[#a..#b]) { *x = *s; }
        })
    } else {
        quote!()
    };
    let q = if dense {
        let at = from + if fsal { dim } else { 0 };
        let (a, b) = (usize_lit(at), usize_lit(at + dim));
        quote!(if let Some(q) = out.dense {
            for (x, s) in q.iter_mut().zip(&v[#a..#b]) { *x = *s; }
        })
    } else {
        // Asked for a continuous extension the scheme lacks: zero, Hermite alone.
        quote!(if let Some(q) = out.dense {
            q.fill(0.0);
        })
    };
    let f1 = if fsal {
        let (a, b) = (usize_lit(from), usize_lit(from + dim));
        quote!(if let Some(f1) = out.f1 {
            for (x, s) in f1.iter_mut().zip(&v[#a..#b]) { *x = *s; }
        })
    } else {
        // Asked for f(t + h, next) without fsal: evaluate it, as the interpreter does.
        let at = At {
            t: quote!(args.t + args.h),
            y: quote!(&*out.next),
            ..At::step()
        };
        let rc = invoke(
            &format_ident!("rate_at"),
            rate,
            &at,
            dim,
            nw,
            &quote!(return;),
        );
        quote!(if let Some(f1) = out.f1 {
            let r1 = #rc;
            for (x, s) in f1.iter_mut().zip(r1) { *x = s; }
        })
    };
    quote! {
        #[inline]
        fn step(&mut self, args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            let v = #call;
            for (x, s) in out.next.iter_mut().zip(&v[..#d]) { *x = *s; }
            #err
            #q
            #f1
        }
    }
}

/// `residual`, its Jacobian (dense, or column by column through the JVP) and the error of
/// an adaptive implicit scheme.
fn implicit(
    res: Inputs,
    jac: Option<Inputs>,
    jvp: Inputs,
    err: Option<Inputs>,
    dim: usize,
    nw: usize,
) -> TokenStream {
    let d = usize_lit(dim);
    let at = At::step();
    let res_call = invoke(
        &format_ident!("residual_at"),
        res,
        &at,
        dim,
        nw,
        &quote!(r.fill(f64::NAN); return;),
    );
    let jac_fill = jacobian_fill(
        jac.map(|j| (format_ident!("jacobian_at"), j)),
        (format_ident!("residual_jvp_at"), jvp),
        &at,
        dim,
        nw,
    );
    let jac_body = quote! {
        #jac_fill
        true
    };
    let err_body = match err {
        Some(e) => {
            let c = invoke(
                &format_ident!("implicit_error_at"),
                e,
                &at,
                dim,
                nw,
                &quote!(err.fill(f64::NAN); return;),
            );
            quote! {
                let v = #c;
                for (x, s) in err.iter_mut().zip(v) { *x = s; }
            }
        }
        None => quote!(err.fill(0.0);),
    };
    quote! {
        fn step(&mut self, _args: &::physis_runtime::StepArgs<'_>, out: ::physis_runtime::StepOut<'_>) {
            // The driver never steps an implicit scheme; leave a non-finite state if it does.
            out.next.fill(f64::NAN);
        }

        fn residual(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], r: &mut [f64]) {
            let v = #res_call;
            for (x, s) in r.iter_mut().zip(v) { *x = s; }
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
            #jac_body
        }

        fn implicit_error(&mut self, args: &::physis_runtime::StepArgs<'_>, next: &[f64], err: &mut [f64]) {
            #err_body
        }
    }
}

/// `model_info()`: the static description the driver reads, built once and shared by every
/// instance (small and grid models alike).
pub(crate) fn model_info_fn(info: TokenStream) -> TokenStream {
    quote! {
        /// The static description the driver reads (names, scheme, clauses), shared
        /// by every instance.
        pub fn model_info() -> ::std::sync::Arc<::physis_runtime::ModelInfo> {
            static INFO: ::std::sync::LazyLock<::std::sync::Arc<::physis_runtime::ModelInfo>> =
                ::std::sync::LazyLock::new(|| ::std::sync::Arc::new(#info));
            ::std::sync::Arc::clone(&INFO)
        }
    }
}
