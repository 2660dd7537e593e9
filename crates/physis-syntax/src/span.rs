//! Byte-offset spans and their translation to lines and columns.

use std::ops::Range;

/// A half-open byte range `start..end` into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Span {
        // Sources larger than 4 GiB are refused by the parser, so the casts cannot truncate there;
        // saturate anyway so a misuse cannot wrap.
        let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Span {
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range, for slicing the source.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Number of bytes covered.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// Whether the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The source text under the span, or `""` when the span is outside `source` or not on
    /// character boundaries.
    pub fn text(self, source: &str) -> &str {
        source.get(self.range()).unwrap_or("")
    }
}

/// A 1-based line and column; the column counts Unicode scalar values, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// Line starts of one source, for byte offset -> line/column look-ups.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the line starts of `source`: after each `\n`, and after each `\r` not followed by
    /// `\n` (old Mac line endings), as the lexer counts them.
    pub fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        let bytes = source.as_bytes();
        starts.extend(source.match_indices(['\n', '\r']).filter_map(|(i, _)| {
            let lone_cr = bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
            (bytes[i] == b'\n' || lone_cr).then_some(i + 1)
        }));
        LineIndex { starts }
    }

    /// Line and column of byte `offset`; offsets past the end map to the end, offsets inside a
    /// multi-byte character count that character as reached.
    pub fn line_col(&self, source: &str, offset: usize) -> LineCol {
        let offset = offset.min(source.len());
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let column = source
            .get(start..)
            .unwrap_or("")
            .char_indices()
            .take_while(|(i, _)| start + i < offset)
            .count();
        LineCol {
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }

    /// 1-based line number of byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        u32::try_from(line + 1).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = "param v₀ : Velocity\n  law α' = −x";
        let idx = LineIndex::new(src);
        let at = |needle: &str| idx.line_col(src, src.find(needle).unwrap());
        assert_eq!(
            at(":"),
            LineCol {
                line: 1,
                column: 10
            }
        );
        assert_eq!(
            at("="),
            LineCol {
                line: 2,
                column: 10
            }
        );
        assert_eq!(
            at("x"),
            LineCol {
                line: 2,
                column: 13
            }
        );
    }

    #[test]
    fn offsets_past_the_end_clamp() {
        let src = "a\nbc";
        let idx = LineIndex::new(src);
        assert_eq!(idx.line_col(src, 99), LineCol { line: 2, column: 3 });
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(2), 2);
    }
}
