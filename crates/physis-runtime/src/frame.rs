//! Samples as Arrow record batches (feature `arrow`): the common currency of Parquet
//! writers and data-frame libraries (pandas, Polars).
//!
//! Each [`Column`] becomes a non-nullable `Float64` field whose metadata carries the SI
//! unit under the key [`UNIT_KEY`] (`"m/s"`, `"1"` for a pure number), so a reader gets the
//! unit of every column without a side file.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema};

/// Metadata key of a field's SI unit.
pub const UNIT_KEY: &str = "unit";

/// One named column of `f64` values in an SI unit.
#[derive(Debug, Clone, Copy)]
pub struct Column<'a> {
    /// Column name (`t`, `height`).
    pub name: &'a str,
    /// SI unit text (`s`, `m/s`, `1`); empty for none.
    pub unit: &'a str,
    /// The values, one per row.
    pub values: &'a [f64],
}

/// Why columns could not be made into a record batch.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// Columns of one batch must have the same number of rows.
    #[error("column `{name}` has {len} rows, the first column has {expected}")]
    Length {
        /// The offending column.
        name: String,
        /// Its length.
        len: usize,
        /// The first column's length.
        expected: usize,
    },
    /// Two columns share a name (data-frame readers need unique names).
    #[error("two columns are named `{name}`")]
    Duplicate {
        /// The repeated name.
        name: String,
    },
    /// A batch needs at least one column.
    #[error("a record batch needs at least one column")]
    Empty,
    /// Arrow refused the batch.
    #[error("arrow: {source}")]
    Arrow {
        /// Arrow's error.
        #[from]
        source: ArrowError,
    },
}

/// The schema of `columns`: one non-nullable `Float64` field each, unit in its metadata.
pub fn schema(columns: &[Column<'_>]) -> Result<Schema, FrameError> {
    let mut seen = HashSet::new();
    let mut fields = Vec::with_capacity(columns.len());
    for c in columns {
        if !seen.insert(c.name) {
            return Err(FrameError::Duplicate {
                name: c.name.to_string(),
            });
        }
        let meta = HashMap::from([(UNIT_KEY.to_string(), c.unit.to_string())]);
        fields.push(Field::new(c.name, DataType::Float64, false).with_metadata(meta));
    }
    Ok(Schema::new(fields))
}

/// One record batch holding `columns` (values copied), each field carrying its unit under
/// [`UNIT_KEY`]. Every column must have the same length and a distinct name.
pub fn record_batch(columns: &[Column<'_>]) -> Result<RecordBatch, FrameError> {
    let first = columns.first().ok_or(FrameError::Empty)?;
    let expected = first.values.len();
    if let Some(c) = columns.iter().find(|c| c.values.len() != expected) {
        return Err(FrameError::Length {
            name: c.name.to_string(),
            len: c.values.len(),
            expected,
        });
    }
    let schema = Arc::new(schema(columns)?);
    let arrays: Vec<ArrayRef> = columns
        .iter()
        .map(|c| Arc::new(Float64Array::from(c.values.to_vec())) as ArrayRef)
        .collect();
    Ok(RecordBatch::try_new(schema, arrays)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;

    #[test]
    fn columns_keep_values_and_units() {
        let t = [0.0, 0.5, 1.0];
        let h = [0.0, f64::NAN, -1.0e-300];
        let batch = record_batch(&[
            Column {
                name: "t",
                unit: "s",
                values: &t,
            },
            Column {
                name: "height",
                unit: "m",
                values: &h,
            },
        ])
        .unwrap();
        assert_eq!(batch.num_rows(), 3);
        let schema = batch.schema();
        assert_eq!(schema.field(0).metadata().get(UNIT_KEY).unwrap(), "s");
        assert_eq!(schema.field(1).metadata().get(UNIT_KEY).unwrap(), "m");
        let col = batch
            .column(1)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        assert_eq!(col.null_count(), 0);
        for (a, b) in col.values().iter().zip(h) {
            assert_eq!(a.to_bits(), b.to_bits());
        }
    }

    #[test]
    fn mismatched_columns_are_refused() {
        let a = [1.0, 2.0];
        let b = [1.0];
        let err = record_batch(&[
            Column {
                name: "a",
                unit: "",
                values: &a,
            },
            Column {
                name: "b",
                unit: "",
                values: &b,
            },
        ])
        .unwrap_err();
        assert!(matches!(
            err,
            FrameError::Length {
                len: 1,
                expected: 2,
                ..
            }
        ));
        let err = record_batch(&[
            Column {
                name: "a",
                unit: "",
                values: &a,
            },
            Column {
                name: "a",
                unit: "",
                values: &a,
            },
        ])
        .unwrap_err();
        assert!(matches!(err, FrameError::Duplicate { .. }));
        assert!(matches!(record_batch(&[]), Err(FrameError::Empty)));
    }
}
