//! The stiff work-precision tables of issue 20: our four adaptive stiff schemes (`esdirk43`,
//! `bdf`, `radau5`, `rodas3`; generated code and the interpreter) beside diffsol's BDF and
//! ESDIRK34 and SciPy's Radau, BDF and LSODA on A2 Robertson, A10 Van der Pol, A11 HIRES, A4
//! heat and A12 Brusselator 2-D, and the comparison at equal accuracy ([`super::matched`]).

use std::fmt::Write as _;

use super::Config;
use super::anchors::{self, Outcome, max_abs_error, max_rel_error};
use super::diffsol_runs::{self, Method};
use super::matched::{AtError, Point, work_at};
use super::ours::{self, Lowered};
use super::scipy;
use super::table::{Table, fmt_err, fmt_ratio, fmt_time};
use super::timing::{Contender, interleaved};

/// The stiff anchors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// A2 to 1e11 s.
    Robertson,
    /// A10, μ = 1000, to 3000 s.
    VanDerPol,
    /// A11.
    Hires,
    /// A4 with adaptive schemes.
    Heat,
    /// A12, 64×64 periodic, 8,192 states.
    Brusselator,
}

impl Problem {
    /// Every stiff anchor, in table order.
    pub const ALL: [Problem; 5] = [
        Problem::Robertson,
        Problem::VanDerPol,
        Problem::Hires,
        Problem::Heat,
        Problem::Brusselator,
    ];

    /// Its key in SciPy's rows and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Problem::Robertson => "robertson",
            Problem::VanDerPol => "van_der_pol",
            Problem::Hires => "hires",
            Problem::Heat => "heat",
            Problem::Brusselator => "brusselator",
        }
    }

    /// The problem of a key.
    pub fn from_key(key: &str) -> Option<Problem> {
        Problem::ALL.into_iter().find(|p| p.key() == key)
    }

    fn title(self) -> &'static str {
        match self {
            Problem::Robertson => "A2 Robertson to t = 1e11 s",
            Problem::VanDerPol => "A10 Van der Pol, μ = 1000, to t = 3000 s",
            Problem::Hires => "A11 HIRES to t = 321.8122 s",
            Problem::Heat => "A4 heat 1-D, N = 100, T = 0.1 (adaptive schemes)",
            Problem::Brusselator => {
                "A12 Brusselator 2-D, 64×64 periodic (8,192 states), to t = 11.5"
            }
        }
    }

    /// The simulation in `anchors/side/stiff.hph` that integrates this problem by `scheme`.
    fn model(self, scheme: Scheme) -> String {
        let base = match self {
            Problem::Robertson => "Robertson",
            Problem::VanDerPol => "VanDerPol",
            Problem::Hires => "Hires",
            Problem::Heat => "Heat",
            Problem::Brusselator => "Brusselator",
        };
        let suffix = match (self, scheme) {
            (Problem::Heat | Problem::Brusselator, Scheme::Esdirk43) => "Esdirk",
            (_, Scheme::Esdirk43) => "",
            (_, Scheme::Bdf) => "Bdf",
            (_, Scheme::Radau5) => "Radau",
            (_, Scheme::Rodas3) => "Rodas",
        };
        format!("{base}{suffix}")
    }

    /// A4 drops its pinned ends from the compared state.
    fn interior(self) -> bool {
        self == Problem::Heat
    }

    fn diffsol(self, method: Method, tol: f64, atol: f64) -> Outcome {
        match self {
            Problem::Robertson => diffsol_runs::robertson(method, tol, atol),
            Problem::VanDerPol => diffsol_runs::van_der_pol(method, tol, atol),
            Problem::Hires => diffsol_runs::hires(method, tol, atol),
            Problem::Heat => diffsol_runs::heat(method, tol, atol),
            Problem::Brusselator => diffsol_runs::brusselator(method, tol, atol),
        }
    }

    fn reference(self, refs: &scipy::References) -> Vec<f64> {
        match self {
            Problem::Robertson => refs.robertson.clone(),
            Problem::VanDerPol => refs.van_der_pol.clone(),
            Problem::Hires => refs.hires.clone(),
            Problem::Heat => anchors::heat_exact(),
            Problem::Brusselator => refs.brusselator.clone(),
        }
    }

    fn error(self, got: &[f64], want: &[f64]) -> f64 {
        match self {
            Problem::Heat | Problem::Brusselator => max_abs_error(got, want),
            _ => max_rel_error(got, want),
        }
    }

    fn error_note(self) -> &'static str {
        match self {
            Problem::Heat => {
                "error: max |u(T) − semi-discrete exact solution| over the interior nodes"
            }
            Problem::Brusselator => {
                "error: max over the 8,192 states of |y − ref| (ref: SciPy BDF at rtol 1e-12, \
                 atol 1e-14, sparse Jacobian; BDF at rtol 1e-11 and SciPy Radau at rtol 1e-8 agree with it to 9e-10 and 3.7e-10)"
            }
            _ => "error: max over components of |y − ref|/|ref| (ref: SciPy Radau rtol 1e-13)",
        }
    }

    /// Its tolerances: the Brusselator's runs take seconds, so none below 1e-8 there.
    fn tolerances(self, cfg: &Config) -> Vec<f64> {
        match self {
            Problem::Brusselator => cfg
                .tolerances
                .iter()
                .copied()
                .filter(|t| *t >= 1e-8)
                .collect(),
            _ => cfg.tolerances.clone(),
        }
    }

    /// Rounds for this problem: the Brusselator's runs take seconds, so at most 3.
    fn rounds(self, cfg: &Config) -> usize {
        match self {
            Problem::Brusselator => cfg.rounds.min(3),
            _ => cfg.rounds,
        }
    }
}

/// Our adaptive stiff schemes (the prelude's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// ESDIRK 4(3)6L[2]SA.
    Esdirk43,
    /// Variable-order BDF (NDF) 1–5.
    Bdf,
    /// Radau IIA order 5.
    Radau5,
    /// Rodas3 (Rosenbrock).
    Rodas3,
}

impl Scheme {
    /// Every one, in table order.
    pub const ALL: [Scheme; 4] = [
        Scheme::Bdf,
        Scheme::Radau5,
        Scheme::Rodas3,
        Scheme::Esdirk43,
    ];

    /// Its name in the prelude.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Esdirk43 => "esdirk43",
            Scheme::Bdf => "bdf",
            Scheme::Radau5 => "radau5",
            Scheme::Rodas3 => "rodas3",
        }
    }
}

/// One row of a work-precision table.
#[derive(Debug, Clone)]
struct Row {
    solver: String,
    tol: f64,
    outcome: Outcome,
    /// Median seconds per run (NaN when not timed).
    median_s: f64,
    /// SciPy's rows do not count rejections or take our time measure.
    scipy: bool,
}

const GENERATED: &str = "ours, generated";
const INTERPRETED: &str = "ours, interpreter";

fn our_label(backend: &str, scheme: Scheme) -> String {
    format!("{backend} {}", scheme.name())
}

/// The work-precision table of `problem` and its equal-accuracy table.
pub fn tables(
    cfg: &Config,
    refs: &scipy::References,
    problem: Problem,
    scipy_rows: Option<&Result<Vec<scipy::Row>, scipy::ScipyError>>,
) -> [Table; 2] {
    let models: Vec<(Scheme, Result<Lowered, ours::LoadError>)> = Scheme::ALL
        .into_iter()
        .map(|s| (s, ours::lowered(ours::STIFF_SRC, &problem.model(s))))
        .collect();
    let absolute = peer_atol(problem);
    let reference = problem.reference(refs);
    let mut rows: Vec<Row> = Vec::new();
    for tol in problem.tolerances(cfg) {
        let opts = ours::with_tolerance(Some(tol));
        let atol = absolute.unwrap_or(tol);
        let mut contenders = Vec::new();
        for (scheme, m) in &models {
            match m {
                Err(e) => {
                    for backend in [GENERATED, INTERPRETED] {
                        rows.push(failed_row(our_label(backend, *scheme), tol, e.to_string()));
                    }
                }
                Ok(l) => {
                    let name = problem.model(*scheme);
                    if ours::is_generated(&name) {
                        let (params, opts) = (&l.params, &opts);
                        contenders.push(Contender::new(our_label(GENERATED, *scheme), move || {
                            ours::run_generated(&name, params, opts, problem.interior())
                        }));
                    } else {
                        rows.push(failed_row(
                            our_label(GENERATED, *scheme),
                            tol,
                            "not generated: physis-build skipped the model as unsupported".into(),
                        ));
                    }
                    let (tape, opts) = (&l.tape, &opts);
                    contenders.push(Contender::new(our_label(INTERPRETED, *scheme), move || {
                        ours::run(tape.clone(), opts, problem.interior())
                    }));
                }
            }
        }
        for method in [Method::Bdf, Method::Esdirk34] {
            contenders.push(Contender::new(method.label(), move || {
                problem.diffsol(method, tol, atol)
            }));
        }
        let timed = interleaved(contenders, problem.rounds(cfg), cfg.min_round_s);
        rows.extend(timed.into_iter().map(|t| Row {
            solver: t.name,
            tol,
            outcome: t.outcome,
            median_s: t.median_s,
            scipy: false,
        }));
    }
    let mut notes = vec![format!(
        "{}; rtol = tol for every solver, atol {} for the peers{}; × diffsol bdf and × SciPy \
         Radau: time over theirs at the same tol; rejected: step attempts thrown away (error \
         test or Newton failure; SciPy does not report them)",
        problem.error_note(),
        match absolute {
            Some(a) => format!("= {a:e} (ours: the model's `abs {a:e}`)"),
            None => "= tol (ours: its default, tol × each state's running peak)".into(),
        },
        match problem {
            Problem::Brusselator => "; 3 rounds",
            _ => "",
        }
    )];
    match scipy_rows {
        None => notes.push("SciPy not run (no --python)".into()),
        Some(Err(e)) => notes.push(format!("SciPy not run: {e}")),
        Some(Ok(all)) => {
            for r in all.iter().filter(|r| r.problem == problem.key()) {
                let outcome = match &r.error {
                    Some(e) => Outcome::failed(e.clone()),
                    None if !r.success => Outcome::failed("solve_ivp reported failure".into()),
                    None => Outcome {
                        state: r.y.clone(),
                        steps: r.steps,
                        evaluations: r.nfev,
                        ..Outcome::default()
                    },
                };
                rows.push(Row {
                    solver: r.solver.clone(),
                    tol: r.tol,
                    outcome,
                    median_s: r.median_s,
                    scipy: true,
                });
            }
            notes.push(
                "SciPy: wall-clock medians in its own process (Python right-hand sides), so \
                 its time ratios are orders of magnitude only"
                    .into(),
            );
        }
    }
    let error = |o: &Outcome| problem.error(&o.state, &reference);
    [
        work_precision(problem.title(), notes, &rows, &error),
        equal_accuracy(problem, &rows, &error),
    ]
}

/// The absolute tolerance the peers get on `problem`: the `abs` our models give (Robertson,
/// HIRES; read from the bdf model, which every scheme's twin repeats), `None` for atol = tol.
pub fn peer_atol(problem: Problem) -> Option<f64> {
    ours::lowered(ours::STIFF_SRC, &problem.model(Scheme::Bdf))
        .ok()
        .and_then(|l| l.absolute)
}

fn failed_row(solver: String, tol: f64, why: String) -> Row {
    Row {
        solver,
        tol,
        outcome: Outcome::failed(why),
        median_s: f64::NAN,
        scipy: false,
    }
}

fn time_of(rows: &[Row], solver: &str, tol: f64) -> Option<f64> {
    rows.iter()
        .find(|r| r.tol == tol && r.solver == solver && r.outcome.failure.is_none())
        .map(|r| r.median_s)
}

fn work_precision(
    title: &str,
    notes: Vec<String>,
    rows: &[Row],
    error: &dyn Fn(&Outcome) -> f64,
) -> Table {
    let header = [
        "solver",
        "tol",
        "error",
        "steps",
        "rejected",
        "rate evals",
        "median time/run",
        "× diffsol bdf",
        "× SciPy Radau",
    ]
    .map(String::from)
    .to_vec();
    let mut sorted: Vec<&Row> = rows.iter().collect();
    // Ours and diffsol by tolerance, then SciPy by tolerance (the order they ran in).
    sorted.sort_by(|a, b| a.scipy.cmp(&b.scipy).then(b.tol.total_cmp(&a.tol)));
    let out = sorted
        .iter()
        .map(|r| {
            let o = &r.outcome;
            if let Some(f) = &o.failure {
                let mut v = vec![
                    r.solver.clone(),
                    format!("{:e}", r.tol),
                    format!("failed: {f}"),
                ];
                v.extend(std::iter::repeat_n(String::new(), header.len() - 3));
                return v;
            }
            let ratio = |peer: &str| {
                time_of(rows, peer, r.tol)
                    .map(|p| fmt_ratio(r.median_s / p))
                    .unwrap_or_else(|| "—".into())
            };
            vec![
                r.solver.clone(),
                format!("{:e}", r.tol),
                fmt_err(error(o)),
                o.steps.to_string(),
                o.rejected.map_or_else(|| "—".into(), |n| n.to_string()),
                if o.evaluations == 0 {
                    "—".into()
                } else {
                    o.evaluations.to_string()
                },
                fmt_time(r.median_s),
                ratio(Method::Bdf.label()),
                ratio("scipy Radau"),
            ]
        })
        .collect();
    Table {
        title: title.into(),
        notes,
        header,
        rows: out,
    }
}

fn curve(
    rows: &[Row],
    solver: &str,
    work: impl Fn(&Row) -> f64,
    error: &dyn Fn(&Outcome) -> f64,
) -> Vec<Point> {
    rows.iter()
        .filter(|r| r.solver == solver && r.outcome.failure.is_none())
        .map(|r| Point {
            error: error(&r.outcome),
            work: work(r),
        })
        .collect()
}

fn describe(at: AtError, ours: f64, fmt: impl Fn(f64) -> String) -> (String, String) {
    match at {
        AtError::Work(w) => (fmt(w), fmt_ratio(ours / w)),
        AtError::BelowRange => ("below its range".into(), "—".into()),
        AtError::AboveRange => ("above its range".into(), "—".into()),
        AtError::NoCurve => ("no curve".into(), "—".into()),
    }
}

/// Each of our runs against SciPy Radau's steps and diffsol BDF's time at the error it
/// reached.
fn equal_accuracy(problem: Problem, rows: &[Row], error: &dyn Fn(&Outcome) -> f64) -> Table {
    let radau = curve(rows, "scipy Radau", |r| r.outcome.steps as f64, error);
    let bdf = curve(rows, Method::Bdf.label(), |r| r.median_s, error);
    let header = [
        "ours",
        "tol",
        "error",
        "steps",
        "SciPy Radau steps at this error",
        "steps / Radau's",
        "diffsol bdf time at this error",
        "generated / diffsol",
        "interpreter / diffsol",
    ]
    .map(String::from)
    .to_vec();
    let mut out = Vec::new();
    let mut fewer = 0;
    let mut compared = 0;
    for scheme in Scheme::ALL {
        let interp = our_label(INTERPRETED, scheme);
        let gen_label = our_label(GENERATED, scheme);
        for r in rows.iter().filter(|r| r.solver == interp) {
            let o = &r.outcome;
            if let Some(f) = &o.failure {
                let mut v = vec![
                    scheme.name().into(),
                    format!("{:e}", r.tol),
                    format!("failed: {f}"),
                ];
                v.extend(std::iter::repeat_n(String::new(), header.len() - 3));
                out.push(v);
                continue;
            }
            let e = error(o);
            let (radau_steps, steps_ratio) =
                describe(work_at(&radau, e), o.steps as f64, |w| format!("{w:.0}"));
            if let AtError::Work(w) = work_at(&radau, e) {
                compared += 1;
                if (o.steps as f64) < w {
                    fewer += 1;
                }
            }
            let at_bdf = work_at(&bdf, e);
            let (bdf_time, interp_ratio) = describe(at_bdf, r.median_s, fmt_time);
            let gen_ratio = match (time_of(rows, &gen_label, r.tol), at_bdf) {
                (Some(g), AtError::Work(w)) => fmt_ratio(g / w),
                (None, _) => "not generated".into(),
                _ => "—".into(),
            };
            out.push(vec![
                scheme.name().into(),
                format!("{:e}", r.tol),
                fmt_err(e),
                o.steps.to_string(),
                radau_steps,
                steps_ratio,
                bdf_time,
                gen_ratio,
                interp_ratio,
            ]);
        }
    }
    let mut note = String::from(
        "Equal accuracy: SciPy Radau's steps and diffsol BDF's time at the error our run \
         reached, interpolated log-log between the two of their runs (any tolerance of this \
         table) whose errors bracket it; no figure outside their range. Steps and errors are \
         the interpreter's (generated code takes the same steps).",
    );
    let _ = write!(
        note,
        " Fewer steps than SciPy Radau at equal accuracy: {fewer} of the {compared} runs that \
         fall inside Radau's range."
    );
    Table {
        title: format!("{}: at equal accuracy", problem.title()),
        notes: vec![note],
        header,
        rows: out,
    }
}
