//! One module per subcommand.

pub mod code_mode;
pub mod manifest;
pub mod parse;
pub mod run;
pub mod test;
