//! The size limit of a source file: a `.hph` file longer than [`MAX_SOURCE_BYTES`] is
//! PH0009, found before the file is read past the limit or decoded.

use std::io::Read;

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The longest source file Physis reads: 16 MiB (docs/limits.md). Every later pass is linear
/// or bounded per expression, so this bounds the whole front end's work.
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Reads the file at `path`, at most one byte past [`MAX_SOURCE_BYTES`]: a longer file (or an
/// endless one such as `/dev/zero`) is read only that far, and [`decode_source`]
/// (crate::decode_source) then refuses it with PH0009.
pub fn read_source_bytes(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_SOURCE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// PH0009 when `len` bytes are past the limit, at the start of the file.
pub(crate) fn too_large(len: usize) -> Option<Diagnostic> {
    (len > MAX_SOURCE_BYTES).then(|| {
        Diagnostic::error(
            Code::SourceTooLarge,
            Span::new(0, 0),
            format!(
                "the file is longer than {MAX_SOURCE_BYTES} bytes (16 MiB), the most Physis reads"
            ),
        )
        .with_label("the file starts here")
        .with_hint("split the models over several files")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode_source;

    /// A comment padded to exactly `len` bytes (ASCII, so any length is UTF-8).
    fn file_of(len: usize) -> Vec<u8> {
        let mut bytes = b"// ".to_vec();
        bytes.resize(len, b'x');
        bytes
    }

    #[test]
    fn source_size_limit_at_its_edge_and_one_past_it() {
        let (text, d) = decode_source(&file_of(MAX_SOURCE_BYTES));
        assert!(d.is_none());
        assert_eq!(text.len(), MAX_SOURCE_BYTES);
        let (text, d) = decode_source(&file_of(MAX_SOURCE_BYTES + 1));
        let d = d.expect("PH0009");
        assert_eq!(d.code, Code::SourceTooLarge);
        assert_eq!(d.primary.span, Span::new(0, 0));
        assert!(d.message.contains("16777216"), "{}", d.message);
        assert!(text.is_empty());
    }

    #[test]
    fn a_long_file_is_read_only_one_byte_past_the_limit() {
        let dir = std::env::temp_dir().join(format!("physis-size-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.hph");
        std::fs::write(&path, file_of(MAX_SOURCE_BYTES + 4096)).unwrap();
        let bytes = read_source_bytes(&path).unwrap();
        assert_eq!(bytes.len(), MAX_SOURCE_BYTES + 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
