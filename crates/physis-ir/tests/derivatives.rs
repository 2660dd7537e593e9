#![allow(clippy::needless_range_loop, clippy::type_complexity)] // index loops read like the matrices they check
//! The tangent pass against analytic derivatives: the implicit residual's Jacobian, the
//! rate's Jacobian-vector product, and the elementary rules one by one.

use crate::common;

use physis_ir::{BinOp, Builder, Source, TapeModel, UnOp, derive, prelude};
use physis_runtime::{DenseMatrix, Model, StepArgs};

const A: f64 = 2.0 / 3.0;
const B: f64 = 4.0 / 3.0;

/// ∂f/∂y of Lotka–Volterra with c = d = 1.
fn lv_jacobian(x: f64, y: f64) -> [[f64; 2]; 2] {
    [[A - B * y, -B * x], [y, x - 1.0]]
}

#[test]
fn backward_euler_jacobian_is_exact() {
    let model = common::lotka_volterra(&prelude::builtin("backwardEuler").unwrap(), 1e-8);
    let mut m = TapeModel::new(&model).unwrap();
    let (y, f0, next) = ([1.0, 1.0], [0.0, 0.0], [0.7, 1.3]);
    let h = 0.25;
    let args = StepArgs {
        t: 0.5,
        h,
        y: &y,
        f0: &f0,
        dw: &[],
    };
    let mut jac = DenseMatrix::zeros(2);
    assert!(m.residual_jacobian(&args, &next, &mut jac));
    let j = lv_jacobian(next[0], next[1]);
    for i in 0..2 {
        for k in 0..2 {
            let expect = f64::from(u8::from(i == k)) - h * j[i][k];
            assert!(
                (jac.get(i, k) - expect).abs() < 1e-15,
                "({i},{k}): {} vs {expect}",
                jac.get(i, k)
            );
        }
    }
    // The residual itself: next − y − h·f(t + h, next).
    let mut r = [0.0; 2];
    m.residual(&args, &next, &mut r);
    let (x1, y1) = (next[0], next[1]);
    let f = [A * x1 - B * x1 * y1, x1 * y1 - y1];
    for k in 0..2 {
        assert!((r[k] - (next[k] - y[k] - h * f[k])).abs() < 1e-15);
    }
}

#[test]
fn crank_nicolson_jacobian_by_columns_matches_the_dense_one() {
    let model = common::lotka_volterra(&prelude::builtin("crankNicolson").unwrap(), 1e-8);
    let physis_ir::SchemeFns::Implicit {
        residual,
        jacobian,
        jvp,
        ..
    } = &model.scheme.fns
    else {
        panic!("implicit")
    };
    assert!(jacobian.is_some());
    // The JVP function against the analytic matrix I − h/2·J(next), column by column.
    let tape = physis_ir::Tape::compile(jvp).unwrap();
    let mut regs = tape.registers();
    let (y, f0, next, p) = ([1.0, 2.0], [0.3, -0.2], [0.9, 1.7], [A, B, 1.0, 1.0]);
    let h = 0.1;
    let j = lv_jacobian(next[0], next[1]);
    for c in 0..2 {
        let mut seed = [0.0; 2];
        seed[c] = 1.0;
        let inp = physis_ir::Inputs {
            t: 0.0,
            h,
            y: &y,
            f0: &f0,
            p: &p,
            guess: &next,
            seed: &seed,
            ..Default::default()
        };
        tape.run(&mut regs, &inp);
        let mut col = [0.0; 2];
        tape.write(&regs, 0, &mut col);
        for i in 0..2 {
            let expect = f64::from(u8::from(i == c)) - h / 2.0 * j[i][c];
            assert!(
                (col[i] - expect).abs() < 1e-15,
                "({i},{c}): {} vs {expect}",
                col[i]
            );
        }
    }
    // f(t, y) is f0, so the residual reads f0 and never re-evaluates the rate at y.
    assert!(residual.reads(Source::F0));
}

#[test]
fn rate_jvp_is_exact() {
    let model = common::lotka_volterra(&prelude::builtin("rk4").unwrap(), 1e-8);
    let mut m = TapeModel::new(&model).unwrap();
    let (y, v) = ([0.4, 2.5], [0.3, -1.1]);
    let mut out = [0.0; 2];
    assert!(m.rate_jvp(0.0, &y, &v, &mut out));
    let j = lv_jacobian(y[0], y[1]);
    for i in 0..2 {
        let expect = j[i][0] * v[0] + j[i][1] * v[1];
        assert!((out[i] - expect).abs() < 1e-15);
    }
}

/// Each elementary derivative against its closed form at a point, through a dense
/// Jacobian of one scalar function of one input.
#[test]
fn elementary_rules() {
    let x0: f64 = 0.37;
    let cases: Vec<(
        &str,
        Box<dyn Fn(&mut Builder, physis_ir::ValueId) -> physis_ir::ValueId>,
        f64,
    )> = vec![
        (
            "sin",
            Box::new(|b, x| b.unary(UnOp::Sin, x).unwrap()),
            x0.cos(),
        ),
        (
            "cos",
            Box::new(|b, x| b.unary(UnOp::Cos, x).unwrap()),
            -x0.sin(),
        ),
        (
            "tan",
            Box::new(|b, x| b.unary(UnOp::Tan, x).unwrap()),
            1.0 / x0.cos().powi(2),
        ),
        (
            "exp",
            Box::new(|b, x| b.unary(UnOp::Exp, x).unwrap()),
            x0.exp(),
        ),
        (
            "log",
            Box::new(|b, x| b.unary(UnOp::Log, x).unwrap()),
            1.0 / x0,
        ),
        (
            "sqrt",
            Box::new(|b, x| b.unary(UnOp::Sqrt, x).unwrap()),
            0.5 / x0.sqrt(),
        ),
        (
            "abs of −x",
            Box::new(|b, x| {
                let n = b.neg(x).unwrap();
                b.unary(UnOp::Abs, n).unwrap()
            }),
            1.0,
        ),
        (
            "x^2.5",
            Box::new(|b, x| {
                let e = b.constant(2.5);
                b.binary(BinOp::Pow, x, e).unwrap()
            }),
            2.5 * x0.powf(1.5),
        ),
        (
            "2^x",
            Box::new(|b, x| {
                let two = b.constant(2.0);
                b.binary(BinOp::Pow, two, x).unwrap()
            }),
            2f64.powf(x0) * 2f64.ln(),
        ),
        (
            "x^5",
            Box::new(|b, x| b.powi(x, 5).unwrap()),
            5.0 * x0.powi(4),
        ),
        (
            "atan2(x, 2)",
            Box::new(|b, x| {
                let two = b.constant(2.0);
                b.binary(BinOp::Atan2, x, two).unwrap()
            }),
            2.0 / (x0 * x0 + 4.0),
        ),
        (
            "1/x",
            Box::new(|b, x| {
                let one = b.constant(1.0);
                b.div(one, x).unwrap()
            }),
            -1.0 / (x0 * x0),
        ),
        (
            "min(x, 3x)",
            Box::new(|b, x| {
                let three = b.constant(3.0);
                let t = b.mul(three, x).unwrap();
                b.binary(BinOp::Min, x, t).unwrap()
            }),
            1.0,
        ),
        (
            "max(x, 3x)",
            Box::new(|b, x| {
                let three = b.constant(3.0);
                let t = b.mul(three, x).unwrap();
                b.binary(BinOp::Max, x, t).unwrap()
            }),
            3.0,
        ),
        (
            "tanh",
            Box::new(|b, x| b.unary(UnOp::Tanh, x).unwrap()),
            1.0 - x0.tanh().powi(2),
        ),
        (
            "asin",
            Box::new(|b, x| b.unary(UnOp::Asin, x).unwrap()),
            1.0 / (1.0 - x0 * x0).sqrt(),
        ),
        (
            "sum of a packed array",
            Box::new(|b, x| {
                let sq = b.mul(x, x).unwrap();
                let a = b.pack(vec![x, sq]).unwrap();
                b.reduce(physis_ir::ReduceOp::Sum, a).unwrap()
            }),
            1.0 + 2.0 * x0,
        ),
    ];
    for (name, make, expect) in cases {
        let mut b = Builder::new();
        let x = b.load(Source::State, 0);
        let y = make(&mut b, x);
        let f = b.finish(name, &[y]).unwrap();
        let layout = physis_ir::Layout::scalars(1);
        let jf = derive::dense_jacobian(&f, &layout, Source::State, "d")
            .unwrap()
            .unwrap();
        let tape = physis_ir::Tape::compile(&jf).unwrap();
        let mut regs = tape.registers();
        tape.run(
            &mut regs,
            &physis_ir::Inputs {
                y: &[x0],
                ..Default::default()
            },
        );
        let mut d = [0.0];
        tape.write(&regs, 0, &mut d);
        assert!(
            (d[0] - expect).abs() <= 1e-14 * expect.abs().max(1.0),
            "{name}: {} vs {expect}",
            d[0]
        );
    }
}

/// The laplacian is linear, so its Jacobian-vector product is the laplacian of the seed.
#[test]
fn stencil_tangent_is_the_stencil_of_the_tangent() {
    use physis_ir::{Bc, Grid, Stencil, StencilOp};
    let n = 8u32;
    let mut b = Builder::new();
    let u = b.load_range(Source::State, 0, n);
    let dx = b.constant(0.5);
    let g = b.constant(3.0);
    let lap = b
        .stencil(Stencil {
            op: StencilOp::Laplacian,
            grid: Grid::line(n),
            u,
            spacing: [dx, dx],
            bc: Bc::Dirichlet(g),
        })
        .unwrap();
    let sq = b.mul(u, u).unwrap();
    let out = b.add(lap, sq).unwrap();
    let f = b.finish("heat", &[out]).unwrap();
    let layout = physis_ir::Layout::from_sizes(&[(n, true)]).unwrap();
    let jf = derive::jvp(&f, &layout, Source::State, "jvp").unwrap();
    let tape = physis_ir::Tape::compile(&jf).unwrap();
    let mut regs = tape.registers();
    let u0: Vec<f64> = (0..n).map(|k| f64::from(k) * 0.3 - 1.0).collect();
    let v: Vec<f64> = (0..n).map(|k| f64::from(k * k) * 0.01 + 0.5).collect();
    tape.run(
        &mut regs,
        &physis_ir::Inputs {
            y: &u0,
            seed: &v,
            ..Default::default()
        },
    );
    let mut got = vec![0.0; n as usize];
    tape.write(&regs, 0, &mut got);
    for k in 0..n as usize {
        let lo = if k == 0 { 0.0 } else { v[k - 1] };
        let hi = if k + 1 == n as usize { 0.0 } else { v[k + 1] };
        let expect = (hi - 2.0 * v[k] + lo) / 0.25 + 2.0 * u0[k] * v[k];
        assert!(
            (got[k] - expect).abs() < 1e-12,
            "{k}: {} vs {expect}",
            got[k]
        );
    }
    // One stencil in the tangent, whatever the length.
    assert_eq!(
        jf.insts
            .iter()
            .filter(|i| matches!(i.op, physis_ir::Op::Stencil(_)))
            .count(),
        1
    );
}
