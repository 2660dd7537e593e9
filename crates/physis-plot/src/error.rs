//! Why a figure could not be drawn.

/// A plotting failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// The output path has no `.svg` or `.png` extension.
    #[error("cannot tell the image format of `{path}`: use a .svg or .png file name")]
    Extension {
        /// The path given.
        path: String,
    },
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("image size {width}x{height} is outside 1..=8192 pixels per side")]
    Size {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// Nothing to draw (no column, no node, no sample).
    #[error("nothing to plot")]
    Empty,
    /// A column's length does not match the time or coordinate axis.
    #[error("`{what}` has {len} values, expected {expected}")]
    Length {
        /// Which column.
        what: String,
        /// Its length.
        len: usize,
        /// The expected length.
        expected: usize,
    },
    /// The bundled font could not be registered.
    #[error("the bundled font could not be loaded")]
    Font,
    /// The drawing backend failed.
    #[error("drawing failed: {message}")]
    Draw {
        /// The backend's message.
        message: String,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {message}")]
    Encode {
        /// The encoder's message.
        message: String,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Maps a plotters error to [`PlotError::Draw`].
pub(crate) fn drawing(e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw {
        message: e.to_string(),
    }
}

/// Maps a PNG encoder error to [`PlotError::Encode`].
pub(crate) fn encoding(e: png::EncodingError) -> PlotError {
    PlotError::Encode {
        message: e.to_string(),
    }
}
