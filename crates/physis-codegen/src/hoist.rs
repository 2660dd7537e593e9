//! Values computed once per parameter set. The interpreter runs every function with its
//! parameters folded in (`bind_params`): each value that depends on parameters only becomes
//! a constant once per run. The generated code does the same work at the same moment: such
//! values are computed once when the model is bound (the model's `k` array, filled by
//! `bind`) and read from there. One hoisting for both storages: a model on the stack keeps
//! every intermediate a local, a model over grid fields puts long arrays on the heap.

use std::collections::HashMap;

use physis_ir::{Function, Op, Source, Ty, ValueId};
use proc_macro2::TokenStream;
use quote::quote;

use crate::error::GenError;
use crate::func::{array_expr, scalar_expr};
use crate::grid_emit::{Buf, Emitter, Idx, Place};
use crate::names::usize_lit;

/// Values computed once per parameter set: the model's `k` array and the code filling it.
#[derive(Debug, Default)]
pub struct Hoist {
    /// Slots used so far.
    pub len: usize,
    /// One block per function, run by the model's `bind`.
    pub blocks: Vec<TokenStream>,
    /// Slot of each hoisted expression (by its text), shared between functions.
    pub(crate) memo: HashMap<String, usize>,
    /// Functions hoisted so far (makes keys of unshareable values unique).
    pub(crate) functions: usize,
    /// Scratch the hoisting code of grid models needs for long intermediates.
    pub(crate) scratch: usize,
}

/// True for values that depend on nothing but constants and parameters.
pub(crate) fn static_values(f: &Function) -> Vec<bool> {
    let mut stat = vec![false; f.insts.len()];
    for (i, inst) in f.insts.iter().enumerate() {
        stat[i] = match inst.op {
            Op::Const(_) => true,
            Op::Load(src, _) | Op::LoadRange(src, _, _) => src == Source::Param,
            ref op => {
                let mut all = true;
                op.for_each_operand(|v| all &= stat[v.index()]);
                all
            }
        };
    }
    stat
}

/// The static values read by dynamic code or returned: those worth hoisting.
pub(crate) fn roots(f: &Function, stat: &[bool]) -> Vec<bool> {
    let mut root = vec![false; f.insts.len()];
    for (i, inst) in f.insts.iter().enumerate() {
        if !stat[i] {
            inst.op.for_each_operand(|v| root[v.index()] = true);
        }
    }
    for v in &f.outputs {
        root[v.index()] = true;
    }
    for (i, inst) in f.insts.iter().enumerate() {
        if !stat[i] || matches!(inst.op, Op::Const(_)) {
            root[i] = false;
        }
    }
    root
}

/// The expression of each static value in the params alone: the key under which hoisted
/// values are shared between functions. Long expressions, and operations only the grid
/// back end emits, get a key of their own.
fn canon_keys(f: &Function, stat: &[bool], hoist: &mut Hoist) -> Vec<String> {
    hoist.functions += 1;
    let n = f.insts.len();
    let plain = vec![false; n];
    let mut canon: Vec<String> = vec![String::new(); n];
    for (i, inst) in f.insts.iter().enumerate() {
        if !stat[i] {
            continue;
        }
        let opd = |w: ValueId| {
            let c: TokenStream = canon[w.index()].parse().unwrap_or_default();
            quote!((#c))
        };
        let e = match (&inst.op, inst.ty) {
            (Op::Load(Source::Param, k), _) => {
                let k = usize_lit(*k as usize);
                Ok(quote!(p[#k]))
            }
            (op, Ty::Scalar) => scalar_expr(f, op, &opd, &plain),
            (op, Ty::Array(len)) => array_expr(f, op, len, &opd, &plain),
        };
        let text = e.map(|e| e.to_string()).unwrap_or_default();
        // Long expressions are not worth comparing (and could grow with sharing).
        canon[i] = if text.is_empty() || text.len() > 4096 {
            format!("unique{}_{i}", hoist.functions)
        } else {
            text
        };
    }
    canon
}

/// Emits the code computing the hoisted values of `f` into `k` and returns each root's
/// slot (`stat` and `root` as [`static_values`] and [`roots`] find them). A value another
/// function already hoisted (same expression of the params) is read from its slot. Arrays
/// up to `stack_max` long are locals of `bind`; a longer root goes straight to `k`, a
/// longer intermediate to `bind`'s scratch `b` ([`Hoist::scratch`]).
pub(crate) fn hoist_block(
    f: &Function,
    stat: &[bool],
    root: &[bool],
    hoist: &mut Hoist,
    stack_max: usize,
) -> Result<Vec<Option<usize>>, GenError> {
    let n = f.insts.len();
    let canon = canon_keys(f, stat, hoist);
    let mut slots = vec![None; n];
    let mut hit = vec![false; n];
    for i in 0..n {
        if root[i]
            && let Some(slot) = hoist.memo.get(&canon[i])
        {
            slots[i] = Some(*slot);
            hit[i] = true;
        }
    }
    let fresh: Vec<bool> = (0..n).map(|i| root[i] && !hit[i]).collect();
    let mut need = fresh.clone();
    for i in (0..n).rev() {
        if need[i] && !hit[i] {
            f.insts[i].op.for_each_operand(|v| need[v.index()] = true);
        }
    }
    let mut places = vec![Place::Missing; n];
    let mut top = 0usize;
    for (i, inst) in f.insts.iter().enumerate() {
        if !need[i] || !stat[i] {
            continue;
        }
        places[i] = match (&inst.op, slots[i]) {
            (_, Some(s)) if inst.ty == Ty::Scalar => Place::KScalar(s),
            (_, Some(s)) => Place::Buf(Buf::K, s),
            (Op::Const(bits), None) => Place::Const(f64::from_bits(*bits)),
            (Op::Load(Source::Param, k), None) => Place::Input(Source::Param, *k),
            (Op::LoadRange(Source::Param, off, _), None) => Place::View(Source::Param, *off),
            (_, None) => match inst.ty {
                Ty::Array(len) if len as usize > stack_max && fresh[i] => {
                    let s = hoist.len;
                    hoist.len += len as usize;
                    Place::Buf(Buf::K, s)
                }
                Ty::Array(len) if len as usize > stack_max => {
                    top += len as usize;
                    Place::Buf(Buf::B, top - len as usize)
                }
                _ => Place::Local,
            },
        };
    }
    hoist.scratch = hoist.scratch.max(top);
    // Folding in the interpreter applies the plain operations (no exponent rule).
    let plain = vec![false; n];
    let em = Emitter {
        f,
        places,
        stat: &plain,
    };
    let mut stmts = Vec::new();
    for i in 0..n {
        if need[i] && stat[i] && !hit[i] {
            stmts.push(em.stmt(i)?);
        }
    }
    for i in 0..n {
        if !fresh[i] {
            continue;
        }
        let slot = match em.places[i] {
            Place::Buf(Buf::K, s) => s,
            _ => {
                let s = hoist.len;
                let len = f.insts[i].ty.len();
                hoist.len += len;
                if f.insts[i].ty == Ty::Scalar {
                    let (sl, e) = (usize_lit(s), em.elem_at(i, &Idx::Lit(0))?);
                    stmts.push(quote!(k[#sl] = #e;));
                } else {
                    let (a, z, src) = (usize_lit(s), usize_lit(s + len), em.slice_at(i)?);
                    stmts.push(quote!(k[#a..#z].copy_from_slice(#src);));
                }
                s
            }
        };
        hoist.memo.insert(canon[i].clone(), slot);
        slots[i] = Some(slot);
    }
    if !stmts.is_empty() {
        hoist.blocks.push(quote!({ #(#stmts)* }));
    }
    Ok(slots)
}
