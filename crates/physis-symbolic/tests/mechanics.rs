//! Equations of motion against closed forms: the textbook equations of a pendulum, a cart
//! pendulum, a DC motor, a harmonic oscillator and the Kepler problem, checked symbolically
//! where the simplifier should reach the textbook form, and numerically at random points.

use physis_symbolic::{
    Acceleration, Bindings, Conjugate, Coordinate, Graph, HamiltonianSystem, Kinks,
    LagrangianSystem, NodeId, Symbol, SymbolId, Var, lagrangian_energy,
};

/// A small deterministic generator (xorshift64*), so the points are the same on every run.
struct Points(u64);

impl Points {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let u = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

fn scalar(g: &mut Graph, name: &str) -> (SymbolId, NodeId) {
    let id = g.declare_symbol(name, 1);
    (id, g.symbol(id, 0))
}

fn sym(id: SymbolId) -> Symbol {
    Symbol { id, component: 0 }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn simple_pendulum_reaches_the_textbook_form() {
    let mut g = Graph::new();
    let (_, m) = scalar(&mut g, "m");
    let (_, l) = scalar(&mut g, "ℓ");
    let (_, gr) = scalar(&mut g, "g");
    let (th_id, th) = scalar(&mut g, "θ");
    let (w_id, w) = scalar(&mut g, "θ'");
    // L = ½·m·ℓ²·θ'² + m·g·ℓ·cos θ
    let half = g.rational(1, 2);
    let l2 = g.powi(l, 2);
    let w2 = g.powi(w, 2);
    let kinetic = g.mul(&[half, m, l2, w2]);
    let c = g.cos(th);
    let potential = g.mul(&[m, gr, l, c]);
    let lag = g.add2(kinetic, potential);

    let coords = vec![Coordinate {
        position: sym(th_id),
        velocity: sym(w_id),
    }];
    let el = LagrangianSystem::new(lag, coords.clone())
        .derive(&mut g)
        .unwrap();

    // θ'' = −(g/ℓ)·sin θ, built by hand: the derived node must be the very same node.
    let s = g.sin(th);
    let gs = g.mul2(gr, s);
    let q = g.div(gs, l);
    let want = g.neg(q);
    let Acceleration::Explicit(a) = &el.acceleration else {
        panic!("a pendulum's mass matrix is diagonal");
    };
    assert_eq!(a[0], want, "derived {}", g.to_unicode(a[0]));
    assert_eq!(g.to_unicode(a[0]), "−g·sin(θ)/ℓ");
    let ml2 = g.mul(&[m, l2]);
    assert_eq!(el.mass[0][0], ml2);

    // Energy ½·m·ℓ²·θ'² − m·g·ℓ·cos θ.
    let e = lagrangian_energy(&mut g, lag, &coords, Kinks::Refuse).unwrap();
    assert_eq!(e, el.energy);
    let want_e = g.sub(kinetic, potential);
    assert_eq!(e, want_e);
}

#[test]
fn cart_pendulum_mass_matrix_and_force() {
    let mut g = Graph::new();
    let (mc_id, mc) = scalar(&mut g, "M");
    let (m_id, m) = scalar(&mut g, "m");
    let (l_id, l) = scalar(&mut g, "ℓ");
    let (g_id, gr) = scalar(&mut g, "g");
    let (s_id, _) = scalar(&mut g, "s");
    let (sd_id, sd) = scalar(&mut g, "s'");
    let (p_id, p) = scalar(&mut g, "φ");
    let (pd_id, pd) = scalar(&mut g, "φ'");
    // L = ½(M + m)ṡ² + m ℓ ṡ φ̇ cos φ + ½ m ℓ² φ̇² + m g ℓ cos φ
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
            position: sym(s_id),
            velocity: sym(sd_id),
        },
        Coordinate {
            position: sym(p_id),
            velocity: sym(pd_id),
        },
    ];
    let el = LagrangianSystem::new(lag, coords).derive(&mut g).unwrap();
    assert_eq!(el.acceleration, Acceleration::Solve);
    // Symbolic forms the simplifier should reach exactly.
    assert_eq!(el.mass[0][0], total);
    assert_eq!(el.mass[0][1], el.mass[1][0]);
    let sp = g.sin(p);
    let want_b1 = g.mul(&[Graph::MINUS_ONE, m, gr, l, sp]);
    assert_eq!(el.force[1], want_b1, "b₁ = {}", g.to_unicode(el.force[1]));

    let mut rng = Points(0x9e37_79b9_7f4a_7c15);
    for _ in 0..50 {
        let v = [
            rng.uniform(0.5, 3.0),
            rng.uniform(0.1, 2.0),
            rng.uniform(0.2, 2.0),
            rng.uniform(1.0, 20.0),
            rng.uniform(-5.0, 5.0),
            rng.uniform(-3.0, 3.0),
            rng.uniform(-3.0, 3.0),
            rng.uniform(-3.0, 3.0),
        ];
        let ids = [mc_id, m_id, l_id, g_id, s_id, sd_id, p_id, pd_id];
        let mut b = Bindings::new();
        for (id, x) in ids.iter().zip(v) {
            b.set(sym(*id), x);
        }
        b.time = rng.uniform(0.0, 10.0);
        let [vm, vmm, vl, vg, _, _, vp, vpd] = v;
        let want_m = [
            [vm + vmm, vmm * vl * vp.cos()],
            [vmm * vl * vp.cos(), vmm * vl * vl],
        ];
        let want_b = [vmm * vl * vpd * vpd * vp.sin(), -vmm * vg * vl * vp.sin()];
        for i in 0..2 {
            for (j, want) in want_m[i].iter().enumerate() {
                let got = g.eval(el.mass[i][j], &b).unwrap();
                assert!(close(got, *want), "M[{i}][{j}] {got} vs {want}");
            }
            let got = g.eval(el.force[i], &b).unwrap();
            assert!(close(got, want_b[i]), "b[{i}] {got} vs {}", want_b[i]);
        }
    }
}

#[test]
fn dc_motor_gives_the_textbook_equations() {
    let mut g = Graph::new();
    let names = ["V", "R", "L", "J", "b", "k"];
    let p: Vec<(SymbolId, NodeId)> = names.iter().map(|n| scalar(&mut g, n)).collect();
    let [v, r, ind, j, b, k] = [p[0].1, p[1].1, p[2].1, p[3].1, p[4].1, p[5].1];
    let (q_id, _) = scalar(&mut g, "q");
    let (qd_id, qd) = scalar(&mut g, "q'");
    let (th_id, _) = scalar(&mut g, "θ");
    let (w_id, w) = scalar(&mut g, "θ'");
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
    let sys = LagrangianSystem::new(
        lag,
        vec![
            Coordinate {
                position: sym(q_id),
                velocity: sym(qd_id),
            },
            Coordinate {
                position: sym(th_id),
                velocity: sym(w_id),
            },
        ],
    )
    .with_dissipation(dis)
    .with_effort(0, eq)
    .with_effort(1, eth);
    let el = sys.derive(&mut g).unwrap();
    let Acceleration::Explicit(acc) = &el.acceleration else {
        panic!("a motor's mass matrix is diagonal");
    };
    // L·q'' = V − R·q' − k·θ' and J·θ'' = k·q' − b·θ'.
    let rq = g.mul2(r, qd);
    let nrq = g.neg(rq);
    let nkw = g.neg(kw);
    let f0 = g.add(&[v, nrq, nkw]);
    let bw = g.mul2(b, w);
    let f1 = g.sub(eth, bw);
    assert_eq!(el.force, vec![f0, f1]);
    assert_eq!(acc[0], g.div(f0, ind));
    assert_eq!(acc[1], g.div(f1, j));

    // At ω = kV/(k² + R·b) and i = b·ω/k both accelerations vanish.
    let (vv, rv, lv, jv, bv, kv) = (12.0, 1.0, 0.5e-3, 0.01, 0.001, 0.05);
    let omega = kv * vv / (kv * kv + rv * bv);
    let current = bv * omega / kv;
    let mut bind = Bindings::new();
    for (id, x) in p.iter().zip([vv, rv, lv, jv, bv, kv]) {
        bind.set(sym(id.0), x);
    }
    bind.set(sym(qd_id), current).set(sym(w_id), omega);
    for a in acc {
        assert!(g.eval(*a, &bind).unwrap().abs() < 1e-9);
    }
}

#[test]
fn harmonic_oscillator_hamiltonian() {
    let mut g = Graph::new();
    let (_, m) = scalar(&mut g, "m");
    let (_, k) = scalar(&mut g, "k");
    let (q_id, q) = scalar(&mut g, "q");
    let (p_id, p) = scalar(&mut g, "p");
    // H = p²/(2m) + ½·k·q²
    let p2 = g.powi(p, 2);
    let two_m = g.scale(physis_symbolic::Number::int(2), m);
    let t1 = g.div(p2, two_m);
    let half = g.rational(1, 2);
    let q2 = g.powi(q, 2);
    let t2 = g.mul(&[half, k, q2]);
    let h = g.add2(t1, t2);
    let eqs = HamiltonianSystem::new(
        h,
        vec![Conjugate {
            position: sym(q_id),
            momentum: sym(p_id),
        }],
    )
    .derive(&mut g)
    .unwrap();
    assert_eq!(eqs.position_rates[0], g.div(p, m));
    let kq = g.mul2(k, q);
    assert_eq!(eqs.momentum_rates[0], g.neg(kq));
    assert_eq!(eqs.energy, h);
}

#[test]
fn kepler_hamiltonian_with_vector_norms() {
    let mut g = Graph::new();
    let q_id = g.declare_symbol("q", 2);
    let p_id = g.declare_symbol("p", 2);
    let q = g.symbol_components(q_id);
    let p = g.symbol_components(p_id);
    // H = |p|²/2 − 1/|q|
    let np = g.norm(&p);
    let np2 = g.powi(np, 2);
    let half = g.rational(1, 2);
    let kin = g.mul2(half, np2);
    let nq = g.norm(&q);
    let inv = g.powi(nq, -1);
    let h = g.sub(kin, inv);
    let pairs: Vec<Conjugate> = (0..2)
        .map(|c| Conjugate {
            position: Symbol {
                id: q_id,
                component: c,
            },
            momentum: Symbol {
                id: p_id,
                component: c,
            },
        })
        .collect();
    let eqs = HamiltonianSystem::new(h, pairs).derive(&mut g).unwrap();
    assert_eq!(
        eqs.position_rates, p,
        "q' = p exactly: |p|² simplifies to p₀² + p₁²"
    );
    let mut rng = Points(42);
    for _ in 0..50 {
        let (x, y) = (rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0));
        if x.hypot(y) < 0.1 {
            continue;
        }
        let mut b = Bindings::new();
        b.set_all(q_id, &[x, y]).set_all(p_id, &[0.3, -0.7]);
        let r3 = x.hypot(y).powi(3);
        let got = g.eval_many(&eqs.momentum_rates, &b).unwrap();
        assert!(close(got[0], -x / r3) && close(got[1], -y / r3), "{got:?}");
    }
    // Angular momentum q × p is conserved: its derivative along the flow is zero.
    let lz = {
        let a = g.mul2(q[0], p[1]);
        let c = g.mul2(q[1], p[0]);
        g.sub(a, c)
    };
    let mut rate = Vec::new();
    for c in 0..2u32 {
        let dq = g
            .diff(
                lz,
                Var::Symbol(Symbol {
                    id: q_id,
                    component: c,
                }),
                Kinks::Refuse,
            )
            .unwrap();
        let dp = g
            .diff(
                lz,
                Var::Symbol(Symbol {
                    id: p_id,
                    component: c,
                }),
                Kinks::Refuse,
            )
            .unwrap();
        rate.push(g.mul2(dq, eqs.position_rates[c as usize]));
        rate.push(g.mul2(dp, eqs.momentum_rates[c as usize]));
    }
    assert_eq!(g.add(&rate), Graph::ZERO);
}

#[test]
fn energies_with_kinks_are_refused_unless_asked() {
    let mut g = Graph::new();
    let (_, m) = scalar(&mut g, "m");
    let (s_id, _) = scalar(&mut g, "s");
    let (v_id, v) = scalar(&mut g, "s'");
    let a = g.abs(v);
    let half = g.rational(1, 2);
    let lag = g.mul(&[half, m, a, v]);
    let span = physis_syntax::Span::new(10, 20);
    g.set_origin(a, span);
    let coords = vec![Coordinate {
        position: sym(s_id),
        velocity: sym(v_id),
    }];
    let err = LagrangianSystem::new(lag, coords.clone())
        .derive(&mut g)
        .unwrap_err();
    let d = err.to_diagnostic(physis_syntax::Span::new(0, 1));
    assert_eq!(d.code.as_str(), "PH0112");
    assert_eq!(d.primary.span, span);

    // A lagrangian that does not read a velocity has a singular mass matrix.
    let (_, x) = scalar(&mut g, "x");
    let lag = g.mul2(m, x);
    let err = LagrangianSystem::new(lag, coords)
        .derive(&mut g)
        .unwrap_err();
    assert_eq!(
        err,
        physis_symbolic::SymbolicError::SingularMass {
            coordinate: 0,
            name: None
        }
    );
}
