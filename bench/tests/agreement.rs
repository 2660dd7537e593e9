//! Every compiled-in candidate against independent references: the closed form of E2, a
//! hand-rolled i128 rational evaluation of the E1 recurrence for the first steps, and each other.

use bench::{
    E1, E2, all_candidates,
    problems::{V0, X0},
};

/// Minimal exact rational on i128, independent of every candidate crate.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Q(i128, i128);

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Q {
    fn new(p: i128, q: i128) -> Q {
        let g = gcd(p, q).max(1);
        let s = if q < 0 { -1 } else { 1 };
        Q(s * p / g, s * q / g)
    }
    fn add(self, o: Q) -> Q {
        let p = self
            .0
            .checked_mul(o.1)
            .and_then(|a| o.0.checked_mul(self.1).and_then(|b| a.checked_add(b)));
        Q::new(
            p.expect("i128 overflow in reference"),
            self.1.checked_mul(o.1).expect("i128 overflow"),
        )
    }
    fn mul(self, o: Q) -> Q {
        Q::new(
            self.0.checked_mul(o.0).expect("overflow"),
            self.1.checked_mul(o.1).expect("overflow"),
        )
    }
    fn pq(self) -> String {
        format!("{}/{}", self.0, self.1)
    }
}

fn start() -> ([Q; 3], [Q; 3]) {
    (
        X0.map(|(p, q)| Q::new(p.into(), q.into())),
        V0.map(|(p, q)| Q::new(p.into(), q.into())),
    )
}

#[test]
fn e2_matches_closed_form_for_every_candidate() {
    // v_n = v0 + n g dt;  x_n = x0 + n dt v0 + g dt^2 n(n+1)/2.
    let n: i128 = 1_000;
    let g = [Q::new(0, 1), Q::new(0, 1), Q::new(-981, 100)];
    let dt = Q::new(1, 10);
    let (x0, v0) = start();
    let mut expected = Vec::new();
    for i in 0..3 {
        let x = x0[i]
            .add(Q::new(n, 1).mul(dt).mul(v0[i]))
            .add(g[i].mul(dt).mul(dt).mul(Q::new(n * (n + 1) / 2, 1)));
        expected.push(x.pq());
    }
    for i in 0..3 {
        expected.push(v0[i].add(Q::new(n, 1).mul(g[i]).mul(dt)).pq());
    }
    for cand in all_candidates() {
        let out = (cand.run)(E2, n as u64);
        assert_eq!(out.state.to_vec(), expected, "candidate {}", cand.name);
    }
}

#[test]
fn e1_first_steps_match_the_linear_recurrence() {
    // Symplectic Euler on m x'' = -k x - b x' is the linear map
    // v' = (1 - b dt/m) v - (k dt/m) x,  x' = x + dt v'.
    let (k, b, m, dt) = (Q::new(3, 1), Q::new(1, 5), Q::new(7, 1), Q::new(1, 100));
    let inv_m = Q::new(m.1, m.0);
    let alpha = Q::new(1, 1).add(Q::new(-1, 1).mul(b).mul(dt).mul(inv_m));
    let beta = Q::new(-1, 1).mul(k).mul(dt).mul(inv_m);
    let (mut x, mut v) = start();
    for steps in 1..=3u64 {
        for i in 0..3 {
            v[i] = alpha.mul(v[i]).add(beta.mul(x[i]));
            x[i] = x[i].add(dt.mul(v[i]));
        }
        let expected: Vec<String> = x.iter().chain(v.iter()).map(|q| q.pq()).collect();
        for cand in all_candidates() {
            let out = (cand.run)(E1, steps);
            assert_eq!(
                out.state.to_vec(),
                expected,
                "candidate {} at {steps} steps",
                cand.name
            );
        }
    }
}

#[test]
fn e1_candidates_agree_and_grow_about_16_bits_per_step() {
    let steps = 200;
    let outcomes: Vec<_> = all_candidates()
        .iter()
        .map(|c| (c.name, (c.run)(E1, steps)))
        .collect();
    let (first_name, first) = &outcomes[0];
    for (name, out) in &outcomes[1..] {
        assert_eq!(out.state, first.state, "{name} differs from {first_name}");
        assert_eq!(out.max_denom_bits, first.max_denom_bits);
    }
    // The denominator gains a factor 7·100² = 70,000 (16.1 bits) per step.
    let per_step = first.max_denom_bits as f64 / steps as f64;
    assert!((15.5..16.5).contains(&per_step), "{per_step} bits per step");
}
