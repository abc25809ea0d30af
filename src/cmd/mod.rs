//! One module per subcommand.

pub mod builtins;
pub mod code_mode;
pub mod fmt;
pub mod manifest;
pub mod parse;
pub mod run;
pub mod serve;
pub mod test;

/// Writes `text` to stdout, ignoring a closed pipe (`harnc builtins | head` must not
/// panic).
pub fn write_stdout(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
