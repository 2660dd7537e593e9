//! Function bodies for models with fields on grids. As in [`crate::func`], one statement
//! per instruction with the interpreter's formulas, but an array longer than [`STACK_MAX`]
//! never goes on the stack: a dynamic one lives in the work buffer `b` (allocated once per
//! run, registers reused once a value is dead), one that depends on params only lives in
//! the hoisted values `k` (computed once per run by `bind`), and an input range is read in
//! place. Every function writes its outputs into `out` instead of returning them.
//! Stencils, reductions and solves call the runtime's kernels, as the interpreter does.

use physis_ir::{Function, Op, Ty};
use proc_macro2::TokenStream;
use quote::quote;

use crate::error::GenError;
use crate::func::Inputs;
use crate::grid_emit::{Buf, Emitter, Idx, Place};
use crate::hoist::{Hoist, hoist_block, roots, static_values};
use crate::names::usize_lit;

/// Arrays up to this length stay on the stack.
pub const STACK_MAX: usize = 64;

/// `ks` as runs `(first destination, first source, source step, count)`.
pub(crate) fn runs(ks: &[u32]) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut j = 0;
    while j < ks.len() {
        let s = ks[j] as usize;
        let mut count = 1;
        let mut step = 0;
        if let Some(&next) = ks.get(j + 1)
            && next >= ks[j]
        {
            step = (next - ks[j]) as usize;
            count = 2;
            while let Some(&x) = ks.get(j + count)
                && x as usize == s + count * step
            {
                count += 1;
            }
        }
        out.push((j, s, step, count));
        j += count;
    }
    out
}

/// The body of a generated function: statements writing its outputs into `out`. Work
/// registers come from `b`; `regs` grows to the most this function needs.
pub fn body(
    f: &Function,
    inputs: Inputs,
    hoist: &mut Hoist,
    regs: &mut usize,
) -> Result<TokenStream, GenError> {
    let n = f.insts.len();
    let stat = static_values(f);
    let root = roots(f, &stat);
    let slots = hoist_block(f, &stat, &root, hoist, STACK_MAX)?;
    let mut last = vec![0usize; n];
    for (i, inst) in f.insts.iter().enumerate() {
        inst.op.for_each_operand(|v| last[v.index()] = i);
    }
    for v in &f.outputs {
        last[v.index()] = usize::MAX;
    }
    let mut places = vec![Place::Missing; n];
    let mut free: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    let mut top = 0usize;
    for (i, inst) in f.insts.iter().enumerate() {
        places[i] = match (&inst.op, slots[i]) {
            (_, Some(s)) if inst.ty == Ty::Scalar => Place::KScalar(s),
            (_, Some(s)) => Place::Buf(Buf::K, s),
            (Op::Const(bits), None) => Place::Const(f64::from_bits(*bits)),
            (_, None) if stat[i] => Place::Missing,
            (Op::Load(src, _) | Op::LoadRange(src, _, _), None) if !inputs.has(*src) => {
                return Err(GenError::Input {
                    function: f.name.clone(),
                    input: format!("{src:?}"),
                });
            }
            (Op::Load(src, k), None) => Place::Input(*src, *k),
            (Op::LoadRange(src, off, _), None) => Place::View(*src, *off),
            (_, None) => match inst.ty {
                Ty::Array(len) if len as usize > STACK_MAX => {
                    let len = len as usize;
                    let r = match free.get_mut(&len).and_then(Vec::pop) {
                        Some(r) => r,
                        None => {
                            top += len;
                            top - len
                        }
                    };
                    Place::Buf(Buf::B, r)
                }
                _ => Place::Local,
            },
        };
        // Registers of operands dead after this instruction are reused from the next one.
        let mut dead = Vec::new();
        inst.op.for_each_operand(|v| {
            if last[v.index()] == i && !dead.contains(&v.index()) {
                dead.push(v.index());
            }
        });
        if last[i] == 0 && !stat[i] {
            dead.push(i);
        }
        for d in dead {
            if let Place::Buf(Buf::B, r) = places[d] {
                free.entry(f.insts[d].ty.len()).or_default().push(r);
            }
        }
    }
    *regs = (*regs).max(top);
    let em = Emitter {
        f,
        places,
        stat: &stat,
    };
    let mut stmts = Vec::new();
    for (i, s) in stat.iter().enumerate() {
        if !s {
            stmts.push(em.stmt(i)?);
        }
    }
    let mut pos = 0;
    for v in &f.outputs {
        let len = f.ty(*v).len();
        let p = usize_lit(pos);
        match f.ty(*v) {
            Ty::Scalar => {
                let e = em.elem(*v, &Idx::Lit(0))?;
                stmts.push(quote!(out[#p] = #e;));
            }
            Ty::Array(_) => {
                let (s, z) = (em.slice(*v)?, usize_lit(pos + len));
                stmts.push(quote!(out[#p..#z].copy_from_slice(#s);));
            }
        }
        pos += len;
    }
    Ok(quote!(#(#stmts)*))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_indices_become_runs() {
        assert_eq!(runs(&[]), vec![]);
        assert_eq!(runs(&[4]), vec![(0, 4, 0, 1)]);
        // A mask: zero, ones, zero.
        assert_eq!(
            runs(&[0, 1, 1, 1, 0]),
            vec![(0, 0, 1, 2), (2, 1, 0, 2), (4, 0, 0, 1)]
        );
        // Rows of a 3×3 grid's y coordinate, and a descending run.
        assert_eq!(
            runs(&[0, 1, 2, 0, 1, 2, 5, 3]),
            vec![(0, 0, 1, 3), (3, 0, 1, 3), (6, 5, 0, 1), (7, 3, 0, 1)]
        );
        let ks = [0, 1, 1, 1, 0];
        for (d, s, st, c) in runs(&ks) {
            for j in 0..c {
                assert_eq!(ks[d + j] as usize, s + j * st);
            }
        }
    }
}
