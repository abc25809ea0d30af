//! Reading source files named on the command line (`-` is standard input).

use std::io::Read;

/// A source text and the name to show for it in diagnostics.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Why a source could not be read.
pub enum ReadError {
    /// The file or standard input could not be read at all.
    Unreadable(String),
    /// It was read but is not UTF-8; `lossy` is its text with bad bytes replaced.
    NotUtf8 { message: String, lossy: String },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Unreadable(m) | ReadError::NotUtf8 { message: m, .. } => f.write_str(m),
        }
    }
}

/// Reads `path`, or standard input when it is `-`.
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    read_source_typed(path).map_err(|e| e.to_string())
}

/// [`read_source`], telling an unreadable file from one that is not UTF-8.
pub fn read_source_typed(path: &str) -> Result<SourceFile, ReadError> {
    let (name, bytes) = if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| ReadError::Unreadable(format!("cannot read standard input: {e}")))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(path)
            .map_err(|e| ReadError::Unreadable(format!("cannot read {path}: {e}")))?;
        (path.to_string(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile { name, text }),
        Err(e) => Err(ReadError::NotUtf8 {
            message: format!("{name}: source is not valid UTF-8"),
            lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }),
    }
}
