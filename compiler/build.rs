//! Embeds the standard-library modules written in Harn (`std/**/*.harn`): writes a table
//! of `("std/<path>", source)` pairs that `std_modules.rs` includes, so adding a module is
//! adding a file.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "harn") {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("std");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut table = String::from("&[\n");
    for file in &files {
        let Ok(rel) = file.strip_prefix(&root) else {
            continue;
        };
        let name = rel.with_extension("").to_string_lossy().replace('\\', "/");
        let _ = writeln!(
            table,
            "    (\"std/{name}\", include_str!({:?})),",
            file.display().to_string()
        );
    }
    table.push(']');
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("std_modules.rs");
    if let Err(e) = std::fs::write(&out, table) {
        println!("cargo:warning=cannot write {}: {e}", out.display());
    }
}
