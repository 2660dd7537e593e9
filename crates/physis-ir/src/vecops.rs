//! The tape's elementwise array instructions as tight loops: the operation is chosen once
//! per instruction (not per element) and operands are slices, so the loops carry no
//! dispatch or bounds test and vectorise. Each element is computed by the same scalar
//! formula as [`crate::eval`], so results are bit for bit those of the element-by-element
//! definition. When the destination overlaps an operand (register reuse) the caller falls
//! back to the element-by-element loop.

use crate::eval;
use crate::ir::{BinOp, UnOp};

/// One operand: `n` consecutive registers, or one register broadcast.
#[derive(Clone, Copy)]
enum Arg<'a> {
    Slice(&'a [f64]),
    Scalar(f64),
}

/// The registers outside a destination range `d..d + n`.
struct Rest<'a> {
    lo: &'a [f64],
    hi: &'a [f64],
    hi_start: usize,
}

impl<'a> Rest<'a> {
    /// Operand at register `a` with stride `s` (0 or 1) over `n` elements, when it lies
    /// wholly outside the destination.
    fn arg(&self, a: usize, s: usize, n: usize) -> Option<Arg<'a>> {
        match s {
            0 if a < self.lo.len() => Some(Arg::Scalar(self.lo[a])),
            0 if a >= self.hi_start => self.hi.get(a - self.hi_start).copied().map(Arg::Scalar),
            1 if a + n <= self.lo.len() => Some(Arg::Slice(&self.lo[a..a + n])),
            1 if a >= self.hi_start => self
                .hi
                .get(a - self.hi_start..a - self.hi_start + n)
                .map(Arg::Slice),
            _ => None,
        }
    }
}

/// Splits `regs` into the destination `d..d + n` and the rest.
fn split(regs: &mut [f64], d: usize, n: usize) -> Option<(&mut [f64], Rest<'_>)> {
    if d + n > regs.len() {
        return None;
    }
    let (lo, rest) = regs.split_at_mut(d);
    let (out, hi) = rest.split_at_mut(n);
    Some((
        out,
        Rest {
            lo,
            hi,
            hi_start: d + n,
        },
    ))
}

#[inline(always)]
fn map1(out: &mut [f64], x: Arg<'_>, f: impl Fn(f64) -> f64) {
    match x {
        Arg::Slice(xs) => out.iter_mut().zip(xs).for_each(|(o, x)| *o = f(*x)),
        Arg::Scalar(x) => out.fill(f(x)),
    }
}

#[inline(always)]
fn map2(out: &mut [f64], x: Arg<'_>, y: Arg<'_>, f: impl Fn(f64, f64) -> f64) {
    match (x, y) {
        (Arg::Slice(xs), Arg::Slice(ys)) => {
            for ((o, x), y) in out.iter_mut().zip(xs).zip(ys) {
                *o = f(*x, *y);
            }
        }
        (Arg::Scalar(x), Arg::Slice(ys)) => {
            for (o, y) in out.iter_mut().zip(ys) {
                *o = f(x, *y);
            }
        }
        (Arg::Slice(xs), Arg::Scalar(y)) => {
            for (o, x) in out.iter_mut().zip(xs) {
                *o = f(*x, y);
            }
        }
        (Arg::Scalar(x), Arg::Scalar(y)) => out.fill(f(x, y)),
    }
}

/// `d[k] = op a[k·sa]`; false (nothing written) when the fast path does not apply.
pub(crate) fn unary(regs: &mut [f64], op: UnOp, d: u32, a: u32, n: u32) -> bool {
    let (d, a, n) = (d as usize, a as usize, n as usize);
    let Some((out, rest)) = split(regs, d, n) else {
        return false;
    };
    let Some(x) = rest.arg(a, 1, n) else {
        return false;
    };
    match op {
        UnOp::Neg => map1(out, x, |x| eval::unary(UnOp::Neg, x)),
        UnOp::Abs => map1(out, x, |x| eval::unary(UnOp::Abs, x)),
        UnOp::Sqrt => map1(out, x, |x| eval::unary(UnOp::Sqrt, x)),
        _ => map1(out, x, |x| eval::unary(op, x)),
    }
    true
}

/// `d[k] = a[k·sa] op b[k·sb]`; false (nothing written) when the fast path does not apply.
#[allow(clippy::too_many_arguments)] // the instruction's fields
pub(crate) fn binary(
    regs: &mut [f64],
    op: BinOp,
    d: u32,
    a: u32,
    b: u32,
    n: u32,
    sa: u32,
    sb: u32,
) -> bool {
    let (d, n) = (d as usize, n as usize);
    let Some((out, rest)) = split(regs, d, n) else {
        return false;
    };
    let (Some(x), Some(y)) = (
        rest.arg(a as usize, sa as usize, n),
        rest.arg(b as usize, sb as usize, n),
    ) else {
        return false;
    };
    match op {
        BinOp::Add => map2(out, x, y, |x, y| eval::binary(BinOp::Add, x, y)),
        BinOp::Sub => map2(out, x, y, |x, y| eval::binary(BinOp::Sub, x, y)),
        BinOp::Mul => map2(out, x, y, |x, y| eval::binary(BinOp::Mul, x, y)),
        BinOp::Div => map2(out, x, y, |x, y| eval::binary(BinOp::Div, x, y)),
        _ => map2(out, x, y, |x, y| eval::binary(op, x, y)),
    }
    true
}

/// `d[k] = select(c[k·sc], a[k·sa], b[k·sb])`; false when the fast path does not apply.
pub(crate) fn select(
    regs: &mut [f64],
    d: u32,
    (c, a, b): (u32, u32, u32),
    n: u32,
    (sc, sa, sb): (u32, u32, u32),
) -> bool {
    let (d, n) = (d as usize, n as usize);
    let Some((out, rest)) = split(regs, d, n) else {
        return false;
    };
    let (Some(Arg::Slice(cs)), Some(x), Some(y)) = (
        rest.arg(c as usize, sc as usize, n),
        rest.arg(a as usize, sa as usize, n),
        rest.arg(b as usize, sb as usize, n),
    ) else {
        return false;
    };
    // The mask varies per element; each branch is a slice or a broadcast value.
    let pick = |x: Arg<'_>, k: usize| match x {
        Arg::Slice(xs) => xs[k],
        Arg::Scalar(v) => v,
    };
    for (k, (o, c)) in out.iter_mut().zip(cs).enumerate() {
        *o = eval::select(*c, pick(x, k), pick(y, k));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_paths_match_the_scalar_formulas_and_refuse_overlap() {
        let mut regs: Vec<f64> = (0..12).map(|k| k as f64 * 0.5 - 2.0).collect();
        let before = regs.clone();
        // d = 8..12 from a = 0..4 and b = 4 (broadcast).
        assert!(binary(&mut regs, BinOp::Div, 8, 0, 4, 4, 1, 0));
        for k in 0..4 {
            assert_eq!(regs[8 + k].to_bits(), (before[k] / before[4]).to_bits());
        }
        // Destination overlapping the operand: refused, nothing written.
        let snapshot = regs.clone();
        assert!(!binary(&mut regs, BinOp::Add, 2, 0, 4, 4, 1, 1));
        assert!(!unary(&mut regs, UnOp::Neg, 1, 0, 4));
        assert_eq!(regs, snapshot);
        assert!(select(&mut regs, 0, (4, 8, 11), 4, (1, 1, 0)));
        for k in 0..4 {
            let want = eval::select(snapshot[4 + k], snapshot[8 + k], snapshot[11]);
            assert_eq!(regs[k].to_bits(), want.to_bits());
        }
    }
}
