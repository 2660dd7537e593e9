//! The instructions of a lane tape and their executor: a scalar tape's instructions, with
//! each multiply whose product feeds a single add or subtract fused into it (the rule is
//! `fuse`'s, shared with the compact tape), and inputs read where they lie instead of loaded
//! into registers. Both save dispatches and register rows' round trips through memory,
//! which is what a lane tape's time goes into.

use multiversion::multiversion;

use crate::eval;
use crate::interpreter::fuse::FusedIns;
use crate::interpreter::lanes::{LaneInputs, NAN_ROW, Row};
use crate::interpreter::tape::Ins;
use crate::ir::{BinOp, Source, UnOp};

/// Where an operand's row is: a register, or an input row read in place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Opd {
    Reg(u32),
    In(Source, u32),
}

/// Inputs read in place (`t` and `h` are one value for every lane: loaded into a row).
fn in_place(src: Source) -> bool {
    matches!(
        src,
        Source::State | Source::F0 | Source::Param | Source::Dw | Source::Rate
    )
}

/// One operation on two rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Two {
    Add,
    Sub,
    Mul,
    Div,
    Other(BinOp),
}

/// One operation on a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum One {
    Neg,
    Other(UnOp),
    Powi(i32),
    Copy,
}

/// A multiply fused into the add or subtract that alone reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fused {
    /// `c + x·y`.
    MulAdd,
    /// `x·y − c`.
    MulSub,
    /// `c − x·y`.
    SubMul,
}

/// An executable lane instruction.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Op {
    /// A load kept as a copy: `t` or `h`, or an input that is itself an output.
    Load {
        d: u32,
        src: Source,
        k: u32,
    },
    Two {
        op: Two,
        d: u32,
        a: Opd,
        b: Opd,
    },
    One {
        op: One,
        d: u32,
        a: Opd,
    },
    Select {
        d: u32,
        c: Opd,
        a: Opd,
        b: Opd,
    },
    Fused {
        op: Fused,
        d: u32,
        c: Opd,
        x: Opd,
        y: Opd,
    },
}

/// Lowers fused lane instructions to executable ones, reading inputs in place: a load's
/// readers (until its register is written again) take the input row itself, and the load
/// goes, unless its register still holds it when the tape ends and is an output. `regs` is
/// the tape's register count.
pub(crate) fn lower(code: &[FusedIns], outputs: &[u32], regs: usize) -> Vec<Op> {
    // `holds[r]`: the input register `r` was loaded from, and that load's index in `out`.
    let mut holds: Vec<Option<(Source, u32, usize)>> = vec![None; regs];
    let mut out: Vec<Option<Op>> = Vec::with_capacity(code.len());
    for ins in code {
        let o = |r: u32| match holds.get(r as usize).copied().flatten() {
            Some((src, k, _)) => Opd::In(src, k),
            None => Opd::Reg(r),
        };
        let two = |op, d, a, b| Op::Two {
            op,
            d,
            a: o(a),
            b: o(b),
        };
        let one = |op, d, a| Op::One { op, d, a: o(a) };
        let fused = |op, d, c, x, y| Op::Fused {
            op,
            d,
            c: o(c),
            x: o(x),
            y: o(y),
        };
        let (op, d) = match *ins {
            FusedIns::Plain(ref p) => match *p {
                Ins::Load { d, src, k } => (Op::Load { d, src, k }, d),
                Ins::Add { d, a, b } => (two(Two::Add, d, a, b), d),
                Ins::Sub { d, a, b } => (two(Two::Sub, d, a, b), d),
                Ins::Mul { d, a, b } => (two(Two::Mul, d, a, b), d),
                Ins::Div { d, a, b } => (two(Two::Div, d, a, b), d),
                Ins::Bin { op, d, a, b } => (two(Two::Other(op), d, a, b), d),
                Ins::Neg { d, a } => (one(One::Neg, d, a), d),
                Ins::Un { op, d, a } => (one(One::Other(op), d, a), d),
                Ins::Powi { d, a, n } => (one(One::Powi(n), d, a), d),
                Ins::Copy { d, a } => (one(One::Copy, d, a), d),
                Ins::Select { d, c, a, b } => (
                    Op::Select {
                        d,
                        c: o(c),
                        a: o(a),
                        b: o(b),
                    },
                    d,
                ),
                // The lane tape admits nothing else.
                _ => continue,
            },
            FusedIns::MulAdd { d, c, x, y } => (fused(Fused::MulAdd, d, c, x, y), d),
            FusedIns::MulSub { d, c, x, y } => (fused(Fused::MulSub, d, c, x, y), d),
            FusedIns::SubMul { d, c, x, y } => (fused(Fused::SubMul, d, c, x, y), d),
        };
        let Some(held) = holds.get_mut(d as usize) else {
            continue;
        };
        *held = match op {
            // Read in place from now on: the load is dropped unless needed at the end.
            Op::Load { src, k, .. } if in_place(src) => Some((src, k, out.len())),
            _ => None,
        };
        out.push(held.is_none().then_some(op));
    }
    // Outputs still held by their loads need the loads back.
    for &r in outputs {
        if let Some(Some((src, k, at))) = holds.get(r as usize).copied() {
            out[at] = Some(Op::Load { d: r, src, k });
        }
    }
    out.into_iter().flatten().collect()
}

/// Runs lane instructions. Compiled again for wider vector units and picked at run time:
/// the rows are plain loops of IEEE operations (never contracted into fused multiply-adds),
/// so every version computes the same bits.
#[multiversion(targets("x86_64+avx512f+avx512vl+avx2+avx", "x86_64+avx2+avx", "aarch64+neon"))]
pub(crate) fn run_code<'a>(code: &[Op], regs: &mut [Row], inp: &LaneInputs<'a>) {
    for ins in code {
        match *ins {
            Op::Load { d, src, k } => {
                if let Some(r) = regs.get_mut(d as usize) {
                    inp.load(src, k, r);
                }
            }
            Op::Two { op, d, a, b } => match op {
                Two::Add => apply(regs, inp, d, [a, b], |[x, y]| x + y),
                Two::Sub => apply(regs, inp, d, [a, b], |[x, y]| x - y),
                Two::Mul => apply(regs, inp, d, [a, b], |[x, y]| x * y),
                Two::Div => apply(regs, inp, d, [a, b], |[x, y]| x / y),
                Two::Other(op) => apply(regs, inp, d, [a, b], |[x, y]| eval::binary(op, x, y)),
            },
            Op::One { op, d, a } => match op {
                One::Neg => apply(regs, inp, d, [a], |[x]| -x),
                One::Other(op) => apply(regs, inp, d, [a], |[x]| eval::unary(op, x)),
                One::Powi(n) => apply(regs, inp, d, [a], |[x]| eval::powi(x, n)),
                One::Copy => apply(regs, inp, d, [a], |[x]| x),
            },
            Op::Select { d, c, a, b } => {
                apply(regs, inp, d, [c, a, b], |[c, a, b]| eval::select(c, a, b));
            }
            Op::Fused { op, d, c, x, y } => match op {
                Fused::MulAdd => apply(regs, inp, d, [c, x, y], |[c, x, y]| c + x * y),
                Fused::MulSub => apply(regs, inp, d, [c, x, y], |[c, x, y]| x * y - c),
                Fused::SubMul => apply(regs, inp, d, [c, x, y], |[c, x, y]| c - x * y),
            },
        }
    }
}

/// An operand's row, given the registers below and above the one being written.
#[inline(always)]
fn row<'a>(o: Opd, below: &'a [Row], above: &'a [Row], d: usize, inp: &LaneInputs<'a>) -> &'a Row {
    match o {
        Opd::In(src, k) => inp.row(src, k),
        Opd::Reg(r) => {
            let r = r as usize;
            let found = if r < d {
                below.get(r)
            } else {
                above.get(r.wrapping_sub(d + 1))
            };
            found.unwrap_or(&NAN_ROW)
        }
    }
}

/// `regs[d] = f(operands)` lane by lane. A fused instruction may write a register it
/// reads (freed by the add it replaces): that case goes through a temporary row.
#[inline(always)]
fn apply<const N: usize>(
    regs: &mut [Row],
    inp: &LaneInputs<'_>,
    d: u32,
    ops: [Opd; N],
    f: impl Fn([f64; N]) -> f64,
) {
    let d = d as usize;
    if d >= regs.len() {
        return;
    }
    if ops.contains(&Opd::Reg(d as u32)) {
        let (below, above) = regs.split_at(d);
        let rows = ops.map(|o| match o {
            Opd::Reg(r) if r as usize == d => &above[0],
            _ => row(o, below, &above[1..], d, inp),
        });
        let out: Row = std::array::from_fn(|l| f(rows.map(|r| r[l])));
        regs[d] = out;
        return;
    }
    let (below, rest) = regs.split_at_mut(d);
    let Some((out, above)) = rest.split_first_mut() else {
        return;
    };
    let rows = ops.map(|o| row(o, below, above, d, inp));
    for (l, v) in out.iter_mut().enumerate() {
        *v = f(rows.map(|r| r[l]));
    }
}
