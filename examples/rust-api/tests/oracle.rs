//! The oracle's generated linear models (`physis_oracle::corpus`), compiled to Rust by
//! `build.rs`: generated code must end where each scheme's step matrix (or, for rk45, the
//! matrix exponential) says, and agree with the interpreter bit for bit.

use physis_oracle::corpus::compiled;
use physis_oracle::front::run_text;
use physis_runtime::{Collect, RunOptions};

#[allow(dead_code)]
mod oracle_models {
    include!(concat!(env!("OUT_DIR"), "/oracle.rs"));
}

#[test]
fn generated_code_of_generated_models_meets_the_oracle() {
    let corpus = compiled();
    assert_eq!(corpus.len(), oracle_models::MODELS.len());
    for c in &corpus {
        let (_, entry) = oracle_models::MODELS
            .iter()
            .find(|(n, _)| *n == c.name)
            .unwrap_or_else(|| panic!("{} was not generated", c.name));
        let checked = physis_check::check_source(&c.model.text);
        let ir = physis_ir::lower_with_source(&checked.program.models[0], &c.model.text).unwrap();
        let options = RunOptions::default();
        let mut out = Collect::default();
        let end = entry(&ir.default_params(), &options, &mut out)
            .expect("parameter vector of the right length")
            .unwrap();
        let (want, tol) = c.truth();
        let err = end
            .observe
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs())
            .fold(0.0, f64::max);
        assert!(
            err <= tol,
            "{} ({}): off the oracle by {err:e} > {tol:e}\n{}",
            c.name,
            c.scheme.name(),
            c.model.text
        );
        let tape = run_text(&c.model.text, None, &options).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&tape.end.observe), bits(&end.observe), "{}", c.name);
        assert_eq!(tape.end.stats, end.stats, "{}", c.name);
    }
}
