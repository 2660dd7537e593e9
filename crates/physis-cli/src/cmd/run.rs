//! `physis run FILE.hph`: samples as CSV or JSON (streamed, constant memory), or `--summary`.

use super::Failure;
use super::prepare::{RunArgs, prepare};
use super::progress::run_into;
use physis_runtime::{CsvWriter, JsonWriter, RunEnd, Sample, SampleKind, SampleSink, Summary};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Sample formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `t` then each observe, one row per sample.
    Csv,
    /// An array of `{"t":..,"<observe>":..}` objects.
    Json,
    /// Apache Parquet (needs -o FILE): `t` and each observe, units in the column metadata.
    #[cfg(feature = "parquet")]
    Parquet,
}

/// Arguments of `physis run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    run: RunArgs,
    /// Sample format.
    #[arg(long, value_enum, default_value = "csv")]
    format: Format,
    /// Print one JSON object describing how the run ended instead of the samples.
    #[arg(long)]
    summary: bool,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    #[command(flatten)]
    ensemble: super::ensemble::EnsembleArgs,
    /// Compile the model to native code before the first step (the default compiles once
    /// a run has interpreted as much work as compiling costs).
    #[arg(long, conflicts_with = "no_jit")]
    jit: bool,
    /// Never compile: interpret the tapes for the whole run.
    #[arg(long)]
    no_jit: bool,
}

/// Counts nothing, keeps nothing: the summary needs only the end.
struct Discard;

impl SampleSink for Discard {
    fn sample(&mut self, _: &Sample<'_>) -> std::io::Result<()> {
        Ok(())
    }
    fn wants(&self, kind: SampleKind) -> bool {
        !matches!(kind, SampleKind::Step | SampleKind::Record)
    }
}

pub fn run(args: &Args) -> ExitCode {
    match execute(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

fn execute(args: &Args) -> Result<(), Failure> {
    args.ensemble.validate()?;
    if args.ensemble.active() {
        let format = clap::ValueEnum::to_possible_value(&args.format);
        let output = super::ensemble::Output {
            format: format.as_ref().map_or("", |v| v.get_name()),
            summary: args.summary,
            file: args.output.as_deref(),
            jit: args.jit,
            no_jit: args.no_jit,
        };
        return super::ensemble::execute(&args.run, &args.ensemble, &output);
    }
    let quiet = args.ensemble.quiet;
    let prepared = prepare(&args.run)?;
    #[allow(unused_mut)] // mutated only with the `jit` feature
    let mut model = prepared.model()?;
    let backend = super::backend::Backend::attach(&mut model, args.jit, args.no_jit);
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                Failure::usage(format!("error: cannot write {}: {e}", path.display()))
            })?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let run_failed =
        |e: physis_runtime::RunError| Failure::model(super::refusal::run_error_text(&e));
    let end: RunEnd = if args.summary {
        let end = run_into(model, &prepared.options, &mut Discard, quiet).map_err(run_failed)?;
        let backend = backend.describe();
        let summary = Summary {
            info: &prepared.ir.info,
            run: prepared.scenario.as_deref(),
            end: &end,
            backend: &backend,
        };
        let json = summary.to_json();
        writeln!(out, "{json}").map_err(io_failed)?;
        end
    } else {
        match args.format {
            Format::Csv => run_into(
                model,
                &prepared.options,
                &mut CsvWriter::new(&mut out),
                quiet,
            ),
            Format::Json => run_into(
                model,
                &prepared.options,
                &mut JsonWriter::new(&mut out),
                quiet,
            ),
            #[cfg(feature = "parquet")]
            Format::Parquet => {
                let mut sink = super::parquet::ParquetSink::create(args.output.as_deref())?;
                run_into(model, &prepared.options, &mut sink, quiet)
            }
        }
        .map_err(run_failed)?
    };
    out.flush().map_err(io_failed)?;
    let kind = end.reason.kind.as_str();
    if kind != "when" {
        eprintln!("note: the run ended as `{kind}` at t = {}", end.t);
        if let Some(hint) = end.reason.hint() {
            eprintln!("hint: {hint}");
        }
    }
    Ok(())
}

fn io_failed(e: std::io::Error) -> Failure {
    Failure::usage(format!("error: {e}"))
}
