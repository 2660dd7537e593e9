//! How the state vector is cut into parts, and the model's dynamics over those parts.
//!
//! A small model is unrolled: each state slot is a scalar part. A field on a grid is one
//! array part, so every function over it stays a handful of whole-array operations.

use crate::builder::Builder;
use crate::error::IrError;
use crate::ir::{Function, Source, Ty, ValueId};

/// A run of state slots handled as one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// First slot.
    pub offset: u32,
    /// Number of slots.
    pub len: u32,
    /// True: one array value; false: a scalar (then `len` is 1).
    pub array: bool,
}

impl Part {
    /// The type of the part's value.
    pub fn ty(self) -> Ty {
        if self.array {
            Ty::Array(self.len)
        } else {
            Ty::Scalar
        }
    }
}

/// The state vector as consecutive parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Parts in slot order, covering `0..dim` without gaps.
    pub parts: Vec<Part>,
}

impl Layout {
    /// `dim` scalar parts: the unrolled layout of a small model.
    pub fn scalars(dim: u32) -> Self {
        Layout {
            parts: (0..dim)
                .map(|i| Part {
                    offset: i,
                    len: 1,
                    array: false,
                })
                .collect(),
        }
    }

    /// Builds a layout from part sizes: `(len, array)` in slot order.
    pub fn from_sizes(sizes: &[(u32, bool)]) -> Result<Self, IrError> {
        let mut parts = Vec::with_capacity(sizes.len());
        let mut offset = 0u32;
        for &(len, array) in sizes {
            if len == 0 || (!array && len != 1) {
                return Err(IrError::Layout {
                    problem: format!(
                        "a part of {len} slots that is {}an array",
                        if array { "" } else { "not " }
                    ),
                });
            }
            parts.push(Part { offset, len, array });
            offset += len;
        }
        Ok(Layout { parts })
    }

    /// Number of slots.
    pub fn dim(&self) -> usize {
        self.parts.iter().map(|p| p.len as usize).sum()
    }

    /// Part and position within it of a slot.
    pub fn locate(&self, slot: u32) -> Option<(usize, u32)> {
        let p = self.parts.partition_point(|p| p.offset + p.len <= slot);
        let part = self.parts.get(p)?;
        (slot >= part.offset).then_some((p, slot - part.offset))
    }

    /// Loads every part from an input.
    pub fn load(&self, b: &mut Builder, src: Source) -> Vec<ValueId> {
        self.parts
            .iter()
            .map(|p| {
                if p.array {
                    b.load_range(src, p.offset, p.len)
                } else {
                    b.load(src, p.offset)
                }
            })
            .collect()
    }

    /// Checks that `vs` has one value per part, of the part's type.
    pub fn check(&self, b: &Builder, vs: &[ValueId], what: &str) -> Result<(), IrError> {
        if vs.len() != self.parts.len() {
            return Err(IrError::Layout {
                problem: format!(
                    "{what} has {} values for {} parts",
                    vs.len(),
                    self.parts.len()
                ),
            });
        }
        for (p, v) in self.parts.iter().zip(vs) {
            let ty = b.ty(*v)?;
            if ty != p.ty() {
                return Err(IrError::Layout {
                    problem: format!(
                        "{what}: part at slot {} is {:?}, got {ty:?}",
                        p.offset,
                        p.ty()
                    ),
                });
            }
        }
        Ok(())
    }

    /// The value of slot `slot` read from per-part values `vs` (an element of an array part).
    pub fn slot_value(
        &self,
        b: &mut Builder,
        vs: &[ValueId],
        slot: u32,
    ) -> Result<ValueId, IrError> {
        let (p, k) = self.locate(slot).ok_or(IrError::Layout {
            problem: format!("slot {slot} is past the state"),
        })?;
        let v = *vs.get(p).ok_or(IrError::Layout {
            problem: format!("no value for part {p}"),
        })?;
        if self.parts[p].array {
            b.index(v, k)
        } else {
            Ok(v)
        }
    }

    /// Slots `offset..offset+len` read from per-part values, as one array.
    pub fn range_value(
        &self,
        b: &mut Builder,
        vs: &[ValueId],
        offset: u32,
        len: u32,
    ) -> Result<ValueId, IrError> {
        if let Some((p, 0)) = self.locate(offset) {
            let part = self.parts[p];
            if part.array && part.len == len {
                return Ok(vs[p]);
            }
        }
        let items = (offset..offset + len)
            .map(|s| self.slot_value(b, vs, s))
            .collect::<Result<Vec<_>, _>>()?;
        b.pack(items)
    }
}

/// The model's motion: the rate over the layout, which parts are positions and
/// velocities of second-order laws, and how many noises the laws read.
#[derive(Clone, Debug, PartialEq)]
pub struct Dynamics {
    /// How the state is cut.
    pub layout: Layout,
    /// `dy/dt` per part. Reads `t`, the state, params and, when the laws have noise, the
    /// white-noise values `w` (linearly).
    pub rate: Function,
    /// `(position part, velocity part)` of every second-order law; empty for first order.
    pub pairs: Vec<(usize, usize)>,
    /// Number of white noises.
    pub noises: u32,
}

impl Dynamics {
    /// First-order dynamics without noise.
    pub fn first_order(layout: Layout, rate: Function) -> Result<Self, IrError> {
        Self::new(layout, rate, Vec::new(), 0)
    }

    /// Checks the pieces against each other.
    pub fn new(
        layout: Layout,
        rate: Function,
        pairs: Vec<(usize, usize)>,
        noises: u32,
    ) -> Result<Self, IrError> {
        if rate.outputs.len() != layout.parts.len() {
            return Err(IrError::Layout {
                problem: format!(
                    "the rate has {} outputs for {} parts",
                    rate.outputs.len(),
                    layout.parts.len()
                ),
            });
        }
        for (p, v) in layout.parts.iter().zip(&rate.outputs) {
            if rate.ty(*v) != p.ty() {
                return Err(IrError::Layout {
                    problem: format!(
                        "the rate of the part at slot {} is {:?}, not {:?}",
                        p.offset,
                        rate.ty(*v),
                        p.ty()
                    ),
                });
            }
        }
        for src in [
            Source::H,
            Source::F0,
            Source::Guess,
            Source::Dw,
            Source::Rate,
            Source::Seed,
        ] {
            if rate.reads(src) {
                return Err(IrError::ForbiddenInput {
                    function: rate.name.clone(),
                    input: src,
                });
            }
        }
        if rate.input_extent(Source::State) > layout.dim() {
            return Err(IrError::Layout {
                problem: "the rate reads past the state".into(),
            });
        }
        if rate.input_extent(Source::Noise) > noises as usize {
            return Err(IrError::Layout {
                problem: "the rate reads a noise that is not declared".into(),
            });
        }
        for &(x, v) in &pairs {
            match (layout.parts.get(x), layout.parts.get(v)) {
                (Some(a), Some(b)) if a.ty() == b.ty() && x != v => {}
                _ => {
                    return Err(IrError::Layout {
                        problem: format!("parts {x} and {v} are not a position and its velocity"),
                    });
                }
            }
        }
        Ok(Dynamics {
            layout,
            rate,
            pairs,
            noises,
        })
    }

    /// Number of state slots.
    pub fn dim(&self) -> usize {
        self.layout.dim()
    }
}
