//! The compact tape: a scalar tape re-encoded for a faster dispatch loop, computing the same
//! bits as [`Tape::run`] into the same registers.
//!
//! - Every instruction is one `u64`: an 8-bit opcode and four 14-bit fields (destination and
//!   up to three operands), so the loop walks 8 bytes per instruction instead of a 32-byte
//!   enum with boxed slices.
//! - The register file is padded to a power of two `N` and the loop is instantiated per `N`:
//!   every register index is masked (`i & (N − 1)`), which the compiler proves in bounds, so
//!   there is no bounds check and no `unsafe`.
//! - A multiply read only by the next add or subtract is fused into it (the rule of
//!   `fuse`, shared with the lane tape); it still rounds twice, never a fused multiply-add.
//! - Inputs are read by one opcode per source.
//! - Small arrays are expanded element by element (arithmetic on up to [`MAX_ARRAY`]
//!   elements, moves of up to [`MAX_MOVE`]); a tape with a larger array, a stencil,
//!   reduction, pick or dense solve stays on [`Tape::run`], whose array loops vectorise.
//!
//! Library functions are the same `physis_runtime::scalar` calls ([`UnOp::apply`],
//! [`BinOp::apply`], [`eval::powi`], [`eval::select`]) the tape and generated code make.

use crate::eval;
use crate::interpreter::fuse::{FusedIns, fuse};
use crate::interpreter::tape::{Inputs, Ins, Tape};
use crate::ir::{BinOp, Source, UnOp};

/// Bits of a register field.
const FIELD: u32 = 14;
/// Largest register file the fields address.
const MAX_REGS: usize = 1 << FIELD;
/// Smallest register file (the fewest instantiations of the loop worth having).
const MIN_REGS: usize = 16;
/// Most instructions after expanding arrays.
const MAX_CODE: usize = 1 << 16;
/// Largest array operation expanded element by element: past it one dispatch per element
/// costs more than the tape's vectorised array loop saves.
pub const MAX_ARRAY: u32 = 8;
/// Largest array move (load, pack, splat, gather) expanded: a copy per element either way.
pub const MAX_MOVE: u32 = 256;

// Opcodes. Loads read one input each; the rest are the tape's scalar instructions and the
// three fused forms.
const LOAD_T: u8 = 0;
const LOAD_H: u8 = 1;
const LOAD_Y: u8 = 2;
const LOAD_F0: u8 = 3;
const LOAD_P: u8 = 4;
const LOAD_DW: u8 = 5;
const LOAD_GUESS: u8 = 6;
const LOAD_RATE: u8 = 7;
const LOAD_SEED: u8 = 8;
const LOAD_STAGES: u8 = 9;
const LOAD_ZERO: u8 = 10;
const ADD: u8 = 11;
const SUB: u8 = 12;
const MUL: u8 = 13;
const DIV: u8 = 14;
const NEG: u8 = 15;
const COPY: u8 = 16;
const UN: u8 = 17;
const BIN: u8 = 18;
const POWI: u8 = 19;
const SELECT: u8 = 20;
const MUL_ADD: u8 = 21;
const MUL_SUB: u8 = 22;
const SUB_MUL: u8 = 23;

/// A tape in compact form.
#[derive(Clone, Debug, PartialEq)]
pub struct CompactTape {
    code: Box<[u64]>,
    /// Registers the code addresses: a power of two, at least the tape's.
    size: usize,
}

/// `op` with register fields `d`, `a`, `b`, `c` (each below [`MAX_REGS`]).
fn enc(op: u8, d: u32, a: u32, b: u32, c: u32) -> Option<u64> {
    let fits = |r: u32| (r as usize) < MAX_REGS;
    (fits(d) && fits(a) && fits(b) && fits(c)).then(|| {
        u64::from(op)
            | u64::from(d) << 8
            | u64::from(a) << (8 + FIELD)
            | u64::from(b) << (8 + 2 * FIELD)
            | u64::from(c) << (8 + 3 * FIELD)
    })
}

/// `op` with destination `d` and a wide operand `w` (an input index or a power) in the bits
/// above it.
fn enc_wide(op: u8, d: u32, w: u64) -> Option<u64> {
    ((d as usize) < MAX_REGS && w < 1 << (64 - 8 - FIELD))
        .then(|| u64::from(op) | u64::from(d) << 8 | w << (8 + FIELD))
}

/// The tape's instructions with arrays expanded element by element into scalar ones, which
/// is the order [`Tape::run`]'s element loops compute them in; `None` for a tape holding an
/// instruction with no scalar form.
fn scalar_code(code: &[Ins]) -> Option<Vec<Ins>> {
    let mut out = Vec::with_capacity(code.len());
    for ins in code {
        if out.len() > MAX_CODE {
            return None;
        }
        let wide = match *ins {
            Ins::VUn { n, .. }
            | Ins::VBin { n, .. }
            | Ins::VPowi { n, .. }
            | Ins::VSelect { n, .. } => n > MAX_ARRAY,
            Ins::LoadRange { n, .. } | Ins::Splat { n, .. } => n > MAX_MOVE,
            Ins::Pack { ref src, .. } => src.len() > MAX_MOVE as usize,
            Ins::Gather { ref idx, .. } => idx.len() > MAX_MOVE as usize,
            _ => false,
        };
        if wide {
            return None;
        }
        match *ins {
            Ins::Load { .. }
            | Ins::Add { .. }
            | Ins::Sub { .. }
            | Ins::Mul { .. }
            | Ins::Div { .. }
            | Ins::Neg { .. }
            | Ins::Un { .. }
            | Ins::Bin { .. }
            | Ins::Powi { .. }
            | Ins::Select { .. }
            | Ins::Copy { .. } => out.push(ins.clone()),
            Ins::LoadRange { d, src, off, n } => {
                out.extend((0..n).map(|k| Ins::Load {
                    d: d + k,
                    src,
                    k: off + k,
                }));
            }
            Ins::VUn { op, d, a, n } => out.extend((0..n).map(|k| Ins::Un {
                op,
                d: d + k,
                a: a + k,
            })),
            Ins::VBin {
                op,
                d,
                a,
                b,
                n,
                sa,
                sb,
            } => out.extend((0..n).map(|k| Ins::Bin {
                op,
                d: d + k,
                a: a + k * sa,
                b: b + k * sb,
            })),
            Ins::VPowi { d, a, p, n } => out.extend((0..n).map(|k| Ins::Powi {
                d: d + k,
                a: a + k,
                n: p,
            })),
            Ins::VSelect {
                d,
                c,
                a,
                b,
                n,
                sc,
                sa,
                sb,
            } => out.extend((0..n).map(|k| Ins::Select {
                d: d + k,
                c: c + k * sc,
                a: a + k * sa,
                b: b + k * sb,
            })),
            Ins::Pack { d, ref src } => {
                out.extend(src.iter().zip(d..).map(|(&a, d)| Ins::Copy { d, a }))
            }
            // The operand never shares a register with the result, so copying element by
            // element is the tape's read-once fill.
            Ins::Splat { d, a, n } => out.extend((d..d + n).map(|d| Ins::Copy { d, a })),
            Ins::Gather { d, a, ref idx } => {
                out.extend(idx.iter().zip(d..).map(|(&i, d)| Ins::Copy { d, a: a + i }))
            }
            Ins::Stencil { .. }
            | Ins::Reduce { .. }
            | Ins::PickMaxAbs { .. }
            | Ins::Solve { .. } => return None,
        }
    }
    // An elementwise `Bin` of the four arithmetic operations is the scalar instruction.
    for ins in &mut out {
        if let Ins::Bin { op, d, a, b } = *ins {
            *ins = match op {
                BinOp::Add => Ins::Add { d, a, b },
                BinOp::Sub => Ins::Sub { d, a, b },
                BinOp::Mul => Ins::Mul { d, a, b },
                BinOp::Div => Ins::Div { d, a, b },
                _ => continue,
            };
        }
    }
    (out.len() <= MAX_CODE).then_some(out)
}

/// One instruction in compact form.
fn encode(ins: &FusedIns) -> Option<u64> {
    let ins = match *ins {
        FusedIns::MulAdd { d, c, x, y } => return enc(MUL_ADD, d, c, x, y),
        FusedIns::MulSub { d, c, x, y } => return enc(MUL_SUB, d, c, x, y),
        FusedIns::SubMul { d, c, x, y } => return enc(SUB_MUL, d, c, x, y),
        FusedIns::Plain(ref ins) => ins,
    };
    match *ins {
        Ins::Load { d, src, k } => {
            let op = match src {
                Source::T => LOAD_T,
                Source::H => LOAD_H,
                Source::State => LOAD_Y,
                Source::F0 => LOAD_F0,
                Source::Param => LOAD_P,
                Source::Dw => LOAD_DW,
                Source::Guess => LOAD_GUESS,
                Source::Rate => LOAD_RATE,
                Source::Seed => LOAD_SEED,
                Source::Stages => LOAD_STAGES,
                Source::Noise => LOAD_ZERO,
            };
            enc_wide(op, d, u64::from(k))
        }
        Ins::Add { d, a, b } => enc(ADD, d, a, b, 0),
        Ins::Sub { d, a, b } => enc(SUB, d, a, b, 0),
        Ins::Mul { d, a, b } => enc(MUL, d, a, b, 0),
        Ins::Div { d, a, b } => enc(DIV, d, a, b, 0),
        Ins::Neg { d, a } => enc(NEG, d, a, 0, 0),
        Ins::Copy { d, a } => enc(COPY, d, a, 0, 0),
        Ins::Un { op, d, a } => {
            let k = UnOp::ALL.iter().position(|o| *o == op)?;
            enc(UN, d, a, 0, k as u32)
        }
        Ins::Bin { op, d, a, b } => {
            let k = BinOp::ALL.iter().position(|o| *o == op)?;
            enc(BIN, d, a, b, k as u32)
        }
        // The power in the two high fields (28 bits, two's complement).
        Ins::Powi { d, a, n } => {
            let n = i64::from(n);
            let half = 1i64 << (2 * FIELD - 1);
            if !(-half..half).contains(&n) {
                return None;
            }
            enc(POWI, d, a, 0, 0).map(|w| w | (n as u64) << (8 + 2 * FIELD))
        }
        Ins::Select { d, c, a, b } => enc(SELECT, d, c, a, b),
        _ => None,
    }
}

impl CompactTape {
    /// The tape in compact form, or `None` when it holds an instruction with no scalar form
    /// (stencil, reduction, pick, dense solve), more registers than the fields address, or
    /// too many instructions once arrays are expanded.
    pub fn compile(tape: &Tape) -> Option<CompactTape> {
        let size = tape.init().len().max(MIN_REGS).next_power_of_two();
        if size > MAX_REGS {
            return None;
        }
        let code = scalar_code(tape.code())?;
        let code = fuse(&code, tape.outputs())
            .iter()
            .map(encode)
            .collect::<Option<Box<[u64]>>>()?;
        Some(CompactTape { code, size })
    }

    /// Registers the code addresses: a register file for it is the tape's
    /// ([`Tape::registers`]) padded with zeros to this length.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of instructions executed per run.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// True for code that does nothing.
    pub fn is_empty(&self) -> bool {
        self.code.is_empty()
    }

    /// Runs the code over `regs` as [`Tape::run`] would (the same bits in every register the
    /// tape's outputs name). Returns false, having changed nothing, when `regs` is shorter
    /// than [`CompactTape::size`].
    pub fn run(&self, regs: &mut [f64], inp: &Inputs<'_>) -> bool {
        macro_rules! sized {
            ($($n:literal)*) => {
                match self.size {
                    $($n => exec::<$n>(&self.code, regs, inp),)*
                    _ => false,
                }
            };
        }
        sized!(16 32 64 128 256 512 1024 2048 4096 8192 16384)
    }
}

/// Input `k` of `s`, NaN past its end (as [`Tape::run`]'s loads).
#[inline(always)]
fn input(s: &[f64], k: u64) -> f64 {
    usize::try_from(k)
        .ok()
        .and_then(|k| s.get(k))
        .copied()
        .unwrap_or(f64::NAN)
}

/// The power of a `POWI` word (its two high fields, sign-extended).
#[inline(always)]
fn power(w: u64) -> i32 {
    ((w as i64) >> (8 + 2 * FIELD)) as i32
}

/// The loop over a register file of `N` registers.
#[inline(never)]
fn exec<const N: usize>(code: &[u64], regs: &mut [f64], inp: &Inputs<'_>) -> bool {
    let Some(regs) = regs.get_mut(..N) else {
        return false;
    };
    let Ok(r): Result<&mut [f64; N], _> = regs.try_into() else {
        return false;
    };
    let mask = N - 1;
    for &w in code {
        let d = (w >> 8) as usize & mask;
        let a = (w >> (8 + FIELD)) as usize & mask;
        let b = (w >> (8 + 2 * FIELD)) as usize & mask;
        let c = (w >> (8 + 3 * FIELD)) as usize & mask;
        let k = w >> (8 + FIELD);
        match w as u8 {
            LOAD_T => r[d] = inp.t,
            LOAD_H => r[d] = inp.h,
            LOAD_Y => r[d] = input(inp.y, k),
            LOAD_F0 => r[d] = input(inp.f0, k),
            LOAD_P => r[d] = input(inp.p, k),
            LOAD_DW => r[d] = input(inp.dw, k),
            LOAD_GUESS => r[d] = input(inp.guess, k),
            LOAD_RATE => r[d] = input(inp.rate, k),
            LOAD_SEED => r[d] = input(inp.seed, k),
            LOAD_STAGES => r[d] = input(inp.stages, k),
            // Noise never reaches a tape (as `Inputs::get`).
            LOAD_ZERO => r[d] = 0.0,
            ADD => r[d] = r[a] + r[b],
            SUB => r[d] = r[a] - r[b],
            MUL => r[d] = r[a] * r[b],
            DIV => r[d] = r[a] / r[b],
            NEG => r[d] = -r[a],
            COPY => r[d] = r[a],
            UN => {
                let op = UnOp::ALL.get((w >> (8 + 3 * FIELD)) as usize);
                r[d] = op.map_or(f64::NAN, |op| eval::unary(*op, r[a]));
            }
            BIN => {
                let op = BinOp::ALL.get((w >> (8 + 3 * FIELD)) as usize);
                r[d] = op.map_or(f64::NAN, |op| eval::binary(*op, r[a], r[b]));
            }
            POWI => r[d] = eval::powi(r[a], power(w)),
            // Fields: `d`, then the condition, the value if true, the value if false.
            SELECT => r[d] = eval::select(r[a], r[b], r[c]),
            // Fields: `d`, then `c`, `x`, `y`; `d` may be any of them (freed by the add
            // the multiply was fused into), so every operand is read first.
            MUL_ADD => r[d] = r[a] + r[b] * r[c],
            MUL_SUB => r[d] = r[b] * r[c] - r[a],
            SUB_MUL => r[d] = r[a] - r[b] * r[c],
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;

    /// The fields round-trip, and a power keeps its sign.
    #[test]
    fn fields_and_powers_round_trip() {
        let w = enc(SELECT, 1, 16_383, 2, 9_999).unwrap();
        assert_eq!(w as u8, SELECT);
        assert_eq!((w >> 8) as usize & (MAX_REGS - 1), 1);
        assert_eq!((w >> (8 + FIELD)) as usize & (MAX_REGS - 1), 16_383);
        assert_eq!((w >> (8 + 2 * FIELD)) as usize & (MAX_REGS - 1), 2);
        assert_eq!((w >> (8 + 3 * FIELD)) as usize & (MAX_REGS - 1), 9_999);
        assert!(enc(ADD, MAX_REGS as u32, 0, 0, 0).is_none());
        let p = encode(&FusedIns::Plain(Ins::Powi { d: 3, a: 4, n: -7 })).unwrap();
        assert_eq!(power(p), -7);
        let big = encode(&FusedIns::Plain(Ins::Powi {
            d: 3,
            a: 4,
            n: 1 << 26,
        }))
        .unwrap();
        assert_eq!(power(big), 1 << 26);
        assert!(
            encode(&FusedIns::Plain(Ins::Powi {
                d: 3,
                a: 4,
                n: i32::MIN
            }))
            .is_none()
        );
        assert_eq!((p >> (8 + FIELD)) as usize & (MAX_REGS - 1), 4);
    }

    /// A small function with a fused product, an array and a select runs to the tape's
    /// bits, and a register file too short is refused untouched.
    #[test]
    fn runs_to_the_tapes_bits() -> Result<(), crate::IrError> {
        let mut b = Builder::new();
        let x = b.load(Source::State, 0);
        let y = b.load(Source::State, 1);
        let p = b.load(Source::Param, 0);
        let xy = b.mul(x, y)?;
        let s = b.add(xy, p)?;
        let v = b.load_range(Source::State, 0, 3);
        let w = b.binary(BinOp::Mul, v, x)?;
        let e = b.unary(UnOp::Exp, w)?;
        let c = b.binary(BinOp::Lt, x, y)?;
        let sel = b.select(c, s, y)?;
        let f = b.finish("f", &[s, e, sel])?;
        let tape = Tape::compile(&f)?;
        let compact = CompactTape::compile(&tape).expect("scalar and small arrays");
        let (y0, p0) = ([0.3, -1.7, 2.5], [1e-3]);
        let inp = Inputs {
            y: &y0,
            p: &p0,
            ..Inputs::default()
        };
        let mut want = tape.registers();
        tape.run(&mut want, &inp);
        let mut got = tape.registers();
        assert!(!compact.run(&mut got, &inp), "unpadded file refused");
        assert_eq!(got, tape.registers());
        got.resize(compact.size(), 0.0);
        assert!(compact.run(&mut got, &inp));
        for &o in tape.outputs() {
            assert_eq!(got[o as usize].to_bits(), want[o as usize].to_bits());
        }
        Ok(())
    }
}
