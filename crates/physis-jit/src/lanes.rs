//! One lane tape translated to Cranelift IR over pairs of lanes (`f64x2`, SSE2 on x86-64).
//!
//! A lane tape is a tape of scalar instructions whose registers hold a row of
//! [`LANE_WIDTH`] values, one per ensemble member. The compiled function loops over the row
//! two lanes at a time; within one pass every register is an SSA `f64x2` value, as
//! [`crate::codegen`] makes it an `f64`, and only the output registers are stored, into their
//! rows. Each operation is the one the lane interpreter applies lane by lane: IEEE
//! `+ − · /`, negation, absolute value, square root and comparisons as packed instructions
//! (each lane rounds exactly as the scalar instruction does, and nothing is fused), every
//! other function the same `physis_runtime::scalar` call per lane ([`crate::libm`]).
//!
//! Inputs are read through [`RawLanes`]: slot `k` of lane `l` at `k·WIDTH + l`, the time as
//! a row. As in the scalar code, every length is checked on entry against the largest slot
//! read, and a short one returns 0 with nothing written, so the interpreter runs instead.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::immediates::Ieee64;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::Module;
use physis_ir::{BinOp, Ins, LANE_WIDTH, Source, Tape, UnOp};

use crate::codegen::{Calls, Unsupported};
use crate::native::RawLanes;

/// Lanes in one Cranelift vector.
const PAIR: usize = 2;

/// Bytes between two slots of an input (or two register rows).
const ROW_BYTES: i64 = (LANE_WIDTH * 8) as i64;

/// The index of a slot-major input in [`RawLanes`], or `None` for `t`, `h` and the rest.
pub(crate) fn lane_index(src: Source) -> Option<usize> {
    Some(match src {
        Source::State => 0,
        Source::F0 => 1,
        Source::Param => 2,
        Source::Dw => 3,
        Source::Rate => 4,
        _ => return None,
    })
}

/// Whether `tape` is a lane tape this module compiles: scalar instructions only.
pub(crate) fn check(tape: &Tape) -> Result<(), Unsupported> {
    for ins in tape.code() {
        match ins {
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
            | Ins::Copy { .. } => {}
            _ => return Err(Unsupported::Instruction("array instruction in a lane tape")),
        }
    }
    if tape.code().len() > crate::codegen::MAX_SLOTS {
        return Err(Unsupported::TooLarge(tape.code().len()));
    }
    Ok(())
}

/// Constants the translation reuses: splatted before the loop.
struct Consts {
    zero: Value,
    one: Value,
    nan: Value,
    h: Value,
}

/// Fills `b` (a fresh function with [`crate::codegen::signature`]) with `tape`'s code over
/// every lane.
pub(crate) fn translate<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    tape: &Tape,
) -> Result<(), Unsupported> {
    check(tape)?;
    let vt = types::F64X2;
    let ptr = module.target_config().pointer_type();
    let flags = MemFlagsData::trusted();
    // Rows are 8-byte aligned only: packed loads and stores must not assume 16.
    let vflags = MemFlagsData::new().with_notrap();
    let entry = b.create_block();
    let head = b.create_block();
    let exit = b.create_block();
    let short = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.append_block_param(head, types::I64);
    b.switch_to_block(entry);
    let inp = b.block_params(entry)[0];
    let regs_ptr = b.block_params(entry)[1];

    // The largest slot read of each input, checked once on entry (in lanes: slots · WIDTH).
    let mut need = [0u64; 5];
    let mut reads_t = false;
    for ins in tape.code() {
        if let Ins::Load { src, k, .. } = ins {
            match lane_index(*src) {
                Some(i) => need[i] = need[i].max(u64::from(*k) + 1),
                None => reads_t |= *src == Source::T,
            }
        }
    }
    let mut short_any: Option<Value> = None;
    let mut bases: [Option<Value>; 5] = [None; 5];
    for (i, n) in need.iter().enumerate() {
        if *n == 0 {
            continue;
        }
        let len = b.ins().load(ptr, flags, inp, RawLanes::len_offset(i));
        let want = (*n as i64).saturating_mul(LANE_WIDTH as i64);
        let lacks = b.ins().icmp_imm_u(IntCC::UnsignedLessThan, len, want);
        short_any = Some(match short_any {
            Some(s) => b.ins().bor(s, lacks),
            None => lacks,
        });
        bases[i] = Some(b.ins().load(ptr, flags, inp, RawLanes::ptr_offset(i)));
    }
    let ts = reads_t.then(|| b.ins().load(ptr, flags, inp, RawLanes::TS_OFFSET));
    let splat = |b: &mut FunctionBuilder<'_>, x: f64| {
        let s = b.ins().f64const(Ieee64::with_bits(x.to_bits()));
        b.ins().splat(vt, s)
    };
    let h = b.ins().load(types::F64, flags, inp, RawLanes::H_OFFSET);
    let consts = Consts {
        zero: splat(b, 0.0),
        one: splat(b, 1.0),
        nan: splat(b, f64::NAN),
        h: b.ins().splat(vt, h),
    };
    // Registers read before any instruction writes them hold the tape's presets.
    let init = tape.init();
    let mut preset: Vec<Option<Value>> = vec![None; init.len()];
    let mut written = vec![false; init.len()];
    let mut note_read = |b: &mut FunctionBuilder<'_>, r: u32, written: &[bool]| {
        let r = r as usize;
        if r < init.len() && !written[r] && preset[r].is_none() {
            preset[r] = Some(splat(b, init[r]));
        }
    };
    for ins in tape.code() {
        let (reads, d): ([Option<u32>; 3], u32) = match *ins {
            Ins::Load { d, .. } => ([None; 3], d),
            Ins::Add { d, a, b: c }
            | Ins::Sub { d, a, b: c }
            | Ins::Mul { d, a, b: c }
            | Ins::Div { d, a, b: c }
            | Ins::Bin { d, a, b: c, .. } => ([Some(a), Some(c), None], d),
            Ins::Neg { d, a }
            | Ins::Un { d, a, .. }
            | Ins::Powi { d, a, .. }
            | Ins::Copy { d, a } => ([Some(a), None, None], d),
            Ins::Select { d, c, a, b: e } => ([Some(c), Some(a), Some(e)], d),
            _ => return Err(Unsupported::Instruction("array instruction in a lane tape")),
        };
        for r in reads.into_iter().flatten() {
            if r as usize >= init.len() {
                return Err(Unsupported::Register);
            }
            note_read(b, r, &written);
        }
        *written.get_mut(d as usize).ok_or(Unsupported::Register)? = true;
    }
    for r in tape.outputs() {
        note_read(b, *r, &written);
    }
    match short_any {
        Some(s) => {
            let zero = b.ins().iconst(types::I64, 0);
            b.ins().brif(s, short, &[], head, &[zero.into()]);
        }
        None => {
            let zero = b.ins().iconst(types::I64, 0);
            b.ins().jump(head, &[zero.into()]);
        }
    }
    b.switch_to_block(short);
    let no = b.ins().iconst(types::I32, 0);
    b.ins().return_(&[no]);

    // One pass: lanes 2j and 2j + 1, at byte offset 16·j of every row.
    b.switch_to_block(head);
    let j = b.block_params(head)[0];
    let off = b.ins().ishl_imm_u(j, 4);
    let mut regs: Vec<Option<Value>> = preset.clone();
    let load_row = |b: &mut FunctionBuilder<'_>, base: Value, k: u32| -> Value {
        let at = b.ins().iadd(base, off);
        b.ins()
            .load(vt, vflags, at, (i64::from(k) * ROW_BYTES) as i32)
    };
    let get = |regs: &[Option<Value>], r: u32| -> Result<Value, Unsupported> {
        regs.get(r as usize)
            .copied()
            .flatten()
            .ok_or(Unsupported::Register)
    };
    for ins in tape.code() {
        let (d, v) = match *ins {
            Ins::Load { d, src, k } => {
                let v = match (src, lane_index(src)) {
                    (_, Some(i)) => match bases[i] {
                        Some(base) => load_row(b, base, k),
                        None => consts.nan,
                    },
                    (Source::T, None) => match ts {
                        Some(ts) => load_row(b, ts, 0),
                        None => consts.nan,
                    },
                    (Source::H, None) => consts.h,
                    // What the lane interpreter reads for any other input: a NaN row.
                    _ => consts.nan,
                };
                (d, v)
            }
            Ins::Add { d, a, b: c } => (
                d,
                bin(
                    module,
                    b,
                    calls,
                    &consts,
                    BinOp::Add,
                    get(&regs, a)?,
                    get(&regs, c)?,
                )?,
            ),
            Ins::Sub { d, a, b: c } => (
                d,
                bin(
                    module,
                    b,
                    calls,
                    &consts,
                    BinOp::Sub,
                    get(&regs, a)?,
                    get(&regs, c)?,
                )?,
            ),
            Ins::Mul { d, a, b: c } => (
                d,
                bin(
                    module,
                    b,
                    calls,
                    &consts,
                    BinOp::Mul,
                    get(&regs, a)?,
                    get(&regs, c)?,
                )?,
            ),
            Ins::Div { d, a, b: c } => (
                d,
                bin(
                    module,
                    b,
                    calls,
                    &consts,
                    BinOp::Div,
                    get(&regs, a)?,
                    get(&regs, c)?,
                )?,
            ),
            Ins::Bin { op, d, a, b: c } => (
                d,
                bin(
                    module,
                    b,
                    calls,
                    &consts,
                    op,
                    get(&regs, a)?,
                    get(&regs, c)?,
                )?,
            ),
            Ins::Neg { d, a } => (d, un(module, b, calls, UnOp::Neg, get(&regs, a)?)?),
            Ins::Un { op, d, a } => (d, un(module, b, calls, op, get(&regs, a)?)?),
            Ins::Powi { d, a, n } => {
                let x = get(&regs, a)?;
                let e = b.ins().iconst(types::I32, i64::from(n));
                let v = per_lane(
                    b,
                    |b, xl| {
                        calls
                            .call(&mut *module, b, crate::libm::POWI, &[xl, e])
                            .ok_or(Unsupported::Instruction("powi"))
                    },
                    x,
                )?;
                (d, v)
            }
            Ins::Copy { d, a } => (d, get(&regs, a)?),
            Ins::Select { d, c, a, b: e } => {
                // `c ≠ 0` (NaN counts as nonzero, as in `physis_runtime::scalar::select`).
                let (cv, av, ev) = (get(&regs, c)?, get(&regs, a)?, get(&regs, e)?);
                let m = b.ins().fcmp(FloatCC::NotEqual, cv, consts.zero);
                let m = b.ins().bitcast(vt, MemFlagsData::new(), m);
                (d, b.ins().bitselect(m, av, ev))
            }
            _ => return Err(Unsupported::Instruction("array instruction in a lane tape")),
        };
        *regs.get_mut(d as usize).ok_or(Unsupported::Register)? = Some(v);
    }
    // Write back the output rows.
    let out = b.ins().iadd(regs_ptr, off);
    for r in tape.outputs() {
        let v = get(&regs, *r)?;
        let at = i32::try_from(i64::from(*r) * ROW_BYTES).map_err(|_| Unsupported::Register)?;
        b.ins().store(vflags, v, out, at);
    }
    let next = b.ins().iadd_imm_u(j, 1);
    let more = b
        .ins()
        .icmp_imm_u(IntCC::UnsignedLessThan, next, (LANE_WIDTH / PAIR) as i64);
    b.ins().brif(more, head, &[next.into()], exit, &[]);
    b.switch_to_block(exit);
    let yes = b.ins().iconst(types::I32, 1);
    b.ins().return_(&[yes]);
    b.seal_all_blocks();
    Ok(())
}

/// `f` applied to each lane of `x` (a call per lane), packed again.
fn per_lane(
    b: &mut FunctionBuilder<'_>,
    mut f: impl FnMut(&mut FunctionBuilder<'_>, Value) -> Result<Value, Unsupported>,
    x: Value,
) -> Result<Value, Unsupported> {
    let x0 = b.ins().extractlane(x, 0);
    let x1 = b.ins().extractlane(x, 1);
    let y0 = f(b, x0)?;
    let y1 = f(b, x1)?;
    let v = b.ins().splat(types::F64X2, y0);
    Ok(b.ins().insertlane(v, y1, 1))
}

fn un<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    op: UnOp,
    x: Value,
) -> Result<Value, Unsupported> {
    Ok(match op {
        UnOp::Neg => b.ins().fneg(x),
        UnOp::Abs => b.ins().fabs(x),
        UnOp::Sqrt => b.ins().sqrt(x),
        _ => {
            let (name, _) = crate::libm::unary(op).ok_or(Unsupported::Instruction("unary"))?;
            per_lane(
                b,
                |b, xl| {
                    calls
                        .call(&mut *module, b, name, &[xl])
                        .ok_or(Unsupported::Instruction("unary"))
                },
                x,
            )?
        }
    })
}

fn bin<M: Module>(
    module: &mut M,
    b: &mut FunctionBuilder<'_>,
    calls: &mut Calls<'_>,
    k: &Consts,
    op: BinOp,
    x: Value,
    y: Value,
) -> Result<Value, Unsupported> {
    let cmp = |b: &mut FunctionBuilder<'_>, cc: FloatCC| {
        let m = b.ins().fcmp(cc, x, y);
        let m = b.ins().bitcast(types::F64X2, MemFlagsData::new(), m);
        b.ins().bitselect(m, k.one, k.zero)
    };
    Ok(match op {
        BinOp::Add => b.ins().fadd(x, y),
        BinOp::Sub => b.ins().fsub(x, y),
        BinOp::Mul => b.ins().fmul(x, y),
        BinOp::Div => b.ins().fdiv(x, y),
        // As in the scalar code: ordered compares false on NaN, `≠` true on NaN.
        BinOp::Lt => cmp(b, FloatCC::LessThan),
        BinOp::Le => cmp(b, FloatCC::LessThanOrEqual),
        BinOp::Gt => cmp(b, FloatCC::GreaterThan),
        BinOp::Ge => cmp(b, FloatCC::GreaterThanOrEqual),
        BinOp::Eq => cmp(b, FloatCC::Equal),
        BinOp::Ne => cmp(b, FloatCC::NotEqual),
        _ => {
            let (name, _) = crate::libm::binary(op).ok_or(Unsupported::Instruction("binary"))?;
            let x0 = b.ins().extractlane(x, 0);
            let x1 = b.ins().extractlane(x, 1);
            let y0 = b.ins().extractlane(y, 0);
            let y1 = b.ins().extractlane(y, 1);
            let r0 = calls
                .call(&mut *module, b, name, &[x0, y0])
                .ok_or(Unsupported::Instruction("binary"))?;
            let r1 = calls
                .call(&mut *module, b, name, &[x1, y1])
                .ok_or(Unsupported::Instruction("binary"))?;
            let v = b.ins().splat(types::F64X2, r0);
            b.ins().insertlane(v, r1, 1)
        }
    })
}
