//! Lockstep: a batch of started runs advanced together through a [`LaneKernel`].
//!
//! Runs of a fixed-step explicit scheme with no events, no conserve clauses and clauses
//! that read only `t` all land on the same grid `t0 + k·h`, so a batch of them shares
//! `t` and `h` at every step. A step is taken in lanes when it is *quiet* for every run:
//! under the step limit, no `record every` point inside it, and no atom changing side and
//! no stop holding at its end (time-only margins, so known before the step). That is the
//! case in which [`Simulation::take_step`] would compute the scheme's step and the rate at
//! its end, check both are finite and emit one step sample; the kernel does the same
//! arithmetic, so the result is the same bit for bit. Any other step (a stop, a record
//! point, the limit) is handed back to each run's own driver, and a run whose step is not
//! finite ends there through the driver's own `finish`.

mod ahead;
mod normals;

use std::sync::Arc;

use multiversion::multiversion;

use self::ahead::Ahead;
use self::normals::Normals;
use super::step::grid_target;
use super::{Config, Simulation};
use crate::error::RunError;
use crate::info::{Cmp, ModelInfo};
use crate::lanes::{LaneKernel, gather, scatter};
use crate::model::{Model, StepArgs};
use crate::sample::{Sample, SampleKind, SampleSink};

/// Whether runs of this model with these settings may go in lockstep.
fn eligible(info: &ModelInfo, cfg: &Config) -> bool {
    let s = &info.scheme;
    !s.adaptive
        && !s.implicit
        && cfg.step.is_some()
        && info.events.is_empty()
        && info.conserves.is_empty()
        && info.atoms.iter().all(|a| a.time_only)
}

/// Counts the lanes have gathered since their runs were last written back.
#[derive(Default, Clone, Copy)]
struct Pending {
    steps: u64,
    evaluations: u64,
    samples: u64,
}

/// The batch's values, slot-major: slot `j` of lane `l` at `j·L + l`.
struct Lanes {
    width: usize,
    y: Vec<f64>,
    f: Vec<f64>,
    ynew: Vec<f64>,
    fnew: Vec<f64>,
    margins: Vec<f64>,
    end_margins: Vec<f64>,
    dw: Vec<f64>,
    obs: Vec<f64>,
}

fn lane_finite(soa: &[f64], width: usize, lane: usize) -> bool {
    soa.iter().skip(lane).step_by(width).all(|v| v.is_finite())
}

/// Every value finite: `0·x` is zero for a finite `x` and NaN otherwise, so running sums
/// of those are NaN exactly when a value is not finite. Plain float arithmetic without
/// early exit vectorises; 32 independent sums keep the adds from waiting on each other,
/// and the wide versions (picked at run time) check a batch row in a few instructions.
/// Every step of a lockstep batch checks its new state and rate this way.
#[multiversion(targets("x86_64+avx512f+avx512vl+avx2+avx", "x86_64+avx2+avx", "aarch64+neon"))]
fn all_finite(v: &[f64]) -> bool {
    const SUMS: usize = 32;
    let mut acc = [0.0f64; SUMS];
    let chunks = v.chunks_exact(SUMS);
    let tail: f64 = chunks.remainder().iter().map(|x| 0.0 * x).sum();
    for c in chunks {
        for (a, x) in acc.iter_mut().zip(c) {
            *a += 0.0 * x;
        }
    }
    // Folded in halves (a NaN survives any order), not summed one by one, whose 32
    // dependent adds cost more than the whole loop above.
    let mut n = SUMS;
    while n > 1 {
        n /= 2;
        let (low, high) = acc.split_at_mut(n);
        for (a, b) in low.iter_mut().zip(high.iter()) {
            *a += *b;
        }
    }
    !(acc[0] + tail).is_nan()
}

impl Lanes {
    fn new(info: &ModelInfo, width: usize) -> Self {
        let z = |n: usize| vec![0.0; n * width];
        Self {
            width,
            y: z(info.dim),
            f: z(info.dim),
            ynew: z(info.dim),
            fnew: z(info.dim),
            margins: z(info.atoms.len()),
            end_margins: z(info.atoms.len()),
            dw: z(info.noises),
            obs: z(info.observes.len()),
        }
    }

    /// Copies a run's state, rate and margins into lane `l`.
    fn load<M: Model>(&mut self, l: usize, sim: &Simulation<M>) {
        scatter(&sim.y, self.width, l, &mut self.y);
        scatter(&sim.f, self.width, l, &mut self.f);
        scatter(&sim.margins, self.width, l, &mut self.margins);
    }

    /// Lane `dead` (ended, or past the batch) takes lane `live`'s values: it is still
    /// computed, and a copy of finite values keeps the all-finite test of a step fast.
    fn shadow(&mut self, dead: usize, live: usize) {
        let w = self.width;
        for v in [&mut self.y, &mut self.f, &mut self.margins] {
            for row in v.chunks_exact_mut(w) {
                row[dead] = row[live];
            }
        }
    }

    /// Every lane not active shadows lane `live`.
    fn shadow_idle(&mut self, active: &[bool], live: usize) {
        for (l, &on) in active.iter().enumerate().take(self.width) {
            if !on {
                self.shadow(l, live);
            }
        }
    }

    /// Copies every active run into its lane; the other lanes shadow `lead`.
    fn load_all<M: Model>(&mut self, sims: &[Box<Simulation<M>>], active: &[bool], lead: usize) {
        for (l, sim) in sims.iter().enumerate() {
            if active[l] {
                self.load(l, sim);
            }
        }
        self.shadow_idle(active, lead);
    }

    /// Writes lane `l` back into its run, which stands at `t` with grid index `grid_k`.
    fn store<M: Model>(&self, l: usize, sim: &mut Simulation<M>, at: &Clock, p: Pending) {
        gather(&self.y, self.width, l, &mut sim.y);
        gather(&self.f, self.width, l, &mut sim.f);
        gather(&self.margins, self.width, l, &mut sim.margins);
        sim.t = at.t;
        sim.grid_k = at.grid_k;
        sim.stats.steps += p.steps;
        sim.stats.evaluations += p.evaluations;
        sim.stats.samples += p.samples;
        if p.samples > 0 {
            sim.last_sample_t = at.t;
        }
    }
}

/// Where the batch stands.
#[derive(Clone, Copy)]
struct Clock {
    t: f64,
    grid_k: u64,
    rec_k: u64,
    steps: u64,
}

impl Clock {
    fn of<M: Model>(sim: &Simulation<M>) -> Self {
        Self {
            t: sim.t,
            grid_k: sim.grid_k,
            rec_k: sim.rec_k,
            steps: sim.stats.steps,
        }
    }

    fn same(&self, other: &Clock) -> bool {
        self.t.to_bits() == other.t.to_bits()
            && self.grid_k == other.grid_k
            && self.rec_k == other.rec_k
            && self.steps == other.steps
    }
}

/// Runs every started run of `sims` to its end, in lockstep through `kernel` where the
/// runs allow it (else one by one). `sinks[i]` receives run `i`'s samples; with
/// `samples_wanted` false the quiet steps' samples are counted but not delivered (the
/// caller's sinks ignore step samples). A failure names the run it came from.
pub(crate) fn run_lockstep<M: Model, S: SampleSink>(
    sims: &mut [Box<Simulation<M>>],
    sinks: &mut [S],
    kernel: &mut dyn LaneKernel,
    samples_wanted: bool,
) -> Result<(), (usize, RunError)> {
    let width = kernel.lanes();
    // One flag per lane: lanes past the batch are never active.
    let mut active: Vec<bool> = (0..width.max(sims.len()))
        .map(|l| sims.get(l).is_some_and(|s| s.end.is_none()))
        .collect();
    let Some(lead) = active.iter().position(|&a| a) else {
        return Ok(());
    };
    let info = Arc::clone(&sims[lead].info);
    let cfg = sims[lead].cfg.clone();
    let mut at = Clock::of(&sims[lead]);
    let together = sims.len() <= width
        && sims.len() == sinks.len()
        && eligible(&info, &cfg)
        && sims.iter().zip(&active).all(|(s, &a)| {
            // Members differ in their noise stream only.
            !a || (Config {
                stream: cfg.stream,
                ..s.cfg.clone()
            } == cfg
                && (Arc::ptr_eq(&s.info, &info) || *s.info == *info)
                && Clock::of(s).same(&at)
                && s.h == sims[lead].h)
        });
    if !together {
        return one_by_one(sims, sinks, &active);
    }
    let hf = sims[lead].h;
    let stages = u64::from(info.scheme.stages);
    let stochastic = info.scheme.stochastic;
    let fsal = info.scheme.fsal;
    let mut lanes = Lanes::new(&info, width);
    lanes.load_all(sims, &active, lead);
    let mut pending = Pending::default();
    let mut normals = Normals::new(width, info.noises);
    let mut ahead = Ahead::new(width, info.atoms.len());
    let mut lane_y = vec![0.0; info.dim];
    let mut lane_o = vec![0.0; info.observes.len()];
    // A stability check along the run is the driver's: its step is handed back.
    let mut check_due = next_check(sims, &active);
    while active.iter().any(|&a| a) {
        // The step `take_step` would aim at.
        let (k, tb) = grid_target(cfg.t0, hf, at.t, at.grid_k);
        let h = tb - at.t;
        let min_step = Simulation::<M>::min_step(at.t);
        let record_inside = cfg
            .record_every
            .is_some_and(|d| cfg.t0 + at.rec_k as f64 * d <= tb);
        let steps = at.steps + pending.steps;
        let mut quiet = steps < cfg.limit && steps < check_due && h >= min_step && !record_inside;
        // Known from the margins planned ahead, or else evaluated for this step.
        let mut planned = false;
        if quiet {
            match ahead.quiet(kernel, &info, cfg.t0, hf, (at.t, at.grid_k), (k, tb)) {
                Some(q) => (quiet, planned) = (q, true),
                None => {
                    kernel.margins(tb, &mut lanes.end_margins);
                    quiet = sides_kept(&info, &lanes, &active);
                }
            }
        }
        if !quiet {
            // The driver's own step for every run, then back into lanes.
            normals.hand_back(sims, &active);
            ahead.write_margins(&mut lanes.margins);
            ahead.clear();
            for (l, sim) in sims.iter_mut().enumerate() {
                if active[l] {
                    lanes.store(l, sim, &at, pending);
                }
            }
            pending = Pending::default();
            for (l, (sim, sink)) in sims.iter_mut().zip(sinks.iter_mut()).enumerate() {
                if active[l] {
                    sim.take_step(sink).map_err(|e| (l, e))?;
                    active[l] = sim.end.is_none();
                }
            }
            let Some(lead) = active.iter().position(|&a| a) else {
                break;
            };
            at = Clock::of(&sims[lead]);
            if !sims
                .iter()
                .zip(&active)
                .all(|(s, &a)| !a || Clock::of(s).same(&at))
            {
                return one_by_one(sims, sinks, &active);
            }
            lanes.load_all(sims, &active, lead);
            check_due = next_check(sims, &active);
            continue;
        }
        if stochastic {
            if normals.is_empty() {
                let steps = ahead.quiet_left().unwrap_or(usize::MAX);
                normals.refill(sims, &active, steps);
            }
            normals.increments(h, &mut lanes.dw);
        }
        let args = StepArgs {
            t: at.t,
            h,
            y: &lanes.y,
            f0: &lanes.f,
            dw: &lanes.dw,
        };
        kernel.step(&args, &mut lanes.ynew, &mut lanes.fnew);
        if !fsal {
            kernel.rate(tb, &lanes.ynew, &mut lanes.fnew);
        }
        let finite = all_finite(&lanes.ynew) && all_finite(&lanes.fnew);
        if !finite {
            ahead.write_margins(&mut lanes.margins);
        }
        for (l, (sim, sink)) in sims.iter_mut().zip(sinks.iter_mut()).enumerate() {
            if finite || !active[l] {
                continue;
            }
            let step_ok = lane_finite(&lanes.ynew, width, l);
            if step_ok && lane_finite(&lanes.fnew, width, l) {
                continue;
            }
            // As `take_step`: the attempt counted, the end rate (unless fsal) only if the
            // step was finite.
            let mut p = pending;
            p.evaluations += stages + u64::from(step_ok && !fsal);
            lanes.store(l, sim, &at, p);
            sim.grid_k = k;
            // As `take_step`: `unstable` when the step was past the stability radius.
            sim.end_non_finite(sink, at.t).map_err(|e| (l, e))?;
            active[l] = false;
        }
        std::mem::swap(&mut lanes.y, &mut lanes.ynew);
        std::mem::swap(&mut lanes.f, &mut lanes.fnew);
        if planned {
            ahead.taken();
        } else {
            std::mem::swap(&mut lanes.margins, &mut lanes.end_margins);
        }
        if !finite {
            // Runs that ended here leave non-finite values in their lanes: shadow a live one.
            let Some(live) = active.iter().position(|&a| a) else {
                break;
            };
            lanes.shadow_idle(&active, live);
        }
        at.t = tb;
        at.grid_k = k + 1;
        pending.steps += 1;
        pending.evaluations += stages + u64::from(!fsal);
        if cfg.record_every.is_none() {
            pending.samples += 1;
            if samples_wanted {
                kernel.observe(tb, &lanes.y, &lanes.f, &mut lanes.obs);
                for (l, sink) in sinks.iter_mut().enumerate() {
                    if !active[l] {
                        continue;
                    }
                    gather(&lanes.y, width, l, &mut lane_y);
                    gather(&lanes.obs, width, l, &mut lane_o);
                    let s = Sample {
                        t: tb,
                        state: &lane_y,
                        observe: &lane_o,
                        kind: SampleKind::Step,
                    };
                    sink.sample(&s).map_err(|e| (l, RunError::from(e)))?;
                }
            }
        }
    }
    Ok(())
}

/// The accepted steps at which the first active run's next stability check is due.
fn next_check<M: Model>(sims: &[Box<Simulation<M>>], active: &[bool]) -> u64 {
    sims.iter()
        .zip(active)
        .filter(|(_, a)| **a)
        .filter_map(|(s, _)| s.watch.as_ref().map(|w| w.next()))
        .min()
        .unwrap_or(u64::MAX)
}

/// No atom of an active lane changes side over the step. Then no stop holds at its end
/// either: none held at its start (the run would have ended there) and a condition's
/// truth follows its atoms' sides. This is `quiet_step`'s test, lane by lane.
fn sides_kept(info: &ModelInfo, lanes: &Lanes, active: &[bool]) -> bool {
    let w = lanes.width;
    info.atoms.iter().enumerate().all(|(a, atom)| {
        let (before, after) = (
            &lanes.margins[a * w..(a + 1) * w],
            &lanes.end_margins[a * w..(a + 1) * w],
        );
        // One loop per comparison, so each is a branch-free vector loop.
        match atom.op {
            Cmp::Lt => kept(before, after, active, |g| g < 0.0),
            Cmp::Le => kept(before, after, active, |g| g <= 0.0),
            Cmp::Gt => kept(before, after, active, |g| g > 0.0),
            Cmp::Ge => kept(before, after, active, |g| g >= 0.0),
            Cmp::Eq => kept(before, after, active, |g| g == 0.0),
            Cmp::Ne => kept(before, after, active, |g| Cmp::Ne.holds(g)),
        }
    })
}

#[inline(always)]
fn kept(before: &[f64], after: &[f64], active: &[bool], holds: impl Fn(f64) -> bool) -> bool {
    before
        .iter()
        .zip(after)
        .zip(active)
        .fold(0u32, |n, ((&g0, &g1), &on)| {
            n + u32::from(on & (holds(g0) != holds(g1)))
        })
        == 0
}

/// The active runs, each to its end by its own driver.
fn one_by_one<M: Model, S: SampleSink>(
    sims: &mut [Box<Simulation<M>>],
    sinks: &mut [S],
    active: &[bool],
) -> Result<(), (usize, RunError)> {
    for (l, (sim, sink)) in sims.iter_mut().zip(sinks.iter_mut()).enumerate() {
        if active[l] {
            while !sim.advance(sink).map_err(|e| (l, e))? {}
        }
    }
    Ok(())
}

/// Every run of `sims` to its end by its own driver (no lanes).
pub(crate) fn run_each<M: Model, S: SampleSink>(
    sims: &mut [Box<Simulation<M>>],
    sinks: &mut [S],
) -> Result<(), (usize, RunError)> {
    let all = vec![true; sims.len()];
    one_by_one(sims, sinks, &all)
}

#[cfg(test)]
mod tests {
    use super::all_finite;

    #[test]
    fn all_finite_finds_any_infinity_or_nan() {
        let mut v: Vec<f64> = (0..67).map(|i| f64::from(i) * 1e300 - 3e301).collect();
        v[5] = f64::MAX;
        v[6] = -f64::MIN_POSITIVE;
        v[7] = -0.0;
        assert!(all_finite(&v));
        assert!(all_finite(&[]));
        // Every position, the tail past the last chunk of 32 included.
        for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN] {
            for i in 0..v.len() {
                let mut w = v.clone();
                w[i] = bad;
                assert!(!all_finite(&w), "{bad} at {i}");
            }
        }
    }
}
