//! A contiguous share of an ensemble's members, run apart from the rest (on another thread,
//! process or machine) and gathered later: [`EnsemblePart`], with a compact byte form so a
//! part can travel between processes.
//!
//! The byte form keeps every `f64` as its bit pattern, so a part decoded elsewhere gathers
//! to the same result, bit for bit, as one that never left its process.

use crate::reason::{Cause, Reason, ReasonKind};
use crate::sample::{RunEnd, Stats};
use crate::sweep::ParamSet;

use super::grid::MemberOut;
use super::{EnsembleError, MemberResult};

/// First bytes of an encoded part (format version 2: the stats gained
/// `newton_rejections`, after `rejections`).
const MAGIC: &[u8; 6] = b"PHEP2\n";

/// Members `start..start + len` of an ensemble, each with its end and its observes on the
/// shared sample grid. Made by [`crate::Ensemble::run_members`], consumed by
/// [`crate::Ensemble::gather`].
#[derive(Debug)]
pub struct EnsemblePart {
    pub(crate) start: usize,
    pub(crate) members: Vec<MemberOut>,
}

/// One member of a part as callers see it.
#[derive(Debug, Clone, Copy)]
pub struct PartMember<'a> {
    /// Its outcome.
    pub result: &'a MemberResult,
    /// Grid indices it reached, ascending (empty without a shared grid).
    pub ks: &'a [u64],
    /// Its observes at those indices, `ks.len() × observes` row-major.
    pub rows: &'a [f64],
}

impl EnsemblePart {
    /// Index of the first member.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Members held.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// True when the part holds no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The members in index order.
    pub fn members(&self) -> impl Iterator<Item = PartMember<'_>> {
        self.members.iter().map(|m| PartMember {
            result: &m.result,
            ks: &m.ks,
            rows: &m.rows,
        })
    }

    /// The part as bytes (see [`EnsemblePart::decode`]).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(64 + self.members.len() * 128);
        w.extend_from_slice(MAGIC);
        put_u64(&mut w, self.start as u64);
        put_u64(&mut w, self.members.len() as u64);
        for m in &self.members {
            let r = &m.result;
            put_u64(&mut w, r.index as u64);
            put_u64(&mut w, r.params.0.len() as u64);
            for (name, v) in &r.params.0 {
                put_str(&mut w, name);
                put_f64(&mut w, *v);
            }
            put_reason(&mut w, &r.end.reason);
            put_f64(&mut w, r.end.t);
            put_f64s(&mut w, &r.end.state);
            put_f64s(&mut w, &r.end.observe);
            let s = &r.end.stats;
            for n in [
                s.steps,
                s.rejections,
                s.newton_rejections,
                s.evaluations,
                s.events,
                s.jacobians,
                s.factorisations,
                s.samples,
            ] {
                put_u64(&mut w, n);
            }
            put_u64(&mut w, m.ks.len() as u64);
            for &k in &m.ks {
                put_u64(&mut w, k);
            }
            put_f64s(&mut w, &m.rows);
            w.push(u8::from(m.on_grid));
        }
        w
    }

    /// Reads a part written by [`EnsemblePart::encode`]; anything else is
    /// [`EnsembleError::BadPart`], never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Self, EnsembleError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(bad("not an encoded ensemble part (wrong header)"));
        }
        let start = r.usize()?;
        let n = r.len(8)?;
        let mut members = Vec::with_capacity(n);
        for _ in 0..n {
            let index = r.usize()?;
            let np = r.len(9)?;
            let mut params = Vec::with_capacity(np);
            for _ in 0..np {
                let name = r.string()?;
                params.push((name, r.f64()?));
            }
            let reason = r.reason()?;
            let t = r.f64()?;
            let state = r.f64s()?;
            let observe = r.f64s()?;
            let stats = Stats {
                steps: r.u64()?,
                rejections: r.u64()?,
                newton_rejections: r.u64()?,
                evaluations: r.u64()?,
                events: r.u64()?,
                jacobians: r.u64()?,
                factorisations: r.u64()?,
                samples: r.u64()?,
            };
            let nk = r.len(8)?;
            let mut ks = Vec::with_capacity(nk);
            for _ in 0..nk {
                ks.push(r.u64()?);
            }
            let rows = r.f64s()?;
            let on_grid = match r.u8()? {
                0 => false,
                1 => true,
                b => return Err(bad(&format!("grid flag {b} is neither 0 nor 1"))),
            };
            members.push(MemberOut {
                result: MemberResult {
                    index,
                    params: ParamSet(params),
                    end: RunEnd {
                        reason,
                        t,
                        state,
                        observe,
                        stats,
                    },
                },
                ks,
                rows,
                on_grid,
            });
        }
        if r.at != bytes.len() {
            return Err(bad("trailing bytes after the last member"));
        }
        Ok(Self { start, members })
    }
}

fn bad(problem: &str) -> EnsembleError {
    EnsembleError::BadPart {
        problem: problem.to_owned(),
    }
}

fn put_u64(w: &mut Vec<u8>, v: u64) {
    w.extend_from_slice(&v.to_le_bytes());
}

fn put_f64(w: &mut Vec<u8>, v: f64) {
    w.extend_from_slice(&v.to_bits().to_le_bytes());
}

fn put_f64s(w: &mut Vec<u8>, vs: &[f64]) {
    put_u64(w, vs.len() as u64);
    for &v in vs {
        put_f64(w, v);
    }
}

fn put_str(w: &mut Vec<u8>, s: &str) {
    put_u64(w, s.len() as u64);
    w.extend_from_slice(s.as_bytes());
}

fn put_reason(w: &mut Vec<u8>, r: &Reason) {
    w.push(match r.kind {
        ReasonKind::When => 0,
        ReasonKind::Limit => 1,
        ReasonKind::Diverged => 2,
        ReasonKind::Unstable => 3,
        ReasonKind::Violated => 4,
    });
    match &r.clause {
        Some(c) => {
            w.push(1);
            put_str(w, c);
        }
        None => w.push(0),
    }
    match r.line {
        Some(l) => {
            w.push(1);
            w.extend_from_slice(&l.to_le_bytes());
        }
        None => w.push(0),
    }
    match r.cause {
        Cause::Stop { index } => {
            w.push(0);
            put_u64(w, index as u64);
        }
        Cause::StepLimit { limit } => {
            w.push(1);
            put_u64(w, limit);
        }
        Cause::NonFinite => w.push(2),
        Cause::StepTooSmall { h } => {
            w.push(3);
            put_f64(w, h);
        }
        Cause::NewtonFailed => w.push(4),
        Cause::Zeno { index } => {
            w.push(5);
            put_u64(w, index as u64);
        }
        Cause::Stability { rho, h, radius } => {
            w.push(6);
            put_f64(w, rho);
            put_f64(w, h);
            put_f64(w, radius);
        }
        Cause::Conserve { index, drift } => {
            w.push(7);
            put_u64(w, index as u64);
            put_f64(w, drift);
        }
    }
}

/// Bounds-checked reading of an encoded part.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], EnsembleError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| bad("truncated"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, EnsembleError> {
        Ok(self.take(1)?[0])
    }

    fn u64(&mut self) -> Result<u64, EnsembleError> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }

    fn usize(&mut self) -> Result<usize, EnsembleError> {
        usize::try_from(self.u64()?).map_err(|_| bad("an index beyond this machine's range"))
    }

    /// A count of items at least `each` bytes long, checked against the bytes left so a
    /// corrupt count cannot ask for a huge allocation.
    fn len(&mut self, each: usize) -> Result<usize, EnsembleError> {
        let n = self.usize()?;
        let left = self.bytes.len() - self.at;
        if n.saturating_mul(each) > left {
            return Err(bad("a count larger than the bytes that follow"));
        }
        Ok(n)
    }

    fn f64(&mut self) -> Result<f64, EnsembleError> {
        Ok(f64::from_bits(self.u64()?))
    }

    fn f64s(&mut self) -> Result<Vec<f64>, EnsembleError> {
        let n = self.len(8)?;
        (0..n).map(|_| self.f64()).collect()
    }

    fn string(&mut self) -> Result<String, EnsembleError> {
        let n = self.len(1)?;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| bad("a name that is not UTF-8"))
    }

    fn reason(&mut self) -> Result<Reason, EnsembleError> {
        let kind = match self.u8()? {
            0 => ReasonKind::When,
            1 => ReasonKind::Limit,
            2 => ReasonKind::Diverged,
            3 => ReasonKind::Unstable,
            4 => ReasonKind::Violated,
            k => return Err(bad(&format!("unknown reason kind {k}"))),
        };
        let clause = match self.u8()? {
            0 => None,
            _ => Some(self.string()?),
        };
        let line = match self.u8()? {
            0 => None,
            _ => {
                let mut b = [0u8; 4];
                b.copy_from_slice(self.take(4)?);
                Some(u32::from_le_bytes(b))
            }
        };
        let cause = match self.u8()? {
            0 => Cause::Stop {
                index: self.usize()?,
            },
            1 => Cause::StepLimit { limit: self.u64()? },
            2 => Cause::NonFinite,
            3 => Cause::StepTooSmall { h: self.f64()? },
            4 => Cause::NewtonFailed,
            5 => Cause::Zeno {
                index: self.usize()?,
            },
            6 => Cause::Stability {
                rho: self.f64()?,
                h: self.f64()?,
                radius: self.f64()?,
            },
            7 => Cause::Conserve {
                index: self.usize()?,
                drift: self.f64()?,
            },
            c => return Err(bad(&format!("unknown cause {c}"))),
        };
        Ok(Reason {
            kind,
            clause,
            line,
            cause,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_typed_error_never_a_panic() {
        for bytes in [
            &b""[..],
            b"PHEP2\n",
            // A version-1 part (before `newton_rejections`) is refused, not misread.
            b"PHEP1\n\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00",
            b"nonsense",
            b"PHEP2\n\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\x7f",
        ] {
            assert!(matches!(
                EnsemblePart::decode(bytes),
                Err(EnsembleError::BadPart { .. })
            ));
        }
    }
}
