//! The `hostio` family, implemented in `harn-stdlib` (`stdlib/src/hostio.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "read_file",
        "fn(path: string) -> string",
        IoFs,
        "The file's contents as UTF-8 text.",
    ),
    decl(
        "write_file",
        "fn(path: string, content: string) -> nil",
        IoFs,
        "Writes (replaces) a file.",
    ),
    decl(
        "append_file",
        "fn(path: string, content: string) -> nil",
        IoFs,
        "Appends to a file, creating it if needed.",
    ),
    decl(
        "list_dir",
        "fn(path?: string) -> list<string>",
        IoFs,
        "Sorted entry names of a directory.",
    ),
    decl(
        "exists",
        "fn(path: string) -> bool",
        IoFs,
        "Whether the path exists.",
    ),
    decl(
        "is_dir",
        "fn(path: string) -> bool",
        IoFs,
        "Whether the path is a directory.",
    ),
    decl(
        "mkdir",
        "fn(path: string) -> nil",
        IoFs,
        "Creates a directory and its parents.",
    ),
    decl(
        "delete_file",
        "fn(path: string) -> nil",
        IoFs,
        "Removes a file.",
    ),
    decl(
        "env",
        "fn(name: string, default?: any) -> string | any",
        IoEnv,
        "An environment variable, or the default (nil).",
    ),
    decl(
        "exec",
        "fn(argv: list<string>, options?: {cwd?: string, stdin?: string, env?: dict}) -> {status: int, ok: bool, stdout: string, stderr: string}",
        IoProcess,
        "Runs a program with an argument vector (no shell); returns `{status, ok, stdout, stderr}`.",
    ),
    decl(
        "run_command",
        "fn(argv: list<string>, options?: {cwd?: string, stdin?: string, env?: dict}) -> {status: int, ok: bool, stdout: string, stderr: string}",
        IoProcess,
        "Runs a program with an argument vector (no shell); returns `{status, ok, stdout, stderr}`.",
    ),
];
