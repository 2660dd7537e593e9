//! Parse + check of a generated 1,000-line model (`cargo bench -p physis-check`).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A ring of 248 coupled relaxing 3-vectors: 4 lines each plus 4 more, 996 lines.
fn model() -> String {
    let n = 248;
    let mut s = String::from("simulate Chain {\n");
    for i in 0..n {
        let next = (i + 1) % n;
        s.push_str(&format!("  param k{i} : Frequency = {}.5 Hz\n", i % 7 + 1));
        s.push_str(&format!(
            "  state x{i} : Length[3] = [{i} mm, 0 m, 0.5 m]\n"
        ));
        s.push_str(&format!(
            "  law x{i}' = −k{i}·(x{i} − x{next}) + 1e-3 m/s·[cos(k{i}·t), sin(k{i}·t), 0]\n"
        ));
        s.push_str(&format!(
            "  observe e{i} ≔ 0.5·norm(x{i})² / (1 s²) + dot(x{i}, x{next})·k{i}²\n"
        ));
    }
    s.push_str("  integrate rk45 tolerance 1e-9\n  stop when t ≥ 10 s\n}\n");
    s
}

fn bench(c: &mut Criterion) {
    let src = model();
    assert_eq!(src.lines().count(), 996);
    let checked = physis_check::check_source(&src);
    assert!(!checked.has_errors(), "{:?}", checked.diagnostics.first());
    c.bench_function("parse_check_1000_lines", |b| {
        b.iter(|| physis_check::check_source(black_box(&src)))
    });
    c.bench_function("parse_1000_lines", |b| {
        b.iter(|| physis_syntax::parse(black_box(&src)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
