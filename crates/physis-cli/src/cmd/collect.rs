//! Sinks that keep what a plot needs: chosen columns with event times (thinned to a
//! bounded number of rows), or one frame of a field.

use physis_runtime::{Sample, SampleKind, SampleSink};

use super::columns::ColumnSpec;

/// Rows kept before thinning halves them (a plot cannot show more anyway).
pub const MAX_ROWS: usize = 20_000;

/// Collects the columns of `specs` at every sample, and the times events fired.
/// Beyond [`MAX_ROWS`] rows every other ordinary row is dropped and the stride doubles;
/// the initial, final and event samples are always kept.
pub struct Collector<'a> {
    specs: &'a [ColumnSpec],
    /// Sample times.
    pub time: Vec<f64>,
    /// One column per spec.
    pub values: Vec<Vec<f64>>,
    /// Times an event fired (one per firing instant).
    pub events: Vec<f64>,
    pinned: Vec<bool>,
    stride: u64,
    seen: u64,
}

impl<'a> Collector<'a> {
    /// Collects the columns named by `specs`.
    pub fn new(specs: &'a [ColumnSpec]) -> Self {
        Self {
            specs,
            time: Vec::new(),
            values: vec![Vec::new(); specs.len()],
            events: Vec::new(),
            pinned: Vec::new(),
            stride: 1,
            seen: 0,
        }
    }

    fn thin(&mut self) {
        let keep: Vec<bool> = self
            .pinned
            .iter()
            .enumerate()
            .map(|(i, &p)| p || i % 2 == 0)
            .collect();
        let filter = |v: &mut Vec<f64>| {
            let mut k = keep.iter();
            v.retain(|_| k.next().copied().unwrap_or(true));
        };
        filter(&mut self.time);
        self.values.iter_mut().for_each(filter);
        let mut k = keep.iter();
        self.pinned.retain(|_| k.next().copied().unwrap_or(true));
        self.stride *= 2;
    }
}

impl SampleSink for Collector<'_> {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        if s.kind == SampleKind::BeforeEvent && self.events.last() != Some(&s.t) {
            self.events.push(s.t);
        }
        let pinned = !matches!(s.kind, SampleKind::Step | SampleKind::Record);
        let due = self.seen.is_multiple_of(self.stride);
        self.seen += 1;
        if !(pinned || due) {
            return Ok(());
        }
        self.time.push(s.t);
        self.pinned.push(pinned);
        for (spec, col) in self.specs.iter().zip(&mut self.values) {
            col.push(spec.value(s.t, s.state, s.observe));
        }
        if self.time.len() > MAX_ROWS {
            self.thin();
        }
        Ok(())
    }
}

/// Keeps the slots `offset..offset + len` at the sample nearest to `at` (the last sample
/// when `at` is `None`; on a tie the later one).
pub struct FrameSink {
    offset: usize,
    len: usize,
    at: Option<f64>,
    /// Time of the kept frame.
    pub t: f64,
    /// The kept slots.
    pub values: Vec<f64>,
}

impl FrameSink {
    /// A sink for the field at `offset` with `len` nodes.
    pub fn new(offset: usize, len: usize, at: Option<f64>) -> Self {
        Self {
            offset,
            len,
            at,
            t: f64::NAN,
            values: Vec::new(),
        }
    }
}

impl SampleSink for FrameSink {
    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        let better = match self.at {
            _ if self.values.is_empty() => true,
            None => true,
            Some(at) => (s.t - at).abs() <= (self.t - at).abs(),
        };
        if better && let Some(slots) = s.state.get(self.offset..self.offset + self.len) {
            self.t = s.t;
            self.values.clear();
            self.values.extend_from_slice(slots);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::columns::Source;
    use super::*;

    fn sample(t: f64, kind: SampleKind, state: &[f64]) -> Sample<'_> {
        Sample {
            t,
            state,
            observe: &[],
            kind,
        }
    }

    #[test]
    fn thinning_keeps_ends_and_events_and_bounds_rows() {
        let specs = [ColumnSpec {
            name: "y".into(),
            unit: "m".into(),
            quantity: "Length".into(),
            source: Source::Slot(0),
        }];
        let mut c = Collector::new(&specs);
        let n = 5 * MAX_ROWS;
        for i in 0..=n {
            let t = i as f64;
            let kind = match i {
                0 => SampleKind::Initial,
                _ if i == n => SampleKind::Final,
                7777 => SampleKind::BeforeEvent,
                _ => SampleKind::Step,
            };
            c.sample(&sample(t, kind, &[2.0 * t])).unwrap();
        }
        assert!(c.time.len() <= MAX_ROWS + 1, "{}", c.time.len());
        assert!(c.time.len() > MAX_ROWS / 4);
        assert_eq!(c.time.first(), Some(&0.0));
        assert_eq!(c.time.last(), Some(&(n as f64)));
        assert!(c.time.contains(&7777.0));
        assert_eq!(c.events, vec![7777.0]);
        assert!(c.time.windows(2).all(|w| w[0] < w[1]));
        for (t, y) in c.time.iter().zip(&c.values[0]) {
            assert_eq!(*y, 2.0 * t);
        }
    }

    #[test]
    fn frame_nearest_to_the_asked_time() {
        let mut f = FrameSink::new(1, 2, Some(0.9));
        for (t, v) in [(0.0, 1.0), (0.5, 2.0), (1.0, 3.0), (1.5, 4.0)] {
            f.sample(&sample(t, SampleKind::Step, &[9.0, v, -v]))
                .unwrap();
        }
        assert_eq!((f.t, f.values.as_slice()), (1.0, &[3.0, -3.0][..]));
        let mut last = FrameSink::new(0, 1, None);
        for t in [0.0, 1.0, 2.0] {
            last.sample(&sample(t, SampleKind::Step, &[t])).unwrap();
        }
        assert_eq!(last.values, vec![2.0]);
    }
}
