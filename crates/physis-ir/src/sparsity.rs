//! Which inputs each output of a function reads: the sparsity pattern of its Jacobian,
//! found by walking the IR once with a set of input slots per element. Elementwise
//! operations keep element `k` on element `k`, a stencil reads its neighbours (and the
//! boundary value at the edges), a reduction reads everything. A field's implicit
//! Jacobian is then a handful of diagonals, filled by one Jacobian-vector product per
//! column colour ([`physis_runtime::SparseMatrix::fill_by_colours`]).

use std::sync::Arc;

use physis_runtime::SparsePattern;

use crate::error::IrError;
use crate::ir::{Bc, Function, Grid, Op, Source, StencilOp, Ty, ValueId};

/// Input slots a value reads: nothing, the same set for every element (a scalar, or a
/// broadcast), or one set per element.
#[derive(Clone, Debug)]
enum Deps {
    None,
    Uniform(Vec<u32>),
    Each(Vec<Vec<u32>>),
}

impl Deps {
    fn element(&self, k: usize) -> &[u32] {
        match self {
            Deps::None => &[],
            Deps::Uniform(d) => d,
            Deps::Each(ds) => ds.get(k).map_or(&[], Vec::as_slice),
        }
    }

    fn all(&self) -> Vec<u32> {
        match self {
            Deps::None => Vec::new(),
            Deps::Uniform(d) => d.clone(),
            Deps::Each(ds) => merge(ds.iter().map(Vec::as_slice)),
        }
    }
}

fn merge<'a>(sets: impl Iterator<Item = &'a [u32]>) -> Vec<u32> {
    let mut out: Vec<u32> = sets.flatten().copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Per output slot (the function's outputs flattened), the slots of `wrt` it reads.
pub fn output_deps(f: &Function, wrt: Source) -> Result<Vec<Vec<u32>>, IrError> {
    let mut deps: Vec<Deps> = Vec::with_capacity(f.insts.len());
    for inst in &f.insts {
        let d = |v: ValueId| -> &Deps { deps.get(v.index()).unwrap_or(&Deps::None) };
        let len = inst.ty.len();
        let elementwise = |ops: &[ValueId]| -> Deps {
            let ds: Vec<&Deps> = ops.iter().map(|v| d(*v)).collect();
            if ds.iter().all(|x| matches!(x, Deps::None)) {
                return Deps::None;
            }
            if ds.iter().all(|x| !matches!(x, Deps::Each(_))) {
                return Deps::Uniform(merge(ds.iter().map(|x| x.element(0))));
            }
            Deps::Each(
                (0..len)
                    .map(|k| merge(ds.iter().map(|x| x.element(k))))
                    .collect(),
            )
        };
        let out = match &inst.op {
            Op::Const(_) => Deps::None,
            Op::Load(s, k) if *s == wrt => Deps::Uniform(vec![*k]),
            Op::LoadRange(s, o, n) if *s == wrt => {
                Deps::Each((*o..o + n).map(|k| vec![k]).collect())
            }
            Op::Load(..) | Op::LoadRange(..) => Deps::None,
            Op::Unary(_, a) | Op::Powi(a, _) | Op::Splat(a, _) => elementwise(&[*a]),
            Op::Binary(_, a, b) => elementwise(&[*a, *b]),
            Op::Select(c, a, b) => elementwise(&[*c, *a, *b]),
            Op::Pack(vs) => {
                if vs.iter().all(|v| matches!(d(*v), Deps::None)) {
                    Deps::None
                } else {
                    Deps::Each(vs.iter().map(|v| d(*v).element(0).to_vec()).collect())
                }
            }
            Op::Index(a, k) => match d(*a) {
                Deps::None => Deps::None,
                x => Deps::Uniform(x.element(*k as usize).to_vec()),
            },
            Op::Gather(a, ks) => match d(*a) {
                Deps::None => Deps::None,
                Deps::Uniform(x) => Deps::Uniform(x.clone()),
                x => Deps::Each(ks.iter().map(|k| x.element(*k as usize).to_vec()).collect()),
            },
            Op::Reduce(_, a) => match d(*a) {
                Deps::None => Deps::None,
                x => Deps::Uniform(x.all()),
            },
            // Every component of a dense solve reads all of both operands.
            Op::PickMaxAbs(a, b) | Op::Solve(a, b) => {
                let all = merge([d(*a).all(), d(*b).all()].iter().map(Vec::as_slice));
                if all.is_empty() {
                    Deps::None
                } else {
                    Deps::Uniform(all)
                }
            }
            Op::Stencil(s) => {
                let u = d(s.u);
                let bcd = match s.bc {
                    Bc::Dirichlet(v) | Bc::Neumann(v) => d(v).all(),
                    Bc::Periodic => Vec::new(),
                };
                let sp = merge(
                    [d(s.spacing[0]).all(), d(s.spacing[1]).all()]
                        .iter()
                        .map(Vec::as_slice),
                );
                if matches!(u, Deps::None) && bcd.is_empty() && sp.is_empty() {
                    Deps::None
                } else {
                    let mut nb = Vec::with_capacity(5);
                    Deps::Each(
                        (0..s.grid.len())
                            .map(|k| {
                                let ghost = neighbours(s.op, s.grid, s.bc, k, &mut nb);
                                let mut set: Vec<u32> = nb
                                    .iter()
                                    .flat_map(|j| u.element(*j).iter().copied())
                                    .collect();
                                if ghost {
                                    set.extend(&bcd);
                                }
                                set.extend(&sp);
                                set.sort_unstable();
                                set.dedup();
                                set
                            })
                            .collect(),
                    )
                }
            }
        };
        deps.push(out);
    }
    let mut rows = Vec::with_capacity(f.output_len());
    for v in &f.outputs {
        let d = deps.get(v.index()).ok_or(IrError::UnknownValue(v.0))?;
        match f.ty(*v) {
            Ty::Scalar => rows.push(d.element(0).to_vec()),
            Ty::Array(n) => rows.extend((0..n as usize).map(|k| d.element(k).to_vec())),
        }
    }
    Ok(rows)
}

/// Nodes a stencil reads at node `k` into `out` (a Neumann ghost reads the mirror node);
/// true when it also reads the boundary value (a Dirichlet ghost or a Neumann gradient).
fn neighbours(op: StencilOp, grid: Grid, bc: Bc, k: usize, out: &mut Vec<usize>) -> bool {
    out.clear();
    out.push(k);
    let (nx, ny) = (grid.nx as usize, (grid.ny as usize).max(1));
    let (r, c) = (k / ny, k % ny);
    let mut ghost = false;
    let mut side = |axis: u8, step: isize, out: &mut Vec<usize>| {
        let (n, i) = if axis == 0 { (nx, r) } else { (ny, c) };
        let j = i as isize + step;
        let j = if j >= 0 && (j as usize) < n {
            j as usize
        } else {
            match bc {
                Bc::Periodic => (j.rem_euclid(n as isize)) as usize,
                _ => {
                    // The ghost mirrors the node on the other side of the edge.
                    ghost = true;
                    (i as isize - step).clamp(0, n as isize - 1) as usize
                }
            }
        };
        out.push(if axis == 0 { j * ny + c } else { r * ny + j });
    };
    match op {
        StencilOp::Central(a) => {
            side(a, -1, out);
            side(a, 1, out);
        }
        StencilOp::Backward(a) => side(a, -1, out),
        StencilOp::Forward(a) => side(a, 1, out),
        StencilOp::Laplacian => {
            for a in 0..grid.axes() {
                side(a, -1, out);
                side(a, 1, out);
            }
        }
    }
    ghost
}

/// The pattern of `∂f/∂wrt` for a function whose outputs fill `n` slots, or `None` when
/// it is not worth storing sparsely (more than a quarter of the entries).
pub fn jacobian_pattern(
    f: &Function,
    wrt: Source,
    n: usize,
) -> Result<Option<Arc<SparsePattern>>, IrError> {
    let rows = output_deps(f, wrt)?;
    if rows.len() != n {
        return Err(IrError::Layout {
            problem: format!("{} outputs for a Jacobian of order {n}", rows.len()),
        });
    }
    let nnz: usize = rows.iter().map(|r| r.len() + 1).sum();
    if nnz.saturating_mul(4) > n.saturating_mul(n) {
        return Ok(None);
    }
    let p = SparsePattern::from_rows(
        n,
        rows.into_iter().map(|r| r.into_iter().map(|j| j as usize)),
    )
    .map_err(|e| IrError::Layout {
        problem: e.to_string(),
    })?;
    Ok(Some(Arc::new(p)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Builder;
    use crate::ir::Stencil;

    fn heat(grid: Grid, bc: Bc) -> Function {
        let mut b = Builder::new();
        let n = grid.len() as u32;
        let u = b.load_range(Source::Guess, 0, n);
        let h = b.constant(0.1);
        let bc = match bc {
            Bc::Dirichlet(_) => Bc::Dirichlet(b.constant(0.0)),
            Bc::Neumann(_) => Bc::Neumann(b.constant(0.0)),
            other => other,
        };
        let l = b
            .stencil(Stencil {
                op: StencilOp::Laplacian,
                grid,
                u,
                spacing: [h, h],
                bc,
            })
            .unwrap();
        let y = b.load_range(Source::State, 0, n);
        let r = b.sub(u, y).unwrap();
        let r = b.sub(r, l).unwrap();
        b.finish("residual", &[r]).unwrap()
    }

    #[test]
    fn a_line_is_tridiagonal_with_three_colours() {
        let z = ValueId(0);
        let f = heat(Grid::line(100), Bc::Neumann(z));
        let p = jacobian_pattern(&f, Source::Guess, 100).unwrap().unwrap();
        assert!(p.is_tridiagonal());
        assert_eq!(p.nnz(), 298);
        assert_eq!(p.colours(), 3);
        let f = heat(Grid::line(100), Bc::Periodic);
        let p = jacobian_pattern(&f, Source::Guess, 100).unwrap().unwrap();
        assert_eq!(p.nnz(), 300);
        assert!(p.row(0).contains(&99));
    }

    #[test]
    fn a_plane_has_five_diagonals() {
        let f = heat(Grid::plane(20, 30), Bc::Dirichlet(ValueId(0)));
        let p = jacobian_pattern(&f, Source::Guess, 600).unwrap().unwrap();
        assert_eq!(p.nnz(), 5 * 600 - 2 * 20 - 2 * 30);
        assert_eq!(p.row(31), &[1, 30, 31, 32, 61]);
    }

    #[test]
    fn a_reduction_makes_it_dense() {
        let mut b = Builder::new();
        let u = b.load_range(Source::Guess, 0, 8);
        let s = b.reduce(crate::ir::ReduceOp::Sum, u).unwrap();
        let r = b.mul(u, s).unwrap();
        let f = b.finish("r", &[r]).unwrap();
        assert!(jacobian_pattern(&f, Source::Guess, 8).unwrap().is_none());
        assert_eq!(
            output_deps(&f, Source::Guess).unwrap()[3],
            (0..8).collect::<Vec<_>>()
        );
    }
}
