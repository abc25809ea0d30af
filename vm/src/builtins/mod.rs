//! The builtins the core language needs (`language.md` 9.1); the full standard library
//! registers the rest from `harn-stdlib`.

mod core;

use crate::error::VmError;
use crate::registry::{Capability, RegistryBuilder};
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
pub fn register_core(b: &mut RegistryBuilder) {
    for name in ["call_tool", "__composition_call"] {
        b.add(crate::registry::Builtin {
            name,
            signature: "fn(name: string, args?: dict) -> any",
            capability: Capability::ToolEgress,
            doc: "Calls a manifest tool by canonical name or binding identifier (code mode).",
            imp: crate::registry::Implementation::Egress,
        });
    }
    b.add(crate::registry::Builtin {
        name: "map_bounded",
        signature: "fn(items: list, f: fn(any) -> any, options?: {concurrency?: int, max_concurrent?: int}) -> {results: list<Result>, succeeded: int, failed: int}",
        capability: Capability::Pure,
        doc: "Calls `f` on every item with up to `concurrency` items in flight at once (they overlap at tool calls); each item settles to `Result.Ok(value)` or `Result.Err(message)`, in input order.",
        imp: crate::registry::Implementation::MapBounded,
    });
    b.asynchronous(
        "sleep",
        "fn(time: int | duration) -> nil",
        Capability::Clock,
        "Waits for the given milliseconds or duration without blocking other programs.",
        sleep,
    );
    core::register(b);
    b.sync(
        "iter",
        "fn(value: any) -> iter",
        Capability::Pure,
        "A lazy iterator over a list, set, range, dict (key/value pairs) or string.",
        |_, args| {
            Ok(crate::iter::iter_of(
                args.first().unwrap_or(crate::value::nil()),
            ))
        },
    );
}
