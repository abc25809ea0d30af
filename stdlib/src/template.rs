//! `render_string`: the template language of prompts, over a string. (Being written.)

use harn_vm::registry::RegistryBuilder;

pub fn register(_b: &mut RegistryBuilder) {}
