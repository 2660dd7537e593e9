//! The anchor problems E1 and E2 and the generic symplectic Euler runner.
//!
//! Every candidate performs the same arithmetic in the same order, per component `i`:
//! E1: `f = k·x + b·v; a = f·(−1/m); v += a·dt; x += v·dt`;
//! E2: `v += g·dt; x += v·dt`.
//! The Python anchor (`anchors/exact_e1.py`) follows the same order.

use std::time::{Duration, Instant};

/// A rational `p/q` given by small integers, the form in which all constants are written.
pub type Ratio = (i64, u64);

/// Initial position shared by E1 and E2, in metres.
pub const X0: [Ratio; 3] = [(1, 1), (1, 2), (-1, 3)];
/// Initial velocity shared by E1 and E2, in metres per second.
pub const V0: [Ratio; 3] = [(0, 1), (1, 1), (1, 4)];

/// Exact field operations a candidate must provide for the two problems.
///
/// The step functions are per candidate so that each library is used the way it is fastest
/// (reference operators, in-place updates), while the order of operations stays fixed.
pub trait Rational: Sized {
    /// Precomputed constants of E1 in this representation.
    type E1Consts;
    /// Precomputed constants of E2 in this representation.
    type E2Consts;

    /// Builds `p/q`; `q` must be nonzero (all callers pass literal constants).
    fn ratio(p: i64, q: u64) -> Self;
    /// E1 constants `k`, `b`, `−1/m`, `dt`.
    fn e1_consts() -> Self::E1Consts;
    /// E2 constants `g` (per component) and `dt`.
    fn e2_consts() -> Self::E2Consts;
    /// One symplectic Euler step of E1.
    fn e1_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E1Consts);
    /// One symplectic Euler step of E2.
    fn e2_step(x: &mut [Self; 3], v: &mut [Self; 3], c: &Self::E2Consts);
    /// Bit length of the numerator's magnitude (in lowest terms).
    fn numer_bits(&self) -> u64;
    /// Bit length of the denominator (in lowest terms).
    fn denom_bits(&self) -> u64;
    /// Canonical `p/q` in lowest terms with `q > 0`, always with the `/q` part.
    fn to_pq(&self) -> String;
}

/// Which anchor problem to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// Spring k = 3 N/m, m = 7 kg, drag b = 1/5 kg/s, dt = 1/100 s.
    E1,
    /// Uniform gravity g = (0, 0, −981/100) m/s², dt = 1/10 s.
    E2,
}

pub use Problem::{E1, E2};

impl Problem {
    /// Short name used in tables and state files.
    pub fn name(self) -> &'static str {
        match self {
            E1 => "e1",
            E2 => "e2",
        }
    }
}

/// The result of one run: stepping time and the checked final state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Wall-clock time of the stepping loop only (no setup, no printing).
    pub elapsed: Duration,
    /// On-CPU time of the stepping loop, where the OS reports it (Linux). Less disturbed than
    /// wall time on a machine shared with other jobs.
    pub cpu: Option<Duration>,
    /// Final `x0, x1, x2, v0, v1, v2` as canonical `p/q` strings.
    pub state: [String; 6],
    /// Largest numerator bit length in the final state.
    pub max_numer_bits: u64,
    /// Largest denominator bit length in the final state.
    pub max_denom_bits: u64,
}

/// Runs `steps` symplectic Euler steps of `problem` with representation `R`.
pub fn run<R: Rational>(problem: Problem, steps: u64) -> Outcome {
    let (x, v, (elapsed, cpu)) = match problem {
        E1 => {
            let c = R::e1_consts();
            let (mut x, mut v) = initial::<R>();
            let (start, cpu_start) = (Instant::now(), thread_cpu_time());
            for _ in 0..steps {
                R::e1_step(&mut x, &mut v, &c);
            }
            (x, v, (start.elapsed(), cpu_since(cpu_start)))
        }
        E2 => {
            let c = R::e2_consts();
            let (mut x, mut v) = initial::<R>();
            let (start, cpu_start) = (Instant::now(), thread_cpu_time());
            for _ in 0..steps {
                R::e2_step(&mut x, &mut v, &c);
            }
            (x, v, (start.elapsed(), cpu_since(cpu_start)))
        }
    };
    let all = x.iter().chain(v.iter());
    let max_numer_bits = all.clone().map(R::numer_bits).max().unwrap_or(0);
    let max_denom_bits = all.clone().map(R::denom_bits).max().unwrap_or(0);
    let [x0, x1, x2] = x.map(|r| r.to_pq());
    let [v0, v1, v2] = v.map(|r| r.to_pq());
    Outcome {
        elapsed,
        cpu,
        state: [x0, x1, x2, v0, v1, v2],
        max_numer_bits,
        max_denom_bits,
    }
}

/// On-CPU time of the calling thread: the first field of `/proc/thread-self/schedstat` (ns).
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn cpu_since(start: Option<Duration>) -> Option<Duration> {
    Some(thread_cpu_time()?.saturating_sub(start?))
}

/// Initial state `(x0, v0)` in representation `R`.
pub fn initial<R: Rational>() -> ([R; 3], [R; 3]) {
    (
        X0.map(|(p, q)| R::ratio(p, q)),
        V0.map(|(p, q)| R::ratio(p, q)),
    )
}

/// Appends `/1` to an integer rendering so every library prints the same canonical form.
pub fn canonical_pq(display: String) -> String {
    if display.contains('/') {
        display
    } else {
        display + "/1"
    }
}
