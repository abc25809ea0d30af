//! Reading source files named on the command line (`-` is standard input).

use std::io::Read;

/// A source text and the name to show for it in diagnostics.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Reads `path`, or standard input when it is `-`.
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(SourceFile {
            name: "<stdin>".into(),
            text,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{path}: source is not valid UTF-8"))?;
    Ok(SourceFile {
        name: path.to_string(),
        text,
    })
}
