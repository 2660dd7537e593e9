//! Conserve clauses on every back end (the tapes, compact and plain, the JIT, generated
//! code), against closed forms: the drift check after a step whose sample nobody reads
//! evaluates only the observes the clauses name (`Model::conserved`), never the whole
//! observe function, and ends the run exactly where checking every observe does.

use std::path::PathBuf;

use physis_ir::{IrModel, TapeModel, lower_with_source};
use physis_jit::{Jit, When};
use physis_runtime::{
    Collect, Model, ReasonKind, RunEnd, RunOptions, Sample, SampleKind, SampleSink, Wraps,
};

#[allow(dead_code)]
mod test_models {
    include!(concat!(env!("OUT_DIR"), "/test_models.rs"));
}

/// `inner`, counting calls of the whole observe function and of the conserved observes.
struct Counting<M> {
    inner: M,
    observes: u64,
    conserved: u64,
}

impl<M: Model> Wraps for Counting<M> {
    type Inner = M;
    fn inner(&self) -> &M {
        &self.inner
    }
    fn inner_mut(&mut self) -> &mut M {
        &mut self.inner
    }
    fn wrapper_observe(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.observes += 1;
        self.inner.observe(t, y, dydt, out);
    }
    fn wrapper_conserved(&mut self, t: f64, y: &[f64], dydt: &[f64], out: &mut [f64]) {
        self.conserved += 1;
        self.inner.conserved(t, y, dydt, out);
    }
}

/// Takes nothing but the first sample and the end (a `--summary`, a benchmark).
struct Nothing;

impl SampleSink for Nothing {
    fn sample(&mut self, _: &Sample<'_>) -> std::io::Result<()> {
        Ok(())
    }
    fn wants(&self, _: SampleKind) -> bool {
        false
    }
}

fn lowered(name: &str) -> IrModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/models/conserve.hph");
    let source = std::fs::read_to_string(path).unwrap();
    let checked = physis_check::check_source(&source);
    assert!(!checked.has_errors());
    let m = checked
        .program
        .models
        .iter()
        .find(|m| m.name == name)
        .unwrap();
    lower_with_source(m, &source).unwrap()
}

/// One run of `model` into `sink`, with the calls it made.
fn counted<M: Model>(model: M, sink: &mut dyn SampleSink) -> (RunEnd, u64, u64) {
    let mut sim = physis_runtime::Simulation::new(
        Counting {
            inner: model,
            observes: 0,
            conserved: 0,
        },
        &RunOptions::default(),
    )
    .unwrap();
    let end = sim.run_in_place(sink).unwrap();
    let c = sim.into_model();
    (end, c.observes, c.conserved)
}

/// How a run with every sample taken and one with none ended, and the calls they made.
struct Both {
    /// The run taking none.
    end: RunEnd,
    /// `(observe, conserved)` calls taking every sample, then taking none.
    all: (u64, u64),
    none: (u64, u64),
}

/// The model `make` builds run with every sample taken and with none: the same end to the
/// bit, and without a consumer the whole observe function only at the first sample and the
/// end (the drift checks between evaluate the conserved observes only).
fn both_ways<M: Model>(what: &str, make: impl Fn() -> M) -> Both {
    let (all, all_obs, all_cons) = counted(make(), &mut Collect::default());
    let (none, none_obs, none_cons) = counted(make(), &mut Nothing);
    let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(all.reason, none.reason, "{what}: reason");
    assert_eq!(all.t.to_bits(), none.t.to_bits(), "{what}: final t");
    assert_eq!(bits(&all.state), bits(&none.state), "{what}: final state");
    assert_eq!(bits(&all.observe), bits(&none.observe), "{what}: observes");
    assert_eq!(all.stats, none.stats, "{what}: counts");
    assert_eq!(none_obs, 2, "{what}: the initial sample and the end");
    assert!(none_cons > 0, "{what}");
    Both {
        end: none,
        all: (all_obs, all_cons),
        none: (none_obs, none_cons),
    }
}

/// Every back end of `name`, through [`both_ways`]; generated code from `generated`.
fn every_back_end<G: Model>(name: &str, generated: impl Fn() -> G) -> Vec<Both> {
    let ir = lowered(name);
    let tape = || TapeModel::new(&ir).unwrap();
    let plain = || {
        let mut m = tape();
        m.plain_tapes();
        m
    };
    let jit = || {
        let mut m = tape();
        physis_jit::tier(&mut m, &Jit::new(), When::AtOnce);
        m
    };
    let ends = vec![
        both_ways(&format!("{name} on compact tapes"), tape),
        both_ways(&format!("{name} on plain tapes"), plain),
        both_ways(&format!("{name} natively"), jit),
        both_ways(&format!("{name} generated"), generated),
    ];
    for b in &ends[1..] {
        let (e, e0) = (&b.end, &ends[0].end);
        assert_eq!(e.t.to_bits(), e0.t.to_bits(), "{name}");
        assert_eq!(e.state, e0.state, "{name}");
        assert_eq!(e.observe, e0.observe, "{name}");
        assert_eq!((b.all, b.none), (ends[0].all, ends[0].none), "{name}");
    }
    ends
}

#[test]
fn the_pruned_observe_holds_only_the_conserved_ones() {
    let ir = lowered("EulerEnergy");
    // energy and amplitude (slots 1 and 3), not position or wobble: no sine, no cosine.
    assert_eq!(ir.conserved.slots, [1, 3]);
    assert!(ir.conserved.func.op_count() < ir.observe.op_count());
    let whole = ir.observe.to_string();
    assert!(whole.contains("Sin") && whole.contains("Cos"), "{whole}");
    let listing = ir.conserved.func.to_string();
    assert!(
        !listing.contains("Sin") && !listing.contains("Cos"),
        "{listing}"
    );
    // It writes what the whole function writes there, and nothing else.
    let mut m = TapeModel::new(&ir).unwrap();
    let (y, f) = ([0.3, -1.7], [-1.7, -1.2]);
    let (mut all, mut some) = ([0.0; 4], [f64::NAN; 4]);
    m.observe(0.1, &y, &f, &mut all);
    m.conserved(0.1, &y, &f, &mut some);
    assert_eq!(some[1].to_bits(), all[1].to_bits());
    assert_eq!(some[3].to_bits(), all[3].to_bits());
    assert!(some[0].is_nan() && some[2].is_nan());
}

#[test]
fn euler_energy_drifts_past_its_bound_at_the_predicted_step_on_every_back_end() {
    // Explicit Euler on x'' = −ω²x multiplies the energy by 1 + h²ω² = 1.0004 a step; E₀ = 2,
    // so the drift |E − E₀|/max(|E₀|, 1) = 1.0004ⁿ − 1 first exceeds 0.01 at n = 25
    // (1.0004²⁴ − 1 = 0.00965, 1.0004²⁵ − 1 = 0.01005); amplitude (bound 0.02) never does
    // first. The state is x_n = rⁿcos(nθ), x'_n = −ω·rⁿsin(nθ), r = √(1 + h²ω²),
    // θ = atan(hω).
    let (h, w) = (0.01f64, 2.0f64);
    let (r, th) = ((1.0 + h * h * w * w).sqrt(), (h * w).atan());
    for b in every_back_end("EulerEnergy", test_models::EulerEnergy::new) {
        // Every step sample taken: each observed once, and the end. None taken: one
        // conserved evaluation a step.
        assert_eq!(b.all, (b.end.stats.samples + 1, 0));
        assert_eq!(b.none, (2, 25));
        let end = b.end;
        assert_eq!(end.reason.kind, ReasonKind::Violated);
        assert_eq!(
            end.reason.clause.as_deref(),
            Some("conserve energy within 0.01")
        );
        assert_eq!(end.stats.steps, 25);
        assert!((end.t - 0.25).abs() < 1e-14, "{}", end.t);
        let n = 25.0;
        let (x, v) = (r.powf(n) * (n * th).cos(), -w * r.powf(n) * (n * th).sin());
        assert!((end.state[0] - x).abs() < 1e-13, "{} vs {x}", end.state[0]);
        assert!((end.state[1] - v).abs() < 1e-13, "{} vs {v}", end.state[1]);
        let energy = 2.0 * (1.0 + h * h * w * w).powi(25);
        assert!((end.observe[1] - energy).abs() < 1e-13);
    }
}

#[test]
fn a_conserved_observe_reading_the_rate_drifts_where_the_decay_says() {
    // y = e^(−3t) and flow = −y'/k = y: the drift |flow − 1| first exceeds 0.5 past
    // t = ln 2/3 ≈ 0.2310, at the first record point (every 20 ms) or step end after it:
    // the record point 0.24 s at the latest.
    let k = 3.0f64;
    for b in every_back_end("DecayFlow", test_models::DecayFlow::new) {
        let end = b.end;
        assert_eq!(end.reason.kind, ReasonKind::Violated);
        assert_eq!(
            end.reason.clause.as_deref(),
            Some("conserve flow within 0.5")
        );
        assert!(end.t >= 2f64.ln() / k && end.t <= 0.24 + 1e-12, "{}", end.t);
        let y = (-k * end.t).exp();
        assert!((end.state[0] - y).abs() < 1e-7, "{} vs {y}", end.state[0]);
        assert!((end.observe[1] - y).abs() < 1e-7);
    }
}
