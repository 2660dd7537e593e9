//! The model type itself: its parameter binding, one straight-line method per IR function
//! and the `physis_runtime::Model` implementation the driver calls. Mirrors the tape
//! interpreter (`physis_ir::TapeModel`) call for call.

use physis_ir::{Function, IrModel, SchemeFns, Source};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use crate::call::{At, Call, Store};
use crate::error::GenError;
use crate::func::{Inputs, body};
use crate::hoist::Hoist;
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
    /// Slots of the longest unknown a Newton solves: the state's, or a group of stages
    /// that read each other (`width·dim`); the Jacobian's seed and column (`seed`, `col`).
    pub unknown: usize,
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
    /// `conserved_at` (the observes conserve clauses name), when the model has any.
    pub(crate) conserved: Option<usize>,
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
        };
        // Last, so that a model without conserve clauses generates what it did before.
        let conserved = if ir.conserved.slots.is_empty() {
            None
        } else {
            Some(gen_fn("conserved_at", &ir.conserved.func, 0)?)
        };
        Ok(Fns {
            list,
            initial,
            rate,
            rate_jvp,
            margins,
            observe,
            conserved,
            resets,
            scheme,
        })
    }
}

/// What one storage writes into the model besides the methods: its own inherent items
/// (`bind`, ...), its functions and its lane kernel.
pub(crate) struct Emitted {
    /// `bind` and what it needs, beside `DIM` and `model_info`.
    pub(crate) items: TokenStream,
    /// The generated functions.
    pub(crate) fns: Vec<TokenStream>,
    /// The lane kernel's method of the `Model` implementation and its items.
    pub(crate) lanes: (Option<TokenStream>, Option<TokenStream>),
    pub(crate) storage: Storage,
}

/// The bodies of the `Model` methods, the same for both storages but for how a function
/// is called ([`Call`]).
struct Methods {
    initial: TokenStream,
    rate: TokenStream,
    /// Before the method's `true`.
    rate_jvp: TokenStream,
    margins: TokenStream,
    observe: TokenStream,
    /// The `conserved` method, when the model has conserve clauses.
    conserved: Option<TokenStream>,
    /// One `match event` arm per reset.
    reset_arms: Vec<TokenStream>,
    /// `step` and the implicit methods.
    scheme: TokenStream,
}

impl Methods {
    fn new(store: Store, ir: &IrModel, fns: &Fns) -> Methods {
        let (dim, nw) = (ir.dynamics.dim(), ir.info.noises);
        let g = |i: usize| &fns.list[i];
        let call = |i: usize, at: &At, fail: TokenStream, out: TokenStream| {
            Call::new(store, dim, nw, &fail).writing_into(g(i), at, out)
        };
        let at = At::conditions();
        let nan = quote!(out.fill(f64::NAN); return;);
        let reset_arms = fns
            .resets
            .iter()
            .zip(&ir.resets)
            .enumerate()
            .map(|(j, (i, r))| {
                let n = usize_lit(g(*i).out);
                let c = call(*i, &at, quote!(return;), quote!(v));
                let j = usize_lit(j);
                let writes = r.slots.iter().enumerate().map(|(k, s)| {
                    let (k, s) = (usize_lit(k), usize_lit(*s as usize));
                    quote!(if let Some(d) = post.get_mut(#s) { *d = v[#k]; })
                });
                quote!(#j => { let mut v = [0.0f64; #n]; #c #(#writes)* })
            })
            .collect();
        // The conserved observes into a local array, then each into its observe slot.
        let conserved = fns.conserved.map(|i| {
            let n = usize_lit(g(i).out);
            let c = call(i, &at, nan.clone(), quote!(v));
            let writes = ir.conserved.slots.iter().enumerate().map(|(k, s)| {
                let (k, s) = (usize_lit(k), usize_lit(*s as usize));
                quote!(if let Some(d) = out.get_mut(#s) { *d = v[#k]; })
            });
            quote! {
                fn conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
                    let r = dydt;
                    let mut v = [0.0f64; #n];
                    #c
                    #(#writes)*
                }
            }
        });
        let own = Call::new(store, dim, nw, &nan);
        let scheme = match &fns.scheme {
            SchemeGens::Explicit { step, outs } => {
                crate::scheme::explicit(&own, g(*step), g(fns.rate), *outs)
            }
            SchemeGens::Implicit { res, jac, jv, err } => {
                crate::scheme::implicit(&own, g(*res), jac.map(g), g(*jv), err.map(g))
            }
            SchemeGens::Staged {
                stages,
                finish,
                adaptive,
            } => {
                let stage_fns: Vec<_> = stages
                    .iter()
                    .map(|(res, jac, jv)| crate::staged::StageGens {
                        res: g(*res),
                        jac: jac.map(g),
                        jv: g(*jv),
                    })
                    .collect();
                crate::staged::staged(&own, &stage_fns, g(*finish), *adaptive)
            }
        };
        Methods {
            initial: call(fns.initial, &at, quote!(return;), quote!(y0)),
            rate: call(
                fns.rate,
                &at,
                quote!(dydt.fill(f64::NAN); return;),
                quote!(dydt),
            ),
            rate_jvp: call(
                fns.rate_jvp,
                &At::jvp(quote!(v)),
                quote!(out.fill(f64::NAN); return true;),
                quote!(out),
            ),
            margins: call(fns.margins, &at, nan.clone(), quote!(out)),
            observe: call(fns.observe, &at, nan.clone(), quote!(out)),
            conserved,
            reset_arms,
            scheme,
        }
    }
}

/// The generated methods and trait implementation of one model: small models keep every
/// value in stack arrays, fields on grids keep long arrays on the heap
/// ([`crate::grid_model`]); both fill the same model.
pub fn model_items(plan: &Plan, ir: &IrModel) -> Result<(TokenStream, Storage), GenError> {
    let on_heap = ir.dynamics.layout.parts.iter().any(|p| p.array) || ir.jacobian_pattern.is_some();
    let mut hoist = Hoist::default();
    let mut regs = 0usize;
    let fns = Fns::new(ir, |f, inputs| {
        if on_heap {
            crate::grid_func::body(f, inputs, &mut hoist, &mut regs)
        } else {
            body(f, inputs, &mut hoist)
        }
    })?;
    let (e, store) = if on_heap {
        (
            crate::grid_model::emit(plan, ir, &fns, &hoist, regs),
            Store::Heap,
        )
    } else {
        (on_stack(plan, ir, &fns, &hoist), Store::Stack)
    };
    let Methods {
        initial,
        rate,
        rate_jvp,
        margins,
        observe,
        conserved,
        reset_arms,
        scheme,
    } = Methods::new(store, ir, &fns);
    let form = residual_form(ir);
    let info_fn = model_info_fn(model_info(&ir.info)?);
    let ty = &plan.ty;
    let d = usize_lit(ir.dynamics.dim());
    let Emitted {
        items,
        fns,
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

            fn initial(&mut self, t0: f64, y0: &mut [f64]) {
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

            #conserved

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
    // The lane kernel steps explicit schemes only.
    let lane_step = match fns.scheme {
        SchemeGens::Explicit { step, outs } => Some((inp(step), outs.0, outs.1)),
        _ => None,
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
        lanes: (lane_method, lane_items),
        storage: Storage {
            hoisted: hoist.len,
            heap: None,
        },
    }
}

/// `fn residual_form`: the interpreter's claim about how the residual depends on `next`.
pub(crate) fn residual_form(ir: &IrModel) -> TokenStream {
    use physis_runtime::ResidualForm;
    let form = match ir.residual_form {
        ResidualForm::General => quote!(General),
        ResidualForm::Affine => quote!(Affine),
        ResidualForm::AffineInStep => quote!(AffineInStep),
    };
    quote! {
        fn residual_form(&self) -> ::physis_runtime::ResidualForm {
            ::physis_runtime::ResidualForm::#form
        }
    }
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
