//! `physis run FILE --ensemble N` and `--sweep NAME=...`: many members of one simulation in
//! parallel, with statistics over them.
//!
//! Members: `--ensemble N` runs N members on noise streams `0..N`; `--sweep` alone runs one
//! member per parameter set; both together run N members per parameter set (member `i`
//! runs set `i / N` on stream `i`). At most [`MAX_MEMBERS`] members in all.
//!
//! Output: by default the statistics over time (mean, standard deviation and quantiles of
//! every observe at every time of the shared sample grid) as CSV or JSON; `--summary`
//! prints one JSON object with the statistics of the final values instead; `--members`
//! adds (or, without a file, prints instead) one row per member.

use super::Failure;
use super::prepare::{Prepared, RunArgs, prepare, quantity_scalar};
use super::progress::Progress;
use physis_ir::interpreter::lanes::WIDTH;
use physis_ir::{LaneProgram, TapeModel};
use physis_runtime::{Ensemble, EnsembleError, EnsembleResult, LaneKernel, ParamSet, Sweep};
use std::io::Write;
use std::path::{Path, PathBuf};
use units::number_prefix_len;

/// Most worker threads `--threads` may ask for (docs/limits.md).
pub const MAX_THREADS: usize = 1024;

/// Most members one command runs (parameter sets × members per set). Every member keeps
/// its final state and its observes on the sample grid until the statistics are taken.
pub const MAX_MEMBERS: usize = 1_000_000;

/// The ensemble and progress flags of `physis run`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EnsembleArgs {
    /// Run N members (noise streams 0..N) and print statistics over them; with --sweep,
    /// N members per parameter set.
    #[arg(long, value_name = "N")]
    pub ensemble: Option<usize>,
    /// Sweep a param: `NAME=a..b:count` (evenly spaced, both ends included) or
    /// `NAME=v1,v2,...`, values with their unit (`'v0=10..50 m/s:5'`); several sweeps give
    /// their product. One member per parameter set unless --ensemble says more.
    #[arg(long = "sweep", value_name = "SPEC")]
    pub sweep: Vec<String>,
    /// Quantiles reported by an ensemble, as probabilities.
    #[arg(
        long,
        value_name = "P,...",
        value_delimiter = ',',
        default_value = "0.05,0.5,0.95"
    )]
    pub quantiles: Vec<f64>,
    /// Per-member results as CSV (or JSON with --format json): into FILE beside the usual
    /// output, or, without a file, on stdout instead of it. Write `--members=FILE`.
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true)]
    pub members: Option<Option<PathBuf>>,
    /// Worker threads of an ensemble (default: one per core; at most [`MAX_THREADS`]).
    #[arg(long, value_name = "K")]
    pub threads: Option<usize>,
    /// No progress bar (it is shown only when stderr is a terminal).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl EnsembleArgs {
    /// True when the command asks for an ensemble or a sweep.
    pub fn active(&self) -> bool {
        self.ensemble.is_some() || !self.sweep.is_empty()
    }

    /// Range-checks the numeric flags whether or not an ensemble runs (a single run
    /// ignores `--threads` and `--quantiles`, but does not accept them out of range).
    pub fn validate(&self) -> Result<(), Failure> {
        check_members(self.ensemble, "--ensemble")?;
        check_threads(self.threads)?;
        check_quantiles(&self.quantiles)
    }
}

/// `--ensemble N` (of `run` or `plot`, named by `flag`): at least 1, at most [`MAX_MEMBERS`].
pub fn check_members(count: Option<usize>, flag: &str) -> Result<(), Failure> {
    match count {
        Some(0) => Err(Failure::usage(format!(
            "error: {flag} needs at least 1 member"
        ))),
        Some(n) if n > MAX_MEMBERS => Err(Failure::usage(format!(
            "error: {flag} is at most {MAX_MEMBERS} members, not {n}"
        ))),
        _ => Ok(()),
    }
}

/// `--threads K`: 1 ≤ K ≤ [`MAX_THREADS`].
fn check_threads(threads: Option<usize>) -> Result<(), Failure> {
    match threads {
        Some(0) => Err(Failure::usage("error: --threads needs at least 1 thread")),
        Some(k) if k > MAX_THREADS => Err(Failure::usage(format!(
            "error: --threads is at most {MAX_THREADS}, not {k}"
        ))),
        _ => Ok(()),
    }
}

/// Output choices `physis run` hands over (its `--format`, `--summary` and `--output`).
pub struct Output<'a> {
    /// The `--format` value's name (`csv`, `json`, ...).
    pub format: &'a str,
    /// `--summary`.
    pub summary: bool,
    /// `--output`.
    pub file: Option<&'a Path>,
    /// `--jit`: compile the lane tapes before the first batch.
    pub jit: bool,
    /// `--no-jit`: never compile them.
    pub no_jit: bool,
}

fn io_failed(e: impl std::fmt::Display) -> Failure {
    Failure {
        message: format!("error: {e}"),
        code: 2,
    }
}

/// Runs the ensemble the flags describe and writes its output.
pub fn execute(run: &RunArgs, args: &EnsembleArgs, output: &Output<'_>) -> Result<(), Failure> {
    let json = match output.format {
        "csv" => false,
        "json" => true,
        other => {
            return Err(Failure::usage(format!(
                "error: an ensemble writes csv or json, not --format {other}"
            )));
        }
    };
    args.validate()?;
    let per_set = args.ensemble.unwrap_or(1);
    let prepared = prepare(run)?;
    let sweep = parse_sweep(&prepared, run, &args.sweep)?;
    let members = sweep.len() as u128 * per_set as u128;
    if members > MAX_MEMBERS as u128 {
        return Err(Failure::usage(format!(
            "error: {members} members ({} parameter sets × {per_set}) are more than the \
             {MAX_MEMBERS} one command may run",
            sweep.len()
        )));
    }
    let slots = member_slots(&prepared, &sweep)?;
    // Without a sweep every member runs the same program: compile it once.
    let template = prepared.model()?;
    let params_of = |set: &ParamSet| {
        let mut params = prepared.params.clone();
        for ((_, v), &slot) in set.iter().zip(&slots) {
            params[slot] = v;
        }
        params
    };
    // A sweep's members share tapes compiled once with the parameters as inputs (the
    // same bits as tapes compiled per member, without a compilation per member).
    let unbound = if sweep.axes().is_empty() {
        None
    } else {
        Some(
            TapeModel::unbound(&prepared.ir)
                .map_err(|e| Failure::model(super::refusal::bind_error_text(&e)))?,
        )
    };
    let factory = |set: &ParamSet| -> Result<TapeModel, String> {
        match &unbound {
            Some(tapes) if !set.is_empty() => tapes.bind(params_of(set)).map_err(|e| e.to_string()),
            _ => Ok(template.clone()),
        }
    };
    // Batches of members share one dispatch of each lane-tape instruction (bit-identical
    // to running them one by one); a model the lanes cannot run gets no program.
    let program = LaneProgram::new(&prepared.ir).ok().flatten();
    // Lane tapes compile to native code once the ensemble has interpreted enough rows to
    // repay it (once for every batch and thread; the same bits either way).
    let backend = super::backend::attach_lanes(program.as_deref(), output.jit, output.no_jit);
    let lanes = |sets: &[ParamSet]| -> Option<Box<dyn LaneKernel>> {
        let params: Vec<Vec<f64>> = sets.iter().map(params_of).collect();
        let kernel = program.as_ref()?.kernel(&params)?;
        Some(Box::new(kernel))
    };
    let width = if program.is_some() { WIDTH } else { 0 };
    let mut ensemble = Ensemble::new(factory, per_set)
        .options(prepared.options.clone())
        .sweep(sweep)
        .quantiles(&args.quantiles)
        .lanes(lanes, width);
    if let Some(k) = args.threads {
        ensemble = ensemble.threads(k);
    }
    let progress = Progress::members(ensemble.len() as u64, args.quiet);
    let result = ensemble
        .run_with_progress(|done, _| progress.set(done as u64))
        .map_err(ensemble_failed);
    progress.finish();
    let mut result = result?;
    result.backend = Some(backend.describe());
    write(&result, args, output, json)?;
    note_reasons(&result);
    Ok(())
}

fn check_quantiles(ps: &[f64]) -> Result<(), Failure> {
    for (i, &p) in ps.iter().enumerate() {
        if !(0.0..=1.0).contains(&p) {
            return Err(Failure::usage(format!(
                "error: --quantiles: {p} is not a probability between 0 and 1"
            )));
        }
        if ps[..i].contains(&p) {
            return Err(Failure::usage(format!(
                "error: --quantiles: {p} is given twice"
            )));
        }
    }
    Ok(())
}

/// Parses the `--sweep` specs, reading each value in its param's unit like `--set` does.
fn parse_sweep(prepared: &Prepared, run: &RunArgs, specs: &[String]) -> Result<Sweep, Failure> {
    // Name the param problems first: they read better than a value's unit error.
    for spec in specs {
        let Some((name, _)) = spec.split_once('=') else {
            continue;
        };
        let slot = prepared.slot(name.trim())?;
        if slot.len != 1 {
            return Err(Failure::usage(format!(
                "error: --sweep: param `{}` has {} components; only scalar params can be swept",
                slot.name, slot.len
            )));
        }
        let set_too = run.set.iter().any(|a| {
            a.split_once('=')
                .and_then(|(n, _)| prepared.slot(n.trim()).ok())
                .is_some_and(|s| s.key == slot.key)
        });
        if set_too {
            return Err(Failure::usage(format!(
                "error: param `{}` is both set (--set) and swept (--sweep)",
                slot.name
            )));
        }
    }
    let convert = |name: &str, text: &str| -> Result<f64, String> {
        let slot = prepared.slot(name).map_err(|f| f.message)?;
        quantity_scalar(text, slot.dim, &slot.name).map_err(|f| {
            let m = f.message;
            m.strip_prefix("error: ").unwrap_or(&m).to_owned()
        })
    };
    let specs: Vec<String> = specs.iter().map(|s| share_unit(s)).collect();
    let sweep = Sweep::parse(&specs, convert)
        .map_err(|e| Failure::usage(format!("error: --sweep: {e}")))?;
    // Two spellings of one param (`v₀=...`, `v0=...`) are one axis too many.
    let mut keys: Vec<&str> = Vec::new();
    for axis in sweep.axes() {
        let key = prepared.slot(&axis.name)?.key.as_str();
        if keys.contains(&key) {
            return Err(Failure::usage(format!(
                "error: --sweep: param `{}` is swept twice",
                axis.name
            )));
        }
        keys.push(key);
    }
    Ok(sweep)
}

/// `v0=10..50 m/s:5` → `v0=10 m/s..50 m/s:5`, `k=1,2 Hz` → `k=1 Hz,2 Hz`: a unit written
/// once, after the last value, is every bare value's unit. Values with their own unit keep it.
fn share_unit(spec: &str) -> String {
    let Some((name, rhs)) = spec.split_once('=') else {
        return spec.to_owned();
    };
    let unit_of = |v: &str| {
        let v = v.trim();
        v[number_prefix_len(v)..].trim().to_owned()
    };
    let with = |v: &str, unit: &str| {
        let t = v.trim();
        if unit.is_empty() || t.is_empty() || number_prefix_len(t) != t.len() {
            t.to_owned()
        } else {
            format!("{t} {unit}")
        }
    };
    let rhs = match rhs.split_once("..") {
        Some((from, rest)) => match rest.rsplit_once(':') {
            Some((to, count)) => format!("{}..{}:{count}", with(from, &unit_of(to)), to.trim()),
            None => rhs.to_owned(),
        },
        None => {
            let items: Vec<&str> = rhs.split(',').collect();
            let unit = items.last().map(|v| unit_of(v)).unwrap_or_default();
            items
                .iter()
                .map(|v| with(v, &unit))
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    format!("{name}={rhs}")
}

/// The parameter-vector slot of each sweep axis, in axis order.
fn member_slots(prepared: &Prepared, sweep: &Sweep) -> Result<Vec<usize>, Failure> {
    sweep
        .axes()
        .iter()
        .map(|a| prepared.slot(&a.name).map(|s| s.offset))
        .collect()
}

fn ensemble_failed(e: EnsembleError) -> Failure {
    let code = match e {
        EnsembleError::NoMembers
        | EnsembleError::TooMany { .. }
        | EnsembleError::NoThreads
        | EnsembleError::BadQuantile { .. }
        | EnsembleError::DuplicateQuantile { .. } => 2,
        _ => 1,
    };
    Failure {
        message: super::refusal::ensemble_error_text(&e),
        code,
    }
}

fn create(path: &Path) -> Result<Box<dyn Write>, Failure> {
    let file = std::fs::File::create(path)
        .map_err(|e| Failure::usage(format!("error: cannot write {}: {e}", path.display())))?;
    Ok(Box::new(std::io::BufWriter::new(file)))
}

fn write(
    result: &EnsembleResult,
    args: &EnsembleArgs,
    output: &Output<'_>,
    json: bool,
) -> Result<(), Failure> {
    let mut out: Box<dyn Write> = match output.file {
        Some(path) => create(path)?,
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let members_only = matches!(args.members, Some(None));
    if let Some(Some(path)) = &args.members {
        write_members(result, create(path)?, json)?;
    }
    if members_only {
        write_members(result, out, json)?;
        return Ok(());
    }
    if output.summary {
        writeln!(out, "{}", result.summary_json()).map_err(io_failed)?;
        return out.flush().map_err(io_failed);
    }
    if let Err(e) = result.series() {
        return Err(Failure {
            message: format!(
                "error: {e}\nhint: --summary prints the statistics of the final values instead"
            ),
            code: 1,
        });
    }
    if json {
        result.write_json(&mut out).map_err(io_failed)
    } else {
        result.write_csv(&mut out).map_err(io_failed)
    }
}

fn write_members(
    result: &EnsembleResult,
    mut out: Box<dyn Write>,
    json: bool,
) -> Result<(), Failure> {
    if json {
        serde_json::to_writer(&mut out, &result.members).map_err(io_failed)?;
        writeln!(out).map_err(io_failed)?;
        out.flush().map_err(io_failed)
    } else {
        result.write_members_csv(out).map_err(io_failed)
    }
}

/// Members that did not end at a stop are worth a line on stderr, as for a single run.
#[allow(clippy::print_stderr)]
fn note_reasons(result: &EnsembleResult) {
    let total = result.members.len();
    for (kind, n) in result.reasons() {
        if n > 0 && kind.as_str() != "when" {
            eprintln!("note: {n} of {total} members ended as `{}`", kind.as_str());
        }
    }
    if result.excluded() > 0 {
        eprintln!(
            "note: {} members with non-finite final values are left out of the statistics",
            result.excluded()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::share_unit;

    #[test]
    fn a_trailing_unit_is_shared() {
        assert_eq!(share_unit("v0=10..50 m/s:5"), "v0=10 m/s..50 m/s:5");
        assert_eq!(share_unit("k=0.1, 0.2,0.3 Hz"), "k=0.1 Hz,0.2 Hz,0.3 Hz");
        assert_eq!(share_unit("v0=36 km/h..20 m/s:3"), "v0=36 km/h..20 m/s:3");
        assert_eq!(share_unit("k=1..2:3"), "k=1..2:3");
        assert_eq!(share_unit("k=1,,2 Hz"), "k=1 Hz,,2 Hz");
        assert_eq!(share_unit("k..2"), "k..2");
    }
}
