//! Ensembles run in parts (`run_members`) and gathered (`gather`), through the byte form a
//! part travels in between processes: the same result, bit for bit, as one local run,
//! whatever the split; parts that miss or double a member are refused.

use crate::common;

use common::{Scheme, TestModel, model};
use physis_runtime::{Cmp, Cond, Ensemble, EnsembleError, EnsemblePart, ParamSet, Sweep};

/// GBM `dX = X dt + X/2 dW`, Euler–Maruyama, step 10 ms, stop at 1 s.
fn gbm(mu: f64) -> TestModel {
    model("Gbm", Scheme::EulerMaruyama, &[1.0], move |_, y, d| {
        d[0] = mu * y[0];
    })
    .states(&[("x", vec![])])
    .noise(1, |_, y, g| g[0] = 0.5 * y[0])
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
    .time_only(&[true])
    .stop(Cond::Atom(0), "t ≥ 1 s", 3)
    .observes(&["x"], |_, y, _, o| o[0] = y[0])
    .settings(|s| s.step = Some(0.01))
    .build()
}

fn factory(set: &ParamSet) -> Result<TestModel, String> {
    Ok(gbm(set.get("mu").unwrap_or(1.0)))
}

#[test]
fn any_split_gathers_to_the_local_result_bit_for_bit() {
    let sweep = Sweep::parse(&["mu=0.5,1"], physis_runtime::plain_number).expect("sweep");
    let ens = Ensemble::new(factory, 11).sweep(sweep).seed(17);
    let n = ens.len();
    let local = ens.run().expect("local run");
    for chunk in [1, 2, 7, n] {
        let mut parts = Vec::new();
        // Handed in last to first: gather sorts them.
        for start in (0..n).step_by(chunk).rev() {
            let part = ens.run_members(start..n.min(start + chunk)).expect("part");
            let bytes = part.encode();
            parts.push(EnsemblePart::decode(&bytes).expect("decodes"));
        }
        let gathered = ens.gather(parts).expect("gathers");
        assert_eq!(gathered, local, "chunk {chunk}");
        let bits = |r: &physis_runtime::EnsembleResult| -> Vec<u64> {
            r.members.iter().map(|m| m.end.state[0].to_bits()).collect()
        };
        assert_eq!(bits(&gathered), bits(&local));
    }
}

#[test]
fn missing_doubled_or_out_of_range_members_are_refused() {
    let ens = Ensemble::new(factory, 6).seed(1);
    let a = || ens.run_members(0..3).expect("part");
    let b = || ens.run_members(3..6).expect("part");
    assert!(matches!(
        ens.gather(vec![a()]),
        Err(EnsembleError::Parts { .. })
    ));
    assert!(matches!(
        ens.gather(vec![a(), a(), b()]),
        Err(EnsembleError::Parts { .. })
    ));
    assert!(matches!(
        ens.run_members(4..9),
        Err(EnsembleError::BadRange { .. })
    ));
    let mut bytes = a().encode();
    bytes.truncate(bytes.len() - 1);
    assert!(matches!(
        EnsemblePart::decode(&bytes),
        Err(EnsembleError::BadPart { .. })
    ));
}
