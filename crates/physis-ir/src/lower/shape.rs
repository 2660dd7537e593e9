//! Where each state sits in the state vector: its slots, and its parts of the layout. A
//! scalar or vector state is unrolled, one scalar part per slot, so small models become
//! straight-line code; a field on a grid is one array part, so the rate, the scheme and its
//! Jacobian are a few whole-array operations whatever the grid's size (see [`super::grid`]
//! for the conventions of nodes and boundaries). The one lowering in [`super`] reads the
//! shape of each state from here.

use physis_check::{CheckedModel, Shape};

use super::grid::{GridCx, to_field};
use super::{LowerError, invalid};
use crate::builder::Builder;
use crate::ir::ValueId;
use crate::layout::Layout;

/// Every state's place: first slot, slot count, first part and whether it is a field.
pub(super) struct States {
    /// First slot of each state.
    pub off: Vec<u32>,
    /// Number of slots of each state.
    pub size: Vec<usize>,
    /// First part of each state in the layout.
    pub part: Vec<usize>,
    /// Whether each state is a field (one array part over the grid's nodes).
    pub field: Vec<bool>,
    /// The parts, in slot order.
    pub layout: Layout,
    /// Number of slots.
    pub dim: u32,
}

impl States {
    /// The places of `m`'s states; a field needs the grid `g`.
    pub fn new(m: &CheckedModel, g: Option<&GridCx<'_>>) -> Result<Self, LowerError> {
        let n = m.states.len();
        let (mut off, mut size, mut part, mut field) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut parts: Vec<(u32, bool)> = Vec::new();
        let mut dim = 0u32;
        for s in &m.states {
            let (len, is_field) = match (s.shape, g) {
                (Shape::Scalar, _) => (1, false),
                (Shape::Vector(n), _) => (n, false),
                (Shape::Field, Some(g)) => (g.len(), true),
                (Shape::Field, None) => {
                    return Err(LowerError::NotYetSupported {
                        feature: "fields on grids",
                    });
                }
                _ => return Err(invalid("a state of unknown shape")),
            };
            off.push(dim);
            size.push(len);
            part.push(parts.len());
            field.push(is_field);
            if is_field {
                parts.push((len as u32, true));
            } else {
                parts.extend((0..len).map(|_| (1, false)));
            }
            dim += len as u32;
        }
        Ok(States {
            off,
            size,
            part,
            field,
            layout: Layout::from_sizes(&parts)?,
            dim,
        })
    }

    /// State `i`'s value in its parts: a field as one array (a scalar spread over the grid,
    /// the edge masked to zero rate when `mask` is given and the field is Dirichlet), other
    /// states as their components.
    pub fn shape(
        &self,
        b: &mut Builder,
        g: Option<&GridCx<'_>>,
        i: usize,
        comps: Vec<ValueId>,
        mask: Option<ValueId>,
    ) -> Result<Vec<ValueId>, LowerError> {
        let size = *self
            .size
            .get(i)
            .ok_or_else(|| invalid("a state that does not exist"))?;
        let g = match g {
            Some(g) if self.field.get(i) == Some(&true) => g,
            _ => {
                if comps.len() != size {
                    return Err(LowerError::Invalid {
                        problem: format!("a value of {} components for {size}", comps.len()),
                    });
                }
                return Ok(comps);
            }
        };
        let u = to_field(b, g, single(comps)?)?;
        if g.repeats(i) {
            // A periodic field on a grid with ends: its last nodes repeat its first.
            let d = g.distinct(b, u)?;
            return Ok(vec![g.repeat(b, d)?]);
        }
        Ok(vec![match (mask, g.dirichlet(i)) {
            (Some(inside), Some(_)) => {
                let z = b.constant(0.0);
                b.select(inside, u, z)?
            }
            _ => u,
        }])
    }
}

/// The one value of `v`.
pub(super) fn single(v: Vec<ValueId>) -> Result<ValueId, LowerError> {
    match v[..] {
        [x] => Ok(x),
        _ => Err(invalid("several values where one was expected")),
    }
}
