//! A finished run seen as named columns with units ([`RunColumns`]): what a typed run
//! result (the `NameRun` of generated code) hands to writers and, with the `arrow`
//! feature, to a columnar frame, without the generated code naming any feature.

/// One column of a run: its name, SI unit and values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnRef<'a> {
    /// Column name (`t`, `height`).
    pub name: &'a str,
    /// SI unit text (`s`, `m/s`, `1`); empty when unknown.
    pub unit: &'a str,
    /// One value per sample.
    pub values: &'a [f64],
}

/// A run result as columns: the time first, then one per observe, all of one length.
pub trait RunColumns {
    /// Every column in order, time first.
    fn columns(&self) -> Vec<ColumnRef<'_>>;

    /// The columns as one Arrow record batch, each field carrying its unit in the
    /// metadata key [`crate::frame::UNIT_KEY`] (values copied bit for bit).
    #[cfg(feature = "arrow")]
    fn to_record_batch(&self) -> Result<arrow_array::RecordBatch, crate::frame::FrameError> {
        let cols: Vec<crate::frame::Column<'_>> = self
            .columns()
            .into_iter()
            .map(|c| crate::frame::Column {
                name: c.name,
                unit: c.unit,
                values: c.values,
            })
            .collect();
        crate::frame::record_batch(&cols)
    }
}
