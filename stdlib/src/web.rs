//! HTTP-shaped pure helpers: cookies, signed sessions, multipart bodies, signed URLs and
//! JUnit XML reports. (Being written.)

use harn_vm::registry::RegistryBuilder;

pub fn register(_b: &mut RegistryBuilder) {}
