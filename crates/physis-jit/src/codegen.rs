//! One tape translated to Cranelift IR, instruction by instruction.
//!
//! A tape is straight-line code over a register file, so its registers become SSA values
//! directly (the value each register holds at this point of the code); no register is
//! stored until the end, when the output registers are written back where [`Tape::write`]
//! reads them. Arrays are unrolled slot by slot. Every operation is the one the tape
//! performs: IEEE `+ − · /`, negation, absolute value and square root inline (Cranelift never
//! fuses a multiply into an add unless asked), everything else a call of the runtime's own
//! scalar function ([`crate::libm`]).
//!
//! The compiled function reads each input through a pointer and a length
//! ([`crate::native::RawInputs`]). It first checks every length against the largest slot
//! the tape reads and returns 0, having written nothing, when one is short: the caller then
//! runs the tape, which reads NaN past an input's end.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::immediates::Ieee64;
use cranelift_codegen::ir::{
    AbiParam, FuncRef, InstBuilder, MemFlagsData, Signature, Value, types,
};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::{FuncId, Module};
use physis_ir::{BinOp, Ins, Source, Tape, UnOp};

use crate::native::RawInputs;

/// Why a tape stays interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unsupported {
    /// An instruction not compiled yet (stencils, reductions, solves).
    Instruction(&'static str),
    /// More unrolled slots than [`MAX_SLOTS`].
    TooLarge(usize),
    /// A register index past the register file (a malformed tape).
    Register,
}

/// The most scalar operations one compiled tape may unroll to: beyond it compile time and
/// code size grow past what a run repays, and a grid's arrays are better left to the tape's
/// vector kernels.
pub const MAX_SLOTS: usize = 20_000;

/// Whether `tape` can be compiled, checked before any Cranelift work is done.
pub(crate) fn check(tape: &Tape) -> Result<(), Unsupported> {
    let mut slots = 0usize;
    for ins in tape.code() {
        slots += match ins {
            Ins::Stencil { .. } => return Err(Unsupported::Instruction("stencil")),
            Ins::Reduce { .. } => return Err(Unsupported::Instruction("reduce")),
            Ins::PickMaxAbs { .. } => return Err(Unsupported::Instruction("pick_max_abs")),
            Ins::Solve { .. } => return Err(Unsupported::Instruction("solve")),
            Ins::LoadRange { n, .. }
            | Ins::VUn { n, .. }
            | Ins::VBin { n, .. }
            | Ins::VPowi { n, .. }
            | Ins::VSelect { n, .. }
            | Ins::Splat { n, .. } => *n as usize,
            Ins::Pack { src, .. } => src.len(),
            Ins::Gather { idx, .. } => idx.len(),
            _ => 1,
        };
    }
    if slots > MAX_SLOTS {
        return Err(Unsupported::TooLarge(slots));
    }
    Ok(())
}

/// The index of a slice input in [`RawInputs`], or `None` for `t`, `h` and noise.
pub(crate) fn slice_index(src: Source) -> Option<usize> {
    Some(match src {
        Source::State => 0,
        Source::F0 => 1,
        Source::Param => 2,
        Source::Dw => 3,
        Source::Guess => 4,
        Source::Rate => 5,
        Source::Seed => 6,
        Source::Stages => 7,
        Source::T | Source::H | Source::Noise => return None,
    })
}

/// The signature of every compiled tape: `(inputs, registers) -> ran`.
pub(crate) fn signature<M: Module>(module: &M) -> Signature {
    let ptr = module.target_config().pointer_type();
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

/// The runtime functions one tape calls, imported into the function on first use.
pub(crate) struct Calls<'a> {
    /// Declared module functions by symbol.
    pub(crate) ids: &'a HashMap<&'static str, FuncId>,
    refs: HashMap<&'static str, FuncRef>,
}

impl<'a> Calls<'a> {
    pub(crate) fn new(ids: &'a HashMap<&'static str, FuncId>) -> Self {
        Calls {
            ids,
            refs: HashMap::new(),
        }
    }

    pub(crate) fn call<M: Module>(
        &mut self,
        module: &mut M,
        b: &mut FunctionBuilder<'_>,
        name: &'static str,
        args: &[Value],
    ) -> Option<Value> {
        let f = match self.refs.get(name) {
            Some(f) => *f,
            None => {
                let id = *self.ids.get(name)?;
                let f = module.declare_func_in_func(id, b.func);
                self.refs.insert(name, f);
                f
            }
        };
        let call = b.ins().call(f, args);
        b.inst_results(call).first().copied()
    }
}

/// Register values while translating: the SSA value each register holds, constants from the
/// tape's preset file on first read.
struct Regs<'t> {
    vals: Vec<Option<Value>>,
    init: &'t [f64],
}

impl Regs<'_> {
    fn get(&mut self, b: &mut FunctionBuilder<'_>, r: u32) -> Result<Value, Unsupported> {
        let r = r as usize;
        match self.vals.get(r) {
            Some(Some(v)) => Ok(*v),
            Some(None) => {
                let bits = self.init.get(r).copied().unwrap_or(0.0).to_bits();
                let v = b.ins().f64const(Ieee64::with_bits(bits));
                self.vals[r] = Some(v);
                Ok(v)
            }
            None => Err(Unsupported::Register),
        }
    }

    fn set(&mut self, r: u32, v: Value) -> Result<(), Unsupported> {
        match self.vals.get_mut(r as usize) {
            Some(slot) => {
                *slot = Some(v);
                Ok(())
            }
            None => Err(Unsupported::Register),
        }
    }
}

/// Fills `b` (a fresh function with [`signature`]) with `tape`'s code.
pub(crate) fn translate<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    tape: &Tape,
) -> Result<(), Unsupported> {
    check(tape)?;
    let ptr = module.target_config().pointer_type();
    let flags = MemFlagsData::trusted();
    let entry = b.create_block();
    let body = b.create_block();
    let short = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let inp = b.block_params(entry)[0];
    let regs_ptr = b.block_params(entry)[1];

    // The largest slot read of each slice input, checked once on entry.
    let mut need = [0u64; 8];
    for ins in tape.code() {
        match ins {
            Ins::Load { src, k, .. } => {
                if let Some(i) = slice_index(*src) {
                    need[i] = need[i].max(u64::from(*k) + 1);
                }
            }
            Ins::LoadRange { src, off, n, .. } => {
                if let Some(i) = slice_index(*src) {
                    need[i] = need[i].max(u64::from(*off) + u64::from(*n));
                }
            }
            _ => {}
        }
    }
    let mut short_any: Option<Value> = None;
    let mut bases: [Option<Value>; 8] = [None; 8];
    for (i, n) in need.iter().enumerate() {
        if *n == 0 {
            continue;
        }
        let len = b.ins().load(ptr, flags, inp, RawInputs::len_offset(i));
        let lacks = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, len, *n as i64);
        short_any = Some(match short_any {
            Some(s) => b.ins().bor(s, lacks),
            None => lacks,
        });
        bases[i] = Some(b.ins().load(ptr, flags, inp, RawInputs::ptr_offset(i)));
    }
    match short_any {
        Some(s) => {
            b.ins().brif(s, short, &[], body, &[]);
        }
        None => {
            b.ins().jump(body, &[]);
        }
    }
    b.switch_to_block(short);
    let zero = b.ins().iconst(types::I32, 0);
    b.ins().return_(&[zero]);

    b.switch_to_block(body);
    let mut regs = Regs {
        vals: vec![None; tape.init().len()],
        init: tape.init(),
    };
    let fzero = b.ins().f64const(0.0);
    let load = |b: &mut FunctionBuilder<'_>, src: Source, k: u32| -> Value {
        match (src, slice_index(src)) {
            (_, Some(i)) => match bases[i] {
                Some(base) => b.ins().load(types::F64, flags, base, (k as i32) * 8),
                None => b.ins().f64const(f64::NAN),
            },
            (Source::T, None) => b.ins().load(types::F64, flags, inp, RawInputs::T_OFFSET),
            (Source::H, None) => b.ins().load(types::F64, flags, inp, RawInputs::H_OFFSET),
            // Noise never reaches a tape (laws are split into drift and diffusion); the tape
            // reads it as zero.
            _ => b.ins().f64const(0.0),
        }
    };

    for ins in tape.code() {
        match ins {
            Ins::Load { d, src, k } => {
                let v = load(b, *src, *k);
                regs.set(*d, v)?;
            }
            Ins::LoadRange { d, src, off, n } => {
                for k in 0..*n {
                    let v = load(b, *src, off + k);
                    regs.set(d + k, v)?;
                }
            }
            Ins::Add { d, a, b: c } => {
                bin(&mut *module, b, calls, &mut regs, BinOp::Add, *d, *a, *c)?
            }
            Ins::Sub { d, a, b: c } => {
                bin(&mut *module, b, calls, &mut regs, BinOp::Sub, *d, *a, *c)?
            }
            Ins::Mul { d, a, b: c } => {
                bin(&mut *module, b, calls, &mut regs, BinOp::Mul, *d, *a, *c)?
            }
            Ins::Div { d, a, b: c } => {
                bin(&mut *module, b, calls, &mut regs, BinOp::Div, *d, *a, *c)?
            }
            Ins::Neg { d, a } => un(&mut *module, b, calls, &mut regs, UnOp::Neg, *d, *a)?,
            Ins::Un { op, d, a } => un(&mut *module, b, calls, &mut regs, *op, *d, *a)?,
            Ins::Bin { op, d, a, b: c } => bin(&mut *module, b, calls, &mut regs, *op, *d, *a, *c)?,
            Ins::Powi { d, a, n } => powi(&mut *module, b, calls, &mut regs, *d, *a, *n)?,
            Ins::Select { d, c, a, b: e } => {
                select(b, &mut regs, fzero, *d, *c, *a, *e)?;
            }
            Ins::Copy { d, a } => {
                let v = regs.get(b, *a)?;
                regs.set(*d, v)?;
            }
            Ins::VUn { op, d, a, n } => {
                for k in 0..*n {
                    un(&mut *module, b, calls, &mut regs, *op, d + k, a + k)?;
                }
            }
            Ins::VBin {
                op,
                d,
                a,
                b: c,
                n,
                sa,
                sb,
            } => {
                for k in 0..*n {
                    bin(
                        &mut *module,
                        b,
                        calls,
                        &mut regs,
                        *op,
                        d + k,
                        a + k * sa,
                        c + k * sb,
                    )?;
                }
            }
            Ins::VPowi { d, a, p, n } => {
                for k in 0..*n {
                    powi(&mut *module, b, calls, &mut regs, d + k, a + k, *p)?;
                }
            }
            Ins::VSelect {
                d,
                c,
                a,
                b: e,
                n,
                sc,
                sa,
                sb,
            } => {
                for k in 0..*n {
                    select(
                        b,
                        &mut regs,
                        fzero,
                        d + k,
                        c + k * sc,
                        a + k * sa,
                        e + k * sb,
                    )?;
                }
            }
            Ins::Pack { d, src } => {
                // Read every source first: a later slot of `d` may be an earlier source.
                let vs = src
                    .iter()
                    .map(|s| regs.get(b, *s))
                    .collect::<Result<Vec<_>, _>>()?;
                for (k, v) in vs.into_iter().enumerate() {
                    regs.set(d + k as u32, v)?;
                }
            }
            Ins::Splat { d, a, n } => {
                let v = regs.get(b, *a)?;
                for k in 0..*n {
                    regs.set(d + k, v)?;
                }
            }
            Ins::Gather { d, a, idx } => {
                let vs = idx
                    .iter()
                    .map(|i| regs.get(b, a + i))
                    .collect::<Result<Vec<_>, _>>()?;
                for (k, v) in vs.into_iter().enumerate() {
                    regs.set(d + k as u32, v)?;
                }
            }
            Ins::Stencil { .. } => return Err(Unsupported::Instruction("stencil")),
            Ins::Reduce { .. } => return Err(Unsupported::Instruction("reduce")),
            Ins::PickMaxAbs { .. } => return Err(Unsupported::Instruction("pick_max_abs")),
            Ins::Solve { .. } => return Err(Unsupported::Instruction("solve")),
        }
    }
    // Write back what `Tape::write` reads.
    for r in tape.outputs() {
        let v = regs.get(b, *r)?;
        let off = i32::try_from(u64::from(*r) * 8).map_err(|_| Unsupported::Register)?;
        b.ins().store(flags, v, regs_ptr, off);
    }
    let ran = b.ins().iconst(types::I32, 1);
    b.ins().return_(&[ran]);
    b.seal_all_blocks();
    Ok(())
}

fn un<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    regs: &mut Regs<'_>,
    op: UnOp,
    d: u32,
    a: u32,
) -> Result<(), Unsupported> {
    let x = regs.get(b, a)?;
    let v = match op {
        UnOp::Neg => b.ins().fneg(x),
        UnOp::Abs => b.ins().fabs(x),
        UnOp::Sqrt => b.ins().sqrt(x),
        _ => {
            let (name, _) = crate::libm::unary(op).ok_or(Unsupported::Instruction("unary"))?;
            calls
                .call(&mut *module, b, name, &[x])
                .ok_or(Unsupported::Instruction("unary"))?
        }
    };
    regs.set(d, v)
}

#[allow(clippy::too_many_arguments)] // the translation context and one instruction's operands
fn bin<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    regs: &mut Regs<'_>,
    op: BinOp,
    d: u32,
    a: u32,
    c: u32,
) -> Result<(), Unsupported> {
    let x = regs.get(b, a)?;
    let y = regs.get(b, c)?;
    let cmp = |b: &mut FunctionBuilder<'_>, cc: FloatCC| {
        let t = b.ins().fcmp(cc, x, y);
        let one = b.ins().f64const(1.0);
        let zero = b.ins().f64const(0.0);
        b.ins().select(t, one, zero)
    };
    let v = match op {
        BinOp::Add => b.ins().fadd(x, y),
        BinOp::Sub => b.ins().fsub(x, y),
        BinOp::Mul => b.ins().fmul(x, y),
        BinOp::Div => b.ins().fdiv(x, y),
        // Ordered compares are false on NaN as Rust's `<` is; `≠` is unordered-or-unequal,
        // true on NaN as Rust's `!=` is.
        BinOp::Lt => cmp(b, FloatCC::LessThan),
        BinOp::Le => cmp(b, FloatCC::LessThanOrEqual),
        BinOp::Gt => cmp(b, FloatCC::GreaterThan),
        BinOp::Ge => cmp(b, FloatCC::GreaterThanOrEqual),
        BinOp::Eq => cmp(b, FloatCC::Equal),
        BinOp::Ne => cmp(b, FloatCC::NotEqual),
        _ => {
            let (name, _) = crate::libm::binary(op).ok_or(Unsupported::Instruction("binary"))?;
            calls
                .call(&mut *module, b, name, &[x, y])
                .ok_or(Unsupported::Instruction("binary"))?
        }
    };
    regs.set(d, v)
}

fn powi<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    regs: &mut Regs<'_>,
    d: u32,
    a: u32,
    n: i32,
) -> Result<(), Unsupported> {
    let x = regs.get(b, a)?;
    let e = b.ins().iconst(types::I32, i64::from(n));
    let v = calls
        .call(&mut *module, b, crate::libm::POWI, &[x, e])
        .ok_or(Unsupported::Instruction("powi"))?;
    regs.set(d, v)
}

/// `d = c ≠ 0 ? a : e`; NaN counts as nonzero, as in `physis_runtime::scalar::select`.
fn select(
    b: &mut FunctionBuilder<'_>,
    regs: &mut Regs<'_>,
    zero: Value,
    d: u32,
    c: u32,
    a: u32,
    e: u32,
) -> Result<(), Unsupported> {
    let cv = regs.get(b, c)?;
    let av = regs.get(b, a)?;
    let ev = regs.get(b, e)?;
    let t = b.ins().fcmp(FloatCC::NotEqual, cv, zero);
    let v = b.ins().select(t, av, ev);
    regs.set(d, v)
}
