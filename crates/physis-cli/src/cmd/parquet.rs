//! `physis run --format parquet -o FILE`: samples as an Apache Parquet file, streamed in
//! row groups of [`ROW_GROUP`] rows so memory stays constant however long the run.
//!
//! Columns are `t` then each observe, `Float64`, non-nullable, in SI units; each field's
//! metadata carries `unit` (`m/s`) and `quantity` (`Velocity`), and the file's key-value
//! metadata names the simulation and how the run ended (`physis.reason`, `physis.t_end`).
//! pandas: `pd.read_parquet(path)`; Polars: `pl.read_parquet(path)`.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_schema::{Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use physis_runtime::frame::{Column, record_batch};
use physis_runtime::{ModelInfo, RunEnd, Sample, SampleSink};

use super::Failure;

/// Rows per row group (and per record batch held in memory).
pub const ROW_GROUP: usize = 65_536;

/// Metadata key of a field's quantity kind.
pub const QUANTITY_KEY: &str = "quantity";

/// A [`SampleSink`] writing Parquet into `W` (a file, or bytes for the studio's download):
/// buffers up to [`ROW_GROUP`] rows, then writes them as one row group.
pub struct ParquetSink<W: Write + Send = File> {
    writer: Option<ArrowWriter<W>>,
    file: Option<W>,
    names: Vec<String>,
    units: Vec<String>,
    schema: Option<SchemaRef>,
    columns: Vec<Vec<f64>>,
}

fn io(e: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(format!("parquet: {e}"))
}

impl ParquetSink<File> {
    /// A sink writing to `path`; Parquet is binary, so a path is required.
    pub fn create(path: Option<&Path>) -> Result<Self, Failure> {
        let path = path.ok_or_else(|| Failure {
            message: "error: --format parquet writes a binary file: give it a path with -o FILE"
                .into(),
            code: 2,
        })?;
        let file = File::create(path).map_err(|e| Failure {
            message: format!("error: cannot write {}: {e}", path.display()),
            code: 2,
        })?;
        Ok(Self::to_writer(file))
    }
}

impl<W: Write + Send> ParquetSink<W> {
    /// A sink writing into `out`; [`SampleSink::end`] closes the file, and
    /// [`ParquetSink::into_inner`] gives `out` back after it.
    pub fn to_writer(out: W) -> Self {
        Self {
            writer: None,
            file: Some(out),
            names: Vec::new(),
            units: Vec::new(),
            schema: None,
            columns: Vec::new(),
        }
    }

    /// The output, once [`SampleSink::end`] has closed the file.
    pub fn into_inner(self) -> Option<W> {
        self.file
    }

    /// Writes the buffered rows as one row group.
    fn flush_rows(&mut self) -> std::io::Result<()> {
        let (Some(writer), Some(schema)) = (self.writer.as_mut(), self.schema.as_ref()) else {
            return Ok(());
        };
        if self.columns.first().is_none_or(Vec::is_empty) {
            return Ok(());
        }
        let cols: Vec<Column<'_>> = self
            .names
            .iter()
            .zip(&self.units)
            .zip(&self.columns)
            .map(|((name, unit), values)| Column { name, unit, values })
            .collect();
        let batch = record_batch(&cols)
            .map_err(io)?
            .with_schema(schema.clone())
            .map_err(io)?;
        writer.write(&batch).map_err(io)?;
        writer.flush().map_err(io)?;
        self.columns.iter_mut().for_each(Vec::clear);
        Ok(())
    }
}

/// `t` then each observe, with unit and quantity metadata, and the simulation's name.
fn schema(info: &ModelInfo) -> Schema {
    let field = |name: &str, unit: &str, quantity: &str| {
        let meta = HashMap::from([
            (
                physis_runtime::frame::UNIT_KEY.to_string(),
                unit.to_string(),
            ),
            (QUANTITY_KEY.to_string(), quantity.to_string()),
        ]);
        Field::new(name, arrow_schema::DataType::Float64, false).with_metadata(meta)
    };
    let mut fields = vec![field("t", "s", "Time")];
    fields.extend(
        info.observes
            .iter()
            .map(|o| field(&o.name, &o.unit, &o.quantity)),
    );
    Schema::new(fields).with_metadata(HashMap::from([(
        "physis.simulation".to_string(),
        info.name.clone(),
    )]))
}

impl<W: Write + Send> SampleSink for ParquetSink<W> {
    fn begin(&mut self, info: &ModelInfo) -> std::io::Result<()> {
        let schema = Arc::new(schema(info));
        self.names = schema.fields().iter().map(|f| f.name().clone()).collect();
        self.units = std::iter::once("s".to_string())
            .chain(info.observes.iter().map(|o| o.unit.clone()))
            .collect();
        self.columns = vec![Vec::with_capacity(ROW_GROUP); self.names.len()];
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build();
        let file = self
            .file
            .take()
            .ok_or_else(|| io("the sink was already started"))?;
        self.writer = Some(ArrowWriter::try_new(file, schema.clone(), Some(props)).map_err(io)?);
        self.schema = Some(schema);
        Ok(())
    }

    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        let Some((t, rest)) = self.columns.split_first_mut() else {
            return Err(io("a sample arrived before the run began"));
        };
        t.push(s.t);
        for (c, v) in rest.iter_mut().zip(s.observe) {
            c.push(*v);
        }
        if t.len() >= ROW_GROUP {
            self.flush_rows()?;
        }
        Ok(())
    }

    fn end(&mut self, end: &RunEnd) -> std::io::Result<()> {
        self.flush_rows()?;
        let Some(mut writer) = self.writer.take() else {
            return Ok(());
        };
        writer.append_key_value_metadata(KeyValue::new(
            "physis.reason".into(),
            end.reason.kind.as_str().to_string(),
        ));
        writer.append_key_value_metadata(KeyValue::new(
            "physis.t_end".into(),
            format!("{:?}", end.t),
        ));
        self.file = Some(writer.into_inner().map_err(io)?);
        Ok(())
    }
}
