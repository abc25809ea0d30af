//! The builtins the core language needs (`language.md` 9.1); the full standard library
//! registers the rest from `harn-stdlib`.

pub(crate) mod core;

use crate::error::VmError;
use crate::registry::{Registry, RegistryBuilder};
use crate::value::Value;

/// `sleep(ms | duration)`: suspends the program (other VMs on the runtime keep going).
fn sleep(args: &[Value]) -> Result<crate::native::NativeFuture, VmError> {
    let ms = match args.first() {
        Some(Value::Int(n)) => *n,
        Some(Value::Duration(ms)) => *ms,
        Some(Value::Float(x)) => *x as i64,
        Some(other) => {
            return Err(VmError::type_error(format!(
                "sleep: expected int milliseconds or a duration, got {}",
                other.type_name()
            )));
        }
        None => 0,
    };
    let ms = u64::try_from(ms.max(0)).unwrap_or(0);
    Ok(Box::pin(async move {
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
        Ok(Value::Nil)
    }))
}

/// Registers the core builtins.
/// Installs the process registry: the core builtins plus whatever `extend` registers
/// (the standard library, an embedder's own). Only the first call has an effect.
pub fn init(extend: impl FnOnce(&mut RegistryBuilder)) -> &'static Registry {
    crate::registry::install(|| {
        let mut b = RegistryBuilder::default();
        register_core(&mut b);
        extend(&mut b);
        b.build()
    })
}

/// The process registry (core builtins only if nothing was installed first).
pub fn global() -> &'static Registry {
    init(|_| {})
}

pub fn register_core(b: &mut RegistryBuilder) {
    b.egress("call_tool");
    b.egress("__composition_call");
    b.implement("map_bounded", crate::registry::Implementation::MapBounded);
    b.asynchronous("sleep", sleep);
    core::register(b);
    b.sync("iter", |_, args| {
        Ok(crate::iter::iter_of(
            args.first().unwrap_or(crate::value::nil()),
        ))
    });
}
