//! The model's static description ([`ModelInfo`]) as a Rust expression, so the generated
//! model hands the driver exactly what the interpreter hands it.

use physis_runtime::{Clause, Cmp, Cond, ModelInfo, SourceRef};
use proc_macro2::TokenStream;
use quote::quote;

use crate::error::GenError;
use crate::names::{f64_lit, usize_lit};

const RT: fn() -> TokenStream = || quote!(::physis_runtime);

/// `ModelInfo { ... }` with every field of `info`.
pub fn model_info(info: &ModelInfo) -> Result<TokenStream, GenError> {
    let rt = RT();
    let name = &info.name;
    let dim = usize_lit(info.dim);
    let states = info.states.iter().map(|s| {
        let (n, off, fixed) = (&s.name, usize_lit(s.offset), s.fixed_edge);
        let shape = s.shape.iter().map(|x| usize_lit(*x));
        quote!(#rt::StateInfo { name: #n.to_string(), offset: #off, shape: vec![#(#shape),*], fixed_edge: #fixed })
    });
    let observes = info.observes.iter().map(|o| {
        let (n, u, q) = (&o.name, &o.unit, &o.quantity);
        quote!(#rt::ObserveInfo { name: #n.to_string(), unit: #u.to_string(), quantity: #q.to_string() })
    });
    let noises = usize_lit(info.noises);
    let sc = &info.scheme;
    let (sname, order, adaptive, implicit, stochastic) =
        (&sc.name, sc.order, sc.adaptive, sc.implicit, sc.stochastic);
    let radius = opt_f64(sc.stability_radius);
    let (stages, residual_evals, fsal, dense) = (sc.stages, sc.residual_evals, sc.fsal, sc.dense);
    let bdf = sc.bdf;
    let implicit_stages = sc
        .implicit_stages
        .iter()
        .map(|s| {
            let kind = match s.kind {
                physis_runtime::StageKind::State => quote!(State),
                physis_runtime::StageKind::Rate => quote!(Rate),
                _ => quote!(Other),
            };
            let (evals, width, affine) = (s.residual_evals, s.width, s.affine);
            quote!(#rt::StageInfo { kind: #rt::StageKind::#kind, residual_evals: #evals, width: #width, affine: #affine })
        })
        .collect::<Vec<_>>();
    let st = &info.settings;
    let t0 = f64_lit(st.t0);
    let step = opt_f64(st.step);
    let tol = f64_lit(st.tolerance);
    let absolute = st.absolute.iter().map(|a| opt_f64(*a));
    let units = &st.units;
    let limit = match st.limit {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    };
    let seed = match st.seed {
        Some(n) => quote!(Some(#n)),
        None => quote!(None),
    };
    let record = opt_f64(st.record_every);
    let integrate = match &info.integrate {
        Some(SourceRef { text, line }) => {
            quote!(Some(#rt::SourceRef { text: #text.to_string(), line: #line }))
        }
        None => quote!(None),
    };
    let atoms = info
        .atoms
        .iter()
        .map(|a| {
            let op = cmp(a.op)?;
            let (time_only, affine) = (a.time_only, a.affine);
            Ok(quote!(#rt::AtomInfo { op: #op, time_only: #time_only, affine: #affine }))
        })
        .collect::<Result<Vec<_>, GenError>>()?;
    let stops = info
        .stops
        .iter()
        .map(clause)
        .collect::<Result<Vec<_>, _>>()?;
    let events = info
        .events
        .iter()
        .map(clause)
        .collect::<Result<Vec<_>, _>>()?;
    let conserves = info.conserves.iter().map(|c| {
        let (o, within, text, line) = (usize_lit(c.observe), f64_lit(c.within), &c.text, c.line);
        quote!(#rt::ConserveInfo { observe: #o, within: #within, text: #text.to_string(), line: #line })
    });
    let (crr, orr) = (info.conditions_read_rate, info.observes_read_rate);
    Ok(quote! {
        #rt::ModelInfo {
            name: #name.to_string(),
            dim: #dim,
            states: vec![#(#states),*],
            observes: vec![#(#observes),*],
            noises: #noises,
            scheme: #rt::SchemeInfo {
                name: #sname.to_string(),
                order: #order,
                adaptive: #adaptive,
                implicit: #implicit,
                stochastic: #stochastic,
                stability_radius: #radius,
                stages: #stages,
                residual_evals: #residual_evals,
                fsal: #fsal,
                dense: #dense,
                implicit_stages: vec![#(#implicit_stages),*],
                bdf: #bdf,
            },
            settings: #rt::Settings {
                t0: #t0,
                step: #step,
                tolerance: #tol,
                absolute: vec![#(#absolute),*],
                units: vec![#(#units.to_string()),*],
                limit: #limit,
                seed: #seed,
                record_every: #record,
            },
            integrate: #integrate,
            atoms: vec![#(#atoms),*],
            stops: vec![#(#stops),*],
            events: vec![#(#events),*],
            conserves: vec![#(#conserves),*],
            conditions_read_rate: #crr,
            observes_read_rate: #orr,
        }
    })
}

fn opt_f64(v: Option<f64>) -> TokenStream {
    match v {
        Some(x) => {
            let x = f64_lit(x);
            quote!(Some(#x))
        }
        None => quote!(None),
    }
}

fn clause(c: &Clause) -> Result<TokenStream, GenError> {
    let rt = RT();
    let cond = cond(&c.cond)?;
    let (text, line) = (&c.text, c.line);
    Ok(quote!(#rt::Clause { cond: #cond, text: #text.to_string(), line: #line }))
}

fn cond(c: &Cond) -> Result<TokenStream, GenError> {
    let rt = RT();
    let list = |cs: &[Cond]| cs.iter().map(cond).collect::<Result<Vec<_>, _>>();
    Ok(match c {
        Cond::Atom(i) => {
            let i = usize_lit(*i);
            quote!(#rt::Cond::Atom(#i))
        }
        Cond::Not(inner) => {
            let inner = cond(inner)?;
            quote!(#rt::Cond::Not(Box::new(#inner)))
        }
        Cond::All(cs) => {
            let cs = list(cs)?;
            quote!(#rt::Cond::All(vec![#(#cs),*]))
        }
        Cond::Any(cs) => {
            let cs = list(cs)?;
            quote!(#rt::Cond::Any(vec![#(#cs),*]))
        }
        other => {
            return Err(GenError::Unsupported {
                what: format!("the condition {other:?}"),
            });
        }
    })
}

fn cmp(c: Cmp) -> Result<TokenStream, GenError> {
    let rt = RT();
    Ok(match c {
        Cmp::Lt => quote!(#rt::Cmp::Lt),
        Cmp::Le => quote!(#rt::Cmp::Le),
        Cmp::Gt => quote!(#rt::Cmp::Gt),
        Cmp::Ge => quote!(#rt::Cmp::Ge),
        Cmp::Eq => quote!(#rt::Cmp::Eq),
        Cmp::Ne => quote!(#rt::Cmp::Ne),
        other => {
            return Err(GenError::Unsupported {
                what: format!("the comparison {other:?}"),
            });
        }
    })
}
