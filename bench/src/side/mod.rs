//! The side-by-side harness (issue 23 item 1, issue 20's work-precision tables): ours
//! (generated code and the interpreter), diffsol, a hand-written Dormand–Prince and SciPy on
//! the anchors of `/work/shared/ANCHORS.md`, timed in one process in interleaved rounds,
//! each with its error against an independent reference, and the ratios.
//!
//! Run: `cargo run --release -p bench --bin side_by_side -- [--rounds N] [--quick]`.

pub mod anchors;
pub mod diffsol_runs;
pub mod hand_dp5;
pub mod matched;
pub mod ours;
pub mod scipy;
pub mod stiff;
pub mod table;
pub mod timing;

use std::path::PathBuf;

use anchors::{Outcome, max_abs_error};
use diffsol_runs::Method;
use ours::generated;
use stiff::Problem;
use table::Table;
use timing::{Contender, interleaved};

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    /// Interleaved rounds per table (the median is over these).
    pub rounds: usize,
    /// Shortest round of one contender (s): fast runs repeat until they fill it.
    pub min_round_s: f64,
    /// Relative tolerances of the stiff work-precision tables.
    pub tolerances: Vec<f64>,
    /// The stiff problems to run.
    pub problems: Vec<Problem>,
    /// Only the stiff tables (no A1, A3, A4 at fixed step).
    pub stiff_only: bool,
    /// Which of A1, A3 and A4 to run (all when empty; none with `stiff_only`).
    pub nonstiff: Vec<NonStiff>,
    /// Python with SciPy for SciPy's rows (`None`: no SciPy rows).
    pub python: Option<PathBuf>,
    /// Solves per SciPy row (median).
    pub scipy_repeat: usize,
}

impl Config {
    /// One round of everything at one tolerance, no SciPy, no Brusselator (8,192 states;
    /// minutes in a debug build): what the test runs.
    pub fn quick() -> Self {
        Self {
            rounds: 1,
            min_round_s: 0.0,
            tolerances: vec![1e-8],
            problems: Problem::ALL
                .into_iter()
                .filter(|p| *p != Problem::Brusselator)
                .collect(),
            stiff_only: false,
            nonstiff: Vec::new(),
            python: None,
            scipy_repeat: 1,
        }
    }
}

/// The tables other than the stiff work-precision ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonStiff {
    /// A1 Lotka–Volterra, rk45 at 1e-8.
    A1,
    /// A3 bouncing ball, 7 bounces at 1e-12.
    A3,
    /// A4 heat, Crank–Nicolson at diffsol BDF's error.
    A4,
}

impl NonStiff {
    /// Every one, in the order printed.
    pub const ALL: [NonStiff; 3] = [NonStiff::A1, NonStiff::A3, NonStiff::A4];

    /// The table named by `key` (`a1`, `a3`, `a4`).
    pub fn from_key(key: &str) -> Option<NonStiff> {
        Self::ALL.into_iter().find(|t| t.key() == key)
    }

    /// The table's key on the command line.
    pub fn key(self) -> &'static str {
        match self {
            NonStiff::A1 => "a1",
            NonStiff::A3 => "a3",
            NonStiff::A4 => "a4",
        }
    }
}

/// Every table of one run.
pub fn run_all(cfg: &Config) -> Result<Vec<Table>, ours::LoadError> {
    let refs = scipy::references();
    let mut tables = Vec::new();
    for t in NonStiff::ALL {
        if cfg.stiff_only || !(cfg.nonstiff.is_empty() || cfg.nonstiff.contains(&t)) {
            continue;
        }
        tables.push(match t {
            NonStiff::A1 => a1(cfg, &refs)?,
            NonStiff::A3 => a3(cfg)?,
            NonStiff::A4 => a4(cfg)?,
        });
    }
    let keys: Vec<&str> = cfg.problems.iter().map(|p| p.key()).collect();
    let scipy_rows = cfg.python.as_ref().map(|py| {
        let atol: Vec<(&str, f64)> = cfg
            .problems
            .iter()
            .filter_map(|p| stiff::peer_atol(*p).map(|a| (p.key(), a)))
            .collect();
        scipy::run(py, &cfg.tolerances, &keys, &atol, cfg.scipy_repeat)
    });
    let mut matched = Vec::new();
    for &problem in &cfg.problems {
        let [wp, eq] = stiff::tables(cfg, &refs, problem, scipy_rows.as_ref());
        tables.push(wp);
        matched.push(eq);
    }
    tables.extend(matched);
    Ok(tables)
}

fn a1(cfg: &Config, refs: &scipy::References) -> Result<Table, ours::LoadError> {
    let tape = ours::interpreter(ours::NONSTIFF_SRC, "LotkaVolterra")?;
    // The same tapes run by `Tape::run` instead of their compact form (same bits).
    let mut plain = tape.clone();
    plain.plain_tapes();
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
            Contender::new("ours, generated, run reused", {
                let (mut again, opts) = (ours::Repeated::default(), &opts);
                move || again.run(generated::LotkaVolterra::new, opts, false)
            }),
            Contender::new("ours, interpreter, run reused", {
                let (mut again, opts, tape) = (ours::Repeated::default(), &opts, &tape);
                move || again.run(|| tape.clone(), opts, false)
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
            Contender::new("ours, interpreter, plain tape", || {
                ours::run(plain.clone(), &opts, false)
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
        &[("diffsol", 5), ("hand DP5", 6)],
    );
    table.notes.push(format!(
        "ours, JIT: {jit_report}, compiled once before the timing."
    ));
    Ok(table)
}

fn a3(cfg: &Config) -> Result<Table, ours::LoadError> {
    let tape = ours::interpreter(ours::NONSTIFF_SRC, "BouncingBall")?;
    // The same tapes run by `Tape::run` instead of their compact form (same bits).
    let mut plain = tape.clone();
    plain.plain_tapes();
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
            Contender::new("ours, generated, run reused", {
                let (mut again, opts) = (ours::Repeated::default(), &opts);
                move || again.run(generated::BouncingBall::new, opts, false)
            }),
            Contender::new("ours, interpreter, run reused", {
                let (mut again, opts, tape) = (ours::Repeated::default(), &opts, &tape);
                move || again.run(|| tape.clone(), opts, false)
            }),
            Contender::new("ours, JIT (rk45)", || {
                ours::run(native.clone(), &opts, false)
            }),
            Contender::new("diffsol tsit45 (gated root, reset)", || {
                diffsol_runs::bouncing_ball(1e-12)
            }),
            Contender::new("ours, interpreter, plain tape", || {
                ours::run(plain.clone(), &opts, false)
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
        &[("diffsol", 5)],
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
            Contender::new("ours, generated, run reused", {
                let (mut again, opts) = (ours::Repeated::default(), &opts);
                move || again.run(generated::HeatCn::new, opts, true)
            }),
            Contender::new("ours, interpreter, run reused", {
                let (mut again, opts, cn) = (ours::Repeated::default(), &opts, &cn);
                move || again.run(|| cn.clone(), opts, true)
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
        &[("diffsol", 4)],
    ))
}
