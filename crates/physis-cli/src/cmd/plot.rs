//! `physis plot FILE.hph -o out.svg|out.png`: time series of the observes (one panel per
//! unit, the run's end and event times marked), phase plots (`--x`), a heat-map of a 1-D
//! field over time or a frame of a 2-D field (`--field`, `--at`), and ensemble means with
//! a 5-95 % band (`--ensemble N`). Drawing is `physis_plot`'s; this module turns a run into
//! figures.

use std::path::PathBuf;
use std::process::ExitCode;

use physis_plot::{Figure, Mark, MarkKind, Series};
use physis_runtime::{RunEnd, run_into};

use super::Failure;
use super::collect::{Collector, FrameSink};
use super::columns::{ColumnSpec, Source, all_states, field_names, grid_axes, resolve};
use super::prepare::{Prepared, RunArgs, prepare, quantity_scalar};

/// Arguments of `physis plot`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    run: RunArgs,
    /// The image to write: `.svg` or `.png`.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Columns to plot against time (observes, `t`, states as `x` or `x[1]`); repeatable.
    /// Default: every observe, or every state when there is none.
    #[arg(long = "y", value_name = "NAME")]
    y: Vec<String>,
    /// Plot the --y columns against this column instead of time (a phase plot).
    #[arg(long = "x", value_name = "NAME")]
    x: Option<String>,
    /// The field to draw: a heat-map over time (1-D) or one frame (2-D). Default for
    /// models with fields when no --y or --x is given: the first field.
    #[arg(long)]
    field: Option<String>,
    /// Time of a 2-D field's frame (`2 s`); default the end of the run.
    #[arg(long, value_name = "TIME")]
    at: Option<String>,
    /// Run N members and draw each column's mean with its 5-95 % band.
    #[arg(long, value_name = "N")]
    ensemble: Option<usize>,
    /// Image width in pixels.
    #[arg(long)]
    width: Option<u32>,
    /// Image height in pixels.
    #[arg(long)]
    height: Option<u32>,
}

pub fn run(args: &Args) -> ExitCode {
    match execute(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

fn execute(args: &Args) -> Result<(), Failure> {
    physis_plot::Format::from_path(&args.output)
        .map_err(|e| Failure::usage(format!("error: {e}")))?;
    super::ensemble::check_members(args.ensemble, "--ensemble")?;
    // The image size is checked before the run, not after it.
    for (flag, side) in [("--width", args.width), ("--height", args.height)] {
        if side.is_some_and(|n| !(1..=physis_plot::MAX_SIDE).contains(&n)) {
            return Err(Failure::usage(format!(
                "error: {flag} is from 1 to {} pixels",
                physis_plot::MAX_SIDE
            )));
        }
    }
    if args.field.is_some() && (args.x.is_some() || !args.y.is_empty()) {
        return Err(Failure::usage(
            "error: --field draws a field; it does not combine with --x or --y",
        ));
    }
    if args.ensemble.is_some() && (args.x.is_some() || args.field.is_some()) {
        return Err(Failure::usage(
            "error: --ensemble draws columns over time; drop --x and --field",
        ));
    }
    let prepared = prepare(&args.run)?;
    let info = prepared.ir.info.clone();
    let model = prepared.checked_model();
    let fields = field_names(model);
    let field = match (&args.field, args.x.is_none() && args.y.is_empty()) {
        (Some(f), _) => Some(f.clone()),
        (None, true) if args.ensemble.is_none() => fields.first().cloned(),
        _ => None,
    };
    if args.at.is_some() && field.is_none() {
        return Err(Failure::usage(
            "error: --at chooses the frame of a 2-D field; this plot has none",
        ));
    }
    let figure = if let Some(field) = field {
        field_figure(&prepared, model, &fields, &field, args.at.as_deref())?
    } else {
        let pick = |names: &[String]| -> Result<Vec<ColumnSpec>, Failure> {
            let mut out = Vec::new();
            for n in names {
                out.extend(resolve(n, &info, model, &fields)?);
            }
            Ok(out)
        };
        let mut ys = pick(&args.y)?;
        let x = match &args.x {
            Some(name) => match pick(std::slice::from_ref(name))?.as_slice() {
                [one] => Some(one.clone()),
                _ => {
                    return Err(Failure::usage(format!(
                        "error: --x `{name}` names several columns; pick one component"
                    )));
                }
            },
            None => None,
        };
        if ys.is_empty() {
            ys = (0..info.observes.len())
                .map(|i| resolve(&info.observes[i].name, &info, model, &fields))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .flatten()
                .filter(|c| x.as_ref() != Some(c))
                .collect();
            if ys.is_empty() {
                ys = all_states(&info, model, &fields)?
                    .into_iter()
                    .filter(|c| x.as_ref() != Some(c))
                    .collect();
            }
        }
        if ys.is_empty() {
            return Err(Failure::usage(format!(
                "error: `{}` has nothing to plot",
                info.name
            )));
        }
        match (args.ensemble, x) {
            (Some(n), _) => super::plot_ensemble::bands(&prepared, &ys, n)?,
            (None, Some(x)) => phase(&prepared, x, ys)?,
            (None, None) => time_series(&prepared, ys)?,
        }
    };
    let size = physis_plot::default_size(&figure);
    let size = (args.width.unwrap_or(size.0), args.height.unwrap_or(size.1));
    physis_plot::render_to_path(&figure, &args.output, size)
        .map_err(|e| Failure::usage(format!("error: {e}")))?;
    Ok(())
}

/// `Projectile` or `Projectile (run Steep)`.
pub fn title(prepared: &Prepared) -> String {
    match &prepared.scenario {
        Some(s) => format!("{} (run {s})", prepared.ir.info.name),
        None => prepared.ir.info.name.clone(),
    }
}

/// Runs the model into `sink`.
fn run_model(
    prepared: &Prepared,
    sink: &mut impl physis_runtime::SampleSink,
) -> Result<RunEnd, Failure> {
    let model = prepared.model()?;
    let end = run_into(model, &prepared.options, sink).map_err(|e| Failure {
        message: super::refusal::run_error_text(&e),
        code: 1,
    })?;
    let kind = end.reason.kind.as_str();
    if kind != "when" {
        eprintln!("note: the run ended as `{kind}` at t = {}", end.t);
    }
    Ok(end)
}

/// The end mark (`when: x[1] < 0 m ∧ t > 0 s`) and one mark per event firing.
pub fn marks(end: &RunEnd, events: &[f64]) -> Vec<Mark> {
    let kind = end.reason.kind.as_str();
    let label = match &end.reason.clause {
        Some(c) => format!("{kind}: {c}"),
        None => kind.to_string(),
    };
    let mut out: Vec<Mark> = events
        .iter()
        .map(|&t| Mark {
            t,
            label: "event".into(),
            kind: MarkKind::Event,
        })
        .collect();
    out.push(Mark {
        t: end.t,
        label,
        kind: MarkKind::End,
    });
    out
}

pub fn series(spec: &ColumnSpec, values: Vec<f64>) -> Series {
    Series {
        name: spec.name.clone(),
        quantity: spec.quantity.clone(),
        unit: spec.unit.clone(),
        values,
    }
}

fn time_series(prepared: &Prepared, ys: Vec<ColumnSpec>) -> Result<Figure, Failure> {
    let mut sink = Collector::new(&ys);
    let end = run_model(prepared, &mut sink)?;
    let marks = marks(&end, &sink.events);
    let Collector { time, values, .. } = sink;
    Ok(Figure::TimeSeries(physis_plot::TimeSeries {
        title: title(prepared),
        time,
        series: ys.iter().zip(values).map(|(s, v)| series(s, v)).collect(),
        marks,
    }))
}

fn phase(prepared: &Prepared, x: ColumnSpec, ys: Vec<ColumnSpec>) -> Result<Figure, Failure> {
    let mut specs = vec![x];
    specs.extend(ys);
    let mut sink = Collector::new(&specs);
    let end = run_model(prepared, &mut sink)?;
    let mut values = std::mem::take(&mut sink.values).into_iter();
    let xs = values.next().unwrap_or_default();
    let end_label = marks(&end, &[]).pop().map(|m| m.text());
    Ok(Figure::Phase(physis_plot::Phase {
        title: title(prepared),
        x: series(&specs[0], xs),
        y: specs[1..]
            .iter()
            .zip(values)
            .map(|(s, v)| series(s, v))
            .collect(),
        end: end_label,
    }))
}

fn field_figure(
    prepared: &Prepared,
    model: &physis_check::CheckedModel,
    fields: &[String],
    name: &str,
    at: Option<&str>,
) -> Result<Figure, Failure> {
    let info = &prepared.ir.info;
    let key = physis_syntax::lexer::normalize_name(name);
    let state = info
        .states
        .iter()
        .find(|s| physis_syntax::lexer::normalize_name(&s.name) == key && fields.contains(&s.name))
        .ok_or_else(|| {
            Failure::usage(format!(
                "error: `{}` has no field `{name}`; its fields: {}",
                info.name,
                if fields.is_empty() {
                    "none".to_string()
                } else {
                    fields.join(", ")
                }
            ))
        })?;
    let (unit, _) = super::columns::state_unit(model, &state.name);
    let periodic = model.state(&state.name).is_some_and(|id| {
        matches!(
            model.states[id.0].boundary,
            Some(physis_check::BoundaryCondition::Periodic)
        )
    });
    let axes = grid_axes(model, periodic);
    match axes.as_slice() {
        [axis] => {
            if at.is_some() {
                return Err(Failure::usage(
                    "error: --at applies to 2-D fields; a 1-D field is drawn over time",
                ));
            }
            let specs: Vec<ColumnSpec> = (0..state.len())
                .map(|k| ColumnSpec {
                    name: format!("{}[{k}]", state.name),
                    unit: unit.clone(),
                    quantity: String::new(),
                    source: Source::Slot(state.offset + k),
                })
                .collect();
            let mut sink = Collector::new(&specs);
            let end = run_model(prepared, &mut sink)?;
            let marks = marks(&end, &sink.events);
            let rows = (0..sink.time.len())
                .map(|i| sink.values.iter().map(|c| c[i]).collect())
                .collect();
            Ok(Figure::HeatMap(physis_plot::HeatMap {
                title: title(prepared),
                axis: axis.clone(),
                time: sink.time,
                rows,
                value: state.name.clone(),
                unit,
                marks,
            }))
        }
        [x, y] => {
            let at = match at {
                Some(text) => Some(quantity_scalar(text, units::dims::TIME, "--at")?),
                None => None,
            };
            let mut sink = FrameSink::new(state.offset, state.len(), at);
            run_model(prepared, &mut sink)?;
            Ok(Figure::Frame(physis_plot::FieldFrame {
                title: title(prepared),
                x: x.clone(),
                y: y.clone(),
                values: sink.values,
                value: state.name.clone(),
                unit,
                t: sink.t,
            }))
        }
        _ => Err(Failure::usage(format!(
            "error: `{name}` lives on a {}-D grid; plots draw 1-D and 2-D fields",
            axes.len()
        ))),
    }
}
