//! `POST /api/check`: the diagnostics of a text as the language server finds them
//! (`physis_lsp::Analysis`, the front door `physis check` uses), with spans as UTF-16 offsets
//! (what the editor counts in), and for a text that checks clean, each simulation's params
//! (name, SI unit, defaults) and named runs, for the page's inputs.

use physis_ir::front::Checked;
use physis_syntax::{Diagnostic, Severity, Span};
use serde::Serialize;

use super::job::Limits;
use crate::cmd::memory;

/// A span as the editor counts: UTF-16 code units from the start of the text.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Range {
    /// First code unit.
    pub from: usize,
    /// One past the last.
    pub to: usize,
}

/// A place a diagnostic points at besides its main span.
#[derive(Serialize, Debug)]
pub struct Related {
    /// Where.
    #[serde(flatten)]
    pub range: Range,
    /// What is said there.
    pub message: String,
}

/// One diagnostic.
#[derive(Serialize, Debug)]
pub struct Found {
    /// `PH0104`.
    pub code: String,
    /// `error`, `warning` (or `info` for a severity added later).
    pub severity: &'static str,
    /// The message.
    pub message: String,
    /// The main span.
    #[serde(flatten)]
    pub range: Range,
    /// The label on the main span, when there is one.
    pub label: String,
    /// Other places that explain it.
    pub related: Vec<Related>,
    /// Suggestions.
    pub hints: Vec<String>,
}

/// A param the page can set.
#[derive(Serialize, Debug)]
pub struct ParamInput {
    /// As declared (`v₀`).
    pub name: String,
    /// Its SI unit (`m/s`; empty for a pure number).
    pub unit: String,
    /// Its quantity kind (`Velocity`).
    pub quantity: String,
    /// Its default, one value per component, in that unit.
    pub default: Vec<f64>,
}

/// A simulation of the text.
#[derive(Serialize, Debug)]
pub struct SimulationInfo {
    /// Its name.
    pub name: String,
    /// Its params the run reads (empty when it does not lower).
    pub params: Vec<ParamInput>,
    /// Its named runs.
    pub runs: Vec<String>,
}

/// The answer.
#[derive(Serialize, Debug)]
pub struct CheckReply {
    /// Every diagnostic.
    pub diagnostics: Vec<Found>,
    /// Every simulation, when the text has no error.
    pub simulations: Vec<SimulationInfo>,
}

/// The UTF-16 offset of byte `offset` of `text` (inside a character, its start).
pub fn utf16(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    text[..offset].encode_utf16().count()
}

fn range(text: &str, span: Span) -> Range {
    Range {
        from: utf16(text, span.start as usize),
        to: utf16(text, span.end as usize),
    }
}

fn found(text: &str, d: &Diagnostic) -> Found {
    Found {
        code: d.code.to_string(),
        severity: match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            _ => "info",
        },
        message: d.message.clone(),
        range: range(text, d.primary.span),
        label: d.primary.message.clone(),
        related: (d.secondary.iter())
            .map(|l| Related {
                range: range(text, l.span),
                message: l.message.clone(),
            })
            .collect(),
        hints: d.hints.clone(),
    }
}

/// Diagnostics and simulations of `source`.
pub fn check(source: &str, limits: &Limits) -> CheckReply {
    let analysis = physis_lsp::Analysis::new(source.to_string());
    let diagnostics: Vec<Found> = (analysis.diagnostics().iter())
        .map(|d| found(source, d))
        .collect();
    let simulations = if physis_syntax::has_errors(analysis.diagnostics()) {
        Vec::new()
    } else {
        simulations(
            physis_ir::front::check(source.to_string(), "studio.hph"),
            limits,
        )
    };
    CheckReply {
        diagnostics,
        simulations,
    }
}

/// The unit a param's input is read in: its SI unit, `rad` for an angle (SI values of an
/// angle are radians), nothing for another pure number.
fn input_unit(dim: units::Dimension, quantity: &str) -> String {
    match dim.si_unit().as_str() {
        "" | "1" if quantity == "Angle" => "rad".into(),
        "" | "1" => String::new(),
        unit => unit.into(),
    }
}

/// Each simulation with the params its run reads; one whose lowering would pass the memory
/// budget, or that does not lower, is listed without params.
fn simulations(mut checked: Checked, limits: &Limits) -> Vec<SimulationInfo> {
    let budget = memory::parse_size(&limits.memory).ok();
    (0..checked.program.models.len())
        .map(|index| {
            let model = checked.model(index);
            let mut info = SimulationInfo {
                name: model.name.clone(),
                params: Vec::new(),
                runs: Vec::new(),
            };
            let estimate = memory::estimate(model);
            if memory::check(model, &estimate, memory::budget(budget)).is_some() {
                return info;
            }
            let Ok(ir) = checked.take(index) else {
                return info;
            };
            let defaults = ir.default_params();
            let model = checked.model(index);
            info.params = (checked.param_slots(index, &ir).into_iter())
                .map(|slot| {
                    let quantity = (model.params.iter())
                        .find(|p| p.key == slot.key)
                        .map(|p| p.kind.clone())
                        .unwrap_or_default();
                    ParamInput {
                        unit: input_unit(slot.dim, &quantity),
                        quantity,
                        default: (defaults.get(slot.offset..slot.offset + slot.len))
                            .map(<[f64]>::to_vec)
                            .unwrap_or_default(),
                        name: slot.name,
                    }
                })
                .collect();
            info.runs = ir.runs.iter().map(|r| r.name.clone()).collect();
            info
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_utf16_code_units() {
        let text = "α·𝑥 = 1";
        // α is 2 bytes and 1 unit, · 2 and 1, 𝑥 4 and 2.
        assert_eq!(utf16(text, 2), 1);
        assert_eq!(utf16(text, 4), 2);
        assert_eq!(utf16(text, 8), 4);
        // Inside a character: its start.
        assert_eq!(utf16(text, 5), 2);
        assert_eq!(utf16(text, 1000), text.encode_utf16().count());
    }
}
