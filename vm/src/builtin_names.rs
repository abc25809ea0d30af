//! The names of the process registry's builtins by id, for displaying a builtin value
//! (`<builtin len>`). Filled once when the registry is installed, and kept apart from
//! the registry so that displaying a value needs nothing above the value layer.

use std::sync::OnceLock;

static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();

/// Records the installed registry's names (first call wins, like the registry).
pub fn record(names: Vec<&'static str>) {
    let _ = NAMES.set(names);
}

/// The name of builtin `id` (`?` before any registry is installed).
pub fn name(id: u32) -> &'static str {
    NAMES
        .get()
        .and_then(|names| names.get(id as usize))
        .copied()
        .unwrap_or("?")
}
