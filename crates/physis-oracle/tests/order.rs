//! Each fixed scheme's order, measured on generated models: the error against `e^{TA}·z₀`
//! at steps T/16, T/32, T/64, and `log₂` of the ratio of successive errors.

use crate::common;

use common::{max_diff, property, rng};
use physis_oracle::front::run_text;
use physis_oracle::linear::{Family, generate};
use physis_oracle::scheme::Scheme;
use physis_runtime::RunOptions;
use rand::RngExt;

/// The orders measured on one model of `scheme`: `log₂(e(h)/e(h/2))` for h = T/16, T/32.
/// `None` when the scheme is exact on the model (its error at T/16 is rounding).
fn orders(seed: u64, scheme: Scheme) -> Result<Option<[f64; 2]>, String> {
    let family = if rng(seed).random_bool(0.5) {
        Family::FIRST
    } else {
        Family::SECOND
    };
    let t_end = 1.0;
    let mut errors = Vec::new();
    for steps in [16.0, 32.0, 64.0] {
        let h = t_end / steps;
        // The same model each time: the same generator state.
        let model = generate(&mut rng(seed ^ 0x5eed), family, scheme, h, 1e-8, t_end);
        let out = run_text(&model.text, None, &RunOptions::default())
            .map_err(|e| format!("{e}\n{}", model.text))?;
        errors.push(max_diff(&out.end.observe, &model.exact(out.end.t)));
    }
    if errors[2] < 1e-13 {
        return Ok(None);
    }
    Ok(Some([
        (errors[0] / errors[1]).log2(),
        (errors[1] / errors[2]).log2(),
    ]))
}

#[test]
#[allow(clippy::print_stderr)] // the measured orders are the figures reported
fn every_fixed_scheme_converges_at_its_stated_order() {
    let mut table = Vec::new();
    for scheme in Scheme::ALL.into_iter().filter(|s| s.fixed()) {
        let measured = std::sync::Mutex::new(Vec::new());
        property(&format!("order_{}", scheme.name()), 4, true, |seed| {
            let Some([coarse, fine]) = orders(seed, scheme)? else {
                return Ok(());
            };
            measured.lock().unwrap().push(fine);
            let p = f64::from(scheme.order());
            // A model whose leading error term happens to vanish converges faster.
            if !(fine > p - 0.25 && coarse > p - 0.6) {
                return Err(format!(
                    "{}: measured orders {coarse:.3}, {fine:.3}, stated {p}",
                    scheme.name()
                ));
            }
            Ok(())
        });
        let m = measured.into_inner().unwrap();
        let lo = m.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = m.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        table.push(format!(
            "{:>14}  stated {}  measured {lo:.3}..{hi:.3} on {} models",
            scheme.name(),
            scheme.order(),
            m.len()
        ));
    }
    eprintln!("orders (h = T/32 → T/64):\n{}", table.join("\n"));
}
