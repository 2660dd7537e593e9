//! Interleaved timing: every contender of a table runs once per round, in turn, so load
//! changes on the shared machine touch all of them alike; the figure is the median over rounds
//! of the time per run (a round repeats a fast run enough times to span the timer's grain).
//! Time is the timing thread's on-CPU time (`CLOCK_THREAD_CPUTIME_ID` through `cpu-time`), so
//! time spent waiting for a core on the shared machine is not counted.

use std::hint::black_box;
use std::time::Instant;

use cpu_time::ThreadTime;

use super::anchors::Outcome;

/// One contender of a table: a name and a closure that does one whole run.
pub struct Contender<'a> {
    /// Name in the table.
    pub name: String,
    /// One whole run.
    pub run: Box<dyn FnMut() -> Outcome + 'a>,
}

impl<'a> Contender<'a> {
    /// A contender named `name`.
    pub fn new(name: impl Into<String>, run: impl FnMut() -> Outcome + 'a) -> Self {
        Self {
            name: name.into(),
            run: Box::new(run),
        }
    }
}

/// A contender's result: its last outcome and its median time per run.
#[derive(Debug, Clone)]
pub struct Timed {
    /// Name in the table.
    pub name: String,
    /// The outcome of the last run.
    pub outcome: Outcome,
    /// Median over rounds of the seconds per run.
    pub median_s: f64,
}

/// Times `contenders` over `rounds` interleaved rounds; each round of a contender lasts at
/// least `min_round_s` (repeating the run), decided from one warm-up run.
pub fn interleaved(
    mut contenders: Vec<Contender<'_>>,
    rounds: usize,
    min_round_s: f64,
) -> Vec<Timed> {
    let mut reps = Vec::with_capacity(contenders.len());
    let mut outcomes = Vec::with_capacity(contenders.len());
    for c in &mut contenders {
        let t = Instant::now();
        let o = (c.run)();
        let once = t.elapsed().as_secs_f64().max(1e-8);
        reps.push(((min_round_s / once).ceil() as usize).clamp(1, 100_000));
        outcomes.push(o);
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); contenders.len()];
    for _ in 0..rounds.max(1) {
        for (i, c) in contenders.iter_mut().enumerate() {
            // A failed run is not timed again.
            if outcomes[i].failure.is_some() {
                continue;
            }
            let cpu = ThreadTime::now();
            for _ in 0..reps[i] {
                outcomes[i] = black_box((c.run)());
            }
            times[i].push(cpu.elapsed().as_secs_f64() / reps[i] as f64);
        }
    }
    contenders
        .into_iter()
        .zip(outcomes)
        .zip(times)
        .map(|((c, outcome), mut t)| Timed {
            name: c.name,
            outcome,
            median_s: median(&mut t),
        })
        .collect()
}

/// Median (NaN for none).
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}
