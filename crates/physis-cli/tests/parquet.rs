//! `physis run --format parquet`: the file reads back through the Arrow/Parquet reader
//! with the same values, bit for bit, as the CSV output, and the units in the metadata.
#![cfg(feature = "parquet")]

use crate::common;
use common::physis;

use arrow_array::{Array, Float64Array};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

#[test]
fn parquet_round_trips_values_and_units() {
    let dir = std::env::temp_dir().join(format!("physis-parquet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("projectile.parquet");
    let p = path.to_str().expect("UTF-8 path");
    let (code, _, err) = physis(&[
        "run",
        "examples/projectile.hph",
        "--format",
        "parquet",
        "-o",
        p,
    ]);
    assert_eq!(code, 0, "{err}");
    // CSV prints the shortest decimal that reads back to the same f64: the reference.
    let (code, csv, err) = physis(&["run", "examples/projectile.hph"]);
    assert_eq!(code, 0, "{err}");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().expect("number")).collect())
        .collect();

    let file = std::fs::File::open(&path).expect("parquet written");
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).expect("parquet footer");
    let schema = builder.schema().clone();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, header);
    let meta = |i: usize, key: &str| schema.field(i).metadata().get(key).cloned();
    assert_eq!(meta(0, "unit").as_deref(), Some("s"));
    assert_eq!(meta(1, "unit").as_deref(), Some("m"));
    assert_eq!(meta(1, "quantity").as_deref(), Some("Length"));
    assert_eq!(meta(2, "unit").as_deref(), Some("m/s"));
    assert_eq!(meta(2, "quantity").as_deref(), Some("Velocity"));
    let kv = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned();
    let kv = kv.unwrap_or_default();
    let get = |k: &str| kv.iter().find(|e| e.key == k).and_then(|e| e.value.clone());
    assert_eq!(get("physis.reason").as_deref(), Some("when"));

    let mut got: Vec<Vec<f64>> = vec![Vec::new(); header.len()];
    for batch in builder.build().expect("reader") {
        let batch = batch.expect("batch");
        for (c, out) in got.iter_mut().enumerate() {
            let col = batch
                .column(c)
                .as_any()
                .downcast_ref::<Float64Array>()
                .expect("Float64");
            assert_eq!(col.null_count(), 0);
            out.extend(col.values().iter());
        }
    }
    assert_eq!(got[0].len(), rows.len());
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            assert_eq!(
                got[c][r].to_bits(),
                v.to_bits(),
                "row {r} column {}",
                header[c]
            );
        }
    }
    let t_end: f64 = get("physis.t_end").expect("t_end").parse().expect("number");
    assert_eq!(t_end.to_bits(), rows.last().expect("rows")[0].to_bits());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parquet_needs_a_file() {
    let (code, out, err) = physis(&["run", "examples/projectile.hph", "--format", "parquet"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("-o FILE"), "{err}");
}

#[test]
fn long_runs_are_written_in_bounded_row_groups() {
    let dir = std::env::temp_dir().join(format!("physis-parquet-long-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let model = dir.join("decay.hph");
    std::fs::write(
        &model,
        "simulate Decay {\n  param k : Frequency = 1 Hz\n  state y : Length = 1 m\n  \
         law y' = −k·y\n  integrate rk45 tolerance 1e-10\n  record every 1 ms\n  \
         observe h ≔ y\n  stop when t ≥ 70 s\n}\n",
    )
    .expect("model written");
    let path = dir.join("decay.parquet");
    let (code, _, err) = physis(&[
        "run",
        model.to_str().expect("UTF-8"),
        "--format",
        "parquet",
        "-o",
        path.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    let file = std::fs::File::open(&path).expect("parquet written");
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).expect("parquet footer");
    let groups: Vec<i64> = builder
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect();
    // 70 s every millisecond: the first group full, the rest in the second.
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert_eq!(groups[0], 65_536);
    let total = groups[0] + groups[1];
    assert!((70_001..=70_002).contains(&total), "{total} rows");
    let mut n = 0;
    for batch in builder.build().expect("reader") {
        let batch = batch.expect("batch");
        let col = |c: usize| {
            batch
                .column(c)
                .as_any()
                .downcast_ref::<Float64Array>()
                .expect("Float64")
                .values()
                .to_vec()
        };
        for (t, h) in col(0).into_iter().zip(col(1)) {
            assert!((h - (-t).exp()).abs() < 1e-8, "y({t}) = {h}");
            n += 1;
        }
    }
    assert_eq!(n, total);
    let _ = std::fs::remove_dir_all(&dir);
}
