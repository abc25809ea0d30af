//! Data formats, each on the crate made for it: CSV (`csv`), YAML (`yaml-rust2`), TOML
//! (`toml`) and gzip (`flate2`). Every parser's output is charged to the run as it is
//! built; every writer checks its output size before building it.

use harn_vm::registry::RegistryBuilder;

mod csv;
mod gzip;
mod toml;
mod yaml;

pub fn register(b: &mut RegistryBuilder) {
    csv::register(b);
    yaml::register(b);
    toml::register(b);
    gzip::register(b);
}
