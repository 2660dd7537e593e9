//! The lane kernels of generated models (`<Model>Lanes`, through `Model::lane_kernel`):
//! each computes, lane by lane, the bits the members' own methods compute (step, rate,
//! observes, margins, margins planned ahead), for every generated example model with an
//! explicit scheme and the ensemble anchors; and an ensemble run in lockstep through them
//! gives every member the end it has alone.

use physis_runtime::{
    Ensemble, EnsembleResult, MODEL_LANES, Model, ModelLaneFactory, ParamSet, StepArgs, StepOut,
    Sweep, linspace,
};

#[allow(dead_code)]
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}

#[allow(dead_code)]
mod anchors {
    include!(concat!(env!("OUT_DIR"), "/anchors.rs"));
}

const W: usize = MODEL_LANES;

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Lane `l` of a slot-major buffer of `n` slots.
fn lane(soa: &[f64], n: usize, l: usize) -> Vec<f64> {
    (0..n).map(|j| soa[j * W + l]).collect()
}

/// Compares the kernel of `members` models built by `make` (lane `l` gets `make(l)`) with
/// the models' own methods, at a state and rate of its own for every lane.
fn kernel_matches_models<M: Model>(name: &str, members: usize, make: impl Fn(usize) -> M) {
    let mut models: Vec<M> = (0..members).map(&make).collect();
    let mut kernel = M::lane_kernel(&models).unwrap_or_else(|| panic!("{name}: no lanes"));
    assert_eq!(kernel.lanes(), W);
    let info = models[0].info();
    let (n, nw, na, no) = (info.dim, info.noises, info.atoms.len(), info.observes.len());
    let (t, h) = (0.25, 1.0 / 128.0);
    // Each lane's state: its initial state, moved off it by a lane-dependent amount.
    let mut y = vec![0.0; n * W];
    let mut f0 = vec![0.0; n * W];
    let mut dw = vec![0.0; nw * W];
    let mut own_y = vec![0.0; n];
    let mut own_f = vec![0.0; n];
    for (l, m) in models.iter_mut().enumerate() {
        m.initial(0.0, &mut own_y);
        for (j, v) in own_y.iter_mut().enumerate() {
            *v = *v * (1.0 + 0.01 * l as f64) + 0.001 * (j + l) as f64;
            y[j * W + l] = *v;
        }
        m.rate(t, &own_y, &mut own_f);
        for j in 0..n {
            f0[j * W + l] = own_f[j];
        }
        for k in 0..nw {
            dw[k * W + l] = 0.03 * (l as f64 - 20.0) + 0.01 * k as f64;
        }
    }
    let fsal = info.scheme.fsal;
    let adaptive = info.scheme.adaptive;
    let args = StepArgs {
        t,
        h,
        y: &y,
        f0: &f0,
        dw: &dw,
    };
    let (mut next, mut f1) = (vec![0.0; n * W], vec![0.0; n * W]);
    kernel.step(&args, &mut next, &mut f1);
    let mut rate = vec![0.0; n * W];
    kernel.rate(t + h, &next, &mut rate);
    let mut obs = vec![0.0; no * W];
    kernel.observe(t, &y, &f0, &mut obs);
    for (l, m) in models.iter_mut().enumerate() {
        let (ly, lf, ldw) = (lane(&y, n, l), lane(&f0, n, l), lane(&dw, nw, l));
        let (mut nx, mut err, mut g1) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        m.step(
            &StepArgs {
                t,
                h,
                y: &ly,
                f0: &lf,
                dw: &ldw,
            },
            StepOut {
                next: &mut nx,
                err: adaptive.then_some(&mut err[..]),
                f1: fsal.then_some(&mut g1[..]),
                dense: None,
            },
        );
        assert_eq!(
            bits(&lane(&next, n, l)),
            bits(&nx),
            "{name}: next, lane {l}"
        );
        if fsal {
            assert_eq!(bits(&lane(&f1, n, l)), bits(&g1), "{name}: f1, lane {l}");
        }
        let mut r = vec![0.0; n];
        m.rate(t + h, &nx, &mut r);
        assert_eq!(bits(&lane(&rate, n, l)), bits(&r), "{name}: rate, lane {l}");
        let mut o = vec![0.0; no];
        m.observe(t, &ly, &lf, &mut o);
        assert_eq!(
            bits(&lane(&obs, no, l)),
            bits(&o),
            "{name}: observes, lane {l}"
        );
    }
    if info.atoms.iter().all(|a| a.time_only) {
        let zeros = vec![0.0; n];
        let mut margins = vec![0.0; na * W];
        kernel.margins(t, &mut margins);
        let ts: Vec<f64> = (0..W).map(|j| t + j as f64 * h).collect();
        let mut ahead = vec![0.0; na * W];
        let planned = kernel.margins_ahead(&ts, &mut ahead);
        for (l, m) in models.iter_mut().enumerate() {
            let mut own = vec![0.0; na];
            m.margins(t, &zeros, &zeros, &mut own);
            assert_eq!(
                bits(&lane(&margins, na, l)),
                bits(&own),
                "{name}: margins, lane {l}"
            );
            // Planned ahead only when every lane has the same margins at each time.
            for (j, &tj) in ts.iter().enumerate().filter(|_| planned) {
                m.margins(tj, &zeros, &zeros, &mut own);
                assert_eq!(
                    bits(&lane(&ahead, na, j)),
                    bits(&own),
                    "{name}: ahead {j}, lane {l}"
                );
            }
        }
    }
}

/// The default parameter slots scaled by `1 + l/64`: a parameter set per lane.
fn scaled(slots: &[f64], l: usize) -> Vec<f64> {
    slots.iter().map(|p| p * (1.0 + l as f64 / 64.0)).collect()
}

macro_rules! check_kernels {
    ($($m:ty, $p:ty, $members:expr);* $(;)?) => {$(
        kernel_matches_models(stringify!($m), $members, |l| {
            let slots = scaled(&<$m>::defaults().to_slots(), l);
            <$m>::with_params(<$p>::from_slots(&slots).expect("slots"))
        });
    )*};
}

#[test]
fn lane_kernels_compute_what_the_members_compute() {
    use anchors::*;
    use examples::*;
    check_kernels!(
        Lorenz, LorenzParams, W;
        Gbm, GbmParams, 37;
        OrnsteinUhlenbeck, OrnsteinUhlenbeckParams, W;
        Projectile, ProjectileParams, 5;
        DcMotor, DcMotorParams, W;
        CartPendulum, CartPendulumParams, 10;
        LotkaVolterra, LotkaVolterraParams, 1;
        Decay, DecayParams, W;
        FreeBody, FreeBodyParams, 3;
        HeavyTop, HeavyTopParams, W;
        BouncingBall, BouncingBallParams, 17;
    );
}

#[test]
fn batches_of_more_than_the_width_have_no_lanes() {
    let many: Vec<anchors::Gbm> = (0..=W).map(|_| anchors::Gbm::new()).collect();
    assert!(<anchors::Gbm as Model>::lane_kernel(&many).is_none());
    assert!(<anchors::Gbm as Model>::lane_kernel(&[]).is_none());
}

/// Every member's end (state, time, reason, counts) and the final statistics, bit for bit.
fn same_ensembles(what: &str, a: &EnsembleResult, b: &EnsembleResult) {
    assert_eq!(a.members.len(), b.members.len(), "{what}: members");
    for (x, y) in a.members.iter().zip(&b.members) {
        assert_eq!(x.end.reason, y.end.reason, "{what}: reason of {}", x.index);
        assert_eq!(
            x.end.t.to_bits(),
            y.end.t.to_bits(),
            "{what}: t of {}",
            x.index
        );
        assert_eq!(
            bits(&x.end.state),
            bits(&y.end.state),
            "{what}: state of {}",
            x.index
        );
        assert_eq!(
            bits(&x.end.observe),
            bits(&y.end.observe),
            "{what}: observes of {}",
            x.index
        );
        assert_eq!(x.end.stats, y.end.stats, "{what}: counts of {}", x.index);
    }
    assert_eq!(
        format!("{:?}", a.finals),
        format!("{:?}", b.finals),
        "{what}: final statistics"
    );
    assert_eq!(
        format!("{:?}", a.series),
        format!("{:?}", b.series),
        "{what}: series"
    );
}

/// The same ensemble (`count` members per parameter set) member by member and in lockstep
/// lanes (generated kernels).
fn alone_and_in_lanes<M, F>(
    what: &str,
    factory: F,
    count: usize,
    build: impl Fn(Ensemble<M, &F>) -> Ensemble<M, &F>,
) where
    M: Model + Send + 'static,
    F: Fn(&ParamSet) -> Result<M, String> + Sync,
{
    let alone = build(Ensemble::new(&factory, count))
        .run()
        .expect("runs alone");
    let lanes = build(Ensemble::new(&factory, count))
        .lanes(ModelLaneFactory(&factory), MODEL_LANES)
        .run()
        .expect("runs in lanes");
    same_ensembles(what, &alone, &lanes);
}

#[test]
fn ensembles_in_generated_lanes_equal_their_members_alone() {
    // A7's sweep over ρ, cut short: 150 members (two full batches and a part), a stop in
    // time only, so margins are planned ahead although every lane has its own ρ.
    let lorenz = |p: &ParamSet| -> Result<anchors::Lorenz, String> {
        Ok(anchors::Lorenz::with_params(anchors::LorenzParams {
            rho: p.get("rho").ok_or("no rho")?,
            ..anchors::Lorenz::defaults()
        }))
    };
    alone_and_in_lanes("Lorenz", lorenz, 1, |e| {
        e.sweep(
            Sweep::new()
                .axis("rho", linspace(0.0, 28.0, 150))
                .expect("axis"),
        )
        .threads(2)
    });
    // GBM: one stream per member, normals drawn ahead in lanes.
    let gbm = |_: &ParamSet| -> Result<anchors::Gbm, String> { Ok(anchors::Gbm::new()) };
    alone_and_in_lanes("GBM", gbm, 150, |e| e.seed(7).threads(1));
    // Ornstein–Uhlenbeck with a swept γ (its observes and a series on the step grid).
    let ou = |p: &ParamSet| -> Result<examples::OrnsteinUhlenbeck, String> {
        Ok(examples::OrnsteinUhlenbeck::with_params(
            examples::OrnsteinUhlenbeckParams {
                gamma: p.get("gamma").ok_or("no gamma")?,
                ..examples::OrnsteinUhlenbeck::defaults()
            },
        ))
    };
    alone_and_in_lanes("Ornstein-Uhlenbeck", ou, 1, |e| {
        e.sweep(
            Sweep::new()
                .axis("gamma", linspace(0.5, 2.0, 70))
                .expect("axis"),
        )
        .seed(3)
        .threads(2)
    });
}
