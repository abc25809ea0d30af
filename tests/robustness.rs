//! No input may crash the frontend: deep nesting is refused with an error, and random or
//! mutated inputs always come back with a tree and diagnostics. Everything runs on a
//! thread with a 2 MiB stack, the smallest the frontend promises to work on.

mod common;

use harn_compiler::ast_dump::dump;
use harn_compiler::parse;

const SMALL_STACK: usize = 2 * 1024 * 1024;

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap_or_else(|e| panic!("cannot spawn test thread: {e}"));
    handle
        .join()
        .unwrap_or_else(|_| panic!("parser thread panicked"))
}

fn nested(open: &str, middle: &str, close: &str, depth: usize) -> String {
    format!(
        "let x = {}{middle}{}\n",
        open.repeat(depth),
        close.repeat(depth)
    )
}

fn deep_inputs(depth: usize) -> Vec<(&'static str, String)> {
    vec![
        ("parens", nested("(", "1", ")", depth)),
        ("lists", nested("[", "1", "]", depth)),
        ("dicts", nested("{a: ", "1", "}", depth)),
        ("closures", nested("{ -> ", "1", "}", depth)),
        ("calls", nested("f(", "1", ")", depth)),
        ("interpolation", nested("\"${", "1", "}\"", depth)),
        ("negation", format!("let x = {}1\n", "-".repeat(depth))),
        ("not", format!("let x = {}1\n", "!".repeat(depth))),
        ("power", format!("let x = 2{}\n", " ** 2".repeat(depth))),
        ("sum", format!("let x = 1{}\n", " + 1".repeat(depth))),
        ("members", format!("let x = a{}\n", ".b".repeat(depth))),
        ("methods", format!("let x = a{}\n", ".b()".repeat(depth))),
        (
            "else_if",
            format!("if a {{ 1 }}{}\n", " else if a { 1 }".repeat(depth)),
        ),
        (
            "blocks",
            format!("{}{}", "if a {\n".repeat(depth), "}\n".repeat(depth)),
        ),
        (
            "fns",
            format!("{}{}", "fn f() {\n".repeat(depth), "}\n".repeat(depth)),
        ),
    ]
}

#[test]
fn very_deep_nesting_is_an_error_not_a_crash() {
    on_small_stack(|| {
        for (name, source) in deep_inputs(100_000) {
            let parsed = parse(&source);
            let first = parsed.first_error().unwrap_or_default();
            assert!(
                first.starts_with("Nesting too deep (limit 256) at "),
                "{name}: expected a nesting error, got {first:?}"
            );
        }
    });
}

#[test]
fn nesting_below_the_limit_still_parses() {
    on_small_stack(|| {
        for (name, source) in deep_inputs(120) {
            let parsed = parse(&source);
            assert!(!parsed.has_errors(), "{name}: {:?}", parsed.first_error());
            assert!(!dump(&parsed.program).is_empty());
        }
    });
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "let ",
    "var ",
    "fn ",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "->",
    " x",
    " y",
    "1",
    "2.5",
    "\"s\"",
    "\"${",
    "}\"",
    "\"\"\"",
    "r\"",
    "+",
    "-",
    "*",
    "**",
    "/",
    "%",
    "==",
    "?",
    "?.",
    "??",
    ":",
    ",",
    ";",
    "\n",
    "if ",
    "else ",
    "match ",
    "try ",
    "catch ",
    "finally ",
    "for ",
    " in ",
    "while ",
    "return ",
    "|>",
    "_",
    "...",
    "..",
    " to ",
    "5s",
    "@",
    "#",
    "/*",
    "*/",
    "//",
    "pipeline ",
    "struct ",
    "enum ",
    "impl ",
    "type ",
    "tool ",
    "spawn ",
    "parallel ",
    "é",
    "\\",
    "\r",
    "\t",
    "0x",
    "1e",
    "`",
    "'",
];

#[test]
fn random_fragment_soup_never_crashes() {
    on_small_stack(|| {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        for _ in 0..3000 {
            let len = rng.below(60);
            let source: String = (0..len)
                .map(|_| FRAGMENTS[rng.below(FRAGMENTS.len())])
                .collect();
            let parsed = parse(&source);
            let _ = dump(&parsed.program);
        }
    });
}

#[test]
fn mutated_valid_programs_never_crash() {
    let files = common::harn_files(&common::data_dir("parse/ok"));
    let sources: Vec<String> = files.iter().map(|p| common::read(p)).collect();
    on_small_stack(move || {
        let mut rng = Rng(0x0dd_ba11_cafe_f00d);
        for _ in 0..3000 {
            if sources.is_empty() {
                break;
            }
            let mut text: Vec<char> = sources[rng.below(sources.len())].chars().collect();
            for _ in 0..=rng.below(4) {
                if text.is_empty() {
                    break;
                }
                let at = rng.below(text.len());
                match rng.below(4) {
                    0 => {
                        let end = (at + rng.below(8)).min(text.len());
                        text.drain(at..end);
                    }
                    1 => {
                        let frag = FRAGMENTS[rng.below(FRAGMENTS.len())];
                        for (i, c) in frag.chars().enumerate() {
                            text.insert(at + i, c);
                        }
                    }
                    2 => {
                        let end = (at + rng.below(12)).min(text.len());
                        let chunk: Vec<char> = text[at..end].to_vec();
                        for (i, c) in chunk.into_iter().enumerate() {
                            text.insert(at + i, c);
                        }
                    }
                    _ => text[at] = ['{', '}', '(', ')', '"', '$', '\n', ' '][rng.below(8)],
                }
            }
            let source: String = text.into_iter().collect();
            let parsed = parse(&source);
            let _ = dump(&parsed.program);
        }
    });
}

/// Compiling and running deeply nested (but permitted) programs works on a small stack.
#[test]
fn deep_programs_compile_and_run_on_a_small_stack() {
    on_small_stack(|| {
        let depth = 200;
        let source = format!(
            "let x = {}1{}\nlog(x)\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let parsed = parse(&source);
        assert!(!parsed.has_errors());
        let proto = harn_compiler::compile::compile_program(&parsed.program, &source)
            .unwrap_or_else(|e| panic!("{e:?}"));
        let mut vm = harn_vm::Vm::new(harn_vm::global(), harn_vm::registry::Profile::Default);
        vm.load(std::rc::Rc::new(proto));
        vm.run_sync().unwrap_or_else(|e| panic!("{}", e.report()));
        assert!(vm.output().starts_with("[harn] [[[["), "{}", vm.output());
    });
}

/// Instruction operands name constants, registers and globals with 16 bits. A program
/// that needs more is refused with a compile error naming the limit; before, the
/// operands wrapped and the program ran with the wrong values.
#[test]
fn programs_past_the_operand_limits_are_compile_errors() {
    let many = 70_000;
    let strings: Vec<String> = (0..many).map(|i| format!("\"s{i}\"")).collect();
    let ints: Vec<String> = (0..many).map(|i| i.to_string()).collect();
    let cases = [
        (
            format!("let xs = [{}]\nlog(xs[{}])\n", strings.join(", "), many - 1),
            "Too many",
        ),
        (
            format!("let xs = [{}]\nlog(len(xs))\n", ints.join(", ")),
            "Too many registers in one function (the limit is 65534)",
        ),
        (
            (0..many)
                .map(|i| format!("fn f{i}() {{ return {i} }}\n"))
                .collect::<String>(),
            "Too many top-level names in one program (the limit is 65535)",
        ),
        (
            format!("let xs = [1]\nlet [{}x] = xs\nlog(x)\n", "_, ".repeat(many)),
            "Too many",
        ),
    ];
    for (source, expected) in cases {
        let parsed = parse(&source);
        assert!(!parsed.has_errors());
        let errors = harn_compiler::compile::compile_program(&parsed.program, &source)
            .err()
            .unwrap_or_else(|| panic!("compiled: {}", &source[..60]));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].message.contains(expected), "{errors:?}");
    }
    // Many distinct constants, each in a register that is reused: only the constant
    // table overflows.
    let source: String = (0..many).map(|i| format!("log(\"c{i}\")\n")).collect();
    let errors = harn_compiler::compile::compile_program(&parse(&source).program, &source)
        .err()
        .unwrap_or_else(|| panic!("compiled"));
    assert!(
        errors[0].message == "Too many constants in one function (the limit is 65535); split it up",
        "{errors:?}"
    );
}

/// Random and mutated programs that parse are also compiled and run (bounded by fuel):
/// errors are fine, crashes are not.
#[test]
fn mutated_programs_never_crash_the_vm() {
    let files = common::harn_files(&common::data_dir("run"));
    let sources: Vec<String> = files.iter().map(|p| common::read(p)).collect();
    on_small_stack(move || {
        let mut rng = Rng(0xfeed_beef_0123_4567);
        for _ in 0..400 {
            if sources.is_empty() {
                break;
            }
            let mut text: Vec<char> = sources[rng.below(sources.len())].chars().collect();
            if !text.is_empty() {
                let at = rng.below(text.len());
                let end = (at + rng.below(6)).min(text.len());
                text.drain(at..end);
            }
            let source: String = text.into_iter().collect();
            let parsed = parse(&source);
            if parsed.has_errors() {
                continue;
            }
            let Ok(proto) = harn_compiler::compile::compile_program(&parsed.program, &source)
            else {
                continue;
            };
            let mut vm = harn_vm::Vm::new(harn_vm::global(), harn_vm::registry::Profile::Default);
            vm.set_limits(harn_vm::Limits {
                max_instructions: Some(2_000_000),
                ..harn_vm::Limits::default()
            });
            vm.load(std::rc::Rc::new(proto));
            let _ = vm.run_sync();
        }
    });
}
