//! The one rule for fusing a multiply into the add or subtract that alone reads it, shared by
//! the lane tape (`lane_code`) and the compact tape (`compact`): `m = x·y; d = m ± c` (or
//! `c − m`) becomes one instruction when `m` is read there only and `x`, `y` still hold their
//! values. The fused instruction still rounds the product, then the sum (never a fused
//! multiply-add), so it computes the same bits as the pair; what it saves is a dispatch and
//! the product's round trip through the register file.

use crate::interpreter::tape::Ins;

/// A tape instruction, or a multiply fused into the add or subtract that alone reads it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FusedIns {
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
/// the tape ends. `code` must hold scalar instructions only (what lane and compact tapes
/// admit): an array instruction's reads and writes are not seen.
pub(crate) fn fuse(code: &[Ins], outputs: &[u32]) -> Vec<FusedIns> {
    let mut out: Vec<Option<FusedIns>> = code
        .iter()
        .cloned()
        .map(|i| Some(FusedIns::Plain(i)))
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
            Ins::Add { d, a, b } if a == m && b != m => FusedIns::MulAdd { d, c: b, x, y },
            Ins::Add { d, a, b } if b == m && a != m => FusedIns::MulAdd { d, c: a, x, y },
            Ins::Sub { d, a, b } if a == m && b != m => FusedIns::MulSub { d, c: b, x, y },
            Ins::Sub { d, a, b } if b == m && a != m => FusedIns::SubMul { d, c: a, x, y },
            _ => continue,
        };
        // `j` may already be the target of an earlier fusion only if it read that
        // earlier product, which it then reads instead of `m`: keep the first.
        if !matches!(out[j], Some(FusedIns::Plain(_))) || out[i].is_none() {
            continue;
        }
        out[i] = None;
        out[j] = Some(fused);
    }
    out.into_iter().flatten().collect()
}
