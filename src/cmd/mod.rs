//! One module per subcommand.

pub mod parse;
pub mod run;
pub mod test;
