//! What the generated items of one model are called and what their docs say: the Rust
//! names of the types, params, states, observes and named runs, with the model line each
//! comes from.

use physis_check::CheckedModel;
use physis_ir::IrModel;
use physis_syntax::{LineIndex, Span};
use proc_macro2::Ident;
use quote::format_ident;

use crate::names::{ascii, distinct, ident, snake};

/// Methods of the generated model type, which a named run may not shadow.
const METHODS: &[&str] = &[
    "new",
    "with_params",
    "defaults",
    "params",
    "model_info",
    "run",
    "run_with",
    "run_configured",
    "run_slots",
    "stream",
    "stream_with",
    "stream_configured",
    "info",
    "initial",
    "rate",
    "step",
    "residual",
    "residual_jacobian",
    "jacobian_layout",
    "implicit_error",
    "stage_residual",
    "stage_jacobian",
    "stage_jacobian_sparse",
    "stage_finish",
    "rate_jvp",
    "margins",
    "reset",
    "observe",
    "bind",
    "clone",
    "default",
];

/// A param, state or observe as generated.
#[derive(Clone, Debug)]
pub struct Field {
    /// Rust field name.
    pub ident: Ident,
    /// The name as written in the model.
    pub name: String,
    /// First slot (state or param vector); unused for observes.
    pub offset: usize,
    /// Components; `None` for a scalar.
    pub len: Option<usize>,
    /// Doc text: the clause and its line.
    pub doc: String,
}

impl Field {
    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.len.unwrap_or(1)
    }
}

/// A named run as generated.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Method name (`steep`).
    pub method: Ident,
    /// Name as written (`Steep`).
    pub name: String,
    /// The parameter vector, slot order.
    pub params: Vec<f64>,
    /// Doc text.
    pub doc: String,
}

/// Every name and doc of one model.
#[derive(Clone, Debug)]
pub struct Plan {
    /// `Projectile`
    pub ty: Ident,
    /// `ProjectileParams`
    pub params_ty: Ident,
    /// `ProjectileState`
    pub state_ty: Ident,
    /// `ProjectileSample`
    pub sample_ty: Ident,
    /// `ProjectileRun`
    pub run_ty: Ident,
    /// `ProjectileStream`
    pub stream_ty: Ident,
    /// The collecting sink (private to the generated code's users in spirit).
    pub columns_ty: Ident,
    /// The model as written.
    pub name: String,
    /// `file.hph line N`.
    pub origin: String,
    /// Params in slot order.
    pub params: Vec<Field>,
    /// States in slot order.
    pub states: Vec<Field>,
    /// Observes in column order.
    pub observes: Vec<Field>,
    /// Named runs.
    pub runs: Vec<Scenario>,
    /// Default parameter vector.
    pub defaults: Vec<f64>,
    /// The laws, one line each (`line 7: law x' = v`).
    pub laws: Vec<String>,
}

/// Where a span sits: its clause text and 1-based line.
pub struct Locator<'a> {
    source: &'a str,
    lines: LineIndex,
}

impl<'a> Locator<'a> {
    /// Indexes `source`.
    pub fn new(source: &'a str) -> Self {
        Locator {
            source,
            lines: LineIndex::new(source),
        }
    }

    /// The span's line (1-based) and its text on one line.
    pub fn at(&self, span: Span) -> (u32, String) {
        if span.end as usize > self.source.len() {
            return (0, String::new());
        }
        let line = self.lines.line_col(self.source, span.start as usize).line;
        let text = span
            .text(self.source)
            .split_whitespace()
            .collect::<Vec<_>>();
        (line, text.join(" "))
    }
}

impl Plan {
    /// Names and docs for `m` lowered to `ir`, from `file` with text `source`.
    pub fn new(m: &CheckedModel, ir: &IrModel, source: &str, file: &str) -> Plan {
        let loc = Locator::new(source);
        let base = ascii(&m.name);
        let (line, _) = loc.at(m.span);
        let clause = |span: Span| {
            let (l, text) = loc.at(span);
            format!("`{text}` (line {l})")
        };
        let param_names: Vec<String> = m.params.iter().map(|p| ascii(&p.name)).collect();
        let param_idents = distinct(&param_names, &[]);
        let params = m
            .params
            .iter()
            .zip(&ir.params)
            .zip(param_idents)
            .map(|((p, spec), id)| Field {
                ident: ident(&id),
                name: p.name.clone(),
                offset: spec.offset as usize,
                len: matches!(p.shape, physis_check::Shape::Vector(_))
                    .then_some(spec.default.len()),
                doc: format!("{}, SI base units.", clause(p.span)),
            })
            .collect();
        let state_names: Vec<String> = m.states.iter().map(|s| ascii(&s.name)).collect();
        let state_idents = distinct(&state_names, &[]);
        let states = ir
            .info
            .states
            .iter()
            .zip(&m.states)
            .zip(state_idents)
            .map(|((s, cs), id)| Field {
                ident: ident(&id),
                name: s.name.clone(),
                offset: s.offset,
                len: (!s.shape.is_empty()).then(|| s.len()),
                doc: format!("{}, SI base units.", clause(cs.span)),
            })
            .collect();
        // Observes become fields of the sample and of the run: avoid their other fields.
        let obs_names: Vec<String> = m.observes.iter().map(|o| ascii(&o.name)).collect();
        let obs_idents = distinct(
            &obs_names,
            &[
                "t",
                "state",
                "kind",
                "reason",
                "time",
                "final_t",
                "final_state",
                "stats",
                "info",
            ],
        );
        let observes = m
            .observes
            .iter()
            .zip(obs_idents)
            .map(|(o, id)| Field {
                ident: ident(&id),
                name: o.name.clone(),
                offset: 0,
                len: None,
                doc: format!("{}, SI base units.", clause(o.span)),
            })
            .collect();
        let run_names: Vec<String> = m.runs.iter().map(|r| snake(&r.name)).collect();
        let run_idents = distinct(&run_names, METHODS);
        let runs = m
            .runs
            .iter()
            .zip(run_idents)
            .map(|(r, id)| Scenario {
                method: ident(&id),
                name: r.name.clone(),
                params: ir
                    .run_params(&r.name)
                    .unwrap_or_else(|| ir.default_params()),
                doc: format!("The named run {}.", clause(r.span)),
            })
            .collect();
        let laws = m
            .laws
            .iter()
            .map(|l| {
                let (n, text) = loc.at(l.span);
                format!("line {n}: `{text}`")
            })
            .collect();
        Plan {
            params_ty: format_ident!("{}Params", base),
            state_ty: format_ident!("{}State", base),
            sample_ty: format_ident!("{}Sample", base),
            run_ty: format_ident!("{}Run", base),
            stream_ty: format_ident!("{}Stream", base),
            columns_ty: format_ident!("{}Columns", base),
            ty: ident(&base),
            name: m.name.clone(),
            origin: format!("{file} line {line}"),
            params,
            states,
            observes,
            runs,
            defaults: ir.default_params(),
            laws,
        }
    }
}
