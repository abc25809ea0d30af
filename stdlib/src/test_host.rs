//! The stdlib's unit tests use the VM's test support (one test host for both crates).

pub use harn_vm::test_support::*;
