//! The instructions of a lane tape and their executor: a scalar tape's instructions, with
//! each multiply whose product feeds a single add or subtract fused into it. A fused
//! instruction still rounds the product, then the sum (never a fused multiply-add), so it
//! computes the same bits as the pair; it saves a dispatch and a register row's round
//! trip through memory, which is what a lane tape's time goes into.

use multiversion::multiversion;

use crate::eval;
use crate::lanes::{LaneInputs, Row, WIDTH};
use crate::tape::Ins;

/// A lane-tape instruction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum LaneIns {
    /// A scalar tape instruction.
    Plain(Ins),
    /// `d = c + x·y`.
    MulAdd { d: u32, c: u32, x: u32, y: u32 },
    /// `d = x·y − c`.
    MulSub { d: u32, c: u32, x: u32, y: u32 },
    /// `d = c − x·y`.
    SubMul { d: u32, c: u32, x: u32, y: u32 },
}

/// Registers an instruction reads.
fn reads(ins: &Ins) -> [Option<u32>; 3] {
    match *ins {
        Ins::Add { a, b, .. }
        | Ins::Sub { a, b, .. }
        | Ins::Mul { a, b, .. }
        | Ins::Div { a, b, .. }
        | Ins::Bin { a, b, .. } => [Some(a), Some(b), None],
        Ins::Neg { a, .. } | Ins::Un { a, .. } | Ins::Powi { a, .. } | Ins::Copy { a, .. } => {
            [Some(a), None, None]
        }
        Ins::Select { c, a, b, .. } => [Some(c), Some(a), Some(b)],
        _ => [None; 3],
    }
}

/// The register an instruction writes (every scalar instruction writes one).
fn writes(ins: &Ins) -> Option<u32> {
    match *ins {
        Ins::Load { d, .. }
        | Ins::Add { d, .. }
        | Ins::Sub { d, .. }
        | Ins::Mul { d, .. }
        | Ins::Div { d, .. }
        | Ins::Neg { d, .. }
        | Ins::Un { d, .. }
        | Ins::Bin { d, .. }
        | Ins::Powi { d, .. }
        | Ins::Select { d, .. }
        | Ins::Copy { d, .. } => Some(d),
        _ => None,
    }
}

fn reads_reg(ins: &Ins, r: u32) -> bool {
    reads(ins).contains(&Some(r))
}

/// Fuses `m = x·y; d = m ± c` (or `c − m`) where `m` is read by that instruction only,
/// and `x`, `y` still hold their values there. `outputs` are the registers read after
/// the tape ends.
pub(crate) fn fuse(code: &[Ins], outputs: &[u32]) -> Vec<LaneIns> {
    let mut out: Vec<Option<LaneIns>> = code
        .iter()
        .cloned()
        .map(|i| Some(LaneIns::Plain(i)))
        .collect();
    for (i, ins) in code.iter().enumerate() {
        let Ins::Mul { d: m, a: x, b: y } = *ins else {
            continue;
        };
        // The first reader of `m`, with `x`, `y` and `m` untouched until then.
        let Some(j) = (i + 1..code.len()).find(|&j| reads_reg(&code[j], m)) else {
            continue;
        };
        if code[i + 1..j]
            .iter()
            .any(|k| matches!(writes(k), Some(w) if w == x || w == y || w == m))
        {
            continue;
        }
        // `m` must be dead after `j`: rewritten before any other read, or never read again.
        let dead = code[j + 1..]
            .iter()
            .find_map(|k| {
                if reads_reg(k, m) {
                    Some(false)
                } else if writes(k) == Some(m) {
                    Some(true)
                } else {
                    None
                }
            })
            .unwrap_or(!outputs.contains(&m));
        if !dead {
            continue;
        }
        let fused = match code[j] {
            Ins::Add { d, a, b } if a == m && b != m => LaneIns::MulAdd { d, c: b, x, y },
            Ins::Add { d, a, b } if b == m && a != m => LaneIns::MulAdd { d, c: a, x, y },
            Ins::Sub { d, a, b } if a == m && b != m => LaneIns::MulSub { d, c: b, x, y },
            Ins::Sub { d, a, b } if b == m && a != m => LaneIns::SubMul { d, c: a, x, y },
            _ => continue,
        };
        // `j` may already be the target of an earlier fusion only if it read that
        // earlier product, which it then reads instead of `m`: keep the first.
        if !matches!(out[j], Some(LaneIns::Plain(_))) || out[i].is_none() {
            continue;
        }
        out[i] = None;
        out[j] = Some(fused);
    }
    out.into_iter().flatten().collect()
}

/// Runs lane instructions. Compiled again for wider vector units and picked at run time:
/// the rows are plain loops of IEEE operations (never contracted into fused multiply-adds),
/// so every version computes the same bits.
#[multiversion(targets("x86_64+avx512f+avx512vl+avx2+avx", "x86_64+avx2+avx", "aarch64+neon"))]
pub(crate) fn run_code<'a>(code: &[LaneIns], regs: &mut [Row], inp: &LaneInputs<'a>) {
    for ins in code {
        match *ins {
            LaneIns::Plain(ref p) => match *p {
                Ins::Load { d, src, k } => inp.load(src, k, &mut regs[d as usize]),
                Ins::Add { d, a, b } => bin(regs, d, a, b, |x, y| x + y),
                Ins::Sub { d, a, b } => bin(regs, d, a, b, |x, y| x - y),
                Ins::Mul { d, a, b } => bin(regs, d, a, b, |x, y| x * y),
                Ins::Div { d, a, b } => bin(regs, d, a, b, |x, y| x / y),
                Ins::Neg { d, a } => un(regs, d, a, |x| -x),
                Ins::Un { op, d, a } => un(regs, d, a, |x| eval::unary(op, x)),
                Ins::Bin { op, d, a, b } => bin(regs, d, a, b, |x, y| eval::binary(op, x, y)),
                Ins::Powi { d, a, n } => un(regs, d, a, |x| eval::powi(x, n)),
                Ins::Select { d, c, a, b } => {
                    let (c, a, b) = (regs[c as usize], regs[a as usize], regs[b as usize]);
                    regs[d as usize] = std::array::from_fn(|l| eval::select(c[l], a[l], b[l]));
                }
                Ins::Copy { d, a } => un(regs, d, a, |x| x),
                // The lane tape admits nothing else.
                _ => {}
            },
            LaneIns::MulAdd { d, c, x, y } => tri(regs, d, c, x, y, |c, p| c + p),
            LaneIns::MulSub { d, c, x, y } => tri(regs, d, c, x, y, |c, p| p - c),
            LaneIns::SubMul { d, c, x, y } => tri(regs, d, c, x, y, |c, p| c - p),
        }
    }
}

/// `regs[d] = op(regs[a], regs[b])` lane by lane. The tape never writes an operand's
/// register, so `d` is distinct from both (they may equal each other: `x·x`).
#[inline(always)]
fn bin(regs: &mut [Row], d: u32, a: u32, b: u32, op: impl Fn(f64, f64) -> f64) {
    let (d, a, b) = (d as usize, a as usize, b as usize);
    if a == b {
        if let Ok([out, x]) = regs.get_disjoint_mut([d, a]) {
            for l in 0..WIDTH {
                out[l] = op(x[l], x[l]);
            }
        }
    } else if let Ok([out, x, y]) = regs.get_disjoint_mut([d, a, b]) {
        for l in 0..WIDTH {
            out[l] = op(x[l], y[l]);
        }
    }
}

/// `regs[d] = op(regs[a])` lane by lane (`d` distinct from `a`, as in `bin`).
#[inline(always)]
fn un(regs: &mut [Row], d: u32, a: u32, op: impl Fn(f64) -> f64) {
    if let Ok([out, x]) = regs.get_disjoint_mut([d as usize, a as usize]) {
        for l in 0..WIDTH {
            out[l] = op(x[l]);
        }
    }
}

/// `regs[d] = op(regs[c], regs[x]·regs[y])` lane by lane, the product rounded first.
/// `d` may coincide with `x` or `y` (their registers were free by the add), so rows
/// that overlap are copied first.
#[inline(always)]
fn tri(regs: &mut [Row], d: u32, c: u32, x: u32, y: u32, op: impl Fn(f64, f64) -> f64) {
    let (d, c, x, y) = (d as usize, c as usize, x as usize, y as usize);
    if let Ok([out, cr, xr, yr]) = regs.get_disjoint_mut([d, c, x, y]) {
        for l in 0..WIDTH {
            out[l] = op(cr[l], xr[l] * yr[l]);
        }
    } else {
        let (cr, xr, yr) = (regs[c], regs[x], regs[y]);
        regs[d] = std::array::from_fn(|l| op(cr[l], xr[l] * yr[l]));
    }
}
