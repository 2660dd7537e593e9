//! The side-by-side harness (issue 23 item 1, issue 20's work-precision tables): ours
//! (generated code and the interpreter), diffsol, a hand-written Dormand–Prince and SciPy on
//! the anchors of `/work/shared/ANCHORS.md`, timed in one process in interleaved rounds,
//! each with its error against an independent reference, and the ratios.
//!
//! Run: `cargo run --release -p bench --bin side_by_side -- [--rounds N] [--quick]`.

pub mod anchors;
pub mod diffsol_runs;
pub mod hand_dp5;
pub mod ours;
pub mod scipy;
pub mod table;
pub mod timing;

use std::path::PathBuf;

use anchors::{Outcome, max_abs_error, max_rel_error};
use diffsol_runs::Method;
use ours::generated;
use table::{Table, fmt_err, fmt_ratio, fmt_time};
use timing::{Contender, Timed, interleaved};

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Interleaved rounds per table (the median is over these).
    pub rounds: usize,
    /// Shortest round of one contender (s): fast runs repeat until they fill it.
    pub min_round_s: f64,
    /// Tolerances of the stiff work-precision tables (rtol = atol).
    pub tolerances: Vec<f64>,
    /// Python with SciPy for SciPy's rows (`None`: no SciPy rows).
    pub python: Option<PathBuf>,
    /// Solves per SciPy row (median).
    pub scipy_repeat: usize,
}

impl Config {
    /// One round of everything at one tolerance, no SciPy: what the test runs.
    pub fn quick() -> Self {
        Self {
            rounds: 1,
            min_round_s: 0.0,
            tolerances: vec![1e-8],
            python: None,
            scipy_repeat: 1,
        }
    }
}

/// Every table of one run.
pub fn run_all(cfg: &Config) -> Result<Vec<Table>, ours::LoadError> {
    let refs = scipy::references();
    let mut tables = vec![a1(cfg, &refs)?, a3(cfg)?, a4(cfg)?];
    let scipy_rows = cfg
        .python
        .as_ref()
        .map(|py| scipy::run(py, &cfg.tolerances, cfg.scipy_repeat));
    for problem in [
        Stiff::Robertson,
        Stiff::VanDerPol,
        Stiff::Hires,
        Stiff::Heat,
    ] {
        tables.push(stiff(cfg, &refs, problem, scipy_rows.as_ref())?);
    }
    Ok(tables)
}

fn a1(cfg: &Config, refs: &scipy::References) -> Result<Table, ours::LoadError> {
    let tape = ours::interpreter(ours::NONSTIFF_SRC, "LotkaVolterra")?;
    let (native, jit_report) = ours::jit(ours::NONSTIFF_SRC, "LotkaVolterra")?;
    let opts = ours::with_tolerance(None);
    let timed = interleaved(
        vec![
            Contender::new("ours, generated (rk45)", || {
                ours::run(generated::LotkaVolterra::new(), &opts, false)
            }),
            Contender::new("ours, interpreter (rk45)", || {
                ours::run(tape.clone(), &opts, false)
            }),
            Contender::new("ours, JIT (rk45)", || {
                ours::run(native.clone(), &opts, false)
            }),
            Contender::new("diffsol tsit45", || diffsol_runs::lotka_volterra(1e-8)),
            Contender::new("hand DP5, stack arrays", || {
                let (y, s) = hand_dp5::integrate(
                    anchors::lv_rate,
                    0.0,
                    [1.0, 1.0],
                    anchors::LV_T_END,
                    1e-8,
                    1e-8,
                );
                Outcome {
                    state: y.to_vec(),
                    steps: s.steps,
                    evaluations: s.evaluations,
                    ..Outcome::default()
                }
            }),
        ],
        cfg.rounds,
        cfg.min_round_s,
    );
    let mut table = table::ratios_table(
        "A1 Lotka–Volterra, t = 10, tolerance 1e-8",
        "error: max |y(10) − reference| (SciPy DOP853 rtol 1e-13)",
        &timed,
        |o| max_abs_error(&o.state, &refs.a1),
        &[("diffsol", 3), ("hand DP5", 4)],
    );
    table.notes.push(format!(
        "ours, JIT: {jit_report}, compiled once before the timing."
    ));
    Ok(table)
}

fn a3(cfg: &Config) -> Result<Table, ours::LoadError> {
    let tape = ours::interpreter(ours::NONSTIFF_SRC, "BouncingBall")?;
    let (native, jit_report) = ours::jit(ours::NONSTIFF_SRC, "BouncingBall")?;
    let opts = ours::with_tolerance(None);
    let exact = anchors::ball_bounces();
    let timed = interleaved(
        vec![
            Contender::new("ours, generated (rk45)", || {
                ours::run(generated::BouncingBall::new(), &opts, false)
            }),
            Contender::new("ours, interpreter (rk45)", || {
                ours::run(tape.clone(), &opts, false)
            }),
            Contender::new("ours, JIT (rk45)", || {
                ours::run(native.clone(), &opts, false)
            }),
            Contender::new("diffsol tsit45 (gated root, reset)", || {
                diffsol_runs::bouncing_ball(1e-12)
            }),
        ],
        cfg.rounds,
        cfg.min_round_s,
    );
    let mut table = table::ratios_table(
        "A3 bouncing ball, 7 bounces to t = 10, tolerance 1e-12",
        "error: max |bounce time − closed form| over the 7 bounces (∞ if a bounce is missed)",
        &timed,
        |o| {
            if o.events.len() == exact.len() {
                max_abs_error(&o.events, &exact)
            } else {
                f64::INFINITY
            }
        },
        &[("diffsol", 3)],
    );
    table.notes.push(format!(
        "ours, JIT: {jit_report}, compiled once before the timing."
    ));
    Ok(table)
}

fn a4(cfg: &Config) -> Result<Table, ours::LoadError> {
    let cn = ours::interpreter(ours::STIFF_SRC, "HeatCn")?;
    let opts = ours::with_tolerance(None);
    let exact = anchors::heat_exact();
    let timed = interleaved(
        vec![
            Contender::new("ours, generated (crankNicolson, 320 steps)", || {
                ours::run(generated::HeatCn::new(), &opts, true)
            }),
            Contender::new("ours, interpreter (crankNicolson, 320 steps)", || {
                ours::run(cn.clone(), &opts, true)
            }),
            Contender::new("diffsol bdf, sparse LU (rtol 1e-6, atol 1e-9)", || {
                diffsol_runs::heat(Method::Bdf, 1e-6, 1e-9)
            }),
        ],
        cfg.rounds,
        cfg.min_round_s,
    );
    Ok(table::ratios_table(
        "A4 heat 1-D, N = 100, T = 0.1, at diffsol BDF's error",
        "error: max |u(T) − semi-discrete exact solution| over the interior nodes",
        &timed,
        |o| max_abs_error(&o.state, &exact),
        &[("diffsol", 2)],
    ))
}

/// The stiff anchors of the work-precision tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stiff {
    /// A2 to 1e11 s.
    Robertson,
    /// A10, μ = 1000, to 3000 s.
    VanDerPol,
    /// A11.
    Hires,
    /// A4 with adaptive schemes.
    Heat,
}

impl Stiff {
    fn key(self) -> &'static str {
        match self {
            Stiff::Robertson => "robertson",
            Stiff::VanDerPol => "van_der_pol",
            Stiff::Hires => "hires",
            Stiff::Heat => "heat",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Stiff::Robertson => "A2 Robertson to t = 1e11 s",
            Stiff::VanDerPol => "A10 Van der Pol, μ = 1000, to t = 3000 s",
            Stiff::Hires => "A11 HIRES to t = 321.8122 s",
            Stiff::Heat => "A4 heat 1-D, N = 100, T = 0.1 (adaptive schemes)",
        }
    }

    fn model(self) -> &'static str {
        match self {
            Stiff::Robertson => "Robertson",
            Stiff::VanDerPol => "VanDerPol",
            Stiff::Hires => "Hires",
            Stiff::Heat => "HeatEsdirk",
        }
    }

    /// The same problem integrated by the built-in `bdf`.
    fn bdf_model(self) -> &'static str {
        match self {
            Stiff::Robertson => "RobertsonBdf",
            Stiff::VanDerPol => "VanDerPolBdf",
            Stiff::Hires => "HiresBdf",
            Stiff::Heat => "HeatBdf",
        }
    }

    fn generated_bdf(self, opts: &physis_runtime::RunOptions) -> Outcome {
        match self {
            Stiff::Robertson => ours::run(generated::RobertsonBdf::new(), opts, false),
            Stiff::VanDerPol => ours::run(generated::VanDerPolBdf::new(), opts, false),
            Stiff::Hires => ours::run(generated::HiresBdf::new(), opts, false),
            Stiff::Heat => ours::run(generated::HeatBdf::new(), opts, true),
        }
    }

    fn generated(self, opts: &physis_runtime::RunOptions) -> Outcome {
        match self {
            Stiff::Robertson => ours::run(generated::Robertson::new(), opts, false),
            Stiff::VanDerPol => ours::run(generated::VanDerPol::new(), opts, false),
            Stiff::Hires => ours::run(generated::Hires::new(), opts, false),
            // physis-build cannot emit implicit stages on grid fields yet (build.rs skips it).
            Stiff::Heat => Outcome::failed("not generated: implicit stages on a grid".into()),
        }
    }

    fn diffsol(self, method: Method, tol: f64) -> Outcome {
        match self {
            Stiff::Robertson => diffsol_runs::robertson(method, tol),
            Stiff::VanDerPol => diffsol_runs::van_der_pol(method, tol),
            Stiff::Hires => diffsol_runs::hires(method, tol),
            Stiff::Heat => diffsol_runs::heat(method, tol, tol),
        }
    }

    fn reference(self, refs: &scipy::References) -> Vec<f64> {
        match self {
            Stiff::Robertson => refs.robertson.clone(),
            Stiff::VanDerPol => refs.van_der_pol.clone(),
            Stiff::Hires => refs.hires.clone(),
            Stiff::Heat => anchors::heat_exact(),
        }
    }

    fn error(self, got: &[f64], want: &[f64]) -> f64 {
        match self {
            Stiff::Heat => max_abs_error(got, want),
            _ => max_rel_error(got, want),
        }
    }
}

fn stiff(
    cfg: &Config,
    refs: &scipy::References,
    problem: Stiff,
    scipy_rows: Option<&Result<Vec<scipy::Row>, scipy::ScipyError>>,
) -> Result<Table, ours::LoadError> {
    let tape = ours::interpreter(ours::STIFF_SRC, problem.model())?;
    let tape_bdf = ours::interpreter(ours::STIFF_SRC, problem.bdf_model())?;
    let reference = problem.reference(refs);
    let mut rows: Vec<(f64, Timed)> = Vec::new();
    for &tol in &cfg.tolerances {
        let opts = ours::with_tolerance(Some(tol));
        let timed = interleaved(
            vec![
                Contender::new("ours, generated esdirk43", || problem.generated(&opts)),
                Contender::new("ours, interpreter esdirk43", || {
                    ours::run(tape.clone(), &opts, problem == Stiff::Heat)
                }),
                Contender::new("ours, generated bdf", || problem.generated_bdf(&opts)),
                Contender::new("ours, interpreter bdf", || {
                    ours::run(tape_bdf.clone(), &opts, problem == Stiff::Heat)
                }),
                Contender::new(Method::Bdf.label(), || problem.diffsol(Method::Bdf, tol)),
                Contender::new(Method::Esdirk34.label(), || {
                    problem.diffsol(Method::Esdirk34, tol)
                }),
            ],
            cfg.rounds,
            cfg.min_round_s,
        );
        rows.extend(timed.into_iter().map(|t| (tol, t)));
    }
    let mut note = String::from(match problem {
        Stiff::Heat => "error: max |u(T) − semi-discrete exact solution|",
        _ => "error: max over components of |y − ref|/|ref| (ref: SciPy Radau rtol 1e-13)",
    });
    note.push_str(
        "; rtol = atol = tol for every solver; ratio: time / diffsol bdf at the same tol",
    );
    let mut t = table::work_precision(problem.title(), &note, &rows, |o| {
        problem.error(&o.state, &reference)
    });
    match scipy_rows {
        None => t.notes.push("SciPy not run (no --python)".into()),
        Some(Err(e)) => t.notes.push(format!("SciPy not run: {e}")),
        Some(Ok(all)) => {
            for r in all.iter().filter(|r| r.problem == problem.key()) {
                let bdf = rows
                    .iter()
                    .find(|(tol, x)| *tol == r.tol && x.name == Method::Bdf.label())
                    .map(|(_, x)| x.median_s);
                let (err, time) = match &r.error {
                    Some(e) => (format!("failed: {e}"), String::new()),
                    None if !r.success => ("failed".into(), fmt_time(r.median_s)),
                    None => (
                        fmt_err(problem.error(&r.y, &reference)),
                        fmt_time(r.median_s),
                    ),
                };
                t.rows.push(vec![
                    r.solver.clone(),
                    format!("{:e}", r.tol),
                    err,
                    r.steps.to_string(),
                    r.nfev.to_string(),
                    time,
                    bdf.map(|b| fmt_ratio(r.median_s / b)).unwrap_or_default(),
                ]);
            }
        }
    }
    Ok(t)
}
