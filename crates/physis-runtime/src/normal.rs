//! A portable standard normal sampler: Marsaglia and Tsang's ziggurat (J. Stat. Softw. 5(8),
//! 2000) with 256 layers, the layout `rand_distr` also uses.
//!
//! Why our own: `rand_distr` computes `exp`/`ln` through `num_traits::Float`, which switches
//! from the pure-Rust `libm` to the platform's C library as soon as any crate in the build
//! enables `num-traits/std` (criterion does, in every test build). The platform's `exp` and
//! `log` are not bit-identical across systems, so a draw that goes through them (the wedge
//! test, and every tail value) could differ between machines or between a test and a CLI
//! build. Here every transcendental call is `libm`'s, whose code is plain IEEE arithmetic,
//! so the same 64-bit words give the same normals everywhere.
//!
//! One draw takes one `u64` in about 99 % of cases: its low 8 bits choose a layer and its
//! top 52 bits a signed uniform; only draws in a wedge or the tail use more.

use std::sync::LazyLock;

use rand::Rng;

/// Layers of the ziggurat.
const LAYERS: usize = 256;
/// Start of the tail (`x₁`), Marsaglia and Tsang's value for 256 layers.
const R: f64 = 3.654_152_885_361_009;
/// Area of each layer (and of the base strip with its tail).
const V: f64 = 4.928_673_233_99e-3;

/// Layer edges `x[i]` (decreasing, `x[0] = V/f(R)`, `x[1] = R`, `x[256] = 0`) and the
/// density at them, `f[i] = exp(-x[i]²/2)`.
#[derive(Debug)]
pub(crate) struct Tables {
    pub x: [f64; LAYERS + 1],
    pub f: [f64; LAYERS + 1],
}

fn density(x: f64) -> f64 {
    libm::exp(-0.5 * x * x)
}

/// Builds the tables once: each layer's top edge is where the density has grown by the
/// layer's area divided by its width, `x[i+1] = f⁻¹(f(x[i]) + V/x[i])`.
fn build() -> Tables {
    let mut x = [0.0; LAYERS + 1];
    let mut f = [0.0; LAYERS + 1];
    x[0] = V / density(R);
    x[1] = R;
    for i in 1..LAYERS - 1 {
        let y = density(x[i]) + V / x[i];
        x[i + 1] = libm::sqrt(-2.0 * libm::log(y));
    }
    x[LAYERS] = 0.0;
    for (fi, &xi) in f.iter_mut().zip(&x) {
        *fi = density(xi);
    }
    Tables { x, f }
}

pub(crate) static TABLES: LazyLock<Tables> = LazyLock::new(build);

/// A uniform in `[0, 1)` from the top 53 bits.
#[inline]
fn uniform<G: Rng + ?Sized>(rng: &mut G) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform in `(0, 1)` (never zero, for logarithms).
#[inline]
fn open_uniform<G: Rng + ?Sized>(rng: &mut G) -> f64 {
    ((rng.next_u64() >> 12) as f64 + 0.5) * (1.0 / (1u64 << 52) as f64)
}

/// One standard normal variate. The first rectangle test, which accepts about 99 % of
/// draws, is inlined into the caller's loop; everything else is out of line.
#[inline(always)]
pub(crate) fn standard_normal<G: Rng + ?Sized>(rng: &mut G, t: &Tables) -> f64 {
    let bits = rng.next_u64();
    let (i, u, x) = layer_point(bits, t);
    if x.abs() < t.x[i + 1] {
        return x;
    }
    beyond_rectangle(rng, t, i, u, x)
}

/// The layer, the uniform in `[-1, 1)` and the candidate `x` of a word.
#[inline(always)]
fn layer_point(bits: u64, t: &Tables) -> (usize, f64, f64) {
    let i = (bits & 0xff) as usize;
    // The top 52 bits as a mantissa of a number in [2, 4), shifted to [-1, 1).
    let u = f64::from_bits((bits >> 12) | 0x4000_0000_0000_0000) - 3.0;
    (i, u, u * t.x[i])
}

/// The rest of the ziggurat for a candidate outside its layer's rectangle: the tail, the
/// wedge test, and new words until one is accepted.
#[cold]
#[inline(never)]
fn beyond_rectangle<G: Rng + ?Sized>(rng: &mut G, t: &Tables, i: usize, u: f64, x: f64) -> f64 {
    let (mut i, mut u, mut x) = (i, u, x);
    loop {
        if i == 0 {
            return tail(rng, u < 0.0);
        }
        // In the wedge between the layer's rectangle and the curve: accept under the curve.
        let y = t.f[i] + (t.f[i + 1] - t.f[i]) * uniform(rng);
        if y < density(x) {
            return x;
        }
        (i, u, x) = layer_point(rng.next_u64(), t);
        if x.abs() < t.x[i + 1] {
            return x;
        }
    }
}

/// A draw from the tail beyond `R` (Marsaglia 1964), with the given sign.
#[cold]
fn tail<G: Rng + ?Sized>(rng: &mut G, negative: bool) -> f64 {
    loop {
        let a = -libm::log(open_uniform(rng)) / R;
        let b = -libm::log(open_uniform(rng));
        if 2.0 * b > a * a {
            return if negative { -(R + a) } else { R + a };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    #[test]
    fn tables_match_the_published_layout() {
        let t = &*TABLES;
        // Reference values from the 256-layer table `rand_distr` generates with Python
        // (independent of this construction).
        assert!((t.x[0] - 3.910_757_959_537_09).abs() < 1e-12, "{}", t.x[0]);
        assert!((t.x[2] - 3.449_278_298_560_964).abs() < 1e-12, "{}", t.x[2]);
        assert!(
            (t.x[128] - 1.535_342_571_438_843).abs() < 1e-9,
            "{}",
            t.x[128]
        );
        assert!(
            (t.x[255] - 0.215_241_895_913_273_8).abs() < 1e-9,
            "{}",
            t.x[255]
        );
        assert!((t.f[0] - 0.000_477_467_764_586_655).abs() < 1e-15);
        assert!(t.x.windows(2).all(|w| w[0] > w[1]));
        assert_eq!(t.f[LAYERS], 1.0);
        // The top layer closes the ziggurat: its area is V.
        let top = t.x[255] * (1.0 - t.f[255]);
        assert!((top / V - 1.0).abs() < 1e-6, "{top}");
    }

    #[test]
    fn moments_and_tail_frequencies_are_normal() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 400_000;
        let (mut s1, mut s2, mut s3, mut s4) = (0.0, 0.0, 0.0, 0.0);
        let (mut beyond1, mut beyond_r) = (0u32, 0u32);
        for _ in 0..n {
            let z = standard_normal(&mut rng, &TABLES);
            s1 += z;
            s2 += z * z;
            s3 += z * z * z;
            s4 += z * z * z * z;
            beyond1 += u32::from(z.abs() > 1.0);
            beyond_r += u32::from(z.abs() > R);
        }
        let nf = f64::from(n);
        let (m1, m2, m3, m4) = (s1 / nf, s2 / nf, s3 / nf, s4 / nf);
        // Standard errors: 1/√n ≈ 0.0016 for the mean, √2/√n for the variance, √15/√n
        // for the third moment, √96/√n for the fourth.
        assert!(m1.abs() < 5.0 * 0.0016, "{m1}");
        assert!((m2 - 1.0).abs() < 5.0 * 0.0023, "{m2}");
        assert!(m3.abs() < 5.0 * 0.0062, "{m3}");
        assert!((m4 - 3.0).abs() < 5.0 * 0.0155, "{m4}");
        // P(|Z| > 1) = 0.317311; P(|Z| > R) = 2.5803e-4 (exercises the tail code).
        let p1 = f64::from(beyond1) / nf;
        assert!(
            (p1 - 0.317_311).abs() < 5.0 * (0.317 * 0.683 / nf).sqrt(),
            "{p1}"
        );
        let pr = f64::from(beyond_r) / nf;
        assert!((pr - 2.5803e-4).abs() < 5.0 * (2.58e-4 / nf).sqrt(), "{pr}");
    }
}
