//! Time to derive the equations of motion of the manual's cart pendulum and DC motor, from an
//! empty graph (building the lagrangian included), and the DAG sizes of derived versus
//! hand-written right sides. Run: `cargo bench -p physis-symbolic --bench derive`.
#![allow(clippy::print_stdout, missing_docs)]

use criterion::{Criterion, criterion_group};
use physis_symbolic::{Coordinate, EulerLagrange, Graph, LagrangianSystem, NodeId, Symbol};
use std::hint::black_box;

fn scalar(g: &mut Graph, name: &str) -> (Symbol, NodeId) {
    let id = g.declare_symbol(name, 1);
    (Symbol { id, component: 0 }, g.symbol(id, 0))
}

struct Cart {
    g: Graph,
    el: EulerLagrange,
    hand: Vec<NodeId>,
}

fn cart_pendulum() -> Cart {
    let mut g = Graph::new();
    let (_, mc) = scalar(&mut g, "M");
    let (_, m) = scalar(&mut g, "m");
    let (_, l) = scalar(&mut g, "ℓ");
    let (_, gr) = scalar(&mut g, "g");
    let (s, _) = scalar(&mut g, "s");
    let (sd_s, sd) = scalar(&mut g, "s'");
    let (p_s, p) = scalar(&mut g, "φ");
    let (pd_s, pd) = scalar(&mut g, "φ'");
    let half = g.rational(1, 2);
    let total = g.add2(mc, m);
    let sd2 = g.powi(sd, 2);
    let t1 = g.mul(&[half, total, sd2]);
    let cp = g.cos(p);
    let t2 = g.mul(&[m, l, sd, pd, cp]);
    let l2 = g.powi(l, 2);
    let pd2 = g.powi(pd, 2);
    let t3 = g.mul(&[half, m, l2, pd2]);
    let t4 = g.mul(&[m, gr, l, cp]);
    let lag = g.add(&[t1, t2, t3, t4]);
    let coords = vec![
        Coordinate {
            position: s,
            velocity: sd_s,
        },
        Coordinate {
            position: p_s,
            velocity: pd_s,
        },
    ];
    let el = LagrangianSystem::new(lag, coords)
        .derive(&mut g)
        .expect("the cart pendulum derives");
    // The textbook M and b, written out.
    let mlc = g.mul(&[m, l, cp]);
    let ml2 = g.mul(&[m, l2]);
    let sp = g.sin(p);
    let b0 = g.mul(&[m, l, pd2, sp]);
    let b1 = g.mul(&[Graph::MINUS_ONE, m, gr, l, sp]);
    Cart {
        g,
        el,
        hand: vec![total, mlc, mlc, ml2, b0, b1],
    }
}

fn dc_motor() -> (Graph, EulerLagrange, Vec<NodeId>) {
    let mut g = Graph::new();
    let [v, r, ind, j, b, k] = ["V", "R", "L", "J", "b", "k"].map(|n| scalar(&mut g, n).1);
    let (q, _) = scalar(&mut g, "q");
    let (qd_s, qd) = scalar(&mut g, "q'");
    let (th, _) = scalar(&mut g, "θ");
    let (w_s, w) = scalar(&mut g, "θ'");
    let half = g.rational(1, 2);
    let qd2 = g.powi(qd, 2);
    let w2 = g.powi(w, 2);
    let a = g.mul(&[half, ind, qd2]);
    let c = g.mul(&[half, j, w2]);
    let lag = g.add2(a, c);
    let a = g.mul(&[half, r, qd2]);
    let c = g.mul(&[half, b, w2]);
    let dis = g.add2(a, c);
    let kw = g.mul2(k, w);
    let eq = g.sub(v, kw);
    let eth = g.mul2(k, qd);
    let el = LagrangianSystem::new(
        lag,
        vec![
            Coordinate {
                position: q,
                velocity: qd_s,
            },
            Coordinate {
                position: th,
                velocity: w_s,
            },
        ],
    )
    .with_dissipation(dis)
    .with_effort(0, eq)
    .with_effort(1, eth)
    .derive(&mut g)
    .expect("the motor derives");
    // (V − R·q' − k·θ')/L and (k·q' − b·θ')/J, written out.
    let rq = g.mul2(r, qd);
    let f0 = g.sub(eq, rq);
    let a0 = g.div(f0, ind);
    let bw = g.mul2(b, w);
    let f1 = g.sub(eth, bw);
    let a1 = g.div(f1, j);
    (g, el, vec![a0, a1])
}

fn report() {
    let cart = cart_pendulum();
    let derived: Vec<NodeId> = cart
        .el
        .mass
        .iter()
        .flatten()
        .chain(&cart.el.force)
        .copied()
        .collect();
    println!(
        "cart pendulum: M and b derived {} nodes, hand-written {} nodes; graph holds {} nodes",
        cart.g.count_nodes(&derived),
        cart.g.count_nodes(&cart.hand),
        cart.g.len()
    );
    for (i, b) in cart.el.force.iter().enumerate() {
        println!("  b[{i}] = {}", cart.g.to_unicode(*b));
    }
    let (g, el, hand) = dc_motor();
    if let physis_symbolic::Acceleration::Explicit(a) = &el.acceleration {
        println!(
            "dc motor: accelerations derived {} nodes, hand-written {} nodes; graph holds {} nodes",
            g.count_nodes(a),
            g.count_nodes(&hand),
            g.len()
        );
        for (i, x) in a.iter().enumerate() {
            println!("  a[{i}] = {}", g.to_unicode(*x));
        }
    }
}

fn bench(c: &mut Criterion) {
    c.bench_function("derive cart pendulum", |b| {
        b.iter(|| black_box(cart_pendulum()))
    });
    c.bench_function("derive dc motor", |b| b.iter(|| black_box(dc_motor())));
}

criterion_group!(benches, bench);

fn main() {
    report();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
