//! `physis plot FILE --ensemble N`: every chosen column's mean over the members with its
//! 5-95 % quantile band, from `physis_runtime::Ensemble` (member i on noise stream i, so
//! the figure depends on the seed only).

use physis_ir::TapeModel;
use physis_plot::{Band, Bands, Figure, Mark, MarkKind, Series};
use physis_runtime::{Ensemble, ParamSet};

use super::Failure;
use super::columns::{ColumnSpec, Source};
use super::observed::Observed;
use super::plot::title;
use super::prepare::Prepared;

/// The band's quantiles (and the median, which the ensemble reports alongside).
const QUANTILES: [f64; 3] = [0.05, 0.5, 0.95];

fn failure(message: String, code: u8) -> Failure {
    Failure { message, code }
}

/// Runs `count` members and turns the statistics of `columns` into bands.
pub fn bands(prepared: &Prepared, columns: &[ColumnSpec], count: usize) -> Result<Figure, Failure> {
    let info = &prepared.ir.info;
    // State columns ride along as extra observes after the model's own.
    let mut extra = Vec::new();
    let mut index = Vec::with_capacity(columns.len());
    for c in columns {
        match c.source {
            Source::Observe(i) => index.push(i),
            Source::Slot(slot) => {
                index.push(info.observes.len() + extra.len());
                extra.push((c.name.clone(), c.unit.clone(), c.quantity.clone(), slot));
            }
            Source::Time => {
                return Err(failure(
                    "error: `t` is the time axis of an ensemble plot; choose other columns".into(),
                    2,
                ));
            }
        }
    }
    // Every member runs the same program: compile it once.
    let template = TapeModel::with_params(&prepared.ir, prepared.params.clone())
        .map_err(|e| failure(super::refusal::bind_error_text(&e), 1))?;
    let factory = |_: &ParamSet| -> Result<Observed<TapeModel>, String> {
        Ok(Observed::new(template.clone(), &extra))
    };
    let result = Ensemble::new(factory, count)
        .options(prepared.options.clone())
        .quantiles(&QUANTILES)
        .run()
        .map_err(|e| {
            let code = if count == 0 { 2 } else { 1 };
            failure(super::refusal::ensemble_error_text(&e), code)
        })?;
    let series = result
        .series()
        .map_err(|e| failure(format!("error: {e}"), 1))?;
    let mut bands = Vec::with_capacity(columns.len());
    for (c, &i) in columns.iter().zip(&index) {
        let col = series
            .columns
            .get(i)
            .ok_or_else(|| failure(format!("error: no statistics for `{}`", c.name), 1))?;
        let (Some(lower), Some(upper)) = (col.quantiles.first(), col.quantiles.last()) else {
            return Err(failure(format!("error: no quantiles for `{}`", c.name), 1));
        };
        bands.push(Band {
            mean: Series {
                name: c.name.clone(),
                quantity: c.quantity.clone(),
                unit: c.unit.clone(),
                values: col.mean.clone(),
            },
            lower: lower.clone(),
            upper: upper.clone(),
        });
    }
    // Mark the end when every member ended the same way at the same time.
    let ends = &result.members;
    let marks = match ends.first() {
        Some(first)
            if ends
                .iter()
                .all(|m| m.end.t == first.end.t && m.end.reason.kind == first.end.reason.kind) =>
        {
            vec![Mark {
                t: first.end.t,
                label: first.end.reason.kind.as_str().to_string(),
                kind: MarkKind::End,
            }]
        }
        _ => Vec::new(),
    };
    Ok(Figure::Bands(Bands {
        title: format!("{}: mean and 5-95 % of {count} members", title(prepared)),
        time: series.t.clone(),
        bands,
        band_label: "5-95 %".into(),
        marks,
    }))
}
